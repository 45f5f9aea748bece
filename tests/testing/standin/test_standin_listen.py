"""A stand-in that cannot listen raises a KimiError naming the address and the reason,
with the system's error as its cause; ``kimi stand-in`` reports the same in one line."""

from __future__ import annotations

import errno
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kimi_ext import KimiError
from kimi_ext.testing import KimiStandIn, StandInError

KIMI = str(Path(sys.executable).parent / "kimi")


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        yield busy.getsockname()[1]


def test_a_busy_port_raises_a_stand_in_error_naming_the_address(busy_port: int) -> None:
    standin = KimiStandIn(port=busy_port)
    with pytest.raises(StandInError) as caught:
        standin.start()
    error = caught.value
    assert isinstance(error, KimiError) and isinstance(error, OSError)
    assert str(error) == f"cannot listen on 127.0.0.1:{busy_port}: Address already in use"
    assert isinstance(error.__cause__, OSError)
    assert error.__cause__.errno == errno.EADDRINUSE
    # Nothing half-started: stop() is harmless and the port can be used by another one.
    standin.stop()
    with KimiStandIn() as other:
        assert other.port != busy_port


def test_the_with_block_raises_it_too(busy_port: int) -> None:
    with pytest.raises(StandInError, match=f"127.0.0.1:{busy_port}"), KimiStandIn(port=busy_port):
        pass  # pragma: no cover - never entered


def test_a_port_outside_the_range_is_a_stand_in_error() -> None:
    with pytest.raises(StandInError) as caught:
        KimiStandIn(port=70000).start()
    assert str(caught.value).startswith("cannot listen on 127.0.0.1:70000: ")
    assert "0-65535" in str(caught.value)
    assert isinstance(caught.value.__cause__, OverflowError)


def test_kimi_stand_in_on_a_busy_port_says_so_in_one_line_and_exits_7(busy_port: int) -> None:
    proc = subprocess.run(
        [KIMI, "stand-in", "--port", str(busy_port)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 7
    assert proc.stderr.splitlines() == [
        f"kimi: stand-in: cannot listen on 127.0.0.1:{busy_port}: Address already in use"
    ]
    assert proc.stdout == ""
