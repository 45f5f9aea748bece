"""OpenTelemetry GenAI spans and metrics against the stand-in, read back from the SDK's
in-memory exporters, every attribute checked by name and value against what the user got.

The expected values are taken from each result's JSON as received (``to_dict()``), the
format's own usage fields added up by the conventions' rule (a Messages ``input_tokens``
excludes cached tokens, a Chat ``prompt_tokens`` and a Responses ``input_tokens`` include
them), not from the client's own normalization, so a wrong rule in it would fail here.
"""

from __future__ import annotations

from typing import Any

import pytest
from opentelemetry.trace import SpanKind, StatusCode

import kimi_ext
from kimi_ext import AsyncKimi, Kimi
from kimi_ext.errors import IncompleteStreamError, InternalServerError
from kimi_ext.testing import Fault, KimiStandIn, Reply, ToolCallSpec
from tests.support.otel import Otel

MODEL = "kimi-k3.1-pro"
FORMATS = ["chat", "messages", "responses"]
FINAL = {
    "chat": "get_final_completion",
    "messages": "get_final_message",
    "responses": "get_final_response",
}
DURATION_BUCKETS = (
    0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
)  # fmt: skip
TOKEN_BUCKETS = (
    1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
)  # fmt: skip


def resource(client: Any, fmt: str) -> Any:
    return client.chat.completions if fmt == "chat" else getattr(client, fmt)


def params(fmt: str, text: str = "Say hello.") -> dict[str, Any]:
    """A request with an output limit, stop sequences (where the format has them) and a
    system prompt."""
    if fmt == "chat":
        return {
            "model": MODEL,
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": text},
            ],
            "max_completion_tokens": 300,
            "stop": ["END", "STOP"],
        }
    if fmt == "messages":
        return {
            "model": MODEL,
            "system": "Be brief.",
            "messages": [{"role": "user", "content": text}],
            "max_tokens": 300,
            "stop_sequences": ["END"],
        }
    return {"model": MODEL, "instructions": "Be brief.", "input": text, "max_output_tokens": 300}


def request_attributes(fmt: str, port: int, *, stream: bool) -> dict[str, Any]:
    attrs: dict[str, Any] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "moonshot_ai",
        "gen_ai.request.model": MODEL,
        "gen_ai.request.max_tokens": 300,
        "server.address": "127.0.0.1",
        "server.port": port,
        "kimi.format": fmt,
    }
    if fmt == "chat":
        attrs["gen_ai.request.stop_sequences"] = ("END", "STOP")
    if fmt == "messages":
        attrs["gen_ai.request.stop_sequences"] = ("END",)
    if stream:
        attrs["gen_ai.request.stream"] = True
    return attrs


def usage_attributes(fmt: str, usage: dict[str, Any]) -> dict[str, Any]:
    """The usage attributes from the format's own usage JSON, by the conventions' rule."""
    if fmt == "chat":
        details = usage.get("prompt_tokens_details") or {}
        return {
            "gen_ai.usage.input_tokens": usage["prompt_tokens"],
            "gen_ai.usage.output_tokens": usage["completion_tokens"],
            "gen_ai.usage.cache_read.input_tokens": details.get("cached_tokens", 0),
            "gen_ai.usage.cache_creation.input_tokens": details.get("cache_write_tokens", 0),
            "gen_ai.usage.reasoning.output_tokens": usage["completion_tokens_details"][
                "reasoning_tokens"
            ],
        }
    if fmt == "messages":
        read = usage.get("cache_read_input_tokens", 0)
        write = usage.get("cache_creation_input_tokens", 0)
        attrs = {
            # Anthropic-style input_tokens excludes the cache: the conventions add both.
            "gen_ai.usage.input_tokens": usage.get("input_tokens", 0) + read + write,
            "gen_ai.usage.output_tokens": usage.get("output_tokens", 0),
            "gen_ai.usage.cache_read.input_tokens": read,
            "gen_ai.usage.cache_creation.input_tokens": write,
            "gen_ai.usage.reasoning.output_tokens": (usage.get("output_tokens_details") or {}).get(
                "thinking_tokens", 0
            ),
        }
        split = usage.get("cache_creation")
        if isinstance(split, dict):
            attrs["kimi.usage.cache_creation.5m.input_tokens"] = split["ephemeral_5m_input_tokens"]
            attrs["kimi.usage.cache_creation.1h.input_tokens"] = split["ephemeral_1h_input_tokens"]
        return attrs
    details = usage.get("input_tokens_details") or {}
    return {
        "gen_ai.usage.input_tokens": usage["input_tokens"],
        "gen_ai.usage.output_tokens": usage["output_tokens"],
        "gen_ai.usage.cache_read.input_tokens": details.get("cached_tokens", 0),
        "gen_ai.usage.cache_creation.input_tokens": details.get("cache_write_tokens", 0),
        "gen_ai.usage.reasoning.output_tokens": usage["output_tokens_details"]["reasoning_tokens"],
    }


