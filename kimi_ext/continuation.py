"""Continue an assistant answer from a prefix (Chat partial mode, Messages continuation), and
resume a stream that broke before it finished.

    # Make the model go on from text you supply (or that it wrote before):
    reply = client.chat.completions.continue_(
        prefix="| Item | Why |\\n|---|---|\\n", model="kimi-k3.1-pro", messages=history,
    )
    reply.text            # the prefix followed by the continuation, as one text

    # A long generation cut by the network is not thrown away:
    try:
        with client.messages.stream(**request) as stream:
            final = stream.final()
    except kimi_ext.IncompleteStreamError as error:
        final = kimi_ext.resume(client, error, **request)   # partial text + continuation

    # ... or show the continuation as it arrives (the partial text is already on screen):
    with kimi_ext.resume(client, error, stream=True, **request) as more:
        for text in more.text_stream:          # only the new text
            print(text, end="")
        final = more.final()       # partial text + continuation

Chat sends ``{"role": "assistant", "content": prefix, "partial": true}`` as the final
message; Messages sends the prefix as a final assistant message, which the model continues
(trailing whitespace is not sent: the format rejects a final assistant turn ending in
whitespace, and the model writes it again). The service returns only the new text; the
result you get (:class:`ContinuedChatCompletion` / :class:`ContinuedMessage`) is the
continuation with the prefix put in front of its text, so ``.text`` is the whole answer
and ``history.add(result)`` records the whole turn. ``.prefix`` is the text sent and
``.continuation`` the result exactly as received.

:func:`resume` takes an :class:`~kimi_ext.IncompleteStreamError` (or its ``.partial``) and
the request that was cut; the visible text received so far becomes the prefix. When the
stream broke before any visible text (during reasoning), there is nothing to continue and
the request is simply sent again. When the partial's answer had already finished (a Chat
``finish_reason``, a Messages ``stop_reason``: the connection broke after it, before the
terminal event) nothing is sent: the partial itself is the result.

The resumed result keeps the reasoning received before the cut: ``.reasoning`` is the
partial's followed by the continuation's, ``.partial`` the result that was cut, and the
format's own fields hold what can be sent back (the joined results decide it: Chat's
``reasoning_content`` holds both; Messages puts the partial's thinking blocks first, except
one the cut interrupted, unsigned, which the service would not take back). Every argument
is checked before anything is sent: an odd one is a RequestValidationError naming it.

With ``stream=True``, resume returns a stream (:class:`ResumedChatStream` /
:class:`ResumedMessageStream`; ``Async...`` with an AsyncKimi) used like the format's own:
a context manager (``with`` / ``async with``) to iterate for the continuation's events,
with ``.text_stream``, ``.reasoning_stream`` and ``.fragments``, and ``final()`` (also
``get_final_completion()`` / ``get_final_message()``) giving the joined result. Its
``text_stream`` (and the text of ``fragments``) yields only the new text, what follows
``partial.text`` (which a UI already shows): for Messages, the whitespace the model writes
again at the start, where the prefix sent lost it, is not yielded a second time. If the
continuation breaks as well, the IncompleteStreamError raised carries the combined partial,
so ``resume`` can be called again with it. Responses has no partial mode: resume raises
:class:`~kimi_ext.ContinuationUnsupportedError` (a TypeError) for a Response; send the
request again.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, Protocol, Self, TypeVar, overload

from kimi_ext._core.call.format import Continuation, Format
from kimi_ext._core.model.history import History
from kimi_ext._core.model.result import Result
from kimi_ext._core.streaming.stream import StreamEvent
from kimi_ext.chat.continued import ContinuedChatCompletion
from kimi_ext.chat.result import ChatCompletion
from kimi_ext.errors import (
    ContinuationUnsupportedError,
    IncompleteStreamError,
    RequestValidationError,
)
from kimi_ext.formats import CHAT, MESSAGES, format_of
from kimi_ext.messages.continued import ContinuedMessage
from kimi_ext.messages.result import Message

if TYPE_CHECKING:
    from kimi_ext.chat.stream import ChatStreamEvent
    from kimi_ext.messages.stream import MessagesStreamEvent


# twin: _AsyncClient
class _SyncClient(Protocol):
    # twin: differs (which twin it is)
    @property
    def is_async(self) -> Literal[False]: ...


# twin: _SyncClient
class _AsyncClient(Protocol):
    # twin: differs (which twin it is)
    @property
    def is_async(self) -> Literal[True]: ...


__all__ = [
    "AsyncResumedChatStream",
    "AsyncResumedMessageStream",
    "ContinuedChatCompletion",
    "ContinuedMessage",
    "ResumedChatStream",
    "ResumedMessageStream",
    "acontinue_answer",
    "continue_answer",
    "resume",
]

T = TypeVar("T")


def _rules(fmt: Format[Any, Any, Any]) -> Continuation:
    if fmt.continuation is None:
        raise ContinuationUnsupportedError(
            f"the {fmt.name} format cannot continue an answer from a prefix: only Chat "
            "(partial mode) and Messages (continuation) can; send the request again "
            "(create() or stream())"
        )
    return fmt.continuation


def _check_history(fmt: Format[Any, Any, Any], params: dict[str, Any]) -> None:
    """Refuse, before anything is sent, a missing or odd conversation (``messages=``)."""
    name = fmt.history_field
    value = params.get(name)
    if value is None:
        raise RequestValidationError(
            name, None, "is required: the conversation the answer continues (as sent)"
        )
    if not isinstance(value, list | tuple | History):
        raise RequestValidationError(
            name, value, f"must be a list of messages or a {fmt.history_type.__name__}"
        )


def _request(
    fmt: Format[Any, Any, Any], prefix: Any, params: dict[str, Any]
) -> tuple[Continuation, str, dict[str, Any]]:
    """The format's rules, the prefix sent and the request: every argument checked first,
    so a refused one sends nothing."""
    rules = _rules(fmt)
    if not isinstance(prefix, str):
        raise RequestValidationError(
            "prefix", prefix, "must be a string: the text the answer goes on from"
        )
    _check_history(fmt, params)
    sent, request = rules.request(prefix, params)
    return rules, sent, request


# twin: acontinue_answer
def continue_answer(resource: Any, *, prefix: str, **params: Any) -> Result:
    """Sync body of ``client.chat.completions.continue_`` / ``client.messages.continue_``."""
    return _continue(resource, prefix, None, params)


# twin: continue_answer
async def acontinue_answer(resource: Any, *, prefix: str, **params: Any) -> Result:
    """Async body of ``continue_``."""
    return await _acontinue(resource, prefix, None, params)


# twin: _acontinue
def _continue(resource: Any, prefix: Any, partial: Result | None, params: dict[str, Any]) -> Result:
    """Continue from ``prefix``; the result keeps ``partial``'s reasoning (resume's)."""
    rules, sent, request = _request(resource.format, prefix, params)
    return rules.joined(sent, resource.create(**request), partial)


# twin: _continue
async def _acontinue(
    resource: Any, prefix: Any, partial: Result | None, params: dict[str, Any]
) -> Result:
    rules, sent, request = _request(resource.format, prefix, params)
    return rules.joined(sent, await resource.create(**request), partial)


def _finished(partial: Result) -> bool:
    """Whether the partial's answer (the first choice, for Chat) had already finished."""
    if isinstance(partial, ChatCompletion):
        return bool(partial.finish_reason)
    return isinstance(partial, Message) and bool(partial.stop_reason)


