"""A raw TCP server on loopback for hostile-input tests: it writes exactly the bytes a test
scripts, at the pace it scripts, and records what arrived.

The server runs an asyncio loop in its own thread, so sync and async clients alike can
talk to it, and one thread serves thousands of connections. Each request (head and
``Content-Length`` body) is read and recorded, then the handler writes the answer; it
returns True to serve another request on the same connection.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter, "RawRequest"], Awaitable[Any]]


@dataclass
class RawRequest:
    head: bytes
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> str | None:
        for line in self.head.split(b"\r\n")[1:]:
            key, _, value = line.partition(b":")
            if key.strip().lower() == name.lower().encode():
                return value.strip().decode("latin-1")
        return None


class RawServer:
    """``with RawServer(handler) as server:`` then ``server.base_url``."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[RawRequest] = []
        self.connections = 0
        self.open = 0
        self.max_open = 0
        self.received = b""  # the first bytes of every connection, for servers that only listen
        self.loop = asyncio.new_event_loop()
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> RawServer:
        started = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            self.server = self.loop.run_until_complete(
                asyncio.start_server(self._serve, "127.0.0.1", 0, backlog=4096, limit=1 << 20)
            )
            self.port = self.server.sockets[0].getsockname()[1]
            started.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert started.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        async def stop() -> None:
            self.server.close()
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()

    def call(self, fn: Callable[[], Any]) -> None:
        """Run ``fn`` on the server's loop (to set an asyncio.Event, say)."""
        self.loop.call_soon_threadsafe(fn)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self.connections += 1
        self.open += 1
        self.max_open = max(self.max_open, self.open)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                self.received += head
                request = RawRequest(head, b"")
                length = request.header("content-length")
                if length:
                    request.body = await reader.readexactly(int(length))
                self.requests.append(request)
                again = await self.handler(reader, writer, request)
                await writer.drain()
                if not again:
                    break
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            pass
        except asyncio.CancelledError:
            pass
        finally:
            self.open -= 1
            self._tasks.discard(task)
            writer.close()


def head(
    status: int = 200, headers: dict[str, str] | None = None, *, length: int | None = None
) -> bytes:
    """A response head. Without ``length`` the body runs until the connection closes."""
    lines = [f"HTTP/1.1 {status} X"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if length is not None:
        lines.append(f"Content-Length: {length}")
    else:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def answer(
    status: int, body: bytes | str | dict[str, Any], headers: dict[str, str] | None = None
) -> bytes:
    """A whole response with a Content-Length (the connection can be reused)."""
    if isinstance(body, dict):
        body = json.dumps(body)
    if isinstance(body, str):
        body = body.encode()
    kind = {"Content-Type": "application/json"}
    return head(status, {**kind, **(headers or {})}, length=len(body)) + body


SSE = {"Content-Type": "text/event-stream"}


def chunk(text: str | None = None, finish: str | None = None) -> bytes:
    """One Chat stream event."""
    delta = {"content": text} if text is not None else {}
    data = {
        "id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "kimi-k3.1-pro",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }  # fmt: skip
    return b"data: " + json.dumps(data).encode() + b"\n\n"


CHAT_OK = {
    "id": "c1", "object": "chat.completion", "created": 1, "model": "kimi-k3.1-pro",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "OK"},
                 "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
}  # fmt: skip


def reply(data: bytes) -> Handler:
    """A handler that writes ``data`` and closes."""

    async def handler(reader: Any, writer: asyncio.StreamWriter, request: RawRequest) -> bool:
        writer.write(data)
        return False

    return handler


def replies(*answers: bytes) -> Handler:
    """A handler that writes the next of ``answers`` per request (the last one again)."""
    queue = list(answers)

    async def handler(reader: Any, writer: asyncio.StreamWriter, request: RawRequest) -> bool:
        data = queue.pop(0) if len(queue) > 1 else queue[0]
        writer.write(data)
        return b"Content-Length" in data.split(b"\r\n\r\n", 1)[0]

    return handler
