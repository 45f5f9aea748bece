"""Tools from Python callables: a name, a description and a JSON Schema for each.

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

A callable's JSON Schema comes from its type hints (:mod:`kimi_ext._type_schema`); the first
docstring paragraph is the tool's description and its parameter section (Google's
``Args:``, NumPy's ``Parameters``, reST's ``:param x:`` or Epydoc's ``@param x:``, read by
``docstring-parser``) describes the parameters. :func:`tool` sets a name, description or an explicit schema. Tool dicts (web
search, hand-written definitions) are sent as they are.

Pydantic (the optional ``kimi-ext[pydantic]`` extra): a parameter annotated with a pydantic
model gets the model's schema and receives a validated instance, and
``tool(fn, schema=Model)`` makes the model the whole arguments object: ``fn`` is called with
one validated ``Model`` instance.

The model → tools → model loop of ``run_tools`` is :mod:`kimi_ext.tool_loop`.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import re
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

from kimi_ext._core.call.format import Format
from kimi_ext._core.contract import json_type
from kimi_ext._core.contract.arguments import checked, message
from kimi_ext._type_schema import (
    SchemaBuilder,
    build_value,
    is_pydantic_type,
    schema_from_type,
    uses_pydantic,
)
from kimi_ext.errors import RequestValidationError, ToolDefinitionError
from kimi_ext.formats import format_named
from kimi_ext.structured import schema_problem

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

__all__ = ["Tool", "error_text", "parse_docstring", "tool", "tool_output"]


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

    def definition(self, fmt: Format[Any, Any, Any] | str) -> dict[str, Any]:
        """The tool definition in ``fmt`` (a Format, or ``"chat"``, ``"messages"``,
        ``"responses"``)."""
        wire = format_named(fmt)
        if self.custom:
            if not wire.custom_tools:
                raise ToolDefinitionError(
                    f"tool {self.name!r}: custom tools exist only in Responses, not in {wire.name}"
                )
            out: dict[str, Any] = {"type": "custom", "name": self.name}
            if self.description:
                out["description"] = self.description
            if self.format is not None:
                out["format"] = dict(self.format)
            return out
        return wire.tool_definition(self.name, self.description, self.parameters)

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


def _argument_error(parameter: str, value: Any, rule: str) -> ToolDefinitionError:
    return ToolDefinitionError(message(parameter, value, rule))


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
@checked(_argument_error)
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
    type hints, with the docstring's parameter section as parameter descriptions. ``schema``
    may also be a pydantic model class: its schema describes the arguments, which are
    validated into one instance of it and passed as the one positional argument.
    Raises :class:`~kimi_ext.ToolDefinitionError` (a TypeError too) naming what is wrong:
    an argument of the wrong type, a parameter without a type hint (annotate it or pass
    ``schema=``), parameters that cannot be read, or a schema that is not a valid JSON
    Schema.
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
        model, parameters = schema, _in_moonshots_form(tool_name, schema_from_type(schema))
    elif isinstance(schema, type):
        raise TypeError(
            f"tool {tool_name!r}: schema= takes a JSON Schema dict or a pydantic model, "
            f"not {schema.__name__}"
        )
    elif schema is not None:
        parameters = dict(schema)
    else:
        parameters, hints = _signature_schema(fn, tool_name, param_docs)
        parameters = _in_moonshots_form(tool_name, parameters)
    if not custom:
        _check_schema(tool_name, parameters)
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


def _in_moonshots_form(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A schema derived here (from type hints or a pydantic model) in the form Moonshot's
    schema rules accept: the same values pass (a lossless rewrite; see kimi_ext.schemas).
    A schema written by hand (``schema=``) is left as given: the client's ``schemas=``
    option decides what happens to it when it is sent."""
    from kimi_ext._core.contract import mfjs

    try:
        return mfjs.normalize(schema, "tool-parameters")[0]
    except RequestValidationError as exc:
        raise ToolDefinitionError(
            f"tool {name!r}: its parameters have no form Kimi accepts ({exc.rule}); "
            "pass schema= with one"
        ) from None


