"""Responses streaming: named events in, a :class:`~kimi_ext.Response` out.

    with client.responses.stream(...) as stream:
        for text in stream.text_stream:
            print(text, end="")
        response = stream.final()

How events are assembled:

* Output items are kept per ``output_index``: the item of
  ``response.output_item.done`` when it came, else the one of
  ``response.output_item.added`` with what its deltas built (text per
  ``content_index``, reasoning text, reasoning summaries per ``summary_index``,
  function-call ``arguments``, custom-tool ``input``). A delta whose item or part was
  never announced creates it, so no text is lost.
* ``response.created`` / ``response.in_progress`` / ``response.queued`` give the
  response object; the terminal event's ``response`` (``response.completed``,
  ``response.incomplete`` or ``response.failed``) replaces it and its ``output`` is the
  truth, taken as it came (a gateway may rename a streamed item there). The streamed items
  fill in only what it lacks: they are the output when the terminal ``output`` is missing
  or empty, or when the stream was cut before it.
* ``response.incomplete`` ends the stream normally: the result's ``status`` says what
  happened. ``response.failed`` and an ``error`` event raise the
  :class:`~kimi_ext.errors.APIStatusError` that ``create()`` raises for the same failure,
  mapped from the error's ``code`` (``rate_limit_exceeded``: a ``RateLimitError`` with
  ``status_code`` 429); its ``partial`` is the response received (``status`` "failed").
* Unknown event types are yielded as they came; unknown item types are kept verbatim.
* ``reasoning_stream`` yields ``response.reasoning_text.delta`` text, and
  ``response.reasoning_summary_text.delta`` text for items that have no reasoning text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kimi_ext._core.streaming import stream as streaming
from kimi_ext._core.streaming.stream import TEXT_BATCH, TextBuffer
from kimi_ext.responses.events import MODELS, TERMINAL
from kimi_ext.responses.result import Response

if TYPE_CHECKING:  # the views are for type checkers: nothing imports them at run time
    from collections.abc import AsyncIterator, Iterator

    from kimi_raw.responses.typeddicts import ResponseStreamEvent

__all__ = ["AsyncResponseStream", "ResponseAccumulator", "ResponseStream", "ResponsesStreamEvent"]

_SNAPSHOT = frozenset({"response.created", "response.in_progress", "response.queued"})

_MESSAGE = {"type": "message", "role": "assistant", "content": []}
_REASONING = {"type": "reasoning", "summary": [], "content": []}
_FUNCTION_CALL = {"type": "function_call", "arguments": ""}
_CUSTOM_CALL = {"type": "custom_tool_call", "input": ""}
_OUTPUT_TEXT = {"type": "output_text", "text": ""}
_REFUSAL = {"type": "refusal", "refusal": ""}
_REASONING_TEXT = {"type": "reasoning_text", "text": ""}
_SUMMARY_TEXT = {"type": "summary_text", "text": ""}


class ResponsesStreamEvent(streaming.StreamEvent):
    """A Responses stream event: ``type`` is the JSON ``type`` (``response.output_text.delta``...).

    ``data`` is the JSON object received, typed as the spec's ``ResponseStreamEvent``
    (``kimi_raw.responses.typeddicts``); the text received for a ``"malformed"`` event.
    """

    __slots__ = ()
    _module = "kimi_raw.responses.models"
    _models = MODELS

    data: ResponseStreamEvent | str  # the base's slot, typed for this format


class _Part:
    """A content or summary part: its announced dict plus the text its deltas carried.

    What a later event supersedes is let go (``final`` wins over ``done_text``, which
    wins over the deltas), so a long stream does not hold its text several times (rule:
    which wins; optimization: letting go)."""

    __slots__ = ("_done_text", "_final", "base", "field", "pieces")

    def __init__(self, base: dict[str, Any]) -> None:
        self.base = base
        self.field = "refusal" if base.get("type") == "refusal" else "text"
        self.pieces = TextBuffer()
        self._done_text: str | None = None
        self._final: dict[str, Any] | None = None

    @property
    def done_text(self) -> str | None:
        return self._done_text

    @done_text.setter
    def done_text(self, text: str) -> None:
        self._done_text = text
        self.pieces = TextBuffer()  # no longer used by build()

    @property
    def final(self) -> dict[str, Any] | None:
        return self._final

    @final.setter
    def final(self, part: dict[str, Any]) -> None:
        self._final = part
        self.pieces = TextBuffer()
        if self._done_text is not None:
            self._done_text = ""  # still set (so ignored), without the text

    def build(self) -> dict[str, Any]:
        if self._final is not None:
            return self._final
        out = dict(self.base)
        if self._done_text is not None:
            out[self.field] = self._done_text
        elif self.pieces:
            out[self.field] = self.pieces.join_after(out.get(self.field))
        return out


class _Item:
    """An output item: announced, built from deltas, then replaced by its final form
    (once ``final`` is set, what built it is let go: build() returns ``final``)."""

    __slots__ = (
        "_final",
        "args",
        "args_done",
        "base",
        "input",
        "input_done",
        "parts",
        "reasoning_text",
        "summary",
    )

    def __init__(self, base: dict[str, Any]) -> None:
        self.base = base
        self._final: dict[str, Any] | None = None
        self.parts: dict[Any, _Part] = {}
        self.summary: dict[Any, _Part] = {}
        self.args = TextBuffer()
        self.args_done: str | None = None
        self.input = TextBuffer()
        self.input_done: str | None = None
        self.reasoning_text = False  # reasoning_text deltas arrived for this item

    @property
    def final(self) -> dict[str, Any] | None:
        return self._final

    @final.setter
    def final(self, item: dict[str, Any]) -> None:
        self._final = item
        self.parts = {}
        self.summary = {}
        self.args = TextBuffer()
        self.input = TextBuffer()
        if self.args_done is not None:
            self.args_done = ""
        if self.input_done is not None:
            self.input_done = ""

    def part(self, index: Any, implied: dict[str, Any]) -> _Part:
        part = self.parts.get(index)
        if part is None:
            part = self.parts[index] = _Part(dict(implied))
        return part

    def summary_part(self, index: Any) -> _Part:
        part = self.summary.get(index)
        if part is None:
            part = self.summary[index] = _Part(dict(_SUMMARY_TEXT))
        return part

    def build(self) -> dict[str, Any]:
        if self._final is not None:
            return self._final
        out = dict(self.base)
        if self.parts:
            out["content"] = _place(out.get("content"), self.parts)
        if self.summary:
            out["summary"] = _place(out.get("summary"), self.summary)
        if self.args_done is not None:
            out["arguments"] = self.args_done
        elif self.args:
            out["arguments"] = self.args.join_after(out.get("arguments"))
        if self.input_done is not None:
            out["input"] = self.input_done
        elif self.input:
            out["input"] = self.input.join_after(out.get("input"))
        return out


def _copy(template: dict[str, Any]) -> dict[str, Any]:
    """A copy of an implied item whose lists are its own."""
    return {
        key: list(value) if isinstance(value, list) else value for key, value in template.items()
    }


def _place(existing: Any, parts: dict[Any, _Part]) -> list[Any]:
    out = list(existing) if isinstance(existing, list) else []
    for index, part in parts.items():
        built = part.build()
        if isinstance(index, int) and 0 <= index < len(out):
            out[index] = built
        else:
            out.append(built)
    return out


def _part_event(
    parts: dict[Any, _Part], index: Any, part_data: dict[str, Any], added: bool
) -> None:
    """A content or summary part's ``.added`` event (its base, kept with any text deltas
    already gave it) or ``.done`` event (its final form, which wins)."""
    part = parts.get(index)
    if part is None:
        part = parts[index] = _Part(part_data)
    if added:
        part.base = part_data
    else:
        part.final = part_data


def _id_of(item: Any) -> Any:
    """An item's ``id`` when it can be compared (not a list or object), else None."""
    item_id = item.get("id") if isinstance(item, dict) else None
    return None if isinstance(item_id, list | dict) else item_id