_CLIENT_RULE = "must be a Kimi or AsyncKimi client (an instance)"


class _Resumption:
    """What resume needs: the resource, the format's rules, the partial, the params."""

    __slots__ = ("finished", "params", "partial", "resource", "rules")

    def __init__(self, client: Any, error: IncompleteStreamError | Result, params: Any) -> None:
        # A client is told by its is_async flag (this layer cannot import kimi_ext.client).
        if isinstance(client, type) or type(getattr(client, "is_async", None)) is not bool:
            raise RequestValidationError("client", client, _CLIENT_RULE)
        partial = error.partial if isinstance(error, IncompleteStreamError) else error
        if not isinstance(partial, Result):
            raise RequestValidationError(
                "error",
                error,
                "must be the IncompleteStreamError a stream raised, or its .partial result",
            )
        fmt = format_of(partial)
        if fmt is None or fmt.continuation is None:
            raise ContinuationUnsupportedError(
                f"cannot resume a {type(partial).__name__}: only Chat (partial mode) and "
                "Messages (continuation) can continue an answer; send the request again "
                "(create() or stream()) for a whole new answer (the partial, its reasoning "
                "too, stays where it was: the error's .partial)"
            )
        params = dict(params)
        params.pop("stream", None)
        _check_history(fmt, params)
        if params.get("model") is None and partial.model:
            params["model"] = partial.model
        try:
            self.resource: Any = fmt.resource_of(client)
        except AttributeError:
            raise RequestValidationError("client", client, _CLIENT_RULE) from None
        self.rules: Continuation = fmt.continuation
        self.partial: Result = partial
        self.params: dict[str, Any] = params
        self.finished = _finished(partial)


