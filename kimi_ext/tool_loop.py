"""The model → tools → model loop behind ``client.<format>.run_tools``.

The loop runs until the model ends its turn without tool calls, or ``max_rounds`` model
calls were made (then ``run.max_rounds_reached`` is True and the history holds the last
tool results, ready to continue). A call cut by the output limit (Chat ``finish_reason:
length``, Messages ``max_tokens`` mid-``tool_use``, Responses ``incomplete``) or whose
arguments are not JSON is never run: the loop raises :class:`~kimi_ext.InvalidToolCallError`
(``.result`` holds the result, ``.arguments`` the text received) and leaves that turn out of
the history, which stays ready to send again (say with a higher output limit); the service
refuses such a turn replayed. Raw control characters inside argument strings are accepted.
An exception in a tool, arguments that do not match the schema (or are not an object), and
an unknown tool name all become error results the model
sees (``is_error`` on Messages; the text names the exception type and message). A return
value that is a ``str`` is sent as is; anything else as JSON.

The async client runs the calls of one turn concurrently (sync callables in a thread,
``async`` callables awaited); the sync client runs them in order.

A history object given as the conversation is extended in place as the run goes (a list
is copied into a new history). One history takes one run at a time: a second run_tools on
the same history object while one runs raises HistoryError before sending anything.

Chat web search is answered automatically, the documented way: each builtin
``$web_search`` call's ``function.arguments`` goes back unchanged as the content of a tool
message with the same ``tool_call_id``. For a hand-written loop use :func:`web_search_echo`
or :meth:`~kimi_ext.ChatHistory.add_web_search_results`. Messages and Responses web search
runs on the server; its blocks and items are kept in the history verbatim.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from kimi_ext._core.call.building import check_history_kind
from kimi_ext._core.call.format import Format
from kimi_ext._core.contract.arguments import checked
from kimi_ext._core.model.history import History
from kimi_ext._core.model.result import Result, ToolCall, parse_arguments
from kimi_ext.errors import HistoryError, RequestValidationError
from kimi_ext.tools import Tool, error_text, tool, tool_output

if TYPE_CHECKING:
    from kimi_ext._core.transport.hooking import HookSet

__all__ = ["DEFAULT_MAX_ROUNDS", "ToolRun", "arun_tools", "run_tools"]

R = TypeVar("R", bound=Result)
H = TypeVar("H", bound=History)
DEFAULT_MAX_ROUNDS = 10


@dataclass(frozen=True)
class _Outcome:
    content: str
    is_error: bool = False
    # What went wrong, for hooks (error.type on the execute_tool span): the exception's
    # class name, or unknown_tool / invalid_arguments when the call could not run.
    error_type: str | None = None


@dataclass(frozen=True)
class _Call:
    """One call to answer: a Python tool (``tool``/``args``), an error found before running
    (``outcome``), or a web search echo (``echo``)."""

    id: str
    name: str
    tool: Tool | None = None
    args: Any = None
    outcome: _Outcome | None = None
    echo: dict[str, Any] | None = None


def _resolve(call_id: str, name: str, arguments: Any, registry: Mapping[str, Tool]) -> _Call:
    handler = registry.get(name)
    if handler is None:
        known = ", ".join(sorted(registry)) or "none"
        return _Call(
            call_id,
            name,
            outcome=_Outcome(
                f"Error: unknown tool {name!r} (tools with a Python function: {known})",
                True,
                "unknown_tool",
            ),
        )
    if handler.custom:
        return _Call(
            call_id,
            name,
            handler,
            arguments if isinstance(arguments, str) else tool_output(arguments),
        )
    if isinstance(arguments, str):
        try:
            arguments = parse_arguments(arguments) if arguments.strip() else {}
        except ValueError as exc:
            return _Call(
                call_id,
                name,
                outcome=_Outcome(
                    f"Error: the arguments are not valid JSON ({exc}): {arguments[:500]}",
                    True,
                    "invalid_arguments",
                ),
            )
    if not isinstance(arguments, dict):
        return _Call(
            call_id,
            name,
            outcome=_Outcome(
                f"Error: the arguments must be a JSON object, not {type(arguments).__name__}",
                True,
                "invalid_arguments",
            ),
        )
    problem = handler.check(arguments)
    if problem is not None:
        return _Call(
            call_id,
            name,
            outcome=_Outcome(
                f"Error: invalid arguments for {name}: {problem}", True, "invalid_arguments"
            ),
        )
    return _Call(call_id, name, handler, arguments)


# twin: _run_async
def _run_sync(call: _Call) -> _Outcome:
    if call.outcome is not None:
        return call.outcome
    assert call.tool is not None
    handler = call.tool
    # twin: differs (an async tool runs in an event loop of its own here)
    try:
        args, kwargs = handler.bind(call.args)
        value = handler.fn(*args, **kwargs)
        if inspect.isawaitable(value):
            value = _run_awaitable(value)
        return _Outcome(tool_output(value))
    except Exception as exc:
        return _Outcome(error_text(exc), True, type(exc).__name__)


# twin: _arun_hooked
def _run_hooked(call: _Call, hooks: Any) -> _Outcome:
    """``_run_sync(call)``, told to the client's hooks (``on_tool_start`` / ``_end``)."""
    if hooks is None:
        return _run_sync(call)
    tool = hooks.tool(call.name, call.id, call.args)
    outcome = _run_sync(call)
    hooks.tool_end(tool, outcome.content, outcome.error_type)
    return outcome


