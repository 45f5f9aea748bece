"""The contenders: the same piece of work done by bare httpx, kimi_ext and the big SDKs.

Each scenario builder returns :class:`Contender` objects whose ``run()`` does one unit of
work against the loopback server and returns something ``check()`` can compare with what
the server sent, so a contender that skipped work (or got it wrong) fails loudly instead
of looking fast. The first contender of every scenario is the baseline.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

import kimi_ext

from .payloads import MODEL, Expected, expected, history_messages, stream_bytes

__all__ = [
    "BASELINE",
    "KIMI_STREAM",
    "Clients",
    "Contender",
    "big_event",
    "helper_name",
    "history",
    "sdk_available",
    "small_request",
    "socket_floor",
    "stream_accumulation",
]

BASELINE = "httpx (baseline)"
KIMI_STREAM = "kimi_ext stream()+get_final"
KEY = "bench-key"
QUESTION = "How do idempotency keys stop duplicate payments?"


@dataclass
class Contender:
    name: str
    run: Callable[[], Any]
    check: Callable[[Any], None] | None = None
    kimi: bool = False  # the kimi_ext contender a goal applies to


class Clients:
    """One client of each library per scenario, all pointed at the loopback server."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.http = httpx.Client(timeout=60)
        self._made: list[Any] = [self.http]
        self._cache: dict[tuple[str, str], Any] = {}

    def url(self, key: str, fmt: str) -> str:
        return f"{self.root}/s/{key}{PATHS[fmt]}"

    def kimi(self, key: str) -> kimi_ext.Kimi:
        return self._get(
            "kimi",
            key,
            lambda: kimi_ext.Kimi(api_key=KEY, base_url=f"{self.root}/s/{key}", timeout=60),
        )

    def openai(self, key: str) -> Any:
        import openai

        return self._get(
            "openai",
            key,
            lambda: openai.OpenAI(api_key=KEY, base_url=f"{self.root}/s/{key}/v1", timeout=60),
        )

    def anthropic(self, key: str) -> Any:
        import anthropic

        return self._get(
            "anthropic",
            key,
            lambda: anthropic.Anthropic(api_key=KEY, base_url=f"{self.root}/s/{key}", timeout=60),
        )

    def _get(self, lib: str, key: str, make: Callable[[], Any]) -> Any:
        client = self._cache.get((lib, key))
        if client is None:
            client = self._cache[(lib, key)] = make()
            self._made.append(client)
        return client

    def close(self) -> None:
        for client in self._made:
            client.close()
        self._made.clear()
        self._cache.clear()


PATHS = {"chat": "/v1/chat/completions", "messages": "/v1/messages", "responses": "/v1/responses"}
HEADERS = {"Authorization": f"Bearer {KEY}", "Accept": "application/json"}
STREAM_HEADERS = {"Authorization": f"Bearer {KEY}", "Accept": "text/event-stream"}


def request_for(fmt: str, **extra: Any) -> dict[str, Any]:
    """The small request body of a format (wire names)."""
    if fmt == "chat":
        body: dict[str, Any] = {
            "model": MODEL,
            "messages": [{"role": "user", "content": QUESTION}],
            "max_tokens": 1024,
        }
    elif fmt == "messages":
        body = {
            "model": MODEL,
            "max_tokens": 1024,
            "messages": [{"role": "user", "content": QUESTION}],
        }
    else:
        body = {"model": MODEL, "input": QUESTION, "max_output_tokens": 1024}
    body.update(extra)
    return body


def _sdk_name(fmt: str) -> str:
    return "anthropic" if fmt == "messages" else "openai"


# --- small non-streaming request ------------------------------------------------------------


def small_request(clients: Clients, fmt: str, *, sdks: bool = True) -> list[Contender]:
    key = f"{fmt}.small.0"
    url = clients.url(key, fmt)
    body = request_for(fmt)
    http = clients.http
    kimi = clients.kimi(key)

    def baseline() -> Any:
        return json.loads(http.post(url, json=body, headers=HEADERS).content)

    def check_dict(data: Any) -> None:
        assert data["model"] == MODEL, data

    resource = _kimi_resource(kimi, fmt)
    out = [
        Contender(BASELINE, baseline, check_dict),
        Contender("kimi_ext create()", lambda: resource.create(**body), _check_text, kimi=True),
    ]
    if sdks:
        out.append(_sdk_create(clients, key, fmt, body))
    return out


