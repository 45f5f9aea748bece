"""What all streams share: events, accumulators, the sync and async shells, managers.

A stream reads the HTTP body with ``iter_bytes()`` / ``aiter_bytes()``, decodes it with
:class:`~kimi_ext._core.streaming.sse.SSEDecoder`, ``json.loads`` each ``data`` once and hands the object
to the format's accumulator (a plain class, written once per format and shared by the
sync and async stream). The accumulator also hands each text and reasoning fragment it
feeds to the fragment readers (``text_stream``, ``reasoning_stream``, ``fragments``)
started before it, through :meth:`Accumulator.fragment`. Nothing is typed per event: a
:class:`StreamEvent` is a tiny slotted object over the decoded JSON, and the generated
``kimi_raw`` model is built only when ``.parsed`` is read.

Rules every stream follows:

* It ends cleanly only at its format's terminal event (Chat ``[DONE]``; Messages
  ``message_stop``; Responses ``response.completed`` / ``response.incomplete`` /
  ``response.failed``), or (Chat only) at a clean end of the body once every choice has its
  ``finish_reason`` (``complete_at_eof``).
  Anything else (the body ends early, the connection breaks, a read times out, the stream
  was closed) raises :class:`~kimi_ext.errors.IncompleteStreamError` whose ``partial`` is
  the result accumulated so far, the same type ``final()`` returns; a transport
  error is chained as ``__cause__``. Iterating, ``text_stream``, ``reasoning_stream`` and
  ``final()`` all raise it, and raise it again when called again.
* A failure the service reports inside the stream (an error event, a Responses
  ``response.failed``) raises the :class:`~kimi_ext.errors.APIStatusError` subclass the
  same failure raises from ``create()`` (its ``status_code`` is that failure's status,
  derived from its type or code); its ``partial`` is what was received.
* A ``data`` that is not a JSON object (or an object the format cannot use, such as one
  whose ``index`` is a list) is not fatal: it is yielded as an event of type
  ``"malformed"`` whose ``data`` is the text received, and the stream goes on. Events
  with an empty ``data`` (keep-alives) are skipped; ``data: [DONE]`` is never yielded.
* Unknown event types are yielded as they came (``.parsed`` then returns the dict).
* The response is closed when iteration ends or fails, when the ``with`` block is left,
  or on ``close()``. The result is handed over at the terminal event: what follows it is
  read for at most ``DRAIN_GRACE`` (50 ms; normally just the end of the body, so the
  connection goes back to the pool), then the response is closed. A server that keeps the
  body open (silently or with keep-alive comments) cannot delay a complete answer until
  the read timeout.
* Text is joined with its surrogate pairs made whole: a server that escapes each UTF-16
  half separately (``"\\ud83d"`` in one delta, ``"\\ude00"`` in the next) gives one emoji.
* A fragment reader (``text_stream``, ``reasoning_stream``, ``fragments``) receives every
  non-empty fragment of its kinds fed from its first ``next`` on, in order, including the
  ones another reader's reads brought in; a surrogate pair split across two fragments is
  yielded whole.
* A failure the response reports before anything was handed to the caller (a Responses
  ``response.failed``, an error event, a 200 whose body is a JSON error; before it, no
  event the caller iterated and no fragment of a reader: ``final()`` alone hands over
  nothing until the end) is retried like the same failure of ``create()``: the sender's
  policy decides (``max_retries``, the deadline, Retry-After), with the same
  ``Idempotency-Key``, and the stream reads the new attempt from its start. Nothing else
  is retried: what was handed over cannot be taken back.
* A stall (a read timed out) or the call's ``deadline`` passing raises an
  ``IncompleteStreamError`` with ``timed_out=True`` (and says which in its message); a
  cut or a close has ``timed_out=False``. A single SSE line longer than the client's
  ``max_body_size`` ends the stream the same way (what arrived before is kept).
* A stream dropped without ``close()`` (a ``break`` out of the loop, then the last
  reference goes) closes its response at once: the event generator holds a twin of the
  stream that shares its state, so the two form no reference cycle and no garbage
  collection is needed to give the connection back.

Correctness rules vs optimizations. The rules above are behaviour: which event is
terminal and that nothing after it can delay the result (``DRAIN_GRACE``), the
``IncompleteStreamError`` with its ``partial`` for any other end, error events, malformed
and unknown events kept, surrogate pairs made whole, the SSE line cap, the deadline, the
stream twin that closes a dropped stream at once, what fragment readers receive: changing
any of them changes what users see. The rest is optimization and could be removed without
changing one event or result, only speed or memory: the accumulators' inlined hot paths
(each format's most frequent deltas handled before the general code), text batching
(``TextBuffer``, ``TEXT_BATCH``), ``pair_surrogates``' ASCII test, no fragment handed
over while nobody reads fragments, locals cached in the event loops, the lazy
``.parsed``, and ``feed_raw``'s tuples instead of event objects. The code marks each spot
with ``# rule:`` or ``# optimization:``.
"""

