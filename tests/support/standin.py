"""Helpers for the stand-in's own tests: plain httpx, and every payload checked against
the three OpenAPI specs as it arrives.

The specs end their response-side unions with catch-all members (``UnknownBlock`` ...), so
a plain ``oneOf`` fails on every known block (it matches its own member *and* the
catch-all). :class:`SpecValidator` therefore reads a ``oneOf`` the way the specs describe
it: members are matched by their ``type`` constant; an object whose ``type`` no member
names (or a non-object) must satisfy at least one member, i.e. the catch-all.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import jsonschema
from jsonschema import ValidationError
from ruamel.yaml import YAML

from kimi_ext.testing import KimiStandIn
from tests.support.paths import ROOT

PATHS = {"chat": "/v1/chat/completions", "messages": "/v1/messages", "responses": "/v1/responses"}
K31 = "kimi-k3.1-pro"

# The component schema of each payload kind, per format.
RESPONSE_SCHEMA = {
    "chat": "ChatCompletion",
    "messages": "MessageResponse",
    "responses": "ResponseObject",
}
EVENT_SCHEMA = {
    "chat": "ChatCompletionChunk",
    "messages": "MessageStreamEvent",
    "responses": "ResponseStreamEvent",
}


def load_spec(fmt: str) -> dict[str, Any]:
    loaded: dict[str, Any] = YAML(typ="safe", pure=True).load(
        (ROOT / "openapi" / f"{fmt}.yaml").read_text("utf-8")
    )
    return loaded


class SpecValidator:
    """Validates instances against ``#/components/schemas/<name>`` of one spec."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.schemas: dict[str, Any] = spec["components"]["schemas"]
        base = jsonschema.Draft202012Validator
        validators = dict(base.VALIDATORS)
        validators["oneOf"] = self._one_of
        self.cls = jsonschema.validators.extend(base, validators)
        self.spec = spec

    def _resolve(self, schema: Any) -> Any:
        while isinstance(schema, dict) and "$ref" in schema:
            schema = self.schemas[schema["$ref"].rsplit("/", 1)[-1]]
        return schema

    def _type_const(self, member: Any) -> Any:
        prop = (self._resolve(member).get("properties") or {}).get("type") or {}
        if "const" in prop:
            return prop["const"]
        enum = prop.get("enum")
        return enum[0] if isinstance(enum, list) and len(enum) == 1 else None

    def _one_of(
        self, validator: Any, members: list[Any], instance: Any, schema: Any
    ) -> Iterator[ValidationError]:
        if isinstance(instance, dict) and isinstance(instance.get("type"), str):
            named = [m for m in members if self._type_const(m) == instance["type"]]
            if named:
                errors: list[ValidationError] = []
                for member in named:
                    found = list(validator.descend(instance, member))
                    if not found:
                        return
                    errors += found
                yield ValidationError(
                    f"{instance['type']!r} does not match its member", context=errors
                )
                return
        errors = []
        for member in members:
            found = list(validator.descend(instance, member))
            if not found:
                return
            errors += found
        yield ValidationError(f"{instance!r:.200} matches no oneOf member", context=errors)

    def validate(self, name: str, instance: Any) -> None:
        schema = {"$ref": f"#/components/schemas/{name}", "components": self.spec["components"]}
        self.cls(schema).validate(instance)


@dataclass
class Event:
    """One SSE event as a client sees it."""

    event: str | None
    data: str

    @property
    def json(self) -> Any:
        return json.loads(self.data)


def parse_sse(text: str) -> list[Event]:
    events: list[Event] = []
    name: str | None = None
    data: list[str] = []
    for line in text.split("\n"):
        if line == "":
            if data:
                events.append(Event(name, "\n".join(data)))
            name, data = None, []
        elif line.startswith(":"):
            continue
        elif line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
    return events


@dataclass
class Stream:
    status: int
    headers: httpx.Headers
    events: list[Event]
    raw: str
    error: Exception | None = None

    def payloads(self) -> list[Any]:
        out = []
        for event in self.events:
            if event.data == "[DONE]":
                continue
            try:
                out.append(json.loads(event.data))
            except ValueError:
                continue
        return out

    def types(self) -> list[str]:
        return [p.get("type", "") for p in self.payloads()]


