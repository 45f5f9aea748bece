"""The hook seam, as a user's hook sees it: every event in order, sync and async, in
streams, retries, the fallback and tool loops; a raising hook; the key never handed over."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from kimi_ext import AsyncKimi, ClientConfigError, Kimi
from kimi_ext.errors import IncompleteStreamError, RateLimitError
from kimi_ext.hooks import CallEnd, CallInfo, Hook, RequestInfo, ResponseHead, ToolInfo, scope
from kimi_ext.testing import Fault, KimiStandIn, Reply, ToolCallSpec

MODEL = "kimi-k3.1-pro"
CHAT = {"model": MODEL, "messages": [{"role": "user", "content": "Hi"}]}


class Recorder(Hook):
    """Writes down every event with what a hook can read of it."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []

    def on_call_start(self, call: CallInfo) -> None:
        self.events.append(("start", call.format, call.model, call.stream))

    def on_request(self, call: CallInfo, request: RequestInfo) -> None:
        self.events.append(("request", request.attempt, request.method, request.url,
                            request.headers, request.content))  # fmt: skip

    def on_response(self, call: CallInfo, response: ResponseHead) -> None:
        self.events.append(("response", response.attempt, response.status_code,
                            response.headers, response.http_version))  # fmt: skip

    def on_retry(self, call: CallInfo, error: BaseException, wait: float) -> None:
        self.events.append(("retry", type(error).__name__, wait))

    def on_fallback(self, call: CallInfo, old_url: str, new_url: str, error: BaseException) -> None:
        self.events.append(("fallback", old_url, new_url, type(error).__name__))

    def on_first_event(self, call: CallInfo, elapsed: float) -> None:
        self.events.append(("first", elapsed > 0))

    def on_call_end(self, call: CallInfo, end: CallEnd) -> None:
        self.events.append(("end", end.result, end.error, end.usage, end.finished, end.attempts))

    def on_tool_start(self, tool: ToolInfo) -> None:
        self.events.append(("tool", tool.name, tool.call_id, tool.arguments))

    def on_tool_end(self, tool: ToolInfo, output: str, error: str | None) -> None:
        self.events.append(("tool_end", tool.name, output, error))

    def kinds(self) -> list[str]:
        return [event[0] for event in self.events]


def make(standin: KimiStandIn, *hooks: Any, **options: Any) -> Kimi:
    c = Kimi(api_key=standin.api_key, base_url=standin.base_url, hooks=list(hooks), **options)
    c._sender.sleep = lambda seconds: None
    return c


def test_a_call_is_seen_from_start_to_end_with_the_request_as_sent_and_redacted(
    kimi_standin: KimiStandIn,
) -> None:
    hook = Recorder()
    with make(kimi_standin, hook) as client:
        result = client.chat.completions.create(**CHAT, max_tokens=50)
    assert hook.kinds() == ["start", "request", "response", "end"]
    assert hook.events[0] == ("start", "chat", MODEL, False)
    _, attempt, method, url, headers, content = hook.events[1]
    sent = kimi_standin.last_request
    assert (attempt, method) == (0, "POST")
    assert url == kimi_standin.base_url.rstrip("/") + "/v1/chat/completions"
    assert headers["authorization"] == "<redacted>"
    assert headers["idempotency-key"] == sent.headers["idempotency-key"]
    assert content == sent.body
    assert hook.events[2][:3] == ("response", 0, 200)
    assert hook.events[2][4] == "HTTP/1.1"
    _, got, error, usage, finished, attempts = hook.events[3]
    assert got is result and error is None and finished and attempts == 1
    assert usage == result.usage and usage.output > 0


def test_retries_and_their_waits_then_the_error(kimi_standin: KimiStandIn) -> None:
    hook = Recorder()
    kimi_standin.fault(Fault.rate_limit(retry_after=0.5), times=3)
    with make(kimi_standin, hook, max_retries=2) as client, pytest.raises(RateLimitError) as info:
        client.messages.create(model=MODEL, max_tokens=10, messages=CHAT["messages"])
    assert hook.kinds() == ["start", "request", "response", "retry", "request", "response",
                            "retry", "request", "response", "end"]  # fmt: skip
    assert [e for e in hook.events if e[0] == "retry"] == [("retry", "RateLimitError", 0.5)] * 2
    assert [e[1] for e in hook.events if e[0] == "request"] == [0, 1, 2]
    end = hook.events[-1]
    assert end[1] is None and end[2] is info.value and end[3] is None and end[5] == 3