def finish_reasons(fmt: str, data: dict[str, Any]) -> tuple[str, ...]:
    if fmt == "chat":
        return tuple(c["finish_reason"] for c in data["choices"] if c.get("finish_reason"))
    if fmt == "messages":
        return (data["stop_reason"],) if data.get("stop_reason") else ()
    if data.get("status") == "incomplete":
        return (data["incomplete_details"]["reason"],)
    return (data["status"],) if data.get("status") else ()


def expected_attributes(
    fmt: str,
    result: Any,
    port: int,
    *,
    stream: bool,
    attempts: int = 1,
    status: int = 200,
    finished: bool = True,
) -> dict[str, Any]:
    data = result.to_dict()
    attrs = request_attributes(fmt, port, stream=stream)
    attrs.update(
        {
            "kimi.attempts": attempts,
            "http.response.status_code": status,
            "gen_ai.response.id": data["id"],
            "gen_ai.response.model": data["model"],
        }
    )
    reasons = finish_reasons(fmt, data)
    if reasons:
        attrs["gen_ai.response.finish_reasons"] = reasons
    if isinstance(data.get("usage"), dict):
        attrs.update(usage_attributes(fmt, data["usage"]))
    if stream:
        attrs["kimi.stream.finished"] = finished
    return attrs


def checked_span(otel: Otel, fmt: str, result: Any, port: int, **kw: Any) -> Any:
    span = otel.only_span()
    assert span.name == f"chat {MODEL}"
    assert span.kind is SpanKind.CLIENT
    attrs = dict(span.attributes)
    ttfc = attrs.pop("gen_ai.response.time_to_first_chunk", None)
    if kw.get("stream"):
        duration = (span.end_time - span.start_time) / 1e9
        assert ttfc is not None and 0 < ttfc <= duration
    else:
        assert ttfc is None
    assert attrs == expected_attributes(fmt, result, port, **kw)
    return span


def points(otel: Otel, name: str) -> list[Any]:
    return list(otel.metrics()[name].data.data_points)


def check_metrics(otel: Otel, fmt: str, result: Any, port: int, *, stream: bool) -> None:
    common = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "moonshot_ai",
        "gen_ai.request.model": MODEL,
        "gen_ai.response.model": result.to_dict()["model"],
        "server.address": "127.0.0.1",
        "server.port": port,
    }
    span = otel.only_span()
    (duration,) = points(otel, "gen_ai.client.operation.duration")
    assert dict(duration.attributes) == common
    assert duration.count == 1
    assert tuple(duration.explicit_bounds) == DURATION_BUCKETS
    assert 0 < duration.sum <= (span.end_time - span.start_time) / 1e9 + 0.05
    tokens = {
        p.attributes["gen_ai.token.type"]: p for p in points(otel, "gen_ai.client.token.usage")
    }
    usage = usage_attributes(fmt, result.to_dict()["usage"])
    assert set(tokens) == {"input", "output"}
    assert tokens["input"].sum == usage["gen_ai.usage.input_tokens"]
    assert tokens["output"].sum == usage["gen_ai.usage.output_tokens"]
    for kind, point in tokens.items():
        assert dict(point.attributes) == {**common, "gen_ai.token.type": kind}
        assert tuple(point.explicit_bounds) == TOKEN_BUCKETS
    if stream:
        (first,) = points(otel, "gen_ai.client.operation.time_to_first_chunk")
        assert dict(first.attributes) == {
            k: v for k, v in common.items() if k != "gen_ai.response.model"
        }
        assert first.sum == span.attributes["gen_ai.response.time_to_first_chunk"]
        assert tuple(first.explicit_bounds) == DURATION_BUCKETS
    else:
        assert "gen_ai.client.operation.time_to_first_chunk" not in otel.metrics()


