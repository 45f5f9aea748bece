"""run_tools: model → tools → model, sync and async, against the stand-in (which checks
every replayed history) and, for replies it cannot script, pytest-httpserver."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

import kimi_ext
from kimi_ext import (
    AsyncKimi,
    ChatHistory,
    HistoryError,
    Kimi,
    MessagesHistory,
    RequestValidationError,
    ResponsesHistory,
    ToolRun,
    web_search_echo,
)
from kimi_ext.testing import KimiStandIn, RecordedRequest, Reply, ToolCallSpec
from tests.support.history import (
    MODEL,
    aclient,
    ahclient,
    chat_reply,
    client,
    fixture,
    hclient,
    sent_json,
    standin,
    standin_server,
    tool_results,
)

_ = (aclient, ahclient, client, hclient, standin, standin_server)  # fixtures

FORMATS = ("chat", "messages", "responses")
MODES = ("sync", "async")
FIELD = {"chat": "messages", "messages": "messages", "responses": "input"}


def get_weather(city: str, unit: str = "c") -> dict[str, Any]:
    """Current weather for a city.

    Args:
        city: City name.
        unit: c or f.
    """
    return {"city": city, "temp": 21 if city == "Oslo" else 30, "unit": unit}


def resource(c: Any, fmt: str) -> Any:
    return {"chat": c.chat.completions, "messages": c.messages, "responses": c.responses}[fmt]


def request(fmt: str, messages: Any = None, **extra: Any) -> dict[str, Any]:
    params: dict[str, Any] = {"model": MODEL}
    if fmt == "messages":
        params["max_tokens"] = 4000
    params[FIELD[fmt]] = (
        messages if messages is not None else [{"role": "user", "content": "Weather?"}]
    )
    params.update(extra)
    return params


async def run(mode: str, c: Kimi, ac: AsyncKimi, fmt: str, **params: Any) -> ToolRun[Any, Any]:
    if mode == "sync":
        return await asyncio.to_thread(lambda: resource(c, fmt).run_tools(**params))
    result: ToolRun[Any, Any] = await resource(ac, fmt).run_tools(**params)
    return result


def calls(*specs: tuple[str, Any]) -> Reply:
    return Reply(tool_calls=[ToolCallSpec(name, args) for name, args in specs])


# --- the loop -------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fmt", FORMATS)
async def test_loop_runs_tools_until_the_model_answers(
    mode: str, fmt: str, client: Kimi, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    standin.queue(
        calls(("get_weather", {"city": "Oslo"}), ("get_weather", {"city": "Rome", "unit": "f"})),
        calls(("get_weather", {"city": "Oslo"})),
        Reply(text="Oslo 21, Rome 30.", reasoning="Both in."),
    )
    result = await run(mode, client, aclient, fmt, tools=[get_weather], **request(fmt))
    assert result.rounds == 3 and not result.max_rounds_reached
    assert result.final.text == result.text == "Oslo 21, Rome 30."
    assert len(result.results) == 3 and result.results[-1] is result.final
    assert all(r.usage.output > 0 for r in result.results)
    assert tool_results(fmt, result.history) == [
        ("functions.get_weather:0", '{"city": "Oslo", "temp": 21, "unit": "c"}', False),
        ("functions.get_weather:1", '{"city": "Rome", "temp": 30, "unit": "f"}', False),
        ("functions.get_weather:0", '{"city": "Oslo", "temp": 21, "unit": "c"}', False),
    ]
    requests = standin.requests
    assert len(requests) == 3
    wire_tools = requests[0].json["tools"]
    assert wire_tools == [kimi_ext.tool(get_weather).definition(fmt)]
    # Each request replays the history so far exactly; the last one is the full history
    # minus the final answer.
    final_history = result.history.to_wire()
    assert requests[2].json[FIELD[fmt]] == final_history[: len(requests[2].json[FIELD[fmt]])]
    result.history.validate()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fmt", FORMATS)
async def test_a_history_object_is_extended_in_place_and_a_list_is_not(
    mode: str, fmt: str, client: Kimi, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    standin.queue(
        calls(("get_weather", {"city": "Oslo"})), Reply(text="21"), Reply(text="You're welcome")
    )
    given = [{"role": "user", "content": "Weather?"}]
    extra: dict[str, Any] = {"system": "Be brief."} if fmt == "messages" else {}
    if fmt == "responses":
        extra = {"instructions": "Be brief."}
    first = await run(
        mode, client, aclient, fmt, tools=[get_weather], **request(fmt, given, **extra)
    )
    assert given == [{"role": "user", "content": "Weather?"}]
    history = first.history
    assert isinstance(
        history,
        {"chat": ChatHistory, "messages": MessagesHistory, "responses": ResponsesHistory}[fmt],
    )
    if fmt == "messages":
        assert history.system == "Be brief."  # kept for the next call
    if fmt == "responses":
        assert history.instructions == "Be brief."
    before = len(history)
    history.add_user("Thanks!")
    second = await run(mode, client, aclient, fmt, tools=[get_weather], **request(fmt, history))
    assert second.history is history
    assert len(history) == before + (3 if fmt == "responses" else 2)  # user + the reply
    assert second.rounds == 1 and second.text == "You're welcome"
    last = standin.last_request.json
    if fmt == "messages":
        assert last["system"] == "Be brief."  # taken from the history
    if fmt == "responses":
        assert last["instructions"] == "Be brief."


async def test_responses_input_may_be_a_string(client: Kimi, standin: KimiStandIn) -> None:
    standin.queue(calls(("get_weather", {"city": "Oslo"})), Reply(text="21"))
    result = client.responses.run_tools(model=MODEL, input="Weather in Oslo?", tools=[get_weather])
    assert result.history[0] == {"role": "user", "content": "Weather in Oslo?"}
    assert result.text == "21"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fmt", FORMATS)
async def test_max_rounds_returns_what_it_has_with_a_flag(
    mode: str, fmt: str, client: Kimi, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    standin.responder = lambda _: calls(("get_weather", {"city": "Oslo"}))
    result = await run(
        mode, client, aclient, fmt, tools=[get_weather], max_rounds=3, **request(fmt)
    )
    assert result.rounds == 3 and result.max_rounds_reached
    assert len(standin.requests) == 3
    assert len(tool_results(fmt, result.history)) == 3  # the last results are in: resumable
    result.history.validate()
    standin.responder = None
    standin.queue(Reply(text="Done"))
    more = await run(
        mode, client, aclient, fmt, tools=[get_weather], **request(fmt, result.history)
    )
    assert more.text == "Done" and not more.max_rounds_reached


def test_bad_arguments_to_run_tools(client: Kimi) -> None:
    with pytest.raises(ValueError, match="max_rounds=0"):
        client.chat.completions.run_tools(tools=[], max_rounds=0, **request("chat"))
    with pytest.raises(ValueError, match="two tools are named 'get_weather'"):
        client.chat.completions.run_tools(tools=[get_weather, get_weather], **request("chat"))
    # A KimiError, naming the field, like every other refused argument.
    with pytest.raises(RequestValidationError, match="keep a ChatHistory") as wrong:
        client.chat.completions.run_tools(tools=[], **request("chat", MessagesHistory()))
    assert wrong.value.field == "messages"
    with pytest.raises(RequestValidationError, match="messages=None: is required") as missing:
        client.chat.completions.run_tools(tools=[], model=MODEL)
    assert missing.value.field == "messages"


# --- errors become results --------------------------------------------------------------------


def flaky(city: str) -> str:
    """Always fails."""
    raise ConnectionError(f"station {city} offline")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fmt", FORMATS)
async def test_tool_failures_are_results_the_model_sees(
    mode: str, fmt: str, client: Kimi, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    specs = [
        ToolCallSpec("flaky", {"city": "Oslo"}),  # raises
        ToolCallSpec("get_weather", {"town": "Oslo"}),  # fails the schema
        ToolCallSpec("nope", {}),  # unknown tool
        ToolCallSpec("get_weather", "[1, 2]"),  # not an object
    ]
    standin.queue(Reply(tool_calls=specs), Reply(text="Sorry."))
    result = await run(mode, client, aclient, fmt, tools=[get_weather, flaky], **request(fmt))
    assert result.text == "Sorry."
    got = tool_results(fmt, result.history)
    texts = [content for _, content, _ in got]
    assert texts[0] == "Error: ConnectionError: station Oslo offline"
    assert texts[1].startswith("Error: invalid arguments for get_weather: ")
    assert "'city' is a required property" in texts[1]
    assert texts[2].startswith("Error: unknown tool 'nope'")
    if fmt == "messages":
        assert texts[3].startswith("Error: invalid arguments for get_weather")  # {} on the wire
        assert all(is_error for _, _, is_error in got)
    else:
        assert texts[3] == "Error: the arguments must be a JSON object, not list"
        assert not any(is_error for _, _, is_error in got)  # no such field: it is in the text


@dataclass
class Reading:
    city: str
    temp: float


def returns(kind: str) -> Callable[..., Any]:
    def value(key: str) -> Any:
        """Return a value."""
        return {
            "str": "plain",
            "dict": {"a": 1},
            "list": [1, "x"],
            "none": None,
            "dataclass": Reading("Oslo", 2.5),
            "bad": object(),
        }[key]

    return value


@pytest.mark.parametrize("mode", MODES)
async def test_return_values_str_as_is_else_json(
    mode: str, client: Kimi, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    keys = ["str", "dict", "list", "none", "dataclass", "bad"]
    standin.queue(
        Reply(tool_calls=[ToolCallSpec("value", {"key": k}) for k in keys]), Reply(text="ok")
    )
    result = await run(
        mode, client, aclient, "messages", tools=[returns("x")], **request("messages")
    )
    got = tool_results("messages", result.history)
    assert [c for _, c, _ in got[:5]] == [
        "plain",
        '{"a": 1}',
        '[1, "x"]',
        "null",
        '{"city": "Oslo", "temp": 2.5}',
    ]
    assert got[5][1] == "Error: TypeError: Object of type object is not JSON serializable"
    assert [e for _, _, e in got] == [False] * 5 + [True]


# --- concurrency --------------------------------------------------------------------------------


async def test_async_client_runs_one_turns_calls_concurrently(
    aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    barrier = asyncio.Barrier(2)
    thread_barrier = threading.Barrier(2, timeout=5)

    async def meet(city: str) -> str:
        """Wait for the other call (an async tool)."""
        async with asyncio.timeout(5):
            await barrier.wait()
        return f"met in {city}"

    def meet_in_thread(city: str) -> str:
        """Wait for the other call (a sync tool, run in a thread)."""
        thread_barrier.wait()
        return f"thread met in {city}"

    standin.queue(
        Reply(
            tool_calls=[
                ToolCallSpec("meet", {"city": "A"}),
                ToolCallSpec("meet_in_thread", {"city": "B"}),
                ToolCallSpec("meet", {"city": "C"}),
                ToolCallSpec("meet_in_thread", {"city": "D"}),
            ]
        ),
        Reply(text="done"),
    )
    result = await aclient.chat.completions.run_tools(
        tools=[meet, meet_in_thread], **request("chat")
    )
    assert [c for _, c, _ in tool_results("chat", result.history)] == [
        "met in A",
        "thread met in B",
        "met in C",
        "thread met in D",
    ]


async def test_sync_client_runs_calls_in_order(client: Kimi, standin: KimiStandIn) -> None:
    seen: list[tuple[str, str]] = []

    def step(n: str) -> str:
        """Record a step."""
        seen.append((n, threading.current_thread().name))
        return n

    async def astep(n: str) -> str:
        """An async step, also allowed with the sync client."""
        seen.append((n, "async"))
        return n

    standin.queue(
        Reply(
            tool_calls=[
                ToolCallSpec("step", {"n": "1"}),
                ToolCallSpec("astep", {"n": "2"}),
                ToolCallSpec("step", {"n": "3"}),
            ]
        ),
        Reply(text="ok"),
    )

    def go() -> ToolRun[Any, Any]:
        return client.chat.completions.run_tools(tools=[step, astep], **request("chat"))

    name = "runner"
    worker = threading.Thread(target=lambda: results.append(go()), name=name)
    results: list[ToolRun[Any, Any]] = []
    worker.start()
    await asyncio.to_thread(worker.join)
    assert [n for n, _ in seen] == ["1", "2", "3"]
    assert seen[0][1] == seen[2][1] == name  # in the caller's thread, one after the other
    assert results[0].text == "ok"


# --- web search ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
async def test_chat_builtin_web_search_is_echoed_automatically(
    mode: str, client: Kimi, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    standin.queue(
        Reply(
            text="",
            web_search="central bank decision",
            tool_calls=[ToolCallSpec("get_weather", {"city": "Oslo"})],
        ),
        Reply(text="Rates unchanged; Oslo is 21."),
    )
    result = await run(
        mode,
        client,
        aclient,
        "chat",
        tools=[{"type": "web_search"}, get_weather],
        **request("chat"),
    )
    assert result.rounds == 3 and result.text == "Rates unchanged; Oslo is 21."
    assistant = result.history[1]
    call = assistant["tool_calls"][0]
    assert call["type"] == "builtin_function" and call["function"]["name"] == "$web_search"
    assert result.history[2] == {
        "role": "tool",
        "tool_call_id": call["id"],
        "name": "$web_search",
        "content": call["function"]["arguments"],  # unchanged
    }
    assert standin.requests[0].json["tools"][0] == {"type": "web_search"}  # passed through


def test_chat_web_search_by_hand(client: Kimi, standin: KimiStandIn) -> None:
    standin.queue(Reply(text="The homepage is kimi.com.", web_search="Kimi homepage"))
    tools = [{"type": "web_search"}]
    history = ChatHistory()
    history.add_user("Kimi homepage? Search the web.")
    reply = client.chat.completions.create(model=MODEL, messages=history, tools=tools)
    echoes = web_search_echo(reply)
    assert echoes == [
        {
            "role": "tool",
            "tool_call_id": "$web_search:0",
            "name": "$web_search",
            "content": reply.tool_calls[0].arguments,
        }
    ]
    assert web_search_echo(reply.message) == echoes
    history.add(reply)
    assert web_search_echo(history) == echoes  # the unanswered calls of the last turn
    assert history.add_web_search_results() == 1
    assert web_search_echo(history) == []
    assert history[-1] == echoes[0]
    reply = client.chat.completions.create(model=MODEL, messages=history, tools=tools)
    assert reply.text == "The homepage is kimi.com."
    # A plain list works with the helper too.
    messages = [{"role": "user", "content": "q"}, history[1]]
    assert web_search_echo(messages) == echoes


def test_chat_function_named_web_search_is_echoed_when_declared(
    hclient: Kimi, httpserver: Any
) -> None:
    call = {
        "id": "web_search:0",
        "type": "function",
        "function": {"name": "web_search", "arguments": '{"search_result":{"search_id":"ws-1"}}'},
    }
    httpserver.expect_ordered_request("/v1/chat/completions").respond_with_json(
        chat_reply(
            {
                "role": "assistant",
                "content": None,
                "reasoning_content": "search",
                "tool_calls": [call],
            },
            finish="tool_calls",
        )
    )
    httpserver.expect_ordered_request("/v1/chat/completions").respond_with_json(
        chat_reply({"role": "assistant", "content": "found", "reasoning_content": "ok"})
    )
    result = hclient.chat.completions.run_tools(tools=[{"type": "web_search"}], **request("chat"))
    assert result.text == "found"
    assert sent_json(httpserver)["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "web_search:0",
        "name": "web_search",
        "content": call["function"]["arguments"],
    }
    assert sent_json(httpserver)["messages"][1] == {
        "role": "assistant",
        "reasoning_content": "search",
        "tool_calls": [call],
    }


@pytest.mark.parametrize("mode", MODES)
async def test_messages_server_web_search_is_kept_and_counted(
    mode: str, client: Kimi, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    standin.queue(Reply(text="kimi.com", web_search="Kimi homepage"), Reply(text="You're welcome."))
    tools = [{"type": "web_search_20250305", "name": "web_search", "max_uses": 1}]
    result = await run(mode, client, aclient, "messages", tools=tools, **request("messages"))
    assert result.rounds == 1 and result.text == "kimi.com"
    kinds = [b["type"] for b in result.history[1]["content"]]
    assert "server_tool_use" in kinds and "web_search_tool_result" in kinds
    assert result.history[1]["content"] == result.final.content  # verbatim
    assert result.final.usage.web_search_requests == 1
    result.history.add_user("Thanks")
    again = await run(
        mode, client, aclient, "messages", tools=tools, **request("messages", result.history)
    )
    assert again.text == "You're welcome."  # the stand-in accepted the replayed search blocks


async def test_messages_pause_turn_is_continued(ahclient: AsyncKimi, httpserver: Any) -> None:
    paused = fixture("messages/response_web_search.json")
    paused["content"] = paused["content"][:3]
    paused["stop_reason"] = "pause_turn"
    done = fixture("messages/response_text.json")
    httpserver.expect_ordered_request("/v1/messages").respond_with_json(paused)
    httpserver.expect_ordered_request("/v1/messages").respond_with_json(done)
    tools = [{"type": "web_search_20250305", "name": "web_search"}]
    result = await ahclient.messages.run_tools(tools=tools, **request("messages"))
    assert result.rounds == 2 and not result.max_rounds_reached
    assert sent_json(httpserver)["messages"][-1] == {
        "role": "assistant",
        "content": paused["content"],
    }


def test_responses_custom_tool(hclient: Kimi, httpserver: Any) -> None:
    patches: list[str] = []

    def apply_patch(patch: str) -> str:
        """Apply a patch in the *** Begin Patch envelope."""
        patches.append(patch)
        return "Applied."

    httpserver.expect_ordered_request("/v1/responses").respond_with_json(
        fixture("responses/response_apply_patch.json")
    )
    httpserver.expect_ordered_request("/v1/responses").respond_with_json(
        fixture("responses/response_text.json")
    )
    grammar = fixture("responses/response_apply_patch.json")["tools"][0]["format"]
    result = hclient.responses.run_tools(
        tools=[kimi_ext.tool(apply_patch, custom=True, format=grammar)], **request("responses")
    )
    assert patches and patches[0].startswith("*** Begin Patch")
    first = sent_json(httpserver, 0)
    assert first["tools"][0]["type"] == "custom" and first["tools"][0]["format"] == grammar
    assert sent_json(httpserver)["input"][-1] == {
        "type": "custom_tool_call_output",
        "call_id": "apply_patch:0",
        "output": "Applied.",
    }
    assert result.rounds == 2


# --- the history the loop builds is checked like any other ----------------------------------------


def test_a_lossy_reply_stops_the_loop_before_resending(hclient: Kimi, httpserver: Any) -> None:
    """A gateway that drops reasoning_content from a kimi-k3.1 tool-call turn: the next
    request would be rejected, so the loop raises HistoryError instead of sending it."""
    lossy = chat_reply(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "functions.get_weather:0",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                }
            ],
        },
        finish="tool_calls",
    )
    httpserver.expect_request("/v1/chat/completions").respond_with_json(lossy)
    with pytest.raises(
        HistoryError, match="message 1: thinking is enabled but reasoning_content is missing"
    ):
        hclient.chat.completions.run_tools(tools=[get_weather], **request("chat"))
    assert len(httpserver.log) == 1


def test_stand_in_records_every_round(client: Kimi, standin: KimiStandIn) -> None:
    standin.queue(calls(("get_weather", {"city": "Oslo"})), Reply(text="done"))
    result = client.messages.run_tools(tools=[get_weather], **request("messages"))
    bodies: list[RecordedRequest] = standin.requests
    assert [len(r.json["messages"]) for r in bodies] == [1, 3]
    assert json.loads(result.history.dumps())["kimi_ext"] == "MessagesHistory"


async def test_async_tool_on_the_sync_client_inside_a_running_loop(
    client: Kimi, standin: KimiStandIn
) -> None:
    async def later(x: int) -> int:
        """An async tool."""
        return x

    standin.queue(calls(("later", {"x": 1})), Reply(text="ok"))
    result = client.chat.completions.run_tools(tools=[later], **request("chat"))  # blocks: fine
    ((_, content, _),) = tool_results("chat", result.history)
    assert content == (
        "Error: RuntimeError: an async tool cannot run on the sync client inside a running "
        "event loop; use AsyncKimi"
    )
