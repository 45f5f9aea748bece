"""Scripted replies: text, reasoning, tool calls, web search, structured output, truncation,
stop sequences, the default echo, and history that round-trips through the rules."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kimi_ext.testing import (
    KimiStandIn,
    RecordedRequest,
    Reply,
    SearchResult,
    ToolCallSpec,
    WebSearchSpec,
    count_tokens,
)
from kimi_ext.testing.replies import DEFAULT_REASONING, example_for_schema
from tests.support.standin import (
    BODY,
    K31,
    Wire,
    answer_reasoning,
    answer_text,
    chat_body,
    chat_stream_calls,
    messages_body,
    responses_body,
    stream_reasoning,
    stream_text,
)

FORMATS = ("chat", "messages", "responses")
WEATHER_TOOLS = {
    "chat": [
        {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
    ],
    "messages": [{"name": "get_weather", "input_schema": {"type": "object"}}],
    "responses": [{"type": "function", "name": "get_weather", "parameters": {"type": "object"}}],
}


# ---------------------------------------------------------------------------- the tokens


def test_token_count() -> None:
    assert [count_tokens(t) for t in ("", "a", "abcd", "abcde", "x" * 400)] == [0, 1, 1, 2, 100]


# ---------------------------------------------------------------------- choosing a reply


@pytest.mark.parametrize("fmt", FORMATS)
def test_text_and_reasoning_in_json_and_stream(wire: Wire, standin: KimiStandIn, fmt: str) -> None:
    reply = Reply(text="Hello, world! " * 3, reasoning="The user greets me; greet back.")
    standin.queue(reply, reply)
    result = wire.ok(fmt, BODY[fmt]())
    assert answer_text(fmt, result) == reply.text
    assert answer_reasoning(fmt, result) == reply.reasoning
    stream = wire.stream(fmt, BODY[fmt]())
    assert stream.status == 200 and stream.error is None
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert stream_text(fmt, stream) == reply.text
    assert stream_reasoning(fmt, stream) == reply.reasoning


def test_queue_order_string_shorthand_responder_and_default(
    wire: Wire, standin: KimiStandIn
) -> None:
    seen: list[RecordedRequest] = []

    def responder(request: RecordedRequest) -> Reply | None:
        seen.append(request)
        text = request.json["messages"][-1]["content"]
        return Reply(text=f"responder: {text}") if text != "skip" else None

    standin.queue("first", Reply(text="second"))
    standin.responder = responder
    texts = [answer_text("chat", wire.ok("chat", chat_body(p))) for p in ("a", "b", "c", "skip")]
    assert texts == ["first", "second", "responder: c", "skip"]
    assert [r.json["messages"][-1]["content"] for r in seen] == ["c", "skip"]
    assert standin.pending_replies == 0


@pytest.mark.parametrize("fmt", FORMATS)
def test_default_reply_echoes_the_last_user_text(wire: Wire, fmt: str) -> None:
    result = wire.ok(fmt, BODY[fmt]("Echo me, please."))
    assert answer_text(fmt, result) == "Echo me, please."
    assert answer_reasoning(fmt, result) == DEFAULT_REASONING


def test_default_echo_reads_text_parts(wire: Wire) -> None:
    parts = [{"type": "text", "text": "one"}, {"type": "image_url", "image_url": {"url": "ms://f"}}]
    assert answer_text("chat", wire.ok("chat", chat_body(parts))) == "one"  # type: ignore[arg-type]
    items = [
        {"role": "user", "content": "old"},
        {"role": "assistant", "content": "reply"},
        {"role": "user", "content": [{"type": "input_text", "text": "new"}]},
    ]
    assert answer_text("responses", wire.ok("responses", responses_body(items))) == "new"  # type: ignore[arg-type]
    only_image = [{"type": "image", "source": {"type": "url", "url": "ms://f"}}]
    assert answer_text("messages", wire.ok("messages", messages_body(only_image))) == "OK"  # type: ignore[arg-type]


def test_empty_reasoning_stays_empty(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(text="x", reasoning=""), Reply(text="x", reasoning=""))
    assert wire.ok("chat", chat_body())["choices"][0]["message"]["reasoning_content"] == ""
    thinking = wire.ok("messages", messages_body())["content"][0]
    assert thinking["type"] == "thinking" and thinking["thinking"] == ""
    assert thinking["signature"] == standin.sign_thinking("")


def test_kimi_k3_on_messages_answers_with_text_blocks_only(wire: Wire) -> None:
    result = wire.ok("messages", messages_body("Hi", model="kimi-k3"))
    assert [b["type"] for b in result["content"]] == ["text"]
    assert result["usage"]["output_tokens_details"]["thinking_tokens"] == 0


# --------------------------------------------------------------------------- tool calls

CALLS = [
    ToolCallSpec("get_weather", {"city": "Beijing"}),
    ToolCallSpec("get_weather", '{"city": "Shanghai"}'),
]


def test_chat_parallel_tool_calls(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(reasoning="Two cities.", tool_calls=CALLS), Reply(tool_calls=CALLS))
    result = wire.ok("chat", chat_body(tools=WEATHER_TOOLS["chat"]))
    choice = result["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] is None
    assert choice["message"]["tool_calls"] == [
        {
            "id": "functions.get_weather:0",
            "type": "function",
            "function": {"name": "get_weather", "arguments": '{"city": "Beijing"}'},
        },
        {
            "id": "functions.get_weather:1",
            "type": "function",
            "function": {"name": "get_weather", "arguments": '{"city": "Shanghai"}'},
        },
    ]
    stream = wire.stream("chat", chat_body(tools=WEATHER_TOOLS["chat"]))
    calls = chat_stream_calls(stream)
    assert [(c["id"], c["name"], c["arguments"]) for c in calls.values()] == [
        ("functions.get_weather:0", "get_weather", '{"city": "Beijing"}'),
        ("functions.get_weather:1", "get_weather", '{"city": "Shanghai"}'),
    ]
    finish = [c for p in stream.payloads() for c in p["choices"] if c.get("finish_reason")]
    assert finish[0]["finish_reason"] == "tool_calls"


def test_messages_tool_use_blocks(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(
        Reply(text="Checking.", tool_calls=CALLS), Reply(text="Checking.", tool_calls=CALLS)
    )
    result = wire.ok("messages", messages_body(tools=WEATHER_TOOLS["messages"]))
    assert result["stop_reason"] == "tool_use"
    assert [b["type"] for b in result["content"]] == ["thinking", "text", "tool_use", "tool_use"]
    assert result["content"][2] == {
        "type": "tool_use",
        "id": "functions.get_weather:0",
        "name": "get_weather",
        "input": {"city": "Beijing"},
    }
    stream = wire.stream("messages", messages_body(tools=WEATHER_TOOLS["messages"]))
    partial = "".join(
        p["delta"]["partial_json"]
        for p in stream.payloads()
        if p["type"] == "content_block_delta" and p["index"] == 3
    )
    assert json.loads(partial) == {"city": "Shanghai"}
    assert stream.types()[-2:] == ["message_delta", "message_stop"]
    assert stream.payloads()[-2]["delta"]["stop_reason"] == "tool_use"


def test_responses_function_call_items(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(tool_calls=CALLS), Reply(tool_calls=CALLS))
    result = wire.ok("responses", responses_body(tools=WEATHER_TOOLS["responses"]))
    calls = [i for i in result["output"] if i["type"] == "function_call"]
    assert [(c["call_id"], c["arguments"]) for c in calls] == [
        ("functions.get_weather:0", '{"city": "Beijing"}'),
        ("functions.get_weather:1", '{"city": "Shanghai"}'),
    ]
    assert all(c["id"].startswith("fc_") and c["status"] == "completed" for c in calls)
    assert result["status"] == "completed"
    stream = wire.stream("responses", responses_body(tools=WEATHER_TOOLS["responses"]))
    done = [p for p in stream.payloads() if p["type"] == "response.function_call_arguments.done"]
    assert [d["arguments"] for d in done] == ['{"city": "Beijing"}', '{"city": "Shanghai"}']
    assert [p["sequence_number"] for p in stream.payloads()] == list(range(len(stream.events)))


def test_custom_call_ids_and_invalid_arguments_are_sent_as_scripted(
    wire: Wire, standin: KimiStandIn
) -> None:
    standin.queue(Reply(tool_calls=[ToolCallSpec("f", '{"broken', id="call-7")]))
    call = wire.ok("chat", chat_body())["choices"][0]["message"]["tool_calls"][0]
    assert call["id"] == "call-7" and call["function"]["arguments"] == '{"broken'
    standin.queue(Reply(tool_calls=[ToolCallSpec("f", '{"broken', id="call-7")]))
    block = wire.ok("messages", messages_body())["content"][-1]
    assert block["input"] == {}  # not an object: Messages needs one


def test_chat_tool_loop_round_trips(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(reasoning="Two cities.", tool_calls=CALLS), "Beijing 3 C, Shanghai 9 C.")
    body = chat_body("Weather?", tools=WEATHER_TOOLS["chat"])
    turn = wire.ok("chat", body)["choices"][0]["message"]
    body["messages"].append(turn)
    for call in turn["tool_calls"]:
        body["messages"].append({"role": "tool", "tool_call_id": call["id"], "content": "ok"})
    assert answer_text("chat", wire.ok("chat", body)) == "Beijing 3 C, Shanghai 9 C."
    del body["messages"][1]["reasoning_content"]  # what a careless client does
    assert "reasoning_content is missing" in wire.error("chat", body)["message"]


def test_messages_tool_loop_round_trips(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(text="Checking.", tool_calls=CALLS), "Done.")
    body = messages_body("Weather?", tools=WEATHER_TOOLS["messages"])
    first = wire.ok("messages", body)
    body["messages"].append({"role": "assistant", "content": first["content"]})
    results = [
        {"type": "tool_result", "tool_use_id": b["id"], "content": "ok"}
        for b in first["content"]
        if b["type"] == "tool_use"
    ]
    body["messages"].append({"role": "user", "content": results})
    assert answer_text("messages", wire.ok("messages", body)) == "Done."
    body["messages"][1]["content"][0]["thinking"] += " "  # re-serialised by a careless client
    assert "Invalid `signature`" in wire.error("messages", body)["message"]


def test_messages_streamed_thinking_round_trips(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(reasoning="Streamed thought.", tool_calls=CALLS[:1]))
    stream = wire.stream("messages", messages_body("Weather?", tools=WEATHER_TOOLS["messages"]))
    signature = next(
        p["delta"]["signature"]
        for p in stream.payloads()
        if p["type"] == "content_block_delta" and p["delta"]["type"] == "signature_delta"
    )
    history = messages_body(
        messages=[
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "thinking",
                        "thinking": stream_reasoning("messages", stream),
                        "signature": signature,
                    },
                    {
                        "type": "tool_use",
                        "id": "functions.get_weather:0",
                        "name": "get_weather",
                        "input": {},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "functions.get_weather:0",
                        "content": "x",
                    }
                ],
            },
        ],
        tools=WEATHER_TOOLS["messages"],
    )
    wire.ok("messages", history)


def test_responses_tool_loop_round_trips(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(tool_calls=CALLS), "Both fetched.")
    first = wire.ok("responses", responses_body(tools=WEATHER_TOOLS["responses"]))
    items: list[Any] = [{"role": "user", "content": "Hi"}, *first["output"]]
    replay = responses_body(input=items, tools=WEATHER_TOOLS["responses"])
    assert (
        (wire.error("responses", replay)["message"])
        == "No tool output found for function call functions.get_weather:0."
    )
    for item in first["output"]:
        if item["type"] == "function_call":
            items.append(
                {"type": "function_call_output", "call_id": item["call_id"], "output": "ok"}
            )
    assert answer_text("responses", wire.ok("responses", replay)) == "Both fetched."


# --------------------------------------------------------------------------- web search

SEARCH = WebSearchSpec(
    "Kimi homepage", [SearchResult("https://www.kimi.com/", "Kimi", "AI assistant")]
)


def test_messages_web_search_blocks(wire: Wire, standin: KimiStandIn) -> None:
    reply = Reply(text="It is https://www.kimi.com/.", reasoning="Search first.", web_search=SEARCH)
    standin.queue(reply, reply)
    tools = [{"type": "web_search_20250305", "name": "web_search", "max_uses": 1}]
    result = wire.ok("messages", messages_body(tools=tools))
    types = [b["type"] for b in result["content"]]
    assert types == ["thinking", "server_tool_use", "web_search_tool_result", "text"]
    use, found = result["content"][1], result["content"][2]
    assert use["id"].startswith("srvtoolu_") and use["input"] == {"query": "Kimi homepage"}
    assert found["tool_use_id"] == use["id"]
    assert found["content"][0]["url"] == "https://www.kimi.com/"
    assert found["content"][0]["type"] == "web_search_result"
    assert result["usage"]["server_tool_use"] == {"web_search_requests": 1}
    assert result["stop_reason"] == "end_turn"
    stream = wire.stream("messages", messages_body(tools=tools))
    starts = [
        p["content_block"]["type"] for p in stream.payloads() if p["type"] == "content_block_start"
    ]
    assert starts == types
    # the history with the server blocks is accepted as it came back
    history = messages_body(
        messages=[
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": result["content"]},
            {"role": "user", "content": "Thanks"},
        ],
        tools=tools,
    )
    wire.ok("messages", history)


def test_responses_web_search_call_item(wire: Wire, standin: KimiStandIn) -> None:
    reply = Reply(text="Found it.", web_search="Kimi homepage")
    standin.queue(reply, reply, reply)
    tools = [{"type": "web_search"}]
    plain = wire.ok("responses", responses_body(tools=tools))
    call = next(i for i in plain["output"] if i["type"] == "web_search_call")
    assert call["id"].startswith("ws_") and call["status"] == "completed"
    assert call["action"] == {"type": "search", "query": "Kimi homepage"}
    both = ["web_search_call.results", "web_search_call.action.sources"]
    full = wire.ok("responses", responses_body(tools=tools, include=both))
    call = next(i for i in full["output"] if i["type"] == "web_search_call")
    assert call["action"]["sources"][0] == {"type": "url", "url": "https://www.kimi.com/"}
    assert call["results"][0]["url"] == "https://www.kimi.com/"
    stream = wire.stream("responses", responses_body(tools=tools))
    assert "response.web_search_call.searching" in stream.types()


def test_chat_web_search_echo_loop(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(
        Reply(text="The meeting held rates.", reasoning="Need fresh news.", web_search="rates")
    )
    standin.queue("not used by the echo")
    body = chat_body("What happened today?", tools=[{"type": "web_search"}])
    first = wire.ok("chat", body)["choices"][0]
    assert first["finish_reason"] == "tool_calls"
    call = first["message"]["tool_calls"][0]
    assert call["id"] == "$web_search:0" and call["type"] == "builtin_function"
    assert call["function"]["name"] == "$web_search"
    arguments = json.loads(call["function"]["arguments"])
    assert arguments["search_result"]["search_id"].startswith("ws-")
    assert first["message"]["content"] is None  # never "": refused replayed
    body["messages"].append(first["message"])
    echo = {"role": "tool", "tool_call_id": call["id"], "name": "$web_search"}
    altered = json.dumps(arguments)  # re-serialised: not the same text
    body["messages"].append({**echo, "content": altered})
    assert "unchanged" in wire.error("chat", body)["message"]
    body["messages"][-1]["content"] = call["function"]["arguments"]
    final = wire.ok("chat", body)["choices"][0]
    assert final["message"]["content"] == "The meeting held rates."
    assert final["finish_reason"] == "stop"
    assert standin.pending_replies == 1  # the echo did not consume the queue


def test_chat_web_search_first_half_streams(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(text="Answer.", web_search="q"))
    stream = wire.stream("chat", chat_body(tools=[{"type": "web_search"}]))
    (call,) = chat_stream_calls(stream).values()
    assert call["id"] == "$web_search:0" and call["name"] == "$web_search"
    assert "search_id" in call["arguments"]


# ---------------------------------------------------------------------- structured output

SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "days": {"type": "integer", "minimum": 1},
        "unit": {"type": "string", "enum": ["c", "f"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "optional": {"type": "boolean"},
    },
    "required": ["city", "days", "unit", "tags"],
    "additionalProperties": False,
}
STRUCTURED = {
    "chat": {
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "plan", "schema": SCHEMA},
        }
    },
    "messages": {"output_config": {"format": {"type": "json_schema", "schema": SCHEMA}}},
    "responses": {"text": {"format": {"type": "json_schema", "name": "plan", "schema": SCHEMA}}},
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_structured_output(wire: Wire, standin: KimiStandIn, fmt: str) -> None:
    standin.queue(Reply.structured({"city": "Oslo", "days": 2, "unit": "c", "tags": []}))
    scripted = json.loads(answer_text(fmt, wire.ok(fmt, BODY[fmt](**STRUCTURED[fmt]))))
    assert scripted == {"city": "Oslo", "days": 2, "unit": "c", "tags": []}
    default = json.loads(answer_text(fmt, wire.ok(fmt, BODY[fmt](**STRUCTURED[fmt]))))
    assert default == {"city": "", "days": 1, "unit": "c", "tags": []}


def test_chat_json_mode_default_reply(wire: Wire) -> None:
    text = answer_text(
        "chat",
        wire.ok("chat", chat_body("hi, reply in JSON", response_format={"type": "json_object"})),
    )
    assert json.loads(text) == {"echo": "hi, reply in JSON"}


def test_example_for_schema() -> None:
    assert example_for_schema({"anyOf": [{"type": "null"}, {"type": "string"}]}) is None
    assert example_for_schema({"type": ["null", "number"], "minimum": 2.5}) == 2.5
    assert example_for_schema({"const": 7}) == 7
    assert example_for_schema({"type": "array", "minItems": 2, "items": {"type": "boolean"}}) == [
        False,
        False,
    ]
    assert example_for_schema({"properties": {"a": {"default": "x"}}}) == {"a": "x"}
    assert example_for_schema({"type": "string", "minLength": 3}) == "xxx"
    assert example_for_schema("not a schema") is None


# --------------------------------------------------------------------------- truncation

LONG = Reply(text="abcdefghij" * 10, reasoning="r" * 40)  # 25 text tokens, 10 reasoning tokens


def limit(fmt: str, n: int) -> dict[str, Any]:
    key = {
        "chat": "max_completion_tokens",
        "messages": "max_tokens",
        "responses": "max_output_tokens",
    }[fmt]
    return BODY[fmt](**{key: n})


@pytest.mark.parametrize("fmt", FORMATS)
def test_max_tokens_cuts_the_text(wire: Wire, standin: KimiStandIn, fmt: str) -> None:
    standin.queue(LONG, LONG)
    result = wire.ok(fmt, limit(fmt, 13))  # 10 for reasoning, 3 tokens = 12 characters of text
    assert answer_reasoning(fmt, result) == LONG.reasoning
    assert answer_text(fmt, result) == LONG.text[:12]
    if fmt == "chat":
        assert result["choices"][0]["finish_reason"] == "length"
        assert result["usage"]["completion_tokens"] == 13
    elif fmt == "messages":
        assert result["stop_reason"] == "max_tokens"
        assert result["usage"]["output_tokens"] == 13
        assert "signature" in result["content"][0]  # the thinking itself was complete
    else:
        assert result["status"] == "incomplete"
        assert result["incomplete_details"] == {"reason": "max_output_tokens"}
        assert result["usage"]["output_tokens"] == 13
        assert result["output"][-1]["status"] == "incomplete"
    stream = wire.stream(fmt, limit(fmt, 13))
    assert stream_text(fmt, stream) == LONG.text[:12]
    if fmt == "responses":
        assert stream.types()[-1] == "response.incomplete"
    if fmt == "messages":
        assert stream.payloads()[-2]["delta"]["stop_reason"] == "max_tokens"


@pytest.mark.parametrize("fmt", FORMATS)
def test_max_tokens_inside_the_reasoning(wire: Wire, standin: KimiStandIn, fmt: str) -> None:
    standin.queue(Reply(text="Answer", reasoning="r" * 40, tool_calls=CALLS))
    result = wire.ok(fmt, limit(fmt, 4))
    assert answer_reasoning(fmt, result) == "r" * 16
    assert answer_text(fmt, result) == ""
    if fmt == "chat":
        message = result["choices"][0]["message"]
        assert "tool_calls" not in message and result["choices"][0]["finish_reason"] == "length"
        assert result["usage"]["completion_tokens_details"]["reasoning_tokens"] == 4
    elif fmt == "messages":
        assert result["content"] == [{"type": "thinking", "thinking": "r" * 16}]  # unsigned
        assert result["stop_reason"] == "max_tokens"
    else:
        assert [i["type"] for i in result["output"]] == ["reasoning"]
        assert result["output"][0]["status"] == "incomplete"


def test_a_tool_call_that_does_not_fit_is_cut_mid_arguments(
    wire: Wire, standin: KimiStandIn
) -> None:
    # reasoning 1 token, each call 8 tokens ("get_weather" + its arguments): the first fits;
    # 3 tokens (12 characters) are left, 11 for the name, so 1 character of arguments
    standin.queue(Reply(reasoning="go!", tool_calls=CALLS))
    result = wire.ok("chat", chat_body(max_completion_tokens=12))
    choice = result["choices"][0]
    assert choice["finish_reason"] == "length"
    calls = choice["message"]["tool_calls"]
    assert [c["id"] for c in calls] == ["functions.get_weather:0", "functions.get_weather:1"]
    assert calls[0]["function"]["arguments"] == '{"city": "Beijing"}'
    assert calls[1]["function"]["arguments"] == "{"
    # with less room than the name, no part of the call is produced
    standin.queue(Reply(reasoning="go!", tool_calls=CALLS))
    calls = wire.ok("chat", chat_body(max_completion_tokens=11))["choices"][0]["message"]
    assert [c["id"] for c in calls["tool_calls"]] == ["functions.get_weather:0"]


# ------------------------------------------------------------------------ stop sequences


def test_chat_stop_sequences_cut_the_text(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(text="1, 2, 3, END 4, 5 ### 6", tool_calls=CALLS))
    result = wire.ok("chat", chat_body(stop=["###", "END"]))
    choice = result["choices"][0]
    assert choice["message"]["content"] == "1, 2, 3, "
    assert choice["finish_reason"] == "stop"
    assert "tool_calls" not in choice["message"]  # generation ended at the stop sequence


def test_messages_stop_sequence_is_reported_as_documented(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(text="count 1 2 3 停止 4"), Reply(text="count 1 2 3 停止 4"))
    result = wire.ok("messages", messages_body(stop_sequences=["停止"]))
    assert answer_text("messages", result) == "count 1 2 3 "
    assert (result["stop_reason"], result["stop_sequence"]) == ("end_turn", None)
    stream = wire.stream("messages", messages_body(stop_sequences=["停止"]))
    assert stream_text("messages", stream) == "count 1 2 3 "
    assert stream.payloads()[-2]["delta"] == {"stop_reason": "end_turn", "stop_sequence": None}


def test_messages_stop_sequence_anthropic_style_on_request() -> None:
    import httpx

    with KimiStandIn(report_stop_sequence=True) as standin:
        standin.queue(Reply(text="a b END c"))
        result = httpx.post(
            standin.base_url + "/v1/messages",
            json=messages_body(stop_sequences=["END"]),
            headers={"Authorization": "Bearer test-key", "anthropic-version": "2023-06-01"},
        ).json()
    assert (result["stop_reason"], result["stop_sequence"]) == ("stop_sequence", "END")
    assert result["content"][-1]["text"] == "a b "


# --------------------------------------------------------------------------------- usage


@pytest.mark.parametrize("fmt", FORMATS)
def test_usage_counts_tokens_consistently(wire: Wire, standin: KimiStandIn, fmt: str) -> None:
    standin.queue(Reply(text="x" * 20, reasoning="y" * 12, tool_calls=[ToolCallSpec("f", "{}")]))
    usage = wire.ok(fmt, BODY[fmt]())["usage"]
    if fmt == "chat":
        assert usage["completion_tokens"] == 5 + 3 + 1
        assert usage["completion_tokens_details"] == {"reasoning_tokens": 3}
        assert usage["total_tokens"] == usage["prompt_tokens"] + 9
    elif fmt == "messages":
        assert usage["output_tokens"] == 9
        assert usage["output_tokens_details"] == {"thinking_tokens": 3}
        assert usage["input_tokens"] >= 1
    else:
        assert usage["output_tokens"] == 9
        assert usage["output_tokens_details"] == {"reasoning_tokens": 3}
        assert usage["total_tokens"] == usage["input_tokens"] + 9


def test_chat_usage_chunk_only_with_include_usage(wire: Wire) -> None:
    without = wire.stream("chat", chat_body())
    assert all(p["choices"] for p in without.payloads())
    with_usage = wire.stream("chat", chat_body(stream_options={"include_usage": True}))
    last = with_usage.payloads()[-1]
    assert last["choices"] == [] and last["usage"]["completion_tokens"] > 0
    assert with_usage.events[-1].data == "[DONE]"


def test_chat_logprobs(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(text="abcdefgh"), Reply(text="abcdefgh"))
    result = wire.ok("chat", chat_body(logprobs=True, top_logprobs=2))
    content = result["choices"][0]["logprobs"]["content"]
    assert [t["token"] for t in content] == ["abcd", "efgh"]
    assert len(content[0]["top_logprobs"]) == 2
    stream = wire.stream("chat", chat_body(logprobs=True, top_logprobs=0))
    assert any(c.get("logprobs") for p in stream.payloads() for c in p["choices"])
    assert wire.ok("chat", chat_body())["choices"][0]["logprobs"] is None


def test_responses_echo_the_request_settings(wire: Wire) -> None:
    result = wire.ok(
        "responses",
        responses_body(
            instructions="Be brief.",
            max_output_tokens=77,
            reasoning={"effort": "low", "summary": "auto"},
            prompt_cache_key="k",
            prompt_cache_options={"ttl": "1h"},
            tools=[{"type": "web_search"}],
            safety_identifier="u",
        ),
    )
    assert result["instructions"] == "Be brief." and result["max_output_tokens"] == 77
    assert result["reasoning"] == {"effort": "low", "summary": "auto"}
    assert result["prompt_cache_options"] == {"mode": "implicit", "ttl": "1h"}
    assert result["tools"] == [{"type": "web_search"}] and result["safety_identifier"] == "u"
    assert result["prompt_cache_key"] == "k" and result["model"] == K31
