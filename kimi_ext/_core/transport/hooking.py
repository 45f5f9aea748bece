"""The hook seam's machinery (the public face is :mod:`kimi_ext.hooks`).

A client given hooks builds one :class:`HookSet` at construction: for each event, the bound
methods of the hooks that override it (a hook that leaves a method alone costs nothing for
that event). Each call then gets a :class:`CallHooks`, created only when there are hooks,
which the sender, the stream and the client tell what happens; a client without hooks
creates none, so its calls pay one ``is None`` test per seam.

What hooks are handed never holds the API key: request headers are copied through
:func:`~kimi_ext._core.transport.log.redact_headers`, bodies through ``redact_bytes``. A hook that
raises is logged on one WARNING line (its class, the method, the exception's type and
message with the key redacted, no traceback: its locals could hold anything) and the call
goes on exactly as without it.
"""

from __future__ import annotations

import inspect
import json
import time
from collections.abc import Callable, Generator, Iterable, Mapping
from typing import Any

import httpx

from kimi_ext._core.model.usage import Usage
from kimi_ext._core.transport.log import logger, redact_headers
from kimi_ext._core.transport.secret import Secret, redact, redact_bytes

__all__ = [
    "EVENTS",
    "CallEnd",
    "CallHooks",
    "CallInfo",
    "Hook",
    "HookSet",
    "RequestInfo",
    "ResponseHead",
    "ToolInfo",
]


class Hook:
    """Base class of a hook: override the methods you need (each default does nothing).

    Every method is called synchronously, in the sync and the async client alike, on the
    thread or task that makes the call, so keep them quick. A method that raises is
    logged (one WARNING line on the ``kimi_ext`` logger, the key redacted) and the call
    goes on unaffected. ``call.data`` is a dict for the hook's own per-call state.
    """

    def on_call_start(self, call: CallInfo) -> None:
        """A logical call begins (before its first attempt)."""

    def on_request(self, call: CallInfo, request: RequestInfo) -> None:
        """An HTTP attempt is about to be sent (``request`` as sent, redacted)."""

    def on_response(self, call: CallInfo, response: ResponseHead) -> None:
        """An attempt's response head arrived (any status)."""

    def on_retry(self, call: CallInfo, error: BaseException, wait: float) -> None:
        """An attempt failed with ``error`` and the next one starts after ``wait`` seconds."""

    def on_fallback(self, call: CallInfo, old_url: str, new_url: str, error: BaseException) -> None:
        """``old_url`` could not be reached; this and later calls use ``new_url``."""

    def on_first_event(self, call: CallInfo, elapsed: float) -> None:
        """A stream's first bytes arrived, ``elapsed`` seconds after the call began."""

    def on_call_end(self, call: CallInfo, end: CallEnd) -> None:
        """The call is over: a result, an error, or both (a cut stream's partial)."""

    def on_tool_start(self, tool: ToolInfo) -> None:
        """``run_tools`` is about to run a tool call."""

    def on_tool_end(self, tool: ToolInfo, output: str, error: str | None) -> None:
        """The tool call ended: ``output`` as sent back, ``error`` its type when it failed."""

    def on_scope_start(self, scope: ScopeInfo) -> None:
        """A scope opened by :func:`kimi_ext.hooks.scope` begins (a batch run, say)."""

    def on_scope_end(self, scope: ScopeInfo, error: BaseException | None) -> None:
        """That scope ends (``error``: what ended it, if anything did)."""


EVENTS = tuple(name for name in vars(Hook) if name.startswith("on_"))


class CallInfo:
    """One logical call as hooks see it: its format, whether it streams, where it goes and
    the JSON body as sent (``body``, decoded on first use). ``data`` is for the hooks.
    ``started`` is when it began on the ``time.perf_counter()`` clock (durations and the
    time to the first event are measured from it), ``started_ns`` the same moment on the
    ``time.time_ns()`` clock (a span that starts with the call uses it)."""

    __slots__ = (
        "_body", "_built", "_content", "_secret", "base_url", "data", "format", "operation",
        "started", "started_ns", "stream",
    )  # fmt: skip

    def __init__(
        self,
        fmt: str,
        stream: bool,
        content: bytes,
        base_url: str,
        secret: Secret,
        built: dict[str, Any] | None = None,
    ) -> None:
        self.format = fmt
        self.operation = "chat"  # every format's one operation generates a reply
        self.stream = stream
        self.base_url = base_url
        self.data: dict[Any, Any] = {}
        self.started = time.perf_counter()
        self.started_ns = time.time_ns()
        self._content = content
        self._secret = secret
        self._body: Any = None
        self._built = built

    @property
    def body(self) -> dict[str, Any]:
        """The request body as sent (decoded JSON; the key, if a body held it, redacted)."""
        if self._body is None:
            try:
                body = json.loads(redact_bytes(self._content, self._secret))
            except ValueError:
                body = {}
            self._body = body if isinstance(body, dict) else {}
        return self._body  # type: ignore[no-any-return]

    def field(self, name: str) -> Any:
        """A top-level field of the body as sent (None when absent), read without decoding
        the whole body: for a scalar such as ``model`` or ``max_tokens`` (a string is
        returned with the key redacted; read lists and objects from :attr:`body`)."""
        return self.fields(name)[0]

    def fields(self, *names: str) -> list[Any]:
        """Several top-level fields at once, as :meth:`field` reads each (strings redacted,
        None when absent): ``model, limit = call.fields("model", "max_tokens")``."""
        built = self._built
        get = (built if built is not None else self.body).get
        secret = self._secret
        return [redact(v, secret) if isinstance(v, str) else v for v in map(get, names)]

    @property
    def model(self) -> str | None:
        """The model asked for (None when the body names none)."""
        model = self.field("model")
        return model if isinstance(model, str) else None

    def redacted(self, text: str) -> str:
        """``text`` with the client's API key taken out (for an error message, say)."""
        return redact(text, self._secret)

    def __repr__(self) -> str:
        return f"CallInfo({self.format}, stream={self.stream}, {self.base_url})"


