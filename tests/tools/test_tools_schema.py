"""Tools from callables: schemas from hints and docstrings, definitions, return values."""

from __future__ import annotations

import enum
import functools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import jsonschema
import pytest

import kimi_ext
import kimi_ext.structured
from kimi_ext.errors import RequestValidationError, ToolDefinitionError
from kimi_ext.testing import KimiStandIn, Reply, ToolCallSpec
from kimi_ext.tools import Tool, parse_docstring, tool, tool_output
from tests.support.history import client, standin, standin_server

_ = (client, standin, standin_server)  # fixtures


class Unit(enum.Enum):
    C = "c"
    F = "f"


@dataclass
class Place:
    """A place on Earth."""

    city: str
    country: str = "CN"


def get_weather(
    city: str, unit: Literal["celsius", "fahrenheit"] = "celsius", days: int = 1
) -> str:
    """Current weather for a city.

    Looks it up in the national weather service.

    Args:
        city: City name, e.g. Beijing. Spelled in
            English.
        unit (str): Temperature unit.
        days: How many days.

    Returns:
        A short description.
    """
    return f"{city}: sunny"


def test_schema_and_description_from_hints_and_docstring() -> None:
    t = tool(get_weather)
    assert t.name == "get_weather"
    assert t.description == "Current weather for a city."
    assert t.parameters == {
        "type": "object",
        "properties": {
            "city": {
                "type": "string",
                "description": "City name, e.g. Beijing. Spelled in English.",
            },
            "unit": {
                "type": "string",
                "enum": ["celsius", "fahrenheit"],
                "description": "Temperature unit.",
            },
            "days": {"type": "integer", "description": "How many days."},
        },
        "required": ["city"],
        "additionalProperties": False,
    }
    assert t("Oslo") == "Oslo: sunny"  # a Tool still calls its function


def test_the_three_tool_definitions() -> None:
    t = tool(get_weather)
    assert t.definition("chat") == {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": t.description,
            "parameters": t.parameters,
        },
    }
    assert t.definition("messages") == {
        "name": "get_weather",
        "description": t.description,
        "input_schema": t.parameters,
    }
    assert t.definition("responses") == {
        "type": "function",
        "name": "get_weather",
        "description": t.description,
        "parameters": t.parameters,
    }
    # a KimiError naming the field, the value and the rule (still a ValueError)
    with pytest.raises(RequestValidationError, match="format='grpc': must be one of chat") as info:
        t.definition("grpc")
    assert isinstance(info.value, ValueError) and info.value.field == "format"


def test_explicit_name_description_schema_and_decorators() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    t = kimi_ext.tool(lambda q: q.upper(), name="shout", description="Shout it.", schema=schema)
    assert (t.name, t.description, t.parameters) == ("shout", "Shout it.", schema)
    assert t.check({"q": "x"}) is None
    assert "'q' is a required property" in (t.check({}) or "")

    @kimi_ext.tool
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    @kimi_ext.tool(name="times", description="Multiply.")
    def mul(a: float, b: float) -> float:
        return a * b

    assert isinstance(add, Tool) and add(2, 3) == 5
    assert (mul.name, mul.description, mul(2, 4)) == ("times", "Multiply.", 8)
    assert tool(add) is add
    renamed = tool(add, name="plus")
    assert (renamed.name, renamed.description, renamed.parameters) == (
        "plus",
        add.description,
        add.parameters,
    )
    assert renamed(1, 1) == 2


