"""Every sync/async twin in kimi_ext stays in step: the pairs a ``# twin: <name>`` marker
declares are compared with the async differences normalised away
(:mod:`tests.support.twins`); a deliberate difference is declared next to the code with
``# twin: differs (why)``, and a pair the names make must be declared."""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import pytest

from tests.support.paths import ROOT
from tests.support.twins import check

PACKAGE = ROOT / "kimi_ext"


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_twin_pair_in_the_package_is_in_step() -> None:
    count, failures = check(_modules(), ROOT)
    assert not failures, "\n\n".join(failures)
    assert count >= 26  # the markers are read (a broken reader would find fewer)


def test_no_keep_in_step_comment_is_left_unchecked() -> None:
    for path in _modules():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"twin of .*in step", text), path


def _copy(tmp_path: Path, relative: str) -> Path:
    target = tmp_path / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / relative, target)
    return target


def _edit(path: Path, old: str, new: str, *, after: str = "") -> None:
    """Replace the first ``old`` that follows ``after``."""
    text = path.read_text(encoding="utf-8")
    start = text.index(after)
    at = text.index(old, start)
    path.write_text(text[:at] + new + text[at + len(old) :], encoding="utf-8")


# (module, the edit made to one twin only: old, new, after; what the diff shows)
PLANTED = [
    pytest.param(
        "kimi_ext/_core/call/calling.py",
        ("call.end(result, None)", "call.end(None, None)", "class SyncCaller"),
        ("SyncCaller", "AsyncCaller", "-        call.end(None, None)", "+        call.end(result, None)"),
        id="a statement changed in the sync twin",
    ),
    pytest.param(
        "kimi_ext/_core/streaming/stream.py",
        ("                delivered = False\n", "                delivered = True\n",
         "async def _aiter_events"),
        ("SyncStream", "AsyncStream", "delivered = False", "delivered = True"),
        id="a constant changed in an async stream method",
    ),
    pytest.param(
        "kimi_ext/tool_loop.py",
        ("            rounds += 1\n", "", "async def arun_tools"),
        ("run_tools", "arun_tools", "-            rounds += 1"),
        id="a statement dropped from the async twin",
    ),
    pytest.param(
        "kimi_ext/_core/transport/sending.py",
        ("        # twin: differs (see _check_loop)\n", "", "class AsyncSender"),
        ("SyncSender", "AsyncSender", "+        self._check_loop()"),
        id="a deliberate difference no longer declared",
    ),
    pytest.param(
        "kimi_ext/client.py",
        ("def _continue(", "def _continue_answer(", "class _AsyncResource"),
        ("_SyncResource", "_AsyncResource", "no _continue here"),
        id="a member renamed in one twin",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("relative", "edit", "shown"), PLANTED)
def test_a_change_made_to_one_twin_only_fails_with_a_diff_naming_both(
    tmp_path: Path, relative: str, edit: tuple[str, str, str], shown: tuple[str, ...]
) -> None:
    path = _copy(tmp_path, relative)
    assert check([path], tmp_path)[1] == []  # the copy as it is: in step
    old, new, after = edit
    _edit(path, old, new, after=after)
    _, failures = check([path], tmp_path)
    assert len(failures) == 1, failures
    message = failures[0]
    first, second = shown[:2]
    assert re.search(rf"{re.escape(relative)}:\d+ {first}\b", message), message
    assert re.search(rf"{re.escape(relative)}:\d+ {second}\b", message), message
    for line in shown[2:]:
        assert line in message, message


def _module(tmp_path: Path, source: str) -> tuple[int, list[str]]:
    path = tmp_path / "kimi_ext" / "mod.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return check([path], tmp_path)


SYNC_AND_ASYNC = """
    import asyncio
    import time
    from collections.abc import Awaitable, Callable


    # twin: AsyncPool
    class SyncPool:
        def __init__(self, opener: Callable[[], Conn]) -> None:
            self.opener = opener

        def __enter__(self) -> SyncPool:
            return self

        def __exit__(self, *exc: object) -> None:
            self.close()

        def close(self) -> None:
            self.conn.close()

        def rows(self) -> list[str]:
            with self.opener() as conn:
                out = [row for row in conn.rows()]
                for row in conn.more():
                    yield row
                time.sleep(1)
                return next(iter(out))


    # twin: SyncPool
    class AsyncPool:
        def __init__(self, opener: Callable[[], Awaitable[AsyncConn]]) -> None:
            self.opener = opener

        async def __aenter__(self) -> AsyncPool:
            return self

        async def __aexit__(self, *exc: object) -> None:
            await self.close()

        async def close(self) -> None:
            await self.conn.aclose()

        async def rows(self) -> list[str]:
            async with await self.opener() as conn:
                out = [row async for row in conn.rows()]
                async for row in conn.more():
                    yield row
                await asyncio.sleep(1)  # twin: differs (each its own sleep)
                return await anext(aiter(out))
"""


def test_only_the_async_differences_are_normalised_away(tmp_path: Path) -> None:
    # The one undeclared difference is the sleep: time.sleep is not the sleep of async.
    count, failures = _module(tmp_path, SYNC_AND_ASYNC)
    assert count == 1
    assert len(failures) == 1 and "-            time.sleep(1)" in failures[0], failures
    source = SYNC_AND_ASYNC.replace(
        "            time.sleep(1)", "            time.sleep(1)  # twin: differs (as async)"
    )
    assert _module(tmp_path, source) == (1, [])


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("# twin: g\ndef f() -> None: ...\n", "its twin 'g' is not defined"),
        (
            "# twin: af\ndef f() -> None: ...\n# twin: g\nasync def af() -> None: ...\n"
            "# twin: af\ndef g() -> None: ...\n",
            "names af as its twin, which names g",
        ),
        (
            "# twin: af\ndef f() -> None:\n    x = 1  # twin: differs\n"
            "# twin: f\nasync def af() -> None:\n    x = 1\n",
            "with the why",
        ),
        ("def f() -> None:\n    x = 1  # twin: differs (why)\n", "outside any twin"),
        ("x = 1\n# twin: f\n\ny = 2\n", "not right above a def or class"),
        (
            "def fetch() -> None: ...\nasync def afetch() -> None: ...\n",
            "fetch and afetch look like sync/async twins",
        ),
        (
            "class Pool: ...\nclass AsyncPool: ...\n",
            "Pool and AsyncPool look like sync/async twins",
        ),
    ],
    ids=["unknown", "crossed", "no why", "stray differs", "loose", "functions", "classes"],
)
def test_a_marker_that_cannot_be_checked_fails(tmp_path: Path, source: str, said: str) -> None:
    _, failures = _module(tmp_path, source)
    assert any(said in failure for failure in failures), failures
