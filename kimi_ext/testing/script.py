"""Replies chosen by request content (rules), and scripts that set them up from a JSON file.

A :class:`Rule` answers every request it matches, whatever order requests arrive in, so
concurrent tests get the right reply (a queue answers in arrival order)::

    standin.when("Oslo", Reply(tool_calls=[ToolCallSpec("get_weather", {"city": "Oslo"})]))
    standin.when(Match(text="Oslo", tool_result=True), "Sunny in Oslo.")
    standin.when(lambda request: request.json["model"] == "kimi-k3", "Short answer.")

A script file (``KimiStandIn(script=path)``, :meth:`KimiStandIn.load_script`, ``kimi stand-in
--script FILE``) holds rules, queued replies and queued faults; see :func:`parse_script` for
its schema. Every problem in it raises :class:`ScriptError` naming the file, the place in it
and the rule broken.
"""

from __future__ import annotations

import inspect
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kimi_ext.errors import KimiError
from kimi_ext.testing.faults import Fault
from kimi_ext.testing.recording import RecordedRequest
from kimi_ext.testing.replies import Reply, SearchResult, ToolCallSpec, WebSearchSpec

FORMATS = ("chat", "messages", "responses")


class ScriptError(KimiError, ValueError):
    """A stand-in script that cannot be loaded: names the file, the place and the problem."""


@dataclass(frozen=True)
class Match:
    """Which requests a rule answers: every condition given must hold (none given: all).

    Attributes:
        text: the request's last user text contains this (case-sensitive).
        format: ``chat``, ``messages`` or ``responses``.
        model: the request's ``model``, exactly.
        tool_result: True for a request whose history ends with tool results (the model is
            being told what its tools returned), False for one that does not.
    """

    text: str | None = None
    format: str | None = None
    model: str | None = None
    tool_result: bool | None = None

    def __call__(self, request: RecordedRequest) -> bool:
        """Whether ``request`` meets every condition."""
        if self.format is not None and request.format != self.format:
            return False
        if self.model is not None:
            body = request.json
            if not isinstance(body, dict) or body.get("model") != self.model:
                return False
        if self.tool_result is not None and request.ends_with_tool_result != self.tool_result:
            return False
        return self.text is None or self.text in request.last_user_text


Predicate = Callable[[RecordedRequest], bool]


@dataclass(eq=False)
class Rule:
    """Replies (and faults) for the requests ``match`` accepts; made by
    :meth:`KimiStandIn.when`.

    Successive matching requests get successive ``replies``, the last one repeating; no
    replies leaves the reply to the queue, the responder or the default echo. ``faults``
    act on every request the rule answers. After ``times`` requests (None: no limit) the
    rule answers no more. ``hits`` counts the requests it answered.
    """

    match: Predicate
    replies: tuple[Reply, ...] = ()
    times: int | None = None
    faults: tuple[Fault, ...] = ()
    name: str = ""
    hits: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    @property
    def exhausted(self) -> bool:
        """True once it answered ``times`` requests."""
        return self.times is not None and self.hits >= self.times

    def take(self) -> tuple[bool, Reply | None]:
        """Count one more request answered: (False, None) when already exhausted, else
        (True, the reply for it or None)."""
        with self._lock:
            if self.exhausted:
                return False, None
            reply = self.replies[min(self.hits, len(self.replies) - 1)] if self.replies else None
            self.hits += 1
            return True, reply

    def describe(self) -> str:
        """How log lines and errors name it."""
        return f"rule {self.name!r}" if self.name else "a rule's match"


def as_rule(
    match: str | Match | Predicate,
    replies: Sequence[Reply | str],
    *,
    times: int | None = None,
    faults: Sequence[Fault] = (),
    name: str = "",
) -> Rule:
    """The :class:`Rule` :meth:`KimiStandIn.when` adds (a str ``match`` is ``Match(text=...)``)."""
    if isinstance(match, str):
        match = Match(text=match)
    if not callable(match):
        raise TypeError(f"match must be a str, a Match or a callable, not {type(match).__name__}")
    if times is not None and (isinstance(times, bool) or not isinstance(times, int) or times < 1):
        raise ValueError(f"times must be a positive integer or None, not {times!r}")
    built = tuple(Reply(text=r) if isinstance(r, str) else r for r in replies)
    return Rule(match, built, times, tuple(faults), name)


# ======================================================================== script files


@dataclass
class Script:
    """What a script file sets up: rules, then queued replies, then queued fault entries."""

    rules: list[Rule] = field(default_factory=list)
    queue: list[Reply] = field(default_factory=list)
    faults: list[tuple[Fault, ...]] = field(default_factory=list)