# --- the three formats, streamed and not ----------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_call_is_one_client_span_with_what_the_user_got(
    client: Kimi, kimi_standin: KimiStandIn, otel: Otel, fmt: str
) -> None:
    kimi_standin.queue(Reply(text="Hello there.", reasoning="Greet them."))
    result = resource(client, fmt).create(**params(fmt))
    span = checked_span(otel, fmt, result, kimi_standin.port, stream=False)
    assert span.status.status_code is StatusCode.UNSET
    assert span.events == ()  # one attempt: its status is an attribute, no events
    check_metrics(otel, fmt, result, kimi_standin.port, stream=False)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_stream_records_its_first_chunk_and_its_full_usage(
    client: Kimi, kimi_standin: KimiStandIn, otel: Otel, fmt: str
) -> None:
    kimi_standin.queue(Reply(text="Hello there, streamed.", reasoning="Greet them."))
    with resource(client, fmt).stream(**params(fmt)) as stream:
        result = getattr(stream, FINAL[fmt])()
    checked_span(otel, fmt, result, kimi_standin.port, stream=True)
    check_metrics(otel, fmt, result, kimi_standin.port, stream=True)


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_calls_and_streams(
    aclient: AsyncKimi, kimi_standin: KimiStandIn, otel: Otel, fmt: str
) -> None:
    kimi_standin.queue(Reply(text="Async hello."))
    result = await resource(aclient, fmt).create(**params(fmt))
    checked_span(otel, fmt, result, kimi_standin.port, stream=False)
    otel.exporter.clear()
    kimi_standin.queue(Reply(text="Async streamed hello."))
    events = 0
    stream = await resource(aclient, fmt).create(stream=True, **params(fmt))
    async for _ in stream:
        events += 1
    result = await getattr(stream, FINAL[fmt])()
    assert events > 0
    checked_span(otel, fmt, result, kimi_standin.port, stream=True)


def test_cache_tokens_are_counted_once_in_the_input(
    client: Kimi, kimi_standin: KimiStandIn, otel: Otel
) -> None:
    """Messages reports cache reads and writes beside input_tokens: the span adds them."""
    history = params("messages")["messages"]
    first = client.messages.create(**{**params("messages"), "messages": history})
    second_history = [*history, {"role": "assistant", "content": first.text},
                      {"role": "user", "content": "And again."}]  # fmt: skip
    second = client.messages.create(**{**params("messages"), "messages": second_history})
    usage = second.to_dict()["usage"]
    assert usage["cache_read_input_tokens"] > 0, "the stand-in read the first turn's prefix"
    span = otel.spans()[-1]
    assert span.attributes["gen_ai.usage.input_tokens"] == (
        usage["input_tokens"]
        + usage["cache_read_input_tokens"]
        + usage["cache_creation_input_tokens"]
    )
    assert (
        span.attributes["gen_ai.usage.cache_read.input_tokens"] == usage["cache_read_input_tokens"]
    )
    assert dict(span.attributes) == expected_attributes(
        "messages", second, kimi_standin.port, stream=False
    )


# --- a cut stream, its resume, a stream dropped unfinished ---------------------------------


def test_a_cut_stream_gets_error_type_and_its_partial_usage_then_resume_is_a_new_span(
    client: Kimi, kimi_standin: KimiStandIn, otel: Otel
) -> None:
    answer = "One two three four five six seven eight nine ten."
    kimi_standin.queue(Reply(text=answer, reasoning="Count."))
    kimi_standin.fault(Fault.cut_stream(after=6))
    with (
        pytest.raises(IncompleteStreamError) as info,
        client.messages.stream(**params("messages")) as stream,
    ):
        stream.get_final_message()
    partial = info.value.partial
    span = otel.only_span()
    attrs = dict(span.attributes)
    assert attrs.pop("gen_ai.response.time_to_first_chunk") > 0
    expected = expected_attributes(
        "messages", partial, kimi_standin.port, stream=True, finished=False
    )
    expected["error.type"] = "IncompleteStreamError"
    # message_start carried the input usage: the partial usage is recorded.
    assert partial.to_dict()["usage"]["input_tokens"] > 0
    assert attrs == expected
    assert span.status.status_code is StatusCode.ERROR
    assert "IncompleteStreamError" in (span.status.description or "")
    (duration,) = points(otel, "gen_ai.client.operation.duration")
    assert duration.attributes["error.type"] == "IncompleteStreamError"

    otel.exporter.clear()
    rest = answer[len(partial.text.rstrip()) :]
    kimi_standin.queue(rest)
    resumed = kimi_ext.resume(client, info.value, **params("messages"))
    assert resumed.text == answer
    span = otel.only_span()  # the resume is a call of its own, with its own span
    assert span.attributes["gen_ai.response.id"] == resumed.to_dict()["id"]
    assert "error.type" not in span.attributes


