"""The hook seam: see each call, each HTTP attempt and how each call ended, without patching.

Subclass :class:`Hook`, override what you need and pass it to the client::

    from kimi_ext import Kimi
    from kimi_ext.hooks import Hook

    class CostLog(Hook):
        def on_retry(self, call, error, wait):
            print(f"retrying {call.model} in {wait:.1f} s after {type(error).__name__}")

        def on_call_end(self, call, end):
            if end.usage is not None:
                print(call.model, end.usage.total_input, end.usage.output)

    client = Kimi(hooks=[CostLog()])

The events, in order: ``on_call_start``; per attempt ``on_request`` (the request as sent,
credentials redacted) and ``on_response`` (the head, any status); ``on_retry`` (the error
and the wait) or ``on_fallback`` (the base URL switch) between attempts; for a stream
``on_first_event`` (its first bytes); ``on_call_end`` (the result, the error, or a cut
stream's partial result with its error, and the normalized usage). ``run_tools`` adds
``on_tool_start`` / ``on_tool_end`` per tool call; :func:`scope` adds ``on_scope_start`` /
``on_scope_end`` around a group of calls (a batch run). OpenTelemetry
(:mod:`kimi_ext.telemetry`) is built on these same events.

Hook methods are plain functions, called in the sync and async clients alike, on the
thread or task making the call. A method that raises is logged on one WARNING line of the
``kimi_ext`` logger (the key redacted, no traceback) and the call goes on as without it;
what hooks receive never holds the API key.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from types import TracebackType
from typing import Any

from kimi_ext._core.transport.hooking import (
    CallEnd,
    CallInfo,
    Hook,
    RequestInfo,
    ResponseHead,
    ScopeInfo,
    ToolInfo,
)

__all__ = [
    "CallEnd",
    "CallInfo",
    "Hook",
    "RequestInfo",
    "ResponseHead",
    "ScopeInfo",
    "ToolInfo",
    "scope",
]


class scope:
    """A named group of calls on ``client`` (a batch run, a request of your own service):
    its hooks get ``on_scope_start`` on entry and ``on_scope_end`` on exit, and with
    telemetry on, the calls made inside become children of one span named ``name``.

    Works as ``with`` and ``async with``; ``attributes`` are handed to the hooks (and set
    on that span). With a client without hooks it does nothing::

        with scope(client, "batch", {"kimi.batch.size": len(prompts)}):
            for prompt in prompts:
                client.messages.create(...)
    """

    def __init__(self, client: Any, name: str, attributes: Mapping[str, Any] | None = None) -> None:
        hooks = getattr(client, "_hooks", None)
        self._body = hooks.scope(name, attributes or {}) if hooks is not None else None
        self.info: ScopeInfo | None = None

    def __enter__(self) -> ScopeInfo | None:
        if self._body is not None:
            self.info = next(self._body)
        return self.info

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        body, self._body = self._body, None
        if body is None:
            return
        if exc is None:
            with contextlib.suppress(StopIteration):
                next(body)
            return
        with contextlib.suppress(BaseException):
            body.throw(exc)

    async def __aenter__(self) -> ScopeInfo | None:
        return self.__enter__()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.__exit__(exc_type, exc, tb)
