"""Messages streaming: Anthropic-style events in, a :class:`~kimi_ext.Message` out.

    with client.messages.stream(...) as stream:
        for text in stream.text_stream:
            print(text, end="")
        message = stream.final()

How events are assembled:

* ``message_start`` gives the message (id, model, usage...); ``message_delta`` sets
  ``stop_reason``, ``stop_sequence`` (and any other delta field) and its ``usage`` is
  merged over the start usage (non-null values win); ``message_stop`` ends the stream.
  Any other end raises IncompleteStreamError, even after a ``message_delta`` that set the
  ``stop_reason`` (unlike Chat's finish_reason without ``[DONE]``, no gateway is known to
  leave ``message_stop`` out); such a ``partial`` holds the finished answer, which
  :func:`kimi_ext.resume` returns as it is, without a request.
* Content blocks are kept per ``index`` in the order they started. ``text_delta``,
  ``thinking_delta`` and ``signature_delta`` fragments are joined into ``text``,
  ``thinking`` and ``signature``; ``citations_delta`` citations are appended to
  ``citations``. A thinking block without a signature is kept as it came.
* ``input_json_delta`` fragments are joined and decoded once, at ``content_block_stop``,
  into ``input`` (raw control characters inside strings are accepted, as Kimi has sent
  them). If the joined text is not valid JSON (a call cut at ``max_tokens`` never gets its
  ``content_block_stop`` and stops mid-JSON) the block keeps its start ``input`` and the
  text is kept under ``"partial_json"``, so nothing is lost; its :class:`ToolCall` is then
  ``truncated`` and ``.input`` raises.
* A delta of an unknown type (a new ``*_delta``) inside a block is merged into that block:
  its string fields are appended to the block's field of the same name, list fields
  extended, anything else replaced (``{"type": "x_delta", "note": "a"}`` twice gives
  ``"note": "aa"``).
* Blocks of unknown types (and ``server_tool_use``, ``web_search_tool_result``...) are
  kept verbatim from ``content_block_start`` plus whatever deltas they received; unknown
  event types are only yielded as events.
* ``ping`` is ignored; an ``error`` event raises the matching
  :class:`~kimi_ext.errors.APIStatusError` (``overloaded_error`` ->
  :class:`~kimi_ext.errors.InternalServerError`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kimi_ext._core.model.result import parse_arguments
from kimi_ext._core.streaming import stream as streaming
from kimi_ext._core.streaming.stream import TEXT_BATCH, TextBuffer
from kimi_ext.messages.events import MODELS, TERMINAL
from kimi_ext.messages.result import Message

if TYPE_CHECKING:  # the views are for type checkers: nothing imports them at run time
    from collections.abc import AsyncIterator, Iterator

    from kimi_raw.messages.typeddicts import MessageStreamEvent

__all__ = ["AsyncMessageStream", "MessageAccumulator", "MessageStream", "MessagesStreamEvent"]

# The block a delta implies when its content_block_start never came.
_IMPLIED_BLOCK: dict[str, dict[str, Any]] = {
    "text_delta": {"type": "text", "text": ""},
    "thinking_delta": {"type": "thinking", "thinking": ""},
    "signature_delta": {"type": "thinking", "thinking": ""},
    "input_json_delta": {"type": "tool_use", "input": {}},
    "citations_delta": {"type": "text", "text": ""},
}


class MessagesStreamEvent(streaming.StreamEvent):
    """A Messages stream event: ``type`` is the JSON ``type`` (``content_block_delta``...).

    ``data`` is the JSON object received, typed as the spec's ``MessageStreamEvent``
    (``kimi_raw.messages.typeddicts``); the text received for a ``"malformed"`` event.
    """

    __slots__ = ()
    _module = "kimi_raw.messages.models"
    _models = MODELS

    data: MessageStreamEvent | str  # the base's slot, typed for this format


class _Block:
    __slots__ = ("base", "citations", "extra", "final", "json", "signature", "text", "thinking")

    def __init__(self, base: dict[str, Any]) -> None:
        self.base = base
        self.extra: dict[str, list[Any]] = {}  # fields of unknown delta types, as they came
        self.text = TextBuffer()
        self.thinking = TextBuffer()
        self.signature: list[str] = []
        self.json = TextBuffer()
        self.citations: list[Any] = []
        self.final: dict[str, Any] | None = None

    def build(self, stopped: bool = True) -> dict[str, Any]:
        out = dict(self.base)
        if self.text:
            out["text"] = self.text.join_after(out.get("text"))
        if self.thinking:
            out["thinking"] = self.thinking.join_after(out.get("thinking"))
        if self.signature:
            out["signature"] = _str(out.get("signature")) + "".join(self.signature)
        if self.citations:
            previous = out.get("citations")
            out["citations"] = (list(previous) if isinstance(previous, list) else []) + (
                self.citations
            )
        raw = self.json.join() if self.json else ""
        if raw.strip():
            try:
                out["input"] = parse_arguments(raw)
            except ValueError:
                out["partial_json"] = raw
        elif not stopped and out.get("type") == "tool_use":
            out["partial_json"] = raw  # no content_block_stop and no input yet: unfinished
        for key, values in self.extra.items():
            out[key] = _merged(out.get(key), values)
        return out

    def merge_unknown(self, delta: dict[str, Any]) -> None:
        """Keep what a delta of an unknown type carries (see the module docstring)."""
        for key, value in delta.items():
            if key != "type" and value is not None:
                self.extra.setdefault(key, []).append(value)


def _merged(previous: Any, values: list[Any]) -> Any:
    if all(type(v) is str for v in values):
        return (previous if isinstance(previous, str) else "") + "".join(values)
    if all(type(v) is list for v in values):
        start = list(previous) if isinstance(previous, list) else []
        return start + [x for v in values for x in v]
    return values[-1]


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


class MessageAccumulator(streaming.Accumulator[Message]):
    """Assembles Messages events into the dict a non-streaming ``create()`` returns."""

    result_type = Message
    event_type = MessagesStreamEvent
    terminal_name = " or ".join(sorted(TERMINAL))

    def __init__(self) -> None:
        super().__init__()
        self._message: dict[str, Any] = {}
        self._blocks: dict[Any, _Block] = {}
        self._delta: dict[str, Any] = {}
        self._usage: dict[str, Any] = {}

    def feed(self, event: str | None, data: dict[str, Any]) -> str:
        kind = data.get("type")
        # optimization: the hot path (content_block_delta) first, its text and thinking
        # deltas inlined.
        if kind == "content_block_delta":
            delta = data.get("delta")
            if type(delta) is not dict:
                return "content_block_delta"
            dtype = delta.get("type")
            block = self._blocks.get(data.get("index"))
            if block is None:
                block = self._implied_block(data.get("index"), dtype)
                if block is None:
                    return "content_block_delta"
            if dtype == "text_delta" or dtype == "thinking_delta":
                thinking = dtype == "thinking_delta"
                text = delta.get("thinking" if thinking else "text")
                if type(text) is str:
                    buffer = block.thinking if thinking else block.text
                    pieces = buffer.tail  # optimization: TextBuffer.add, inlined
                    pieces.append(text)
                    if len(pieces) >= TEXT_BATCH:
                        buffer.fold()
                    if self.readers:
                        self.fragment("reasoning" if thinking else "text", text)
            elif dtype == "input_json_delta":
                text = delta.get("partial_json")
                if type(text) is str:
                    block.json.add(text)
            elif dtype == "signature_delta":
                text = delta.get("signature")
                if type(text) is str:
                    block.signature.append(text)
            elif dtype == "citations_delta":
                citation = delta.get("citation")
                if citation is not None:
                    block.citations.append(citation)
            else:
                block.merge_unknown(delta)
            return "content_block_delta"
        if not kind or type(kind) is not str:
            kind = event or "unknown"
        if kind == "content_block_start":
            start = data.get("content_block")
            if type(start) is dict:
                self._blocks[data.get("index")] = _Block(start)
        elif kind == "content_block_stop":
            block = self._blocks.get(data.get("index"))
            if block is not None and block.final is None:
                block.final = block.build()
        elif kind == "message_start":
            message = data.get("message")
            if type(message) is dict:
                self._message = message
                usage = message.get("usage")
                if type(usage) is dict:
                    self._usage = dict(usage)
                content = message.get("content")
                if isinstance(content, list):
                    for i, block_data in enumerate(content):
                        if type(block_data) is dict and i not in self._blocks:
                            self._blocks[i] = _Block(block_data)
                            self._blocks[i].final = block_data
        elif kind == "message_delta":
            delta = data.get("delta")
            if type(delta) is dict:
                self._delta.update(delta)
            usage = data.get("usage")
            if type(usage) is dict:
                for key, value in usage.items():
                    if value is not None or key not in self._usage:
                        self._usage[key] = value
        elif kind in TERMINAL:
            self.terminal = True  # rule: Messages' terminal event
        elif kind == "error" or event == "error":
            raise streaming.ErrorEventReceived(data)
        return kind

    def _implied_block(self, index: Any, dtype: Any) -> _Block | None:
        """The block a delta implies when its content_block_start never came."""
        implied = _IMPLIED_BLOCK.get(dtype) if type(dtype) is str else None
        if implied is None:
            return None
        block = _Block({k: dict(v) if isinstance(v, dict) else v for k, v in implied.items()})
        self._blocks[index] = block
        return block

    def snapshot(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "message", "role": "assistant"}
        out.update(self._message)
        out["content"] = [
            block.final if block.final is not None else block.build(stopped=False)
            for block in self._blocks.values()
        ]
        out.setdefault("stop_reason", None)
        out.setdefault("stop_sequence", None)
        out.update(self._delta)
        out["usage"] = dict(self._usage)
        return out


# twin: AsyncMessageStream
class MessageStream(streaming.SyncStream[Message], accumulator=MessageAccumulator):
    """A Messages stream; ``final()`` reads it all and gives the whole message (``get_final_message()`` is its old name)."""

    get_final_message = streaming.SyncStream.final  # the old name of final(), kept

    if TYPE_CHECKING:  # the base yields these already; this names their type

        def __iter__(self) -> Iterator[MessagesStreamEvent]: ...
        def __next__(self) -> MessagesStreamEvent: ...


# twin: MessageStream
class AsyncMessageStream(streaming.AsyncStream[Message], accumulator=MessageAccumulator):
    """The ``async`` twin of :class:`MessageStream`."""

    get_final_message = streaming.AsyncStream.final  # the old name of final(), kept

    if TYPE_CHECKING:  # the base yields these already; this names their type

        def __aiter__(self) -> AsyncIterator[MessagesStreamEvent]: ...
        async def __anext__(self) -> MessagesStreamEvent: ...
