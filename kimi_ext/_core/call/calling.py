"""Where a built request is sent and its reply parsed: the last step of a call's one way.

A client makes one caller at construction (:class:`SyncCaller` for :class:`~kimi_ext.Kimi`,
:class:`AsyncCaller` for :class:`~kimi_ext.AsyncKimi`) and hands it to each of its
resources. A resource builds and checks the request (:func:`.building.prepare`), then asks
its caller for the result or the stream; the caller sends it
(:mod:`~kimi_ext._core.transport.sending`), tells the hooks, and gives the reply to the
format's result class (:mod:`~kimi_ext._core.model.result`) or stream class
(:mod:`~kimi_ext._core.streaming.stream`). Nothing on the way calls back into the client:
the client only configures (the key, the sender, the hooks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from kimi_ext._core.model.result import Result
from kimi_ext._core.transport.sending import AsyncSender, SyncSender, parse_json_body

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    import httpx

    from kimi_ext._core.streaming.stream import (
        AsyncStream,
        AsyncStreamManager,
        StreamManager,
        SyncStream,
    )
    from kimi_ext._core.transport.hooking import CallHooks, HookSet
    from kimi_ext._core.transport.request import Prepared
    from kimi_ext._core.transport.secret import Secret
    from kimi_ext._core.transport.sending import CallState
    from kimi_ext.errors import APIStatusError

__all__ = ["AsyncCaller", "SyncCaller"]

R = TypeVar("R", bound=Result)
S = TypeVar("S", bound="SyncStream[Any]")
AS = TypeVar("AS", bound="AsyncStream[Any]")


class _CallerBase:
    """What both callers hold: the client's sender, its hooks (None: the plain path, one
    ``is None`` test per call), its key (for the results' and streams' redaction) and how
    its resources build a request with a schema that breaks Moonshot's rules (``schemas``:
    ``"normalize"`` or ``"refuse"``)."""

    __slots__ = ("hooks", "schemas", "secret", "sender")

    def __init__(
        self,
        sender: SyncSender | AsyncSender,
        hooks: HookSet | None,
        secret: Secret,
        *,
        schemas: str = "normalize",
    ) -> None:
        self.sender = sender
        self.hooks = hooks
        self.secret = secret
        self.schemas = schemas

    def _begin(self, prepared: Prepared, fmt: str) -> CallHooks:
        """The hooks of a call that begins now (only for a client with hooks)."""
        assert self.hooks is not None
        return self.hooks.begin(
            fmt, prepared.stream, prepared.content, self.sender.base_url, prepared.built
        )

    def _start_stream(self, prepared: Prepared, stream_cls: type[Any]) -> CallState:
        """A streamed call's state, its hooks begun (when the client has hooks)."""
        if self.hooks is None:
            return self.sender.start(prepared)
        call = self._begin(prepared, stream_cls._accumulator_type.result_type.format)
        return self.sender.start(prepared, call)


# twin: AsyncCaller
class SyncCaller(_CallerBase):
    """Sends a :class:`~kimi_ext._core.transport.request.Prepared` request with a
    :class:`~kimi_ext._core.transport.sending.SyncSender` and parses the reply."""

    __slots__ = ()
    sender: SyncSender

    def result(self, prepared: Prepared, result_cls: type[R]) -> R:
        """Send a plain (not streamed) request; its reply as ``result_cls``."""
        if self.hooks is not None:
            return self._hooked_result(prepared, result_cls)
        response = self.sender.send(prepared, self.sender.start(prepared))
        return result_cls(parse_json_body(response, self.secret), response)

    def _hooked_result(self, prepared: Prepared, result_cls: type[R]) -> R:
        call = self._begin(prepared, result_cls.format)
        try:
            response = self.sender.send(prepared, self.sender.start(prepared, call))
            result = result_cls(parse_json_body(response, self.secret), response)
        except BaseException as exc:
            call.end(None, exc)
            raise
        call.end(result, None)
        return result

    def stream(self, prepared: Prepared, stream_cls: type[S]) -> S:
        """Send a streamed request now; its reply as a ``stream_cls``, handed the call's
        state (deadline, caps, hooks) and how to send the call again."""
        state = self._start_stream(prepared, stream_cls)
        response = self._open(prepared, state)
        return stream_cls(
            response, secret=self.secret, state=state, reopen=self._reopen(prepared, state)
        )

    def stream_manager(self, prepared: Prepared, stream_cls: type[S]) -> StreamManager[S]:
        """A context manager that sends the streamed request on entry (``stream()``)."""
        from kimi_ext._core.streaming.stream import StreamManager

        return StreamManager(lambda: self.stream(prepared, stream_cls))

    def _reopen(
        self, prepared: Prepared, state: CallState
    ) -> Callable[[APIStatusError], httpx.Response]:
        """How the stream asks for another attempt after a failure it received before any
        event (see SyncSender.send's ``failure``)."""
        return lambda error: self.sender.send(prepared, state, failure=error)

    def _open(self, prepared: Prepared, state: CallState) -> httpx.Response:
        """Open a stream's response; the stream tells the hooks how the call ends."""
        call = state.call
        if call is None:
            return self.sender.send(prepared, state)
        try:
            return self.sender.send(prepared, state)
        except BaseException as exc:
            call.end(None, exc, finished=False)
            raise


# twin: SyncCaller
class AsyncCaller(_CallerBase):
    """The async twin of :class:`SyncCaller` (an :class:`AsyncSender`; ``await`` it)."""

    __slots__ = ()
    sender: AsyncSender

    async def result(self, prepared: Prepared, result_cls: type[R]) -> R:
        """Send a plain (not streamed) request; its reply as ``result_cls``."""
        if self.hooks is not None:
            return await self._hooked_result(prepared, result_cls)
        response = await self.sender.send(prepared, self.sender.start(prepared))
        return result_cls(parse_json_body(response, self.secret), response)

    async def _hooked_result(self, prepared: Prepared, result_cls: type[R]) -> R:
        call = self._begin(prepared, result_cls.format)
        try:
            response = await self.sender.send(prepared, self.sender.start(prepared, call))
            result = result_cls(parse_json_body(response, self.secret), response)
        except BaseException as exc:
            call.end(None, exc)
            raise
        call.end(result, None)
        return result

    async def stream(self, prepared: Prepared, stream_cls: type[AS]) -> AS:
        """Send a streamed request now; its reply as a ``stream_cls``."""
        state = self._start_stream(prepared, stream_cls)
        response = await self._open(prepared, state)
        return stream_cls(
            response, secret=self.secret, state=state, reopen=self._reopen(prepared, state)
        )

    def stream_manager(self, prepared: Prepared, stream_cls: type[AS]) -> AsyncStreamManager[AS]:
        """An async context manager that sends the streamed request on entry."""
        from kimi_ext._core.streaming.stream import AsyncStreamManager

        return AsyncStreamManager(lambda: self.stream(prepared, stream_cls))

    def _reopen(
        self, prepared: Prepared, state: CallState
    ) -> Callable[[APIStatusError], Awaitable[httpx.Response]]:
        """The async twin of SyncCaller._reopen."""
        return lambda error: self.sender.send(prepared, state, failure=error)

    async def _open(self, prepared: Prepared, state: CallState) -> httpx.Response:
        call = state.call
        if call is None:
            return await self.sender.send(prepared, state)
        try:
            return await self.sender.send(prepared, state)
        except BaseException as exc:
            call.end(None, exc, finished=False)
            raise
