"""Tools from Python callables, and the model → tools → model loop of ``run_tools``.

    def get_weather(city: str, unit: Literal["c", "f"] = "c") -> dict[str, Any]:
        \"\"\"Current weather for a city.

        Args:
            city: City name, e.g. Beijing.
            unit: Temperature unit.
        \"\"\"
        ...

    run = client.chat.completions.run_tools(
        model="kimi-k3.1-pro",
        messages=[{"role": "user", "content": "Weather in Beijing?"}],
        tools=[get_weather, {"type": "web_search"}],
    )
    print(run.final.text, run.rounds)
    run.history            # the complete ChatHistory: continue the conversation with it

A callable's JSON Schema comes from its type hints (:mod:`kimi_ext._core.type_schema`); the first
docstring paragraph is the tool's description and the ``Args:`` lines describe the
parameters. :func:`tool` sets a name, description or an explicit schema. Tool dicts (web
search, hand-written definitions) are sent as they are.

Pydantic (the optional ``kimi-ext[pydantic]`` extra): a parameter annotated with a pydantic
model gets the model's schema and receives a validated instance, and
``tool(fn, schema=Model)`` makes the model the whole arguments object: ``fn`` is called with
one validated ``Model`` instance.

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

Chat web search is answered automatically, the documented way: each builtin
``$web_search`` call's ``function.arguments`` goes back unchanged as the content of a tool
message with the same ``tool_call_id``. For a hand-written loop use :func:`web_search_echo`
or :meth:`~kimi_ext.ChatHistory.add_web_search_results`. Messages and Responses web search
runs on the server; its blocks and items are kept in the history verbatim.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import re
import typing
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from kimi_ext._core.type_schema import build_value, is_pydantic_type, schema_from_type
from kimi_ext.errors import ToolDefinitionError
from kimi_ext.history import ChatHistory, History, MessagesHistory, ResponsesHistory
from kimi_ext.results import ChatCompletion, Message, Response, Result, ToolCall, parse_arguments

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

__all__ = [
    "Tool",
    "ToolRun",
    "arun_tools",
    "run_tools",
    "tool",
    "tool_output",
    "web_search_echo",
]

R = TypeVar("R", bound=Result)
H = TypeVar("H", bound=History)
DEFAULT_MAX_ROUNDS = 10
WEB_SEARCH_NAMES = ("$web_search", "web_search")


# --- tool definitions -----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Tool:
    """A Python callable the model can call, with its name, description and JSON Schema.

    Calling the Tool calls the function, so ``@kimi_ext.tool`` keeps a function usable.
    ``custom=True`` makes a Responses custom tool (free-form text input, passed as the one
    positional argument; ``format`` is the optional grammar).
    """

    fn: Callable[..., Any]
    name: str
    description: str
    parameters: dict[str, Any]
    custom: bool = False
    format: Mapping[str, Any] | None = None
    hints: Mapping[str, Any] = field(default_factory=dict, repr=False)
    # A pydantic model given as ``schema=``: the arguments are validated into one instance.
    model: Any = field(default=None, repr=False)
    _validator: list[Validator] = field(default_factory=list, repr=False)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    @property
    def is_async(self) -> bool:
        """True when calling the tool returns an awaitable (an ``async`` function)."""
        fn = self.fn
        while isinstance(fn, functools.partial):
            fn = fn.func
        return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
            getattr(fn, "__call__", None)  # noqa: B004 - a callable object's __call__
        )

    def definition(self, fmt: str) -> dict[str, Any]:
        """The tool definition in ``fmt`` (``"chat"``, ``"messages"`` or ``"responses"``)."""
        if self.custom:
            if fmt != "responses":
                raise ValueError(f"tool {self.name!r}: custom tools exist only in Responses")
            out: dict[str, Any] = {"type": "custom", "name": self.name}
            if self.description:
                out["description"] = self.description
            if self.format is not None:
                out["format"] = dict(self.format)
            return out
        if fmt == "chat":
            function: dict[str, Any] = {"name": self.name}
            if self.description:
                function["description"] = self.description
            function["parameters"] = self.parameters
            return {"type": "function", "function": function}
        if fmt == "messages":
            out = {"name": self.name}
            if self.description:
                out["description"] = self.description
            out["input_schema"] = self.parameters
            return out
        if fmt == "responses":
            out = {"type": "function", "name": self.name}
            if self.description:
                out["description"] = self.description
            out["parameters"] = self.parameters
            return out
        raise ValueError(f"unknown format {fmt!r}")

    def check(self, arguments: Any) -> str | None:
        """Why ``arguments`` do not match the schema, or None when they do."""
        if not self._validator:
            from jsonschema import validators

            cls = validators.validator_for(self.parameters)
            self._validator.append(cls(self.parameters))
        from jsonschema.exceptions import best_match

        error = best_match(self._validator[0].iter_errors(arguments))
        if error is None:
            return None
        where = "".join(f"[{p!r}]" for p in error.absolute_path)
        return f"{error.message}" + (f" (at arguments{where})" if where else "")

    def bind(self, arguments: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """Positional and keyword arguments for the function from decoded arguments."""
        if self.custom:
            return (arguments,), {}
        if self.model is not None:
            return (build_value(self.model, arguments),), {}
        kwargs = {
            k: build_value(self.hints[k], v) if k in self.hints else v for k, v in arguments.items()
        }
        return (), kwargs


@overload
def tool(
    fn: Callable[..., Any],
    *,
    name: str | None = None,
    description: str | None = None,
    schema: Mapping[str, Any] | type | None = None,
    custom: bool = False,
    format: Mapping[str, Any] | None = None,
) -> Tool: ...
@overload
def tool(
    fn: None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    schema: Mapping[str, Any] | type | None = None,
    custom: bool = False,
    format: Mapping[str, Any] | None = None,
) -> Callable[[Callable[..., Any]], Tool]: ...
def tool(
    fn: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    schema: Mapping[str, Any] | type | None = None,
    custom: bool = False,
    format: Mapping[str, Any] | None = None,
) -> Tool | Callable[[Callable[..., Any]], Tool]:
    """Make a :class:`Tool` from a callable; also a decorator (``@tool`` or ``@tool(...)``).

    ``name`` defaults to the function's name, ``description`` to the first paragraph of its
    docstring, ``schema`` (the JSON Schema of the arguments object) to one derived from the
    type hints, with the docstring's ``Args:`` lines as parameter descriptions. ``schema``
    may also be a pydantic model class: its schema describes the arguments, which are
    validated into one instance of it and passed as the one positional argument.
    Raises TypeError for a parameter without a type hint (annotate it or pass ``schema=``).
    """
    if fn is None:
        return lambda f: tool(
            f, name=name, description=description, schema=schema, custom=custom, format=format
        )
    try:
        return _make_tool(fn, name, description, schema, custom, format)
    except ToolDefinitionError:
        raise
    except TypeError as exc:
        # Every public call raises a KimiError: this one is also a TypeError, as before.
        raise ToolDefinitionError(str(exc)) from None


def _make_tool(
    fn: Callable[..., Any],
    name: str | None,
    description: str | None,
    schema: Mapping[str, Any] | type | None,
    custom: bool,
    format: Mapping[str, Any] | None,
) -> Tool:
    if isinstance(fn, Tool):
        if name is None and description is None and schema is None:
            return fn
        return tool(
            fn.fn,
            name=name or fn.name,
            description=description if description is not None else fn.description,
            schema=schema
            if schema is not None
            else (fn.model or (None if fn.hints else fn.parameters)),
            custom=fn.custom,
            format=fn.format,
        )
    if not callable(fn):
        raise TypeError(f"a tool must be callable, not {type(fn).__name__}")
    tool_name = name or getattr(fn, "__name__", None) or getattr(fn, "name", None)
    if not isinstance(tool_name, str) or not tool_name or tool_name == "<lambda>":
        raise ToolDefinitionError(
            f"{fn!r} has no usable name (a lambda or a callable object without __name__): "
            "pass name=, e.g. kimi_ext.tool(fn, name='get_weather')"
        )
    documented: Any = fn
    while isinstance(documented, functools.partial):
        documented = documented.func
    summary, param_docs = parse_docstring(inspect.getdoc(documented) or "")
    hints: dict[str, Any] = {}
    model = None
    if custom:
        parameters: dict[str, Any] = {"type": "string"}
    elif isinstance(schema, type) and is_pydantic_type(schema):
        model, parameters = schema, schema_from_type(schema)
    elif isinstance(schema, type):
        raise TypeError(
            f"tool {tool_name!r}: schema= takes a JSON Schema dict or a pydantic model, "
            f"not {schema.__name__}"
        )
    elif schema is not None:
        parameters = dict(schema)
    else:
        parameters, hints = _signature_schema(fn, tool_name, param_docs)
    if not custom:
        from jsonschema import validators

        validators.validator_for(parameters).check_schema(parameters)
    return Tool(
        fn=fn,
        name=tool_name,
        description=description if description is not None else summary,
        parameters=parameters,
        custom=custom,
        format=format,
        hints=hints,
        model=model,
    )


_SECTION = re.compile(r"^(\w[\w ]*):\s*$")
_ARGS_SECTIONS = frozenset({"args", "arguments", "parameters", "params", "keyword args"})
_PARAM_LINE = re.compile(r"^\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """(description, {parameter: description}) from a Google-style docstring: the first
    paragraph, and the lines of its ``Args:`` section (continuation lines indented)."""
    lines = inspect.cleandoc(doc).splitlines() if doc else []
    summary: list[str] = []
    for line in lines:
        if not line.strip() or _SECTION.match(line.strip()):
            break
        summary.append(line.strip())
    params: dict[str, str] = {}
    in_args = False
    current: str | None = None
    base_indent = 0
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        header = _SECTION.match(line) if indent == 0 else None
        if header:
            in_args = header.group(1).strip().lower() in _ARGS_SECTIONS
            current = None
            base_indent = 0
            continue
        if not in_args or not stripped:
            continue
        if current is None or indent <= base_indent:
            match = _PARAM_LINE.match(stripped)
            if match:
                current, base_indent = match.group(1), indent
                params[current] = match.group(2).strip()
                continue
        if current is not None:
            params[current] = f"{params[current]} {stripped}".strip()
    return " ".join(summary), params


def _hints_of(fn: Callable[..., Any]) -> dict[str, Any]:
    target: Any = fn
    while isinstance(target, functools.partial):
        target = target.func
    if not (inspect.isfunction(target) or inspect.ismethod(target)):
        target = getattr(type(target), "__call__", target)  # noqa: B004
    try:
        return typing.get_type_hints(target, include_extras=True)
    except (NameError, TypeError) as exc:
        raise TypeError(f"cannot resolve the type hints of {fn!r}: {exc}; pass schema=") from None


def _signature_schema(
    fn: Callable[..., Any], name: str, docs: Mapping[str, str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    signature = inspect.signature(fn)
    hints = _hints_of(fn)
    properties: dict[str, Any] = {}
    required: list[str] = []
    used: dict[str, Any] = {}
    defs: dict[str, Any] = {}
    open_ended = False
    for param in signature.parameters.values():
        if param.kind is param.VAR_KEYWORD:
            open_ended = True
            continue
        if param.kind is param.VAR_POSITIONAL:
            continue
        if param.kind is param.POSITIONAL_ONLY:
            raise TypeError(
                f"tool {name!r}: positional-only parameter {param.name!r} cannot take a "
                "named argument; make it a normal parameter"
            )
        if param.name not in hints:
            raise TypeError(
                f"tool {name!r}: parameter {param.name!r} has no type hint; annotate it "
                "or pass schema="
            )
        hint = hints[param.name]
        try:
            prop = schema_from_type(hint)
        except TypeError as exc:
            raise TypeError(f"tool {name!r}, parameter {param.name!r}: {exc}") from None
        if not prop:  # Any: the service wants every property to say its type
            prop = {"type": list(_ANY_TYPES)}
        # A recursive pydantic model keeps "#/$defs/..." refs: they resolve at the root.
        defs.update(prop.pop("$defs", None) or {})
        _complete_types(prop)
        if param.name in docs and docs[param.name] and "description" not in prop:
            prop["description"] = docs[param.name]
        properties[param.name] = prop
        used[param.name] = hint
        if param.default is param.empty:
            required.append(param.name)
    schema: dict[str, Any] = {"type": "object", "properties": properties, "required": required}
    if not open_ended:
        schema["additionalProperties"] = False
    if defs:
        schema["$defs"] = defs
    return schema, used


_ANY_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if value is None:
        return "null"
    return "string"


def _complete_types(schema: Any) -> None:
    """Give every ``enum`` a ``type`` (the service rejects an enum without one)."""
    if isinstance(schema, dict):
        if "enum" in schema and "type" not in schema:
            kinds = sorted({_json_type(v) for v in schema["enum"]})
            schema["type"] = kinds[0] if len(kinds) == 1 else kinds
        for value in schema.values():
            _complete_types(value)
    elif isinstance(schema, list):
        for value in schema:
            _complete_types(value)


# --- tool results ---------------------------------------------------------------------------


def tool_output(value: Any) -> str:
    """What a tool's return value looks like to the model: a str as is, else JSON
    (dataclasses and objects with ``model_dump()`` included)."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=_to_json)


