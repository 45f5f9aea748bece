"""The request contract of each wire format, read from what ``make generate`` derived.

``openapi/<format>.yaml`` is the one place the service's request rules are written: as JSON
Schema, plus the ``x-kimi-*`` extensions each spec documents at its top. ``make generate``
derives ``kimi_raw/_contract/<format>.json`` from it; this module compiles that into one
:class:`Contract` per format. The client checks every body with it before sending, and the
stand-in enforces the same rules in the service's words. Nothing here names a field, a
model or a limit: they all come from the derived file.

The room around it holds the rules built on the contract: request validation
(:mod:`.validation`), effort aliases (:mod:`.effort`), the call options (:mod:`.options`),
the replay rules no schema can state (:mod:`.replay`) and text facts (:mod:`.text`). It
imports no other room of the core.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from kimi_ext._core.contract.fast import Fail, FastCheck
from kimi_ext._core.contract.fast import load as load_fast
from kimi_ext._core.contract.schema import NEAR_TYPOS, Check, Compiler, Path, Violation, json_type

__all__ = [
    "Closed",
    "Contract",
    "ModelRules",
    "Path",
    "Violation",
    "closed_defs",
    "contract",
    "format_names",
    "format_path",
    "json_type",
]


Closed = Literal["strict", "lenient"] | None
"""How a compiled schema treats unknown keys inside the body. None: as the schema is written
(what the stand-in enforces). ``"strict"``: every named object schema that lists its
properties refuses other keys. ``"lenient"``: the same, except the shapes in the history
field that the service also sends (for turns that may be received content)."""


def format_path(path: Path, *, style: str = "python") -> str:
    """``("messages", 3, "content")`` as ``messages[3].content`` (or ``messages.3.content``)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]" if style == "python" else f".{part}"
        else:
            out += f".{part}" if out else part
    return out or "body"


def _reachable(defs: Mapping[str, Any], roots: Iterator[str] | list[str]) -> set[str]:
    """The names of the components ``roots`` refer to, directly or not (roots included)."""
    seen: set[str] = set()
    stack = [r for r in roots if r in defs]
    seen.update(stack)
    while stack:
        todo: list[Any] = [defs[stack.pop()]]
        while todo:
            node = todo.pop()
            if isinstance(node, Mapping):
                ref = node.get("$ref")
                if isinstance(ref, str):
                    name = ref.removeprefix("#/$defs/")
                    if name not in seen and name in defs:
                        seen.add(name)
                        stack.append(name)
                todo.extend(node.values())
            elif isinstance(node, list):
                todo.extend(node)
    return seen


def closed_defs(defs: Mapping[str, Any], *, root: str, keep_open: set[str]) -> dict[str, Any]:
    """``defs`` with each named object schema closed: one that lists its ``properties`` and
    says nothing of ``additionalProperties`` refuses any other key. Schemas that say
    ``additionalProperties`` (a tool's JSON Schema, ``metadata``, a tool call's input) stay
    as written, and so does ``root`` (the request: an unknown top-level field has its own
    message, and ``extra_body=``). Those in ``keep_open`` (shapes that may hold what the
    service sent, with keys it adds) accept other keys, except a near miss of a field they
    lack (``NEAR_TYPOS``: ``reasoning_contnet`` is a typo, ``citations`` is received)."""
    out = dict(defs)
    for name, schema in defs.items():
        if (
            name != root
            and isinstance(schema, Mapping)
            and schema.get("type") == "object"
            and "properties" in schema
            and "additionalProperties" not in schema
        ):
            if name in keep_open:
                out[name] = {**schema, NEAR_TYPOS: True}
            else:
                out[name] = {**schema, "additionalProperties": False}
    return out


@dataclass(frozen=True)
class Unsupported:
    """A field (or one shape of it) that a model does not accept."""

    path: tuple[str, ...]
    feature: str
    when: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ModelRules:
    """What ``x-kimi-models`` says about one known model."""

    name: str
    efforts: tuple[str, ...] | None = None
    unsupported: tuple[Unsupported, ...] = ()
    # Its turns may come without reasoning (kimi-k3): a replayed tool-call turn may lack it.
    thinking_optional: bool = False


@dataclass(frozen=True)
class EffortRules:
    """Where the format puts reasoning effort, its levels and the aliases the service maps."""

    path: tuple[str, ...]
    levels: tuple[str, ...]
    aliases: Mapping[str, str]
    default: str


