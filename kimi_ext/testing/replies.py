"""What the stand-in's "model" says: scripted replies, the token count, and the output plan.

A :class:`Reply` is format-neutral. :func:`plan_output` turns it into a
:class:`PlannedOutput` for one request: stop sequences are applied to the text, then the output budget (``max_tokens`` and
friends) is spent in generation order (reasoning, then text, then tool calls), so a small
budget cuts the reasoning or the text exactly where the real service would stop.

Tokens are counted the same way everywhere (usage, caching, truncation), by default::

    count_tokens("")        == 0
    count_tokens("abcd")    == 1
    count_tokens("abcde")   == 2      # ceil(characters / 4)

and cutting at N tokens keeps the first ``4 * N`` characters. ``KimiStandIn(token_counter=
...)`` plugs in another rule (a :data:`TokenCounter`: text in, tokens out); cutting at N
tokens then keeps the longest prefix the rule counts as at most N.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

CHARS_PER_TOKEN = 4

TokenCounter = Callable[[str], int]
"""A rule counting the tokens of a text (the stand-in's default is :func:`count_tokens`)."""
DEFAULT_REASONING = "Thinking it over before answering."
SEARCH_REASONING = "The search results are in; answering from them."


def count_tokens(text: str) -> int:
    """The stand-in's token count: ``ceil(len(text) / 4)``; 0 for the empty string."""
    return -(-len(text) // CHARS_PER_TOKEN)


def cut_to_tokens(text: str, tokens: int, counter: TokenCounter | None = None) -> str:
    """The first ``tokens`` tokens of ``text`` (``4 * tokens`` characters by default; with
    another ``counter``, the longest prefix it counts as at most ``tokens``)."""
    if counter is None or counter is count_tokens:
        return text[: max(0, tokens) * CHARS_PER_TOKEN]
    low, high = 0, len(text)  # counter(text[:low]) <= tokens; search the largest such low
    while low < high:
        mid = (low + high + 1) // 2
        if counter(text[:mid]) <= tokens:
            low = mid
        else:
            high = mid - 1
    return text[:low]


def dump_json(value: Any) -> str:
    """Compact JSON as the service writes it (non-ASCII kept as is). Text holding half a
    surrogate pair (echoed from a request) is written with ``\\u`` escapes, since UTF-8
    cannot carry it."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":"))
    return text


@dataclass(frozen=True)
class ToolCallSpec:
    """One tool call the model makes.

    ``arguments`` is the JSON text sent on the wire, or a mapping that is dumped to JSON. An
    invalid JSON string is sent unchanged (to test how a client copes). ``id`` defaults to
    Kimi's native form ``functions.<name>:<position in the turn>``.
    """

    name: str
    arguments: str | Mapping[str, Any] = "{}"
    id: str | None = None

    def arguments_json(self) -> str:
        """The arguments as the JSON text sent on the wire (a str is sent unchanged)."""
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(dict(self.arguments), ensure_ascii=False)


@dataclass(frozen=True)
class SearchResult:
    """One web-search hit."""

    url: str
    title: str
    snippet: str = ""


DEFAULT_RESULTS: tuple[SearchResult, ...] = (
    SearchResult("https://www.kimi.com/", "Kimi - Moonshot AI", "Kimi, an AI assistant."),
    SearchResult("https://platform.kimi.ai/", "Kimi Open Platform", "API documentation."),
)


@dataclass(frozen=True)
class WebSearchSpec:
    """A server-side web search the model runs before answering."""

    query: str
    results: Sequence[SearchResult] = DEFAULT_RESULTS


@dataclass(frozen=True)
class Reply:
    """What the model says for one request.

    ``reasoning=None`` uses a short default reasoning text; ``""`` means an empty reasoning.
    ``tool_calls`` are made after the text (several at once are parallel calls).
    ``web_search`` (a query or a :class:`WebSearchSpec`) makes the model search first: a
    server_tool_use + web_search_tool_result pair on Messages, a web_search_call item on
    Responses, and on Chat the documented echo loop (the first request answers with a
    ``$web_search`` builtin tool call; the request that echoes its arguments back gets the
    rest of this reply).
    """

    text: str = ""
    reasoning: str | None = None
    tool_calls: Sequence[ToolCallSpec] = ()
    web_search: WebSearchSpec | str | None = None

    @classmethod
    def structured(cls, value: Any, *, reasoning: str | None = None) -> Reply:
        """A structured-output answer: ``value`` as compact JSON text."""
        return cls(text=dump_json(value), reasoning=reasoning)

    @property
    def reasoning_text(self) -> str:
        """The reasoning to send: ``reasoning``, or a short default when it is None."""
        return DEFAULT_REASONING if self.reasoning is None else self.reasoning

    @property
    def search(self) -> WebSearchSpec | None:
        """The web search this reply runs first, if any."""
        if isinstance(self.web_search, str):
            return WebSearchSpec(self.web_search)
        return self.web_search


@dataclass(frozen=True)
class PlannedCall:
    """A tool call as generated; ``complete`` is False for one the output budget cut
    mid-arguments (``arguments`` is then the JSON text up to the cut)."""

    id: str
    name: str
    arguments: str
    type: str = "function"
    complete: bool = True

    def input_object(self) -> dict[str, Any]:
        """The arguments as an object (Messages tool_use.input); ``{}`` if not an object."""
        try:
            value = json.loads(self.arguments, strict=False)  # raw control characters too
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class PlannedSearch:
    id: str
    query: str
    results: Sequence[SearchResult]


@dataclass
class PlannedOutput:
    """The output of one generation after stop sequences and the output budget."""

    reasoning: str
    reasoning_complete: bool
    text: str
    show_text: bool
    tool_calls: list[PlannedCall] = field(default_factory=list)
    search: PlannedSearch | None = None
    finish: Literal["stop", "length", "tool_calls"] = "stop"
    stop_sequence: str | None = None
    counter: TokenCounter = field(default=count_tokens, compare=False, repr=False)

    @property
    def reasoning_tokens(self) -> int:
        return self.counter(self.reasoning)

    @property
    def output_tokens(self) -> int:
        count = self.counter
        calls = sum(count(c.name + c.arguments) for c in self.tool_calls)
        return self.reasoning_tokens + count(self.text) + calls

    @property
    def truncated(self) -> bool:
        return self.finish == "length"


def default_call_id(name: str, position: int) -> str:
    return f"functions.{name}:{position}"


def plan_output(
    reply: Reply,
    *,
    budget: int,
    stops: Sequence[str] = (),
    with_reasoning: bool = True,
    search_id: str | None = None,
    call_id: Callable[[str, int], str] = default_call_id,
    counter: TokenCounter = count_tokens,
) -> PlannedOutput:
    """Apply stop sequences and the output budget to ``reply``.

    Generation order is reasoning, text, tool calls. A stop sequence ends the text before the
    match (the match is not output) and no tool call follows. When the budget runs out the
    current part is cut at the budget and nothing after it is produced: a tool call that does
    not fit whole is cut mid-arguments, as the real service does (``complete=False``; it is
    dropped only when not one character of its arguments fits); ``finish`` is then
    ``"length"``. Empty text is never shown (no blank text block or empty message item).
    """
    reasoning = reply.reasoning_text if with_reasoning else ""
    text = reply.text
    stop_hit: str | None = None
    first = len(text)
    for seq in stops:
        at = text.find(seq) if seq else -1
        if 0 <= at < first:
            first, stop_hit = at, seq
    if stop_hit is not None:
        text = text[:first]
    calls = [
        PlannedCall(spec.id or call_id(spec.name, i), spec.name, spec.arguments_json())
        for i, spec in enumerate(reply.tool_calls)
    ]
    if stop_hit is not None:
        calls = []
    search_spec = reply.search
    search = (
        PlannedSearch(search_id or "srvtoolu_standin", search_spec.query, search_spec.results)
        if search_spec is not None
        else None
    )

    count = counter
    left = budget
    if count(reasoning) > left:
        cut = cut_to_tokens(reasoning, left, count)
        return PlannedOutput(cut, False, "", False, [], None, "length", counter=count)
    left -= count(reasoning)
    if count(text) > left:
        cut = cut_to_tokens(text, left, count)
        return PlannedOutput(reasoning, True, cut, bool(cut), [], search, "length", counter=count)
    left -= count(text)
    kept: list[PlannedCall] = []
    for call in calls:
        cost = count(call.name + call.arguments)
        if cost > left:
            room = len(cut_to_tokens(call.name + call.arguments, left, count)) - len(call.name)
            if room > 0:
                kept.append(cut_call(call, room))
            return PlannedOutput(
                reasoning, True, text, bool(text), kept, search, "length", counter=count
            )
        left -= cost
        kept.append(call)
    finish: Literal["stop", "tool_calls"] = "tool_calls" if kept else "stop"
    return PlannedOutput(
        reasoning, True, text, bool(text), kept, search, finish, stop_hit, counter=count
    )


def cut_call(call: PlannedCall, size: int) -> PlannedCall:
    """``call`` stopped after ``size`` characters of its arguments (never the whole text)."""
    size = max(1, min(size, len(call.arguments) - 1))
    return PlannedCall(call.id, call.name, call.arguments[:size], call.type, complete=False)


def example_for_schema(schema: Any, depth: int = 0, root: Any = None) -> Any:
    """A small instance of a JSON Schema (the default structured-output reply, and the
    arguments of a tool call ``tool_choice`` requires). A local ``$ref``
    (``#/$defs/...``) is followed."""
    root = schema if root is None else root
    if not isinstance(schema, Mapping) or depth > 8:
        return None
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            target = target.get(part) if isinstance(target, Mapping) else None
        return example_for_schema(target, depth + 1, root)
    if "const" in schema:
        return schema["const"]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return enum[0]
    if "default" in schema:
        return schema["default"]
    for key in ("anyOf", "oneOf", "allOf"):
        members = schema.get(key)
        if isinstance(members, list) and members:
            return example_for_schema(members[0], depth + 1, root)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    props = schema.get("properties")
    if kind == "object" or (kind is None and isinstance(props, Mapping)):
        props = props if isinstance(props, Mapping) else {}
        required = schema.get("required")
        names = [n for n in props if not isinstance(required, list) or n in required]
        return {name: example_for_schema(props[name], depth + 1, root) for name in names}
    if kind == "array":
        count = schema.get("minItems", 0)
        count = count if isinstance(count, int) else 0
        return [example_for_schema(schema.get("items"), depth + 1, root) for _ in range(count)]
    if kind == "string":
        size = schema.get("minLength", 0)
        return "x" * size if isinstance(size, int) else ""
    if kind in ("integer", "number"):
        return _number_example(schema, kind)
    if kind == "boolean":
        return False
    return None


def _number_example(schema: Mapping[str, Any], kind: str) -> int | float:
    """The smallest number the bounds allow (0 when unbounded below)."""

    def bound(key: str) -> int | float | None:
        value = schema.get(key)
        return value if isinstance(value, int | float) and not isinstance(value, bool) else None

    low, above = bound("minimum"), bound("exclusiveMinimum")
    if above is not None and (low is None or above >= low):
        low = above + 1 if kind == "integer" else above + 0.5
    if low is None:
        high, below = bound("maximum"), bound("exclusiveMaximum")
        ceiling = below - 1 if below is not None else high
        low = min(0, ceiling) if ceiling is not None else 0
    if kind == "integer" and isinstance(low, float):
        return int(-(-low // 1))
    return low
