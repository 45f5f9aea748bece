"""Chat Completions streaming: chunks in, a :class:`~kimi_ext.ChatCompletion` out.

    with client.chat.completions.stream(...) as stream:
        for text in stream.text_stream:
            print(text, end="")
        completion = stream.final()

How chunks are merged (the ways Kimi and its gateways really stream):

* ``content`` and ``reasoning_content`` fragments are joined once at the end.
  ``reasoning_content`` is present in the result whenever the server sent it, even as
  ``""``. ``content`` is None when no non-empty content arrived and there were tool calls
  or a ``refusal`` (as in the non-streamed reply), else the joined string.
* Tool calls are merged by ``index``; when ``index`` is missing or null the call ``id``
  decides, and a fragment with neither continues the last call. A known ``index`` with a
  different non-empty ``id`` starts a new call (some gateways send index 0 for every
  call). Name fragments are concatenated, argument fragments joined exactly as sent.
* ``usage`` is taken from wherever it arrives: the final usage chunk (empty ``choices``)
  or ``choices[i].usage``; it is reported as the result's top-level ``usage``.
* ``data: [DONE]`` ends the stream. A body that ends cleanly once every choice has its
  ``finish_reason`` (the answer is finished), without ``[DONE]``, is accepted as complete,
  and says so: the completion's ``done_missing`` is True (its ``usage`` is then often
  None: the final usage chunk, if any, comes just before ``[DONE]``). Any other end raises
  IncompleteStreamError, a broken connection too, even after the finish_reason (the
  client cannot tell what else was coming); its ``partial`` then holds the finished
  answer, which :func:`kimi_ext.resume` returns as it is, without a request.
* A chunk with an ``error`` object and no choices (or an SSE ``event: error``) raises the
  matching :class:`~kimi_ext.errors.APIStatusError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import httpx

from kimi_ext._core.streaming import stream as streaming
from kimi_ext._core.streaming.stream import TEXT_BATCH, TextBuffer
from kimi_ext.chat.result import ChatCompletion

if TYPE_CHECKING:  # the views are for type checkers: nothing imports them at run time
    from collections.abc import AsyncIterator, Iterator

    from kimi_raw.chat.typeddicts import ChatCompletionChunk

__all__ = [
    "AsyncChatCompletionStream",
    "ChatAccumulator",
    "ChatCompletionStream",
    "ChatStreamEvent",
]

_TOP_SKIP = frozenset({"choices", "usage", "object"})
_CALL_KEYS = frozenset({"index", "id", "type", "function"})
_PLAIN_CHOICE = frozenset({"index", "delta", "finish_reason"})


class ChatStreamEvent(streaming.StreamEvent):
    """A Chat stream event: ``type`` is ``"chunk"`` (or ``"malformed"``).

    ``data`` is the JSON object received, typed as the spec's ``ChatCompletionChunk``
    (``kimi_raw.chat.typeddicts``); the text received for a ``"malformed"`` event.
    """

    __slots__ = ()
    _module = "kimi_raw.chat.models"
    _models: ClassVar[dict[str, str]] = {"chunk": "ChatCompletionChunk"}

    data: ChatCompletionChunk | str  # the base's slot, typed for this format


class _ToolCall:
    __slots__ = ("args", "extra", "id", "name", "type")

    def __init__(self) -> None:
        self.id: str | None = None
        self.type: str | None = None
        self.name: list[str] = []
        self.args = TextBuffer()
        self.extra: dict[str, Any] = {}

    def build(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id if self.id is not None else "",
            "type": self.type or "function",
            "function": {"name": "".join(self.name), "arguments": self.args.join()},
        }
        out.update(self.extra)
        return out


class _Choice:
    __slots__ = (
        "by_id",
        "by_index",
        "calls",
        "content",
        "extra",
        "extra_message",
        "finish_reason",
        "first",
        "index",
        "logprobs",
        "reasoning",
        "reasoning_seen",
        "role",
    )

    def __init__(self, index: Any, first: bool) -> None:
        self.index = index
        self.first = first  # the first choice feeds text_stream and reasoning_stream
        self.role: str | None = None
        self.content = TextBuffer()
        self.reasoning = TextBuffer()
        self.reasoning_seen = False
        self.calls: list[_ToolCall] = []
        self.by_index: dict[Any, _ToolCall] = {}
        self.by_id: dict[str, _ToolCall] = {}
        self.finish_reason: Any = None
        self.logprobs: dict[str, Any] | None = None
        self.extra: dict[str, Any] = {}
        self.extra_message: dict[str, Any] = {}

    def merge_calls(self, deltas: list[Any]) -> None:
        for delta in deltas:
            if type(delta) is not dict:
                continue
            index = delta.get("index")
            call_id = delta.get("id")
            call: _ToolCall | None
            if index is not None:
                call = self.by_index.get(index)
                if call is not None and call_id and call.id and call_id != call.id:
                    call = None  # same index, another id: a new call
            elif call_id:
                call = self.by_id.get(call_id)
            else:
                call = self.calls[-1] if self.calls else None
            if call is None:
                call = _ToolCall()
                self.calls.append(call)
            if index is not None:
                self.by_index[index] = call
            if call_id and not call.id:
                call.id = call_id
                self.by_id[call_id] = call
            kind = delta.get("type")
            if kind and not call.type:
                call.type = kind
            function = delta.get("function")
            if function and isinstance(function, dict):
                name = function.get("name")
                if name and isinstance(name, str):
                    call.name.append(name)
                arguments = function.get("arguments")
                if arguments and isinstance(arguments, str):
                    call.args.add(arguments)
            if not (delta.keys() <= _CALL_KEYS):
                for key, value in delta.items():
                    if key not in _CALL_KEYS and value is not None:
                        call.extra[key] = value

    def merge_delta(self, delta: dict[str, Any]) -> None:
        for key, value in delta.items():
            if key == "content":
                if type(value) is str:
                    self.content.add(value)
            elif key == "reasoning_content":
                if type(value) is str:
                    self.reasoning.add(value)
                    self.reasoning_seen = True
            elif key == "tool_calls":
                if value and type(value) is list:
                    self.merge_calls(value)
            elif key == "role":
                if value:
                    self.role = value
            elif value is not None:
                previous = self.extra_message.get(key)
                if isinstance(value, str) and isinstance(previous, str):
                    self.extra_message[key] = previous + value  # e.g. refusal fragments
                else:
                    self.extra_message[key] = value

    def merge_logprobs(self, logprobs: dict[str, Any]) -> None:
        if self.logprobs is None:
            self.logprobs = {}
        for key, value in logprobs.items():
            previous = self.logprobs.get(key)
            if isinstance(value, list) and isinstance(previous, list):
                previous.extend(value)
            elif isinstance(value, list):
                self.logprobs[key] = list(value)
            elif value is not None or key not in self.logprobs:
                self.logprobs[key] = value

    def build(self) -> dict[str, Any]:
        content: str | None = self.content.join()
        if not content and (self.calls or "refusal" in self.extra_message):
            content = None
        message: dict[str, Any] = {"role": self.role or "assistant", "content": content}
        if self.reasoning_seen:
            message["reasoning_content"] = self.reasoning.join()
        if self.calls:
            message["tool_calls"] = [call.build() for call in self.calls]
        message.update(self.extra_message)
        out: dict[str, Any] = {
            "index": self.index,
            "message": message,
            "finish_reason": self.finish_reason,
        }
        if self.logprobs is not None:
            out["logprobs"] = self.logprobs
        out.update(self.extra)
        return out


class ChatAccumulator(streaming.Accumulator[ChatCompletion]):
    """Merges Chat chunks into the dict a non-streaming ``create()`` returns."""

    result_type = ChatCompletion
    event_type = ChatStreamEvent
    terminal_name = "data: [DONE]"

    def __init__(self) -> None:
        super().__init__()
        self.finished = False  # every choice received has its finish_reason
        self.usage: dict[str, Any] | None = None
        self._top: dict[str, Any] = {}
        self._top_len = -1  # top-level fields are merged again when their number changes
        self._choices: dict[Any, _Choice] = {}

    def feed(self, event: str | None, data: dict[str, Any]) -> str:
        choices = data.get("choices")
        # rule: an error object without choices (or event: error) is an error event.
        if not choices and (event == "error" or data.get("error")):
            raise streaming.ErrorEventReceived(data)
        # optimization: the top level is merged only when its number of fields changes
        # (a chunk with as many fields is taken to carry the same ones).
        if len(data) != self._top_len:
            self._merge_top(data)
        if choices and type(choices) is list:
            for choice in choices:
                if type(choice) is not dict:
                    continue
                index = choice.get("index")
                if index is None:
                    index = 0
                state = self._choices.get(index)
                if state is None:
                    state = self._new_choice(index)
                delta = choice.get("delta")
                if delta and type(delta) is dict:
                    # optimization: a delta carrying one text fragment, inlined; the
                    # general _merge_delta below gives the same result.
                    if len(delta) == 1:
                        content = delta.get("content")
                        if type(content) is str:
                            pieces = state.content.tail  # TextBuffer.add, inlined
                            pieces.append(content)
                            if len(pieces) >= TEXT_BATCH:
                                state.content.fold()
                            if self.readers and state.first:
                                self.fragment("text", content)
                        else:
                            reasoning = delta.get("reasoning_content")
                            if type(reasoning) is str:
                                pieces = state.reasoning.tail
                                pieces.append(reasoning)
                                if len(pieces) >= TEXT_BATCH:
                                    state.reasoning.fold()
                                state.reasoning_seen = True
                                if self.readers and state.first:
                                    self.fragment("reasoning", reasoning)
                            else:
                                self._merge_delta(state, delta)
                    else:
                        self._merge_delta(state, delta)
                # Anything beyond index, delta and a null finish_reason (logprobs, usage...)
                # is merged, whichever keys the gateway left out.
                if choice.get("finish_reason") is not None or not choice.keys() <= _PLAIN_CHOICE:
                    self._merge_choice(state, choice)
        usage = data.get("usage")
        if usage:
            self.usage = usage
        return "chunk"

    def _merge_delta(self, state: _Choice, delta: dict[str, Any]) -> None:
        state.merge_delta(delta)
        if self.readers and state.first:
            reasoning = delta.get("reasoning_content")
            if type(reasoning) is str:
                self.fragment("reasoning", reasoning)
            content = delta.get("content")
            if type(content) is str:
                self.fragment("text", content)

    def _merge_choice(self, state: _Choice, choice: dict[str, Any]) -> None:
        for key, value in choice.items():
            if value is None or key == "delta" or key == "index":
                continue
            if key == "finish_reason":
                if value:  # rule: some gateways send "" on every chunk
                    state.finish_reason = value
                    # rule: the answer is finished when every choice is (n > 1).
                    self.finished = all(c.finish_reason for c in self._choices.values())
            elif key == "usage":
                self.usage = value
            elif key == "logprobs":
                if type(value) is dict:
                    state.merge_logprobs(value)
            else:
                state.extra[key] = value

    def _new_choice(self, index: Any) -> _Choice:
        # The first choice feeds text_stream and reasoning_stream.
        state = _Choice(index, index == 0)
        self._choices[index] = state
        self.finished = False  # this choice has no finish_reason yet
        return state

    def _merge_top(self, data: dict[str, Any]) -> None:
        self._top_len = len(data)
        top = self._top
        for key, value in data.items():
            if key in _TOP_SKIP:
                continue
            if top.get(key) is None and (value is not None or key not in top):
                top[key] = value  # the first non-null value wins

    def on_done(self) -> None:
        self.terminal = True  # rule: [DONE] is Chat's terminal event

    def complete_at_eof(self) -> bool:
        # rule: a clean end once every choice has its finish_reason is complete
        # (done_missing says so); a broken connection is not (see the module docstring).
        return self.terminal or self.finished

    def result(self, response: httpx.Response | None) -> ChatCompletion:
        out = super().result(response)
        # Flag a stream that ended after its finish_reason but without [DONE].
        out._done_missing = self.finished and not self.terminal
        return out

    def snapshot(self) -> dict[str, Any]:
        out = dict(self._top)
        out["object"] = "chat.completion"
        out["choices"] = [state.build() for state in self._choices.values()]
        out["usage"] = self.usage
        return out


# twin: AsyncChatCompletionStream
class ChatCompletionStream(streaming.SyncStream[ChatCompletion], accumulator=ChatAccumulator):
    """A Chat Completions stream; ``final()`` reads it all, gives the completion (``get_final_completion()`` is its old name)."""

    get_final_completion = streaming.SyncStream.final  # the old name of final(), kept

    if TYPE_CHECKING:  # the base yields these already; this names their type

        def __iter__(self) -> Iterator[ChatStreamEvent]: ...
        def __next__(self) -> ChatStreamEvent: ...


# twin: ChatCompletionStream
class AsyncChatCompletionStream(streaming.AsyncStream[ChatCompletion], accumulator=ChatAccumulator):
    """The ``async`` twin of :class:`ChatCompletionStream`."""

    get_final_completion = streaming.AsyncStream.final  # the old name of final(), kept

    if TYPE_CHECKING:  # the base yields these already; this names their type

        def __aiter__(self) -> AsyncIterator[ChatStreamEvent]: ...
        async def __anext__(self) -> ChatStreamEvent: ...
