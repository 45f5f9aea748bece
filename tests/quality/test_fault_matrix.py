"""The fault matrix: every way a call can break, at every step, for all three formats.

* Streams from the stand-in, over real sockets, cut after every event and inside events
  (sync and async): IncompleteStreamError whose ``partial`` is exactly what a fresh
  accumulator makes of the bytes that arrived, and says what the uncut stream said up to
  the cut. No retry once the stream was opened.
* Connection resets, timeouts, 429, quota 429, 5xx, in-stream errors, malformed JSON and
  non-JSON bodies before the response, in the status, in the body and mid-stream: only
  KimiError escapes, retries follow the policy (the requests received are counted; quota
  is never retried) and whatever arrived is kept.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

import kimi_ext
from kimi_ext import APIResponseError, AsyncKimi, IncompleteStreamError, Kimi, KimiError
from kimi_ext.testing import Fault, KimiStandIn, Reply, ToolCallSpec
from tests.support.robustness import (
    FINAL,
    FORMATS,
    RESULT,
    AsyncRecordingTransport,
    RecordingTransport,
    accumulate,
    async_standin_client,
    complete_blocks,
    encode_event,
    no_sleep_async,
    request,
    resource,
    sse_events,
    standin_client,
    summary,
)

REPLY = Reply(
    text="Oslo is 12 degrees and sunny today; Bergen is rainy.",
    reasoning="The user wants the weather. Call the tool, then answer.",
    tool_calls=[ToolCallSpec("get_weather", {"city": "Oslo", "unit": "celsius"})],
)
KEY = "sk-matrix-SECRET-42"


def uncut_events(standin: KimiStandIn, fmt: str) -> list[tuple[str | None, Any]]:
    """The events of the whole stream for REPLY (what every cut is a prefix of)."""
    transport = RecordingTransport()
    standin.queue(REPLY)
    with (
        standin_client(standin, http_client=httpx.Client(transport=transport)) as client,
        resource(client, fmt).stream(**request(fmt)) as stream,
    ):
        getattr(stream, FINAL[fmt])()
    return sse_events(bytes(transport.bodies[-1]).decode())


def prefix_summary(fmt: str, events: list[tuple[str | None, Any]], k: int) -> Any:
    body = b"".join(encode_event(data, name) for name, data in events[:k])
    return summary(accumulate(fmt, body))


def check_cut(
    fmt: str,
    raw: bytes,
    error: BaseException,
    yielded: list[Any],
    expected: Any,
    *,
    whole_events: int,
) -> None:
    assert isinstance(error, IncompleteStreamError), repr(error)
    partial = error.partial
    assert type(partial) is RESULT[fmt]
    blocks = complete_blocks(raw)
    assert len(blocks) == whole_events  # the fault did what it says
    fresh = accumulate(fmt, raw)
    assert partial.to_dict() == fresh.to_dict()  # exactly what arrived, nothing more
    assert summary(partial) == expected  # and what the uncut stream said up to there
    delivered = [d for _, d in sse_events(b"".join(blocks).decode())]
    assert [e.data for e in yielded if e.type != "malformed"] == delivered


def run_sync_stream(client: Kimi, fmt: str) -> tuple[list[Any], BaseException | None, Any]:
    yielded: list[Any] = []
    try:
        with resource(client, fmt).stream(**request(fmt)) as stream:
            for event in stream:
                yielded.append(event)
            return yielded, None, getattr(stream, FINAL[fmt])()
    except KimiError as exc:
        return yielded, exc, None


async def run_async_stream(
    client: AsyncKimi, fmt: str
) -> tuple[list[Any], BaseException | None, Any]:
    yielded: list[Any] = []
    try:
        async with resource(client, fmt).stream(**request(fmt)) as stream:
            async for event in stream:
                yielded.append(event)
            return yielded, None, await getattr(stream, FINAL[fmt])()
    except KimiError as exc:
        return yielded, exc, None


# ------------------------------------------------------------------ cuts over real sockets


@pytest.mark.parametrize("fmt", FORMATS)
def test_sync_stream_cut_after_every_event(kimi_standin: KimiStandIn, fmt: str) -> None:
    events = uncut_events(kimi_standin, fmt)
    assert len(events) >= 10
    transport = RecordingTransport()
    client = standin_client(kimi_standin, http_client=httpx.Client(transport=transport))
    for k in range(len(events)):  # the stand-in never sends the terminal event on a cut
        kimi_standin.queue(REPLY)
        kimi_standin.fault(Fault.cut_stream(after=k))
        before = len(kimi_standin.requests)
        yielded, error, _ = run_sync_stream(client, fmt)
        assert len(kimi_standin.requests) == before + 1, "a broken stream is never retried"
        check_cut(fmt, bytes(transport.bodies[-1]), error, yielded,  # type: ignore[arg-type]
                  prefix_summary(fmt, events, k), whole_events=min(k, len(events) - 1))  # fmt: skip
        assert isinstance(error.__cause__, httpx.RemoteProtocolError)  # type: ignore[union-attr]
    client.close()


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_stream_cut_after_every_event(kimi_standin: KimiStandIn, fmt: str) -> None:
    events = uncut_events(kimi_standin, fmt)
    transport = AsyncRecordingTransport()
    client = async_standin_client(kimi_standin, http_client=httpx.AsyncClient(transport=transport))
    for k in range(len(events)):
        kimi_standin.queue(REPLY)
        kimi_standin.fault(Fault.cut_stream(after=k))
        before = len(kimi_standin.requests)
        yielded, error, _ = await run_async_stream(client, fmt)
        assert len(kimi_standin.requests) == before + 1
        check_cut(fmt, bytes(transport.bodies[-1]), error, yielded,  # type: ignore[arg-type]
                  prefix_summary(fmt, events, k), whole_events=k)  # fmt: skip
    await client.close()


@pytest.mark.parametrize("sse_transport", ["chunked", "close"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_sync_stream_cut_inside_every_event(fmt: str, sse_transport: str) -> None:
    """Half an event, then the connection closes. With ``close`` framing the body ends
    cleanly, so the half event is yielded as "malformed" (not lost); Chat then completes
    if the finish_reason had arrived whole, as its stream rules say."""
    with KimiStandIn(sse_transport=sse_transport) as standin:
        events = uncut_events(standin, fmt)
        transport = RecordingTransport()
        client = standin_client(standin, http_client=httpx.Client(transport=transport))
        for k in range(len(events) - 1):
            standin.queue(REPLY)
            standin.fault(Fault.cut_mid_event(after=k))
            yielded, error, final = run_sync_stream(client, fmt)
            raw = bytes(transport.bodies[-1])
            half = raw[len(b"".join(complete_blocks(raw))) :]
            assert half and b"\n\n" not in half.replace(b"\r\n", b"\n")
            malformed = [e for e in yielded if e.type == "malformed"]
            if sse_transport == "close":  # the half event's data, unless it has none yet
                data = [d for d in sse_events(half.decode() + "\n\n")] or [
                    (None, line[5:].removeprefix(" "))
                    for line in half.decode().split("\n")
                    if line.startswith("data:") and line[5:].strip()
                ]
                assert [e.data for e in malformed] == [d for _, d in data]
            else:
                assert malformed == []
            if error is None:  # Chat, finish_reason then a clean end of the body
                assert fmt == "chat" and sse_transport == "close"
                assert final.finish_reason is not None
                assert final.to_dict() == accumulate(fmt, raw).to_dict()
                continue
            check_cut(fmt, raw, error, yielded, prefix_summary(fmt, events, k), whole_events=k)
        client.close()


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_stream_cut_inside_every_event(kimi_standin: KimiStandIn, fmt: str) -> None:
    events = uncut_events(kimi_standin, fmt)
    transport = AsyncRecordingTransport()
    client = async_standin_client(kimi_standin, http_client=httpx.AsyncClient(transport=transport))
    for k in range(len(events) - 1):
        kimi_standin.queue(REPLY)
        kimi_standin.fault(Fault.cut_mid_event(after=k))
        yielded, error, _ = await run_async_stream(client, fmt)
        check_cut(fmt, bytes(transport.bodies[-1]), error, yielded,  # type: ignore[arg-type]
                  prefix_summary(fmt, events, k), whole_events=k)  # fmt: skip
    await client.close()


# ------------------------------------------------------------------ the stand-in's faults


def call(client: Kimi, fmt: str, stream: bool) -> Any:
    if stream:
        with resource(client, fmt).stream(**request(fmt)) as s:
            return getattr(s, FINAL[fmt])()
    return resource(client, fmt).create(**request(fmt))


async def acall(client: AsyncKimi, fmt: str, stream: bool) -> Any:
    if stream:
        async with resource(client, fmt).stream(**request(fmt)) as s:
            return await getattr(s, FINAL[fmt])()
    return await resource(client, fmt).create(**request(fmt))


# (faults queued, error expected or None, requests the stand-in receives) with max_retries=2
STATUS_FAULTS: list[tuple[str, Callable[[KimiStandIn], None], type[Exception] | None, int]] = [
    ("429 once", lambda s: s.fault(Fault.rate_limit(retry_after=0)), None, 2),
    ("429 always", lambda s: s.fault(Fault.rate_limit(retry_after=0), times=3), kimi_ext.RateLimitError, 3),
    ("quota", lambda s: s.fault(Fault.quota(), times=3), kimi_ext.QuotaExceededError, 1),
    ("500 once", lambda s: s.fault(Fault.server_error()), None, 2),
    ("503 always", lambda s: s.fault(Fault.server_error(503), times=3), kimi_ext.InternalServerError, 3),
    ("reset once", lambda s: s.fault(Fault.disconnect()), None, 2),
    ("reset always", lambda s: s.fault(Fault.disconnect(), times=3), kimi_ext.APIConnectionError, 3),
    ("400", lambda s: s.fault(Fault.error(400, "bad", error_type="invalid_request_error")), kimi_ext.BadRequestError, 1),
    ("429 then 500", lambda s: (s.fault(Fault.rate_limit(retry_after=0)), s.fault(Fault.server_error())), None, 3),
]  # fmt: skip


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("label", "queue", "expected", "count"), STATUS_FAULTS, ids=[f[0] for f in STATUS_FAULTS]
)
def test_status_faults_follow_the_retry_policy(
    kimi_standin: KimiStandIn,
    fmt: str,
    stream: bool,
    label: str,
    queue: Callable[[KimiStandIn], None],
    expected: type[Exception] | None,
    count: int,
) -> None:
    queue(kimi_standin)
    kimi_standin.queue("All good.")
    with standin_client(kimi_standin) as client:
        if expected is None:
            assert call(client, fmt, stream).text == "All good."
        else:
            with pytest.raises(KimiError) as info:
                call(client, fmt, stream)
            assert type(info.value) is expected or isinstance(info.value, expected), info.value
    assert len(kimi_standin.requests) == count, label
    keys = {r.headers["idempotency-key"] for r in kimi_standin.requests}
    assert len(keys) == 1  # every attempt of the call is the same call


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_status_faults_follow_the_retry_policy(
    kimi_standin: KimiStandIn, fmt: str
) -> None:
    client = async_standin_client(kimi_standin)
    for stream in (False, True):
        for label, queue, expected, count in STATUS_FAULTS:
            kimi_standin.reset()
            kimi_standin.clear_faults()
            queue(kimi_standin)
            kimi_standin.queue("All good.")
            try:
                outcome: Any = await acall(client, fmt, stream)
            except KimiError as exc:
                outcome = exc
            if expected is None:
                assert outcome.text == "All good.", (label, outcome)
            else:
                assert isinstance(outcome, expected), (label, outcome)
            assert len(kimi_standin.requests) == count, (label, stream)
    await client.close()


@pytest.mark.parametrize("fmt", FORMATS)
def test_timeout_before_the_first_byte_is_retried(kimi_standin: KimiStandIn, fmt: str) -> None:
    kimi_standin.fault(Fault.slow_first_byte(1.0), times=2)
    with standin_client(kimi_standin, timeout=0.15, max_retries=1) as client:
        with pytest.raises(kimi_ext.APITimeoutError) as info:
            call(client, fmt, stream=False)
        assert isinstance(info.value.__cause__, httpx.TimeoutException)
    assert len(kimi_standin.requests) == 2


@pytest.mark.parametrize("fmt", FORMATS)
def test_in_stream_faults(kimi_standin: KimiStandIn, fmt: str) -> None:
    with standin_client(kimi_standin, timeout=httpx.Timeout(5.0, read=0.2)) as client:
        # An error event mid-stream: the matching status error, after what came before.
        kimi_standin.queue(REPLY)
        kimi_standin.fault(Fault.error_event(after=4))
        yielded, error, _ = run_sync_stream(client, fmt)
        assert isinstance(error, kimi_ext.APIStatusError)
        assert len(yielded) == 4 and len(kimi_standin.requests) == 1
        # Malformed JSON mid-stream: yielded as "malformed", the stream completes.
        kimi_standin.queue(REPLY)
        kimi_standin.fault(Fault.malformed_chunk(after=3))
        yielded, error, final = run_sync_stream(client, fmt)
        assert error is None and [e.type for e in yielded].count("malformed") == 1
        assert summary(final)[0] == REPLY.text
        # Events too slow: a read timeout mid-stream is incomplete, never retried.
        kimi_standin.queue(REPLY)
        kimi_standin.fault(Fault.slow_events(0.5))
        before = len(kimi_standin.requests)
        yielded, error, _ = run_sync_stream(client, fmt)
        assert isinstance(error, IncompleteStreamError)
        assert isinstance(error.__cause__, httpx.ReadTimeout)
        assert type(error.partial) is RESULT[fmt] and yielded == []
        assert len(kimi_standin.requests) == before + 1


# ------------------------------------------------------------------ any body, any step

REQ = {"chat": "/v1/chat/completions", "messages": "/v1/messages", "responses": "/v1/responses"}


class Script:
    """A MockTransport handler answering each attempt with the next step of a script."""

    def __init__(self, *steps: Callable[[httpx.Request], httpx.Response]) -> None:
        self.steps = list(steps)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        step = self.steps[min(len(self.requests), len(self.steps)) - 1]
        return step(request)


class Broken(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A body that delivers ``head`` and then fails with ``error``."""

    def __init__(self, head: bytes, error: Exception) -> None:
        self.head = head
        self.error = error

    def __iter__(Any) -> Any:
        yield Any.head
        raise Any.error

    async def __aiter__(self) -> Any:
        yield self.head
        raise self.error


