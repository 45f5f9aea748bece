"""Every Python block of README.md runs as written, top to bottom in one namespace (as a
reader following the README would), against the offline stand-in, with KIMI_API_KEY and
KIMI_BASE_URL pointing at it. A block of pytest tests (``def test_``) is also run by
pytest as a test file, its cassettes recorded from the stand-in and then replayed. The
shell blocks of ``kimi`` commands are run too, the service's address
(https://direct.evolink.ai) standing for the stand-in's."""

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
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kimi_ext.testing import KimiStandIn
from tests.support.paths import ROOT

README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    lang: str
    line: int  # of the opening fence, 1-based
    code: str

    @property
    def id(self) -> str:
        return f"README.md:{self.line}"


def blocks(lang: str) -> list[Block]:
    text = README.read_text(encoding="utf-8")
    return [
        Block(m.group(1), text.count("\n", 0, m.start()) + 1, m.group(2))
        for m in FENCE.finditer(text)
        if m.group(1) == lang
    ]


PYTHON = blocks("python")
PYTEST = [b for b in PYTHON if re.search(r"^def test_", b.code, re.MULTILINE)]
SERVICE = "https://direct.evolink.ai"
COMMANDS = [
    b
    for b in blocks("bash")
    if any(line.split("#")[0].strip() for line in b.code.splitlines())
    and all(
        line.startswith(("kimi ", "KIMI_API_KEY="))
        for line in b.code.splitlines()
        if line.split("#")[0].strip()
    )
]


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
    """Runs the Python blocks in order in one namespace; a block runs once."""

    def __init__(self) -> None:
        # A real module, as a script is: dataclasses and pydantic look their class's
        # module up in sys.modules.
        self.module = types.ModuleType("readme_reader")
        sys.modules[self.module.__name__] = self.module
        self.namespace: dict[str, Any] = self.module.__dict__
        self.done: dict[int, BaseException | None] = {}

    def run_through(self, index: int) -> None:
        for i in range(index + 1):
            if i not in self.done:
                block = PYTHON[i]
                try:
                    exec(compile(block.code, block.id, "exec"), self.namespace)
                except BaseException as exc:
                    self.done[i] = exc
                    raise
                self.done[i] = None
            elif self.done[i] is not None and i < index:
                pytest.fail(f"an earlier block ({PYTHON[i].id}) failed: {self.done[i]!r}")


@pytest.fixture(scope="module")
def reader() -> Iterator[Reader]:
    reader = Reader()
    yield reader
    sys.modules.pop(reader.module.__name__, None)


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


def test_the_readme_has_the_blocks_it_should() -> None:
    assert len(PYTHON) >= 15
    code = "\n".join(b.code for b in PYTHON)
    for needed in ("AsyncKimi", "asyncio.run", "image_block(", "input_image(", "web_search",
                   "BaseModel", "create_message.sync(", "fallback_base_url=None"):  # fmt: skip
        assert needed in code, needed
    assert "[...]" not in code and "..." not in re.sub(r"#.*", "", code)
    assert COMMANDS, "the kimi command blocks"
    assert PYTEST and "kimi_cassette" in PYTEST[0].code, "the cassette fixture"


@pytest.mark.parametrize("index", range(len(PYTHON)), ids=[b.id for b in PYTHON])
def test_python_block_runs_as_written(index: int, reader: Reader, as_reader: KimiStandIn) -> None:
    before = len(as_reader.requests)
    reader.run_through(index)
    block = PYTHON[index]
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


@pytest.mark.parametrize("block", COMMANDS, ids=[b.id for b in COMMANDS])
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


@pytest.mark.parametrize("block", PYTEST, ids=[b.id for b in PYTEST])
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
