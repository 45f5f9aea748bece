"""The stand-in serves each real-stream quirk of issue 13 as a fault, and refuses what Kimi
is reported to refuse. Each fault is checked on the wire (plain httpx, every payload
validated against the specs) and through kimi_ext."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import kimi_ext
from kimi_ext import InvalidToolCallError, Kimi, MessagesHistory, ResponsesHistory
from kimi_ext.testing import Fault, KimiStandIn, Reply, ToolCallSpec
from tests.support.standin import (
    BODY,
    Wire,
    chat_body,
    messages_body,
    responses_body,
)

WRITE = ToolCallSpec("write", {"path": "a.txt", "text": "one\ntwo\tthree"})
WEATHER = ToolCallSpec("get_weather", {"city": "Beijing"})
TOOLS = {
    "chat": [{"type": "function", "function": {"name": "write", "parameters": {"type": "object"}}}],
    "messages": [{"name": "write", "input_schema": {"type": "object"}}],
    "responses": [{"type": "function", "name": "write", "parameters": {"type": "object"}}],
}


@pytest.fixture
def client(standin: KimiStandIn) -> Iterator[Kimi]:
    with Kimi(api_key=standin.api_key, base_url=standin.base_url, fallback_base_url=None,
              max_retries=0) as kimi:  # fmt: skip
        yield kimi


def stream_final(client: Kimi, fmt: str, **params: Any) -> Any:
    """The final result of a kimi_ext stream of ``fmt`` (model and prompt filled in)."""
    body = BODY[fmt](**params)
    if fmt == "chat":
        with client.chat.completions.stream(**body) as s:
            return s.get_final_completion()
    if fmt == "messages":
        with client.messages.stream(**body) as s:
            return s.get_final_message()
    with client.responses.stream(**body) as s:
        return s.get_final_response()


def calls_in(fmt: str, payloads: list[Any]) -> str:
    """The arguments text of the first tool call, joined from the streamed deltas."""
    if fmt == "chat":
        return "".join(
            c.get("function", {}).get("arguments") or ""
            for p in payloads
            for ch in p.get("choices") or []
            for c in ch.get("delta", {}).get("tool_calls") or []
        )
    if fmt == "messages":
        return "".join(
            p["delta"]["partial_json"]
            for p in payloads
            if p["type"] == "content_block_delta" and p["delta"]["type"] == "input_json_delta"
        )
    return "".join(
        p["delta"] for p in payloads if p["type"] == "response.function_call_arguments.delta"
    )


# ------------------------------------------------------------------ renamed items


def test_renamed_items_on_the_wire(wire: Wire, standin: KimiStandIn) -> None:
    standin.fault(Fault.renamed_items())
    payloads = wire.stream("responses", responses_body()).payloads()
    added = [p["item"]["id"] for p in payloads if p["type"] == "response.output_item.added"]
    completed = payloads[-1]["response"]["output"]
    assert added[0].startswith("rs_tmp_") and completed[0]["id"].startswith("rs_")
    assert completed[0]["id"] != added[0]
    assert added[0].removeprefix("rs_tmp_") == completed[0]["id"].removeprefix("rs_")


def test_renamed_items_through_kimi_ext(client: Kimi, standin: KimiStandIn) -> None:
    standin.fault(Fault.renamed_items())
    response = stream_final(client, "responses")
    assert [item["type"] for item in response.output] == ["reasoning", "message"]
    assert not response.output[0]["id"].startswith("rs_tmp_")
    history = ResponsesHistory()
    history.add_user("Hi")
    history.add(response)
    history.add_user("again")
    assert client.responses.create(model="kimi-k3.1-pro", input=history).text == "again"


# ----------------------------------------------------------- control characters


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_control_characters_on_the_wire(wire: Wire, standin: KimiStandIn, fmt: str) -> None:
    standin.fault(Fault.control_characters())
    standin.queue(Reply(tool_calls=[WRITE]))
    arguments = calls_in(fmt, wire.stream(fmt, BODY[fmt](tools=TOOLS[fmt])).payloads())
    assert arguments == '{"path": "a.txt", "text": "one\ntwo\tthree"}'  # raw LF and TAB
    with pytest.raises(ValueError):
        json.loads(arguments)
    standin.fault(Fault.control_characters())
    standin.queue(Reply(tool_calls=[WRITE]))
    result = wire.ok("chat", chat_body(tools=TOOLS["chat"]))
    assert "\n" in result["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]


@pytest.mark.parametrize("fmt", ["chat", "responses"])
def test_control_characters_through_kimi_ext_run_tools(
    client: Kimi, standin: KimiStandIn, fmt: str
) -> None:
    seen: list[str] = []

    def write(path: str, text: str) -> str:
        """Write a file."""
        seen.append(text)
        return "written"

    standin.fault(Fault.control_characters())
    standin.queue(Reply(tool_calls=[WRITE]), Reply(text="Done."))
    resource = client.chat.completions if fmt == "chat" else client.responses
    field = "messages" if fmt == "chat" else "input"
    prompt: Any = [{"role": "user", "content": "write"}] if fmt == "chat" else "write"
    run = resource.run_tools(model="kimi-k3.1-pro", tools=[write], **{field: prompt})
    assert seen == ["one\ntwo\tthree"] and run.text == "Done."
    # what went back is valid JSON, escaped, every other byte as received
    replayed = standin.requests[-1].json[field]
    call = next(m for m in replayed if m.get("tool_calls") or m.get("type") == "function_call")
    sent = call["tool_calls"][0]["function"]["arguments"] if fmt == "chat" else call["arguments"]
    assert sent == '{"path": "a.txt", "text": "one\\ntwo\\tthree"}'


def test_control_characters_through_kimi_ext_messages_stream(
    client: Kimi, standin: KimiStandIn
) -> None:
    standin.fault(Fault.control_characters())
    standin.queue(Reply(tool_calls=[WRITE]))
    message = stream_final(client, "messages", tools=TOOLS["messages"])
    assert message.tool_calls[0].input == {"path": "a.txt", "text": "one\ntwo\tthree"}
    history = MessagesHistory()
    history.add_user("Hi")
    history.add(message)
    history.add_tool_result(message.tool_calls[0].id, "written")
    standin.queue(Reply(text="Done."))
    again = client.messages.create(**messages_body(messages=history, tools=TOOLS["messages"]))
    assert again.text == "Done."


# ---------------------------------------------------------------- a cut tool call


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_cut_tool_call_on_the_wire(wire: Wire, standin: KimiStandIn, fmt: str) -> None:
    full = json.dumps({"city": "Beijing"})
    standin.fault(Fault.cut_tool_call())
    standin.queue(Reply(tool_calls=[WEATHER]))
    payloads = wire.stream(fmt, BODY[fmt]()).payloads()
    assert calls_in(fmt, payloads) == full[: len(full) // 2]
    if fmt == "chat":
        finish = [c["finish_reason"] for p in payloads for c in p["choices"] if c["finish_reason"]]
        assert finish == ["length"]
    elif fmt == "messages":
        starts = [p["index"] for p in payloads if p["type"] == "content_block_start"]
        stops = [p["index"] for p in payloads if p["type"] == "content_block_stop"]
        assert stops == starts[:-1]  # the tool_use block never ends
        assert payloads[-2]["delta"]["stop_reason"] == "max_tokens"
    else:
        assert payloads[-1]["type"] == "response.incomplete"
        assert payloads[-1]["response"]["output"][-1]["status"] == "incomplete"
        assert "response.function_call_arguments.done" not in [p["type"] for p in payloads]
    standin.fault(Fault.cut_tool_call())
    standin.queue(Reply(tool_calls=[WEATHER]))
    message = wire.ok("messages", messages_body())
    assert message["stop_reason"] == "max_tokens"
    assert [b["type"] for b in message["content"]] == ["thinking"]  # never a valid-looking {}


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_cut_tool_call_through_kimi_ext(client: Kimi, standin: KimiStandIn, fmt: str) -> None:
    standin.fault(Fault.cut_tool_call())
    standin.queue(Reply(tool_calls=[WEATHER]))
    result = stream_final(client, fmt)
    call = result.tool_calls[0]
    full = json.dumps({"city": "Beijing"})
    assert call.truncated and call.arguments == full[: len(full) // 2]
    with pytest.raises(InvalidToolCallError, match="cut by the output limit"):
        _ = call.input


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_run_tools_never_runs_a_cut_call(client: Kimi, standin: KimiStandIn, fmt: str) -> None:
    ran: list[str] = []

    def get_weather(city: str) -> str:
        """Weather."""
        ran.append(city)
        return "sunny"

    # the budget runs out inside the arguments, as the real service does
    standin.queue(Reply(reasoning="go", tool_calls=[WEATHER]))
    history: Any = {"chat": kimi_ext.ChatHistory, "messages": MessagesHistory,
                    "responses": ResponsesHistory}[fmt]()  # fmt: skip
    history.add_user("Weather?")
    resource = {"chat": client.chat.completions, "messages": client.messages,
                "responses": client.responses}[fmt]  # fmt: skip
    limit = {"chat": "max_completion_tokens", "messages": "max_tokens",
             "responses": "max_output_tokens"}[fmt]  # fmt: skip
    field = "input" if fmt == "responses" else "messages"
    if fmt == "messages":  # a non-streamed Messages reply leaves the cut call out
        run = resource.run_tools(model="kimi-k3.1-pro", tools=[get_weather], **{field: history,
                                 limit: 6})  # fmt: skip
        assert ran == [] and run.final.stop_reason == "max_tokens" and not run.final.tool_calls
        return
    with pytest.raises(InvalidToolCallError) as info:
        resource.run_tools(model="kimi-k3.1-pro", tools=[get_weather], **{field: history,
                           limit: 6})  # fmt: skip
    assert ran == []  # never executed
    assert info.value.truncated and info.value.result is not None
    assert info.value.arguments and info.value.arguments != '{"city": "Beijing"}'
    assert len(history) == 1  # the cut turn was not added: the history can be sent again
    standin.queue(Reply(text="Sunny."))
    again = resource.create(model="kimi-k3.1-pro", **{field: history, limit: 100})
    assert again.text == "Sunny."


# ---------------------------------------------------------------- old cached_tokens


def test_old_cached_tokens_on_the_wire_and_through_kimi_ext(
    wire: Wire, standin: KimiStandIn, client: Kimi
) -> None:
    system = {"role": "system", "content": "You are a meticulous travel assistant. " * 8}
    body = chat_body(messages=[system, {"role": "user", "content": "Oslo?"}])
    wire.ok("chat", body)  # writes the prefix to the cache
    standin.fault(Fault.old_cached_tokens())
    usage = wire.ok("chat", body)["usage"]
    assert "prompt_tokens_details" not in usage and usage["cached_tokens"] > 0
    standin.fault(Fault.old_cached_tokens())
    payloads = wire.stream("chat", body).payloads()
    on_choice = [c["usage"] for p in payloads for c in p["choices"] if c.get("usage")]
    assert len(on_choice) == 1 and on_choice[0]["cached_tokens"] == usage["cached_tokens"]
    standin.fault(Fault.old_cached_tokens())
    with client.chat.completions.stream(**body) as stream:
        completion = stream.get_final_completion()
    assert completion.usage.cache_read == usage["cached_tokens"]
    standin.fault(Fault.old_cached_tokens())
    created = client.chat.completions.create(**body)
    assert created.usage.cache_read == usage["cached_tokens"]


# --------------------------------------------------------------- split surrogates

EMOJI = "Hi \U0001f600 and \U0001f680!"


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_split_surrogates_on_the_wire(wire: Wire, standin: KimiStandIn, fmt: str) -> None:
    standin.fault(Fault.split_surrogates())
    standin.queue(Reply(text=EMOJI, reasoning="\U0001f914 hmm"))
    stream = wire.stream(fmt, BODY[fmt]())
    raw = stream.raw
    assert '\\ud83d"' in raw and '"\\ude00' in raw  # each half escaped, at a delta's edge
    pieces: list[str] = []
    for p in stream.payloads():
        if fmt == "chat":
            pieces += [c["delta"].get("content") or "" for c in p["choices"]]
        elif fmt == "messages" and p["type"] == "content_block_delta":
            pieces.append(p["delta"].get("text", ""))
        elif p["type"] == "response.output_text.delta":
            pieces.append(p["delta"])
    at = next(i for i, x in enumerate(pieces) if x.endswith("\ud83d"))
    assert pieces[at + 1].startswith("\ude00")  # the pair is split across two deltas
    assert "".join(pieces) != EMOJI  # two lone halves, as they came ...
    text = "".join(pieces)
    assert text.encode("utf-16", "surrogatepass").decode("utf-16") == EMOJI  # ... a pair


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_split_surrogates_through_kimi_ext(client: Kimi, standin: KimiStandIn, fmt: str) -> None:
    standin.fault(Fault.split_surrogates())
    standin.queue(Reply(text=EMOJI, reasoning="\U0001f914 hmm"))
    result = stream_final(client, fmt)
    assert result.text == EMOJI and result.reasoning == "\U0001f914 hmm"


# ------------------------------------------------------------------- held open


@pytest.mark.parametrize("keep_alive", [False, True])
def test_hold_open_on_the_wire(wire: Wire, standin: KimiStandIn, keep_alive: bool) -> None:
    standin.fault(Fault.hold_open(0.4, keep_alive=keep_alive))
    started = time.monotonic()
    stream = wire.stream("chat", chat_body())
    assert time.monotonic() - started >= 0.4  # the body ended only after the hold
    assert stream.error is None and stream.events[-1].data == "[DONE]"
    assert (": keep-alive" in stream.raw) is keep_alive


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_hold_open_through_kimi_ext(client: Kimi, standin: KimiStandIn, fmt: str) -> None:
    standin.fault(Fault.hold_open(20, keep_alive=fmt == "messages"))
    started = time.monotonic()
    result = stream_final(client, fmt)
    assert result.text == "Hi"
    assert time.monotonic() - started < 5  # handed over at the terminal event, not after 20 s


# ------------------------------------------------------------------ unknown deltas


def test_unknown_delta_on_the_wire_and_through_kimi_ext(
    wire: Wire, standin: KimiStandIn, client: Kimi
) -> None:
    standin.fault(Fault.unknown_delta())
    payloads = wire.stream("messages", messages_body()).payloads()
    notes = [p["delta"] for p in payloads if p.get("delta", {}).get("type") == "note_delta"]
    assert notes == [{"type": "note_delta", "note": "un"}, {"type": "note_delta", "note": "known"}]
    standin.fault(Fault.unknown_delta("summary_delta"))
    message = stream_final(client, "messages")
    text = next(b for b in message.content if b["type"] == "text")
    assert text == {"type": "text", "text": "Hi", "summary": "unknown"}


# ------------------------------------------------------- refusals and own replies


def test_duplicate_tool_call_ids_in_one_turn_are_refused(wire: Wire, standin: KimiStandIn) -> None:
    use = {"type": "tool_use", "id": "functions.f:0", "name": "f", "input": {}}
    think = {"type": "thinking", "thinking": "t"}  # a tool_use turn without one is refused
    body = messages_body(messages=[
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [think, use, use]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "functions.f:0",
                                      "content": "r"}]},
    ])  # fmt: skip
    assert wire.error("messages", body)["message"] == "tool call id functions.f:0 is duplicated"
    call = {"id": "functions.f:0", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    chat = chat_body(messages=[
        {"role": "user", "content": "q"},
        {"role": "assistant", "reasoning_content": "", "tool_calls": [call, call]},
        {"role": "tool", "tool_call_id": "functions.f:0", "content": "r"},
    ])  # fmt: skip
    assert "is duplicated" in wire.error("chat", chat)["message"]
    # the same id in two different turns is fine (Kimi's ids repeat across turns)
    body["messages"][1]["content"] = [think, use]
    body["messages"] += [{"role": "assistant", "content": [think, use]}, body["messages"][2]]
    wire.ok("messages", body)


@pytest.mark.parametrize("arguments", ['{"city": "Oslo"', '{"t": "a\nb"}'])
def test_replayed_arguments_that_are_not_json_are_refused(
    wire: Wire, standin: KimiStandIn, arguments: str
) -> None:
    call = {
        "id": "functions.f:0",
        "type": "function",
        "function": {"name": "f", "arguments": arguments},
    }
    chat = chat_body(messages=[
        {"role": "user", "content": "q"},
        {"role": "assistant", "reasoning_content": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "functions.f:0", "content": "r"},
    ])  # fmt: skip
    error = wire.error("chat", chat)
    assert "are not valid JSON" in error["message"]
    assert error["param"] == "messages[1].tool_calls[0].function.arguments"
    item = {
        "type": "function_call",
        "call_id": "functions.f:0",
        "name": "f",
        "arguments": arguments,
    }
    responses = responses_body(input=[
        {"role": "user", "content": "q"}, item,
        {"type": "function_call_output", "call_id": "functions.f:0", "output": "r"},
    ])  # fmt: skip
    assert "are not valid JSON" in wire.error("responses", responses)["message"]
    call["function"]["arguments"] = '{"t": "a\\nb"}'
    wire.ok("chat", chat)


def test_history_refuses_before_sending_what_the_standin_refuses(client: Kimi) -> None:
    use = {"type": "tool_use", "id": "functions.f:0", "name": "f", "input": {}}
    history = MessagesHistory([
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "t",
                                           "signature": "EsSig"}, use, use]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "functions.f:0",
                                      "content": "r"}]},
    ])  # fmt: skip
    with pytest.raises(kimi_ext.HistoryError, match="appears twice"):
        client.messages.create(model="kimi-k3.1-pro", max_tokens=10, messages=history)


def test_empty_reply_text_makes_no_blank_block(wire: Wire, standin: KimiStandIn) -> None:
    standin.queue(Reply(text=""), Reply(text=""), Reply(text=""))
    message = wire.ok("messages", messages_body())
    assert [b["type"] for b in message["content"]] == ["thinking"]
    types = wire.stream("messages", messages_body()).payloads()
    blocks = [p["content_block"]["type"] for p in types if p["type"] == "content_block_start"]
    assert blocks == ["thinking"]
    output = wire.ok("responses", responses_body())["output"]
    assert [item["type"] for item in output] == ["reasoning"]


def test_unsigned_thinking_is_accepted_through_kimi_ext(client: Kimi, standin: KimiStandIn) -> None:
    history = MessagesHistory()
    history.add_user("q")
    history.add(kimi_ext.Message({
        "role": "assistant", "model": "kimi-k3.1-pro", "stop_reason": "tool_use",
        "content": [{"type": "thinking", "thinking": "Call f."},
                    {"type": "tool_use", "id": "functions.f:0", "name": "f", "input": {}}],
    }))  # fmt: skip
    history.add_tool_result("functions.f:0", "r")
    standin.queue(Reply(text="ok"))
    reply = client.messages.create(model="kimi-k3.1-pro", max_tokens=100, messages=history)
    assert reply.text == "ok"


def test_faults_apply_where_they_say(standin: KimiStandIn, wire: Wire) -> None:
    standin.fault(Fault.renamed_items())  # Responses streams only
    wire.ok("chat", chat_body())
    wire.stream("chat", chat_body())
    assert standin.pending_faults == 1
    wire.stream("responses", responses_body())
    assert standin.pending_faults == 0


def test_a_plain_httpx_client_gets_the_whole_held_body_eventually(standin: KimiStandIn) -> None:
    standin.fault(Fault.hold_open(0.2))
    headers = {"Authorization": f"Bearer {standin.api_key}"}
    with httpx.Client(base_url=standin.base_url, headers=headers) as http:
        response = http.post("/v1/chat/completions", json=chat_body(stream=True))
    assert response.text.endswith("data: [DONE]\n\n")