def raises(error: Exception) -> Callable[[httpx.Request], httpx.Response]:
    def step(request: httpx.Request) -> httpx.Response:
        raise error

    return step


def answer(
    status: int, body: bytes | Broken, headers: dict[str, str] | None = None
) -> Callable[[httpx.Request], httpx.Response]:
    def step(request: httpx.Request) -> httpx.Response:
        if isinstance(body, Broken):
            return httpx.Response(status, headers=headers, stream=body)
        return httpx.Response(status, headers=headers, content=body)

    return step


ENVELOPE = b'{"error":{"message":"busy","type":"server_error"}}'
QUOTA = b'{"error":{"message":"You exceeded your current quota","type":"insufficient_quota"}}'
JSON = {"content-type": "application/json"}
GZIP = {"content-type": "application/json", "content-encoding": "gzip"}
# (label, step, error class or None for "fine", attempts with max_retries=2)
STEPS: list[tuple[str, Callable[[httpx.Request], httpx.Response], type[Exception], int]] = [
    ("connect refused", raises(httpx.ConnectError("refused")), kimi_ext.APIConnectionError, 3),
    ("reset before status", raises(httpx.RemoteProtocolError("Server disconnected")), kimi_ext.APIConnectionError, 3),
    ("read timeout before status", raises(httpx.ReadTimeout("slow")), kimi_ext.APITimeoutError, 3),
    ("pool timeout", raises(httpx.PoolTimeout("pool")), kimi_ext.APITimeoutError, 3),
    ("429 json", answer(429, ENVELOPE, JSON), kimi_ext.RateLimitError, 3),
    ("429 quota", answer(429, QUOTA, JSON), kimi_ext.QuotaExceededError, 1),
    ("500 json", answer(500, ENVELOPE, JSON), kimi_ext.InternalServerError, 3),
    ("502 html", answer(502, b"<html>Bad Gateway</html>"), kimi_ext.InternalServerError, 3),
    ("503 empty", answer(503, b""), kimi_ext.InternalServerError, 3),
    ("500 malformed json", answer(500, b'{"error": {"mess', JSON), kimi_ext.InternalServerError, 3),
    ("400 json array", answer(400, b"[1, 2]", JSON), kimi_ext.BadRequestError, 1),
    ("500 body reset", answer(500, Broken(b'{"err', httpx.ReadError("reset"))), kimi_ext.APIConnectionError, 3),
    ("429 body timeout", answer(429, Broken(b"", httpx.ReadTimeout("slow"))), kimi_ext.APITimeoutError, 3),
    ("500 bad gzip", answer(500, b"not gzip at all", GZIP), kimi_ext.APIConnectionError, 3),
]  # fmt: skip
JSON_BODY_STEPS: list[tuple[str, Callable[[httpx.Request], httpx.Response], type[Exception], int]] = [
    ("200 malformed json", answer(200, b'{"id": "x", "choi', JSON), kimi_ext.APIResponseError, 1),
    ("200 html", answer(200, b"<html>captive portal</html>"), kimi_ext.APIResponseError, 1),
    ("200 empty", answer(200, b""), kimi_ext.APIResponseError, 1),
    ("200 json list", answer(200, b"[]", JSON), kimi_ext.APIResponseError, 1),
    ("200 json string", answer(200, b'"ok"', JSON), kimi_ext.APIResponseError, 1),
    ("200 invalid utf-8", answer(200, b'{"id": "\xff\xfe"}', JSON), kimi_ext.APIResponseError, 1),
    ("200 body reset", answer(200, Broken(b'{"id": "x"', httpx.ReadError("reset"))), kimi_ext.APIConnectionError, 3),
    ("200 body timeout", answer(200, Broken(b'{"id"', httpx.ReadTimeout("slow"))), kimi_ext.APITimeoutError, 3),
    ("200 bad gzip", answer(200, b"not gzip at all", GZIP), kimi_ext.APIConnectionError, 3),
]  # fmt: skip


