"""Where a response is parsed: thin typed views over the JSON received.

A result keeps the decoded JSON exactly as it arrived (``to_dict()`` returns it, unknown
fields and block types included) and offers typed accessors for what applications use.
The full generated model (``kimi_raw``) is built only when ``.parsed`` is read, so a call
pays for the typing it uses, not more.

    result = client.messages.create(...)
    result.text, result.reasoning, result.tool_calls, result.stop_reason, result.usage
    result.parsed          # kimi_raw.messages.models.MessageResponse
    result.request_id      # from the response headers
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

import httpx

from .errors import KimiError, request_id_of
from .usage import Usage, usage_from


@dataclass(frozen=True)
class ToolCall:
    """A tool call the model asked for, in any format.

    ``id`` is sent back unchanged with the result; ``arguments`` is the JSON text as
    received (Messages: the ``input`` object serialized); ``input`` is the decoded value.
    """

    id: str
    name: str
    arguments: str
    type: str = "function"
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def input(self) -> Any:
        """The decoded arguments. Raises ValueError when the model sent invalid JSON."""
        if "input" in self.raw and isinstance(self.raw.get("input"), dict):
            return self.raw["input"]
        return json.loads(self.arguments) if self.arguments.strip() else {}


class Result:
    """Common base: the received JSON, the HTTP response and normalized usage."""

    format: ClassVar[str] = ""
    _model_path: ClassVar[tuple[str, str]] = ("", "")
    __slots__ = ("_data", "_parsed", "_response")

    def __init__(self, data: dict[str, Any], response: httpx.Response | None = None) -> None:
        self._data = data
        self._response = response
        self._parsed: Any = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON received, unchanged (unknown fields included). Do not mutate it."""
        return self._data

    @property
    def http_response(self) -> httpx.Response | None:
        """The HTTP response this result came from (None for a rebuilt result)."""
        return self._response

    @property
    def headers(self) -> httpx.Headers:
        """The HTTP response headers (empty when built from a dict)."""
        return self._response.headers if self._response is not None else httpx.Headers()

    @property
    def request_id(self) -> str | None:
        """The gateway's request id (body ``request_id`` or a request-id header)."""
        rid = self._data.get("request_id")
        if isinstance(rid, str):
            return rid
        return request_id_of(self.headers)

    @property
    def id(self) -> str | None:
        """The result's ``id``, when it has one."""
        value = self._data.get("id")
        return value if isinstance(value, str) else None

    @property
    def model(self) -> str | None:
        """The model that answered, as the service reported it."""
        value = self._data.get("model")
        return value if isinstance(value, str) else None

    @property
    def usage(self) -> Usage:
        """Normalized token usage (see :class:`kimi_ext.Usage`)."""
        usage = self._data.get("usage")
        if not isinstance(usage, dict):
            usage = self._fallback_usage()
        return usage_from(self.format, usage) if isinstance(usage, dict) else Usage()

    def _fallback_usage(self) -> Any:
        return None

    @property
    def parsed(self) -> Any:
        """The generated ``kimi_raw`` model of this result, built on first use."""
        if self._parsed is None:
            module, name = self._model_path
            cls = getattr(importlib.import_module(module), name)
            try:
                self._parsed = cls.from_dict(self._data)
            except (KeyError, TypeError, ValueError) as exc:
                # The JSON stays available through to_dict(); only the typed view failed.
                raise KimiError(
                    f"{type(self).__name__}.parsed: the response does not match the "
                    f"{name} schema ({type(exc).__name__}: {exc}); to_dict() has the JSON as received"
                ) from exc
        return self._parsed

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Result) and type(other) is type(self) and other._data == self._data

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(id={self.id!r}, model={self.model!r}, text={_clip(self.text)!r})"

    @property
    def text(self) -> str:
        """The visible answer."""
        raise NotImplementedError

    @property
    def reasoning(self) -> str:
        """The reasoning text ("" when the format or model sent none)."""
        raise NotImplementedError

    @property
    def tool_calls(self) -> list[ToolCall]:
        """The tool calls the model asked for, in order."""
        raise NotImplementedError