def test_enums_optional_annotated_dataclass_and_kwargs() -> None:
    def plan(
        unit: Unit,
        place: Place,
        note: str | None = None,
        level: Annotated[int, "How hard, 1-3."] = 1,
        **extra: Any,
    ) -> None:
        """Plan a trip."""

    t = tool(plan)
    props = t.parameters["properties"]
    assert props["unit"] == {"enum": ["c", "f"], "type": "string"}  # enum gets a type
    assert props["note"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert props["level"] == {"type": "integer", "description": "How hard, 1-3."}
    assert props["place"]["type"] == "object"
    assert props["place"]["required"] == ["city"]
    assert t.parameters["required"] == ["unit", "place"]
    assert "additionalProperties" not in t.parameters  # **extra accepts more
    args, kwargs = t.bind({"unit": "c", "place": {"city": "Oslo"}})
    assert args == () and kwargs["place"] == Place("Oslo")  # dataclass parameters are built


def test_any_parameters_still_name_their_types() -> None:
    def store(key: str, value: Any) -> None:
        """Store a value."""

    assert tool(store).parameters["properties"]["value"] == {
        "type": ["string", "number", "integer", "boolean", "object", "array", "null"]
    }


@dataclass
class Entry:
    key: str
    value: Any


def test_nested_any_properties_name_their_types_too() -> None:
    def put(entry: Entry) -> None:
        """Put."""

    nested = tool(put).parameters["properties"]["entry"]["properties"]["value"]
    assert nested == {"type": ["string", "number", "integer", "boolean", "object", "array", "null"]}


def test_mixed_enum_values_get_every_type() -> None:
    def pick(x: Literal[1, "a"]) -> None:
        """Pick."""

    # A type list beside an enum may only add null (the service: "when type is array and
    # enum is specified, currently only 2 types are supported, one must be null ..."): one
    # typed enum per type instead.
    assert tool(pick).parameters["properties"]["x"] == {
        "anyOf": [{"type": "integer", "enum": [1]}, {"type": "string", "enum": ["a"]}]
    }


def test_unusable_callables_are_refused() -> None:
    def untyped(city):  # type: ignore[no-untyped-def]
        return city

    def positional(city: str, /) -> str:
        return city

    def odd(x: object) -> None:
        """x."""

    with pytest.raises(TypeError, match="parameter 'city' has no type hint"):
        tool(untyped)
    with pytest.raises(TypeError, match="positional-only"):
        tool(positional)
    with pytest.raises(TypeError, match="no usable name"):
        tool(lambda: None)
    with pytest.raises(TypeError, match="parameter 'x'"):
        tool(odd)
    with pytest.raises(TypeError, match="callable"):
        tool(42)  # type: ignore[call-overload]
    # A KimiError naming the tool and where the schema is wrong (issue 30: was SchemaError).
    with pytest.raises(ToolDefinitionError, match=r"'get_weather'.*at schema\['type'\]"):
        tool(get_weather, schema={"type": "no-such-type"})


def test_partials_and_callable_objects() -> None:
    class Lookup:
        """Look a word up."""

        def __call__(self, word: str) -> str:
            return word

    t = tool(Lookup(), name="lookup")
    assert t.parameters["required"] == ["word"]
    p = tool(functools.partial(get_weather, unit="celsius"), name="weather_c")
    assert p.parameters["required"] == ["city"]
    assert p.description == "Current weather for a city."  # the wrapped function's
    assert t.description == "Look a word up."


def test_async_tools_are_recognized() -> None:
    async def fetch(url: str) -> str:
        """Fetch."""
        return url

    assert tool(fetch).is_async
    assert tool(functools.partial(fetch), name="fetch2").is_async
    assert not tool(get_weather).is_async


def test_custom_tools_are_responses_only() -> None:
    def apply_patch(patch: str) -> str:
        """Apply a patch."""
        return "ok"

    grammar = {"type": "grammar", "syntax": "lark", "definition": "start: /.+/"}
    t = tool(apply_patch, custom=True, format=grammar)
    assert t.definition("responses") == {
        "type": "custom",
        "name": "apply_patch",
        "description": "Apply a patch.",
        "format": grammar,
    }
    assert t.bind("*** Begin Patch") == (("*** Begin Patch",), {})
    # A KimiError (issue 30: was a ValueError), naming the format.
    with pytest.raises(ToolDefinitionError, match="only in Responses, not in chat"):
        t.definition("chat")


def test_docstring_parsing() -> None:
    summary, params = parse_docstring(
        """Do a thing
        over two lines.

        Parameters:
            a (int): First.
            b: Second,
                continued.
        Raises:
            ValueError: never.
        """
    )
    assert summary == "Do a thing over two lines."
    assert params == {"a": "First.", "b": "Second, continued."}
    assert parse_docstring("") == ("", {})
    assert parse_docstring("Args:\n    x: only args") == ("", {"x": "only args"})


def test_tool_output() -> None:
    assert tool_output("plain text") == "plain text"
    assert tool_output({"temp": 3, "sky": "晴"}) == '{"temp": 3, "sky": "晴"}'
    assert tool_output([1, 2]) == "[1, 2]"
    assert tool_output(None) == "null"
    assert tool_output(Place("Oslo")) == '{"city": "Oslo", "country": "CN"}'
    assert tool_output({"s": {1}}) == '{"s": [1]}'
    with pytest.raises(TypeError, match="not JSON serializable"):
        tool_output(object())


# --- issue 21: nested and recursive types, enums with a type, sets ------------------------


@dataclass
class City:
    name: str


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Ratio(float, enum.Enum):
    HALF = 0.5
    FULL = 1.0


class Mixed(enum.Enum):
    ONE = 1
    NAME = "name"


class Stop(TypedDict):
    city: City
    nights: NotRequired[int]


@dataclass
class Node:
    name: str
    children: list[Node] = field(default_factory=list)


@dataclass
class Ping:
    pong: Pong | None = None


@dataclass
class Pong:
    ping: Ping | None = None


def test_enums_and_literals_name_their_json_type() -> None:
    def pick(
        unit: Unit,
        level: Level,
        ratio: Ratio,
        mixed: Mixed,
        flag: Literal[True, False],
        maybe: Literal["a", None],
        size: Literal[1.5, 2.5],
    ) -> None:
        """Pick."""

    props = tool(pick).definition("chat")["function"]["parameters"]["properties"]
    assert props["unit"] == {"type": "string", "enum": ["c", "f"]}
    assert props["level"] == {"type": "integer", "enum": [1, 2]}
    assert props["ratio"] == {"type": "number", "enum": [0.5, 1.0]}
    assert props["mixed"] == {
        "anyOf": [{"type": "integer", "enum": [1]}, {"type": "string", "enum": ["name"]}]
    }
    assert props["flag"] == {"type": "boolean", "enum": [True, False]}
    assert props["maybe"] == {"type": ["null", "string"], "enum": ["a", None]}
    assert props["size"] == {"type": "number", "enum": [1.5, 2.5]}

    def more(
        count: Literal[1, None], scale: Literal[1, 1.5], any_of: Literal["a", 0, None]
    ) -> None:
        """More."""

    props = tool(more).parameters["properties"]
    # null first: with the other type first, the service refuses the null value
    # ("not a valid integer").
    assert props["count"] == {"type": ["null", "integer"], "enum": [1, None]}
    assert props["scale"] == {"type": "number", "enum": [1, 1.5]}  # an integer is a number
    assert props["any_of"] == {
        "anyOf": [
            {"type": "string", "enum": ["a"]},
            {"type": "integer", "enum": [0]},
            {"type": "null", "enum": [None]},
        ]
    }
    # The same schemas where no tool post-processing happens (structured output).
    assert kimi_ext.structured.resolve_schema(Mixed) == {
        "anyOf": [{"type": "integer", "enum": [1]}, {"type": "string", "enum": ["name"]}]
    }


def test_sets_are_arrays_of_unique_items() -> None:
    def tag(labels: set[str], ids: frozenset[int]) -> None:
        """Tag."""

    t = tool(tag)
    props = t.definition("responses")["parameters"]["properties"]
    assert props["labels"] == {"type": "array", "items": {"type": "string"}, "uniqueItems": True}
    assert props["ids"] == {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}
    assert t.check({"labels": ["a", "a"], "ids": []}) is not None  # duplicates are refused
    assert t.bind({"labels": ["a", "b"], "ids": [1]}) == (
        (),
        {"labels": {"a", "b"}, "ids": frozenset({1})},
    )


def test_a_recursive_dataclass_gets_defs_and_refs() -> None:
    def plant(tree: Node, graft: Node | None = None, ping: Ping | None = None) -> None:
        """Plant a tree."""

    params = tool(plant).definition("messages")["input_schema"]
    node = params["$defs"]["Node"]
    assert node["properties"]["children"] == {"type": "array", "items": {"$ref": "#/$defs/Node"}}
    assert params["properties"]["tree"]["type"] == "object"  # a parameter still has its type
    assert params["properties"]["tree"]["properties"] == node["properties"]
    assert params["properties"]["graft"] == {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}
    assert "Ping" in params["$defs"]  # mutual recursion: Ping -> Pong -> Ping
    jsonschema.Draft202012Validator.check_schema(params)
    value = {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}
    assert jsonschema.Draft202012Validator(params).is_valid({"tree": value})
    assert not jsonschema.Draft202012Validator(params).is_valid({"tree": {"children": []}})


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_run_tools_decodes_nested_and_recursive_parameters(
    fmt: str, client: kimi_ext.Kimi, standin: KimiStandIn
) -> None:
    seen: dict[str, Any] = {}

    def trip(
        home: City | None,
        by_name: dict[str, City],
        route: list[City],
        pair: tuple[City, int],
        stops: list[Stop],
        tags: set[str],
        level: Level,
        tree: Node,
        ping: Ping,
        nothing: City | None = None,
    ) -> str:
        """Plan a trip."""
        seen.update(locals())
        return "planned"

    arguments = {
        "home": {"name": "Oslo"},
        "by_name": {"b": {"name": "Bergen"}},
        "route": [{"name": "Lyon"}, {"name": "Nice"}],
        "pair": [{"name": "Rome"}, 2],
        "stops": [{"city": {"name": "Pisa"}, "nights": 1}, {"city": {"name": "Siena"}}],
        "tags": ["x", "y"],
        "level": 2,
        "tree": {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]},
        "ping": {"pong": {"ping": {"pong": None}}},
        "nothing": None,
    }
    standin.queue(Reply(tool_calls=[ToolCallSpec("trip", arguments)]), Reply(text="Done."))
    resource: Any = {"chat": client.chat.completions, "messages": client.messages,
                     "responses": client.responses}[fmt]  # fmt: skip
    request: dict[str, Any] = {"model": "kimi-k3.1-pro", "tools": [trip]}
    request["input" if fmt == "responses" else "messages"] = [{"role": "user", "content": "Go"}]
    if fmt == "messages":
        request["max_tokens"] = 1024
    run = resource.run_tools(**request)
    assert run.final.text == "Done."
    assert "planned" in str(list(run.history)), list(run.history)
    assert seen["home"] == City("Oslo") and seen["by_name"] == {"b": City("Bergen")}
    assert seen["route"] == [City("Lyon"), City("Nice")]
    assert seen["pair"] == (City("Rome"), 2)
    assert seen["stops"] == [{"city": City("Pisa"), "nights": 1}, {"city": City("Siena")}]
    assert seen["tags"] == {"x", "y"} and seen["level"] is Level.HIGH
    assert seen["tree"] == Node("a", [Node("b", [Node("c")])])
    assert seen["ping"] == Ping(Pong(Ping(None)))
    assert seen["nothing"] is None