def mock_client(script: Script) -> Kimi:
    http = httpx.Client(transport=httpx.MockTransport(script))
    client = Kimi(
        api_key=KEY, base_url="https://api.test", http_client=http, fallback_base_url=None
    )
    client._sender.sleep = lambda seconds: None
    return client


def mock_async_client(script: Script) -> AsyncKimi:
    http = httpx.AsyncClient(transport=httpx.MockTransport(script))
    client = AsyncKimi(api_key=KEY, base_url="https://api.test", http_client=http, fallback_base_url=None)  # fmt: skip
    return no_sleep_async(client)


def check_failure(
    error: BaseException, expected: type[Exception], script: Script, count: int
) -> None:
    assert isinstance(error, KimiError), f"{type(error).__name__} escaped: {error!r}"
    assert type(error) is expected, repr(error)
    assert len(script.requests) == count
    assert KEY not in str(error) and KEY not in repr(error)


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize(("label", "step", "expected", "count"), STEPS, ids=[s[0] for s in STEPS])
def test_failures_before_the_body(
    label: str, step: Any, expected: type[Exception], count: int, stream: bool
) -> None:
    for fmt in FORMATS:
        script = Script(step)
        with mock_client(script) as client, pytest.raises(BaseException) as info:
            call(client, fmt, stream)
        check_failure(info.value, expected, script, count)