from __future__ import annotations

import importlib
import json
import re
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from types import TracebackType
from typing import Any, ClassVar, Generic, Self, TypeVar

import httpx

from kimi_ext._core.model.result import Result
from kimi_ext._core.streaming.sse import SSEDecoder, SSELineTooLong
from kimi_ext._core.transport.httpx_compat import cap_reads, set_body
from kimi_ext._core.transport.secret import redact, redact_bytes, redact_json
from kimi_ext._core.transport.sending import CallState
from kimi_ext._core.transport.wire_errors import status_error_from_event
from kimi_ext.errors import (
    APIResponseError,
    APIStatusError,
    IncompleteStreamError,
    KimiError,
    _request_of,
)

__all__ = [
    "TEXT_BATCH",
    "Accumulator",
    "AsyncStream",
    "AsyncStreamManager",
    "ErrorEventReceived",
    "StreamEvent",
    "StreamManager",
    "SyncStream",
    "TextBuffer",
]

ResultT = TypeVar("ResultT", bound=Result)
StreamT = TypeVar("StreamT", bound="SyncStream[Any]")
AsyncStreamT = TypeVar("AsyncStreamT", bound="AsyncStream[Any]")

# rule: every httpx failure a read can raise (transport, decoding, a closed stream), and a
# line over the size cap, ends the stream as incomplete.
_READ_ERRORS = (httpx.HTTPError, httpx.StreamError, SSELineTooLong)

_loads = json.loads

# rule: after the terminal event, what follows is read for at most this long and this much.
DRAIN_GRACE = 0.05
_DRAIN_LIMIT = 1 << 16

# optimization: text fragments are joined in batches of this many as they arrive.
TEXT_BATCH = 256
_SURROGATE = re.compile("[\ud800-\udfff]")


def pair_surrogates(text: str) -> str:
    """``text`` with each high + low surrogate pair (split across deltas, each half
    escaped on its own) made one character; a lone surrogate is kept as it came."""
    if text.isascii() or not _SURROGATE.search(text):  # optimization: nothing to pair
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


class TextBuffer:
    """Text that arrives in fragments: :meth:`add` each one, :meth:`join` at the end.

    Fragments are joined in batches of ``TEXT_BATCH`` as they come, so a stream of many
    token-sized fragments costs about its own length in memory instead of a str object and
    a list slot (some 60 bytes) per fragment, and the final join is linear. True once any
    fragment (even an empty one) was added, like the list it replaces. The accumulators'
    hot paths inline :meth:`add`: append to ``tail``, :meth:`fold` when it is full.
    """

    __slots__ = ("done", "tail")

    def __init__(self) -> None:
        self.done: list[str] = []
        self.tail: list[str] = []

    def add(self, piece: str) -> None:
        tail = self.tail
        tail.append(piece)
        if len(tail) >= TEXT_BATCH:
            self.fold()

    def fold(self) -> None:
        """Join the fragments of ``tail`` into one piece."""
        self.done.append("".join(self.tail))
        self.tail.clear()

    def join(self) -> str:
        """All the text so far (kept as one string, shared with the caller)."""
        done = self.done
        if self.tail:
            self.fold()
        if len(done) > 1:
            done[:] = ["".join(done)]
        if not done:
            return ""
        text = done[0]
        paired = pair_surrogates(text)
        if paired is not text:
            done[0] = paired
        return paired

    def join_after(self, previous: Any) -> str:
        """:meth:`join`, after ``previous`` when that is text (what a field held before)."""
        text = self.join()
        return previous + text if isinstance(previous, str) and previous else text

    def __bool__(self) -> bool:
        return bool(self.tail) or bool(self.done)