def _sdk_create(clients: Clients, key: str, fmt: str, body: dict[str, Any]) -> Contender:
    if fmt == "chat":
        oa = clients.openai(key)
        return Contender(
            "openai create()", lambda: oa.chat.completions.create(**body), _check_sdk_text
        )
    if fmt == "messages":
        an = clients.anthropic(key)
        return Contender("anthropic create()", lambda: an.messages.create(**body), _check_sdk_text)
    oa = clients.openai(key)
    return Contender("openai create()", lambda: oa.responses.create(**body), _check_sdk_text)


def _check_text(result: Any) -> None:
    assert result.text and result.model == MODEL, result


def _check_sdk_text(result: Any) -> None:
    data = result.model_dump()
    assert data["model"] == MODEL, data


# --- streams ---------------------------------------------------------------------------------


def _baseline_stream(clients: Clients, key: str, fmt: str) -> Callable[[], Any]:
    url = clients.url(key, fmt)
    body = request_for(fmt, stream=True)
    http = clients.http
    loads = json.loads

    def run() -> int:
        count = 0
        with http.stream("POST", url, json=body, headers=STREAM_HEADERS) as response:
            for line in response.iter_lines():
                if line.startswith("data: "):
                    data = line[6:]
                    if data == "[DONE]":
                        count += 1
                        break
                    loads(data)
                    count += 1
        return count

    return run


def _check_count(events: int) -> Callable[[Any], None]:
    def check(count: Any) -> None:
        assert count == events, (count, events)

    return check


def _check_kimi(exp: Expected, fmt: str) -> Callable[[Any], None]:
    def check(result: Any) -> None:
        assert result.text == exp.text, "text differs"
        assert result.reasoning == exp.reasoning, "reasoning differs"
        calls = result.tool_calls
        if exp.arguments:
            if fmt == "messages":
                assert calls[0].input == json.loads(exp.arguments)
            else:
                assert calls[0].arguments == exp.arguments
        else:
            assert not calls

    return check


def _check_collected(exp: Expected) -> Callable[[Any], None]:
    def check(got: Any) -> None:
        reasoning, text, arguments = got
        assert text == exp.text, "text differs"
        assert reasoning == exp.reasoning, "reasoning differs"
        assert arguments == exp.arguments, "arguments differ"

    return check


def _kimi_resource(kimi: kimi_ext.Kimi, fmt: str) -> Any:
    return {"chat": kimi.chat.completions, "messages": kimi.messages, "responses": kimi.responses}[
        fmt
    ]


def _kimi_stream(kimi: kimi_ext.Kimi, fmt: str, body: dict[str, Any]) -> Callable[[], Any]:
    resource = _kimi_resource(kimi, fmt)

    def run() -> Any:
        with resource.stream(**body) as stream:
            return stream.final()

    return run


def _kimi_iterate(kimi: kimi_ext.Kimi, fmt: str, body: dict[str, Any]) -> Callable[[], Any]:
    resource = _kimi_resource(kimi, fmt)

    def run() -> Any:
        stream = resource.create(stream=True, **body)
        for _event in stream:
            pass
        return stream.final()

    return run


def _openai_chat_iterate(client: Any, body: dict[str, Any]) -> Callable[[], Any]:
    def run() -> Any:
        reasoning: list[str] = []
        text: list[str] = []
        args: list[str] = []
        for chunk in client.chat.completions.create(stream=True, **body):
            if not chunk.choices:
                continue
            delta = chunk.choices[0].delta
            if delta.content:
                text.append(delta.content)
            piece = getattr(delta, "reasoning_content", None)
            if piece:
                reasoning.append(piece)
            if delta.tool_calls:
                for call in delta.tool_calls:
                    if call.function and call.function.arguments:
                        args.append(call.function.arguments)
        return "".join(reasoning), "".join(text), "".join(args)

    return run


def _openai_chat_helper(client: Any, body: dict[str, Any]) -> Callable[[], Any]:
    def run() -> Any:
        with client.chat.completions.stream(**body) as stream:
            return stream.get_final_completion()

    return run


def _check_openai_chat(exp: Expected) -> Callable[[Any], None]:
    def check(final: Any) -> None:
        message = final.choices[0].message
        assert (message.content or "") == exp.text, "text differs"
        if exp.arguments:
            assert message.tool_calls[0].function.arguments == exp.arguments
        reasoning = getattr(message, "reasoning_content", None)
        assert reasoning in (None, exp.reasoning), "reasoning differs"

    return check


