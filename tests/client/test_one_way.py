"""A call goes one way: resource -> building -> the caller (send, parse) -> result.

The client only configures: it makes one caller (``kimi_ext._core.call.calling``) and
hands it to its resources, which never call back into the client. So a resource works
with a caller alone, and every resource of a client shares that client's one caller.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from kimi_ext import AsyncKimi, Kimi
from kimi_ext._core.call.calling import AsyncCaller, SyncCaller
from kimi_ext._core.transport.retries import RetryPolicy
from kimi_ext._core.transport.secret import Secret
from kimi_ext._core.transport.sending import AsyncSender, SyncSender
from kimi_ext.client import AsyncMessages, Messages
from tests.support.client import KEY, OK, PATHS, minimal


def test_every_resource_of_a_client_sends_through_its_one_caller() -> None:
    with Kimi(api_key=KEY, base_url="http://127.0.0.1:9") as client:
        callers = {id(client.messages._caller), id(client.chat.completions._caller),
                   id(client.responses._caller)}  # fmt: skip
        assert len(callers) == 1
        caller = client.messages._caller
        assert isinstance(caller, SyncCaller) and caller.sender is client._sender
        assert not hasattr(client.messages, "_client")


def _sender_options(httpserver: Any) -> dict[str, Any]:
    return {
        "api_key": Secret(KEY), "base_urls": [httpserver.url_for("").rstrip("/")],
        "timeout": httpx.Timeout(10.0), "policy": RetryPolicy(max_retries=0),
        "default_headers": None,
    }  # fmt: skip


def test_a_resource_needs_only_a_caller(httpserver: Any) -> None:
    httpserver.expect_request(PATHS["messages"]).respond_with_data(
        json.dumps(OK["messages"]), content_type="application/json"
    )
    with httpx.Client() as http:
        caller = SyncCaller(SyncSender(http, **_sender_options(httpserver)), None, Secret(KEY))
        reply = Messages(caller).create(**minimal("messages"))
    assert reply.text == "OK"
    assert httpserver.log[0][0].headers["authorization"] == f"Bearer {KEY}"


async def test_an_async_resource_needs_only_a_caller(httpserver: Any) -> None:
    httpserver.expect_request(PATHS["messages"]).respond_with_data(
        json.dumps(OK["messages"]), content_type="application/json"
    )
    async with httpx.AsyncClient() as http:
        sender = AsyncSender(http, **_sender_options(httpserver))
        reply = await AsyncMessages(AsyncCaller(sender, None, Secret(KEY))).create(
            **minimal("messages")
        )
    assert reply.text == "OK"
    async with AsyncKimi(api_key=KEY, base_url="http://127.0.0.1:9") as client:
        assert isinstance(client.responses._caller, AsyncCaller)