class StreamEvent:
    """One event of a stream.

    ``type`` is the event type (Chat: ``"chunk"``; Messages and Responses: the JSON
    ``type``, else the SSE event name; ``"malformed"`` for a ``data`` that is not a JSON
    object), ``data`` the decoded JSON (the text for ``"malformed"``), ``event`` the SSE
    event name. ``parsed`` builds the generated ``kimi_raw`` model on first use (the raw
    data for unknown and malformed events).
    """

    __slots__ = ("_parsed", "data", "event", "type")

    _module: ClassVar[str] = ""
    _models: ClassVar[Mapping[str, str]] = {}

    _parsed: Any

    def __init__(self, type: str, data: Any, event: str | None = None) -> None:
        self.type = type
        self.data = data
        self.event = event

    @property
    def parsed(self) -> Any:
        """The ``kimi_raw`` model of this event (imported and built on first use)."""
        # optimization: built lazily; most events are never typed.
        try:
            return self._parsed
        except AttributeError:
            pass
        name = self._models.get(self.type)
        if name is None or not isinstance(self.data, dict):
            value = self.data
        else:
            # By name: kimi_raw (generated) is outside import-linter's root, and big.
            value = getattr(importlib.import_module(self._module), name).from_dict(self.data)
        self._parsed = value
        return value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StreamEvent):
            return NotImplemented
        return (self.type, self.data, self.event) == (other.type, other.data, other.event)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        data = repr(self.data)
        if len(data) > 100:
            data = data[:97] + "..."
        return f"{type(self).__name__}(type={self.type!r}, data={data})"


class ErrorEventReceived(Exception):
    """Raised by an accumulator for an error event; the stream turns it into APIStatusError."""

    def __init__(self, body: Any, raw: Any = None) -> None:
        super().__init__("error event")
        self.body = body  # in one of the envelopes wire_errors.parse_error_body reads
        self.raw = body if raw is None else raw  # the event as received


class Accumulator(Generic[ResultT]):
    """Builds one format's result from decoded events; knows nothing about I/O.

    ``feed`` takes each decoded JSON object (with its SSE event name) and returns the
    event type to report; it raises :class:`ErrorEventReceived` for an error event.
    ``terminal`` turns True at the format's terminal event. Each visible-text and
    reasoning fragment it feeds goes to :meth:`fragment` (only while ``readers``, the
    fragment readers' inboxes, is not empty: nothing is kept for readers that do not
    exist, and a reader only receives what arrives after it started).
    """

    terminal_name: ClassVar[str] = ""
    result_type: type[ResultT]
    event_type: ClassVar[type[StreamEvent]] = StreamEvent  # what its stream yields

    def __init__(self) -> None:
        self.terminal = False
        self.readers: list[list[tuple[str, str]]] = []

    def fragment(self, kind: str, text: str) -> None:
        """Hand a ``"text"`` or ``"reasoning"`` fragment of the event being fed to every
        fragment reader."""
        # rule: every reader receives every fragment fed after it started, in order.
        for inbox in self.readers:
            inbox.append((kind, text))

    def feed(self, event: str | None, data: dict[str, Any]) -> str:
        raise NotImplementedError

    def on_done(self) -> None:
        """``data: [DONE]`` arrived (only Chat gives it a meaning)."""

    def complete_at_eof(self) -> bool:
        """Whether the end of the body, now, leaves a complete result."""
        return self.terminal

    def snapshot(self) -> dict[str, Any]:
        """The result so far, as a fresh dict shaped like the format's JSON response."""
        raise NotImplementedError

    def result(self, response: httpx.Response | None) -> ResultT:
        """The result so far, as the format's result type (written once for all three)."""
        return self.result_type(self.snapshot(), response)


