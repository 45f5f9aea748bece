"""Faults the stand-in injects on demand: error statuses, slowness, broken streams.

Queue them with :meth:`KimiStandIn.fault`; each queued entry is used up by the next request
it applies to::

    standin.fault(Fault.rate_limit(retry_after=1))             # next request: 429
    standin.fault(Fault.server_error(), times=2)                 # next two requests: 500
    standin.fault(Fault.cut_stream(after=3))                     # next *streaming* request
    standin.fault(Fault.split_tool_name(), Fault.usage_on_choice())  # both on one request

Status faults (``error``, ``rate_limit``, ``quota``, ``server_error``), ``slow_first_byte``
and ``disconnect`` apply to any request. Stream faults apply only to streaming requests, and
some only to one or two formats (see each constructor); a request skips queued entries that
have no fault for it, leaving them for a later request. A request that takes an entry uses
it up even if the request is then rejected (by auth or validation).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

FaultKind = Literal[
    "error",
    "slow_first_byte",
    "disconnect",
    "cut_stream",
    "cut_mid_event",
    "malformed_chunk",
    "error_event",
    "slow_events",
    "split_tool_name",
    "tool_call_without_index",
    "usage_on_choice",
    "unknown_event",
    "unknown_block",
    "renamed_items",
    "control_characters",
    "cut_tool_call",
    "old_cached_tokens",
    "split_surrogates",
    "hold_open",
    "unknown_delta",
]

ALL_FORMATS: frozenset[str] = frozenset({"chat", "messages", "responses"})


@dataclass(frozen=True)
class Fault:
    """One injected fault. Build it with the class methods, not directly."""

    kind: FaultKind
    stream_only: bool = False
    formats: frozenset[str] = ALL_FORMATS
    status: int = 0
    error_type: dict[str, str] = field(default_factory=dict)
    message: str = ""
    code: str | int | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    after: int = 0
    block_type: str = ""
    null_index: bool = False
    keep_alive: bool = False

    def applies_to(self, fmt: str | None, stream: bool) -> bool:
        """Whether this fault hits a request in ``fmt`` (streamed or not)."""
        if fmt is not None and fmt not in self.formats:
            return False
        return not (self.stream_only and not stream)

    # ---------------------------------------------------------------- status faults

    @classmethod
    def error(
        cls,
        status: int,
        message: str,
        *,
        error_type: str | Mapping[str, str] = "api_error",
        code: str | int | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Fault:
        """Any error status, in the format's own envelope.

        ``error_type`` may be a mapping ``{"chat": ..., "messages": ..., "responses": ...}``
        when the formats name the error differently.
        """
        types = (
            {f: error_type for f in ALL_FORMATS}
            if isinstance(error_type, str)
            else dict(error_type)
        )
        return cls(
            "error",
            status=status,
            error_type=types,
            message=message,
            code=code,
            headers=dict(headers or {}),
        )

    @classmethod
    def rate_limit(
        cls, retry_after: float | None = 1, *, retry_after_ms: int | None = None
    ) -> Fault:
        """429 rate limit with ``Retry-After: <retry_after>`` (a fraction such as ``0.05`` is
        written as is, so tests can stay fast) and optionally ``retry-after-ms``."""
        headers: dict[str, str] = {}
        if retry_after is not None:
            as_int = int(retry_after)
            headers["Retry-After"] = str(as_int) if as_int == retry_after else str(retry_after)
        if retry_after_ms is not None:
            headers["retry-after-ms"] = str(retry_after_ms)
        return cls.error(
            429,
            "Rate limit reached for requests per minute: 500",
            error_type={
                "chat": "rate_limit_reached_error",
                "responses": "rate_limit_reached_error",
                "messages": "rate_limit_error",
            },
            code="rate_limit_exceeded",
            headers=headers,
        )

    @classmethod
    def quota(cls) -> Fault:
        """429 meaning the account is out of quota (``exceeded_current_quota_error``); no
        ``Retry-After``: retrying does not help."""
        return cls.error(
            429,
            "Your account has exceeded its current quota, please check your plan and billing "
            "details",
            error_type="exceeded_current_quota_error",
            code="insufficient_quota",
        )

    @classmethod
    def server_error(cls, status: int = 500) -> Fault:
        """A 5xx server error (queue it once for "500, then success")."""
        return cls.error(
            status,
            "The server had an error while processing your request.",
            error_type={
                "chat": "server_error",
                "responses": "server_error",
                "messages": "api_error",
            },
        )

    @classmethod
    def slow_first_byte(cls, delay: float) -> Fault:
        """Wait ``delay`` seconds before sending anything (then answer normally)."""
        return cls("slow_first_byte", delay=delay)

    @classmethod
    def disconnect(cls) -> Fault:
        """Close the connection without sending a response at all."""
        return cls("disconnect")

    # ---------------------------------------------------------------- stream faults

    @classmethod
    def cut_stream(cls, after: int) -> Fault:
        """Send the first ``after`` SSE events, then close the connection without the terminal
        event (with chunked transfer the terminating chunk is missing too)."""
        return cls("cut_stream", stream_only=True, after=after)

    @classmethod
    def cut_mid_event(cls, after: int) -> Fault:
        """Send ``after`` whole events and the first half of the next one, then close."""
        return cls("cut_mid_event", stream_only=True, after=after)

    @classmethod
    def malformed_chunk(cls, after: int = 1) -> Fault:
        """Insert an event whose ``data:`` line is invalid JSON after ``after`` events; the
        stream then continues normally."""
        return cls("malformed_chunk", stream_only=True, after=after)

    @classmethod
    def error_event(cls, after: int = 2) -> Fault:
        """After ``after`` events send the format's in-stream error and end the stream:
        Messages ``event: error`` (overloaded_error), Responses an ``error`` event, Chat a
        ``data: {"error": ...}`` object (no ``[DONE]``)."""
        return cls("error_event", stream_only=True, after=after)

    @classmethod
    def slow_events(cls, delay: float) -> Fault:
        """Wait ``delay`` seconds before each SSE event."""
        return cls("slow_events", stream_only=True, delay=delay)

    @classmethod
    def split_tool_name(cls) -> Fault:
        """Chat: each tool call's function name arrives split across two deltas."""
        return cls("split_tool_name", stream_only=True, formats=frozenset({"chat"}))

    @classmethod
    def tool_call_without_index(cls, *, null: bool = False) -> Fault:
        """Chat: tool-call deltas after a call's first one carry no ``index`` (or
        ``"index": null`` with ``null=True``)."""
        return cls(
            "tool_call_without_index",
            stream_only=True,
            formats=frozenset({"chat"}),
            null_index=null,
        )

    @classmethod
    def usage_on_choice(cls) -> Fault:
        """Chat: usage arrives in ``choices[0].usage`` of the finish chunk instead of a final
        chunk with empty ``choices``."""
        return cls("usage_on_choice", stream_only=True, formats=frozenset({"chat"}))

    @classmethod
    def unknown_event(cls, name: str = "") -> Fault:
        """An event of a type no client knows, early in the stream (Messages
        ``message_progress``, Responses ``response.progress``; Chat gets an SSE comment line
        and an event-named chunk)."""
        return cls("unknown_event", stream_only=True, block_type=name)

    @classmethod
    def unknown_block(cls, block_type: str = "") -> Fault:
        """A content block / output item of a new type after the reasoning: Messages block
        ``future_block`` (default), Responses item ``future_item``. JSON and streams."""
        return cls(
            "unknown_block", formats=frozenset({"messages", "responses"}), block_type=block_type
        )

    # ------------------------------------------------- quirks of real streams (issue 13)

    @classmethod
    def renamed_items(cls) -> Fault:
        """Responses stream: the reasoning item is streamed under a temporary id
        (``rs_tmp_...``) and listed under its real id in ``response.completed``, as a
        gateway did."""
        return cls("renamed_items", stream_only=True, formats=frozenset({"responses"}))

    @classmethod
    def control_characters(cls) -> Fault:
        """Tool-call arguments with literal control characters inside their JSON strings:
        every ``\\n`` / ``\\t`` / ``\\r`` escape in an argument string is sent as the raw
        character (so the text is not strict JSON), as Kimi has done. JSON and streams; on
        Messages it applies to the streamed ``partial_json``."""
        return cls("control_characters")

    @classmethod
    def cut_tool_call(cls) -> Fault:
        """The last tool call stops halfway through its arguments, as when the output limit
        is reached: Chat ``finish_reason: length``; Messages ``stop_reason: max_tokens`` and
        the tool_use block never gets its ``content_block_stop`` (a non-streamed Messages
        reply leaves the cut call out); Responses ``response.incomplete`` with the
        function_call ``status: incomplete``."""
        return cls("cut_tool_call")

    @classmethod
    def old_cached_tokens(cls) -> Fault:
        """Chat: Moonshot's older usage form, cache reads as a top-level
        ``usage.cached_tokens`` and no ``prompt_tokens_details``; streamed inside
        ``choices[0].usage`` of the finish chunk."""
        return cls("old_cached_tokens", formats=frozenset({"chat"}))

    @classmethod
    def split_surrogates(cls) -> Fault:
        """Streams: each character outside the Basic Multilingual Plane (an emoji) in text,
        reasoning or arguments is split across two deltas, each UTF-16 half escaped on its
        own (``"\\ud83d"`` ends one delta, ``"\\ude00"`` starts the next)."""
        return cls("split_surrogates", stream_only=True)

    @classmethod
    def hold_open(cls, seconds: float, *, keep_alive: bool = False) -> Fault:
        """Streams: after the terminal event keep the body open for ``seconds`` before
        ending it, silently or (``keep_alive=True``) writing an SSE comment every 50 ms."""
        return cls("hold_open", stream_only=True, delay=seconds, keep_alive=keep_alive)

    @classmethod
    def unknown_delta(cls, name: str = "") -> Fault:
        """Messages stream: two deltas of a type no client knows (default ``note_delta``,
        ``{"type": "note_delta", "note": "..."}``) inside the text block (the thinking block
        when there is no text)."""
        return cls(
            "unknown_delta", stream_only=True, formats=frozenset({"messages"}), block_type=name
        )


@dataclass
class FaultPlan:
    """The faults one request took (at most one queued entry)."""

    faults: tuple[Fault, ...] = ()

    def add(self, faults: tuple[Fault, ...]) -> None:
        """Add the faults of the rule that answers the request."""
        self.faults += faults

    def first(self, kind: str) -> Fault | None:
        return next((f for f in self.faults if f.kind == kind), None)

    def has(self, kind: str) -> bool:
        return self.first(kind) is not None
