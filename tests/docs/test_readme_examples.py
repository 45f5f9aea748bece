"""Every code block of the README, CONTRIBUTING.md and the documentation site (docs/**/*.md)
runs as written. The Python blocks of one page run top to bottom in one namespace of their
own (as a reader following that page would; each page makes its own client), against the
offline stand-in, with KIMI_API_KEY and KIMI_BASE_URL pointing at it. A block of pytest
tests (``def test_``) is also run by pytest as a test file, its cassettes recorded from the
stand-in and then replayed. The shell blocks of ``kimi`` commands are run too, the
service's address (https://direct.evolink.ai) standing for the stand-in's. Other blocks
(``text``, ``json``, ``make`` and editor commands) are shown, not run."""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import struct
import subprocess
import sys
import types
import unicodedata
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kimi_ext.testing import KimiStandIn
from tests.support.parallel import RAY, page_group
from tests.support.paths import ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
# The pages whose blocks run: the README first, then the contributor guide and the site.
PAGES = [README, ROOT / "CONTRIBUTING.md", *sorted(DOCS.rglob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    page: Path
    lang: str
    line: int  # of the opening fence, 1-based
    code: str

    @property
    def id(self) -> str:
        shown = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page
        return f"{shown}:{self.line}"


def blocks_of(page: Path, text: str | None = None) -> list[Block]:
    """The fenced blocks of ``page`` (or of ``text``, read as that page), in order."""
    text = page.read_text(encoding="utf-8") if text is None else text
    return [
        Block(page, m.group(1), text.count("\n", 0, m.start()) + 1, m.group(2))
        for m in FENCE.finditer(text)
    ]


def blocks(lang: str, pages: list[Path] = PAGES) -> list[Block]:
    return [b for page in pages for b in blocks_of(page) if b.lang == lang]


def is_command_block(block: Block) -> bool:
    """A shell block made only of ``kimi`` commands (not ``make`` or ``pip``): those run."""
    lines = [line for line in block.code.splitlines() if line.split("#")[0].strip()]
    return bool(lines) and all(line.startswith(("kimi ", "KIMI_API_KEY=")) for line in lines)


PYTHON = blocks("python")
PYTEST = [b for b in PYTHON if re.search(r"^def test_", b.code, re.MULTILINE)]
SERVICE = "https://direct.evolink.ai"
COMMANDS = [b for b in blocks("bash") if is_command_block(b)]


def params(found: list[Block], *, slow: bool = False) -> list[Any]:
    """Each block as a test, in its page's group (tests/support/parallel.py): in parallel
    runs a page's blocks run in one worker, in order, and a page that starts Ray runs with
    the Ray tests; such a page is slow (`make test-fast` leaves it out)."""
    out = []
    for b in found:
        group = page_group(b.page.relative_to(ROOT).as_posix())
        marks = [pytest.mark.xdist_group(group)]
        if slow or group == RAY:
            marks.append(pytest.mark.slow)
        out.append(pytest.param(b, id=b.id, marks=marks))
    return out


def tiny_png() -> bytes:
    """A valid 1x1 PNG, for the README's ``photo.png``."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x80\x00")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")  # fmt: skip


@pytest.fixture(scope="module")
def reader_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reader's working directory: the files the README's examples name."""
    where = tmp_path_factory.mktemp("reader")
    (where / "photo.png").write_bytes(tiny_png())
    # The Batch section's files, for its commands run on their own (its first Python block
    # writes the same requests.jsonl).
    ask = [{"role": "user", "content": "One word for snow?"}]
    requests = [
        {"custom_id": "q1", "method": "POST", "url": "/v1/chat/completions",
         "body": {"model": "kimi-k3.1-pro", "messages": ask}},
        {"custom_id": "q3", "method": "POST", "url": "/v1/responses",
         "body": {"model": "kimi-k3.1-pro", "input": "One word for rain?"}},
    ]  # fmt: skip
    (where / "requests.jsonl").write_text("".join(json.dumps(r) + "\n" for r in requests))
    (where / "prices.json").write_text(
        json.dumps({"kimi-k3.1-pro": {"input": 0.6, "cached_input": 0.15, "output": 2.5}})
    )
    (where / "schema.json").write_text(
        json.dumps({
            "type": "object",
            "properties": {"description": {"type": "string"}},
            "required": ["description"],
        })
    )  # fmt: skip
    return where


@pytest.fixture(scope="module")
def standin() -> Iterator[KimiStandIn]:
    with KimiStandIn() as server:
        yield server


class Reader:
    """Runs each page's Python blocks in order in one namespace per page; a block runs once."""

    def __init__(self) -> None:
        self.modules: dict[Path, types.ModuleType] = {}
        self.done: dict[Block, BaseException | None] = {}

    def namespace(self, page: Path) -> dict[str, Any]:
        if page not in self.modules:
            # A real module, as a script is: dataclasses and pydantic look their class's
            # module up in sys.modules.
            module = types.ModuleType(f"docs_reader_{len(self.modules)}")
            sys.modules[module.__name__] = module
            self.modules[page] = module
        return self.modules[page].__dict__

    def run_through(self, block: Block, page_blocks: list[Block] | None = None) -> None:
        """Runs the blocks of ``block``'s page up to it, each once, then ``block``."""
        if page_blocks is None:
            page_blocks = [b for b in PYTHON if b.page == block.page]
        namespace = self.namespace(block.page)
        for earlier in page_blocks[: page_blocks.index(block) + 1]:
            if earlier not in self.done:
                try:
                    exec(compile(earlier.code, earlier.id, "exec"), namespace)
                except BaseException as exc:
                    self.done[earlier] = exc
                    raise
                self.done[earlier] = None
            elif self.done[earlier] is not None and earlier != block:
                pytest.fail(f"an earlier block ({earlier.id}) failed: {self.done[earlier]!r}")

    def close(self) -> None:
        for module in self.modules.values():
            sys.modules.pop(module.__name__, None)


@pytest.fixture(scope="module")
def reader() -> Iterator[Reader]:
    reader = Reader()
    yield reader
    reader.close()


@pytest.fixture
def as_reader(
    standin: KimiStandIn, reader_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> KimiStandIn:
    for name in list(os.environ):
        if name.startswith("KIMI_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("KIMI_API_KEY", standin.api_key)
    monkeypatch.setenv("KIMI_BASE_URL", standin.base_url)
    monkeypatch.chdir(reader_dir)
    return standin


README_LINES = 250  # the README is a user's first page; the rest is in docs/


def test_the_readme_is_a_first_page_that_links_every_guide() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_LINES
    code = "\n".join(b.code for b in blocks("python", [README]))
    for needed in ("client.messages.create(", "client.chat.completions.create(",
                   "client.responses.create(", ".stream(", "History", "run_tools(",
                   "except kimi_ext."):  # fmt: skip
        assert needed in code, needed
    # make test stays the README's one test command.
    assert any("make test " in b.code for b in blocks("bash", [README]))
    # Every guide; the README links CONTRIBUTING.md itself, which docs/contributing.md shows.
    guides = {p.relative_to(ROOT).as_posix() for p in DOCS.glob("*.md")}
    guides -= {"docs/index.md", "docs/contributing.md"}
    linked = set(re.findall(r"\]\((docs/[\w./-]+\.md)(?:#[\w-]+)?\)", text))
    assert not sorted(guides - linked), "guides the README does not link"
    assert "(CONTRIBUTING.md)" in text


def slug(heading: str) -> str:
    """The anchor MkDocs' toc extension gives a heading (its default slugify)."""
    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode()
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text).strip().lower())


def test_every_link_of_the_readme_and_contributing_reaches_its_page_and_heading() -> None:
    """The site's own links are checked by ``mkdocs build --strict``; these two pages are
    read on the repository, outside the site."""
    for page in (README, ROOT / "CONTRIBUTING.md"):
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if target.startswith(("http://", "https://")):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path) if path else page
            assert file.exists(), f"{page.name}: {target}"
            if anchor:
                headings = re.findall(r"^#+ (.+)$", file.read_text("utf-8"), re.MULTILINE)
                assert anchor in {slug(h) for h in headings}, f"{page.name}: {target}"


def test_the_docs_have_the_blocks_they_should() -> None:
    assert len(PYTHON) >= 30
    pages = {b.page.relative_to(ROOT).as_posix() for b in PYTHON}
    for page in ("README.md", "docs/formats.md", "docs/streaming.md", "docs/history.md",
                 "docs/long-conversations.md", "docs/tools.md", "docs/structured-output.md",
                 "docs/errors.md", "docs/batch.md", "docs/telemetry.md", "docs/testing.md",
                 "docs/raw-client.md"):  # fmt: skip
        assert page in pages, page
    code = "\n".join(b.code for b in PYTHON)
    for needed in ("AsyncKimi", "asyncio.run", "image_block(", "input_image(", "web_search",
                   "BaseModel", "create_message.sync(", "fallback_base_url=None"):  # fmt: skip
        assert needed in code, needed
    assert "[...]" not in code and "..." not in re.sub(r"#.*", "", code)
    assert {b.page.name for b in COMMANDS} >= {"cli.md", "batch.md", "testing.md"}
    assert PYTEST and "kimi_cassette" in PYTEST[0].code, "the cassette fixture"


def test_a_broken_block_in_a_docs_page_fails(tmp_path: Path) -> None:
    """The reader runs a page's blocks in its own namespace and lets a failure through:
    a block that breaks fails its test, and the blocks after it report it."""
    page = tmp_path / "page.md"
    text = "```python\nvalue = 1\n```\n\n```python\nassert value == 2, value\n```\n"
    first, second = blocks_of(page, text)
    reader = Reader()
    try:
        reader.run_through(first, [first, second])
        assert reader.namespace(page)["value"] == 1
        with pytest.raises(AssertionError, match="1"):
            reader.run_through(second, [first, second])
    finally:
        reader.close()


@pytest.mark.parametrize("block", params(PYTHON))
def test_python_block_runs_as_written(block: Block, reader: Reader, as_reader: KimiStandIn) -> None:
    before = len(as_reader.requests)
    reader.run_through(block)
    talks = any(
        call in block.code
        for call in (".create(", ".parse(", ".stream(", "run_tools(", "resume(", ".sync(")
    )
    if talks and "KimiStandIn()" not in block.code and block not in PYTEST:
        # It really went over the wire to the stand-in named by KIMI_BASE_URL.
        assert len(as_reader.requests) > before, f"{block.id} sent nothing"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.parametrize("block", params(COMMANDS))
def test_kimi_command_block_runs(block: Block, as_reader: KimiStandIn, reader_dir: Path) -> None:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    port = str(free_port())
    servers: list[subprocess.Popen[str]] = []
    try:
        for raw_line in block.code.splitlines():
            line = raw_line.split("  #")[0].strip()
            if not line:
                continue
            line = line.replace("8765", port)  # a free port: the machine is shared
            line = line.replace(SERVICE, as_reader.base_url)  # no network
            if line.startswith("kimi stand-in"):
                server = subprocess.Popen(
                    shlex.split(line), stdout=subprocess.PIPE, text=True, env=env, cwd=reader_dir
                )
                servers.append(server)
                assert server.stdout is not None
                assert "listening on" in server.stdout.readline()
                continue
            # Interactive lines read one turn from stdin, as if typed.
            run = subprocess.run(
                ["bash", "-c", line], input="Hello\n", capture_output=True, text=True,
                env=env, cwd=reader_dir, timeout=60,
            )  # fmt: skip
            assert run.returncode == 0, f"{block.id}: {line}\n{run.stderr}"
            assert "Traceback" not in run.stderr
            if "> out.json" in line:
                json.loads((reader_dir / "out.json").read_text())
            elif "--json " in line:
                json.loads(run.stdout)
            elif "--version" not in line:
                assert run.stdout.strip(), f"{line}: no answer on stdout"
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=20)


@pytest.mark.parametrize("block", params(PYTEST, slow=True))  # pytest in a subprocess
def test_pytest_block_records_then_replays(
    block: Block, as_reader: KimiStandIn, tmp_path: Path
) -> None:
    (tmp_path / "test_readme.py").write_text(block.code)
    # The plugin enabled as the README says (installing kimi-ext does not).
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["kimi_ext.testing.pytest_plugin"]\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIMI_", "PYTEST_"))}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_readme.py"]
    before = len(as_reader.requests)
    recording = {**env, "KIMI_API_KEY": as_reader.api_key}
    record = subprocess.run(
        [*command, "--kimi-record-mode=once", "--kimi-upstream", as_reader.base_url],
        cwd=tmp_path, env=recording, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert record.returncode == 0, record.stdout
    assert len(as_reader.requests) > before, "nothing was recorded"
    assert list((tmp_path / "cassettes" / "test_readme").glob("*.json"))
    replay = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=120)  # fmt: skip
    assert replay.returncode == 0, replay.stdout
