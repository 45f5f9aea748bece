"""What every result shares: the received JSON, typed accessors, and tool calls.

Each format's result class (``kimi_ext.chat.result`` ...) builds on :class:`Result`.

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
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeAlias, TypeVar, overload

import httpx

from kimi_ext._core.model.usage import Usage
from kimi_ext.errors import InvalidToolCallError, KimiError

# Kimi has emitted literal newlines and tabs inside the JSON strings of tool-call
# arguments: they are read as the model meant them (lenient about control characters only).
_LENIENT = json.JSONDecoder(strict=False)
_CONTROL = re.compile(r"[\x00-\x1f]")
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


def parse_arguments(text: str) -> Any:
    """Decode tool-call arguments: JSON, with raw control characters allowed inside strings.

    Raises ValueError for anything else that is not valid JSON.
    """
    return _LENIENT.decode(text)


def _escape_match(match: re.Match[str]) -> str:
    return _CONTROL.sub(lambda c: _ESCAPES.get(c[0], f"\\u{ord(c[0]):04x}"), match[0])


def replayable_arguments(text: str) -> str | None:
    """The arguments as they can be sent back: ``text`` itself when it is valid JSON, the
    same text with the control characters inside its strings escaped (every other byte
    unchanged) when only those made it invalid, None when it is not JSON at all (a call cut
    by the output limit, or malformed)."""
    try:
        json.loads(text)
        return text
    except ValueError:
        pass
    if not _CONTROL.search(text):
        return None
    fixed = _JSON_STRING.sub(_escape_match, text)
    try:
        json.loads(fixed)
    except ValueError:
        return None
    return fixed


@dataclass(frozen=True)
class ToolCall:
    """A tool call the model asked for, in any format.

    ``id`` is sent back unchanged with the result; ``arguments`` is the JSON text as
    received (Messages: the ``input`` object serialized, or the partial JSON of a block
    that never finished); ``input`` is the decoded value. ``truncated`` is True when the
    output limit cut the call before its arguments were complete: such a call must not run.
    ``decoded`` is the arguments object when the format sent it decoded (Messages'
    ``input``); ``free_form`` marks a call whose input is plain text, not JSON (Responses'
    custom tools). The format's result sets both; nothing else asks which format it is.
    """

    id: str
    name: str
    arguments: str
    type: str = "function"
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    truncated: bool = field(default=False, compare=False)
    decoded: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    free_form: bool = field(default=False, compare=False)

    @property
    def input(self) -> Any:
        """The decoded arguments (raw control characters inside strings are accepted).

        Raises :class:`~kimi_ext.InvalidToolCallError` (a ValueError) when the call was cut
        by the output limit or its arguments are not valid JSON.
        """
        if self.truncated:
            raise self.error()
        if self.decoded is not None:
            return self.decoded
        if not self.arguments.strip():
            return {}
        try:
            return parse_arguments(self.arguments)
        except ValueError as exc:
            raise self.error(exc) from exc

    def error(self, cause: Exception | None = None) -> InvalidToolCallError:
        """The error that says why this call cannot be used (see :attr:`input`)."""
        if self.truncated:
            problem = (
                "was cut by the output limit before its arguments were complete; it must not "
                "run (raise the output limit and ask again; .arguments keeps the partial JSON)"
            )
        else:
            if cause is None:
                try:
                    parse_arguments(self.arguments)
                except ValueError as exc:
                    cause = exc
            problem = f"has arguments that are not valid JSON ({cause})"
        return InvalidToolCallError(
            f"tool call {self.id!r} ({self.name}) {problem}: {self.arguments[:200]!r}",
            call_id=self.id,
            name=self.name,
            arguments=self.arguments,
            truncated=self.truncated,
        )

    @property
    def payload(self) -> Any:
        """What a tool is run with: the decoded object when the format sent one, the text
        of a free-form call, else the arguments' JSON text (decoded by the runner)."""
        return self.decoded if self.decoded is not None else self.arguments

    @property
    def usable(self) -> bool:
        """Whether :attr:`input` decodes (the call is complete and its arguments are JSON)."""
        try:
            _ = self.input
        except ValueError:
            return False
        return True


def unfinished_arguments(text: str) -> bool:
    """Arguments of a call the output limit may have cut: empty (Kimi sends ``{}`` for no
    arguments) or not JSON."""
    if not text.strip():
        return True
    try:
        parse_arguments(text)
    except ValueError:
        return True
    return False


ValueT = TypeVar("ValueT")
DefaultT = TypeVar("DefaultT")
ItemT = TypeVar("ItemT")