class _StreamCore(Generic[ResultT]):
    """Everything the sync and async shells share: per-event handling and errors."""

    _accumulator_type: ClassVar[type[Accumulator[Any]]]
    _event_type: ClassVar[type[StreamEvent]] = StreamEvent

    def __init_subclass__(
        cls, accumulator: type[Accumulator[Any]] | None = None, **kwargs: Any
    ) -> None:
        """A format's stream class names its accumulator once, as a class keyword
        (``class MessageStream(SyncStream[Message], accumulator=MessageAccumulator)``);
        the event type comes with it."""
        super().__init_subclass__(**kwargs)
        if accumulator is not None:
            cls._accumulator_type = accumulator
            cls._event_type = accumulator.event_type

    def __init__(
        self,
        response: httpx.Response,
        *,
        secret: Any,
        state: CallState | None = None,
        reopen: Any = None,
    ) -> None:
        self.response = response
        self._secret = secret
        # The call's state (deadline, line cap, hooks), handed over by the caller that sent
        # it; None for a response read on its own (no deadline, no hooks, the default cap).
        self._state = state
        # How to ask for another attempt of the call, given the failure (the caller's
        # _reopen; None: never).
        self._reopen = reopen
        # What the caller was handed: the events (it iterates the stream), or a fragment
        # (text_stream, reasoning_stream, fragments). final() hands over only the result.
        self._events_out = False
        self._shown = False
        self._acc: Accumulator[ResultT] = self._accumulator_type()
        self._decoder = SSEDecoder(max_line=state.max_line if state is not None else None)
        self._error: KimiError | None = None
        self._finished = False  # the stream ended cleanly (terminal event, or allowed EOF)
        self._closed = False
        # The call's hooks (None, and nothing more to do, for a client without hooks).
        self._call = state.call if state is not None else None
        if self._call is not None:
            # rule: a stream dropped before it was read still ends its call.
            # Through the shared attributes: a retried stream's are those of its last attempt.
            ending = weakref.finalize(self, _end_dropped, self._call, self.__dict__)
            ending.atexit = False  # at interpreter exit, hooks are not called any more

    def _restart(self, response: httpx.Response) -> None:
        """Read ``response``, the call's next attempt, from its start (nothing of the
        failed one was delivered, so nothing is kept but the fragment readers)."""
        self.response = response
        readers = self._acc.readers
        for inbox in readers:
            inbox.clear()
        self._acc = self._accumulator_type()
        self._acc.readers = readers
        state = self._state
        self._decoder = SSEDecoder(max_line=state.max_line if state is not None else None)

    def _end_call(self) -> None:
        """Tell the hooks the call is over (the first time only): the result, or the
        partial result and the error that ended it (none for a stream closed early)."""
        call = self._call
        if call is not None and not call.ended:
            _end_call(call, self._acc, self.response, self._error, self._finished)

    @property
    def current(self) -> ResultT:
        """A snapshot of the result accumulated so far."""
        return self._acc.result(self.response)

    def _on_event(self, text: str, name: str | None) -> StreamEvent | None:
        """Feed one decoded event to the accumulator; return what to yield (or None)."""
        if not text:
            return None  # rule: a keep-alive or an event without data is skipped
        if text == "[DONE]":  # rule: never yielded
            self._acc.on_done()
            return None
        try:
            data = _loads(text)
        except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
            return self._event_type("malformed", text, name)  # rule: kept, not fatal
        if type(data) is not dict:
            return self._event_type("malformed", text, name)
        try:
            return self._feed(data, name)
        except TypeError:
            # An object the accumulator cannot use (say an ``index`` that is a list): kept
            # like a data that is not an object.
            return self._event_type("malformed", text, name)

    def _feed(self, data: dict[str, Any], name: str | None) -> StreamEvent:
        try:
            return self._event_type(self._acc.feed(name, data), data, name)
        except ErrorEventReceived as exc:
            error = status_error_from_event(exc.body, response=self.response, secret=self._secret)
            error.body = redact_json(exc.raw, self._secret)
            error.partial = self._acc.result(self.response)  # rule: nothing received is lost
            raise error from None

    def _incomplete(self, exc: BaseException | None) -> IncompleteStreamError:
        """The error for a stream that ended early (``exc``, the transport error, is
        chained by the caller); ``timed_out`` tells a stall or deadline from a cut."""
        where = self._acc.terminal_name
        state = self._state
        timed_out = isinstance(exc, httpx.TimeoutException)
        if state is not None and state.expired:
            reason = f"the call's deadline of {state.deadline:g} s passed before {where}"
            timed_out = True
        elif exc is None:
            reason = f"the stream ended before its terminal event ({where})"
        elif isinstance(exc, httpx.TimeoutException):
            reason = (
                f"the stream stalled: no data came, so it timed out ({type(exc).__name__}), "
                f"before {where}"
            )
        elif isinstance(exc, SSELineTooLong):
            reason = f"{exc} before {where}"
        elif isinstance(exc, httpx.StreamError):
            reason = f"the stream was closed before {where}"
        else:
            detail = f": {exc}" if str(exc) else ""
            reason = f"the connection broke ({type(exc).__name__}{detail}) before {where}"
        message = redact(f"{reason}; what arrived is kept in .partial", self._secret)
        return IncompleteStreamError(
            message,
            partial=self._acc.result(self.response),
            request=_request_of(self.response),
            timed_out=timed_out,
        )

    def _reading(self) -> _Reader:
        """A new fragment reader's state, its inbox registered with the accumulator."""
        reader = _Reader()
        self._acc.readers.append(reader.inbox)
        return reader

    def _stop_reading(self, reader: _Reader) -> None:
        inbox = reader.inbox  # by identity: two readers' empty inboxes are equal
        self._acc.readers[:] = [other for other in self._acc.readers if other is not inbox]

    def _not_an_event_stream(self) -> bool:
        """A success answer that says it is JSON, HTML or text, not ``text/event-stream``."""
        kind = self.response.headers.get("content-type", "").lower()
        return (
            bool(kind)
            and "event-stream" not in kind
            and any(word in kind for word in ("json", "html", "text/plain"))
        )

    def _body_error(self, body: bytes) -> KimiError:
        """The error for such an answer; its body is kept, so nothing received is lost
        (but not a key it may echo)."""
        body = redact_bytes(body, self._secret)
        set_body(self.response, body)
        text = body.decode("utf-8", "replace")
        try:
            data = _loads(text)
        except (ValueError, RecursionError):
            data = None
        if type(data) is dict and data.get("error") is not None:
            # A gateway that reports a failure as JSON with status 200.
            return status_error_from_event(data, response=self.response, secret=self._secret)
        kind = self.response.headers.get("content-type", "")
        head = redact(text[:1000], self._secret)[:200]  # redacted before it is cut
        return APIResponseError(
            f"expected an event stream, got {kind}: {head!r}",
            response=self.response,
            body=text,
        )

    def _end_of_body(self) -> None:
        if not self._acc.complete_at_eof():
            raise self._incomplete(None)
        self._finished = True

    def _not_finished(self) -> KimiError:
        return self._error if self._error is not None else self._incomplete(None)


