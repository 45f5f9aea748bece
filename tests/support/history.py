"""Shared helpers and fixtures of the history, continuation and tool tests.

Test modules import the fixtures they use from here (they are used by tests in several
folders: tests/_core/model, tests/continuation, tests/tool_loop, tests/tools).

Most tests run against the offline stand-in (:mod:`kimi_ext.testing`), which enforces the
service's history rules; a few need replies the stand-in cannot script (a function call
named ``web_search``, ``pause_turn``, a kimi-k3 Chat tool-call turn replayed in a kimi-k3.1
request) and use pytest-httpserver instead (the ``h*client`` fixtures).
"""

from __future__ import annotations

import functools
import json
import ssl
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from kimi_ext import AsyncKimi, ChatCompletion, Kimi, Message, Response
from kimi_ext.testing import KimiStandIn
from tests.support.paths import FIXTURES

MODEL = "kimi-k3.1-pro"


def fixture(path: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / path).read_text())
    return data


def chat_result(path: str = "chat/response_tool_calls.json", **changes: Any) -> ChatCompletion:
    data = fixture(path)
    data.update(changes)
    return ChatCompletion(data)


def message_result(path: str = "messages/response_tool_use.json", **changes: Any) -> Message:
    data = fixture(path)
    data.update(changes)
    return Message(data)


def response_result(
    path: str = "responses/response_function_call.json", **changes: Any
) -> Response:
    data = fixture(path)
    data.update(changes)
    return Response(data)


def chat_reply(
    message: dict[str, Any], *, model: str = MODEL, finish: str = "stop"
) -> dict[str, Any]:
    """A Chat completion body around ``message``."""
    return {
        "id": "chatcmpl-x",
        "object": "chat.completion",
        "created": 1,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def wire(body: Any) -> bytes:
    """The bytes kimi_ext puts on the wire for a JSON value (see building.prepare)."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def sent_json(httpserver: Any, index: int = -1) -> Any:
    return httpserver.log[index][0].get_json()


@functools.cache
def _tls() -> ssl.SSLContext:
    """One TLS context for every test client (building one per client costs ~20 ms)."""
    return ssl.create_default_context()


@pytest.fixture(scope="module")
def standin_server() -> Iterator[KimiStandIn]:
    """One running stand-in per test module (the same server the ``kimi_standin`` fixture of
    :mod:`kimi_ext.testing.pytest_plugin` starts), with small stream chunks."""
    with KimiStandIn(chunk_chars=4) as server:
        yield server


@pytest.fixture
def standin(standin_server: KimiStandIn) -> Iterator[KimiStandIn]:
    """The module's stand-in, reset before and after each test."""
    standin_server.reset()
    yield standin_server
    standin_server.reset()


def _kimi(cls: Any, http: Any, base_url: str, api_key: str) -> Any:
    return cls(
        api_key=api_key,
        base_url=base_url,
        fallback_base_url=None,
        max_retries=0,
        http_client=http,
    )


@pytest.fixture
def client(standin: KimiStandIn) -> Iterator[Kimi]:
    with httpx.Client(verify=_tls()) as http:
        yield _kimi(Kimi, http, standin.base_url, standin.api_key)


@pytest.fixture
async def aclient(standin: KimiStandIn) -> AsyncIterator[AsyncKimi]:
    async with httpx.AsyncClient(verify=_tls()) as http:
        yield _kimi(AsyncKimi, http, standin.base_url, standin.api_key)


@pytest.fixture
def hclient(httpserver: Any) -> Iterator[Kimi]:
    """A client talking to pytest-httpserver (for replies the stand-in cannot script)."""
    with httpx.Client(verify=_tls()) as http:
        yield _kimi(Kimi, http, httpserver.url_for("").rstrip("/"), "k")


@pytest.fixture
async def ahclient(httpserver: Any) -> AsyncIterator[AsyncKimi]:
    async with httpx.AsyncClient(verify=_tls()) as http:
        yield _kimi(AsyncKimi, http, httpserver.url_for("").rstrip("/"), "k")


def tool_results(fmt: str, history: Any) -> list[tuple[str, Any, bool]]:
    """(call id, content, is_error) of every tool result in a history, in order."""
    out: list[tuple[str, Any, bool]] = []
    for item in history:
        if fmt == "chat" and item.get("role") == "tool":
            out.append((item["tool_call_id"], item["content"], False))
        elif fmt == "messages" and isinstance(item.get("content"), list):
            for block in item["content"]:
                if block.get("type") == "tool_result":
                    out.append(
                        (block["tool_use_id"], block["content"], bool(block.get("is_error")))
                    )
        elif fmt == "responses" and item.get("type") in (
            "function_call_output",
            "custom_tool_call_output",
        ):
            out.append((item["call_id"], item["output"], False))
    return out
