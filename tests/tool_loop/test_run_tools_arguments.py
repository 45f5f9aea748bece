"""run_tools: wrong arguments are refused before anything is sent, and one history takes
one run at a time (issue 30: raw TypeErrors escaped, and twenty concurrent runs on one
history all failed with HistoryError after sending, leaving extra turns)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from kimi_ext import (
    AsyncKimi,
    ChatHistory,
    HistoryError,
    Kimi,
    MessagesHistory,
    RequestValidationError,
    ResponsesHistory,
)
from kimi_ext.testing import KimiStandIn, Reply, ToolCallSpec
from tests.support.history import MODEL, aclient, client, standin, standin_server

_ = (aclient, client, standin, standin_server)  # fixtures

FORMATS = ("chat", "messages", "responses")
MODES = ("sync", "async")
HISTORY = {"chat": ChatHistory, "messages": MessagesHistory, "responses": ResponsesHistory}
FIELD = {"chat": "messages", "messages": "messages", "responses": "input"}


def get_weather(city: str) -> str:
    """Current weather for a city."""
    return f"{city}: 21"


def resource(c: Any, fmt: str) -> Any:
    return {"chat": c.chat.completions, "messages": c.messages, "responses": c.responses}[fmt]


def params(fmt: str, history: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"model": MODEL}
    if fmt == "messages":
        out["max_tokens"] = 4000
    out[FIELD[fmt]] = history if history is not None else [{"role": "user", "content": "Hi"}]
    return out


async def run(mode: str, c: Kimi, ac: AsyncKimi, fmt: str, **kwargs: Any) -> Any:
    if mode == "sync":
        return await asyncio.to_thread(lambda: resource(c, fmt).run_tools(**kwargs))
    return await resource(ac, fmt).run_tools(**kwargs)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("arguments", "field", "rule"),
    [
        ({"tools": None}, "tools", "must be an iterable"),
        ({"tools": get_weather}, "tools", "must be an iterable"),
        ({"tools": {"type": "web_search"}}, "tools", "must be a list of tools"),
        ({"tools": [get_weather], "max_rounds": "3"}, "max_rounds", "must be an int"),
        ({"tools": [get_weather], "max_rounds": True}, "max_rounds", "must be an int"),
        ({"tools": [get_weather, None]}, "tools[1]", "must be a tool definition"),
    ],
)
async def test_wrong_arguments_are_refused_before_sending(
    mode: str,
    fmt: str,
    arguments: dict[str, Any],
    field: str,
    rule: str,
    client: Kimi,
    aclient: AsyncKimi,
    standin: KimiStandIn,
) -> None:
    history = HISTORY[fmt]()
    history.add_user("Hi")
    with pytest.raises(RequestValidationError) as info:
        await run(mode, client, aclient, fmt, **arguments, **params(fmt, history))
    assert info.value.field == field and rule in info.value.rule
    assert standin.requests == []
    assert len(history) == 1


def one_round(standin: KimiStandIn) -> None:
    """Each conversation: a tool call, then the answer (by what the request holds, so
    concurrent runs each get their own sequence)."""

    def reply(request: Any) -> Reply:
        body = request.json
        sent = body.get("messages") or body.get("input")
        answered = any(
            m.get("role") == "tool"
            or m.get("type") == "function_call_output"
            or any(
                isinstance(b, dict) and b.get("type") == "tool_result"
                for b in (m.get("content") if isinstance(m.get("content"), list) else [])
            )
            for m in sent
        )
        if answered:
            return Reply(text="It is 21.")
        return Reply(tool_calls=[ToolCallSpec("get_weather", {"city": "Oslo"})])

    standin.responder = reply


@pytest.mark.parametrize("fmt", FORMATS)
async def test_twenty_concurrent_async_runs_on_one_history_one_runs_the_rest_are_refused(
    fmt: str, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    one_round(standin)
    history = HISTORY[fmt]()
    history.add_user("Weather in Oslo?")
    runs = [
        resource(aclient, fmt).run_tools(tools=[get_weather], **params(fmt, history))
        for _ in range(20)
    ]
    outcomes = await asyncio.gather(*runs, return_exceptions=True)
    done = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(done) == 1 and len(refused) == 19
    assert all(isinstance(e, HistoryError) and "another run_tools" in str(e) for e in refused)
    # Only the one run was sent (a tool round and the answer) and only its turns are in.
    assert len(standin.requests) == 2
    assert done[0].history is history and done[0].text == "It is 21."
    history.validate()
    alone = HISTORY[fmt]()
    alone.add_user("Weather in Oslo?")
    standin.reset()
    one_round(standin)
    expected = await resource(aclient, fmt).run_tools(tools=[get_weather], **params(fmt, alone))
    assert len(history) == len(expected.history)
    # Once the run is over, the history takes the next one.
    history.add_user("And tomorrow?")
    again = await resource(aclient, fmt).run_tools(tools=[get_weather], **params(fmt, history))
    assert again.text == "It is 21."


@pytest.mark.parametrize("fmt", FORMATS)
def test_concurrent_sync_runs_on_one_history_in_threads_are_refused_while_one_runs(
    fmt: str, client: Kimi, standin: KimiStandIn
) -> None:
    one_round(standin)
    history = HISTORY[fmt]()
    history.add_user("Weather in Oslo?")
    refusals: list[BaseException] = []
    others_refused = threading.Event()
    lock = threading.Lock()

    def slow_weather(city: str) -> str:
        """Current weather for a city (waits until every other run was refused)."""
        assert others_refused.wait(30), "the other runs were not refused"
        return f"{city}: 21"

    slow_weather.__name__ = "get_weather"
    results: list[Any] = []

    def attempt() -> None:
        try:
            results.append(
                resource(client, fmt).run_tools(tools=[slow_weather], **params(fmt, history))
            )
        except HistoryError as exc:
            with lock:
                refusals.append(exc)
                if len(refusals) == 19:
                    others_refused.set()

    threads = [threading.Thread(target=attempt) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(results) == 1 and len(refusals) == 19
    assert all("another run_tools" in str(e) for e in refusals)
    assert len(standin.requests) == 2
    history.validate()