# twin: _run_hooked
async def _arun_hooked(call: _Call, hooks: Any) -> _Outcome:
    if hooks is None:
        return await _run_async(call)
    tool = hooks.tool(call.name, call.id, call.args)
    outcome = await _run_async(call)
    hooks.tool_end(tool, outcome.content, outcome.error_type)
    return outcome


def _run_awaitable(value: Awaitable[Any]) -> Any:
    """Run an async tool's result on the sync client (in its own event loop)."""
    import asyncio  # only async tools on the sync client need it

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_await(value))
    if inspect.iscoroutine(value):
        value.close()
    raise RuntimeError(
        "an async tool cannot run on the sync client inside a running event loop; use AsyncKimi"
    )


async def _await(value: Awaitable[Any]) -> Any:
    return await value


# asyncio is imported where it is used, so `import kimi_ext` does not pay for it (~10 ms);
# by then an event loop runs, so it is already imported and this is a dict lookup.
async def _to_thread(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    import asyncio

    return await asyncio.to_thread(fn, *args, **kwargs)


async def _gather(*aws: Awaitable[Any]) -> list[Any]:
    import asyncio

    return list(await asyncio.gather(*aws))


# twin: _run_sync
async def _run_async(call: _Call) -> _Outcome:
    if call.outcome is not None:
        return call.outcome
    assert call.tool is not None
    handler = call.tool
    # twin: differs (a sync tool runs in a worker thread here)
    try:
        args, kwargs = handler.bind(call.args)
        if handler.is_async:
            value = await handler.fn(*args, **kwargs)
        else:
            value = await _to_thread(handler.fn, *args, **kwargs)
            if inspect.isawaitable(value):
                value = await value
        return _Outcome(tool_output(value))
    except Exception as exc:
        return _Outcome(error_text(exc), True, type(exc).__name__)


@dataclass
class ToolRun(Generic[R, H]):
    """What ``run_tools`` returns: the last result, the complete history and the number of
    model calls. ``max_rounds_reached`` is True when the loop stopped at ``max_rounds``
    while the model still wanted tools (the history then ends with their results).
    ``results`` holds every model result in order (for usage per round)."""

    final: R
    history: H
    rounds: int
    max_rounds_reached: bool = False
    results: list[R] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The final answer's visible text."""
        return self.final.text


def tool_declarations(
    fmt: Format[Any, Any, Any], tools: Iterable[Any]
) -> tuple[list[Any], dict[str, Tool]]:
    """The ``tools`` request field for ``fmt`` and the Python tools in it, by name: a dict
    is sent as given, a function or :func:`~kimi_ext.tool` object is declared the way the
    format spells a tool (its JSON Schema from its hints). ``create()``, ``stream()`` and
    ``parse()`` take the same tools as ``run_tools`` through this.

        >>> def get_weather(city: str) -> str: ...
        >>> from kimi_ext.formats import MESSAGES
        >>> tool_declarations(MESSAGES, [get_weather])[0][0]["name"]
        'get_weather'
    """
    if isinstance(tools, str | Mapping) or not isinstance(tools, Iterable):
        raise RequestValidationError(
            "tools", tools, "must be a list of tools (dicts, functions or kimi_ext.tool() objects)"
        )
    registry: dict[str, Tool] = {}
    wire: list[Any] = []
    for k, item in enumerate(tools):
        if isinstance(item, Mapping):
            wire.append(item)
            continue
        if not callable(item):
            raise RequestValidationError(
                f"tools[{k}]",
                item,
                "must be a tool definition (a dict), a function or a kimi_ext.tool() object",
            )
        handler = tool(item)
        if handler.name in registry:
            raise RequestValidationError(
                "tools", handler.name, f"two tools are named {handler.name!r} (names are unique)"
            )
        registry[handler.name] = handler
        wire.append(handler.definition(fmt))
    return wire, registry


class _Loop:
    """One run_tools call: the format's rules, the tools and the history being built."""

    def __init__(
        self,
        fmt: Format[Any, Any, Any],
        tools: Iterable[Any],
        max_rounds: int,
        params: dict[str, Any],
    ) -> None:
        if max_rounds < 1:
            raise RequestValidationError("max_rounds", max_rounds, "must be >= 1")
        self.fmt = fmt
        self.max_rounds = max_rounds
        wire, self.registry = tool_declarations(fmt, tools)
        web_search = any(_declares_web_search(item, fmt.web_search_names) for item in wire)
        self.web_search_names = (
            frozenset(n for n in fmt.web_search_names if n not in self.registry)
            if web_search
            else frozenset()
        )
        self.params = dict(params)
        if wire:
            self.params["tools"] = wire
        self.field = fmt.history_field
        self.history = self._history(self.params.pop(self.field, None))

    @contextmanager
    def running(self) -> Iterator[None]:
        """Hold the history for this run: a second run_tools on the same history object,
        while this one runs (another thread or task), is refused before it sends anything:
        two runs adding turns to one conversation at once cannot both be right."""
        key = id(self.history)
        with _RUNNING_LOCK:
            if key in _RUNNING:
                raise HistoryError(
                    None,
                    "this history is being extended by another run_tools call that has not "
                    "finished; one history takes one run at a time (give each concurrent run "
                    "its own history, e.g. history.copy())",
                )
            _RUNNING.add(key)
        try:
            yield
        finally:
            with _RUNNING_LOCK:
                _RUNNING.discard(key)

    def _history(self, given: Any) -> History:
        cls = self.fmt.history_type
        extra = self.fmt.system_field
        if given is None:
            raise RequestValidationError(self.field, None, "is required by run_tools")
        if isinstance(given, History):
            check_history_kind(self.fmt, given)
            # Its system prompt / instructions go with it (the request builder does that).
            return given
        history = cls()
        if isinstance(given, str):
            history.add_user(given)
        else:
            history.extend(given)
        if extra and self.params.get(extra) is not None:
            setattr(history, extra, self.params[extra])
        return history

    def request(self) -> dict[str, Any]:
        return {**self.params, self.field: self.history}

    def _echo(self, call: ToolCall) -> dict[str, Any] | None:
        """The answer the client itself gives ``call`` (Chat's builtin web search), if any."""
        echo = self.fmt.web_search_echo
        return echo(call, self.web_search_names) if echo is not None else None

    def calls(self, result: Result) -> list[_Call]:
        """The calls of ``result`` to answer, in order."""
        out: list[_Call] = []
        for call in result.tool_calls:
            echo = self._echo(call)
            if echo is not None:
                out.append(_Call(call.id, call.name, echo=echo))
            else:
                out.append(_resolve(call.id, call.name, call.payload, self.registry))
        return out

    def refuse_unusable(self, result: Result) -> None:
        """Raise for a call that was cut by the output limit or whose arguments are not JSON:
        it is never run, and its turn is not added (the service refuses to have it replayed),
        so the history stays ready to send again."""
        for call in result.tool_calls:
            if call.free_form or self._echo(call) is not None:
                continue
            if not call.usable:
                error = call.error()
                error.result = result
                raise error

    def record(self, calls: Sequence[_Call], outcomes: Sequence[_Outcome | None]) -> None:
        for call, outcome in zip(calls, outcomes, strict=True):
            if call.echo is not None:
                self.history.append(call.echo)
            elif outcome is not None:
                self.history.add_tool_result(call.id, outcome.content, is_error=outcome.is_error)

    def keep_going(self, result: Result) -> bool:
        """A turn the server paused (Messages' long server-tool work) is continued."""
        return result._paused()


# The ids of the history objects a run_tools call is extending (see _Loop.running).
_RUNNING: set[int] = set()
_RUNNING_LOCK = threading.Lock()


def _declares_web_search(definition: Mapping[str, Any], names: tuple[str, ...]) -> bool:
    if definition.get("type") == "web_search":
        return True
    function = definition.get("function")
    return isinstance(function, Mapping) and function.get("name") in names


# twin: arun_tools
@checked(RequestValidationError, skip=("hooks",))
def run_tools(
    resource: Any,
    hooks: HookSet | None = None,
    /,
    *,
    tools: Iterable[Any],
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    **params: Any,
) -> ToolRun[Any, Any]:
    """The sync loop behind ``client.<format>.run_tools`` (see the module docstring);
    ``hooks``: the client's, told of each tool call (its resource hands them over)."""
    loop = _Loop(resource.format, tools, max_rounds, params)
    rounds = 0
    results: list[Any] = []
    with loop.running():
        while True:
            result = resource.create(**loop.request())
            results.append(result)
            rounds += 1
            loop.refuse_unusable(result)
            loop.history.add(result)
            calls = loop.calls(result)
            if not calls:
                if loop.keep_going(result) and rounds < max_rounds:
                    continue
                return ToolRun(result, loop.history, rounds, loop.keep_going(result), results)
            # twin: differs (the async loop runs a turn's calls concurrently)
            loop.record(
                calls, [None if c.echo is not None else _run_hooked(c, hooks) for c in calls]
            )
            if rounds >= max_rounds:
                return ToolRun(result, loop.history, rounds, True, results)


# twin: run_tools
@checked(RequestValidationError, skip=("hooks",))
async def arun_tools(
    resource: Any,
    hooks: HookSet | None = None,
    /,
    *,
    tools: Iterable[Any],
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    **params: Any,
) -> ToolRun[Any, Any]:
    """The async loop behind ``AsyncKimi``'s ``run_tools``: the calls of one turn run
    concurrently."""
    loop = _Loop(resource.format, tools, max_rounds, params)
    rounds = 0
    results: list[Any] = []
    with loop.running():
        while True:
            result = await resource.create(**loop.request())
            results.append(result)
            rounds += 1
            loop.refuse_unusable(result)
            loop.history.add(result)
            calls = loop.calls(result)
            if not calls:
                if loop.keep_going(result) and rounds < max_rounds:
                    continue
                return ToolRun(result, loop.history, rounds, loop.keep_going(result), results)
            # twin: differs (the calls of a turn run concurrently)
            outcomes = await _gather(*(_arun_hooked(c, hooks) for c in calls if c.echo is None))
            # twin: differs (as above)
            it = iter(outcomes)
            # twin: differs (as above)
            loop.record(calls, [None if c.echo is not None else next(it) for c in calls])
            if rounds >= max_rounds:
                return ToolRun(result, loop.history, rounds, True, results)