def _merge_output(primary: list[Any], secondary: list[tuple[Any, Any]]) -> list[Any]:
    """``primary`` items win; items of ``secondary`` (index, item) not in it are inserted."""
    out = list(primary)
    ids = {_id_of(item) for item in primary}
    ids.discard(None)
    for index, item in secondary:
        item_id = _id_of(item)
        if item_id is not None:
            if item_id in ids:
                continue
        elif isinstance(index, int) and index < len(primary):
            continue
        position = index if isinstance(index, int) and 0 <= index <= len(out) else len(out)
        out.insert(position, item)
    return out


class ResponseAccumulator(streaming.Accumulator[Response]):
    """Assembles Responses events into the dict a non-streaming ``create()`` returns."""

    result_type = Response
    event_type = ResponsesStreamEvent
    terminal_name = " or ".join(sorted(TERMINAL))

    def __init__(self) -> None:
        super().__init__()
        self._base: dict[str, Any] = {}
        self._items: dict[Any, _Item] = {}

    def _item(self, data: dict[str, Any], implied: dict[str, Any]) -> _Item:
        index = data.get("output_index")
        item = self._items.get(index)
        if item is None:
            base = _copy(implied)
            item_id = data.get("item_id")
            if item_id is not None:
                base["id"] = item_id
            item = self._items[index] = _Item(base)
        return item

    def feed(self, event: str | None, data: dict[str, Any]) -> str:
        kind = data.get("type")
        # optimization: the hot paths (text, reasoning and argument deltas) come first and
        # are inlined; _other would give the same result, only slower.
        if kind == "response.output_text.delta" or kind == "response.reasoning_text.delta":
            text = data.get("delta")
            if type(text) is str:
                reasoning = kind == "response.reasoning_text.delta"
                item = self._items.get(data.get("output_index"))
                if item is None:
                    item = self._item(data, _REASONING if reasoning else _MESSAGE)
                if reasoning:
                    item.reasoning_text = True
                part = item.parts.get(data.get("content_index"))
                if part is None:
                    implied = _REASONING_TEXT if reasoning else _OUTPUT_TEXT
                    part = item.part(data.get("content_index"), implied)
                pieces = part.pieces.tail  # optimization: TextBuffer.add, inlined
                pieces.append(text)
                if len(pieces) >= TEXT_BATCH:
                    part.pieces.fold()
                if self.readers:
                    self.fragment("reasoning" if reasoning else "text", text)
        elif kind == "response.function_call_arguments.delta":
            text = data.get("delta")
            if type(text) is str:
                self._item(data, _FUNCTION_CALL).args.add(text)
        else:
            if not kind or type(kind) is not str:
                kind = event or "unknown"
            self._other(kind, event, data)
        return kind

    def _other(self, kind: str, event: str | None, data: dict[str, Any]) -> None:
        # Every event but the text deltas (handled inline in feed): one small handler per
        # event family; an unknown event changes nothing (its data is still yielded).
        handler = _HANDLERS.get(kind)
        if handler is not None:
            handler(self, kind, data)
        elif kind == "error" or event == "error":
            raise streaming.ErrorEventReceived(_error_envelope(data), data)

    def _on_item_added(self, kind: str, data: dict[str, Any]) -> None:
        item_data = data.get("item")
        if type(item_data) is dict:
            index = data.get("output_index")
            item = self._items.get(index)
            if item is None:
                self._items[index] = _Item(item_data)
            else:
                item.base = item_data

    def _on_item_done(self, kind: str, data: dict[str, Any]) -> None:
        item_data = data.get("item")
        if type(item_data) is dict:
            self._item(data, item_data).final = item_data

    def _on_content_part(self, kind: str, data: dict[str, Any]) -> None:
        part_data = data.get("part")
        if type(part_data) is dict:
            reasoning = part_data.get("type") == "reasoning_text"
            item = self._item(data, _REASONING if reasoning else _MESSAGE)
            index = data.get("content_index")
            _part_event(item.parts, index, part_data, kind.endswith(".added"))

    def _on_summary_part(self, kind: str, data: dict[str, Any]) -> None:
        part_data = data.get("part")
        if type(part_data) is dict:
            item = self._item(data, _REASONING)
            index = data.get("summary_index")
            _part_event(item.summary, index, part_data, kind.endswith(".added"))

    def _on_text_done(self, kind: str, data: dict[str, Any]) -> None:
        text = data.get("text")
        if type(text) is str:
            implied = _MESSAGE if kind == "response.output_text.done" else _REASONING
            part_implied = _OUTPUT_TEXT if implied is _MESSAGE else _REASONING_TEXT
            item = self._item(data, implied)
            item.part(data.get("content_index"), part_implied).done_text = text

    def _on_refusal(self, kind: str, data: dict[str, Any]) -> None:
        delta = kind == "response.refusal.delta"
        text = data.get("delta" if delta else "refusal")
        if type(text) is str:
            part = self._item(data, _MESSAGE).part(data.get("content_index"), _REFUSAL)
            if delta:
                part.pieces.add(text)
            else:
                part.done_text = text

    def _on_summary_text(self, kind: str, data: dict[str, Any]) -> None:
        delta = kind == "response.reasoning_summary_text.delta"
        text = data.get("delta" if delta else "text")
        if type(text) is str:
            item = self._item(data, _REASONING)
            part = item.summary_part(data.get("summary_index"))
            if not delta:
                part.done_text = text
                return
            part.pieces.add(text)
            if not item.reasoning_text and self.readers:  # else reasoning streams too
                self.fragment("reasoning", text)

    def _on_arguments_done(self, kind: str, data: dict[str, Any]) -> None:
        text = data.get("arguments")
        if type(text) is str:
            self._item(data, _FUNCTION_CALL).args_done = text

    def _on_custom_input(self, kind: str, data: dict[str, Any]) -> None:
        delta = kind == "response.custom_tool_call_input.delta"
        text = data.get("delta" if delta else "input")
        if type(text) is str:
            item = self._item(data, _CUSTOM_CALL)
            if delta:
                item.input.add(text)
            else:
                item.input_done = text

    def _on_snapshot(self, kind: str, data: dict[str, Any]) -> None:
        response = data.get("response")
        if type(response) is dict:
            self._base = response

    def _on_terminal(self, kind: str, data: dict[str, Any]) -> None:
        response = data.get("response")
        if type(response) is dict:
            self._base = response  # rule: the terminal event's output wins
        else:
            self._base = {**self._base, "status": _status_of(kind)}
        if kind == "response.failed":
            # rule: a failure the service reports raises what create() raises for it (a
            # gateway relays an upstream 429 as 200 + response.failed, rate_limit_exceeded).
            error = self._base.get("error")
            if not isinstance(error, dict):
                error = {"code": "server_error", "message": "the response failed (no error given)"}
            raise streaming.ErrorEventReceived(_error_envelope(error), data)
        self.terminal = True

    def snapshot(self) -> dict[str, Any]:
        out: dict[str, Any] = {"object": "response"}
        out.update(self._base)
        base_output = out.get("output")
        base_output = list(base_output) if isinstance(base_output, list) else []
        if self.terminal and base_output:
            # rule: the terminal event's output is the truth: a gateway may list a streamed item
            # under another id there (rs_tmp_... -> rs_...), so merging would keep it twice.
            out["output"] = base_output
            return out
        streamed = [(index, item.build()) for index, item in self._items.items()]
        if self.terminal:
            out["output"] = _merge_output(base_output, streamed)
        else:
            out["output"] = _merge_output(
                [item for _, item in streamed], list(enumerate(base_output))
            )
        return out