def test_the_fallback_switch(kimi_standin: KimiStandIn) -> None:
    hook = Recorder()
    with Kimi(
        api_key=kimi_standin.api_key,
        base_url="http://127.0.0.1:9",
        fallback_base_url=kimi_standin.base_url,
        hooks=[hook],
    ) as client:
        client.responses.create(model=MODEL, input="Hi")
        client.responses.create(model=MODEL, input="Again")  # sticks to the fallback
    assert hook.kinds() == ["start", "request", "fallback", "request", "response", "end",
                            "start", "request", "response", "end"]  # fmt: skip
    assert hook.events[2] == (
        "fallback", "http://127.0.0.1:9", kimi_standin.base_url.rstrip("/"), "ConnectError"
    )  # fmt: skip


def test_a_stream_reports_its_first_event_and_a_cut_ends_with_the_partial(
    kimi_standin: KimiStandIn,
) -> None:
    hook = Recorder()
    with make(kimi_standin, hook) as client:
        with client.messages.stream(model=MODEL, max_tokens=100, messages=CHAT["messages"]) as s:
            final = s.get_final_message()
        kimi_standin.queue(Reply(text="one two three four five six seven"))
        kimi_standin.fault(Fault.cut_stream(after=5))
        with (
            pytest.raises(IncompleteStreamError) as info,
            client.messages.stream(model=MODEL, max_tokens=100, messages=CHAT["messages"]) as s,
        ):
            s.get_final_message()
    assert hook.kinds() == ["start", "request", "response", "first", "end"] * 2
    assert hook.events[0] == ("start", "messages", MODEL, True)
    assert hook.events[3] == ("first", True)
    ok = hook.events[4]
    assert ok[1].to_dict() == final.to_dict() and ok[2] is None and ok[4] is True
    cut = hook.events[9]
    assert cut[2] is info.value and cut[4] is False
    assert cut[1].to_dict() == info.value.partial.to_dict()
    assert cut[3] == info.value.partial.usage and cut[3].total_input > 0


def test_tool_calls_in_run_tools(kimi_standin: KimiStandIn) -> None:
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    hook = Recorder()
    kimi_standin.queue(
        Reply(tool_calls=[ToolCallSpec("add", {"a": 2, "b": 3}), ToolCallSpec("nope", {})]),
        "Five.",
    )
    with make(kimi_standin, hook) as client:
        run = client.chat.completions.run_tools(tools=[add], **CHAT)
    assert run.text == "Five."
    calls = run.results[0].tool_calls
    tools = [e for e in hook.events if e[0].startswith("tool")]
    assert tools[0] == ("tool", "add", calls[0].id, {"a": 2, "b": 3})
    assert tools[1] == ("tool_end", "add", "5", None)
    assert tools[2][:3] == ("tool", "nope", calls[1].id)
    assert tools[3][0:2] == ("tool_end", "nope") and tools[3][3] == "unknown_tool"
    assert hook.kinds().count("start") == 2


async def test_async_client_streams_and_tools(kimi_standin: KimiStandIn) -> None:
    async def double(x: int) -> int:
        """Double."""
        return 2 * x

    hook = Recorder()
    kimi_standin.queue(Reply(tool_calls=[ToolCallSpec("double", {"x": 4})]), "Eight.")
    async with AsyncKimi(
        api_key=kimi_standin.api_key, base_url=kimi_standin.base_url, hooks=[hook]
    ) as client:
        run = await client.responses.run_tools(tools=[double], model=MODEL, input="Double 4")
        async with client.chat.completions.stream(**CHAT) as s:
            texts = [t async for t in s.text_stream]
    assert run.text == "Eight." and texts
    assert hook.kinds() == [
        "start", "request", "response", "end", "tool", "tool_end",
        "start", "request", "response", "end",
        "start", "request", "response", "first", "end",
    ]  # fmt: skip
    assert ("tool_end", "double", "8", None) in hook.events


class Raising(Hook):
    def __init__(self, key: str) -> None:
        self.key = key
        self.ends = 0

    def on_call_start(self, call: CallInfo) -> None:
        raise RuntimeError(f"broken hook holding {self.key}")

    def on_first_event(self, call: CallInfo, elapsed: float) -> None:
        raise ValueError("also broken")

    def on_call_end(self, call: CallInfo, end: CallEnd) -> None:
        self.ends += 1
        raise KeyError(self.key)