def _openai_responses_iterate(client: Any, body: dict[str, Any]) -> Callable[[], Any]:
    def run() -> Any:
        reasoning: list[str] = []
        text: list[str] = []
        args: list[str] = []
        for event in client.responses.create(stream=True, **body):
            kind = event.type
            if kind == "response.output_text.delta":
                text.append(event.delta)
            elif kind == "response.reasoning_text.delta":
                reasoning.append(event.delta)
            elif kind == "response.function_call_arguments.delta":
                args.append(event.delta)
        return "".join(reasoning), "".join(text), "".join(args)

    return run


def _openai_responses_helper(client: Any, body: dict[str, Any]) -> Callable[[], Any]:
    def run() -> Any:
        with client.responses.stream(**body) as stream:
            return stream.get_final_response()

    return run


def _check_openai_responses(exp: Expected) -> Callable[[Any], None]:
    def check(final: Any) -> None:
        assert final.output_text == exp.text, "text differs"
        calls = [item for item in final.output if item.type == "function_call"]
        if exp.arguments:
            assert calls[0].arguments == exp.arguments

    return check


def _anthropic_iterate(client: Any, body: dict[str, Any]) -> Callable[[], Any]:
    def run() -> Any:
        reasoning: list[str] = []
        text: list[str] = []
        args: list[str] = []
        for event in client.messages.create(stream=True, **body):
            if event.type == "content_block_delta":
                delta = event.delta
                kind = delta.type
                if kind == "text_delta":
                    text.append(delta.text)
                elif kind == "thinking_delta":
                    reasoning.append(delta.thinking)
                elif kind == "input_json_delta":
                    args.append(delta.partial_json)
        return "".join(reasoning), "".join(text), "".join(args)

    return run


def _anthropic_helper(client: Any, body: dict[str, Any]) -> Callable[[], Any]:
    def run() -> Any:
        with client.messages.stream(**body) as stream:
            return stream.get_final_message()

    return run


def _check_anthropic(exp: Expected) -> Callable[[Any], None]:
    def check(final: Any) -> None:
        text = "".join(b.text for b in final.content if b.type == "text")
        thinking = "".join(b.thinking for b in final.content if b.type == "thinking")
        assert text == exp.text, "text differs"
        assert thinking == exp.reasoning, "reasoning differs"
        calls = [b for b in final.content if b.type == "tool_use"]
        if exp.arguments:
            assert calls[0].input == json.loads(exp.arguments)

    return check


def stream_accumulation(
    clients: Clients,
    fmt: str,
    events: int,
    *,
    kind: str = "stream",
    sdks: bool = True,
    iterate: bool = True,
) -> list[Contender]:
    """Read a whole stream: the baseline parses each event; kimi_ext and the SDK helpers
    rebuild the final result; the SDKs' ``create(stream=True)`` loops collect the text."""
    key = f"{fmt}.{kind}.{events}"
    exp = expected(fmt, kind, events)
    body = request_for(fmt)
    kimi = clients.kimi(key)
    out = [
        Contender(BASELINE, _baseline_stream(clients, key, fmt), _check_count(exp.events)),
        Contender(KIMI_STREAM, _kimi_stream(kimi, fmt, body), _check_kimi(exp, fmt), kimi=True),
    ]
    if iterate:
        out.append(
            Contender(
                "kimi_ext create(stream=True) iterate",
                _kimi_iterate(kimi, fmt, body),
                _check_kimi(exp, fmt),
            )
        )
    if not sdks:
        return out
    if fmt == "chat":
        oa = clients.openai(key)
        if iterate:
            out.append(
                Contender(
                    "openai create(stream=True) iterate",
                    _openai_chat_iterate(oa, body),
                    _check_collected(exp),
                )
            )
        out.append(
            Contender(helper_name(fmt), _openai_chat_helper(oa, body), _check_openai_chat(exp))
        )
    elif fmt == "messages":
        an = clients.anthropic(key)
        if iterate:
            out.append(
                Contender(
                    "anthropic create(stream=True) iterate",
                    _anthropic_iterate(an, body),
                    _check_collected(exp),
                )
            )
        out.append(Contender(helper_name(fmt), _anthropic_helper(an, body), _check_anthropic(exp)))
    else:
        oa = clients.openai(key)
        if iterate:
            out.append(
                Contender(
                    "openai create(stream=True) iterate",
                    _openai_responses_iterate(oa, body),
                    _check_collected(exp),
                )
            )
        out.append(
            Contender(
                helper_name(fmt), _openai_responses_helper(oa, body), _check_openai_responses(exp)
            )
        )
    return out