def _check_schema(name: str, schema: dict[str, Any]) -> None:
    """Raise ToolDefinitionError unless ``schema`` is a valid JSON Schema (by the
    metaschema of the draft it names, 2020-12 when it names none)."""
    from jsonschema import validators

    problem = schema_problem(schema, validators.validator_for(schema))
    if problem is not None:
        raise ToolDefinitionError(f"tool {name!r}: the schema {problem}")


@checked(_argument_error)
def parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """(description, {parameter: description}) from a docstring in Google, NumPy, reST or
    Epydoc style (``docstring-parser`` tells which): its first paragraph, and what it says
    of each parameter, each on one line (``*args`` and ``**kwargs`` named without stars)."""
    if not doc.strip():
        return "", {}
    import docstring_parser  # only when a tool is made from a function

    text = _section_first(inspect.cleandoc(doc))
    try:
        # A newline first, so a docstring that opens with its Args: section has no summary
        # (rather than "Args:" as one).
        parsed = docstring_parser.parse("\n" + text)
    except docstring_parser.ParseError:  # a section it cannot read: the summary only
        return _one_line(text.split("\n\n")[0]), {}
    summary = parsed.short_description or ""
    if summary and parsed.long_description and not parsed.blank_after_short_description:
        summary += " " + parsed.long_description.split("\n\n")[0]  # a summary of 2+ lines
    params = {
        p.arg_name.lstrip("*"): _one_line(p.description or "")
        for p in parsed.params
        if p.args and p.args[0] != "attribute"
    }
    return _one_line(summary), params


def _one_line(text: str) -> str:
    return " ".join(text.split())


_TITLE = re.compile(r"\w[\w ]*:")


def _section_first(text: str) -> str:
    """``text`` with the lines after an opening section title (``Args:``) indented again
    when cleaning lost it: ``cleandoc`` does not count the first line, so it took the
    entries' indentation as the docstring's own."""
    first, _, rest = text.partition("\n")
    if not (_TITLE.fullmatch(first) and rest and not rest[0].isspace()):
        return text
    return first + "\n" + "\n".join(f"    {line}" if line else line for line in rest.split("\n"))


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
    try:
        signature = inspect.signature(fn)
    except ValueError:  # a builtin or an exception class: no signature to read
        raise TypeError(
            f"tool {name!r}: the parameters of {fn!r} cannot be read; pass schema="
        ) from None
    hints = _hints_of(fn)
    properties: dict[str, Any] = {}
    required: list[str] = []
    used: dict[str, Any] = {}
    # One builder for every parameter: their recursive types share the root's $defs.
    builder = SchemaBuilder()
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
            if uses_pydantic(hint):
                prop = schema_from_type(hint)
                # A recursive pydantic model keeps "#/$defs/..." refs: they resolve at the root.
                builder.add_defs(prop.pop("$defs", None) or {}, hint)
            else:
                prop = builder.schema(hint)
        except TypeError as exc:
            raise TypeError(f"tool {name!r}, parameter {param.name!r}: {exc}") from None
        if not prop:  # Any: the service wants every property to say its type
            prop = {"type": list(_ANY_TYPES)}
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
    if builder.defs:
        schema["$defs"] = builder.defs
        _complete_types(builder.defs)
    return schema, used


_ANY_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")


def _complete_types(schema: Any) -> None:
    """Give every ``enum`` a ``type``, and every open (``Any``) property the list of all
    types (the service rejects a property schema without a type)."""
    if isinstance(schema, dict):
        if "enum" in schema and "type" not in schema:
            kinds = sorted({json_type(v) for v in schema["enum"]})
            schema["type"] = kinds[0] if len(kinds) == 1 else kinds
        props = schema.get("properties")
        if isinstance(props, dict):
            for name, sub in props.items():
                if sub == {}:
                    props[name] = {"type": list(_ANY_TYPES)}
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