def test_a_stream_closed_early_or_dropped_still_ends_its_span(
    client: Kimi, kimi_standin: KimiStandIn, otel: Otel
) -> None:
    kimi_standin.queue(Reply(text="A long answer " * 20))
    with client.chat.completions.stream(**params("chat")) as stream:
        next(iter(stream))  # one event, then the block is left
    span = otel.only_span()
    assert span.attributes["error.type"] == "stream_closed"
    assert span.attributes["kimi.stream.finished"] is False
    assert span.status.status_code is StatusCode.ERROR

    otel.exporter.clear()
    kimi_standin.queue(Reply(text="Never read."))
    stream = client.chat.completions.create(stream=True, **params("chat"))
    assert otel.spans() == []
    del stream  # dropped without reading or closing it
    span = otel.only_span()
    assert span.attributes["error.type"] == "stream_closed"


# --- attempts: a retry, the fallback, an error ----------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_retry_shows_each_attempt_with_its_status_and_wait(
    client: Kimi, kimi_standin: KimiStandIn, otel: Otel, fmt: str
) -> None:
    kimi_standin.fault(Fault.rate_limit(retry_after=0.25))
    result = resource(client, fmt).create(**params(fmt))
    span = checked_span(otel, fmt, result, kimi_standin.port, stream=False, attempts=2)
    events = [(e.name, dict(e.attributes)) for e in span.events]
    assert [name for name, _ in events] == [
        "kimi.http.attempt",
        "kimi.http.retry",
        "kimi.http.attempt",
    ]
    assert events[0][1]["kimi.attempt"] == 0
    assert events[0][1]["http.response.status_code"] == 429
    assert events[0][1]["kimi.attempt.elapsed"] > 0
    assert events[1][1] == {
        "error.type": "RateLimitError",
        "http.response.status_code": 429,
        "kimi.retry.wait": 0.25,
    }
    assert events[2][1]["kimi.attempt"] == 1
    assert events[2][1]["http.response.status_code"] == 200
    times = [e.timestamp for e in span.events]
    assert times == sorted(times)


def test_the_fallback_switch_is_an_event_and_the_server_is_the_one_that_answered(
    kimi_standin: KimiStandIn, otel: Otel
) -> None:
    with Kimi(
        api_key=kimi_standin.api_key,
        base_url="http://127.0.0.1:9",  # nothing listens on the discard port
        fallback_base_url=kimi_standin.base_url,
        telemetry=otel.telemetry(),
    ) as client:
        result = client.chat.completions.create(**params("chat"))
    span = checked_span(otel, "chat", result, kimi_standin.port, stream=False, attempts=2)
    events = [(e.name, dict(e.attributes)) for e in span.events]
    assert events[0] == (
        "kimi.http.fallback",
        {
            "kimi.fallback.from": "http://127.0.0.1:9",
            "kimi.fallback.to": kimi_standin.base_url.rstrip("/"),
            "error.type": "ConnectError",
        },
    )
    assert events[1][0] == "kimi.http.attempt"
    assert events[1][1]["http.response.status_code"] == 200
    (duration,) = points(otel, "gen_ai.client.operation.duration")
    assert duration.attributes["server.port"] == kimi_standin.port


