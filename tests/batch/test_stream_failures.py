"""``kimi batch`` with a ``"stream": true`` Responses line whose stream ends in a failure the
service reports (HTTP 200, then ``response.failed`` with ``rate_limit_exceeded``, as
LiteLLM relays an upstream 429): the line is recorded as the same failure as the line
without streaming (a failed 429), counted failed, and re-sent by ``--retry-failed``.

A loopback server writes the exact bytes and counts the requests.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path
from typing import Any

from tests.support.batch import CLI, line, read_jsonl, write_jsonl
from tests.support.client import OK
from tests.support.hostile_server import SSE, RawRequest, RawServer, answer, head
from tests.support.streams import load

MESSAGE = "Rate limit reached for requests"
FAILED = (
    b'event: response.failed\ndata: {"type":"response.failed","sequence_number":0,'
    b'"response":{"id":"resp_1","object":"response","created_at":1,"status":"failed",'
    b'"error":{"code":"rate_limit_exceeded","message":"' + MESSAGE.encode() + b'"},'
    b'"output":[],"model":"kimi-k3.1-pro"}}\n\n'
)
ERROR = {"error": {"message": MESSAGE, "type": "rate_limit_error", "code": "rate_limit_exceeded"}}
NO_WAIT = {"Retry-After": "0"}  # the client's retries (as create()'s) do not wait


class Gateway:
    """Answers a Responses request: rate limited (in the stream, or as a 429) until
    ``healed``, then a whole answer."""

    def __init__(self) -> None:
        self.healed = False

    async def __call__(
        self, reader: Any, writer: asyncio.StreamWriter, request: RawRequest
    ) -> bool:
        streamed = bool(request.json.get("stream"))
        if streamed:
            body = load("responses_text.sse") if self.healed else FAILED
            writer.write(head(200, {**SSE, **NO_WAIT}) + body)
            return False
        if self.healed:
            writer.write(answer(200, json.dumps(OK["responses"])))
        else:
            writer.write(answer(429, json.dumps(ERROR), NO_WAIT))
        return True


def kimi_batch(server: RawServer, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIMI_")}
    env.update(KIMI_API_KEY="sk-test-batch-0123456789", KIMI_BASE_URL=server.base_url,
               PYTHONUNBUFFERED="1")  # fmt: skip
    return subprocess.run(
        [*CLI, *map(str, args), "--max-retries", "0"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip


def test_a_stream_failed_in_band_is_recorded_as_the_plain_failure_and_retried(
    tmp_path: Path,
) -> None:
    # Before: the streamed line was written with status_code 200 and error null, counted a
    # success, and --retry-failed never sent it again.
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [line("streamed", "responses", stream=True), line("plain", "responses")],
    )
    out = tmp_path / "out.jsonl"
    gateway = Gateway()
    with RawServer(gateway) as server:
        first = kimi_batch(server, source, "-o", out, "--json")
        assert first.returncode == 8, first.stderr  # finished, some lines failed
        docs = {d["custom_id"]: d for d in read_jsonl(out)}
        for cid in ("streamed", "plain"):
            assert docs[cid]["error"] is not None, docs[cid]
            assert docs[cid]["response"]["status_code"] == 429
            assert docs[cid]["error"]["message"] == MESSAGE
        assert docs["streamed"]["error"]["code"] == docs["plain"]["error"]["code"]
        assert json.loads(first.stdout)["failed"] == 2
        sent = len(server.requests)
        gateway.healed = True
        again = kimi_batch(server, source, "-o", out, "--retry-failed", "--json")
        assert again.returncode == 0, again.stderr
        streamed_again = [r for r in server.requests[sent:] if r.json.get("stream")]
    assert len(streamed_again) == 1  # the streamed line was sent again, once
    docs = {d["custom_id"]: d for d in read_jsonl(out)}
    assert sorted(docs) == ["plain", "streamed"]
    assert all(d["error"] is None for d in docs.values())
    assert docs["streamed"]["response"]["body"]["status"] == "completed"
    assert json.loads(again.stdout)["retried_failed"] == 2
