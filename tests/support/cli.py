"""What the ``kimi`` tests share: a piped ``kimi`` process whose output can be waited for,
and a way to interrupt its start-up at a chosen moment."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

CLI = [sys.executable, "-m", "kimi_ext.cli"]


class Piped:
    """``kimi`` with stdin, stdout and stderr on pipes, whose output can be waited for
    (an event, not a duration) while it runs."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [*CLI, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env=env,
        )  # fmt: skip
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.fds = {"stdout": self.proc.stdout.fileno(), "stderr": self.proc.stderr.fileno()}
        self.seen = {"stdout": b"", "stderr": b""}

    def write(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def read_until(self, marker: str, stream: str = "stdout", timeout: float = 30) -> None:
        """Wait until ``marker`` has been written to ``stream`` (reading both pipes, so
        that neither fills up)."""
        end = time.monotonic() + timeout
        want = marker.encode()
        while want not in self.seen[stream]:
            left = end - time.monotonic()
            assert left > 0, f"no {marker!r} on {stream}: {self.seen!r}"
            ready, _, _ = select.select(list(self.fds.values()), [], [], left)
            for name, fd in self.fds.items():
                if fd in ready:
                    chunk = os.read(fd, 65536)
                    assert chunk or want in self.seen[stream], f"{name} closed: {self.seen!r}"
                    self.seen[name] += chunk

    def finish(self, timeout: float = 30) -> subprocess.CompletedProcess[str]:
        """Close stdin, wait for the exit; everything it printed, as text."""
        try:
            out, err = self.proc.communicate(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        stdout = (self.seen["stdout"] + out).decode()
        stderr = (self.seen["stderr"] + err).decode()
        return subprocess.CompletedProcess(self.proc.args, self.proc.returncode, stdout, stderr)


# Imported first by the interpreter (sitecustomize): at the first audit event matching
# KIMI_TEST_SIGINT_AT ("import argparse", "open messages.json"), the process gets a SIGINT,
# as from a Ctrl-C at that moment of its start-up. With KIMI_TEST_SIGINT_WAIT it prints
# a marker and waits there for the test's Ctrl-C instead.
SITECUSTOMIZE = """
import os, signal, sys, time

_at = os.environ.get("KIMI_TEST_SIGINT_AT", "")
_wait = bool(os.environ.get("KIMI_TEST_SIGINT_WAIT"))
_done = False

def _hook(event, args):
    global _done
    if _done or not _at:
        return
    name, _, what = _at.partition(" ")
    if event != name or not args or not str(args[0]).endswith(what):
        return
    _done = True
    if _wait:
        os.write(2, b"<<starting: " + _at.encode() + b">>")
        for _ in range(600):  # short sleeps: a signal that came before one is seen too
            time.sleep(0.1)
    else:
        os.kill(os.getpid(), signal.SIGINT)

sys.addaudithook(_hook)
"""


def interrupt_at(tmp_path: Path, env: dict[str, str], at: str, wait: bool = False) -> None:
    """Make ``kimi`` started with ``env`` get a Ctrl-C at the audit event ``at``."""
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    path = [str(site), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    env.update(PYTHONPATH=os.pathsep.join(path), KIMI_TEST_SIGINT_AT=at)
    if wait:
        env["KIMI_TEST_SIGINT_WAIT"] = "1"