def test_an_error_sets_error_type_and_status_and_no_usage(
    client: Kimi, kimi_standin: KimiStandIn, otel: Otel
) -> None:
    kimi_standin.fault(Fault.server_error(500), times=3)
    with pytest.raises(InternalServerError) as info:
        client.messages.create(**params("messages"), max_retries=1)
    span = otel.only_span()
    attrs = dict(span.attributes)
    assert attrs == {
        **request_attributes("messages", kimi_standin.port, stream=False),
        "kimi.attempts": 2,
        "http.response.status_code": 500,
        "error.type": "InternalServerError",
    }
    assert span.status.status_code is StatusCode.ERROR
    assert span.status.description == f"InternalServerError: {info.value}"
    assert [e.name for e in span.events] == [
        "kimi.http.attempt",
        "kimi.http.retry",
        "kimi.http.attempt",
    ]
    (duration,) = points(otel, "gen_ai.client.operation.duration")
    assert duration.attributes["error.type"] == "InternalServerError"
    assert "gen_ai.response.model" not in duration.attributes
    assert "gen_ai.client.token.usage" not in otel.metrics()


# --- tools and scopes -----------------------------------------------------------------------


def get_weather(city: str) -> str:
    """The weather in a city."""
    return f"Sunny in {city}."


def broken_tool(city: str) -> str:
    """Always fails."""
    raise LookupError(f"no data for {city}")


@pytest.mark.parametrize("fmt", FORMATS)
def test_run_tools_adds_an_execute_tool_span_per_tool_call(
    client: Kimi, kimi_standin: KimiStandIn, otel: Otel, fmt: str
) -> None:
    kimi_standin.queue(
        Reply(tool_calls=[ToolCallSpec("get_weather", {"city": "Oslo"}),
                          ToolCallSpec("broken_tool", {"city": "Bergen"})]),
        Reply(text="Oslo is sunny; Bergen is unknown."),
    )  # fmt: skip
    run = resource(client, fmt).run_tools(tools=[get_weather, broken_tool], **params(fmt))
    assert run.rounds == 2
    spans = otel.spans()
    assert [s.name for s in spans] == [
        f"chat {MODEL}", "execute_tool get_weather", "execute_tool broken_tool", f"chat {MODEL}",
    ]  # fmt: skip
    calls = run.results[0].tool_calls
    ok, failed = spans[1], spans[2]
    assert ok.kind is SpanKind.INTERNAL
    assert dict(ok.attributes) == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_weather",
        "gen_ai.tool.type": "function",
        "gen_ai.tool.call.id": calls[0].id,
    }
    assert ok.status.status_code is StatusCode.UNSET
    assert dict(failed.attributes) == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "broken_tool",
        "gen_ai.tool.type": "function",
        "gen_ai.tool.call.id": calls[1].id,
        "error.type": "LookupError",
    }
    assert failed.status.status_code is StatusCode.ERROR
    for span, result in ((spans[0], run.results[0]), (spans[3], run.results[1])):
        assert span.attributes["gen_ai.response.id"] == result.to_dict()["id"]


async def test_async_run_tools_spans_and_a_tools_own_span_is_its_child(
    aclient: AsyncKimi, kimi_standin: KimiStandIn, otel: Otel
) -> None:
    tracer = otel.tracer_provider.get_tracer("app")

    async def lookup(city: str) -> str:
        """Look a city up."""
        with tracer.start_as_current_span("app.lookup"):
            return f"{city}: found"

    kimi_standin.queue(
        Reply(tool_calls=[ToolCallSpec("lookup", {"city": "Oslo"}),
                          ToolCallSpec("lookup", {"city": "Rome"})]),
        Reply(text="Both found."),
    )  # fmt: skip
    run = await aclient.messages.run_tools(tools=[lookup], **params("messages"))
    assert run.text == "Both found."
    spans = otel.spans()
    tools = [s for s in spans if s.name == "execute_tool lookup"]
    inner = [s for s in spans if s.name == "app.lookup"]
    assert len(tools) == 2 and len(inner) == 2
    assert {s.parent.span_id for s in inner} == {t.context.span_id for t in tools}
    assert {t.attributes["gen_ai.tool.call.id"] for t in tools} == {
        c.id for c in run.results[0].tool_calls
    }


def test_a_scope_is_the_parent_span_of_the_calls_inside(
    client: Kimi, kimi_standin: KimiStandIn, otel: Otel
) -> None:
    from kimi_ext.hooks import scope

    with scope(client, "batch", {"kimi.batch.size": 2}):
        client.chat.completions.create(**params("chat"))
        client.messages.create(**params("messages"))
    client.responses.create(**params("responses"))  # outside: no parent
    spans = otel.spans()
    batch = next(s for s in spans if s.name == "batch")
    calls = [s for s in spans if s.name.startswith("chat ")]
    assert dict(batch.attributes) == {"kimi.batch.size": 2}
    assert [c.parent.span_id if c.parent else None for c in calls] == [
        batch.context.span_id, batch.context.span_id, None,
    ]  # fmt: skip
    assert all(c.context.trace_id == batch.context.trace_id for c in calls[:2])