def _get(body: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = body
    for key in path:
        if not isinstance(value, Mapping) or key not in value:
            return _MISSING
        value = value[key]
    return value


_MISSING = object()


def _template(text: str) -> str:
    """``text`` as a ``{path}`` template: braces that came from a value are escaped."""
    return text.replace("{", "{{").replace("}", "}}").replace("{{path}}", "{path}")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


class Contract:
    """The request rules of one format. ``contract("chat").check(body)`` raises Violation."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.format: str = data["format"]
        self.method: str = data["method"]
        self.path: str = data["path"]
        self.headers: Mapping[str, Any] = data["headers"]  # each sent with its default
        self.required_headers: tuple[str, ...] = tuple(data["required_headers"])
        self.fields: frozenset[str] = frozenset(data["fields"])
        self.required: tuple[str, ...] = tuple(data["required"])
        self.defaults: Mapping[str, Any] = data["defaults"]
        self.schema: Mapping[str, Any] = data["schema"]
        # Where the request carries a JSON Schema of the user's, and its role (x-kimi-mfjs):
        # paths from the body, "*" for every item of an array.
        self.schema_fields: tuple[tuple[tuple[str, ...], str], ...] = tuple(
            (tuple(f["path"]), f["role"]) for f in data.get("schema_fields", ())
        )
        ext: Mapping[str, Any] = data["extensions"]
        self.extensions = ext
        effort = ext["effort"]
        self.effort = EffortRules(
            path=tuple(effort["path"]),
            levels=tuple(effort["levels"]),
            aliases=dict(effort.get("aliases", {})),
            default=str(effort["default"]),
        )
        self.models: dict[str, ModelRules] = {
            name: ModelRules(
                name=name,
                efforts=tuple(rules["efforts"]) if "efforts" in rules else None,
                thinking_optional=bool(rules.get("thinking-optional", False)),
                unsupported=tuple(
                    Unsupported(tuple(u["path"].split(".")), u["feature"], u.get("when", {}))
                    for u in rules.get("unsupported", ())
                ),
            )
            for name, rules in ext.get("models", {}).items()
        }
        # Parsed once: these run on every request.
        self._requires_word = [
            (tuple(r["when"]["path"].split(".")), r["when"]["equals"], str(r["word"]).lower(),
             r["within"], r["rule"])
            for r in ext.get("requires-word", ())
        ]  # fmt: skip
        self._last_only = [
            (r["array"], r["flag"], r["role"], r["rule"]) for r in ext.get("last-only", ())
        ]
        answered = ext.get("answered-calls")
        self._answered = (
            None
            if answered is None
            else (
                answered["array"],
                answered["id"],
                # output type -> (call type, the service's sentence for an unanswered one)
                {
                    spec["output"]: (
                        call,
                        str(answered["service-error"]).replace("{label}", spec["label"]),
                    )
                    for call, spec in answered["calls"].items()
                },
                str(answered["rule"]),
            )
        )
        self.max_body_bytes: int | None = ext.get("max-body-bytes")
        # Where a history, its instructions and an output limit go; what ends a stream.
        self.history_field: str = ext["history-field"]
        self.system_field: str | None = ext.get("system-field")
        self.output_limit_field: str = ext["output-limit-field"]
        # The context window (input and output together) and the values kimi_ext replaces
        # before sending (an output limit of "auto"), from the spec.
        self.context_window: int = int(ext["context-window"])
        self.client_values: Mapping[str, tuple[Any, ...]] = {
            name: tuple(values) for name, values in ext.get("client-values", {}).items()
        }
        self.terminal_events: frozenset[str] = frozenset(ext["terminal-events"])
        self.stream_events: Mapping[str, str] = data["stream_events"]
        """Event type -> generated model name of the stream events kimi_ext types."""
        self.tool_types: frozenset[str] = frozenset(data["tool_types"])
        self.unsupported_fields: Mapping[str, str] = ext.get("unsupported-fields", {})
        # Compiled on first use, per mode (see Closed): the schema as written (what the
        # stand-in enforces), or closed to unknown keys in what a user wrote (the client's).
        self._checks: dict[Closed, Check] = {}
        self._fasts: dict[Closed, FastCheck] = {}
        self._compilers: dict[Closed, Compiler] = {}

    def _compiler(self, closed: Closed = None) -> Compiler:
        compiler = self._compilers.get(closed)
        if compiler is None:
            defs = self.schema["$defs"]
            if closed is not None:
                defs = closed_defs(defs, root=self.data["request"], keep_open=self._open(closed))
            compiler = self._compilers[closed] = Compiler(defs)
        return compiler

    def _open(self, closed: Closed) -> set[str]:
        """The schemas left open in mode ``closed``: when ``"lenient"``, the shapes in the
        history field that the service also sends (and any marked ``x-kimi-received``)."""
        if closed != "lenient":
            return set()
        defs = self.schema["$defs"]
        history = defs[self.data["request"]]["properties"][self.history_field]
        in_history = _reachable({**defs, "": history}, [""]) - {""}
        roots = [n for n in (self.data.get("response"), self.data.get("stream_event")) if n]
        sent = _reachable(defs, roots)
        marked = {n for n, d in defs.items() if isinstance(d, Mapping) and d.get("x-kimi-received")}
        return in_history & (sent | marked)

    def reference_check(self, body: Any, *, closed: Closed = None) -> None:
        """The schema part of :meth:`check`, by the path-naming reference validator only."""
        check = self._checks.get(closed)
        if check is None:
            check = self._checks[closed] = self._compiler(closed).ref(self.data["request"])
        check(body, ())

    def fast_check(self, body: Any, *, closed: Closed = None) -> bool:
        """The schema part of :meth:`check` by the generated fast check: True when valid
        (False may still be valid; the reference validator decides)."""
        fast = self._fasts.get(closed)
        if fast is None:
            fast = self._fasts[closed] = load_fast(self.format, closed, self._compiler(closed))
        try:
            fast(body)
        except (Fail, Violation):
            return False
        return True

    def _schema_check(self, body: Any, closed: Closed) -> None:
        # The generated fast check first; on a failure the reference validator names the
        # path and the rule (or finds the body valid: the fast check may be stricter, never
        # more lenient). The fast check is only an optimization.
        if not self.fast_check(body, closed=closed):
            self.reference_check(body, closed=closed)

    def _check_history(self, body: Mapping[str, Any], received: Collection[int] | None) -> None:
        """The client's check: every object the user wrote refuses unknown keys.

        ``received`` (a history object's): the history items the service sent are not
        checked at all; they go back as they came, a block type or key the request schema
        does not list included, and every other object is checked strictly. For a plain
        list (None) the client cannot tell received content from written, so the shapes in
        the history field that the service also sends stay open (one pass: a plain list is
        the hot path of a long conversation).
        """
        items = body.get(self.history_field)
        if received is None or not isinstance(items, list):
            self._schema_check(body, "lenient" if received is None else "strict")
            return
        picked = [i for i in range(len(items)) if i not in received]
        if picked:
            self._check_view(body, items, picked, "strict")
        else:  # received turns only (there is no user turn): as a plain list
            self._schema_check(body, "lenient")

    def _check_view(
        self, body: Mapping[str, Any], items: list[Any], picked: list[int], closed: Closed
    ) -> None:
        """The schema check of ``body`` with only the history items at ``picked``; a
        violation names the item's place in the whole list."""
        view = dict(body)
        view[self.history_field] = [items[i] for i in picked]
        try:
            self._schema_check(view, closed)
        except Violation as exc:
            path = exc.path
            if len(path) > 1 and path[0] == self.history_field and isinstance(path[1], int):
                exc.path = (path[0], picked[path[1]], *path[2:])
            raise

    def default_at(self, *path: str) -> Any:
        """The documented default of the request field at ``path`` (None without one),
        e.g. ``default_at("prompt_cache_options", "ttl")``."""
        compiler = self._compiler()
        schema = compiler.resolve(self.schema["$defs"][self.data["request"]])
        for key in path:
            props = schema.get("properties", {}) if isinstance(schema, Mapping) else {}
            schema = compiler.resolve(props.get(key))
        return schema.get("default") if isinstance(schema, Mapping) else None

    def media_types(self, component: str, field: str) -> tuple[str, ...]:
        """The ``x-kimi-media-types`` of one field of a component schema."""
        schema = self.schema["$defs"][component]["properties"][field]
        return tuple(schema["x-kimi-media-types"])

    @property
    def known_models(self) -> tuple[str, ...]:
        """The models the spec lists (any other id is sent with the generic rules only)."""
        return tuple(self.data.get("known_models", self.models))

    def thinking_required(self, model: Any) -> bool:
        """Whether turns of ``model`` always carry reasoning (True for an unknown model).

        A dated snapshot (``kimi-k3-0711``) follows the rules of its listed model.
        """
        if not isinstance(model, str):
            return True
        return not any(
            rules.thinking_optional and (model == name or model.startswith(name + "-"))
            for name, rules in self.models.items()
        )

    def unknown_fields(self, body: Mapping[str, Any]) -> list[str]:
        """Top-level keys of ``body`` that the spec does not define, in order."""
        return [k for k in body if k not in self.fields]

    def check(
        self,
        body: Mapping[str, Any],
        *,
        closed: bool = False,
        received: Collection[int] | None = None,
    ) -> None:
        """Every rule of the spec (schema and extensions) except unknown top-level fields.

        ``closed`` (the client's check): an object schema that lists its properties (and
        says nothing of ``additionalProperties``) refuses any other key, in what the user
        wrote (see :meth:`_check_history`; ``received`` are the positions of the items a
        history object received). Without it, the schema as written (the stand-in's).
        """
        if closed:
            self._check_history(body, received)
        else:
            self._schema_check(body, None)
        if isinstance(body, Mapping):
            self._check_model(body)
            self._check_extensions(body)

    def level(self, value: Any, model: Any, path: Path) -> str:
        """The canonical effort level for ``value`` (aliases mapped), checked for ``model``."""
        levels = self.effort.levels
        shown = ", ".join(levels)
        if not isinstance(value, str) or self.effort.aliases.get(value, value) not in levels:
            aliases = ", ".join(self.effort.aliases)
            raise Violation(
                path,
                value,
                f"must be one of {shown} (or an alias: {aliases})",
                service=_template(
                    f"invalid {{path}}: {value!r} is not supported, use one of {shown}"
                ),
            )
        level = self.effort.aliases.get(value, value)
        rules = self.models.get(model) if isinstance(model, str) else None
        if rules is not None and rules.efforts is not None and level not in rules.efforts:
            only = ", ".join(rules.efforts)
            raise Violation(
                path,
                value,
                f"model {model} accepts only effort {only} (got {level} after aliases)",
                service=_template(f"invalid {{path}}: only {only} is allowed for model {model}"),
            )
        return level

    def _check_model(self, body: Mapping[str, Any]) -> None:
        model = body.get("model")
        effort = _get(body, self.effort.path)
        if effort is not _MISSING and effort is not None:
            self.level(effort, model, self.effort.path)
        rules = self.models.get(model) if isinstance(model, str) else None
        if rules is None:
            return
        for u in rules.unsupported:
            value = _get(body, u.path)
            if value is _MISSING or value is None:
                continue
            if u.when and not (
                isinstance(value, Mapping) and all(value.get(k) == v for k, v in u.when.items())
            ):
                continue
            raise Violation(
                u.path,
                value,
                f"{u.feature} is supported only by "
                + " / ".join(m for m, r in self.models.items() if u not in r.unsupported),
            )

    def _check_extensions(self, body: Mapping[str, Any]) -> None:
        for path, equals, word, within, rule in self._requires_word:
            if _get(body, path) != equals:
                continue
            if not any(word in s.lower() for s in _strings(body.get(within))):
                raise Violation(path, equals, rule)
        if self._answered is not None:
            self._check_answered(body, *self._answered)
        for array, flag, role, rule in self._last_only:
            items = body.get(array)
            if not isinstance(items, list | tuple):
                continue
            last = len(items) - 1
            for i, item in enumerate(items):
                if (
                    (type(item) is dict or isinstance(item, Mapping))
                    and item.get(flag) is True
                    and (i != last or item.get("role") != role)
                ):
                    raise Violation((array, i, flag), True, rule)

    @staticmethod
    def _check_answered(
        body: Mapping[str, Any],
        array: str,
        id_key: str,
        outputs: Mapping[str, tuple[str, str]],
        rule: str,
    ) -> None:
        items = body.get(array)
        if not isinstance(items, list | tuple):
            return
        calls = {call for call, _ in outputs.values()}
        seen: set[tuple[Any, Any]] = set()
        for i, item in enumerate(items):
            if not isinstance(item, Mapping):
                continue
            kind = item.get("type")
            if kind in calls:
                seen.add((kind, item.get(id_key)))
            elif isinstance(kind, str) and kind in outputs:
                call, service = outputs[kind]
                call_id = item.get(id_key)
                if (call, call_id) not in seen:
                    raise Violation((array, i, id_key), call_id, rule, service=service)


_CONTRACTS: dict[str, Contract] = {}
_NAMES: list[frozenset[str]] = []


def format_names() -> frozenset[str]:
    """The formats there is a contract of: one per ``openapi/<format>.yaml``, as derived
    (the names of ``kimi_raw/_contract/<format>.json``)."""
    if not _NAMES:
        from importlib.resources import files

        folder = files("kimi_raw._contract")
        # mfjs.json beside them is the schema rules every format shares, not a format.
        names = {p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json")}
        _NAMES.append(frozenset(names - {"mfjs"}))
    return _NAMES[0]


def contract(fmt: str) -> Contract:
    """The contract of ``fmt`` (``"chat"``, ``"messages"`` or ``"responses"``), loaded once.
    ValueError for a name that is not a format (never read as a file name)."""
    found = _CONTRACTS.get(fmt) if isinstance(fmt, str) else None
    if found is None:
        if fmt not in format_names():
            raise ValueError(f"no format is named {fmt!r}: one of {sorted(format_names())}")
        # By name: kimi_raw (generated) is outside import-linter's root, and is loaded
        # only when a contract is first needed.
        loader = importlib.import_module("kimi_raw._contract")
        found = _CONTRACTS[fmt] = Contract(loader.load(fmt))
    return found