# twin: AsyncStream
class SyncStream(_StreamCore[ResultT]):
    """The synchronous shell: iterate it for :class:`StreamEvent` objects."""

    # A slot, not an attribute: the twin the generator holds shares the attributes only.
    __slots__ = ("_iterator",)

    def __init__(
        self,
        response: httpx.Response,
        *,
        secret: Any,
        state: CallState | None = None,
        reopen: Any = None,
    ) -> None:
        super().__init__(response, secret=secret, state=state, reopen=reopen)
        self._iterator = type(self)._iter_events(_twin(self))

    def __iter__(self) -> Iterator[StreamEvent]:
        if self._error is not None:
            raise self._error  # a failed stream fails again, it does not look empty
        self._events_out = True
        return self._iterator

    def __next__(self) -> StreamEvent:
        if self._error is not None:
            raise self._error
        self._events_out = True
        return next(self._iterator)

    @property
    def text_stream(self) -> Iterator[str]:
        """The visible text, fragment by fragment (consumes the stream)."""
        # twin: differs (a generator expression; async: _texts_of)
        return (text for _, text in self._fragments("text"))

    @property
    def reasoning_stream(self) -> Iterator[str]:
        """The reasoning text, fragment by fragment (consumes the stream)."""
        return (text for _, text in self._fragments("reasoning"))  # twin: differs (as above)

    @property
    def fragments(self) -> Iterator[tuple[str, str]]:
        """``("reasoning" | "text", fragment)`` pairs in arrival order (consumes the stream).

        For showing thinking and answer interleaved as they come::

            for kind, text in stream.fragments:
                print(text, end="")
        """
        return self._fragments()

    def _fragments(self, kind: str | None = None) -> Iterator[tuple[str, str]]:
        """The fragments (of ``kind``; None: both kinds) fed from the first ``next`` on."""
        reader = self._reading()
        try:
            for _ in self._iterator:
                if reader.inbox:
                    got = reader.take(kind)
                    if got:
                        self._shown = True
                        yield from got
            # What another reader's reads brought in after this reader's last event.
            yield from reader.take(kind)
            yield from reader.rest()
            if not self._finished:
                raise self._not_finished()
        finally:
            self._stop_reading(reader)

    def final(self) -> ResultT:
        """Read the rest of the stream and return the whole result, in every format (each
        format's stream also keeps its old name for it as an alias:
        ``get_final_completion``, ``get_final_message``, ``get_final_response``).

        Raises what ended the stream otherwise: an IncompleteStreamError (with
        ``.partial``), or the APIStatusError of a failure the service reported inside it."""
        if not self._finished and self._error is None:
            for _ in self._iterator:
                pass
        if not self._finished:
            raise self._not_finished()
        return self._acc.result(self.response)

    def _again(self, error: APIStatusError) -> bool:
        """Whether the call was sent again after ``error``, a failure its response reported
        before anything was handed to the caller (rule: retried as ``create()`` would retry it: the
        client's policy, retry count, key and deadline decide, in the sender); the new
        response is then read. Raises the error the retries end with; False when this
        stream cannot ask for another attempt."""
        if self._reopen is None:
            return False
        _disarm(self._state)
        self.response.close()
        self._restart(self._reopen(error))
        return True

    def close(self) -> None:
        """Close the response (idempotent). Unread events are lost."""
        self._closed = True
        _disarm(self._state)
        self.response.close()
        if self._call is not None:
            self._end_call()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _iter_events(self) -> Iterator[StreamEvent]:
        try:
            while True:  # one pass per attempt: another only after a failure before any event
                # optimization: attributes read once into locals for the per-event loop.
                acc = self._acc
                on_event = self._on_event
                decoder = self._decoder
                delivered = False
                chunks = self.response.iter_bytes()
                if self._call is not None:
                    chunks = _noticing_first(chunks, self._call)
                try:
                    if self._not_an_event_stream():
                        raise self._body_error(self.response.read())
                    for chunk in chunks:
                        if self._closed:  # close() was called while the stream was suspended
                            raise httpx.StreamClosed()
                        for text, name, _, _ in decoder.feed_raw(chunk):
                            event = on_event(text, name)
                            if event is not None:
                                yield event
                                delivered = True
                            if acc.terminal:  # rule: the terminal event wins; nothing after it
                                break
                        if acc.terminal:
                            break
                    else:
                        for text, name, _, _ in decoder.flush_raw():
                            event = on_event(text, name)
                            if event is not None:
                                yield event
                                delivered = True
                            if acc.terminal:
                                break
                except _READ_ERRORS as exc:
                    raise self._incomplete(exc) from exc
                except APIStatusError as exc:
                    # rule: a failure reported before anything was handed to the caller is
                    # retried like create()'s.
                    if (delivered and self._events_out) or self._shown:
                        raise
                    if not self._again(exc):
                        raise
                    continue
                break
            if acc.terminal:
                self._finished = True
                # rule: the drain grace; what follows the terminal event cannot delay it.
                with _CappedReads(self.response) as capped:
                    if capped:
                        _drain(chunks, capped)
            else:
                self._end_of_body()
        except KimiError as exc:
            self._error = exc
            raise
        finally:
            self.close()