def _broken(broken: IncompleteStreamError, plan: _Resumption, sent: str) -> IncompleteStreamError:
    """The error of a continuation stream that broke too: its partial joined to the prefix
    (and to the reasoning resumed), so ``resume`` can be called again with it."""
    return IncompleteStreamError(
        str(broken),
        partial=plan.rules.joined(sent, broken.partial, plan.partial),
        request=broken.request,
        timed_out=broken.timed_out,
    )


# twin: _resume_async
def _resume_sync(plan: _Resumption) -> Result:
    if plan.finished:
        return plan.partial  # nothing more to ask for: no request
    return _continue(plan.resource, plan.partial.text, plan.partial, plan.params)


# twin: _resume_sync
async def _resume_async(plan: _Resumption) -> Result:
    if plan.finished:
        return plan.partial
    return await _acontinue(plan.resource, plan.partial.text, plan.partial, plan.params)


class _Skip:
    """Drops, from the start of the continuation's text, the whitespace the Messages prefix
    lost when it was sent (the model writes it again), so what is yielded follows the
    partial's text exactly."""

    __slots__ = ("left",)

    def __init__(self, left: str) -> None:
        self.left = left

    def __call__(self, text: str) -> str:
        left = self.left
        if not left:
            return text
        same = 0
        for a, b in zip(left, text, strict=False):
            if a != b:
                break
            same += 1
        # Once the continuation departs from the lost whitespace, nothing more is dropped.
        self.left = left[same:] if same == len(text) else ""
        return text[same:]


class _ResumedCore:
    """What the sync and async resumed streams share: the plan, errors, the joined result."""

    def __init__(self, plan: _Resumption) -> None:
        self._plan = plan
        self._manager: Any = None
        self._error: IncompleteStreamError | None = None
        self._cause: IncompleteStreamError | None = None
        self._final_result: Result | None = plan.partial if plan.finished else None
        # The partial resumed, and the prefix sent: its visible text (for Messages without
        # the trailing whitespace); the partial's text when it had finished (nothing sent).
        self.partial: Result = plan.partial
        self.prefix: str = plan.partial.text
        if plan.finished:
            return
        _, self.prefix, request = _request(plan.resource.format, plan.partial.text, plan.params)
        self._skip = _Skip(plan.partial.text[len(self.prefix) :])
        self._manager = plan.resource.stream(**request)  # validated now, sent on entry

    def _joined_error(self, broken: IncompleteStreamError) -> IncompleteStreamError:
        """The continuation broke: the error raised carries the combined partial (the same
        error object each time it is raised again)."""
        if self._cause is not broken or self._error is None:
            self._cause = broken
            self._error = _broken(broken, self._plan, self.prefix)
        return self._error

    def _joined(self, final: Result) -> Result:
        if self._final_result is None:
            self._final_result = self._plan.rules.joined(self.prefix, final, self.partial)
        return self._final_result


