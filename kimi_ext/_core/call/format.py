"""What makes one wire format itself: :class:`Format`, one instance per format.

Everything that differs between Chat Completions, Messages and Responses is a field or a
property of its Format (``kimi_ext.chat.format.CHAT`` and its two siblings). A Format
declares only what is hand-written code: the result, history and stream types, how a tool
and a structured-output schema are spelled, how an answer is continued. Wire facts come
from the format's spec, through its contract: the method, path and headers, where the
history, its instructions, the output limit and the effort go, what ends a stream, whether
custom tools exist and the client path. Every stream gives its whole result by ``final()``.
The core and the cross-format features read these; none of them asks which format it is
by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from kimi_ext._core.contract import Contract, contract
from kimi_ext._core.model.result import Result, ToolCall
from kimi_ext.errors import RequestValidationError

if TYPE_CHECKING:
    from kimi_ext._core.model.history import History
    from kimi_ext._core.streaming.stream import AsyncStream, SyncStream

__all__ = ["Continuation", "Format", "set_within", "tool_declaration"]

ResultT = TypeVar("ResultT", bound=Result)
StreamT = TypeVar("StreamT", bound="SyncStream[Any]")
AsyncStreamT = TypeVar("AsyncStreamT", bound="AsyncStream[Any]")


@dataclass(frozen=True)
class Continuation:
    """How a format continues an answer from a prefix (Chat's partial mode, Messages'
    assistant prefill): the request to send and the result type that joins the two."""

    request: Callable[[str, dict[str, Any]], tuple[str, dict[str, Any]]]
    """(the prefix actually sent, the request) for a prefix and the original params."""
    joined: Callable[[str, Any, Any], Result]
    """The result whose text is the prefix followed by the continuation, from (the prefix
    sent, the continuation, the partial result resumed or None): it keeps the partial's
    reasoning before the continuation's."""


@dataclass(frozen=True, eq=False)
class Format(Generic[ResultT, StreamT, AsyncStreamT]):
    """One wire format. Compared by identity: there are exactly three."""

    name: str
    """The format's name: ``chat``, ``messages`` or ``responses`` (its spec's file name)."""
    result_type: type[ResultT]
    history_type: type[History]
    tool_definition: Callable[[str, str, dict[str, Any]], dict[str, Any]]
    """A function tool's definition from its name, description and JSON Schema."""
    place_schema: Callable[[dict[str, Any], dict[str, Any], str], dict[str, Any]]
    """``params`` with a structured-output schema (and its name) in the format's field."""
    streams: Callable[[], tuple[type[StreamT], type[AsyncStreamT]]]
    """The (sync, async) stream classes. A function, called on the first stream, because
    the format's ``stream`` module pulls in the whole streaming machinery: a program that
    never streams does not import it."""
    stream_defaults: Mapping[str, Any] = field(default_factory=dict)
    """Fields added to a streamed request unless given (Chat: usage in the last chunk)."""
    web_search_names: tuple[str, ...] = ()
    """The function names a request may declare the builtin web search under (Chat)."""
    web_search_echo: Callable[[ToolCall, frozenset[str]], dict[str, Any] | None] | None = None
    """For a format whose client answers builtin web-search calls itself (Chat): the
    message answering ``call``, or None when it is not such a call."""
    continuation: Continuation | None = None
    """How to continue an answer, for the formats that can."""
    neutral_messages: Callable[[Any], list[dict[str, Any]]] = lambda history: []
    """A request's history (the value of its history field) as neutral messages
    (:mod:`kimi_ext._core.model.parts`: text, tool calls and tool answers alike in every
    format), for telemetry's ``gen_ai.input.messages``."""

    def __repr__(self) -> str:
        return f"<Format {self.name}>"

    @property
    def contract(self) -> Contract:
        """The format's request contract (derived from its spec by ``make generate``)."""
        return contract(self.name)

    # Wire facts, read from the spec (its x-kimi-* extensions) once, on first use.

    @cached_property
    def history_field(self) -> str:
        """The body field that carries the conversation (``messages`` or ``input``)."""
        return contract(self.name).history_field

    @cached_property
    def system_field(self) -> str | None:
        """Where instructions kept by a history object go (``system``, ``instructions``;
        None for Chat, whose system prompt is a message)."""
        return contract(self.name).system_field

    @cached_property
    def output_limit_field(self) -> str:
        """The body field that caps output tokens (``max_tokens``, ``max_output_tokens`` ...)."""
        return contract(self.name).output_limit_field

    @cached_property
    def terminal_events(self) -> frozenset[str]:
        """The events after which a stream is complete (Chat: its ``data: [DONE]``)."""
        return contract(self.name).terminal_events

    @cached_property
    def custom_tools(self) -> bool:
        """Whether free-form (``type: custom``) tools exist in this format."""
        return "custom" in contract(self.name).tool_types

    @property
    def effort_path(self) -> tuple[str, ...]:
        """Where this format puts reasoning effort (from the spec's ``x-kimi-effort``)."""
        return contract(self.name).effort.path

    @property
    def client_path(self) -> tuple[str, ...]:
        """Where the resource hangs on a client: its URL path below ``/v1/``
        (``/v1/chat/completions``: ``("chat", "completions")``, as in the official SDKs)."""
        return tuple(contract(self.name).path.removeprefix("/v1/").split("/"))

    def load_stream(self) -> type[StreamT]:
        """The sync stream class (``MessageStream``), imported on first use."""
        return self._streams[0]

    def load_async_stream(self) -> type[AsyncStreamT]:
        """The async stream class (``AsyncMessageStream``), imported on first use."""
        return self._streams[1]

    @cached_property
    def _streams(self) -> tuple[type[StreamT], type[AsyncStreamT]]:
        # Asked once per format, on the first stream (not on every stream() call).
        return self.streams()

    @cached_property
    def route(self) -> tuple[str, str, dict[str, str]]:
        """(method, path, format headers) from the spec's one operation, as derived into
        the contract (its header parameters with their defaults: Messages'
        ``anthropic-version``). Read once; the caller copies the headers before adding its
        own."""
        rules = contract(self.name)
        headers = {str(name): str(value) for name, value in rules.headers.items()}
        return rules.method.upper(), rules.path, headers

    def resource_of(self, client: Any) -> Any:
        """This format's resource on ``client`` (``client.chat.completions`` ...)."""
        resource = client
        for name in self.client_path:
            resource = getattr(resource, name)
        return resource


def tool_declaration(
    name: str, description: str, schema_field: str, schema: dict[str, Any], **fixed: Any
) -> dict[str, Any]:
    """A tool's declaration as the formats spell it: ``fixed`` fields, the name, the
    description when there is one, and the JSON Schema under ``schema_field``."""
    out: dict[str, Any] = {**fixed, "name": name}
    if description:
        out["description"] = description
    out[schema_field] = schema
    return out


def set_within(params: dict[str, Any], outer: str, key: str, value: Any) -> dict[str, Any]:
    """``params`` with ``value`` under ``params[outer][key]``, the other fields of ``outer``
    kept (a copy of it: the caller's nested dict is not changed). RequestValidationError
    when ``params[outer]`` is there and not a dict (nothing can be put in it)."""
    current = params.get(outer)
    if current is not None and not isinstance(current, Mapping):
        raise RequestValidationError(outer, current, f"must be an object (to hold {key})")
    nested = dict(current or {})
    nested[key] = value
    params[outer] = nested
    return params