class ChatCompletion(Result):
    """A Chat Completions result (``create()`` or a finished stream)."""

    format = "chat"
    _model_path = ("kimi_raw.chat.models", "ChatCompletion")
    __slots__ = ()

    @property
    def choices(self) -> list[dict[str, Any]]:
        """The ``choices`` as received (an empty list when missing)."""
        choices = self._data.get("choices")
        return choices if isinstance(choices, list) else []

    @property
    def message(self) -> dict[str, Any]:
        """The first choice's message (the assistant turn to keep in history)."""
        choices = self.choices
        if choices and isinstance(choices[0], dict):
            message = choices[0].get("message")
            if isinstance(message, dict):
                return message
        return {}

    @property
    def text(self) -> str:
        content = self.message.get("content")
        return content if isinstance(content, str) else ""

    @property
    def reasoning(self) -> str:
        value = self.message.get("reasoning_content")
        return value if isinstance(value, str) else ""

    @property
    def tool_calls(self) -> list[ToolCall]:
        calls = self.message.get("tool_calls")
        if not isinstance(calls, list):
            return []
        out = []
        for call in calls:
            if not isinstance(call, dict):
                continue
            fn = call.get("function")
            fn = fn if isinstance(fn, dict) else {}
            out.append(
                ToolCall(
                    id=str(call.get("id", "")),
                    name=str(fn.get("name", "")),
                    arguments=str(fn.get("arguments", "")),
                    type=str(call.get("type", "function")),
                    raw=call,
                )
            )
        return out

    @property
    def finish_reason(self) -> str | None:
        """The first choice's ``finish_reason`` (``stop``, ``length``, ``tool_calls``...)."""
        choices = self.choices
        if choices and isinstance(choices[0], dict):
            reason = choices[0].get("finish_reason")
            return reason if isinstance(reason, str) else None
        return None

    def _fallback_usage(self) -> Any:
        choices = self.choices
        return choices[0].get("usage") if choices and isinstance(choices[0], dict) else None


class Message(Result):
    """A Messages result (``create()`` or a finished stream)."""

    format = "messages"
    _model_path = ("kimi_raw.messages.models", "MessageResponse")
    __slots__ = ()

    @property
    def content(self) -> list[dict[str, Any]]:
        """The content blocks as received, unknown block types included."""
        content = self._data.get("content")
        return content if isinstance(content, list) else []

    @property
    def role(self) -> str:
        """The message's role (``assistant``)."""
        return str(self._data.get("role", "assistant"))

    @property
    def text(self) -> str:
        return _joined(self.content, "text", "text")

    @property
    def reasoning(self) -> str:
        return _joined(self.content, "thinking", "thinking")

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [
            ToolCall(
                id=str(b.get("id", "")),
                name=str(b.get("name", "")),
                arguments=json.dumps(b.get("input", {}), ensure_ascii=False),
                type="tool_use",
                raw=b,
            )
            for b in self.content
            if isinstance(b, dict) and b.get("type") == "tool_use"
        ]

    @property
    def stop_reason(self) -> str | None:
        """Why generation stopped (``end_turn``, ``max_tokens``, ``tool_use``...)."""
        value = self._data.get("stop_reason")
        return value if isinstance(value, str) else None

    @property
    def stop_sequence(self) -> str | None:
        """The stop sequence that ended generation, when the service reports one."""
        value = self._data.get("stop_sequence")
        return value if isinstance(value, str) else None


class Response(Result):
    """A Responses result (``create()`` or a finished stream)."""

    format = "responses"
    _model_path = ("kimi_raw.responses.models", "ResponseObject")
    __slots__ = ()

    @property
    def output(self) -> list[dict[str, Any]]:
        """The output items as received, unknown item types included."""
        output = self._data.get("output")
        return output if isinstance(output, list) else []

    @property
    def text(self) -> str:
        return "".join(
            _joined(item.get("content"), "output_text", "text")
            for item in self.output
            if isinstance(item, dict) and item.get("type") == "message"
        )

    output_text = text

    @property
    def reasoning(self) -> str:
        parts: list[str] = []
        for item in self.output:
            if not isinstance(item, dict) or item.get("type") != "reasoning":
                continue
            content = _list(item.get("content")) or _list(item.get("summary"))
            parts.extend(p["text"] for p in content if isinstance(p, dict) and _is_str(p, "text"))
        return "".join(parts)

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [
            ToolCall(
                id=str(item.get("call_id", "")),
                name=str(item.get("name", "")),
                arguments=str(item.get("arguments", item.get("input", ""))),
                type=str(item.get("type")),
                raw=item,
            )
            for item in self.output
            if isinstance(item, dict) and item.get("type") in ("function_call", "custom_tool_call")
        ]

    @property
    def status(self) -> str | None:
        """The response status (``completed``, ``incomplete``, ``failed``...)."""
        value = self._data.get("status")
        return value if isinstance(value, str) else None

    @property
    def incomplete_reason(self) -> str | None:
        """Why an incomplete response stopped (``incomplete_details.reason``)."""
        details = self._data.get("incomplete_details")
        return details.get("reason") if isinstance(details, dict) else None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _is_str(obj: dict[str, Any], key: str) -> bool:
    return isinstance(obj.get(key), str)


def _joined(blocks: Any, kind: str, key: str) -> str:
    """The ``key`` texts of the blocks of type ``kind``, joined (anything else skipped)."""
    return "".join(
        b[key]
        for b in _list(blocks)
        if isinstance(b, dict) and b.get("type") == kind and _is_str(b, key)
    )


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