class Field(Generic[ValueT, DefaultT]):
    """A read-only result accessor: the top-level JSON field of the attribute's name when
    it has the expected type, else a default (what every format's ``id``, ``model``,
    ``stop_reason``, ``content``... does; see :func:`str_field`, :func:`list_field`)."""

    def __init__(self, kind: type[ValueT], missing: Callable[[], DefaultT], doc: str) -> None:
        self.kind = kind
        self.missing = missing
        self.key = ""
        self.__doc__ = doc

    def __set_name__(self, owner: type, name: str) -> None:
        self.key = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Self: ...
    @overload
    def __get__(self, obj: Result, owner: type | None = None) -> ValueT | DefaultT: ...
    def __get__(self, obj: Result | None, owner: type | None = None) -> ValueT | DefaultT | Self:
        if obj is None:
            return self
        value: Any = obj._data.get(self.key)
        return value if isinstance(value, self.kind) else self.missing()

    def __set__(self, obj: Result, value: Any) -> None:
        # A data descriptor, read-only like a property (help() lists it with the properties).
        raise AttributeError(f"{type(obj).__name__}.{self.key} is read-only")


def str_field(doc: str) -> Field[str, None]:
    """A top-level string field: the value when it is a string, else None."""
    return Field(str, lambda: None, doc)


ListField: TypeAlias = Field[list[ItemT], list[ItemT]]
"""A :func:`list_field` whose items a type checker sees as ``ItemT`` (a format's view of
its blocks, items or choices, from ``kimi_raw.<format>.typeddicts``)."""


def list_field(doc: str) -> ListField[ItemT]:
    """A top-level list field (blocks, items, choices as received): else an empty list.

    The list is the one received (nothing copied or checked item by item); the class
    annotates the attribute with its items' view, for type checkers only::

        content: ListField[ContentBlock] = list_field("The content blocks as received.")
    """
    return Field(list, list, doc)


class Result:
    """Common base: the received JSON, the HTTP response and normalized usage."""

    format: ClassVar[str] = ""
    _model_path: ClassVar[tuple[str, str]] = ("", "")
    __slots__ = ("_data", "_parsed", "_response")

    def __init_subclass__(
        cls, format: str | None = None, model: str | None = None, **kwargs: Any
    ) -> None:
        """A format's result class names its format and its generated model once, as class
        keywords (``class Message(Result, format="messages", model="MessageResponse")``);
        the model is looked up in ``kimi_raw.<format>.models``."""
        super().__init_subclass__(**kwargs)
        if format is not None:
            cls.format = format
        if model is not None:
            cls._model_path = (f"kimi_raw.{cls.format}.models", model)

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

    id = str_field("The result's ``id``, when it has one.")
    model = str_field("The model that answered, as the service reported it.")

    @property
    def usage(self) -> Usage:
        """Normalized token usage (see :class:`kimi_ext.Usage`)."""
        usage = self._data.get("usage")
        if not isinstance(usage, dict):
            usage = self._fallback_usage()
        return self._read_usage(usage) if isinstance(usage, dict) else Usage()

    def _read_usage(self, usage: dict[str, Any]) -> Usage:
        """This format's ``usage`` object, normalized (each format counts differently)."""
        raise NotImplementedError

    def _fallback_usage(self) -> Any:
        return None

    @property
    def parsed(self) -> Any:
        """The generated ``kimi_raw`` model of this result, built on first use."""
        if self._parsed is None:
            module, name = self._model_path
            # By name: kimi_raw (generated) is outside import-linter's root, and big.
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
        return (
            f"{type(self).__name__}(id={self.id!r}, model={self.model!r}, text={clip(self.text)!r})"
        )

    def _cut_by_output_limit(self) -> bool:
        """Whether generation stopped at the output-token limit (the answer is cut)."""
        return False

    @property
    def finish_reasons(self) -> list[str]:
        """Why generation stopped, one reason per generation, as the service said it
        (empty while a stream has not said it yet)."""
        return []

    def _paused(self) -> bool:
        """Whether the server paused the turn for the client to send it again (Messages'
        ``pause_turn`` during long server-tool work)."""
        return False

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


def list_of(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def is_str(obj: dict[str, Any], key: str) -> bool:
    return isinstance(obj.get(key), str)


def joined(blocks: Any, kind: str, key: str) -> str:
    """The ``key`` texts of the blocks of type ``kind``, joined (anything else skipped)."""
    return "".join(
        b[key]
        for b in list_of(blocks)
        if isinstance(b, dict) and b.get("type") == kind and is_str(b, key)
    )


def clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def request_id_of(headers: Mapping[str, str]) -> str | None:
    """The request id the gateways put in response headers, if any."""
    # x-trace-id: Moonshot's own header, used when no request-id header came.
    for name in (
        "x-request-id",
        "request-id",
        "x-kimi-request-id",
        "x-oneapi-request-id",
        "x-trace-id",
    ):
        value = headers.get(name)
        if value:
            return value
    return None