# twin: AsyncResumedStream
class ResumedStream(_ResumedCore):
    """The stream :func:`resume` returns with ``stream=True`` (sync): a context manager
    whose body sends the continuation request; iterate it for the continuation's events,
    or read ``text_stream`` (only the new text), ``reasoning_stream``, ``fragments``.
    Without ``with``, the request is sent on first use and the response closed at the
    end of the stream."""

    def __init__(self, plan: _Resumption) -> None:
        super().__init__(plan)
        self._stream: Any = None
        self._events: Iterator[StreamEvent] | None = None

    def _open(self) -> Any:
        if self._stream is None and self._manager is not None:
            self._stream = self._manager.__enter__()
        return self._stream

    def _guard(self, items: Callable[[Any], Iterator[T]]) -> Iterator[T]:
        if self._error is not None:
            raise self._error
        stream = self._open()
        if stream is None:  # a finished partial: nothing more comes
            return
        try:
            yield from items(stream)
        except IncompleteStreamError as broken:
            raise self._joined_error(broken) from broken

    def __enter__(self) -> Self:
        self._open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the continuation's response (idempotent). Unread events are lost."""
        if self._stream is not None:
            self._stream.close()

    def __iter__(self) -> Iterator[StreamEvent]:
        if self._error is not None:
            raise self._error
        if self._events is None:
            self._events = self._guard(iter)
        return self._events

    def __next__(self) -> StreamEvent:
        return next(iter(self))

    @property
    def text_stream(self) -> Iterator[str]:
        """The new visible text, fragment by fragment: what follows ``partial.text``."""
        return self._texts()

    def _texts(self) -> Iterator[str]:
        skip = self._skip if self._manager is not None else None
        for text in self._guard(lambda s: s.text_stream):
            text = skip(text) if skip is not None else text
            if text:
                yield text

    @property
    def reasoning_stream(self) -> Iterator[str]:
        """The continuation's reasoning, fragment by fragment."""
        return self._guard(lambda s: s.reasoning_stream)

    @property
    def fragments(self) -> Iterator[tuple[str, str]]:
        """``("reasoning" | "text", fragment)`` pairs of the continuation, in arrival order
        (the text is the new text, as in ``text_stream``)."""
        return self._fragments()

    def _fragments(self) -> Iterator[tuple[str, str]]:
        skip = self._skip if self._manager is not None else None
        for kind, text in self._guard(lambda s: s.fragments):
            if kind == "text" and skip is not None:
                text = skip(text)
                if not text:
                    continue
            yield kind, text

    @property
    def current(self) -> Result:
        """A snapshot: the partial's text joined to the continuation received so far."""
        stream = self._stream
        if self._final_result is not None or stream is None:
            return self._final_result or self.partial
        return self._plan.rules.joined(self.prefix, stream.current, self.partial)

    def _final(self) -> Any:
        if self._final_result is not None:
            return self._final_result
        try:
            final = self._open().final()
        except IncompleteStreamError as broken:
            raise self._joined_error(broken) from broken
        return self._joined(final)