# twin: SyncStream
class AsyncStream(_StreamCore[ResultT]):
    """The asynchronous shell: ``async for`` it for :class:`StreamEvent` objects."""

    __slots__ = ("_aiterator",)  # see SyncStream

    def __init__(
        self,
        response: httpx.Response,
        *,
        secret: Any,
        state: CallState | None = None,
        reopen: Any = None,
    ) -> None:
        super().__init__(response, secret=secret, state=state, reopen=reopen)
        self._aiterator = type(self)._aiter_events(_twin(self))

    def __aiter__(self) -> AsyncIterator[StreamEvent]:
        if self._error is not None:
            raise self._error  # a failed stream fails again, it does not look empty
        self._events_out = True
        return self._aiterator

    async def __anext__(self) -> StreamEvent:
        if self._error is not None:
            raise self._error
        self._events_out = True
        return await self._aiterator.__anext__()

    @property
    def text_stream(self) -> AsyncIterator[str]:
        """The visible text, fragment by fragment (consumes the stream)."""
        return _texts_of(self._fragments("text"))  # twin: differs (no async generator expression)

    @property
    def reasoning_stream(self) -> AsyncIterator[str]:
        """The reasoning text, fragment by fragment (consumes the stream)."""
        return _texts_of(self._fragments("reasoning"))  # twin: differs (as above)

    @property
    def fragments(self) -> AsyncIterator[tuple[str, str]]:
        """``("reasoning" | "text", fragment)`` pairs in arrival order (consumes the stream)."""
        return self._fragments()

    async def _fragments(self, kind: str | None = None) -> AsyncIterator[tuple[str, str]]:
        reader = self._reading()
        try:
            async for _ in self._aiterator:
                if reader.inbox:
                    got = reader.take(kind)
                    if got:
                        self._shown = True
                        for fragment in got:
                            yield fragment
            # What another reader's reads brought in after this reader's last event.
            for fragment in reader.take(kind):
                yield fragment
            for fragment in reader.rest():
                yield fragment
            if not self._finished:
                raise self._not_finished()
        finally:
            self._stop_reading(reader)

    async def final(self) -> ResultT:
        """Read the rest of the stream and return the whole result (see SyncStream.final)."""
        if not self._finished and self._error is None:
            async for _ in self._aiterator:
                pass
        if not self._finished:
            raise self._not_finished()
        return self._acc.result(self.response)

    async def _again(self, error: APIStatusError) -> bool:
        if self._reopen is None:
            return False
        _disarm(self._state)
        await self.response.aclose()
        self._restart(await self._reopen(error))
        return True

    async def aclose(self) -> None:
        """Close the response (idempotent). Unread events are lost."""
        self._closed = True
        _disarm(self._state)
        await self.response.aclose()
        if self._call is not None:
            self._end_call()

    close = aclose  # twin: differs (code written for either kind of stream calls close())

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def _aiter_events(self) -> AsyncIterator[StreamEvent]:
        try:
            while True:
                acc = self._acc
                on_event = self._on_event
                decoder = self._decoder
                delivered = False
                chunks = self.response.aiter_bytes()
                # twin: differs (the deadline bounds each async read; sync: the sender's timer)
                state = self._state
                # twin: differs (as above)
                if state is not None and state.end is not None:
                    chunks = _within_deadline(chunks, state)
                if self._call is not None:
                    chunks = _anoticing_first(chunks, self._call)
                try:
                    if self._not_an_event_stream():
                        raise self._body_error(await self.response.aread())
                    async for chunk in chunks:
                        if self._closed:  # aclose() was called while the stream was suspended
                            raise httpx.StreamClosed()
                        for text, name, _, _ in decoder.feed_raw(chunk):
                            event = on_event(text, name)
                            if event is not None:
                                yield event
                                delivered = True
                            if acc.terminal:
                                break
                        if acc.terminal:
                            break
                    else:
                        for text, name, _, _ in decoder.flush_raw():
                            event = on_event(text, name)
                            if event is not None:
                                yield event
                                delivered = True
                            if acc.terminal:
                                break
                except _READ_ERRORS as exc:
                    raise self._incomplete(exc) from exc
                except APIStatusError as exc:
                    if (delivered and self._events_out) or self._shown:
                        raise
                    if not await self._again(exc):
                        raise
                    continue
                break
            if acc.terminal:
                self._finished = True
                with _CappedReads(self.response) as capped:
                    if capped:
                        await _adrain(chunks, capped)
            else:
                self._end_of_body()
        except KimiError as exc:
            self._error = exc
            raise
        finally:
            await self.aclose()


