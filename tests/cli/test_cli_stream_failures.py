"""``kimi chat`` on a stream whose service reports a failure inside it (HTTP 200, then a
lone ``response.failed``, as LiteLLM relays an upstream 429): the error is shown and the
exit code is the one the same failure gives without streaming. Driven in a pipe against a
loopback server writing the exact bytes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from kimi_ext.cli.output import exit_code
from kimi_ext.errors import RateLimitError
from tests.support.hostile_server import SSE, RawServer, answer, head, replies

CLI = [sys.executable, "-m", "kimi_ext.cli"]
MESSAGE = "Rate limit reached for requests"

FAILED = (
    b'event: response.failed\ndata: {"type":"response.failed","sequence_number":0,'
    b'"response":{"id":"resp_1","object":"response","created_at":1,"status":"failed",'
    b'"error":{"code":"rate_limit_exceeded","message":"' + MESSAGE.encode() + b'"},'
    b'"output":[],"model":"kimi-k3.1-pro"}}\n\n'
)
# Retry-After: 0, so the client's retries (the same as create()'s) do not wait.
NO_WAIT = {"Retry-After": "0"}


def run_chat(base_url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIMI_")}
    env.update(KIMI_API_KEY="sk-test-cli-0123456789", PYTHONUNBUFFERED="1")
    return subprocess.run(
        [*CLI, "chat", "--base-url", base_url, "--format", "responses", *extra, "Hi"],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize("streamed", [True, False])
def test_a_failure_reported_in_a_stream_exits_as_the_plain_failure(streamed: bool) -> None:
    # Before: the streamed call exited 0 with an empty answer and a zero usage line.
    if streamed:
        data = head(200, {**SSE, **NO_WAIT}) + FAILED
    else:
        body = {"error": {"message": MESSAGE, "type": "rate_limit_error",
                          "code": "rate_limit_exceeded"}}  # fmt: skip
        data = answer(429, json.dumps(body), NO_WAIT)
    with RawServer(replies(data)) as server:
        proc = run_chat(server.base_url, *([] if streamed else ["--no-stream"]))
        sent = len(server.requests)
    assert proc.returncode == exit_code(RateLimitError("x", status_code=429, response=None,
                                                       body=None)) == 14, proc.stderr  # fmt: skip
    assert MESSAGE in proc.stderr
    assert "usage: " not in proc.stderr  # no zero usage line for an answer that never came
    assert proc.stdout.strip() == ""
    assert sent == 3  # retried as create() is (2 retries by default), then reported