@pytest.mark.parametrize(("label", "step", "expected", "count"), JSON_BODY_STEPS, ids=[s[0] for s in JSON_BODY_STEPS])  # fmt: skip
def test_failures_in_a_json_body(
    label: str, step: Any, expected: type[Exception], count: int
) -> None:
    for fmt in FORMATS:
        script = Script(step)
        with mock_client(script) as client, pytest.raises(BaseException) as info:
            call(client, fmt, stream=False)
        check_failure(info.value, expected, script, count)
        if isinstance(info.value, kimi_ext.APIResponseError):
            assert isinstance(info.value.body, str)  # the text received is kept


async def test_async_failures_at_every_step() -> None:
    for label, step, expected, count in STEPS + JSON_BODY_STEPS:
        for stream in (False, True):
            if label.startswith("200") and stream:
                continue
            for fmt in FORMATS:
                script = Script(step)
                client = mock_async_client(script)
                try:
                    await acall(client, fmt, stream)
                except BaseException as exc:
                    check_failure(exc, expected, script, count)
                else:
                    raise AssertionError(f"{label}: no error")
                finally:
                    await client.close()


def test_a_failure_then_success_is_one_call() -> None:
    ok = json.dumps({"id": "c", "object": "chat.completion", "created": 1, "model": "m",
                     "choices": [{"index": 0, "message": {"role": "assistant", "content": "OK"},
                                  "finish_reason": "stop"}]}).encode()  # fmt: skip
    script = Script(
        raises(httpx.ReadTimeout("slow")),
        answer(500, Broken(b"", httpx.ReadError("reset"))),
        answer(200, gzip.compress(ok), GZIP),
    )
    with mock_client(script) as client:
        assert call(client, "chat", stream=False).text == "OK"
    assert [r.headers["X-Kimi-Retry-Count"] for r in script.requests] == ["0", "1", "2"]
    assert len({r.headers["Idempotency-Key"] for r in script.requests}) == 1