_Handler = Callable[[ResponseAccumulator, str, dict[str, Any]], None]
_HANDLERS: dict[str, _Handler] = {
    "response.output_item.added": ResponseAccumulator._on_item_added,
    "response.output_item.done": ResponseAccumulator._on_item_done,
    "response.content_part.added": ResponseAccumulator._on_content_part,
    "response.content_part.done": ResponseAccumulator._on_content_part,
    "response.reasoning_summary_part.added": ResponseAccumulator._on_summary_part,
    "response.reasoning_summary_part.done": ResponseAccumulator._on_summary_part,
    "response.output_text.done": ResponseAccumulator._on_text_done,
    "response.reasoning_text.done": ResponseAccumulator._on_text_done,
    "response.refusal.delta": ResponseAccumulator._on_refusal,
    "response.refusal.done": ResponseAccumulator._on_refusal,
    "response.reasoning_summary_text.delta": ResponseAccumulator._on_summary_text,
    "response.reasoning_summary_text.done": ResponseAccumulator._on_summary_text,
    "response.function_call_arguments.done": ResponseAccumulator._on_arguments_done,
    "response.custom_tool_call_input.delta": ResponseAccumulator._on_custom_input,
    "response.custom_tool_call_input.done": ResponseAccumulator._on_custom_input,
    **{kind: ResponseAccumulator._on_snapshot for kind in _SNAPSHOT},
    **{kind: ResponseAccumulator._on_terminal for kind in TERMINAL},
}