async def test_an_async_batch_scope_parents_the_calls_of_the_tasks_it_starts(
    aclient: AsyncKimi, otel: Otel
) -> None:
    """As a batch runner uses it: the tasks are created inside the scope."""
    import asyncio

    from kimi_ext.hooks import scope
    from kimi_ext.telemetry import semconv

    async with scope(aclient, semconv.BATCH_SPAN, {semconv.BATCH_SIZE: 3}):
        results = await asyncio.gather(
            *(aclient.messages.create(**params("messages", f"Item {i}")) for i in range(3))
        )
    spans = otel.spans()
    (batch,) = [s for s in spans if s.name == "kimi.batch"]
    calls = [s for s in spans if s.name.startswith("chat ")]
    assert dict(batch.attributes) == {"kimi.batch.size": 3}
    assert len(calls) == 3
    assert all(c.parent is not None and c.parent.span_id == batch.context.span_id for c in calls)
    assert {c.attributes["gen_ai.response.id"] for c in calls} == {
        r.to_dict()["id"] for r in results
    }
    assert batch.end_time >= max(c.end_time for c in calls)


async def test_an_async_scope_ended_by_an_error_records_it(aclient: AsyncKimi, otel: Otel) -> None:
    from kimi_ext.hooks import scope

    with pytest.raises(KeyError):
        async with scope(aclient, "batch"):
            await aclient.chat.completions.create(**params("chat"))
            raise KeyError("stop")
    batch = next(s for s in otel.spans() if s.name == "batch")
    assert batch.attributes["error.type"] == "KeyError"
    assert batch.status.status_code is StatusCode.ERROR


# --- conventions version, content capture ---------------------------------------------------