def load_script(path: str | Path) -> Script:
    """Read and check the script file at ``path`` (UTF-8 JSON, schema in
    :func:`parse_script`)."""
    try:
        text = Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ScriptError(f"stand-in script {path}: cannot be read: {reason}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ScriptError(f"stand-in script {path}: not valid JSON: {exc}") from None
    return parse_script(data, source=str(path))


def parse_script(data: Any, *, source: str = "<script>") -> Script:
    """Check a parsed script and build what it describes. The schema::

        {
          "rules": [                               # checked for every request, in order
            {
              "name": "weather call",              # optional, names the rule in logs
              "when": {"text": "Oslo",             # all optional: see Match
                       "format": "chat", "model": "kimi-k3.1-pro", "tool_result": false},
              "reply": REPLY,                      # or "replies": [REPLY, ...] (the last repeats)
              "times": 1,                          # optional: answers this many requests
              "faults": [FAULT, ...]               # optional: on every request it answers
            }
          ],
          "queue": [REPLY, ...],                   # for requests no rule answers, in order
          "faults": [FAULT or [FAULT, ...], ...]   # queued as KimiStandIn.fault() queues them
        }

    A REPLY is a string (the text) or ``{"text", "reasoning", "tool_calls": [{"name",
    "arguments" (object or JSON text), "id"}], "web_search" (a query or {"query",
    "results": [{"url", "title", "snippet"}]}), "structured" (any JSON value, sent as
    compact JSON text; instead of "text")}``. A FAULT is ``{"fault": NAME, ...}`` with
    NAME a :class:`Fault` constructor (``rate_limit``, ``cut_stream``...) and its keyword
    arguments (``{"fault": "cut_stream", "after": 3}``).
    """
    where = _Where(source)
    top = where.mapping(data, "", {"rules", "queue", "faults"})
    script = Script()
    for i, item in enumerate(where.array(top.get("rules", []), "rules")):
        script.rules.append(_rule(where, item, f"rules[{i}]"))
    for i, item in enumerate(where.array(top.get("queue", []), "queue")):
        script.queue.append(_reply(where, item, f"queue[{i}]"))
    for i, item in enumerate(where.array(top.get("faults", []), "faults")):
        at = f"faults[{i}]"
        if isinstance(item, list):
            entry = tuple(_fault(where, f, f"{at}[{j}]") for j, f in enumerate(item))
            if not entry:
                raise where.error(at, "an empty list of faults")
            script.faults.append(entry)
        else:
            script.faults.append((_fault(where, item, at),))
    return script


@dataclass
class _Where:
    source: str

    def error(self, at: str, problem: str) -> ScriptError:
        return ScriptError(f"stand-in script {self.source}: {at or 'the top level'}: {problem}")

    def mapping(self, value: Any, at: str, keys: set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(at, f"must be an object, not {_kind(value)}")
        unknown = sorted(set(value) - keys)
        if unknown:
            raise self.error(
                at, f"unknown key {unknown[0]!r} (the keys are {', '.join(sorted(keys))})"
            )
        return value

    def array(self, value: Any, at: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.error(at, f"must be a list, not {_kind(value)}")
        return value

    def typed(self, value: Any, at: str, kinds: tuple[type, ...], name: str) -> Any:
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            raise self.error(at, f"must be {name}, not {_kind(value)} {_short(value)}")
        return value


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _rule(where: _Where, data: Any, at: str) -> Rule:
    item = where.mapping(data, at, {"name", "when", "reply", "replies", "times", "faults"})
    if "reply" in item and "replies" in item:
        raise where.error(at, "has both 'reply' and 'replies' (give one)")
    if "reply" in item:
        replies = [_reply(where, item["reply"], f"{at}.reply")]
    else:
        raw = where.array(item.get("replies", []), f"{at}.replies")
        replies = [_reply(where, r, f"{at}.replies[{k}]") for k, r in enumerate(raw)]
    faults = [
        _fault(where, f, f"{at}.faults[{k}]")
        for k, f in enumerate(where.array(item.get("faults", []), f"{at}.faults"))
    ]
    if not replies and not faults:
        raise where.error(at, "needs a 'reply', 'replies' or 'faults'")
    times = item.get("times")
    if times is not None:
        where.typed(times, f"{at}.times", (int,), "a positive integer")
        if times < 1:
            raise where.error(f"{at}.times", f"must be a positive integer, not {times}")
    name = where.typed(item.get("name", ""), f"{at}.name", (str,), "a string")
    match = _match(where, item.get("when", {}), f"{at}.when")
    return as_rule(match, replies, times=times, faults=faults, name=name)


def _match(where: _Where, data: Any, at: str) -> Match:
    item = where.mapping(data, at, {"text", "format", "model", "tool_result"})
    for key in ("text", "format", "model"):
        if key in item:
            where.typed(item[key], f"{at}.{key}", (str,), "a string")
    fmt = item.get("format")
    if fmt is not None and fmt not in FORMATS:
        raise where.error(f"{at}.format", f"must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if "tool_result" in item:
        where.typed(item["tool_result"], f"{at}.tool_result", (bool,), "true or false")
    return Match(item.get("text"), fmt, item.get("model"), item.get("tool_result"))


def _reply(where: _Where, data: Any, at: str) -> Reply:
    if isinstance(data, str):
        return Reply(text=data)
    keys = {"text", "reasoning", "tool_calls", "web_search", "structured"}
    item = where.mapping(data, at, keys)
    if "text" in item and "structured" in item:
        raise where.error(at, "has both 'text' and 'structured' (give one)")
    text = where.typed(item.get("text", ""), f"{at}.text", (str,), "a string")
    reasoning = item.get("reasoning")
    if reasoning is not None:
        where.typed(reasoning, f"{at}.reasoning", (str,), "a string or null")
    calls = [
        _call(where, c, f"{at}.tool_calls[{k}]")
        for k, c in enumerate(where.array(item.get("tool_calls", []), f"{at}.tool_calls"))
    ]
    search = (
        _search(where, item["web_search"], f"{at}.web_search") if "web_search" in item else None
    )
    if "structured" in item:
        text = Reply.structured(item["structured"]).text
    return Reply(text=text, reasoning=reasoning, tool_calls=calls, web_search=search)


def _call(where: _Where, data: Any, at: str) -> ToolCallSpec:
    item = where.mapping(data, at, {"name", "arguments", "id"})
    if "name" not in item:
        raise where.error(at, "needs a 'name'")
    name = where.typed(item["name"], f"{at}.name", (str,), "a string")
    arguments = where.typed(
        item.get("arguments", {}), f"{at}.arguments", (dict, str), "an object or JSON text"
    )
    call_id = item.get("id")
    if call_id is not None:
        where.typed(call_id, f"{at}.id", (str,), "a string")
    return ToolCallSpec(name, arguments, id=call_id)


def _search(where: _Where, data: Any, at: str) -> WebSearchSpec | str:
    if isinstance(data, str):
        return data
    item = where.mapping(data, at, {"query", "results"})
    if "query" not in item:
        raise where.error(at, "needs a 'query'")
    query = where.typed(item["query"], f"{at}.query", (str,), "a string")
    if "results" not in item:
        return WebSearchSpec(query)
    results = []
    for k, hit in enumerate(where.array(item["results"], f"{at}.results")):
        here = f"{at}.results[{k}]"
        hit = where.mapping(hit, here, {"url", "title", "snippet"})
        for key in ("url", "title"):
            if key not in hit:
                raise where.error(here, f"needs a {key!r}")
        values = [
            where.typed(hit.get(key, ""), f"{here}.{key}", (str,), "a string")
            for key in ("url", "title", "snippet")
        ]
        results.append(SearchResult(*values))
    return WebSearchSpec(query, tuple(results))


def fault_names() -> tuple[str, ...]:
    """The :class:`Fault` constructors a script may name, sorted."""
    return tuple(
        sorted(
            name
            for name, member in vars(Fault).items()
            if isinstance(member, classmethod) and not name.startswith("_")
        )
    )


# JSON kinds for the annotations of the Fault constructors' parameters.
_ANNOTATION_KINDS: dict[str, tuple[tuple[type, ...], str]] = {
    "int": ((int,), "an integer"),
    "float": ((int, float), "a number"),
    "str": ((str,), "a string"),
    "bool": ((bool,), "true or false"),
    "None": ((type(None),), "null"),
    "Mapping[str, str]": ((dict,), "an object of strings"),
}


def _fault(where: _Where, data: Any, at: str) -> Fault:
    if not isinstance(data, dict) or "fault" not in data:
        raise where.error(
            at, 'must be an object with a "fault" name, e.g. {"fault": "server_error"}'
        )
    name = data["fault"]
    names = fault_names()
    if name not in names:
        raise where.error(
            f"{at}.fault", f"unknown fault {_short(name)} (the faults are {', '.join(names)})"
        )
    factory = getattr(Fault, name)
    params = inspect.signature(factory).parameters
    kwargs = {k: v for k, v in data.items() if k != "fault"}
    for key, value in kwargs.items():
        param = params.get(key)
        if param is None:
            known = ", ".join(params) or "none"
            raise where.error(at, f"{name} takes no {key!r} (its arguments: {known})")
        allowed: tuple[type, ...] = ()
        words = []
        for token in str(param.annotation).split(" | "):
            kinds, word = _ANNOTATION_KINDS.get(token.strip(), ((object,), "any value"))
            allowed += kinds
            words.append(word)
        where.typed(value, f"{at}.{key}", allowed, " or ".join(words))
        if isinstance(value, dict) and not all(isinstance(v, str) for v in value.values()):
            raise where.error(f"{at}.{key}", "must be an object of strings")
    missing = [
        p.name
        for p in params.values()
        if p.default is inspect.Parameter.empty and p.name not in kwargs
    ]
    if missing:
        raise where.error(at, f"{name} needs {', '.join(repr(m) for m in missing)}")
    fault: Fault = factory(**kwargs)
    return fault