# twin: ResumedStream
class AsyncResumedStream(_ResumedCore):
    """The ``async`` twin of :class:`ResumedStream` (``async with``, ``async for``)."""

    def __init__(self, plan: _Resumption) -> None:
        super().__init__(plan)
        self._stream: Any = None
        self._events: AsyncIterator[StreamEvent] | None = None

    async def _open(self) -> Any:
        if self._stream is None and self._manager is not None:
            self._stream = await self._manager.__aenter__()
        return self._stream

    async def _guard(self, items: Callable[[Any], AsyncIterator[T]]) -> AsyncIterator[T]:
        if self._error is not None:
            raise self._error
        stream = await self._open()
        if stream is None:
            return
        try:
            async for item in items(stream):
                yield item
        except IncompleteStreamError as broken:
            raise self._joined_error(broken) from broken

    async def __aenter__(self) -> Self:
        await self._open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the continuation's response (idempotent). Unread events are lost."""
        if self._stream is not None:
            await self._stream.aclose()

    # twin: differs (code written for either kind of stream calls close())
    close = aclose

    def __aiter__(self) -> AsyncIterator[StreamEvent]:
        if self._error is not None:
            raise self._error
        if self._events is None:
            self._events = self._guard(aiter)
        return self._events

    async def __anext__(self) -> StreamEvent:
        return await self.__aiter__().__anext__()

    @property
    def text_stream(self) -> AsyncIterator[str]:
        """The new visible text, fragment by fragment: what follows ``partial.text``."""
        return self._texts()

    async def _texts(self) -> AsyncIterator[str]:
        skip = self._skip if self._manager is not None else None
        async for text in self._guard(lambda s: s.text_stream):
            text = skip(text) if skip is not None else text
            if text:
                yield text

    @property
    def reasoning_stream(self) -> AsyncIterator[str]:
        """The continuation's reasoning, fragment by fragment."""
        return self._guard(lambda s: s.reasoning_stream)

    @property
    def fragments(self) -> AsyncIterator[tuple[str, str]]:
        """``("reasoning" | "text", fragment)`` pairs of the continuation (see the sync one)."""
        return self._fragments()

    async def _fragments(self) -> AsyncIterator[tuple[str, str]]:
        skip = self._skip if self._manager is not None else None
        async for kind, text in self._guard(lambda s: s.fragments):
            if kind == "text" and skip is not None:
                text = skip(text)
                if not text:
                    continue
            yield kind, text

    @property
    def current(self) -> Result:
        """A snapshot: the partial's text joined to the continuation received so far."""
        stream = self._stream
        if self._final_result is not None or stream is None:
            return self._final_result or self.partial
        return self._plan.rules.joined(self.prefix, stream.current, self.partial)

    async def _final(self) -> Any:
        if self._final_result is not None:
            return self._final_result
        try:
            final = await (await self._open()).final()
        except IncompleteStreamError as broken:
            raise self._joined_error(broken) from broken
        return self._joined(final)


# twin: AsyncResumedChatStream
class ResumedChatStream(ResumedStream):
    """A resumed Chat stream; ``final()`` (or ``get_final_completion()``) gives the whole answer: a
    :class:`ContinuedChatCompletion` (or the partial itself, when it had finished)."""

    def final(self) -> ChatCompletion:
        """Read the rest of the continuation; the partial's text joined to it."""
        result: ChatCompletion = self._final()
        return result

    get_final_completion = final  # the old name of final(), kept

    if TYPE_CHECKING:  # the base yields these already; this names their type

        def __iter__(self) -> Iterator[ChatStreamEvent]: ...
        def __next__(self) -> ChatStreamEvent: ...


# twin: AsyncResumedMessageStream
class ResumedMessageStream(ResumedStream):
    """A resumed Messages stream; ``final()`` (or ``get_final_message()``) gives the whole answer: a
    :class:`ContinuedMessage` (or the partial itself, when it had finished)."""

    def final(self) -> Message:
        """Read the rest of the continuation; the partial's text joined to it."""
        result: Message = self._final()
        return result

    get_final_message = final  # the old name of final(), kept

    if TYPE_CHECKING:  # the base yields these already; this names their type

        def __iter__(self) -> Iterator[MessagesStreamEvent]: ...
        def __next__(self) -> MessagesStreamEvent: ...


# twin: ResumedChatStream
class AsyncResumedChatStream(AsyncResumedStream):
    """The ``async`` twin of :class:`ResumedChatStream`."""

    async def final(self) -> ChatCompletion:
        """Read the rest of the continuation; the partial's text joined to it."""
        result: ChatCompletion = await self._final()
        return result

    get_final_completion = final  # the old name of final(), kept

    if TYPE_CHECKING:  # the base yields these already; this names their type

        def __aiter__(self) -> AsyncIterator[ChatStreamEvent]: ...
        async def __anext__(self) -> ChatStreamEvent: ...