class RequestInfo:
    """One HTTP attempt's request as sent, redacted: ``attempt`` (0 for the first),
    ``method``, ``url``, ``headers`` (credentials shown as ``<redacted>``) and ``content``
    (the body bytes). Headers and body are copied, redacted, when first read."""

    __slots__ = ("_request", "_secret", "attempt", "method")

    def __init__(self, request: httpx.Request, attempt: int, secret: Secret) -> None:
        self.attempt = attempt
        self.method = request.method
        self._request = request
        self._secret = secret

    @property
    def url(self) -> str:
        return redact(str(self._request.url), self._secret)

    @property
    def headers(self) -> dict[str, str]:
        return redact_headers(self._request.headers.items(), self._secret)

    @property
    def content(self) -> bytes:
        return redact_bytes(self._request.content, self._secret)

    def __repr__(self) -> str:
        return f"RequestInfo(attempt={self.attempt}, {self.method} {self.url})"


class ResponseHead:
    """An attempt's response head: ``status_code``, ``headers`` (redacted, copied when
    first read), ``http_version`` and ``elapsed`` (seconds from sending the attempt to its
    head)."""

    __slots__ = ("_response", "_secret", "attempt", "elapsed", "status_code")

    def __init__(
        self, response: httpx.Response, attempt: int, elapsed: float, secret: Secret
    ) -> None:
        self.attempt = attempt
        self.status_code = response.status_code
        self.elapsed = elapsed
        self._response = response
        self._secret = secret

    @property
    def http_version(self) -> str:
        return self._response.http_version

    @property
    def headers(self) -> dict[str, str]:
        return redact_headers(self._response.headers.items(), self._secret)

    def __repr__(self) -> str:
        return f"ResponseHead(attempt={self.attempt}, {self.status_code})"


class CallEnd:
    """How a call ended. ``result``: the result the user got (for a stream that did not
    finish, the partial one); ``error``: the exception raised to the user, if any;
    ``usage``: the normalized usage of ``result`` (None without one); ``finished``: False
    for a stream that ended before its terminal event (cut, or closed early);
    ``duration``: seconds since the call began; ``attempts``: HTTP attempts made."""

    __slots__ = ("attempts", "duration", "error", "finished", "result", "usage")

    def __init__(
        self,
        result: Any,
        error: BaseException | None,
        finished: bool,
        duration: float,
        attempts: int,
    ) -> None:
        self.result = result
        self.error = error
        self.finished = finished
        self.duration = duration
        self.attempts = attempts
        usage = getattr(result, "usage", None)
        self.usage: Usage | None = usage if isinstance(usage, Usage) else None

    def __repr__(self) -> str:
        what = type(self.error).__name__ if self.error is not None else "ok"
        return f"CallEnd({what}, finished={self.finished}, {self.duration:.3f} s)"


class ToolInfo:
    """A tool call ``run_tools`` runs: ``name``, ``call_id``, ``arguments`` (as decoded;
    the JSON text for a custom tool) and ``data`` for the hooks."""

    __slots__ = ("_secret", "arguments", "call_id", "data", "name")

    def __init__(self, name: str, call_id: str, arguments: Any, secret: Secret) -> None:
        self.name = name
        self.call_id = call_id
        self.arguments = arguments
        self.data: dict[Any, Any] = {}
        self._secret = secret

    def redacted(self, text: str) -> str:
        """``text`` with the client's API key taken out (arguments or output to record)."""
        return redact(text, self._secret)

    def __repr__(self) -> str:
        return f"ToolInfo({self.name}, {self.call_id})"