def _numpy_style(city: str, days: int = 1) -> str:
    """Current weather
    for a city.

    Parameters
    ----------
    city : str
        City name, e.g. Beijing. Spelled in
        English.
    days : int, optional
        How many days.

    Returns
    -------
    str
        A short description.
    """
    return city


def _rest_style(city: str, days: int = 1) -> str:
    """Current weather
    for a city.

    :param city: City name, e.g. Beijing. Spelled in
        English.
    :param int days: How many days.
    :returns: A short description.
    """
    return city


def _epydoc_style(city: str, days: int = 1) -> str:
    """Current weather
    for a city.

    @param city: City name, e.g. Beijing. Spelled in
        English.
    @type city: str
    @param days: How many days.
    @return: A short description.
    """
    return city


@pytest.mark.parametrize("fn", [_numpy_style, _rest_style, _epydoc_style])
@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_numpy_rest_and_epydoc_docstrings_describe_the_parameters(
    fn: Callable[..., Any], fmt: str
) -> None:
    # Issue 34: docstring-parser reads these styles too (only Google's Args: were read).
    definition = tool(fn).definition(fmt)
    assert json.dumps(definition).count("Current weather for a city.") == 1
    assert "Returns" not in json.dumps(definition) and "A short" not in json.dumps(definition)
    schema = definition.get("function", definition)
    params = schema.get("parameters") or schema.get("input_schema")
    assert params["properties"] == {
        "city": {"type": "string", "description": "City name, e.g. Beijing. Spelled in English."},
        "days": {"type": "integer", "description": "How many days."},
    }


def test_a_docstring_that_opens_with_its_args_or_has_no_sections() -> None:
    assert parse_docstring("Args:\n    *args: many.\n    **kw: named.") == (
        "",
        {"args": "many.", "kw": "named."},
    )
    assert parse_docstring("One line.\nTwo lines.\n\nMore text.") == ("One line. Two lines.", {})
    assert parse_docstring("Summary.\n\nAttributes:\n    x: not a parameter.") == (
        "Summary.",
        {},
    )
