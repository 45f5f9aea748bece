"""``event_hooks=``: httpx's event hooks on the client's own httpx client, public and checked.

A request hook runs before every HTTP attempt (retries too) and can wait or refuse; a
response hook sees every response head. The batch runner gates its attempts this way.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from werkzeug import Response

from kimi_ext import AsyncKimi, ClientConfigError, Kimi
from tests.support.client import KEY, OK, PATHS, SleepRecorder, minimal


def respond(httpserver: Any, status: int, body: Any) -> None:
    text = body if isinstance(body, str) else json.dumps(body)
    httpserver.expect_ordered_request(PATHS["messages"]).respond_with_response(
        Response(text, status=status, content_type="application/json")
    )


def test_a_request_hook_runs_before_every_attempt_and_a_response_hook_sees_each(
    httpserver: Any, sleeps: SleepRecorder
) -> None:
    respond(httpserver, 503, "busy")
    respond(httpserver, 200, OK["messages"])
    requests: list[httpx.Request] = []
    statuses: list[int] = []
    hooks = {"request": [requests.append], "response": [lambda r: statuses.append(r.status_code)]}
    with Kimi(api_key=KEY, base_url=httpserver.url_for(""), event_hooks=hooks) as client:
        client._sender.sleep = sleeps
        assert client.messages.create(**minimal("messages")).text == "OK"
    assert statuses == [503, 200]
    assert [r.url.path for r in requests] == [PATHS["messages"]] * 2
    # Both attempts of the one call: the same idempotency key.
    assert len({r.headers["idempotency-key"] for r in requests}) == 1


def test_a_streamed_call_passes_the_hooks_too(httpserver: Any) -> None:
    events = (
        'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":'
        '"message","role":"assistant","model":"kimi-k3.1-pro","content":[],"stop_reason":null,'
        '"usage":{"input_tokens":1,"output_tokens":0}}}\n\n'
        'event: message_stop\ndata: {"type":"message_stop"}\n\n'
    )
    httpserver.expect_request(PATHS["messages"]).respond_with_data(
        events, content_type="text/event-stream"
    )
    seen: list[str] = []
    hooks = {"request": [lambda r: seen.append("request")], "response": [lambda r: seen.append("response")]}  # fmt: skip
    with (
        Kimi(api_key=KEY, base_url=httpserver.url_for(""), event_hooks=hooks) as client,
        client.messages.stream(**minimal("messages")) as stream,
    ):
        final = stream.get_final_message()
    assert final.id == "m"
    assert seen == ["request", "response"]


async def test_an_async_request_hook_can_hold_an_attempt_back(
    httpserver: Any, sleeps: SleepRecorder
) -> None:
    respond(httpserver, 200, OK["messages"])
    gate = asyncio.Event()
    waited: list[bool] = []

    async def before(request: httpx.Request) -> None:
        waited.append(gate.is_set())
        await gate.wait()

    async def after(response: httpx.Response) -> None:
        waited.append(gate.is_set())

    client = AsyncKimi(
        api_key=KEY, base_url=httpserver.url_for(""), event_hooks={"request": [before], "response": [after]}
    )  # fmt: skip
    try:
        call = asyncio.create_task(client.messages.create(**minimal("messages")))
        for _ in range(1000):  # until the hook holds the attempt (bounded)
            if waited:
                break
            await asyncio.sleep(0)
        assert waited == [False]
        assert not call.done() and httpserver.log == []  # held: nothing sent yet
        gate.set()
        assert (await asyncio.wait_for(call, 30)).text == "OK"
    finally:
        await client.close()
    assert waited == [False, True]
    assert len(httpserver.log) == 1


def test_what_a_request_hook_raises_ends_the_call_unsent(httpserver: Any) -> None:
    class Refused(Exception):
        pass

    def refuse(request: httpx.Request) -> None:
        raise Refused("over budget")

    with (
        Kimi(api_key=KEY, base_url=httpserver.url_for(""), event_hooks={"request": [refuse]}) as client,
        pytest.raises(Refused, match="over budget"),
    ):  # fmt: skip
        client.messages.create(**minimal("messages"))
    assert httpserver.log == []


async def _async_hook(request: httpx.Request) -> None:
    pass


def _plain_hook(request: httpx.Request) -> None:
    pass


@pytest.mark.parametrize(
    ("client_cls", "hooks", "message"),
    [
        (Kimi, {"send": [_plain_hook]}, "unknown event 'send'"),
        (Kimi, [_plain_hook], "must be a dict, not list"),
        (Kimi, {"request": _plain_hook}, "event_hooks['request']: must be a list of functions"),
        (Kimi, {"request": ["log"]}, "'log' is not callable"),
        (Kimi, {"request": [_async_hook]}, "is async; Kimi calls plain functions"),
        (AsyncKimi, {"response": [_plain_hook]}, "is not async; AsyncKimi awaits"),
    ],
)  # fmt: skip
def test_bad_event_hooks_are_refused_naming_the_problem(
    client_cls: type[Any], hooks: Any, message: str
) -> None:
    with pytest.raises(ClientConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        client_cls(api_key=KEY, base_url="http://127.0.0.1:9", event_hooks=hooks)


def test_event_hooks_with_your_own_http_client_go_to_that_client() -> None:
    with httpx.Client() as http, pytest.raises(ClientConfigError, match="give them to that client"):
        Kimi(api_key=KEY, event_hooks={"request": [_plain_hook]}, http_client=http)
