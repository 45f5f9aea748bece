"""The ``replay`` group: a recorded stream replayed through the stand-in against the same
bytes served by the plain loopback server.

The cassette is recorded for real, outside the timing: a recording stand-in forwards one
streamed request to the benchmark server and stores the stream (one frame per event).
A replaying stand-in (``kimi stand-in --replay FILE --allow-repeats``) then runs in a child
process, as the plain server does, so neither shares the measuring process's interpreter.
Each contender reads the whole stream the same way from both servers: the bytes only
(httpx ``iter_raw``: the serving cost shows undiluted), and the kimi_ext client rebuilding
the result (what a test replaying a cassette pays).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

import kimi_ext

from .contenders import KEY, PATHS, Contender, _check_kimi, _kimi_stream, request_for
from .payloads import expected, stream_bytes

__all__ = [
    "PLAIN",
    "REPLAY_BYTES",
    "REPLAY_KIMI",
    "recorded_body",
    "recorded_cassette",
    "replay_contenders",
    "replaying",
]

PLAIN = "plain loopback server, bytes (baseline)"
REPLAY_BYTES = "stand-in replay, bytes"
PLAIN_KIMI = "plain loopback server, kimi_ext stream()+get_final"
REPLAY_KIMI = "stand-in replay, kimi_ext stream()+get_final"
HEADERS = {"Authorization": f"Bearer {KEY}", "anthropic-version": "2023-06-01"}


def recorded_cassette(root: str, fmt: str, events: int, folder: Path) -> Path:
    """Record the benchmark server's stream of ``events`` events through the stand-in, as
    an application would: the kimi_ext client pointed at the recording stand-in."""
    from kimi_ext.testing import KimiStandIn

    key = f"{fmt}.stream.{events}"
    path = folder / f"{key}.json"
    with (
        KimiStandIn().record(path, f"{root}/s/{key}") as recorder,
        kimi_ext.Kimi(api_key=KEY, base_url=recorder.base_url, timeout=120) as client,
    ):
        _check_kimi(expected(fmt, "stream", events), fmt)(
            _kimi_stream(client, fmt, request_for(fmt))()
        )
    frames = json.loads(path.read_text())["interactions"][0]["response"]["frames"]
    size = sum(len(text.encode()) for _, text in frames)
    if size != len(stream_bytes(fmt, "stream", events)):
        raise RuntimeError(f"the recording holds {size:,} bytes, not the stream's")
    return path


def recorded_body(cassette: Path) -> Any:
    """The request body as the client sent it (what the replay matches)."""
    return json.loads(cassette.read_text())["interactions"][0]["request"]["json"]


@contextmanager
def replaying(cassette: Path) -> Iterator[str]:
    """``kimi stand-in --replay cassette`` in a child process; yields its base URL."""
    repo = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "kimi_ext.cli", "stand-in", "--api-key", KEY,
         "--replay", str(cassette), "--allow-repeats"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=repo, env=env,
    )  # fmt: skip
    assert proc.stdout is not None
    try:
        line = proc.stdout.readline()
        if "listening on" not in line:
            raise RuntimeError(f"the replaying stand-in did not start: {line}")
        yield line.split()[-1]
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def _bytes(http: httpx.Client, url: str, body: Any) -> Callable[[], int]:
    def run() -> int:
        total = 0
        with http.stream("POST", url, json=body, headers=HEADERS) as response:
            for chunk in response.iter_raw():
                total += len(chunk)
        return total

    return run


def _check_size(size: int) -> Callable[[Any], None]:
    def check(total: Any) -> None:
        assert total == size, (total, size)

    return check


def replay_contenders(
    http: httpx.Client, plain_root: str, replay_root: str, fmt: str, events: int, sent: Any
) -> tuple[list[Contender], list[Any]]:
    """The four contenders (and the clients to close afterwards); ``sent`` is the recorded
    request body, which the byte readers post to both servers."""
    key = f"{fmt}.stream.{events}"
    size = len(stream_bytes(fmt, "stream", events))
    exp = expected(fmt, "stream", events)
    body = request_for(fmt)
    plain = kimi_ext.Kimi(api_key=KEY, base_url=f"{plain_root}/s/{key}", timeout=120)
    replay = kimi_ext.Kimi(api_key=KEY, base_url=replay_root, timeout=120)
    contenders = [
        Contender(PLAIN, _bytes(http, f"{plain_root}/s/{key}{PATHS[fmt]}", sent),
                  _check_size(size)),
        Contender(REPLAY_BYTES, _bytes(http, f"{replay_root}{PATHS[fmt]}", sent),
                  _check_size(size), kimi=True),
        Contender(PLAIN_KIMI, _kimi_stream(plain, fmt, body), _check_kimi(exp, fmt)),
        Contender(REPLAY_KIMI, _kimi_stream(replay, fmt, body), _check_kimi(exp, fmt),
                  kimi=True),
    ]  # fmt: skip
    return contenders, [plain, replay]


def cassette_folder() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="kimi-bench-cassettes-")


def frames_in(cassette: Path) -> int:
    return len(json.loads(cassette.read_text())["interactions"][0]["response"]["frames"])
