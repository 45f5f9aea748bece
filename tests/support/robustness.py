"""Shared pieces of the robustness tests: recorded payloads, JSON strategies, payload
mutations, SSE encoding, a byte-recording transport and stand-in clients."""

from __future__ import annotations

import copy
import importlib
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import attrs
import httpx
from hypothesis import strategies as st
from ruamel.yaml import YAML

from kimi_ext import AsyncKimi, ChatCompletion, Kimi, Message, Response
from kimi_ext.chat.stream import AsyncChatCompletionStream, ChatAccumulator, ChatCompletionStream
from kimi_ext.messages.stream import (
    AsyncMessageStream,
    MessageAccumulator,
    MessagesStreamEvent,
    MessageStream,
)
from kimi_ext.responses.stream import (
    AsyncResponseStream,
    ResponseAccumulator,
    ResponsesStreamEvent,
    ResponseStream,
)
from kimi_ext.testing import KimiStandIn
from tests.support.paths import ROOT

FIXTURES = ROOT / "tests" / "fixtures"
FORMATS = ("chat", "messages", "responses")
SECRET = "sk-quality-SECRET-0123456789"

RESULT = {"chat": ChatCompletion, "messages": Message, "responses": Response}
ACCUMULATOR = {
    "chat": ChatAccumulator,
    "messages": MessageAccumulator,
    "responses": ResponseAccumulator,
}
SYNC_STREAM = {"chat": ChatCompletionStream, "messages": MessageStream, "responses": ResponseStream}
ASYNC_STREAM = {
    "chat": AsyncChatCompletionStream,
    "messages": AsyncMessageStream,
    "responses": AsyncResponseStream,
}
FINAL = {
    "chat": "get_final_completion",
    "messages": "get_final_message",
    "responses": "get_final_response",
}
MODELS_MODULE = {f: f"kimi_raw.{f}.models" for f in FORMATS}
RESPONSE_MODEL = {
    "chat": "ChatCompletion",
    "messages": "MessageResponse",
    "responses": "ResponseObject",
}


# ------------------------------------------------------------------ recorded payloads


def sse_events(text: str) -> list[tuple[str | None, Any]]:
    """``(event name, decoded data)`` of each event of an SSE text whose data is JSON."""
    out: list[tuple[str | None, Any]] = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        name = None
        lines = []
        for line in block.split("\n"):
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                lines.append(line[5:].removeprefix(" "))
        if not lines:
            continue
        data = "\n".join(lines)
        if data == "[DONE]":
            continue
        try:
            out.append((name, json.loads(data)))
        except ValueError:
            continue
    return out


def model_class(fmt: str, kind: str, payload: Any) -> type[Any]:
    """The generated model a response (``kind="response"``) or stream event decodes into,
    chosen the way kimi_ext chooses it (unknown event types: the ``UnknownEvent`` model)."""
    module = importlib.import_module(MODELS_MODULE[fmt])
    if kind == "response":
        return getattr(module, RESPONSE_MODEL[fmt])  # type: ignore[no-any-return]
    if fmt == "chat":
        return module.ChatCompletionChunk  # type: ignore[no-any-return]
    models = (MessagesStreamEvent if fmt == "messages" else ResponsesStreamEvent)._models
    return getattr(module, models.get(payload.get("type"), "UnknownEvent"))  # type: ignore[no-any-return]


def recorded_payloads() -> list[tuple[str, str, str, dict[str, Any]]]:
    """``(format, kind, label, payload)`` of every recorded response and stream event."""
    cases: list[tuple[str, str, str, dict[str, Any]]] = []
    for fmt in FORMATS:
        for path in sorted((FIXTURES / fmt).glob("response_*.json")):
            cases.append((fmt, "response", path.name, json.loads(path.read_text("utf-8"))))
        for path in sorted((FIXTURES / fmt).glob("stream_*.sse")):
            for i, (_, data) in enumerate(sse_events(path.read_text("utf-8"))):
                if isinstance(data, dict):
                    cases.append((fmt, "event", f"{path.name}#{i}", data))
    return cases


def recorded_streams(fmt: str) -> list[list[tuple[str | None, Any]]]:
    return [
        sse_events(path.read_text("utf-8"))
        for path in sorted((FIXTURES / fmt).glob("stream_*.sse"))
    ]


def _spec_words() -> tuple[frozenset[str], frozenset[str]]:
    """Every property name and every string constant / enum value of the three specs."""
    names: set[str] = set()
    values: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                names.update(str(k) for k in props)
            if isinstance(node.get("const"), str):
                values.add(node["const"])
            if isinstance(node.get("enum"), list):
                values.update(v for v in node["enum"] if isinstance(v, str))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for fmt in FORMATS:
        walk(YAML(typ="safe", pure=True).load((ROOT / "openapi" / f"{fmt}.yaml").read_text()))
    return frozenset(names), frozenset(values)


SPEC_NAMES, SPEC_VALUES = _spec_words()


