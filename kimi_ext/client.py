"""The clients applications import: :class:`Kimi` and :class:`AsyncKimi`.

One client speaks all three wire formats::

    from kimi_ext import Kimi

    client = Kimi()  # KIMI_API_KEY from the environment
    reply = client.messages.create(
        model="kimi-k3.1-pro", max_tokens=1024, effort="low",
        messages=[{"role": "user", "content": "Reply with OK."}],
    )
    print(reply.text, reply.usage.output)

    with client.chat.completions.stream(model="kimi-k3.1-pro", messages=[...]) as stream:
        for text in stream.text_stream:
            print(text, end="")
        final = stream.final()
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, Unpack, overload

import httpx

from kimi_ext._core.call.building import check_stream, prepare
from kimi_ext._core.call.calling import AsyncCaller, SyncCaller
from kimi_ext._core.call.format import AsyncStreamT, Format, ResultT, StreamT
from kimi_ext._core.contract.options import check_header, client_option_problem
from kimi_ext._core.model.history import History
from kimi_ext._core.model.result import Result
from kimi_ext._core.transport import log as _logging
from kimi_ext._core.transport.config import (
    DEFAULT_BASE_URL,
    DEFAULT_LIMITS,
    DEFAULT_MAX_BODY_SIZE,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    ENV_API_KEY,
    ENV_BASE_URL,
    FALLBACK_BASE_URL,
)
from kimi_ext._core.transport.request import Prepared
from kimi_ext._core.transport.retries import RetryPolicy
from kimi_ext._core.transport.secret import Secret
from kimi_ext._core.transport.sending import (
    AsyncSender,
    SyncSender,
    check_base_url,
    loopback_http_origins,
)
from kimi_ext._keywords import keywords
from kimi_ext.chat import ChatCompletion, ChatHistory, ContinuedChatCompletion
from kimi_ext.errors import ClientConfigError, RequestValidationError
from kimi_ext.formats import CHAT, MESSAGES, RESPONSES
from kimi_ext.keys import missing_key_message
from kimi_ext.messages import ContinuedMessage, Message, MessagesHistory
from kimi_ext.responses import Response, ResponsesHistory
from kimi_ext.structured import Structured, parse_result, place_schema

# The params TypedDicts (derived from the specs) are imported for type checkers only.
if TYPE_CHECKING:
    from kimi_ext._core.streaming.stream import AsyncStreamManager, StreamManager
    from kimi_ext._core.transport.hooking import HookSet
    from kimi_ext.budget import TokenCount
    from kimi_ext.chat.params import ChatParams
    from kimi_ext.chat.stream import AsyncChatCompletionStream, ChatCompletionStream
    from kimi_ext.messages.params import MessagesParams
    from kimi_ext.messages.stream import AsyncMessageStream, MessageStream
    from kimi_ext.responses.params import ResponsesParams
    from kimi_ext.responses.stream import AsyncResponseStream, ResponseStream
    from kimi_ext.tool_loop import ToolRun

__all__ = ["AsyncKimi", "Kimi"]

# Turns telemetry on for clients made without telemetry= (see docs/telemetry.md).
ENV_TELEMETRY = "KIMI_TELEMETRY"
_TRUE = ("1", "true", "yes", "on")
_HOOK_EVENTS = (
    "on_call_start", "on_request", "on_response", "on_retry", "on_fallback", "on_first_event",
    "on_call_end", "on_tool_start", "on_tool_end", "on_scope_start", "on_scope_end",
)  # fmt: skip

HistoryT = TypeVar("HistoryT", bound=History)

_DEFAULT = object()


class _ClientBase:
    """Settings shared by the sync and async clients (resolved once, at construction)."""

    is_async: bool
    """True for :class:`AsyncKimi`: its calls return awaitables."""
    _sender: SyncSender | AsyncSender
    _hooks: HookSet | None = None  # None: no hooks, and the calls take the plain path

    def _configure_hooks(self, hooks: Sequence[Any], telemetry: Any) -> None:
        """The client's hooks: those given, then telemetry's when it is on (``telemetry=``,
        else ``$KIMI_TELEMETRY``). Without either, nothing is imported or made."""
        if telemetry is None:
            telemetry = os.environ.get(ENV_TELEMETRY, "").strip().lower() in _TRUE
        if isinstance(hooks, str | bytes) or not isinstance(hooks, Sequence):
            raise ClientConfigError(f"hooks: must be a list of hooks, not {type(hooks).__name__}")
        chosen = list(hooks)
        if telemetry is not False:
            from kimi_ext.telemetry import telemetry_hook

            chosen.append(telemetry_hook(telemetry))
        if not chosen:
            return
        from kimi_ext._core.transport.hooking import HookSet

        for hook in chosen:
            if not any(callable(getattr(hook, name, None)) for name in _HOOK_EVENTS):
                raise ClientConfigError(
                    f"hooks: {type(hook).__name__} has none of the hook methods "
                    f"({', '.join(_HOOK_EVENTS)}); subclass kimi_ext.hooks.Hook"
                )
        self._hooks = HookSet(chosen, self._key)

    @property
    def hooks(self) -> tuple[Any, ...]:
        """The hooks this client calls (telemetry's included when it is on)."""
        return self._hooks.hooks if self._hooks is not None else ()

    def _configure(
        self,
        api_key: Secret | None,
        base_url: str | None,
        fallback_base_url: str | object | None,
        timeout: httpx.Timeout | float | None,
        max_retries: int,
        default_headers: Mapping[str, str] | None,
        allow_insecure_http: bool,
        deadline: float | None = None,
        max_body_size: int = DEFAULT_MAX_BODY_SIZE,
        limits: httpx.Limits = DEFAULT_LIMITS,
    ) -> dict[str, Any]:
        _logging.setup_from_env()
        key = api_key if api_key is not None else _secret_of(os.environ.get(ENV_API_KEY))
        if key is None or not key.get():
            raise ClientConfigError(missing_key_message())
        _check_key(key)
        _logging.watch_secret(key)
        if default_headers is not None:
            if not isinstance(default_headers, Mapping):
                kind = type(default_headers).__name__
                raise ClientConfigError(f"default_headers: must be a dict, not {kind}")
            for name, value in default_headers.items():
                try:
                    check_header("default_headers", name, value)
                except RequestValidationError as exc:
                    raise ClientConfigError(str(exc)) from None
        options: dict[str, Any] = {
            "timeout": timeout, "max_retries": max_retries, "deadline": deadline,
            "max_body_size": max_body_size, "limits": limits,
        }  # fmt: skip
        for option, setting in options.items():
            problem = client_option_problem(option, setting)
            if problem:
                raise ClientConfigError(f"{option}={_shown(setting)}: {problem}")
        if not isinstance(allow_insecure_http, bool):
            # A truthy string ("no") would send the key in clear.
            raise ClientConfigError(
                f"allow_insecure_http={_shown(allow_insecure_http)}: must be True or False"
            )
        self._limits = limits
        if base_url is not None and not isinstance(base_url, str):
            raise ClientConfigError(f"base_url={_shown(base_url)}: must be a URL (a str) or None")
        base = base_url or os.environ.get(ENV_BASE_URL) or DEFAULT_BASE_URL
        urls = [check_base_url(base, allow_insecure_http=allow_insecure_http)]
        if fallback_base_url is _DEFAULT:
            # Only the default address has a documented fallback.
            fallback_base_url = FALLBACK_BASE_URL if urls[0] == DEFAULT_BASE_URL else None
        if isinstance(fallback_base_url, str):
            urls.append(
                check_base_url(
                    fallback_base_url,
                    allow_insecure_http=allow_insecure_http,
                    name="fallback_base_url",
                )
            )
        elif fallback_base_url is not None:
            raise ClientConfigError(
                f"fallback_base_url={_shown(fallback_base_url)}: must be a URL (a str), "
                "or None for no fallback"
            )
        self._key = key
        self._no_proxy = loopback_http_origins(urls)
        self.max_retries = max_retries
        self.timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        return {
            "api_key": key,
            "base_urls": urls,
            "timeout": self.timeout,
            "policy": RetryPolicy(max_retries=max_retries),
            "default_headers": default_headers,
            "deadline": deadline,
            "max_body_size": max_body_size,
        }

    def _http_options(
        self, transport: type[Any], event_hooks: dict[str, list[Callable[..., Any]]] | None
    ) -> dict[str, Any]:
        """Options of the client's own httpx client: the pool limits, no proxy for a
        plain-http loopback base URL (a proxy from the environment would see the key), and
        the caller's ``event_hooks``."""
        mounts = {origin: transport(limits=self._limits) for origin in self._no_proxy}
        return {
            "timeout": self.timeout, "follow_redirects": False, "limits": self._limits,
            "mounts": mounts or None, "event_hooks": event_hooks,
        }  # fmt: skip

    @property
    def api_key(self) -> str:
        """The API key in use (it never appears in a repr, a log line or an error)."""
        return self._key.get()

    @property
    def base_url(self) -> str:
        """The base URL in use (the fallback once the default could not be reached)."""
        return self._sender.base_url

    def __repr__(self) -> str:
        # The key never appears here.
        sender = getattr(self, "_sender", None)  # None while __init__ has not finished
        base = sender.base_url if sender is not None else None
        return f"{type(self).__name__}(base_url={base!r}, api_key=<redacted>)"

    def __getstate__(self) -> None:
        raise TypeError(f"{type(self).__name__} cannot be pickled (it holds a key and sockets)")


def _secret_of(value: Any) -> Secret | None:
    """The key, held so no repr or traceback shows it; surrounding whitespace (a newline
    read from a file) is stripped. Anything but a str is refused without showing it."""
    if value is None or isinstance(value, Secret):
        return value
    if not isinstance(value, str):
        raise ClientConfigError(f"api_key: must be a str, not {type(value).__name__}")
    return Secret(value.strip())


def _event_hooks(
    hooks: Mapping[str, Sequence[Callable[..., Any]]] | None,
    *,
    given_http_client: bool,
    is_async: bool,
) -> dict[str, list[Callable[..., Any]]] | None:
    """``event_hooks=`` as httpx takes them, or a ClientConfigError naming what is wrong
    (a sync client's hook that is a coroutine function would never run, an async client's
    plain function would fail at the first attempt)."""
    if hooks is None:
        return None
    if given_http_client:
        raise ClientConfigError(
            "event_hooks: cannot be added to a caller-supplied http_client; "
            "give them to that client (httpx.Client(event_hooks=...))"
        )
    if not isinstance(hooks, Mapping):
        raise ClientConfigError(f"event_hooks: must be a dict, not {type(hooks).__name__}")
    out: dict[str, list[Callable[..., Any]]] = {}
    for event, functions in hooks.items():
        if event not in ("request", "response"):
            raise ClientConfigError(
                f"event_hooks: unknown event {event!r}: the events are 'request' and 'response'"
            )
        if isinstance(functions, str | bytes) or not isinstance(functions, Sequence):
            raise ClientConfigError(f"event_hooks[{event!r}]: must be a list of functions")
        for function in functions:
            if not callable(function):
                raise ClientConfigError(f"event_hooks[{event!r}]: {function!r} is not callable")
            is_coroutine = inspect.iscoroutinefunction(function)
            if is_coroutine and not is_async:
                raise ClientConfigError(
                    f"event_hooks[{event!r}]: {function!r} is async; Kimi calls plain "
                    "functions (AsyncKimi takes async ones)"
                )
            if is_async and not is_coroutine and inspect.isroutine(function):
                raise ClientConfigError(
                    f"event_hooks[{event!r}]: {function!r} is not async; AsyncKimi awaits "
                    "its event hooks (async def)"
                )
        out[event] = list(functions)
    return out


def _check_key(key: Secret) -> None:
    """A key that cannot go in a header as it is: refused here, before anything is sent
    (and without quoting it)."""
    for i, char in enumerate(key.get()):
        if not "!" <= char <= "~":
            raise ClientConfigError(
                f"api_key: character {i} (U+{ord(char):04X}) cannot be sent in an HTTP "
                "header; the key must be visible ASCII without spaces (not shown here)"
            )


def _shown(value: Any) -> str:
    """A value as an error quotes it (a huge one cut short)."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


_HTTP_CLIENTS = ((httpx.AsyncClient, "AsyncKimi"), (httpx.Client, "Kimi"))


def _check_schemas(schemas: Any) -> None:
    problem = client_option_problem("schemas", schemas)
    if problem:
        raise ClientConfigError(f"schemas={_shown(schemas)}: {problem}")


def _check_http_client(http_client: Any, client: str, limits: Any) -> None:
    """``http_client=``: an open httpx client of the kind ``client`` (Kimi or AsyncKimi)
    sends with, not given with ``limits=`` (only the client's own pool takes them).
    Otherwise the first call would fail (a coroutine never awaited, a closed pool)."""
    if http_client is None:
        return
    wanted = next(cls for cls, name in _HTTP_CLIENTS if name == client)
    if not isinstance(http_client, wanted):
        kind = type(http_client)
        other = next(
            (
                f" (that is for {name})"
                for cls, name in _HTTP_CLIENTS
                if isinstance(http_client, cls)
            ),
            "",
        )
        raise ClientConfigError(
            f"http_client: {client} takes an httpx.{wanted.__name__}, not "
            f"{kind.__module__}.{kind.__qualname__}{other}"
        )
    if http_client.is_closed:
        raise ClientConfigError("http_client: is closed; pass an open one")
    if limits is not DEFAULT_LIMITS:
        raise ClientConfigError(
            "limits: cannot be applied to a caller-supplied http_client; give them to that "
            f"client (httpx.{wanted.__name__}(limits=...))"
        )


# twin: AsyncKimi
class Kimi(_ClientBase):
    """Synchronous client for Kimi's Chat Completions, Responses and Messages formats.

    ``api_key`` defaults to ``$KIMI_API_KEY``; ``base_url`` to ``$KIMI_BASE_URL`` or
    ``https://direct.evolink.ai`` (with ``https://api.evolink.ai`` as automatic fallback).
    For the seedrouter gateway pass ``base_url=kimi_ext.SEEDROUTER_BASE_URL``.
    Plain ``http://`` is refused except to localhost unless ``allow_insecure_http=True``;
    plain http to localhost never goes through a proxy from the environment.

    ``api_key``: surrounding whitespace (a newline read from a file) is stripped; a key
    with any other character that cannot go in a header is refused. ``deadline``: seconds
    within which each call (its retries, and a stream to its end) must be over (per call:
    ``deadline=``). ``max_body_size``: the most a decompressed success body or a single
    SSE line may hold (64 MiB). ``limits``: the connection pool (1,000 connections).

    Other arguments: ``timeout`` (seconds or an ``httpx.Timeout``; default 10 s to connect,
    900 s to read), ``max_retries`` (default 2), ``http_client`` (your own ``httpx.Client``),
    ``default_headers``, and ``fallback_base_url`` (``None`` turns the fallback off).
    Every option is checked here, by the rules a call's options follow where both have it
    (a ``timeout`` part or ``deadline`` may be at most 30 days; ``None``: no limit): a
    ClientConfigError names the option, the value and the rule, before anything is sent.

    ``event_hooks``: httpx's own event hooks (``{"request": [...], "response": [...]}``) for
    the client's httpx client: called before every HTTP attempt (retries and the fallback
    too) and on every response head, plain functions for :class:`Kimi`, coroutine
    functions for :class:`AsyncKimi`. A request hook can wait (a shared rate limiter, say);
    what it raises ends the call. They see the request as sent, ``Authorization``
    included: do not log it (``hooks=`` gives a redacted view). With ``http_client=``, give
    them to that client instead.

    ``hooks``: objects (subclasses of :class:`kimi_ext.hooks.Hook`) told of each call, each
    HTTP attempt, retry and fallback, a stream's first event and the end of each call.
    ``telemetry``: True (or a :class:`kimi_ext.telemetry.Telemetry`) records OpenTelemetry
    GenAI spans and metrics; the default follows ``$KIMI_TELEMETRY`` (off when unset).

    ``schemas``: what a call does with a JSON Schema you wrote (tool parameters, an output
    schema) that breaks Moonshot's schema rules: ``"normalize"`` (the default) sends an
    equivalent schema that keeps them, when one exists (the changes are logged at DEBUG);
    ``"refuse"`` raises RequestValidationError with the service's words. Either way a
    schema that cannot be fixed is refused and nothing is sent.

    Resources, one per wire format, each with ``create``, ``stream``, ``parse``,
    ``run_tools`` and (Chat, Messages) ``continue_``:

    - ``client.chat.completions``: ``POST /v1/chat/completions``
    - ``client.messages``: ``POST /v1/messages``
    - ``client.responses``: ``POST /v1/responses``

    Example::

        with Kimi() as client:
            msg = client.messages.create(model="kimi-k3.1-pro", max_tokens=1024,
                                         messages=[{"role": "user", "content": "Hi"}])
            print(msg.text, msg.usage.output)
    """

    # twin: differs (which twin it is)
    is_async: Literal[False] = False
    _sender: SyncSender

    def __init__(
        self,
        api_key: str | None = None,
        base_url: str | None = None,
        *,
        timeout: httpx.Timeout | float | None = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.Client | None = None,
        event_hooks: Mapping[str, Sequence[Callable[..., Any]]] | None = None,
        default_headers: Mapping[str, str] | None = None,
        fallback_base_url: str | object | None = _DEFAULT,
        allow_insecure_http: bool = False,
        deadline: float | None = None,
        max_body_size: int = DEFAULT_MAX_BODY_SIZE,
        limits: httpx.Limits = DEFAULT_LIMITS,
        hooks: Sequence[Any] = (),
        telemetry: Any = None,
        schemas: Literal["normalize", "refuse"] = "normalize",
    ) -> None:
        # Rebound at once: a traceback printed with locals then shows <redacted>.
        api_key = _secret_of(api_key)  # type: ignore[assignment]
        config = self._configure(
            api_key, base_url, fallback_base_url, timeout, max_retries, default_headers,  # type: ignore[arg-type]
            allow_insecure_http, deadline, max_body_size, limits,
        )  # fmt: skip
        _check_http_client(http_client, "Kimi", limits)
        _check_schemas(schemas)
        self._configure_hooks(hooks, telemetry)
        self._owns_http = http_client is None
        http_hooks = _event_hooks(
            event_hooks, given_http_client=http_client is not None, is_async=self.is_async
        )
        http = http_client or httpx.Client(**self._http_options(httpx.HTTPTransport, http_hooks))
        self._sender = SyncSender(http, **config)
        # What the resources send through: the client only configures it.
        caller = SyncCaller(self._sender, self._hooks, self._key, schemas=schemas)
        self.chat = Chat(caller)
        self.messages = Messages(caller)
        self.responses = Responses(caller)

    def close(self) -> None:
        """Close the connection pool (not a caller-supplied http_client)."""
        if self._owns_http:
            self._sender.close()

    def __enter__(self) -> Kimi:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# twin: Kimi
class AsyncKimi(_ClientBase):
    """Asynchronous twin of :class:`Kimi` (same arguments; ``await`` the calls)."""

    # twin: differs (which twin it is)
    is_async: Literal[True] = True
    _sender: AsyncSender

    def __init__(
        self,
        api_key: str | None = None,
        base_url: str | None = None,
        *,
        timeout: httpx.Timeout | float | None = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.AsyncClient | None = None,
        event_hooks: Mapping[str, Sequence[Callable[..., Any]]] | None = None,
        default_headers: Mapping[str, str] | None = None,
        fallback_base_url: str | object | None = _DEFAULT,
        allow_insecure_http: bool = False,
        deadline: float | None = None,
        max_body_size: int = DEFAULT_MAX_BODY_SIZE,
        limits: httpx.Limits = DEFAULT_LIMITS,
        hooks: Sequence[Any] = (),
        telemetry: Any = None,
        schemas: Literal["normalize", "refuse"] = "normalize",
    ) -> None:
        api_key = _secret_of(api_key)  # type: ignore[assignment]
        config = self._configure(
            api_key, base_url, fallback_base_url, timeout, max_retries, default_headers,  # type: ignore[arg-type]
            allow_insecure_http, deadline, max_body_size, limits,
        )  # fmt: skip
        _check_http_client(http_client, "AsyncKimi", limits)
        _check_schemas(schemas)
        self._configure_hooks(hooks, telemetry)
        self._owns_http = http_client is None
        http_hooks = _event_hooks(
            event_hooks, given_http_client=http_client is not None, is_async=self.is_async
        )
        http = http_client or httpx.AsyncClient(
            **self._http_options(httpx.AsyncHTTPTransport, http_hooks)
        )
        self._sender = AsyncSender(http, **config)
        caller = AsyncCaller(self._sender, self._hooks, self._key, schemas=schemas)
        self.chat = AsyncChat(caller)
        self.messages = AsyncMessages(caller)
        self.responses = AsyncResponses(caller)

    async def close(self) -> None:
        """Close the connection pool (not a caller-supplied http_client)."""
        if self._owns_http:
            await self._sender.aclose()

    async def __aenter__(self) -> AsyncKimi:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


# --- resources ------------------------------------------------------------------------------
# What a resource does is written once, generic in the format's result, stream and history
# types (_SyncResource / _AsyncResource); the per-format classes name their Format and give
# create, stream and continue_ the format's typed keyword arguments (a TypedDict cannot be
# a type parameter of Unpack, so these signatures are spelled per format). mypy checks them
# with no cast. At run time Unpack is only **params: @keywords makes help() and
# inspect.signature list the format's fields instead (kimi_ext/_keywords.py).


class _Resource(Generic[ResultT, StreamT, AsyncStreamT, HistoryT]):
    format: Format[ResultT, StreamT, AsyncStreamT]
    _schemas: str  # the client's schemas= (how a schema breaking Moonshot's rules is built)

    def _prepare(self, params: Mapping[str, Any], stream: bool) -> Prepared:
        if stream is None:  # as the official SDKs take it: not streamed
            stream = False
        elif type(stream) is not bool:  # stream=1 would stream, and continue_() break
            raise RequestValidationError("stream", stream, "must be True or False (or None)")
        tools = params.get("tools")
        if isinstance(tools, list | tuple) and not all(isinstance(t, Mapping) for t in tools):
            # Functions and kimi_ext.tool() objects, as run_tools takes them: declared the
            # format's way (create() does not run them; the calls are in the result).
            from kimi_ext.tool_loop import tool_declarations

            params = {**params, "tools": tool_declarations(self.format, tools)[0]}
        return prepare(self.format, params, stream=stream, schemas=self._schemas)

    def _count(self, params: Mapping[str, Any]) -> TokenCount:
        """``count_tokens``: the input of the request ``params`` would send (kimi_ext.budget)."""
        from kimi_ext.budget import count_tokens

        tools = params.get("tools")
        if isinstance(tools, list | tuple) and not all(isinstance(t, Mapping) for t in tools):
            from kimi_ext.tool_loop import tool_declarations  # as _prepare declares them

            params = {**params, "tools": tool_declarations(self.format, tools)[0]}
        return count_tokens(self.format, params)


# twin: _AsyncResource
class _SyncResource(_Resource[ResultT, StreamT, Any, HistoryT]):
    def __init__(self, caller: SyncCaller) -> None:
        self._caller = caller
        self._schemas = caller.schemas

    @keywords
    def parse(self, *, schema: Any, name: str | None = None, **params: Any) -> Structured[Any]:
        """Structured output: ``schema`` (JSON Schema dict, dataclass or TypedDict) goes in
        the format's own field; the answer is validated and decoded into ``.value``.

        Raises StructuredOutputError (``truncated=True`` when cut by the token limit).
        """
        params = place_schema(self.format, params, schema, name=name)
        result = self._caller.result(self._prepare(params, False), self.format.result_type)
        return parse_result(result, schema)

    @keywords
    def count_tokens(self, **params: Any) -> TokenCount:
        """The input tokens this request would send, counted offline (no network, no
        tokenizer): from the usage a history object recorded for its last received turn,
        plus an estimate of what came after it. Takes ``create()``'s keyword arguments;
        nothing is validated or sent. See :mod:`kimi_ext.budget`."""
        return self._count(params)

    def _create(self, params: Mapping[str, Any], stream: bool) -> ResultT | StreamT:
        prepared = self._prepare(params, stream)
        if stream:
            return self._caller.stream(prepared, self.format.load_stream())
        return self._caller.result(prepared, self.format.result_type)

    def _stream(self, params: Mapping[str, Any]) -> StreamManager[StreamT]:
        """The stream manager of ``stream()``."""
        prepared = self._prepare(params, True)
        return self._caller.stream_manager(prepared, self.format.load_stream())

    @keywords
    def run_tools(
        self, *, tools: Iterable[Any], max_rounds: int = 10, **params: Any
    ) -> ToolRun[ResultT, HistoryT]:
        """Call the model, run the Python tools it asks for, repeat until it answers without
        tool calls or ``max_rounds`` model calls were made (see :mod:`kimi_ext.tool_loop`).
        Returns the final result and the whole history (a ChatHistory, MessagesHistory or
        ResponsesHistory, as the format is)."""
        from kimi_ext.tool_loop import run_tools

        check_stream(params, False)  # refused before a turn is sent: a tool loop never streams
        return run_tools(self, self._caller.hooks, tools=tools, max_rounds=max_rounds, **params)

    def _continue(self, prefix: str, params: Mapping[str, Any]) -> Result:
        from kimi_ext.continuation import continue_answer

        check_stream(params, False)  # a continuation joins a whole answer: it never streams
        return continue_answer(self, prefix=prefix, **params)


# twin: _SyncResource
class _AsyncResource(_Resource[ResultT, Any, AsyncStreamT, HistoryT]):
    def __init__(self, caller: AsyncCaller) -> None:
        self._caller = caller
        self._schemas = caller.schemas

    @keywords
    async def parse(
        self, *, schema: Any, name: str | None = None, **params: Any
    ) -> Structured[Any]:
        """Async structured output (see the sync ``parse``)."""
        params = place_schema(self.format, params, schema, name=name)
        result = await self._caller.result(self._prepare(params, False), self.format.result_type)
        return parse_result(result, schema)

    @keywords
    async def count_tokens(self, **params: Any) -> TokenCount:
        """The input tokens this request would send, counted offline (no network, no
        tokenizer): from the usage a history object recorded for its last received turn,
        plus an estimate of what came after it. Takes ``create()``'s keyword arguments;
        nothing is validated or sent. See :mod:`kimi_ext.budget`."""
        return self._count(params)

    async def _create(self, params: Mapping[str, Any], stream: bool) -> ResultT | AsyncStreamT:
        prepared = self._prepare(params, stream)
        if stream:
            return await self._caller.stream(prepared, self.format.load_async_stream())
        return await self._caller.result(prepared, self.format.result_type)

    def _stream(self, params: Mapping[str, Any]) -> AsyncStreamManager[AsyncStreamT]:
        """The async stream manager of ``stream()``."""
        prepared = self._prepare(params, True)
        return self._caller.stream_manager(prepared, self.format.load_async_stream())

    @keywords
    async def run_tools(
        self, *, tools: Iterable[Any], max_rounds: int = 10, **params: Any
    ) -> ToolRun[ResultT, HistoryT]:
        """Async ``run_tools``: the calls of one turn run concurrently."""
        from kimi_ext.tool_loop import arun_tools

        check_stream(params, False)  # refused before a turn is sent: a tool loop never streams
        return await arun_tools(
            self, self._caller.hooks, tools=tools, max_rounds=max_rounds, **params
        )

    async def _continue(self, prefix: str, params: Mapping[str, Any]) -> Result:
        from kimi_ext.continuation import acontinue_answer

        check_stream(params, False)  # a continuation joins a whole answer: it never streams
        return await acontinue_answer(self, prefix=prefix, **params)


# twin: AsyncChatCompletions
class ChatCompletions(_SyncResource[ChatCompletion, "ChatCompletionStream", ChatHistory]):
    """``client.chat.completions``: ``POST /v1/chat/completions``."""

    format = CHAT

    @overload
    def create(
        self, *, stream: Literal[False] = False, **params: Unpack[ChatParams]
    ) -> ChatCompletion: ...
    @overload
    def create(
        self, *, stream: Literal[True], **params: Unpack[ChatParams]
    ) -> ChatCompletionStream: ...
    @keywords
    def create(
        self, *, stream: bool = False, **params: Any
    ) -> ChatCompletion | ChatCompletionStream:
        """Create a chat completion. ``stream=True`` returns the event stream instead.

        Keyword arguments are named as on the wire; ``effort=`` sets ``reasoning_effort``.
        Raises RequestValidationError (nothing sent) when a documented rule is broken.
        """
        return self._create(params, stream)

    @keywords
    def stream(self, **params: Unpack[ChatParams]) -> StreamManager[ChatCompletionStream]:
        """A context manager yielding a :class:`~kimi_ext.chat.stream.ChatCompletionStream`."""
        return self._stream(params)

    @keywords
    def continue_(self, *, prefix: str, **params: Unpack[ChatParams]) -> ContinuedChatCompletion:
        """Continue the answer from ``prefix``; ``.text`` is the prefix and the continuation
        as one text (see :mod:`kimi_ext.continuation`)."""
        result = self._continue(prefix, params)
        assert isinstance(result, ContinuedChatCompletion)
        return result


# twin: AsyncChat
class Chat:
    """``client.chat``."""

    def __init__(self, caller: SyncCaller) -> None:
        self.completions = ChatCompletions(caller)


# twin: AsyncMessages
class Messages(_SyncResource[Message, "MessageStream", MessagesHistory]):
    """``client.messages``: ``POST /v1/messages`` (sends ``anthropic-version``)."""

    format = MESSAGES

    @overload
    def create(
        self, *, stream: Literal[False] = False, **params: Unpack[MessagesParams]
    ) -> Message: ...
    @overload
    def create(
        self, *, stream: Literal[True], **params: Unpack[MessagesParams]
    ) -> MessageStream: ...
    @keywords
    def create(self, *, stream: bool = False, **params: Any) -> Message | MessageStream:
        """Create a message. ``stream=True`` returns the event stream instead.

        ``effort=`` sets ``output_config.effort``.
        """
        return self._create(params, stream)

    @keywords
    def stream(self, **params: Unpack[MessagesParams]) -> StreamManager[MessageStream]:
        """A context manager yielding a :class:`~kimi_ext.messages.stream.MessageStream`."""
        return self._stream(params)

    @keywords
    def continue_(self, *, prefix: str, **params: Unpack[MessagesParams]) -> ContinuedMessage:
        """Continue the answer from ``prefix``; ``.text`` is the prefix and the continuation
        as one text (see :mod:`kimi_ext.continuation`)."""
        result = self._continue(prefix, params)
        assert isinstance(result, ContinuedMessage)
        return result


# twin: AsyncResponses
class Responses(_SyncResource[Response, "ResponseStream", ResponsesHistory]):
    """``client.responses``: ``POST /v1/responses`` (stateless: replay the history)."""

    format = RESPONSES

    @overload
    def create(
        self, *, stream: Literal[False] = False, **params: Unpack[ResponsesParams]
    ) -> Response: ...
    @overload
    def create(
        self, *, stream: Literal[True], **params: Unpack[ResponsesParams]
    ) -> ResponseStream: ...
    @keywords
    def create(self, *, stream: bool = False, **params: Any) -> Response | ResponseStream:
        """Create a response. ``stream=True`` returns the event stream instead.

        ``effort=`` sets ``reasoning.effort``.
        """
        return self._create(params, stream)

    @keywords
    def stream(self, **params: Unpack[ResponsesParams]) -> StreamManager[ResponseStream]:
        """A context manager yielding a :class:`~kimi_ext.responses.stream.ResponseStream`."""
        return self._stream(params)


# twin: ChatCompletions
class AsyncChatCompletions(
    _AsyncResource[ChatCompletion, "AsyncChatCompletionStream", ChatHistory]
):
    """``client.chat.completions`` on :class:`AsyncKimi`: the twin of :class:`ChatCompletions`."""

    format = CHAT

    @overload
    async def create(
        self, *, stream: Literal[False] = False, **params: Unpack[ChatParams]
    ) -> ChatCompletion: ...
    @overload
    async def create(
        self, *, stream: Literal[True], **params: Unpack[ChatParams]
    ) -> AsyncChatCompletionStream: ...
    @keywords
    async def create(
        self, *, stream: bool = False, **params: Any
    ) -> ChatCompletion | AsyncChatCompletionStream:
        """Async :meth:`ChatCompletions.create`."""
        return await self._create(params, stream)

    @keywords
    def stream(self, **params: Unpack[ChatParams]) -> AsyncStreamManager[AsyncChatCompletionStream]:
        """An async context manager yielding an AsyncChatCompletionStream."""
        return self._stream(params)

    @keywords
    async def continue_(
        self, *, prefix: str, **params: Unpack[ChatParams]
    ) -> ContinuedChatCompletion:
        """Async :meth:`ChatCompletions.continue_`."""
        result = await self._continue(prefix, params)
        assert isinstance(result, ContinuedChatCompletion)
        return result


# twin: Chat
class AsyncChat:
    """``client.chat`` on :class:`AsyncKimi`."""

    def __init__(self, caller: AsyncCaller) -> None:
        self.completions = AsyncChatCompletions(caller)


# twin: Messages
class AsyncMessages(_AsyncResource[Message, "AsyncMessageStream", MessagesHistory]):
    """``client.messages`` on :class:`AsyncKimi`: the twin of :class:`Messages`."""

    format = MESSAGES

    @overload
    async def create(
        self, *, stream: Literal[False] = False, **params: Unpack[MessagesParams]
    ) -> Message: ...
    @overload
    async def create(
        self, *, stream: Literal[True], **params: Unpack[MessagesParams]
    ) -> AsyncMessageStream: ...
    @keywords
    async def create(self, *, stream: bool = False, **params: Any) -> Message | AsyncMessageStream:
        """Async :meth:`Messages.create`."""
        return await self._create(params, stream)

    @keywords
    def stream(self, **params: Unpack[MessagesParams]) -> AsyncStreamManager[AsyncMessageStream]:
        """An async context manager yielding an AsyncMessageStream."""
        return self._stream(params)

    @keywords
    async def continue_(self, *, prefix: str, **params: Unpack[MessagesParams]) -> ContinuedMessage:
        """Async :meth:`Messages.continue_`."""
        result = await self._continue(prefix, params)
        assert isinstance(result, ContinuedMessage)
        return result


# twin: Responses
class AsyncResponses(_AsyncResource[Response, "AsyncResponseStream", ResponsesHistory]):
    """``client.responses`` on :class:`AsyncKimi`: the twin of :class:`Responses`."""

    format = RESPONSES

    @overload
    async def create(
        self, *, stream: Literal[False] = False, **params: Unpack[ResponsesParams]
    ) -> Response: ...
    @overload
    async def create(
        self, *, stream: Literal[True], **params: Unpack[ResponsesParams]
    ) -> AsyncResponseStream: ...
    @keywords
    async def create(
        self, *, stream: bool = False, **params: Any
    ) -> Response | AsyncResponseStream:
        """Async :meth:`Responses.create`."""
        return await self._create(params, stream)

    @keywords
    def stream(self, **params: Unpack[ResponsesParams]) -> AsyncStreamManager[AsyncResponseStream]:
        """An async context manager yielding an AsyncResponseStream."""
        return self._stream(params)