def _to_json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:  # pydantic v2: JSON-ready values (datetimes as strings, ...)
            return dump(mode="json")
        except TypeError:
            return dump()
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def error_text(exc: BaseException) -> str:
    """The error result the model sees for an exception in a tool."""
    detail = str(exc)
    return f"Error: {type(exc).__name__}: {detail}" if detail else f"Error: {type(exc).__name__}"


@dataclass(frozen=True)
class _Outcome:
    content: str
    is_error: bool = False


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
                f"Error: unknown tool {name!r} (tools with a Python function: {known})", True
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
                    f"Error: the arguments are not valid JSON ({exc}): {arguments[:500]}", True
                ),
            )
    if not isinstance(arguments, dict):
        return _Call(
            call_id,
            name,
            outcome=_Outcome(
                f"Error: the arguments must be a JSON object, not {type(arguments).__name__}", True
            ),
        )
    problem = handler.check(arguments)
    if problem is not None:
        return _Call(
            call_id,
            name,
            outcome=_Outcome(f"Error: invalid arguments for {name}: {problem}", True),
        )
    return _Call(call_id, name, handler, arguments)


def _run_sync(call: _Call) -> _Outcome:
    if call.outcome is not None:
        return call.outcome
    assert call.tool is not None
    try:
        args, kwargs = call.tool.bind(call.args)
        value = call.tool.fn(*args, **kwargs)
        if inspect.isawaitable(value):
            value = _run_awaitable(value)
        return _Outcome(tool_output(value))
    except Exception as exc:
        return _Outcome(error_text(exc), True)


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


