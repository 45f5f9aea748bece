"""Helpers for the stream tests: byte streams whose splitting and failures we control."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import httpx

from kimi_ext import ChatCompletion, Message, Response
from kimi_ext.chat.stream import AsyncChatCompletionStream, ChatCompletionStream
from kimi_ext.messages.stream import AsyncMessageStream, MessageStream
from kimi_ext.responses.stream import AsyncResponseStream, ResponseStream
from tests.support.paths import FIXTURES

DATA = FIXTURES / "streams"
SECRET = "sk-test-secret-0123456789"

SYNC = {"chat": ChatCompletionStream, "messages": MessageStream, "responses": ResponseStream}
ASYNC = {
    "chat": AsyncChatCompletionStream,
    "messages": AsyncMessageStream,
    "responses": AsyncResponseStream,
}
RESULT = {"chat": ChatCompletion, "messages": Message, "responses": Response}
FINAL = {
    "chat": "get_final_completion",
    "messages": "get_final_message",
    "responses": "get_final_response",
}


def load(name: str) -> bytes:
    return (DATA / name).read_bytes()


def fmt_of(name: str) -> str:
    return name.split("_", 1)[0]


class ChunkStream(httpx.SyncByteStream, httpx.AsyncByteStream):
    """Yields the given chunks, then optionally raises ``error`` (a broken connection)."""

    def __init__(self, chunks: Sequence[bytes], error: Exception | None = None) -> None:
        self.chunks = list(chunks)
        self.error = error
        self.closed = False
        self.delivered = 0

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self.chunks:
            self.delivered += 1
            yield chunk
        if self.error is not None:
            raise self.error

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            self.delivered += 1
            yield chunk
        if self.error is not None:
            raise self.error

    def close(self) -> None:
        self.closed = True

    async def aclose(self) -> None:
        self.closed = True


REQUEST = httpx.Request("POST", "https://api.test/v1/stream")


def bare_response(chunks: Sequence[bytes], error: Exception | None = None) -> httpx.Response:
    """A streaming response without a client (cheap: for the many-splits tests)."""
    return httpx.Response(
        200,
        stream=ChunkStream(chunks, error),
        headers={"content-type": "text/event-stream"},
        request=REQUEST,
    )


def client_response(
    chunks: Sequence[bytes], error: Exception | None = None
) -> tuple[httpx.Response, ChunkStream]:
    """A streaming response sent through an ``httpx.Client`` with a MockTransport."""
    stream = ChunkStream(chunks, error)

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200,
            stream=stream,
            headers={"content-type": "text/event-stream", "x-request-id": "req-1"},
        )

    client = httpx.Client(transport=httpx.MockTransport(handler))
    response = client.send(client.build_request("POST", "https://api.test/v1/stream"), stream=True)
    return response, stream


async def async_client_response(
    chunks: Sequence[bytes], error: Exception | None = None
) -> tuple[httpx.Response, ChunkStream]:
    stream = ChunkStream(chunks, error)

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200,
            stream=stream,
            headers={"content-type": "text/event-stream", "x-request-id": "req-1"},
        )

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    response = await client.send(
        client.build_request("POST", "https://api.test/v1/stream"), stream=True
    )
    return response, stream


def open_sync(fmt: str, chunks: Sequence[bytes], error: Exception | None = None) -> Any:
    return SYNC[fmt](bare_response(chunks, error), secret=SECRET)


def run_sync(fmt: str, chunks: Sequence[bytes]) -> tuple[list[tuple[str, Any, Any]], Any]:
    """(events as tuples, final dict) of a stream that must complete."""
    stream = open_sync(fmt, chunks)
    events = [(e.type, e.data, e.event) for e in stream]
    final = getattr(stream, FINAL[fmt])()
    return events, final.to_dict()


async def run_async(fmt: str, chunks: Sequence[bytes]) -> tuple[list[tuple[str, Any, Any]], Any]:
    stream = ASYNC[fmt](bare_response(chunks), secret=SECRET)
    events = [(e.type, e.data, e.event) async for e in stream]
    final = await getattr(stream, FINAL[fmt])()
    return events, final.to_dict()


def sse_blocks(body: bytes) -> list[bytes]:
    """The body cut into its events (each with its blank line); comments stay attached."""
    blocks = body.split(b"\n\n")
    if blocks and blocks[-1] == b"":
        blocks.pop()
    return [block + b"\n\n" for block in blocks]


def data_of(block: bytes) -> Any:
    """The decoded data of one event block (None for [DONE] / comments)."""
    lines = [line[6:] for line in block.split(b"\n") if line.startswith(b"data: ")]
    if not lines:
        return None
    text = b"\n".join(lines).decode()
    return None if text == "[DONE]" else json.loads(text)
