"""``kimi stand-in --record DIR --upstream URL`` and ``--replay DIR``, as processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import kimi_ext
from kimi_ext.cli import EXIT_CASSETTES, EXIT_SETUP, EXIT_USAGE
from kimi_ext.testing import Cassette, Fault, KimiStandIn
from tests.support.cassettes import UPSTREAM_KEY, ask, call, client_for

KIMI = str(Path(sys.executable).parent / "kimi")


@contextmanager
def standin(*args: str) -> Iterator[tuple[subprocess.Popen[str], str, list[str]]]:
    """A running ``kimi stand-in``: the process, its base URL, and the lines it printed
    up to "Press Ctrl-C"."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [KIMI, "stand-in", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=env,
    )  # fmt: skip
    assert proc.stdout is not None
    try:
        lines: list[str] = []
        while not lines or not lines[-1].startswith("Press Ctrl-C"):
            line = proc.stdout.readline()
            assert line, f"the stand-in stopped: {proc.stderr.read() if proc.stderr else ''}"
            lines.append(line.strip())
        url = lines[0].rsplit(" ", 1)[1]
        yield proc, url, lines
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(30)


def stop(proc: subprocess.Popen[str]) -> tuple[int, str]:
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    return proc.returncode, err


def test_record_then_replay_from_the_command_line(upstream: KimiStandIn, tmp_path: Path) -> None:
    folder = tmp_path / "recorded"
    with standin("--record", str(folder), "--upstream", upstream.base_url) as (proc, url, lines):
        assert any(line.startswith(f"Recording: {upstream.base_url} -> {folder}") for line in lines)
        with client_for(url, UPSTREAM_KEY) as client:
            recorded = call(client, "messages", True, **ask("messages", "Hi"))
        assert stop(proc)[0] == 0
    assert [p.name for p in folder.iterdir()] == ["0001-messages.json"]
    upstream.stop()
    with standin("--replay", str(folder), "--timing", "recorded") as (proc, url, lines):
        assert f"Replaying: {folder} (1 interactions)" in lines
        assert "API key: test-key" in lines
        with client_for(url, "test-key") as client:
            assert call(client, "messages", True, **ask("messages", "Hi")) == recorded
        assert stop(proc)[0] == 0


def test_strict_lists_the_unused_interactions_and_exits_8(
    upstream: KimiStandIn, tmp_path: Path
) -> None:
    cassette = tmp_path / "c.json"
    with (
        KimiStandIn().record(cassette, upstream.base_url) as proxy,
        client_for(proxy.base_url, UPSTREAM_KEY) as client,
    ):
        call(client, "chat", False, **ask("chat", "one"))
        call(client, "chat", False, **ask("chat", "two"))
    with standin("--replay", str(cassette), "--strict") as (proc, url, _):
        with client_for(url, "test-key") as client:
            call(client, "chat", False, **ask("chat", "one"))
        code, err = stop(proc)
    assert code == EXIT_CASSETTES
    assert f"kimi: stand-in: unused: {cassette} #1 (POST /v1/chat/completions)" in err


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--record", "x", "--upstream", "http://api.example.com"], EXIT_USAGE, "unencrypted"),
        (["--record", "x"], EXIT_USAGE, "--record and --upstream go together"),
        (["--replay", "missing.json"], EXIT_SETUP, "missing.json: no cassette there"),
    ],
)
def test_setup_mistakes_are_one_line(
    args: list[str], code: int, message: str, tmp_path: Path
) -> None:
    run = subprocess.run([KIMI, "stand-in", *args], capture_output=True, text=True,
                         cwd=tmp_path, timeout=60)  # fmt: skip
    assert run.returncode == code
    assert message in run.stderr
    assert "Traceback" not in run.stderr


def test_scrub_and_keep_header_flags(upstream: KimiStandIn, tmp_path: Path) -> None:
    cassette = tmp_path / "c.json"
    upstream.queue("Your order is secret-42.")
    args = ["--record", str(cassette), "--upstream", upstream.base_url, "--scrub", r"secret-\d+",
            "--keep-header", "x-cust*", "--keep-header", "*-length"]  # fmt: skip
    with standin(*args) as (proc, url, _):
        with client_for(url, UPSTREAM_KEY) as client:
            call(client, "chat", False, **ask("chat", "My order?"))
            upstream.fault(
                Fault.error(418, "teapot", headers={"x-custom": "kept", "x-other": "no"})
            )
            with pytest.raises(kimi_ext.APIStatusError):
                call(client, "chat", False, **ask("chat", "Again?"))
        assert stop(proc)[0] == 0
    text = cassette.read_text()
    assert "secret-42" not in text and "Your order is <redacted>." in text
    kept = Cassette.load(cassette).interactions[1].reply.headers
    assert kept["x-custom"] == "kept" and "x-other" not in kept
    assert "content-length" not in kept  # the replay writes its own framing


def test_a_bad_scrub_pattern_is_a_usage_error(tmp_path: Path) -> None:
    run = subprocess.run([KIMI, "stand-in", "--record", "x", "--upstream", "https://h",
                          "--scrub", "("], capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == EXIT_USAGE
    assert "--scrub: not a regular expression" in run.stderr