async def _run_async(call: _Call) -> _Outcome:
    if call.outcome is not None:
        return call.outcome
    assert call.tool is not None
    handler = call.tool
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
        return _Outcome(error_text(exc), True)


# --- web search (Chat) ------------------------------------------------------------------------


def is_web_search_call(call: ToolCall, names: Iterable[str] = ()) -> bool:
    """Whether a Chat tool call is the builtin web search (answered by echoing it)."""
    return call.type == "builtin_function" or call.name == "$web_search" or call.name in names


def _echo(call: ToolCall) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call.id, "name": call.name, "content": call.arguments}


def web_search_echo(
    source: ChatCompletion | ChatHistory | Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    names: Iterable[str] = (),
) -> list[dict[str, Any]]:
    """The tool messages that answer the builtin ``$web_search`` calls, the documented way:
    each call's ``function.arguments`` unchanged as the content of a tool message with the
    same ``tool_call_id``. Append them, then send the request again.

    ``source`` is a ChatCompletion, an assistant message, or a history / list of messages
    (then the last assistant turn's calls that have no answer yet). Calls of type
    ``builtin_function`` or named ``$web_search`` (or in ``names``) count as web search.
    """
    names = frozenset(names)
    if isinstance(source, ChatCompletion):
        calls = source.tool_calls
        answered: set[Any] = set()
    elif isinstance(source, Mapping):
        calls = ChatCompletion({"choices": [{"message": dict(source)}]}).tool_calls
        answered = set()
    else:
        messages = list(source)
        calls, answered = [], set()
        for i in range(len(messages) - 1, -1, -1):
            message = messages[i]
            if message.get("role") == "assistant":
                calls = ChatCompletion({"choices": [{"message": dict(message)}]}).tool_calls
                answered = {
                    m.get("tool_call_id") for m in messages[i + 1 :] if m.get("role") == "tool"
                }
                break
    return [_echo(c) for c in calls if is_web_search_call(c, names) and c.id not in answered]