def test_the_later_conventions_count_tokens_by_kind(
    kimi_standin: KimiStandIn, otel: Otel, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OTEL_SEMCONV_STABILITY_OPT_IN", "http, gen_ai_latest_experimental")
    with Kimi(
        api_key=kimi_standin.api_key, base_url=kimi_standin.base_url, telemetry=otel.telemetry()
    ) as client:
        result = client.messages.create(**params("messages"))
    metrics = otel.metrics()
    assert "gen_ai.client.token.usage" not in metrics
    usage = result.to_dict()["usage"]
    expected = {
        "gen_ai.client.inference.usage.input_tokens": usage["input_tokens"]
        + usage["cache_read_input_tokens"]
        + usage["cache_creation_input_tokens"],
        "gen_ai.client.inference.usage.output_tokens": usage["output_tokens"],
        "gen_ai.client.inference.usage.cache_read.input_tokens": usage["cache_read_input_tokens"],
        "gen_ai.client.inference.usage.cache_write.input_tokens": usage[
            "cache_creation_input_tokens"
        ],
        "gen_ai.client.inference.usage.reasoning.output_tokens": usage["output_tokens_details"][
            "thinking_tokens"
        ],
    }
    for name, value in expected.items():
        (point,) = metrics[name].data.data_points
        assert point.value == value, name
        assert point.attributes["gen_ai.token.modality"] == "unknown"
    assert "gen_ai.client.operation.duration" in metrics


def test_content_is_off_by_default(client: Kimi, otel: Otel) -> None:
    client.messages.create(**params("messages"))
    names = set(otel.only_span().attributes)
    assert not names & {
        "gen_ai.input.messages",
        "gen_ai.output.messages",
        "gen_ai.system_instructions",
    }


@pytest.mark.parametrize("setting", ["true", "SPAN_ONLY"])
def test_content_capture_is_size_capped_and_redacted(
    kimi_standin: KimiStandIn, otel: Otel, monkeypatch: pytest.MonkeyPatch, setting: str
) -> None:
    import json

    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", setting)
    key = kimi_standin.api_key
    with Kimi(
        api_key=key, base_url=kimi_standin.base_url, telemetry=otel.telemetry(content_limit=400)
    ) as client:
        kimi_standin.queue(Reply(text=f"You said {key}.", reasoning="Echo."))
        result = client.messages.create(**params("messages", f"My key is {key}. Repeat it."))
        assert key in result.text  # the user's own result is untouched
        kimi_standin.queue(Reply(text="x" * 2000))
        long = client.messages.create(**params("messages"))
    short, cut = otel.spans()
    inputs = json.loads(short.attributes["gen_ai.input.messages"])
    assert inputs == [{"role": "user", "parts": [{"type": "text",
                                                   "content": "My key is <redacted>. Repeat it."}]}]  # fmt: skip
    assert json.loads(short.attributes["gen_ai.system_instructions"]) == [
        {"type": "text", "content": "Be brief."}
    ]
    outputs = json.loads(short.attributes["gen_ai.output.messages"])
    assert outputs == [{
        "role": "assistant",
        "parts": [{"type": "reasoning", "content": "Echo."},
                  {"type": "text", "content": "You said <redacted>."}],
        "finish_reason": "end_turn",
    }]  # fmt: skip
    text = cut.attributes["gen_ai.output.messages"]
    assert len(long.text) > 1000  # the answer itself is whole
    assert text.startswith('[{"role": "assistant"') and "...<cut: " in text
    assert len(text) < 500


def test_the_key_never_appears_in_spans_events_or_metrics(
    kimi_standin: KimiStandIn, otel: Otel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every setting on, the key in the prompt, an error that echoes it, a retry and a tool."""
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    key = kimi_standin.api_key
    with Kimi(api_key=key, base_url=kimi_standin.base_url, telemetry=otel.telemetry()) as client:
        client._sender.sleep = lambda seconds: None
        kimi_standin.fault(Fault.rate_limit(retry_after=0.01))
        client.chat.completions.create(**params("chat", f"key {key}"))
        kimi_standin.queue(Reply(tool_calls=[ToolCallSpec("get_weather", {"city": key})]), "Done.")
        client.chat.completions.run_tools(tools=[get_weather], **params("chat"))
        kimi_standin.fault(Fault.server_error(500), times=3)
        with pytest.raises(InternalServerError):
            client.chat.completions.create(**params("chat", key), max_retries=0)
    dumped = "".join(span.to_json() for span in otel.spans())
    assert "redacted" in dumped
    assert key not in dumped
    assert key not in otel.reader.get_metrics_data().to_json()


def test_a_call_with_a_deadline_takes_the_same_seam(
    client: Kimi, kimi_standin: KimiStandIn, otel: Otel
) -> None:
    """With a deadline the sync client sends from a worker thread and the async stream
    reads under a timeout: the span is the same."""
    result = client.messages.create(**params("messages"), deadline=60)
    checked_span(otel, "messages", result, kimi_standin.port, stream=False)
    otel.exporter.clear()
    with client.chat.completions.stream(**params("chat"), deadline=60) as stream:
        result = stream.get_final_completion()
    checked_span(otel, "chat", result, kimi_standin.port, stream=True)


async def test_an_async_stream_with_a_deadline(
    aclient: AsyncKimi, kimi_standin: KimiStandIn, otel: Otel
) -> None:
    async with aclient.responses.stream(**params("responses"), deadline=60) as stream:
        result = await stream.get_final_response()
    checked_span(otel, "responses", result, kimi_standin.port, stream=True)


def test_the_span_starts_when_the_call_does(kimi_standin: KimiStandIn, otel: Otel) -> None:
    """The span starts at the call's own start (``CallInfo.started_ns``), not when the
    telemetry hook gets to run: a hook ahead of it (or a busy machine) cannot make the time
    to the first chunk, measured from the call's start, longer than the span."""

    class Late(kimi_ext.hooks.Hook):
        seen: list[int] = []  # noqa: RUF012

        def on_call_start(self, call: Any) -> None:
            self.seen.append(call.started_ns)

    with Kimi(
        api_key=kimi_standin.api_key,
        base_url=kimi_standin.base_url,
        fallback_base_url=None,
        hooks=[Late()],
        telemetry=otel.telemetry(),
    ) as client:
        kimi_standin.queue(Reply(text="Hello."))
        with client.messages.stream(**params("messages")) as stream:
            stream.get_final_message()
    span = otel.only_span()
    assert Late.seen == [span.start_time]
    ttfc = span.attributes["gen_ai.response.time_to_first_chunk"]
    assert 0 < ttfc <= (span.end_time - span.start_time) / 1e9