# twin: ResumedMessageStream
class AsyncResumedMessageStream(AsyncResumedStream):
    """The ``async`` twin of :class:`ResumedMessageStream`."""

    async def final(self) -> Message:
        """Read the rest of the continuation; the partial's text joined to it."""
        result: Message = await self._final()
        return result

    get_final_message = final  # the old name of final(), kept

    if TYPE_CHECKING:  # the base yields these already; this names their type

        def __aiter__(self) -> AsyncIterator[MessagesStreamEvent]: ...
        async def __anext__(self) -> MessagesStreamEvent: ...


_STREAMS: dict[Format[Any, Any, Any], tuple[type[ResumedStream], type[AsyncResumedStream]]] = {
    CHAT: (ResumedChatStream, AsyncResumedChatStream),
    MESSAGES: (ResumedMessageStream, AsyncResumedMessageStream),
}

_Partial = IncompleteStreamError | Result


@overload
def resume(
    client: _SyncClient, error: ChatCompletion, *, stream: Literal[True], **params: Any
) -> ResumedChatStream: ...
@overload
def resume(
    client: _SyncClient, error: Message, *, stream: Literal[True], **params: Any
) -> ResumedMessageStream: ...
@overload
def resume(
    client: _SyncClient, error: _Partial, *, stream: Literal[True], **params: Any
) -> ResumedChatStream | ResumedMessageStream: ...
@overload
def resume(
    client: _SyncClient, error: _Partial, *, stream: Literal[False] = False, **params: Any
) -> Result: ...
@overload
def resume(
    client: _AsyncClient, error: ChatCompletion, *, stream: Literal[True], **params: Any
) -> AsyncResumedChatStream: ...
@overload
def resume(
    client: _AsyncClient, error: Message, *, stream: Literal[True], **params: Any
) -> AsyncResumedMessageStream: ...
@overload
def resume(
    client: _AsyncClient, error: _Partial, *, stream: Literal[True], **params: Any
) -> AsyncResumedChatStream | AsyncResumedMessageStream: ...
@overload
def resume(
    client: _AsyncClient, error: _Partial, *, stream: Literal[False] = False, **params: Any
) -> Awaitable[Result]: ...
@overload
def resume(
    client: _SyncClient, error: _Partial, *, stream: bool, **params: Any
) -> Result | ResumedChatStream | ResumedMessageStream: ...
@overload
def resume(
    client: _AsyncClient, error: _Partial, *, stream: bool, **params: Any
) -> Awaitable[Result] | AsyncResumedChatStream | AsyncResumedMessageStream: ...
def resume(
    client: _SyncClient | _AsyncClient,
    error: _Partial,
    *,
    stream: bool = False,
    **params: Any,
) -> Any:
    """Continue the answer a broken stream left in ``error.partial``.

    ``params`` are the original request's (``messages=``, ``max_tokens=``...; ``model``
    defaults to the partial's). Returns a :class:`ContinuedChatCompletion` or
    :class:`ContinuedMessage` whose text is the partial text followed by the continuation,
    and whose ``.reasoning`` is the partial's reasoning followed by the continuation's;
    the partial itself, without a request, when its answer had finished (a Chat
    ``finish_reason``, a Messages ``stop_reason``). With an :class:`~kimi_ext.AsyncKimi`,
    returns an awaitable: ``await resume(...)``.

    With ``stream=True``, returns the continuation as a stream (``with`` / ``async with``;
    see the module docstring): its ``text_stream`` yields only the new text, and
    ``get_final_completion()`` / ``get_final_message()`` the joined result. If it breaks
    too, the IncompleteStreamError raised carries the combined partial.

    Raises :class:`~kimi_ext.ContinuationUnsupportedError` (a TypeError) for a Response
    (Responses cannot continue an answer: send the request again), and
    :class:`~kimi_ext.RequestValidationError` naming ``client``, ``error``, ``stream`` or
    ``messages`` when one cannot be used; nothing is sent in either case.
    """
    if not isinstance(stream, bool):
        raise RequestValidationError("stream", stream, "must be True or False")
    plan = _Resumption(client, error, params)
    if stream:
        return _STREAMS[plan.resource.format][client.is_async](plan)
    return _resume_async(plan) if client.is_async else _resume_sync(plan)