def _status_of(kind: str) -> str:
    return {"response.completed": "completed", "response.incomplete": "incomplete"}.get(
        kind, "failed"
    )


def _error_envelope(data: dict[str, Any]) -> dict[str, Any]:
    """Responses ``error`` events and a response's ``error`` are flat (``{"code",
    "message"}``); give wire_errors.status_error_from_event the envelope it reads."""
    if isinstance(data.get("error"), dict):
        return data
    code = data.get("code")
    return {
        "error": {
            "message": data.get("message"),
            "type": code if isinstance(code, str) else None,
            "code": code,
            "param": data.get("param"),
        }
    }


# twin: AsyncResponseStream
class ResponseStream(streaming.SyncStream[Response], accumulator=ResponseAccumulator):
    """A Responses stream; ``final()`` reads it all and gives the whole response (``get_final_response()`` is its old name)."""

    get_final_response = streaming.SyncStream.final  # the old name of final(), kept

    if TYPE_CHECKING:  # the base yields these already; this names their type

        def __iter__(self) -> Iterator[ResponsesStreamEvent]: ...
        def __next__(self) -> ResponsesStreamEvent: ...


# twin: ResponseStream
class AsyncResponseStream(streaming.AsyncStream[Response], accumulator=ResponseAccumulator):
    """The ``async`` twin of :class:`ResponseStream`."""

    get_final_response = streaming.AsyncStream.final  # the old name of final(), kept

    if TYPE_CHECKING:  # the base yields these already; this names their type

        def __aiter__(self) -> AsyncIterator[ResponsesStreamEvent]: ...
        async def __anext__(self) -> ResponsesStreamEvent: ...