def _fixture_types() -> frozenset[str]:
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("type"), str):
                found.add(node["type"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for _, _, _, payload in recorded_payloads():
        walk(payload)
    return frozenset(found)


KNOWN_TYPES = SPEC_VALUES | _fixture_types()
ENUM_LIKE = ("stop_reason", "finish_reason", "status")


# ------------------------------------------------------------------ JSON strategies

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
# Keys no spec names anywhere: a payload carrying them has truly unknown fields.
unknown_keys = st.text(min_size=1, max_size=12).filter(lambda k: k not in SPEC_NAMES)
# Type names no spec or recording uses.
new_types = st.text(min_size=1, max_size=16).filter(lambda t: t not in KNOWN_TYPES)


def canonical(value: Any) -> str:
    """JSON text that tells 1 from 1.0 and True from 1 (dict order ignored)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def dict_paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """``(path, node)`` of every dict and list inside ``node`` (itself included)."""
    if isinstance(node, dict | list):
        yield path, node
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in items:
            yield from dict_paths(value, (*path, key))


def at(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


# Where an object of a type the spec does not know must land in a catch-all model:
# (format, key holding the list or the object, type of the parent object or None for any).
CATCH_ALL_LISTS: dict[str, dict[str, tuple[str, ...]]] = {
    "messages": {"content": ("message",)},
    "responses": {
        "output": ("response",),
        "content": ("message", "reasoning"),
        "summary": ("reasoning",),
        "annotations": ("output_text",),
        # A namespace holds function tools only (a closed list, as the request needs): an
        # echoed namespace with another member is kept whole, verbatim, as UnknownTool.
        "tools": ("response",),
    },
    "chat": {"tool_calls": ("chat_message",)},
}
CATCH_ALL_OBJECTS: dict[str, dict[str, str]] = {
    "messages": {"content_block": "content_block_start", "delta": "content_block_delta"},
    "responses": {
        "item": "response.output_item",
        "part": "response.content_part",
    },
    "chat": {},
}


def _parent_kind(fmt: str, parent: dict[str, Any], path: tuple[Any, ...]) -> str | None:
    if fmt == "chat":
        return "chat_message" if path and path[-1] == "message" else None
    if fmt == "responses" and "output" in parent and "object" in parent:
        return "response"
    kind = parent.get("type")
    return kind if isinstance(kind, str) else None


def catch_all_sites(
    fmt: str, payload: dict[str, Any]
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Paths of the lists where a new-type object may be inserted, and of the objects that
    may be replaced by one, where the format's models promise a catch-all member."""
    lists: list[tuple[Any, ...]] = []
    objects: list[tuple[Any, ...]] = []
    for path, node in dict_paths(payload):
        if not isinstance(node, dict):
            continue
        kind = _parent_kind(fmt, node, path)
        for key, value in node.items():
            parents = CATCH_ALL_LISTS[fmt].get(key)
            if isinstance(value, list) and parents is not None and kind in parents:
                lists.append((*path, key))
            owner = CATCH_ALL_OBJECTS[fmt].get(key)
            if (
                owner is not None
                and isinstance(value, dict)
                and isinstance(kind, str)
                and kind.startswith(owner)
            ):
                objects.append((*path, key))
    return lists, objects


@st.composite
def new_blocks(draw: st.DrawFn) -> dict[str, Any]:
    """An object of a type nobody knows, with random fields."""
    block: dict[str, Any] = {"type": draw(new_types)}
    for key in draw(st.lists(st.text(min_size=1, max_size=10), max_size=4)):
        if key != "type":
            block[key] = draw(json_values)
    return block


@st.composite
def mutated(
    draw: st.DrawFn, fmt: str, payload: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A copy of ``payload`` with unknown fields added at random levels, enum-like strings
    swapped for random ones and objects of new types inserted where a catch-all exists.
    Returns the copy and the new-type objects it carries."""
    out = copy.deepcopy(payload)
    inserted: list[dict[str, Any]] = []
    _, objects = catch_all_sites(fmt, out)
    for path in objects:
        if draw(st.booleans()):
            block = draw(new_blocks())
            at(out, path[:-1])[path[-1]] = block
            inserted.append(block)
    # The lists still reachable after the swaps, taken by reference before any insertion
    # moves the paths below them.
    lists, _ = catch_all_sites(fmt, out)
    for target in [at(out, path) for path in lists]:
        for _ in range(draw(st.integers(0, 2))):
            block = draw(new_blocks())
            target.insert(draw(st.integers(0, len(target))), block)
            inserted.append(block)
    # Enum-like strings.
    for _, node in list(dict_paths(out)):
        if isinstance(node, dict) and not any(node is b for b in inserted):
            for key in ENUM_LIKE:
                swappable = key in node and (node[key] is None or isinstance(node[key], str))
                if swappable and draw(st.booleans()):
                    node[key] = draw(st.text(max_size=20))
    # Unknown fields, at every level that is an object.
    for _, node in list(dict_paths(out)):
        if isinstance(node, dict) and draw(st.integers(0, 3)) == 0:
            for key in draw(st.lists(unknown_keys, max_size=3)):
                if key not in node:
                    node[key] = draw(json_values)
    return out, inserted


def model_objects(obj: Any) -> Iterator[Any]:
    """Every generated model instance inside a parsed model (itself included)."""
    if attrs.has(type(obj)):
        yield obj
        for f in attrs.fields(type(obj)):
            yield from model_objects(getattr(obj, f.name))
    elif isinstance(obj, list):
        for item in obj:
            yield from model_objects(item)


# ------------------------------------------------------------------ SSE and streams


def encode_event(data: Any, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return (head + "".join(f"data: {line}\n" for line in text.split("\n")) + "\n").encode()


class ByteStream(httpx.SyncByteStream, httpx.AsyncByteStream):
    """Yields the chunks, then raises ``error`` if given (a broken connection)."""

    def __init__(self, chunks: list[bytes], error: Exception | None = None) -> None:
        self.chunks = chunks
        self.error = error
        self.closed = False

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        if self.error is not None:
            raise self.error

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk
        if self.error is not None:
            raise self.error

    def close(self) -> None:
        self.closed = True

    async def aclose(self) -> None:
        self.closed = True


def stream_response(chunks: list[bytes], error: Exception | None = None) -> httpx.Response:
    return httpx.Response(
        200,
        stream=ByteStream(chunks, error),
        headers={"content-type": "text/event-stream"},
        request=httpx.Request("POST", "https://api.test/v1/x"),
    )


def complete_blocks(raw: bytes) -> list[bytes]:
    """The SSE events of ``raw`` that arrived whole (their blank line included)."""
    text = raw.replace(b"\r\n", b"\n")
    end = text.rfind(b"\n\n")
    if end < 0:
        return []
    return [block + b"\n\n" for block in text[:end].split(b"\n\n") if block]


def accumulate(fmt: str, raw: bytes) -> Any:
    """What a fresh accumulator makes of the events that arrived whole in ``raw``."""
    acc = ACCUMULATOR[fmt]()
    for name, data in sse_events(b"".join(complete_blocks(raw)).decode("utf-8", "replace")):
        if isinstance(data, dict):
            acc.feed(name, data)
    return acc.result(None)


class _Recorded(httpx.SyncByteStream, httpx.AsyncByteStream):
    def __init__(self, inner: Any, sink: bytearray) -> None:
        self.inner = inner
        self.sink = sink

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self.inner:
            self.sink.extend(chunk)
            yield chunk

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.inner:
            self.sink.extend(chunk)
            yield chunk

    def close(self) -> None:
        self.inner.close()

    async def aclose(self) -> None:
        await self.inner.aclose()


class RecordingTransport(httpx.BaseTransport):
    """A real HTTP transport that keeps the body bytes of every response it delivered."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.bodies: list[bytearray] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        sink = bytearray()
        self.bodies.append(sink)
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_Recorded(response.stream, sink),
            extensions=response.extensions,
        )

    def close(self) -> None:
        self.inner.close()


class AsyncRecordingTransport(httpx.AsyncBaseTransport):
    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.bodies: list[bytearray] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        sink = bytearray()
        self.bodies.append(sink)
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_Recorded(response.stream, sink),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self.inner.aclose()


# ------------------------------------------------------------------ clients and calls


def standin_client(standin: KimiStandIn, **options: Any) -> Kimi:
    """A client for the stand-in that never really sleeps between retries."""
    client = Kimi(
        api_key=standin.api_key, base_url=standin.base_url, fallback_base_url=None, **options
    )
    client._sender.sleep = lambda seconds: None
    return client


async def _no_sleep(seconds: float) -> None:
    return None


def async_standin_client(standin: KimiStandIn, **options: Any) -> AsyncKimi:
    client = AsyncKimi(
        api_key=standin.api_key, base_url=standin.base_url, fallback_base_url=None, **options
    )
    client._sender.sleep = _no_sleep
    return client


def no_sleep_async(client: AsyncKimi) -> AsyncKimi:
    client._sender.sleep = _no_sleep
    return client


def request(fmt: str, text: str = "Hi", **extra: Any) -> dict[str, Any]:
    """The smallest valid request of a format asking ``text``, plus ``extra``."""
    params: dict[str, Any] = {"model": "kimi-k3.1-pro"}
    if fmt == "responses":
        params["input"] = text
    else:
        params["messages"] = [{"role": "user", "content": text}]
    if fmt == "messages":
        params["max_tokens"] = 4096
    params.update(extra)
    return params


def resource(client: Any, fmt: str) -> Any:
    if fmt == "chat":
        return client.chat.completions
    return getattr(client, fmt)


def summary(result: Any) -> tuple[str, str, list[tuple[str, str]]]:
    """What a result says: text, reasoning and (name, arguments) of its tool calls."""
    return result.text, result.reasoning, [(c.name, c.arguments) for c in result.tool_calls]