# --- the loop -----------------------------------------------------------------------------------


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


class _Loop:
    """One run_tools call: the format's rules, the tools and the history being built."""

    def __init__(
        self, endpoint: str, tools: Iterable[Any], max_rounds: int, params: dict[str, Any]
    ) -> None:
        if max_rounds < 1:
            raise ValueError(f"max_rounds={max_rounds}: must be >= 1")
        self.fmt = endpoint
        self.max_rounds = max_rounds
        self.registry: dict[str, Tool] = {}
        wire: list[Any] = []
        web_search = False
        for item in tools:
            if isinstance(item, Mapping):
                wire.append(item)
                web_search = web_search or _declares_web_search(item)
                continue
            handler = tool(item)
            if handler.name in self.registry:
                raise ValueError(f"two tools are named {handler.name!r}")
            self.registry[handler.name] = handler
            wire.append(handler.definition(endpoint))
        self.web_search_names = (
            frozenset(n for n in WEB_SEARCH_NAMES if n not in self.registry)
            if web_search
            else frozenset()
        )
        self.params = dict(params)
        if wire:
            self.params["tools"] = wire
        field_name = "input" if endpoint == "responses" else "messages"
        self.history = self._history(self.params.pop(field_name, None))
        self.field = field_name

    def _history(self, given: Any) -> History:
        classes: dict[str, type[History]] = {
            "chat": ChatHistory,
            "messages": MessagesHistory,
            "responses": ResponsesHistory,
        }
        cls = classes[self.fmt]
        extra = {"messages": "system", "responses": "instructions"}.get(self.fmt)
        if given is None:
            raise TypeError(
                f"run_tools needs {'input' if self.fmt == 'responses' else 'messages'}="
            )
        if isinstance(given, cls):
            if extra and self.params.get(extra) is None and getattr(given, extra) is not None:
                self.params[extra] = getattr(given, extra)
            return given
        if isinstance(given, History):
            raise TypeError(
                f"a {type(given).__name__} cannot be sent to {self.fmt}; use {cls.__name__}"
            )
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

    def calls(self, result: ChatCompletion | Message | Response) -> list[_Call]:
        """The calls of ``result`` to answer, in order."""
        out: list[_Call] = []
        for call in result.tool_calls:
            if self.fmt == "chat" and is_web_search_call(call, self.web_search_names):
                out.append(_Call(call.id, call.name, echo=_echo(call)))
            elif self.fmt == "messages":
                out.append(_resolve(call.id, call.name, call.raw.get("input", {}), self.registry))
            elif call.type == "custom_tool_call":
                out.append(_resolve(call.id, call.name, call.raw.get("input", ""), self.registry))
            else:
                out.append(_resolve(call.id, call.name, call.arguments, self.registry))
        return out

    def refuse_unusable(self, result: ChatCompletion | Message | Response) -> None:
        """Raise for a call that was cut by the output limit or whose arguments are not JSON:
        it is never run, and its turn is not added (the service refuses to have it replayed),
        so the history stays ready to send again."""
        for call in result.tool_calls:
            if call.type == "custom_tool_call" or (
                self.fmt == "chat" and is_web_search_call(call, self.web_search_names)
            ):
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
        """A Messages turn paused by the server (long server-tool work) is continued."""
        return self.fmt == "messages" and getattr(result, "stop_reason", None) == "pause_turn"