def _twin(stream: Any) -> Any:  # rule: a dropped stream closes its response at once
    """A second instance of ``stream``'s class sharing its attributes (``__dict__``) but not
    its generator slot: the generator holds the twin, so dropping the stream finalizes
    the generator (which closes the response) without waiting for the cycle collector."""
    twin = object.__new__(type(stream))
    object.__setattr__(twin, "__dict__", stream.__dict__)
    return twin


def _end_call(
    call: Any, acc: Accumulator[Any], response: httpx.Response, error: Any, finished: bool
) -> None:
    """End ``call`` with what ``acc`` holds."""
    if not call.ended:
        call.end(acc.result(response), error, finished)


def _end_dropped(call: Any, attributes: dict[str, Any]) -> None:
    """The finalizer of a dropped stream: end its call with what it holds (read from its
    attributes, not the stream, which is gone)."""
    _end_call(call, attributes["_acc"], attributes["response"], None, False)


# twin: _anoticing_first
def _noticing_first(chunks: Iterator[bytes], call: Any) -> Iterator[bytes]:
    """``chunks``, telling the call's hooks when the first one arrives."""
    iterator = iter(chunks)
    for chunk in iterator:
        call.first_event()
        yield chunk
        break
    yield from iterator


# twin: _noticing_first
async def _anoticing_first(chunks: AsyncIterator[bytes], call: Any) -> AsyncIterator[bytes]:
    iterator = chunks.__aiter__()
    async for chunk in iterator:
        call.first_event()
        yield chunk
        break
    async for chunk in iterator:
        yield chunk


def _disarm(state: CallState | None) -> None:
    if state is not None:
        state.disarm()