# Mid-stream: the body of a 200 stream breaks after some events. Never retried; the
# partial is what arrived.
STREAM_BREAKS = [
    httpx.ReadError("connection reset by peer"),
    httpx.ReadTimeout("timed out"),
    httpx.RemoteProtocolError("incomplete chunked read"),
    httpx.DecodingError("bad gzip"),
]


def recorded_stream(fmt: str) -> bytes:
    from tests.support.robustness import FIXTURES

    name = {"chat": "stream_tool_calls.sse", "messages": "stream_tool_use.sse", "responses": "stream_function_call.sse"}[fmt]  # fmt: skip
    return (FIXTURES / fmt / name).read_bytes()


@pytest.mark.parametrize("error", STREAM_BREAKS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("fmt", FORMATS)
async def test_stream_breaks_mid_body_keep_what_arrived(fmt: str, error: Exception) -> None:
    body = recorded_stream(fmt)
    blocks = complete_blocks(body)
    for k in (0, 1, len(blocks) // 2, len(blocks) - 1):
        for cut in (0, 7):  # at an event boundary, and inside the next event
            head = b"".join(blocks[:k]) + blocks[k][:cut]
            headers = {"content-type": "text/event-stream"}
            script = Script(answer(200, Broken(head, error), headers))
            with mock_client(script) as client:
                yielded, exc, _ = run_sync_stream(client, fmt)
            assert isinstance(exc, IncompleteStreamError) and exc.__cause__ is error
            assert exc.partial.to_dict() == accumulate(fmt, head).to_dict()
            assert len(script.requests) == 1
            assert [e.data for e in yielded] == [
                d for _, d in sse_events(b"".join(blocks[:k]).decode())
            ]
            ascript = Script(answer(200, Broken(head, error), headers))
            aclient = mock_async_client(ascript)
            _, aexc, _ = await run_async_stream(aclient, fmt)
            await aclient.close()
            assert isinstance(aexc, IncompleteStreamError)
            assert aexc.partial.to_dict() == exc.partial.to_dict() and len(ascript.requests) == 1


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_stream_answered_with_something_else(fmt: str) -> None:
    """A 200 whose body is not an event stream (a JSON object, an HTML page, nothing):
    APIResponseError that keeps the body received, not retried."""
    for body in (b'{"id": "x", "object": "chat.completion"}', b"<html>login</html>", b""):
        script = Script(answer(200, body, JSON))
        with mock_client(script) as client:
            yielded, exc, _ = run_sync_stream(client, fmt)
        assert isinstance(exc, APIResponseError) and exc.body == body.decode()
        assert yielded == [] and len(script.requests) == 1