def _declares_web_search(definition: Mapping[str, Any]) -> bool:
    if definition.get("type") == "web_search":
        return True
    function = definition.get("function")
    return isinstance(function, Mapping) and function.get("name") in WEB_SEARCH_NAMES


def run_tools(
    resource: Any, *, tools: Iterable[Any], max_rounds: int = DEFAULT_MAX_ROUNDS, **params: Any
) -> ToolRun[Any, Any]:
    """The sync loop behind ``client.<format>.run_tools`` (see the module docstring)."""
    loop = _Loop(resource.endpoint.name, tools, max_rounds, params)
    rounds = 0
    results: list[Any] = []
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
        loop.record(calls, [None if c.echo is not None else _run_sync(c) for c in calls])
        if rounds >= max_rounds:
            return ToolRun(result, loop.history, rounds, True, results)


async def arun_tools(
    resource: Any, *, tools: Iterable[Any], max_rounds: int = DEFAULT_MAX_ROUNDS, **params: Any
) -> ToolRun[Any, Any]:
    """The async loop behind ``AsyncKimi``'s ``run_tools``: the calls of one turn run
    concurrently."""
    loop = _Loop(resource.endpoint.name, tools, max_rounds, params)
    rounds = 0
    results: list[Any] = []
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
        outcomes = await _gather(*(_run_async(c) for c in calls if c.echo is None))
        it = iter(outcomes)
        loop.record(calls, [None if c.echo is not None else next(it) for c in calls])
        if rounds >= max_rounds:
            return ToolRun(result, loop.history, rounds, True, results)
