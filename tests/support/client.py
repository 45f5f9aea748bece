"""Shared data and helpers of the client tests."""

from __future__ import annotations

from typing import Any

import pytest

from kimi_ext import AsyncKimi, Kimi

KEY = "sk-test-SECRET-0123456789"

CHAT_OK: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1,
    "model": "kimi-k3.1-pro",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "OK", "reasoning_content": "think"},
            "finish_reason": "stop",
        }
    ],
    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
}
MESSAGE_OK: dict[str, Any] = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "kimi-k3.1-pro",
    "content": [
        {"type": "thinking", "thinking": "hm", "signature": "sig"},
        {"type": "text", "text": "OK"},
    ],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 3, "output_tokens": 4},
}
RESPONSE_OK: dict[str, Any] = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1764400000,
    "model": "kimi-k3.1-pro",
    "status": "completed",
    "output": [
        {
            "type": "message",
            "id": "m1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "OK", "annotations": []}],
        }
    ],
    "usage": {"input_tokens": 3, "output_tokens": 4, "total_tokens": 7},
}

PATHS = {"chat": "/v1/chat/completions", "messages": "/v1/messages", "responses": "/v1/responses"}
OK = {"chat": CHAT_OK, "messages": MESSAGE_OK, "responses": RESPONSE_OK}


def minimal(fmt: str, **extra: Any) -> dict[str, Any]:
    """The smallest valid request of a format, plus ``extra``."""
    base: dict[str, Any] = {"model": "kimi-k3.1-pro"}
    if fmt == "chat":
        base["messages"] = [{"role": "user", "content": "Hi"}]
    elif fmt == "messages":
        base["messages"] = [{"role": "user", "content": "Hi"}]
        base["max_tokens"] = 64
    else:
        base["input"] = "Hi"
    base.update(extra)
    return base


def create(client: Kimi, fmt: str, **params: Any) -> Any:
    if fmt == "chat":
        return client.chat.completions.create(**params)
    if fmt == "messages":
        return client.messages.create(**params)
    return client.responses.create(**params)


async def acreate(client: AsyncKimi, fmt: str, **params: Any) -> Any:
    if fmt == "chat":
        return await client.chat.completions.create(**params)
    if fmt == "messages":
        return await client.messages.create(**params)
    return await client.responses.create(**params)


class SleepRecorder:
    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)

    async def asleep(self, seconds: float) -> None:
        self.waits.append(seconds)


# ---------------------------------------------- fixtures: a client against pytest-httpserver
# (made fixtures by the conftest.py of each folder that uses them)


@pytest.fixture
def sleeps() -> SleepRecorder:
    return SleepRecorder()


@pytest.fixture
def client(httpserver: Any, sleeps: SleepRecorder) -> Any:
    c = Kimi(api_key=KEY, base_url=httpserver.url_for("").rstrip("/"))
    c._sender.sleep = sleeps
    yield c
    c.close()


@pytest.fixture
async def aclient(httpserver: Any, sleeps: SleepRecorder) -> Any:
    c = AsyncKimi(api_key=KEY, base_url=httpserver.url_for("").rstrip("/"))
    c._sender.sleep = sleeps.asleep
    yield c
    await c.close()