def test_a_raising_hook_is_logged_once_per_event_and_the_call_is_unaffected(
    kimi_standin: KimiStandIn, caplog: pytest.LogCaptureFixture
) -> None:
    key = kimi_standin.api_key
    broken, after = Raising(key), Recorder()
    caplog.set_level(logging.WARNING, logger="kimi_ext")
    with make(kimi_standin, broken, after) as client:
        result = client.chat.completions.create(**CHAT)
        with client.chat.completions.stream(**CHAT) as s:
            streamed = s.get_final_completion()
    assert result.text and streamed.text == result.text
    assert broken.ends == 2
    assert after.kinds() == ["start", "request", "response", "end",
                             "start", "request", "response", "first", "end"]  # fmt: skip
    lines = [r.getMessage() for r in caplog.records if r.name == "kimi_ext"]
    assert len(lines) == 5
    assert lines[0] == (
        "hook Raising.on_call_start raised RuntimeError: broken hook holding <redacted>; "
        "the call goes on without it"
    )
    assert all(key not in line for line in lines)
    assert all(r.exc_info is None for r in caplog.records)  # no traceback (its locals)


def test_a_hook_method_that_is_a_coroutine_is_refused_clearly(
    kimi_standin: KimiStandIn, caplog: pytest.LogCaptureFixture
) -> None:
    class AsyncHook(Hook):
        async def on_call_end(self, call: CallInfo, end: CallEnd) -> None:  # type: ignore[override]
            raise AssertionError("never run")

    caplog.set_level(logging.WARNING, logger="kimi_ext")
    with make(kimi_standin, AsyncHook()) as client:
        assert client.chat.completions.create(**CHAT).text
    (line,) = [r.getMessage() for r in caplog.records if r.name == "kimi_ext"]
    assert "AsyncHook.on_call_end raised TypeError: hook methods are called synchronously" in line


def test_hooks_never_hold_the_key(kimi_standin: KimiStandIn) -> None:
    """The key sits in the request and a server echoes it; nothing a hook gets holds it."""
    key = kimi_standin.api_key
    hook = Recorder()
    kimi_standin.queue(Reply(text=f"echo {key}"))
    with make(kimi_standin, hook) as client:
        client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": key}])
    for event in hook.events:
        if event[0] == "end":
            continue  # the result is the user's own, as received
        assert key not in repr(event) and key.encode() not in repr(event).encode()
    request = next(e for e in hook.events if e[0] == "request")
    assert b"<redacted>" in request[5]


def test_scope_events_and_no_op_without_hooks(kimi_standin: KimiStandIn) -> None:
    class Scopes(Hook):
        def __init__(self) -> None:
            self.seen: list[Any] = []

        def on_scope_start(self, scope: Any) -> None:
            self.seen.append(("start", scope.name, scope.attributes))

        def on_scope_end(self, scope: Any, error: BaseException | None) -> None:
            self.seen.append(("end", scope.name, type(error).__name__ if error else None))

    hook = Scopes()
    with make(kimi_standin, hook) as client:
        with scope(client, "batch", {"size": 1}) as info:
            assert info is not None and info.name == "batch"
        with pytest.raises(ZeroDivisionError), scope(client, "batch"):
            1 / 0  # noqa: B018
    assert hook.seen == [("start", "batch", {"size": 1}), ("end", "batch", None),
                         ("start", "batch", {}), ("end", "batch", "ZeroDivisionError")]  # fmt: skip
    with make(kimi_standin) as plain, scope(plain, "batch") as info:
        assert info is None
        assert plain.hooks == ()


def test_bad_hooks_and_telemetry_settings_are_refused(kimi_standin: KimiStandIn) -> None:
    with pytest.raises(ClientConfigError, match="hooks: object has none of the hook methods"):
        Kimi(api_key="sk-test", hooks=[object()])
    with pytest.raises(ClientConfigError, match="hooks: must be a list of hooks, not Recorder"):
        Kimi(api_key="sk-test", hooks=Recorder())  # type: ignore[arg-type]
    with pytest.raises(ClientConfigError, match="telemetry='yes': must be True, False, None"):
        Kimi(api_key="sk-test", telemetry="yes")