class ScopeInfo:
    """A scope opened by :func:`kimi_ext.hooks.scope`: its ``name`` and ``attributes``."""

    __slots__ = ("attributes", "data", "name")

    def __init__(self, name: str, attributes: Mapping[str, Any]) -> None:
        self.name = name
        self.attributes = dict(attributes)
        self.data: dict[Any, Any] = {}

    def __repr__(self) -> str:
        return f"ScopeInfo({self.name})"


class HookSet:
    """A client's hooks, sorted by event: for each event the bound methods that do
    something (a method a hook did not override is never called)."""

    def __init__(self, hooks: Iterable[Any], secret: Secret) -> None:
        self.hooks = tuple(hooks)
        self.secret = secret
        self.by_event: dict[str, tuple[Callable[..., Any], ...]] = {}
        for name in EVENTS:
            methods = []
            for hook in self.hooks:
                method = getattr(hook, name, None)
                base = getattr(Hook, name)
                if method is None or getattr(method, "__func__", None) is base:
                    continue
                methods.append(method)
            self.by_event[name] = tuple(methods)

    def emit(self, event: str, *args: Any) -> None:
        """Call every hook that handles ``event``; a raising hook is logged, never raised."""
        for method in self.by_event[event]:
            try:
                returned = method(*args)
            except Exception as exc:
                self._failed(method, event, exc)
                del exc
                continue
            if returned is not None and inspect.isawaitable(returned):
                if inspect.iscoroutine(returned):
                    returned.close()  # never awaited: no "never awaited" warning either
                self._failed(
                    method, event,
                    TypeError("hook methods are called synchronously; it returned an awaitable"),
                )  # fmt: skip

    def _failed(self, method: Any, event: str, exc: BaseException) -> None:
        owner = type(getattr(method, "__self__", method)).__name__
        text = redact(f"{type(exc).__name__}: {exc}", self.secret)
        logger.warning(
            "hook %s.%s raised %s; the call goes on without it", owner, event, text[:500]
        )

    def begin(
        self,
        fmt: str,
        stream: bool,
        content: bytes,
        base_url: str,
        built: dict[str, Any] | None = None,
    ) -> CallHooks:
        """The per-call seam of a call that begins now (``on_call_start`` is sent)."""
        info = CallInfo(fmt, stream, content, base_url, self.secret, built)
        call = CallHooks(self, info)
        self.emit("on_call_start", call.info)
        return call

    def tool(self, name: str, call_id: str, arguments: Any) -> ToolInfo:
        tool = ToolInfo(name, call_id, arguments, self.secret)
        self.emit("on_tool_start", tool)
        return tool

    def tool_end(self, tool: ToolInfo, output: str, error: str | None) -> None:
        self.emit("on_tool_end", tool, output, error)

    def scope(self, name: str, attributes: Mapping[str, Any]) -> Generator[ScopeInfo, None, None]:
        """The body of :func:`kimi_ext.hooks.scope` (a generator for contextmanager)."""
        info = ScopeInfo(name, attributes)
        self.emit("on_scope_start", info)
        try:
            yield info
        except BaseException as exc:
            self.emit("on_scope_end", info, exc)
            raise
        self.emit("on_scope_end", info, None)


class CallHooks:
    """What one call tells its hooks; made only for a client that has hooks."""

    __slots__ = ("attempts", "ended", "first_seen", "hooks", "info", "sent_at")

    def __init__(self, hooks: HookSet, info: CallInfo) -> None:
        self.hooks = hooks
        self.info = info
        self.attempts = 0
        self.first_seen = False
        self.ended = False
        self.sent_at = info.started

    def request(self, request: httpx.Request, attempt: int) -> None:
        self.attempts += 1
        self.sent_at = time.perf_counter()
        if self.hooks.by_event["on_request"]:
            info = RequestInfo(request, attempt, self.hooks.secret)
            self.hooks.emit("on_request", self.info, info)

    def response(self, response: httpx.Response, attempt: int) -> None:
        if self.hooks.by_event["on_response"]:
            elapsed = time.perf_counter() - self.sent_at
            head = ResponseHead(response, attempt, elapsed, self.hooks.secret)
            self.hooks.emit("on_response", self.info, head)

    def retry(self, error: BaseException, wait: float) -> None:
        self.hooks.emit("on_retry", self.info, error, wait)

    def fallback(self, old_url: str, new_url: str, error: BaseException) -> None:
        self.hooks.emit("on_fallback", self.info, old_url, new_url, error)

    def first_event(self) -> None:
        if self.first_seen:
            return
        self.first_seen = True
        self.hooks.emit("on_first_event", self.info, time.perf_counter() - self.info.started)

    def end(self, result: Any, error: BaseException | None, finished: bool = True) -> None:
        """The call is over (only the first end counts: a stream may be closed twice)."""
        if self.ended:
            return
        self.ended = True
        duration = time.perf_counter() - self.info.started
        end = CallEnd(result, error, finished, duration, self.attempts)
        self.hooks.emit("on_call_end", self.info, end)