# rule: the call's deadline bounds every read of an async stream.
async def _within_deadline(chunks: AsyncIterator[bytes], state: CallState) -> AsyncIterator[bytes]:
    """``chunks``, each awaited no longer than the call's deadline allows."""
    import asyncio

    iterator = chunks.__aiter__()
    while True:
        left = state.remaining() or 0.0
        try:
            async with asyncio.timeout(max(left, 0.0)):
                chunk = await iterator.__anext__()
        except StopAsyncIteration:
            return
        except TimeoutError:
            state.expired = True
            raise httpx.ReadTimeout("the call's deadline passed") from None
        yield chunk


class _CappedReads:
    """While the end of the body is awaited after the terminal event, the reads of this
    response's connection (from this thread) wait at most until ``DRAIN_GRACE`` is over.

    The HTTP/1.1 connection goes back to the pool only if its body is read to the end, but a
    server may hold the body open (see ``httpx_compat.cap_reads``). False (nothing to
    drain; the response is just closed) when the reads cannot be capped: no network stream
    (in-memory transports), or HTTP/2, where closing ends only the stream.
    """

    def __init__(self, response: httpx.Response) -> None:
        self.deadline = time.monotonic() + DRAIN_GRACE
        self._undo = cap_reads(response, self.deadline)

    def over(self) -> bool:
        return time.monotonic() >= self.deadline

    def __bool__(self) -> bool:
        return self._undo is not None

    def __enter__(self) -> _CappedReads:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._undo is not None:
            self._undo()


# twin: _adrain
def _drain(chunks: Iterator[bytes], capped: _CappedReads) -> None:
    """Read what follows the terminal event (normally nothing), within the limits."""
    seen = 0
    try:
        for chunk in chunks:
            seen += len(chunk)
            if seen > _DRAIN_LIMIT or capped.over():
                break
    except _READ_ERRORS:
        pass


# twin: _drain
async def _adrain(chunks: AsyncIterator[bytes], capped: _CappedReads) -> None:
    seen = 0
    try:
        async for chunk in chunks:
            seen += len(chunk)
            if seen > _DRAIN_LIMIT or capped.over():
                break
    except _READ_ERRORS:
        pass


class _Reader:
    """One fragment reader: its inbox (filled by :meth:`Accumulator.fragment`) and, per
    kind, a high surrogate that ended the last fragment and waits for the next one."""

    __slots__ = ("held", "inbox")

    def __init__(self) -> None:
        self.inbox: list[tuple[str, str]] = []
        self.held: dict[str, str] = {}

    def take(self, kind: str | None) -> list[tuple[str, str]]:
        """The non-empty fragments (of ``kind``; None: any) in the inbox, which is emptied."""
        got = self.inbox[:]
        self.inbox.clear()
        out = []
        held = self.held
        for fragment in got:
            name, text = fragment
            if not text or (kind is not None and name != kind):
                continue
            # rule: a surrogate pair split across two fragments is yielded whole.
            if held and name in held:
                text = pair_surrogates(held.pop(name) + text)
                fragment = (name, text)
            if "\ud800" <= text[-1] <= "\udbff":
                held[name], text = text[-1], text[:-1]
                if not text:
                    continue
                fragment = (name, text)
            out.append(fragment)
        return out

    def rest(self) -> list[tuple[str, str]]:
        """What still waits when the stream ends (a lone surrogate, as sent)."""
        out = list(self.held.items())
        self.held.clear()
        return out


async def _texts_of(fragments: AsyncIterator[tuple[str, str]]) -> AsyncIterator[str]:
    """The texts of ``(kind, text)`` pairs (the async twin of a generator expression)."""
    async for _, text in fragments:
        yield text


# twin: AsyncStreamManager
class StreamManager(Generic[StreamT]):
    """``with`` opens the stream (``open_stream()``: the call is sent then, not before)
    and yields it; leaving the block closes it."""

    def __init__(self, open_stream: Callable[[], StreamT]) -> None:
        self._open_stream = open_stream
        self._stream: StreamT | None = None

    def __enter__(self) -> StreamT:
        self._stream = self._open_stream()
        return self._stream

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._stream is not None:
            self._stream.close()


# twin: StreamManager
class AsyncStreamManager(Generic[AsyncStreamT]):
    """``async with`` twin of :class:`StreamManager`."""

    def __init__(self, open_stream: Callable[[], Awaitable[AsyncStreamT]]) -> None:
        self._open_stream = open_stream
        self._stream: AsyncStreamT | None = None

    async def __aenter__(self) -> AsyncStreamT:
        self._stream = await self._open_stream()
        return self._stream

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._stream is not None:
            await self._stream.aclose()