def socket_floor(clients: Clients, fmt: str, events: int, *, kind: str = "stream") -> Contender:
    """Only read the bytes of a stream from a raw socket: what the server and the loopback
    cost, the floor under every contender (it shows the server is not the bottleneck)."""
    key = f"{fmt}.{kind}.{events}"
    host, port = clients.root.removeprefix("http://").rsplit(":", 1)
    body = json.dumps(request_for(fmt, stream=True)).encode()
    request = (
        f"POST /s/{key}{PATHS[fmt]} HTTP/1.1\r\nHost: {host}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    size = len(stream_bytes(fmt, kind, events))

    def run() -> int:
        total = 0
        tail = b""
        with socket.create_connection((host, int(port))) as sock:
            sock.sendall(request)
            while True:
                data = sock.recv(1 << 18)
                if not data:
                    break
                total += len(data)
                tail = (tail + data[-5:])[-5:]
                if tail == b"0\r\n\r\n":  # the last chunk of the chunked body
                    break
        return total

    def check(total: Any) -> None:
        assert total > size, (total, size)

    return Contender("raw socket read (server floor)", run, check)


def big_event(clients: Clients, fmt: str, size: int, *, sdks: bool = True) -> list[Contender]:
    """A stream whose text arrives in one event of ``size`` bytes."""
    return stream_accumulation(clients, fmt, size, kind="big", sdks=sdks, iterate=False)


# --- history ---------------------------------------------------------------------------------


def history(
    clients: Clients, fmt: str, turns: int, *, scale: int = 1250, sdks: bool = True
) -> tuple[list[Contender], int]:
    """Send a long history with reasoning and tool calls; the reply is small. Returns the
    contenders and the size of the request body in bytes."""
    key = f"{fmt}.small.0"
    url = clients.url(key, fmt)
    hist, extra = history_messages(fmt, turns, scale)
    field = "input" if fmt == "responses" else "messages"
    plain = json.loads(json.dumps(hist.to_wire()))  # the same messages, as plain dicts
    body = request_for(fmt, **extra)
    body[field] = plain
    size = len(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode())
    http = clients.http
    kimi = clients.kimi(key)
    resource = _kimi_resource(kimi, fmt)
    with_history = {**body, field: hist}

    def baseline() -> Any:
        return json.loads(http.post(url, json=body, headers=HEADERS).content)

    out = [
        Contender(BASELINE, baseline, lambda data: None),
        Contender(
            "kimi_ext create(), plain list", lambda: resource.create(**body), _check_text, kimi=True
        ),
        Contender(
            f"kimi_ext create(), {type(hist).__name__}",
            lambda: resource.create(**with_history),
            _check_text,
            kimi=True,
        ),
    ]
    if sdks:
        out.append(_sdk_create(clients, key, fmt, body))
    return out, size


def tool_schemas(index: int, properties: int = 8) -> dict[str, Any]:
    """A realistic tool schema, different for each ``index`` (no two share a cache entry)."""
    return {
        "type": "object",
        "properties": {
            f"p{index}_{j}": (
                {"type": "string", "description": f"Field {j} of tool {index}."}
                if j % 3
                else {"type": ["null", "integer"], "enum": [j, index, None]}
            )
            for j in range(properties)
        },
        "required": [f"p{index}_0"],
        "additionalProperties": False,
    }


def many_tools(clients: Clients, count: int) -> tuple[list[Contender], int]:
    """A Messages call declaring ``count`` tools (their schemas already seen by the client,
    as on every turn after the first of a session), against httpx posting the same body.
    Returns the contenders and the body's size in bytes."""
    key = "messages.small.0"
    url = clients.url(key, "messages")
    tools = [
        {"name": f"tool_{i}", "description": f"Tool number {i}.", "input_schema": tool_schemas(i)}
        for i in range(count)
    ]
    body = request_for("messages", tools=tools)
    size = len(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode())
    http = clients.http
    resource = _kimi_resource(clients.kimi(key), "messages")

    def baseline() -> Any:
        return json.loads(http.post(url, json=body, headers=HEADERS).content)

    return [
        Contender(BASELINE, baseline, lambda data: None),
        Contender(
            f"kimi_ext create(), {count} tools",
            lambda: resource.create(**body),
            _check_text,
            kimi=True,
        ),
    ], size


def helper_name(fmt: str) -> str:
    """The name of the SDK's stream-helper contender of a format."""
    return f"{_sdk_name(fmt)} stream()+get_final"


def sdk_available(fmt: str) -> bool:
    try:
        __import__(_sdk_name(fmt))
    except ImportError:
        return False
    return True