@dataclass
class Wire:
    """Sends requests with plain httpx and checks every payload against the spec."""

    standin: KimiStandIn
    specs: dict[str, SpecValidator]
    client: httpx.Client
    checked: list[tuple[str, str]] = field(default_factory=list)

    def check(self, fmt: str, name: str, payload: Any) -> None:
        self.specs[fmt].validate(name, payload)
        self.checked.append((fmt, name))

    def headers(self, key: str | None = "test-key", **extra: str) -> dict[str, str]:
        headers = {"anthropic-version": "2023-06-01", **extra}
        if key is not None:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def post(
        self,
        fmt: str,
        body: Any,
        *,
        key: str | None = "test-key",
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        all_headers = {**self.headers(key), **(headers or {})}
        if isinstance(body, bytes):
            response = self.client.post(PATHS[fmt], content=body, headers=all_headers)
        else:
            response = self.client.post(PATHS[fmt], json=body, headers=all_headers)
        if response.headers.get("content-type", "").startswith("application/json"):
            name = RESPONSE_SCHEMA[fmt] if response.status_code == 200 else "ErrorResponse"
            self.check(fmt, name, response.json())
        return response

    def ok(self, fmt: str, body: Any) -> dict[str, Any]:
        response = self.post(fmt, body)
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def error(self, fmt: str, body: Any, status: int = 400, **kwargs: Any) -> dict[str, Any]:
        """The error detail (``error`` object) of a rejected request."""
        response = self.post(fmt, body, **kwargs)
        assert response.status_code == status, response.text
        envelope: dict[str, Any] = response.json()
        if fmt == "messages":
            assert envelope["type"] == "error"
            assert envelope["request_id"].startswith("req_")
        else:
            assert set(envelope["error"]) >= {"message", "type", "code"}
        detail: dict[str, Any] = envelope["error"]
        return detail

    def stream(self, fmt: str, body: dict[str, Any], *, validate: bool = True) -> Stream:
        body = {**body, "stream": True}
        chunks: list[bytes] = []
        error: Exception | None = None
        with self.client.stream("POST", PATHS[fmt], json=body, headers=self.headers()) as response:
            try:
                for chunk in response.iter_raw():
                    chunks.append(chunk)
            except httpx.TransportError as exc:
                error = exc
            status, headers = response.status_code, response.headers
        raw = b"".join(chunks).decode("utf-8", "replace")
        result = Stream(status, headers, parse_sse(raw), raw, error)
        if status == 200 and validate:
            for event in result.events:
                self.check_event(fmt, event)
        return result

    def check_event(self, fmt: str, event: Event) -> None:
        if event.data == "[DONE]":
            return
        try:
            payload = json.loads(event.data)
        except ValueError:
            return  # a deliberately malformed chunk
        if fmt == "chat" and "error" in payload:
            self.check(fmt, "ErrorResponse", payload)
            return
        self.check(fmt, EVENT_SCHEMA[fmt], payload)
        if fmt != "chat":
            assert event.event == payload["type"]


def chat_body(prompt: str = "Hi", **extra: Any) -> dict[str, Any]:
    return {"model": K31, "messages": [{"role": "user", "content": prompt}], **extra}


def messages_body(prompt: str = "Hi", **extra: Any) -> dict[str, Any]:
    return {
        "model": K31,
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": prompt}],
        **extra,
    }


def responses_body(prompt: str = "Hi", **extra: Any) -> dict[str, Any]:
    return {"model": K31, "input": prompt, **extra}


BODY = {"chat": chat_body, "messages": messages_body, "responses": responses_body}


def answer_text(fmt: str, result: dict[str, Any]) -> str:
    """The visible text of a JSON answer."""
    if fmt == "chat":
        return result["choices"][0]["message"]["content"] or ""
    if fmt == "messages":
        return "".join(b["text"] for b in result["content"] if b["type"] == "text")
    return "".join(
        part["text"]
        for item in result["output"]
        if item["type"] == "message"
        for part in item["content"]
    )


def answer_reasoning(fmt: str, result: dict[str, Any]) -> str:
    if fmt == "chat":
        return result["choices"][0]["message"]["reasoning_content"] or ""
    if fmt == "messages":
        return "".join(b["thinking"] for b in result["content"] if b["type"] == "thinking")
    return "".join(
        part["text"]
        for item in result["output"]
        if item["type"] == "reasoning"
        for part in item["content"]
    )


def stream_text(fmt: str, stream: Stream) -> str:
    """The visible text a stream carried, from its deltas."""
    out = []
    for p in stream.payloads():
        if fmt == "chat":
            for choice in p.get("choices", []):
                out.append(choice.get("delta", {}).get("content") or "")
        elif fmt == "messages":
            if p["type"] == "content_block_delta" and p["delta"]["type"] == "text_delta":
                out.append(p["delta"]["text"])
        elif p["type"] == "response.output_text.delta":
            out.append(p["delta"])
    return "".join(out)


def stream_reasoning(fmt: str, stream: Stream) -> str:
    out = []
    for p in stream.payloads():
        if fmt == "chat":
            for choice in p.get("choices", []):
                out.append(choice.get("delta", {}).get("reasoning_content") or "")
        elif fmt == "messages":
            if p["type"] == "content_block_delta" and p["delta"]["type"] == "thinking_delta":
                out.append(p["delta"]["thinking"])
        elif p["type"] == "response.reasoning_text.delta":
            out.append(p["delta"])
    return "".join(out)


def chat_stream_calls(stream: Stream) -> dict[int, dict[str, str]]:
    """Chat tool calls rebuilt from deltas (a delta without index continues the last call)."""
    calls: dict[int, dict[str, str]] = {}
    last = 0
    for p in stream.payloads():
        for choice in p.get("choices", []):
            for piece in choice.get("delta", {}).get("tool_calls") or []:
                index = piece.get("index")
                last = last if index is None else index
                call = calls.setdefault(last, {"id": "", "name": "", "arguments": ""})
                call["id"] = piece.get("id") or call["id"]
                function = piece.get("function") or {}
                call["name"] += function.get("name") or ""
                call["arguments"] += function.get("arguments") or ""
    return calls
