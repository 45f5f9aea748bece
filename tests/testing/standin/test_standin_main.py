"""``python -m kimi_ext.testing`` on a port it cannot bind: one line on stderr, and the
exit codes of ``kimi stand-in`` (7 for a busy port, 2 for a bad value)."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

COMMAND = [sys.executable, "-m", "kimi_ext.testing"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=30)


def test_a_busy_port_is_one_line_and_exit_7_as_kimi_stand_in() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = _run("--port", str(port))
    assert proc.returncode == 7  # kimi_ext.cli.EXIT_STANDIN: one table for both commands
    assert proc.stderr.splitlines() == [
        f"python -m kimi_ext.testing: cannot listen on 127.0.0.1:{port}: Address already in use"
    ]
    assert proc.stdout == ""


@pytest.mark.parametrize("port", ["70000", "-1"])
def test_a_port_out_of_range_is_one_line_and_exit_2(port: str) -> None:
    proc = _run("--port", port)
    assert proc.returncode == 2
    (line,) = proc.stderr.splitlines()
    assert line.startswith(f"python -m kimi_ext.testing: cannot listen on 127.0.0.1:{port}: ")
    assert "0-65535" in line
    assert proc.stdout == ""
