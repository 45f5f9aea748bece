"""``kimi chat`` in a real pseudo-terminal: the banner, readline editing and history, the
/commands, Ctrl-D and Ctrl-C, as a user at a keyboard would meet them."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

import kimi_ext
from kimi_ext.cli import EXIT_INTERRUPTED
from kimi_ext.testing import Fault, KimiStandIn, Reply
from tests.support.cli import interrupt_at

LEFT, UP, CTRL_C, CTRL_D = b"\x1b[D", b"\x1b[A", b"\x03", b"\x04"


def _controlling_terminal() -> None:
    # In the child, after setsid: make the pty its controlling terminal, so that the ^C
    # typed on it is a SIGINT, as in a real terminal.
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """``kimi chat`` on a pty: type keys, read the screen."""

    def __init__(
        self,
        standin: KimiStandIn,
        *args: str,
        setup: Path | None = None,
        program: tuple[str, ...] = (sys.executable, "-m", "kimi_ext.cli"),
    ) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("KIMI_")}
        env.update(KIMI_API_KEY=standin.api_key, PYTHONUNBUFFERED="1", TERM="xterm")
        env.pop("INPUTRC", None)
        if setup is not None:  # a Ctrl-C during start-up (see tests.support.cli.interrupt_at)
            interrupt_at(setup, env, os.environ["KIMI_TEST_SIGINT_AT"], wait=True)
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            [*program, "chat", "--base-url", standin.base_url, *args],
            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
            start_new_session=True, preexec_fn=_controlling_terminal,
        )  # fmt: skip
        os.close(slave)
        self.screen = b""

    def read_until(self, marker: bytes, count: int = 1, timeout: float = 20) -> bytes:
        end = time.monotonic() + timeout
        while self.screen.count(marker) < count and time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                self.screen += chunk
        assert self.screen.count(marker) >= count, f"no {marker!r} in {self.screen!r}"
        return self.screen

    def waiting(self, timeout: float = 20) -> None:
        """Wait until the process sleeps in the kernel (Linux /proc): after a key's echo,
        that is readline back in its select(). A Ctrl-C that lands between the echo and
        that select() is only seen at the next key (CPython's readline loop), which no
        person typing could hit, but a test that types at once can."""
        stat = Path(f"/proc/{self.proc.pid}/stat")
        end = time.monotonic() + timeout
        while stat.exists() and stat.read_text().rpartition(")")[2].split()[0] != "S":
            assert time.monotonic() < end, "the process never waited for input"
            select.select([], [], [], 0.01)  # poll the state, not a delay for it to change

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def prompt(self, n: int) -> None:
        """Wait for the n-th prompt."""
        self.read_until(b"you> ", count=n)

    def finish(self, timeout: float = 20) -> int:
        try:
            self.proc.wait(timeout=timeout)
            self.drain()
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.master)
        return self.proc.returncode

    def drain(self) -> None:
        while True:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if not ready:
                return
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                return
            if not chunk:
                return
            self.screen += chunk


def test_banner_help_and_ctrl_d(kimi_standin: KimiStandIn) -> None:
    term = Terminal(kimi_standin, "--format", "chat", "--effort", "low")
    term.prompt(1)
    banner = [line for line in term.screen.split(b"\r\n") if line.startswith(b"kimi ")]
    assert banner == [
        f"kimi {kimi_ext.__version__} · kimi-k3.1-pro · chat · effort low · "
        "/help for commands, /exit or Ctrl-D to leave".encode()
    ]
    term.type(b"/help\r")
    term.prompt(2)
    for command in (b"/help", b"/exit", b"/save", b"/effort", b"/model"):
        assert command in term.screen
    term.type(CTRL_D)
    assert term.finish() == 0
    assert term.screen.endswith(b"you> \r\n")  # Ctrl-D leaves the terminal on a fresh line
    assert kimi_standin.requests == []


def test_line_editing_and_history(kimi_standin: KimiStandIn) -> None:
    kimi_standin.queue(Reply(text="First."), Reply(text="Second."))
    term = Terminal(kimi_standin, "--format", "chat")
    term.prompt(1)
    term.type(b"helo" + LEFT + b"l\r")  # the arrow moves the cursor; it is not sent
    term.read_until(b"usage:")
    term.prompt(2)
    term.type(UP + b"\r")  # the previous line, from readline's history
    term.read_until(b"usage:", count=2)
    term.prompt(3)
    term.type(b"exit\r")  # leaves; it is not sent to the model
    assert term.finish() == 0
    sent = [r.json["messages"][-1]["content"] for r in kimi_standin.requests]
    assert sent == ["hello", "hello"]
    assert b"\x1b[D" not in b"".join(r.body for r in kimi_standin.requests)


def test_effort_model_and_save_commands(kimi_standin: KimiStandIn, tmp_path: Path) -> None:
    saved = tmp_path / "kept.json"
    kimi_standin.queue(Reply(text="Done."))
    term = Terminal(kimi_standin, "--format", "responses")
    term.prompt(1)
    term.type(b"/effort turbo\r")
    term.prompt(2)
    assert b"/effort turbo: must be one of low, high, max" in term.screen
    term.type(b"/effort medium\r")
    term.prompt(3)
    assert b"effort: high" in term.screen
    term.type(b"/model kimi-k3.1-pro-highspeed\r")
    term.prompt(4)
    term.type(b"/save\r")
    term.prompt(5)
    assert b"usage: /save FILE" in term.screen
    term.type(b"Go\r")
    term.read_until(b"usage:")
    term.prompt(6)
    term.type(b"/save " + str(saved).encode() + b"\r")
    term.prompt(7)
    assert f"saved to {saved}".encode() in term.screen
    term.type(b"/exit\r")
    assert term.finish() == 0
    body = kimi_standin.requests[-1].json
    assert body["model"] == "kimi-k3.1-pro-highspeed"
    assert body["reasoning"]["effort"] == "high"
    data = json.loads(saved.read_text())
    assert data["kimi_ext"] == "ResponsesHistory" and "Done." in json.dumps(data["items"])
    assert data["cli"]["model"] == "kimi-k3.1-pro-highspeed"  # restored by --load
    assert data["cli"]["effort"] == "high"


def test_a_failed_turn_keeps_the_session(kimi_standin: KimiStandIn) -> None:
    kimi_standin.fault(Fault.error(400, "bad input", error_type="invalid_request_error"))
    kimi_standin.queue(Reply(text="Recovered."))
    term = Terminal(kimi_standin, "--format", "chat", "--max-retries", "0")
    term.prompt(1)
    term.type(b"one\r")
    term.prompt(2)
    assert b"kimi: BadRequestError: " in term.screen
    term.type(b"two\r")
    term.read_until(b"Recovered.")
    term.prompt(3)
    term.type(CTRL_D)
    assert term.finish() == 0
    roles = [m["role"] for m in kimi_standin.requests[-1].json["messages"]]
    assert roles == ["user"]  # the failed turn was not kept


def test_ctrl_c_at_the_prompt_drops_the_line(kimi_standin: KimiStandIn) -> None:
    term = Terminal(kimi_standin)
    term.prompt(1)
    term.type(b"half a thought")
    term.read_until(b"half a thought")  # readline has the line (echoed) ...
    term.waiting()  # ... and waits for the next key: now the Ctrl-C
    term.type(CTRL_C)
    term.prompt(2)
    assert b"(/exit or Ctrl-D to leave)" in term.screen
    term.type(b"/exit\r")
    assert term.finish() == 0
    assert kimi_standin.requests == []


def test_ctrl_c_during_the_first_turn_says_only_what_is_true(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    saved = tmp_path / "slow.json"
    kimi_standin.queue(Reply(text="z" * 4000))
    kimi_standin.fault(Fault.slow_events(0.05))
    term = Terminal(kimi_standin, "--save", str(saved))
    term.prompt(1)
    term.type(b"tell me slowly\r")
    term.read_until(b"zzzz")  # the answer is arriving
    term.type(CTRL_C)
    assert term.finish() == EXIT_INTERRUPTED
    assert f"interrupted; nothing was saved to {saved} (no answer was complete)".encode() in (
        term.screen
    )
    assert b"kept in" not in term.screen and b"Traceback" not in term.screen
    assert not saved.exists()


@pytest.mark.parametrize("at", ["import argparse", "import readline"])
def test_ctrl_c_typed_while_starting_exits_130_quietly(
    kimi_standin: KimiStandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at: str
) -> None:
    # At `at` (kimi_ext.cli being imported; the line editor loaded just before the first
    # prompt) the start-up waits for the Ctrl-C typed here.
    monkeypatch.setenv("KIMI_TEST_SIGINT_AT", at)
    term = Terminal(kimi_standin, setup=tmp_path)
    term.read_until(f"<<starting: {at}>>".encode())
    term.type(CTRL_C)
    assert term.finish() == EXIT_INTERRUPTED
    rest = term.screen.split(b">>", 1)[1]
    assert rest.replace(b"^C", b"").strip() == b"interrupted"
    assert b"Traceback" not in term.screen and b"you> " not in term.screen
    assert kimi_standin.requests == []


# The `kimi` script imports kimi_ext.cli and calls main(); python -m runs the package's
# __main__. Either way the first heavy import (httpx) comes after main() started, and a
# Ctrl-C typed there is one line and 130.
@pytest.mark.parametrize(
    "program",
    [
        (sys.executable, str(Path(sys.executable).with_name("kimi"))),
        (sys.executable, "-m", "kimi_ext.cli"),
    ],
    ids=["kimi script", "python -m"],
)
def test_ctrl_c_typed_during_the_first_heavy_import_exits_130_quietly(
    kimi_standin: KimiStandIn,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    program: tuple[str, ...],
) -> None:
    monkeypatch.setenv("KIMI_TEST_SIGINT_AT", "import httpx")
    term = Terminal(kimi_standin, setup=tmp_path, program=program)
    term.read_until(b"<<starting: import httpx>>")
    term.type(CTRL_C)
    assert term.finish() == EXIT_INTERRUPTED
    rest = term.screen.split(b">>", 1)[1]
    assert rest.replace(b"^C", b"").strip() == b"interrupted"
    assert b"Traceback" not in term.screen and b"you> " not in term.screen
    assert kimi_standin.requests == []
