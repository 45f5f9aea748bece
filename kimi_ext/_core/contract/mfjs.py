"""Moonshot Flavored JSON Schema (MFJS): the check and the lossless normalizer.

The Kimi service checks every JSON Schema a request carries (tool parameters, structured
output) with its own validator, walle, at its ``strict`` level. The rules are written once,
in ``openapi/mfjs.yaml``; ``make generate`` compiles them into ``kimi_raw/_contract/mfjs.json``,
which this module reads (the rule ids, severities, messages and limits). This module is the
only code holding MFJS logic:

- :func:`check` lists every issue of a schema (walle names only the first, in an order that
  varies between runs): an ``"error"`` for what strict refuses, a ``"warning"`` for what only
  walle's ``ultra`` level refuses, for documented limits older endpoints may enforce, and for
  untyped subschemas.
- :func:`normalize` rewrites what can be rewritten without changing which instances the
  schema accepts (N1..N14 in the rules table), reports every change, and refuses (raising
  :class:`kimi_ext.errors.SchemaRejectedError`) what cannot.

Both are cached by the canonical JSON of (schema, role). The public names are in
:mod:`kimi_ext.schemas`.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import re
from collections import OrderedDict
from collections.abc import Set
from dataclasses import dataclass
from decimal import Decimal
from importlib.resources import files
from typing import Any, ClassVar, Literal, TypeGuard

from kimi_ext.errors import RequestValidationError, SchemaRejectedError

__all__ = [
    "ROLES",
    "SchemaChange",
    "SchemaIssue",
    "check",
    "normalize",
    "rules",
    "service_message",
    "walle_path",
]

Severity = Literal["error", "warning"]
Pointer = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class SchemaIssue:
    """One problem of a schema.

    ``pointer`` is where it is (JSON path parts from the schema's root, ``()`` for the root),
    ``path`` the same as walle and the service print it (``root``, ``properties.a.enum``;
    anyOf indexes dropped), ``rule`` the rule id of ``openapi/mfjs.yaml``, ``severity``
    ``"error"`` (the service refuses the schema) or ``"warning"`` (it accepts it, a stricter
    level or an older endpoint may not), and ``message`` the service's words
    (``At path 'properties.a': type is not defined``).
    """

    pointer: Pointer
    path: str
    rule: str
    severity: Severity
    message: str


@dataclass(frozen=True, slots=True)
class SchemaChange:
    """One rewrite the normalizer made: at ``pointer`` (in the normalized schema), to clear
    ``rule``, with the rewrite ``fix`` (``"N1"``..``"N14"`` in ``openapi/mfjs.yaml``);
    ``action`` says what was done."""

    pointer: Pointer
    rule: str
    fix: str
    action: str


# ---------------------------------------------------------------------------------------
# The table (generated/kimi_raw/_contract/mfjs.json), loaded once.

_TABLE: dict[str, Any] = {}


def rules() -> dict[str, Any]:
    """The compiled rules table (``x-kimi-mfjs`` of ``openapi/mfjs.yaml``), loaded once."""
    if not _TABLE:
        # By name: kimi_raw (generated) is outside import-linter's root; the file is read
        # the way format_names() lists the contracts beside it.
        folder = files("kimi_raw._contract")
        text = folder.joinpath("mfjs.json").read_text(encoding="utf-8")
        _TABLE.update(json.loads(text))
        _compile(_TABLE)
    return _TABLE


class _K:
    """The table's facts as plain Python sets and numbers (filled by _compile)."""

    types: frozenset[str] = frozenset()
    supported: frozenset[str] = frozenset()
    annotations: frozenset[str] = frozenset()
    root_only: frozenset[str] = frozenset()
    reserved: frozenset[str] = frozenset()
    per_type: ClassVar[dict[str, frozenset[str]]] = {}
    ref_contexts: frozenset[str] = frozenset()
    enum_other: frozenset[str] = frozenset()
    size = depth = total_props = anyof_items = enum_items = 0
    enum_threshold = enum_length = 0
    doc_anyof = doc_depth = doc_props = doc_enum = 0
    messages: ClassVar[dict[str, str]] = {}
    severity: ClassVar[dict[str, Severity]] = {}
    roles: ClassVar[dict[str, tuple[str, ...]]] = {}
    plain: ClassVar[dict[str, frozenset[str]]] = {}


def _compile(table: dict[str, Any]) -> None:
    kw = table["keywords"]
    _K.types = frozenset(table["types"])
    _K.supported = frozenset(kw["supported"])
    _K.annotations = frozenset(kw["annotations"])
    _K.root_only = frozenset(kw["root-only"])
    _K.reserved = frozenset(kw["reserved-property-names"])
    _K.per_type = {t: frozenset(v) | _K.annotations for t, v in kw["per-type"].items()}
    _K.ref_contexts = frozenset(kw["ref-contexts"])
    _K.enum_other = frozenset(kw["enum-other-types"])
    lim, doc = table["limits"], table["documented-limits"]
    _K.size, _K.depth = lim["schema-size-bytes"], lim["depth"]
    _K.total_props, _K.anyof_items = lim["total-properties"], lim["anyof-items"]
    _K.enum_items = lim["enum-items"]
    _K.enum_threshold, _K.enum_length = lim["enum-length-threshold"], lim["enum-total-length"]
    _K.doc_anyof, _K.doc_depth = doc["anyof-items"], doc["depth"]
    _K.doc_props, _K.doc_enum = doc["total-properties"], doc["enum-values-total"]
    _K.messages = {rid: r["message"] for rid, r in table["rules"].items()}
    _K.severity = {
        rid: ("error" if r["at-strict"] == "refuse" else "warning")
        for rid, r in table["rules"].items()
    }
    _K.roles = {name: tuple(spec["rules"]) for name, spec in table["roles"].items()}
    # A subschema whose keys all fit its one type takes the short path (Checker.plain).
    _K.plain = {t: keys - {"anyOf", "$ref"} for t, keys in _K.per_type.items()}


def _roles() -> tuple[str, ...]:
    rules()
    return tuple(sorted(_K.roles))


ROLES = ("output-schema", "tool-parameters")
"""The kinds of schema there are rules for (``roles`` in the table)."""

# An enum of one type whose values are all of the Python class JSON decodes it to: fine.
_SIMPLE_ENUM: dict[str, type] = {"string": str, "integer": int, "boolean": bool}
_RANGE_PAIRS = (("minLength", "maxLength"), ("minItems", "maxItems"), ("minimum", "maximum"))
_NON_NEGATIVE = "a non-negative integer"
_UNION = frozenset({"anyOf", "description", "title", "default"})
_RANGES = frozenset({"minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum"})
_FIELD = re.compile(r"\{(\w+)\}")


def _render(template: str, values: dict[str, str]) -> str:
    if not values:
        return template
    return _render_cached(template, tuple(sorted(values.items())))


@functools.lru_cache(maxsize=4096)
def _render_cached(template: str, values: tuple[tuple[str, str], ...]) -> str:
    given = dict(values)
    return _FIELD.sub(lambda m: given.get(m[1], m[0]), template)


def service_message(issue: SchemaIssue, field: str) -> str:
    """The service's 400 message for ``issue`` in the schema at wire field ``field``
    (``tools.function.parameters``...): the table's ``envelope``, or the root-object rule's
    own words."""
    table = rules()
    rule = table["rules"][issue.rule]
    if "service-message" in rule:
        return _render(rule["service-message"], {"field": field})
    return _render(table["envelope"], {"field": field, "detail": issue.message})


def walle_path(pointer: Pointer) -> str:
    """``pointer`` as walle prints it: keys joined with ``.``, anyOf indexes dropped."""
    parts = [p for p in pointer if not isinstance(p, int)]
    return ".".join(parts) if parts else "root"


# ---------------------------------------------------------------------------------------
# Go's formatting (walle is written in Go; its messages print values with %v).


def _go_float(f: float, *, json_style: bool) -> str:
    """A float64 as Go prints it: encoding/json (``json_style``) or fmt's %v."""
    if math.isnan(f) or math.isinf(f):
        return "NaN" if math.isnan(f) else ("+Inf" if f > 0 else "-Inf")
    a = abs(f)
    text = repr(f)
    if json_style:
        use_e = a != 0 and (a < 1e-6 or a >= 1e21)
    else:
        exp = math.floor(math.log10(a)) if a != 0 else 0
        use_e = a != 0 and (exp < -4 or exp >= 6)  # %v is %g: shortest digits, precision 6
    if use_e:
        mant, _, exp_s = format(Decimal(text), "e").partition("e")
        mant = mant.rstrip("0").rstrip(".") if "." in mant else mant
        sign = "-" if exp_s.startswith("-") else "+"
        digits = exp_s.lstrip("+-").lstrip("0") or "0"
        if json_style and sign == "-":
            return f"{mant}e-{digits}"
        return f"{mant}e{sign}{digits.zfill(2)}"
    plain = format(Decimal(text), "f") if ("e" in text or "E" in text) else text
    return plain[:-2] if plain.endswith(".0") else plain


def _go_value(v: Any) -> str:
    """A JSON value as Go's %v prints what encoding/json decoded."""
    if v is None:
        return "<nil>"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int | float):
        return _go_float(float(v), json_style=False)
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return "[" + " ".join(_go_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "map[" + " ".join(f"{k}:{_go_value(v[k])}" for k in sorted(v)) + "]"
    return str(v)


def _go_str_size(s: str) -> int:
    n = 2
    for ch in s:
        o = ord(ch)
        if ch in '"\\\n\r\t':
            n += 2
        elif o < 0x20 or ch in "<>&\u2028\u2029":
            n += 6
        elif o < 0x80:
            n += 1
        elif o < 0x800:
            n += 2
        elif o < 0x10000:
            n += 3
        else:
            n += 4
    return n


def _go_size(v: Any) -> int:
    """The length of Go's ``json.Marshal`` of ``v`` (sorted keys, HTML characters escaped)."""
    if v is None or v is True:
        return 4
    if v is False:
        return 5
    if isinstance(v, str):
        return _go_str_size(v)
    if isinstance(v, int | float):
        return len(_go_float(float(v), json_style=True))
    if isinstance(v, list):
        return 2 + sum(_go_size(x) for x in v) + max(len(v) - 1, 0)
    if isinstance(v, dict):
        inner = sum(_go_str_size(str(k)) + 1 + _go_size(x) for k, x in v.items())
        return 2 + inner + max(len(v) - 1, 0)
    return 4


def _is_num(v: Any) -> TypeGuard[int | float]:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _json_kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "integer" if v.is_integer() else "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return "unknown"


# ---------------------------------------------------------------------------------------
# The check.


class _Stop(Exception):
    """A walle error that ends an expansion (carried out of the recursion)."""

    def __init__(self, rule: str, pointer: Pointer, values: dict[str, str], path: str = "") -> None:
        super().__init__(rule)
        self.rule, self.pointer, self.values, self.path = rule, pointer, values, path


def _resolve(root: dict[str, Any], ref: str) -> dict[str, Any] | None:
    """A local ref resolved as walle does (split on ``/``, no ``~``/``%`` decoding)."""
    if ref == "#":
        return root
    if not ref.startswith("#/$defs/"):
        return None
    cur: Any = root
    for part in ref[2:].split("/"):
        if not isinstance(cur, dict) or not isinstance(cur.get(part), dict):
            return None
        cur = cur[part]
    return cur if isinstance(cur, dict) else None


def _walle_parts(pointer: Pointer) -> list[str]:
    parts: list[str] = []
    for p in pointer:
        if isinstance(p, int):
            if parts:
                parts[-1] = f"{parts[-1]}{{{p}}}"
        else:
            parts.append(p)
    return parts


def _quirky_resolve(root: dict[str, Any], pointer: Pointer) -> tuple[dict[str, Any] | None, str]:
    """walle's lookup of a schema by its dotted path: a name holding ``{`` and ``}`` is read
    as a list index. Returns the schema, or None and walle's error message."""
    cur: Any = root
    parts = _walle_parts(pointer)
    for part in parts:
        if "{" in part and "}" in part:
            base, _, rest = part.partition("{")
            index_text = rest.split("{")[0].removesuffix("}")
            try:
                index = int(index_text)
            except ValueError:
                return None, f"internal error: invalid format in schemaPath: {part}"
            seq = cur.get(base) if isinstance(cur, dict) else None
            if not isinstance(seq, list) or not 0 <= index < len(seq):
                return None, "invalid path: " + ".".join(parts)
            cur = seq[index]
        else:
            cur = cur.get(part) if isinstance(cur, dict) else None
        if not isinstance(cur, dict):
            return None, "invalid path: " + ".".join(parts)
    return cur, ""


class _Checker:
    def __init__(self, root: Any, role: str) -> None:
        self.root = root
        self.role = role
        self.issues: list[SchemaIssue] = []
        self.seen: set[tuple[str, Pointer, str]] = set()
        self.refs: set[str] = set()
        self.ref_sites: set[Pointer] = set()
        self.total_props = 0
        self.props_reported = False
        self.enum_total = 0
        self.def_depths: dict[str, int] = {}
        self.quirky = False

    def add(self, rule: str, pointer: Pointer, path: str | None = None, **values: str) -> None:
        shown = walle_path(pointer) if path is None else path
        message = _render(_K.messages[rule], values)
        key = (rule, pointer, message)
        if key in self.seen:
            return
        self.seen.add(key)
        text = message if rule in ("root-object", "root-null") else f"At path '{shown}': {message}"
        self.issues.append(SchemaIssue(pointer, shown, rule, _K.severity[rule], text))

    # -- phase 1: walle's traversal -------------------------------------------------------

    def run(self, size_hint: int, text: str | None = None) -> list[SchemaIssue]:
        root = self.root
        if not isinstance(root, dict):
            self._not_object(root)
            return self.issues
        if root:
            if size_hint * 6 > _K.size and _go_size(root) > _K.size:
                self.add("schema-size", ())
            if "$defs" in root:
                self.def_depths = self._def_depths()
            max_depth = self.traverse(root, (), 0)
            if max_depth > _K.depth and not any(i.rule == "max-depth" for i in self.issues):
                self.add("max-depth", (), n=str(_K.depth))
            if text is None or '"$ref"' in text:
                self.post_refs()
            documented = (
                ("depth", max_depth, _K.doc_depth),
                ("total properties", self.total_props, _K.doc_props),
                ("enum values in total", self.enum_total, _K.doc_enum),
            )
            for name, value, limit in documented:
                if value > limit:
                    self.add("documented-limit", (), name=name, v=str(value), n=str(limit))
        if self.role == "tool-parameters":
            self.tool_root(root)
        return self.issues

    def _not_object(self, root: Any) -> None:
        if root is None:
            self.add("root-null", ())
            return
        if isinstance(root, list):
            kind, offset = "array", 1
        elif isinstance(root, bool):
            kind, offset = "bool", 4 if root else 5
        elif isinstance(root, str):
            kind, offset = "string", len(json.dumps(root).encode())
        elif _is_num(root):
            kind, offset = "number", len(json.dumps(root))
        else:
            kind, offset = type(root).__name__, 1
        self.add("root-object", (), n=str(offset), name=kind)

    def tool_root(self, root: dict[str, Any]) -> None:
        if root.get("type") == "object":
            return
        branches: Any = root.get("anyOf")
        typed = isinstance(branches, list) and bool(branches)
        if typed and "type" not in root and all(self._typed_object(b) for b in branches):
            self.issues.append(
                SchemaIssue(
                    (),
                    "root",
                    "tool-root-object",
                    "warning",
                    "At path 'root': " + _K.messages["tool-root-object"],
                )
            )
            return
        self.add("tool-root-object", ())

    def _typed_object(self, branch: Any) -> bool:
        if not isinstance(branch, dict):
            return False
        ref = branch.get("$ref")
        if isinstance(ref, str) and "type" not in branch:
            target = _resolve(self.root, ref)
            return target is not None and target is not branch and target.get("type") == "object"
        return branch.get("type") == "object"

    def traverse(self, s: dict[str, Any], ptr: Pointer, depth: int) -> int:
        if depth > _K.depth:
            self.add("max-depth", ptr, n=str(_K.depth))
            return depth
        t = s.get("type")
        if t.__class__ is str:
            own = _K.plain.get(t)
            if own is not None and s.keys() <= own:
                return self.plain(s, ptr, t, depth)
        elif ptr and t is None and s.keys() <= _UNION and "anyOf" in s:
            return self.union(s, ptr, depth)
        max_depth = depth
        if not s:
            if ptr:
                self.add("untyped-subschema", ptr)
            return depth
        is_root = not ptr
        unsupported = [k for k in s if k not in _K.supported]
        if unsupported:
            self.add("unsupported-keyword", ptr, kw=", ".join(sorted(unsupported)))
        defs = s.get("$defs")
        if isinstance(defs, dict):
            for name in sorted(defs):
                d = defs[name]
                if not isinstance(d, dict):
                    self.add("defs-entry-object", (*ptr, "$defs"))
                    continue
                max_depth = max(max_depth, self.traverse(d, (*ptr, "$defs", name), depth))
        has_type = "type" in s
        t = s.get("type")
        if has_type:
            if "anyOf" in s:
                self.add("type-beside-anyof", ptr)
            if "$ref" in s:
                self.add("type-beside-ref", ptr)
            if isinstance(t, list) and len(t) > 1 and "enum" in s:
                for x in t:
                    if x in ("object", "array"):
                        self.add("type-list-enum-kinds", ptr, name=str(x))
                        break
        elif "anyOf" not in s and "$ref" not in s and "enum" not in s and ptr:
            self.add("untyped-subschema", ptr)
        types = self.type_keywords(s, ptr, t, has_type, is_root)
        self.keywords(s, ptr, t, types, is_root)
        branches = s.get("anyOf")
        if isinstance(branches, list):
            outer = {k for k in s if k != "anyOf"}
            for b in branches:
                if isinstance(b, dict):
                    both = [k for k in b if k in outer]
                    hard = sorted(k for k in both if k not in _K.annotations)
                    if hard:
                        self.add("anyof-parent-conflict", ptr, kw=", ".join(hard))
                    soft = sorted(k for k in both if k in _K.annotations)
                    if soft:
                        self.add("annotation-conflict", ptr, kw=", ".join(soft))
        ref = s.get("$ref")
        if isinstance(ref, str):
            max_depth = max(max_depth, depth + self.def_depths.get(ref, 0))
        props = s.get("properties")
        if isinstance(props, dict):
            max_depth = max(max_depth, self.properties(s, props, ptr, depth))
        items = s.get("items")
        if isinstance(items, dict):
            max_depth = max(max_depth, self.traverse(items, (*ptr, "items"), depth))
        extra = s.get("additionalProperties")
        if isinstance(extra, dict):
            max_depth = max(max_depth, self.traverse(extra, (*ptr, "additionalProperties"), depth))
        if isinstance(branches, list):
            if len(branches) > _K.doc_anyof:
                self.add(
                    "documented-limit",
                    (*ptr, "anyOf"),
                    name="anyOf items",
                    v=str(len(branches)),
                    n=str(_K.doc_anyof),
                )
            for i, b in enumerate(branches):
                if isinstance(b, dict):
                    max_depth = max(max_depth, self.traverse(b, (*ptr, "anyOf", i), depth))
        return max_depth

    def plain(self, s: dict[str, Any], ptr: Pointer, t: str, depth: int) -> int:
        """A subschema of one known type carrying only that type's keywords (the usual
        case): the same checks as the general path, without the ones that cannot fire."""
        keys = s.keys()
        if len(keys) == 1:
            return depth
        if "description" in keys and not isinstance(s["description"], str):
            self.add("description-string", (*ptr, "description"))
        if keys & _RANGES:
            self.ranges(s, ptr, [t], _K.plain[t])
        if "enum" in keys:
            self.check_enum(s, ptr)
        if "pattern" in keys and s["pattern"] is not None and not isinstance(s["pattern"], str):
            self.add("pattern-string", (*ptr, "pattern"))
        max_depth = depth
        if t == "object":
            if "required" in keys:
                self.check_required(s, ptr)
            extra = s.get("additionalProperties")
            if "additionalProperties" in keys and not isinstance(extra, bool | dict):
                self.add("additional-properties-kind", (*ptr, "additionalProperties"))
            props = s.get("properties")
            if props is not None:
                self.check_properties(props, (*ptr, "properties"))
                if isinstance(props, dict):
                    max_depth = self.properties(s, props, ptr, depth)
            if isinstance(extra, dict):
                at = (*ptr, "additionalProperties")
                max_depth = max(max_depth, self.traverse(extra, at, depth))
        elif t == "array" and "items" in keys:
            items = s["items"]
            if isinstance(items, dict):
                max_depth = max(max_depth, self.traverse(items, (*ptr, "items"), depth))
            else:
                self.add("items-object", (*ptr, "items"))
        return max_depth

    def union(self, s: dict[str, Any], ptr: Pointer, depth: int) -> int:
        """An anyOf beside annotations and a default only (a nullable field): the general
        path's checks that can fire there."""
        branches = s["anyOf"]
        if not isinstance(branches, list):
            self.add("anyof-array", (*ptr, "anyOf"))
            return depth
        if not branches or len(branches) > _K.anyof_items:
            self.add("anyof-size", (*ptr, "anyOf"), n=str(_K.anyof_items))
        if "description" in s and not isinstance(s["description"], str):
            self.add("description-string", (*ptr, "description"))
        if "default" in s:
            self.add("anyof-siblings", ptr, kw="default")
        if len(branches) > _K.doc_anyof:
            self.add(
                "documented-limit",
                (*ptr, "anyOf"),
                name="anyOf items",
                v=str(len(branches)),
                n=str(_K.doc_anyof),
            )
        outer = s.keys() - {"anyOf"}
        max_depth = depth
        for i, b in enumerate(branches):
            if not isinstance(b, dict):
                self.add("anyof-branch-object", (*ptr, "anyOf"))
                continue
            both = b.keys() & outer
            if both:
                hard = sorted(both - _K.annotations)
                if hard:
                    self.add("anyof-parent-conflict", ptr, kw=", ".join(hard))
                soft = sorted(both & _K.annotations)
                if soft:
                    self.add("annotation-conflict", ptr, kw=", ".join(soft))
            found = self.traverse(b, (*ptr, "anyOf", i), depth)
            if found > max_depth:
                max_depth = found
        return max_depth

    def properties(self, s: dict[str, Any], props: dict[str, Any], ptr: Pointer, depth: int) -> int:
        max_depth = depth
        self.total_props += len(props)
        if self.total_props > _K.total_props and not self.props_reported:
            self.props_reported = True
            self.add("max-total-properties", ptr, v=str(self.total_props), n=str(_K.total_props))
        plain, inner = _K.plain, depth + 1
        if props and inner <= _K.depth:
            max_depth = inner
        for name, ps in props.items():
            if ps.__class__ is dict:
                # The short path inlined: most properties are one plain type.
                t = ps.get("type")
                if (
                    isinstance(t, str)
                    and (own := plain.get(t)) is not None
                    and ps.keys() <= own
                    and inner <= _K.depth
                ):
                    if len(ps) > 1:
                        found = self.plain(ps, (*ptr, "properties", name), t, inner)
                        if found > max_depth:
                            max_depth = found
                    continue
            if isinstance(ps, dict):
                found = self.traverse(ps, (*ptr, "properties", name), inner)
                if found > max_depth:
                    max_depth = found
        return max_depth

    def type_keywords(
        self, s: dict[str, Any], ptr: Pointer, t: Any, has_type: bool, is_root: bool
    ) -> list[str] | None:
        if not has_type:
            return None
        types: list[str] | None = None
        if isinstance(t, str):
            if t in _K.types:
                types = [t]
            else:
                self.add("type-known", ptr)
        elif isinstance(t, list):
            if any(not isinstance(x, str) or x not in _K.types for x in t):
                self.add("type-list-known", ptr)
            elif not t:
                self.add("type-list-nonempty", ptr)
            else:
                types = t
        if types is None:
            return None
        if len(types) > 1:
            allowed_enum = len(types) == 2 and s.get("enum") is not None
            if not allowed_enum:
                for k in s:
                    if k == "type" or k in _K.annotations or (is_root and k in _K.root_only):
                        continue
                    self.add("type-list-keywords", ptr, kw=k)
        # ultra only: warnings
        if not is_root:
            for k in sorted(k for k in s if k in _K.root_only):
                self.add("root-only", ptr, kw=k)
        allowed: set[str] = set(_K.root_only) if is_root else set()
        common: frozenset[str] | None = None
        for x in types:
            common = _K.per_type[x] if common is None else common & _K.per_type[x]
        allowed |= common or set()
        invalid = sorted(k for k in s if k not in allowed and k in _K.supported)
        if invalid:
            self.add("keyword-for-type", ptr, kw=", ".join(invalid))
        self.ranges(s, ptr, types, allowed)
        return types

    def ranges(self, s: dict[str, Any], ptr: Pointer, types: list[str], allowed: Set[str]) -> None:
        for low, high in _RANGE_PAIRS:
            if low not in allowed or (low not in s and high not in s):
                continue
            if low == "minimum":
                must = "an integer" if "integer" in types else "a number"
            else:
                must = "a non-negative integer"
            lo, hi = s.get(low), s.get(high)
            for k, v in ((low, lo), (high, hi)):
                if v is None or (v.__class__ is int and (v >= 0 or must != _NON_NEGATIVE)):
                    continue
                ok = _is_num(v) and math.isfinite(v)
                if ok and must != "a number":
                    ok = float(v).is_integer() and (must == "an integer" or v >= 0)
                if not ok:
                    self.add("range-value", ptr, name=k, kw=must)
            if _is_num(lo) and _is_num(hi) and lo > hi:
                at = ptr if low == "minimum" else (*ptr, low)
                self.add("range-order", at, name=low, v=_go_value(lo), kw=high, n=_go_value(hi))

    def parent_of(self, s: dict[str, Any], ptr: Pointer, keyword: str) -> dict[str, Any] | None:
        """The schema walle finds for a keyword's checks (itself, unless a name fools it)."""
        if not self.quirky or not ptr:
            return s
        found, problem = _quirky_resolve(self.root, ptr)
        if found is None:
            self.add(
                "path-unresolvable", (*ptr, keyword), name=problem.removeprefix("invalid path: ")
            )
        return found

    def keywords(
        self, s: dict[str, Any], ptr: Pointer, t: Any, types: list[str] | None, is_root: bool
    ) -> None:
        # In walle's order (its keywords sorted), so the first error is the one it names.
        if "$defs" in s:
            self.check_defs(s["$defs"], (*ptr, "$defs"))
        if s.get("$id") is not None and not isinstance(s["$id"], str):
            self.add("id-string", (*ptr, "$id"))
        if "$ref" in s:
            self.check_ref(s, ptr, is_root)
        if "additionalProperties" in s and not isinstance(s["additionalProperties"], bool | dict):
            self.add("additional-properties-kind", (*ptr, "additionalProperties"))
        if "anyOf" in s:
            self.check_anyof(s, ptr, is_root)
        if "description" in s and not isinstance(s["description"], str):
            self.add("description-string", (*ptr, "description"))
        if "enum" in s:
            self.check_enum(s, ptr)
        if "items" in s and not isinstance(s["items"], dict):
            self.add("items-object", (*ptr, "items"))
        if s.get("pattern") is not None and not isinstance(s["pattern"], str):
            self.add("pattern-string", (*ptr, "pattern"))
        if "properties" in s:
            self.check_properties(s["properties"], (*ptr, "properties"))
        if "required" in s:
            self.check_required(s, ptr)
        if "type" in s:
            if not isinstance(t, str | list):
                self.add("type-value", ptr)
            elif isinstance(t, list):
                names = [x for x in t if isinstance(x, str)]
                if len(set(names)) != len(names):
                    self.add("type-list-duplicates", (*ptr, "type"))

    def check_properties(self, props: Any, at: Pointer) -> None:
        if not isinstance(props, dict):
            self.add("properties-object", at)
            return
        for name, ps in props.items():
            if name == "":
                self.add("property-name-empty", at)
            if name in _K.reserved:
                self.add("property-name-reserved", at, name=name)
            if not isinstance(ps, dict):
                self.add("property-schema-object", at, name=str(name))
            if "{" in name and "}" in name:
                self.quirky = True

    def check_required(self, s: dict[str, Any], ptr: Pointer) -> None:
        at = (*ptr, "required")
        req = s["required"]
        if not isinstance(req, list):
            self.add("required-array", at)
            return
        if not req:
            return
        if any(not isinstance(r, str) for r in req):
            self.add("required-strings", at)
        names = [r for r in req if isinstance(r, str)]
        if "" in names:
            self.add("required-empty-name", at)
        seen: set[str] = set()
        for r in names:
            if r in seen:
                self.add("required-duplicates", at, name=r)
            seen.add(r)
        parent = self.parent_of(s, ptr, "required")
        if parent is None:
            return
        t = parent.get("type")
        if t != "object" and t != ["object"]:
            self.add("required-needs-object", at)
        props = parent.get("properties")
        if not isinstance(props, dict):
            self.add("required-needs-properties", at)
            props = {}
        for r in names:
            if r not in props:
                self.add("required-defined", at, name=r)

    def check_enum(self, s: dict[str, Any], ptr: Pointer) -> None:
        at = (*ptr, "enum")
        values = s["enum"]
        if not isinstance(values, list):
            self.add("enum-array", at)
            return
        if not values:
            self.add("enum-nonempty", at)
            return
        self.enum_total += len(values)
        if len(values) > _K.enum_items:
            self.add("enum-max-items", at, n=str(_K.enum_items))
        parent = self.parent_of(s, ptr, "enum")
        if parent is None:
            return
        if "type" not in parent:
            self.add("enum-needs-type", ptr)
            return
        t = parent["type"]
        if isinstance(t, str):
            types = [t]
        elif isinstance(t, list):
            if any(not isinstance(x, str) for x in t):
                return  # type-list-known said it
            types = list(t)
        else:
            self.add("enum-type-value", ptr)
            return
        if any(x not in _K.types for x in types):
            return  # type-known / type-list-known said it
        if len(types) > 2 or (len(types) == 2 and "null" not in types):
            self.add("enum-type-list-shape", ptr)
            return
        if len(types) == 2:
            other = next((x for x in types if x != "null"), "")
            if other not in _K.enum_other:
                if other not in ("object", "array"):
                    self.add("enum-type-pair", ptr, name=other)
                return
        kind = _SIMPLE_ENUM.get(types[0]) if len(types) == 1 else None
        simple = kind is not None and all(v.__class__ is kind for v in values)
        for v in () if simple else values:
            problem = _enum_problem(v, types)
            if problem == "enum-value-type":
                self.add(problem, at, v=_go_value(v), types="[" + " ".join(types) + "]")
            elif problem:
                self.add(problem, at)
        if (
            any(x in ("string", "number", "integer") for x in types)
            and len(values) > _K.enum_threshold
        ):
            total = 0
            for v in values:
                if isinstance(v, str):
                    total += len(v.encode())
                elif _is_num(v):
                    total += len(_go_value(v))
            if total > _K.enum_length:
                self.add(
                    "enum-total-length",
                    at,
                    v=str(total),
                    n=str(_K.enum_length),
                    name=str(_K.enum_threshold),
                )

    def check_ref(self, s: dict[str, Any], ptr: Pointer, is_root: bool) -> None:
        at = (*ptr, "$ref")
        ref = s["$ref"]
        self.ref_sites.add(ptr)
        if not isinstance(ref, str):
            self.add("ref-string", at)
            return
        if ref == "#":
            self.refs.add(ref)
        elif not ref.startswith("#/$defs/"):
            self.add("ref-local", at)
            return
        elif ref == "#/$defs/":
            self.add("ref-name", at)
            return
        elif "$defs" not in self.root:
            self.add("ref-defs-present", at, ref=ref)
            return
        if self.parent_of(s, ptr, "$ref") is None:
            return
        for k in s:
            if k == "$ref" or k in _K.annotations or (is_root and k in _K.root_only):
                continue
            self.add("ref-siblings", ptr, kw=k)
        self.refs.add(ref)

    def check_anyof(self, s: dict[str, Any], ptr: Pointer, is_root: bool) -> None:
        at = (*ptr, "anyOf")
        branches = s["anyOf"]
        if not isinstance(branches, list):
            self.add("anyof-array", at)
            return
        if not branches or len(branches) > _K.anyof_items:
            self.add("anyof-size", at, n=str(_K.anyof_items))
        if any(not isinstance(b, dict) for b in branches):
            self.add("anyof-branch-object", at)
        if self.parent_of(s, ptr, "anyOf") is None:
            return
        for k in s:
            if k == "anyOf" or k in _K.annotations or (is_root and k in _K.root_only):
                continue
            self.add("anyof-siblings", ptr, kw=k)

    def check_defs(self, defs: Any, at: Pointer) -> None:
        if not isinstance(defs, dict):
            self.add("defs-object", at)
            return
        for name, d in defs.items():
            if name == "":
                self.add("defs-name-empty", at)
            if "/" in name:
                self.add("defs-name", at, name=name)
            if "{" in name and "}" in name:
                self.quirky = True
            if isinstance(d, dict):
                self.no_slash(d, (*at, name), [*_walle_parts(at), name])

    def no_slash(self, d: dict[str, Any], ptr: Pointer, shown: list[str]) -> None:
        for key, value in d.items():
            if "/" in key:
                parent = ".".join(shown[:-1]) if len(shown) > 1 else "root"
                self.add("defs-name", (*ptr, key), path=parent, name=key)
            if isinstance(value, dict):
                self.no_slash(value, (*ptr, key), [*shown, key])
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, dict):
                        self.no_slash(item, (*ptr, key, i), [*shown, f"{key}[{i}]"])

    def _def_depths(self) -> dict[str, int]:
        depths: dict[str, int] = {}
        root = self.root

        def walk(s: dict[str, Any], where: str, visited: set[str]) -> int:
            if not s:
                return 0
            depths[where] = 0
            best = 0
            ref = s.get("$ref")
            if isinstance(ref, str) and ref not in visited:
                visited.add(ref)
                target = _resolve(root, ref)
                if target is not None:
                    best = walk(target, ref, visited)
            props = s.get("properties")
            if isinstance(props, dict):
                deepest = 1
                for name, ps in props.items():
                    if isinstance(ps, dict):
                        deepest = max(
                            deepest, 1 + walk(ps, f"{where}/properties/{name}", set(visited))
                        )
                best = max(best, deepest)
            branches = s.get("anyOf")
            if isinstance(branches, list):
                for i, b in enumerate(branches):
                    if isinstance(b, dict):
                        best = max(best, walk(b, f"{where}/anyOf/{i}", set(visited)))
            extra = s.get("additionalProperties")
            if isinstance(extra, dict):
                best = max(best, walk(extra, f"{where}/additionalProperties", set(visited)))
            depths[where] = best
            return best

        defs = root.get("$defs")
        if isinstance(defs, dict):
            for name in sorted(defs):
                d = defs[name]
                if isinstance(d, dict):
                    walk(d, f"#/$defs/{name}", set())
        return depths

    # -- phase 2: references --------------------------------------------------------------

    def post_refs(self) -> None:
        root = self.root
        for ref in sorted(self.refs):
            if _resolve(root, ref) is None:
                self.add("ref-resolves", (), ref=ref)
        try:
            need = not self.terminates(root, set(), ())
        except _Stop:
            need = True
        self.walk_refs(root, need, ())

    def stop(self, e: _Stop) -> None:
        self.add(e.rule, e.pointer, path=e.path or None, **e.values)

    def walk_refs(self, s: dict[str, Any], need: bool, ptr: Pointer) -> None:
        if "$ref" in s:
            try:
                expanded = self.expand(s, ptr)
                if expanded is not None:
                    self.ref_context(s, expanded, ptr)
                    if need and not self.terminates(expanded, set(), ptr):
                        self.add("ref-termination", ptr)
            except _Stop as e:
                self.stop(e)
        req = s.get("required")
        for key, value in s.items():
            if key == "$defs":
                continue
            if isinstance(value, dict):
                child = need
                if key == "additionalProperties" or (
                    key == "properties" and isinstance(req, list) and not req
                ):
                    child = False
                self.walk_refs(value, child, (*ptr, key))
            elif key == "anyOf" and isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, dict):
                        self.walk_refs(item, need, (*ptr, "anyOf", i))

    def _resolve_or_stop(self, ref: str, ptr: Pointer) -> dict[str, Any]:
        if ref != "#" and not ref.startswith("#/$defs/"):
            raise _Stop("ref-only-local", (*ptr, "$ref"), {}, path="$ref")
        target = _resolve(self.root, ref)
        if target is None:
            raise _Stop("ref-resolves", (), {"ref": ref})
        return target

    def expand(self, s: dict[str, Any], ptr: Pointer) -> dict[str, Any] | None:
        ref = s["$ref"]
        if not isinstance(ref, str):
            if ptr not in self.ref_sites:
                raise _Stop("ref-string", (*ptr, "$ref"), {})
            return None
        if ptr in self.ref_sites and ref != "#" and _resolve(self.root, ref) is None:
            return None  # phase 1 named it
        visited = {ref}
        cur = dict(self._resolve_or_stop(ref, ptr))
        keep: dict[str, Any] = {}
        while cur.get("$ref") is not None:
            if any(k != "$ref" and k not in _K.annotations for k in cur):
                break
            nxt = cur["$ref"]
            if not isinstance(nxt, str):
                raise _Stop("ref-string", (*ptr, "$ref"), {})
            if nxt in visited:
                break
            visited.add(nxt)
            resolved = self._resolve_or_stop(nxt, ())
            for k in cur:
                if k in _K.annotations and k not in keep:
                    keep[k] = cur[k]
            cur = dict(resolved)
        cur.update(keep)
        return cur

    def ref_context(self, parent: dict[str, Any], target: dict[str, Any], ptr: Pointer) -> None:
        outer = [k for k in parent if k != "$ref"]
        both = [k for k in target if k in outer and k not in _K.annotations]
        if both:
            self.add("ref-sibling-conflict", ptr, kw=", ".join(sorted(both)))
        if ("type" in parent and "anyOf" in target) or ("type" in target and "anyOf" in parent):
            self.add("ref-anyof-mix", ptr)
        branches = target.get("anyOf")
        if isinstance(branches, list):
            for b in branches:
                if isinstance(b, dict):
                    hit = sorted(
                        k for k in outer if k in b and k != "anyOf" and k not in _K.annotations
                    )
                    if hit:
                        self.add("ref-anyof-branch-conflict", ptr, kw=", ".join(hit))
        parts = _walle_parts(ptr) or ["root"]
        last = parts[-1]
        if last in _K.ref_contexts or last.startswith("anyOf"):
            return
        if len(parts) >= 2 and parts[-2] == "properties":
            return
        if len(parts) == 1:
            return
        self.add("ref-context", ptr)

    def terminates(self, s: dict[str, Any], visited: set[str], ptr: Pointer) -> bool:
        t = s.get("type")
        kind = ""
        if isinstance(t, str):
            if t not in ("object", "array"):
                return True
            kind = t
        elif isinstance(t, list):
            for x in t:
                if isinstance(x, str) and x not in ("object", "array"):
                    return True
                kind = x if isinstance(x, str) else ""
        if kind == "array":
            items = s.get("items")
            if items is None:
                return True
            if isinstance(items, dict) and (
                not items or self.terminates(items, visited, (*ptr, "items"))
            ):
                return True
        if kind == "object":
            req = s.get("required")
            if req is None or (isinstance(req, list) and not req):
                return True
            props = s.get("properties")
            if not isinstance(props, dict) or not props:
                return True
            wanted = {r for r in req if isinstance(r, str)} if isinstance(req, list) else set()
            for name, ps in props.items():
                if (
                    name in wanted
                    and isinstance(ps, dict)
                    and self.terminates(ps, visited, (*ptr, "properties", name))
                ):
                    return True
        branches = s.get("anyOf")
        if isinstance(branches, list):
            if not branches:
                return True
            gathered: set[str] = set()
            for i, b in enumerate(branches):
                if not isinstance(b, dict):
                    continue
                mine = set(visited)
                if self.terminates(b, mine, (*ptr, "anyOf", i)):
                    visited |= mine
                    return True
                gathered |= mine
            visited |= gathered
        ref = s.get("$ref")
        if isinstance(ref, str):
            if ref in visited:
                return False
            visited.add(ref)
            target = _resolve(self.root, ref)
            if target is None:
                raise _Stop("ref-resolves", ptr, {"ref": ref})
            return self.terminates(target, visited, (*ptr, "$ref"))
        return not s


def _enum_problem(v: Any, types: list[str]) -> str:
    """The rule an enum value breaks under ``types`` (tried in order, as walle does), or ""."""
    for t in types:
        if t == "string":
            if isinstance(v, str):
                return ""
        elif t in ("number", "integer"):
            if not _is_num(v):
                return "enum-value-number" if t == "number" else "enum-value-integer"
            if not math.isfinite(v):
                return "enum-value-finite"
            if t == "integer" and not float(v).is_integer():
                return "enum-value-integer"
            return ""
        elif t == "boolean":
            if isinstance(v, bool):
                return ""
        elif t == "null":
            if v is None:
                return ""
        elif t == "array":
            if isinstance(v, list):
                return ""
        elif t == "object" and isinstance(v, dict):
            return ""
    return "enum-value-type"


# ---------------------------------------------------------------------------------------
# Cache.

_CACHE_SIZE = 4096
_CHECKED: OrderedDict[tuple[str, str], tuple[SchemaIssue, ...]] = OrderedDict()
_NORMALIZED: OrderedDict[
    tuple[str, str], tuple[str, tuple[SchemaChange, ...]] | SchemaRejectedError
] = OrderedDict()


def _canonical(schema: Any) -> str | None:
    try:
        return json.dumps(schema, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return None


def _remember(cache: OrderedDict[Any, Any], key: Any, value: Any) -> None:
    cache[key] = value
    if len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)


def _check_role(role: Any) -> str:
    rules()
    if not isinstance(role, str) or role not in _K.roles:
        raise RequestValidationError("role", role, f"one of {sorted(_K.roles)}")
    return role


def check(schema: Any, role: str = "tool-parameters") -> list[SchemaIssue]:
    """Every issue of ``schema`` under the MFJS rules at walle's strict level, plus the rules
    of ``role`` (``"tool-parameters"`` or ``"output-schema"``). Errors and warnings, in the
    order found; an empty list when the service accepts it with nothing to say."""
    role = _check_role(role)
    return list(_check(schema, role, _canonical(schema)))


def _check(schema: Any, role: str, text: str | None) -> tuple[SchemaIssue, ...]:
    if text is None:
        return tuple(_Checker(schema, role).run(_K.size))
    key = (role, text)
    found = _CHECKED.get(key)
    if found is None:
        # Checked as it goes on the wire: a tuple is an array, an Enum member its value.
        found = tuple(_Checker(json.loads(text), role).run(len(text), text))
        _remember(_CHECKED, key, found)
    else:
        _CHECKED.move_to_end(key)
    return found


def _errors(issues: list[SchemaIssue]) -> list[SchemaIssue]:
    return [i for i in issues if i.severity == "error"]


def _value_at(schema: Any, pointer: Pointer) -> Any:
    cur = schema
    for p in pointer:
        try:
            cur = cur[p]
        except (KeyError, IndexError, TypeError):
            return None
    return cur


def _rejected(schema: Any, errors: list[SchemaIssue]) -> SchemaRejectedError:
    first = errors[0]
    rule = "; ".join(i.message for i in errors)
    return SchemaRejectedError(first.path, _value_at(schema, first.pointer), rule, issues=errors)


def normalize(
    schema: Any, role: str = "tool-parameters"
) -> tuple[dict[str, Any], list[SchemaChange]]:
    """``schema`` rewritten, without changing which instances it accepts, into a form the
    service accepts, and the changes made. The input is never modified. Raises
    :class:`kimi_ext.errors.SchemaRejectedError` (listing the errors left) when no lossless
    rewrite exists."""
    role = _check_role(role)
    text = _canonical(schema)
    if text is None:
        out, changes = _normalize(copy.deepcopy(schema), role)
        return out, changes
    key = (role, text)
    found = _NORMALIZED.get(key)
    if found is None:
        try:
            issues = _check(schema, role, text)
            # A copy in the caller's key order (the key's text is sorted).
            work = json.loads(json.dumps(schema, ensure_ascii=False))
            out, changes = (work, []) if _as_it_is(issues, text) else _normalize(work, role)
        except SchemaRejectedError as e:
            _remember(_NORMALIZED, key, e)
            raise
        _remember(_NORMALIZED, key, (json.dumps(out), tuple(changes)))
        return out, changes
    _NORMALIZED.move_to_end(key)
    if isinstance(found, SchemaRejectedError):
        raise SchemaRejectedError(found.field, found.value, found.rule, issues=found.issues)
    return json.loads(found[0]), list(found[1])


def _as_it_is(issues: tuple[SchemaIssue, ...], text: str) -> bool:
    """Whether the normalizer has nothing to do: no error, and no bound of an integer that
    N13 would make exact."""
    if any(i.severity == "error" or i.rule == "range-value" for i in issues):
        return False
    return '"exclusiveMinimum"' not in text and '"exclusiveMaximum"' not in text


def _normalize(work: Any, role: str) -> tuple[dict[str, Any], list[SchemaChange]]:
    if not isinstance(work, dict):
        raise _rejected(work, _errors(check(work, role)))
    rewriter = _Rewriter(work, role)
    out, changes = rewriter.run()
    left = _errors(check(out, role))
    if left:
        raise _rejected(out, left)
    return out, changes


# ---------------------------------------------------------------------------------------
# The normalizer: lossless rewrites (N1..N14 in openapi/mfjs.yaml).

# JSON Schema 2020-12's keywords that apply to one kind of instance only (they ignore the
# others), so a type list can be split into one branch per type without changing anything.
_FOR_TYPE: dict[str, frozenset[str]] = {
    "string": frozenset(
        {"minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"}
    ),
    "number": frozenset(
        {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
    ),
    "array": frozenset(
        {
            "items",
            "prefixItems",
            "minItems",
            "maxItems",
            "uniqueItems",
            "contains",
            "minContains",
            "maxContains",
            "additionalItems",
        }
    ),
    "object": frozenset(
        {
            "properties",
            "required",
            "additionalProperties",
            "patternProperties",
            "propertyNames",
            "minProperties",
            "maxProperties",
            "dependentRequired",
            "dependentSchemas",
            "dependencies",
        }
    ),
}
_FOR_TYPE["integer"] = _FOR_TYPE["number"]
_FOR_TYPE["boolean"] = _FOR_TYPE["null"] = frozenset()
_TYPED_KEYWORDS = frozenset().union(*_FOR_TYPE.values())
# Keywords that never decide whether an instance is accepted.
_NOTES = frozenset(
    {
        "description",
        "title",
        "default",
        "examples",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)
_UNSATISFIABLE = object()  # a merge that accepts nothing
_MAX_FOLDS = 64  # new definitions N2 may make for one schema
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_.-]+")
_LOWER = {"minLength", "minItems", "minimum", "minProperties"}
_UPPER = {"maxLength", "maxItems", "maximum", "maxProperties"}


def _same(a: Any, b: Any) -> bool:
    """JSON equality (``1 == 1.0``, ``True != 1``)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_num(a) and _is_num(b):
        return bool(a == b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _fits(v: Any, t: str) -> bool:
    if t == "string":
        return isinstance(v, str)
    if t == "integer":
        return _is_num(v) and math.isfinite(v) and float(v).is_integer()
    if t == "number":
        return _is_num(v)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "null":
        return v is None
    if t == "array":
        return isinstance(v, list)
    if t == "object":
        return isinstance(v, dict)
    return False


def _type_list(t: Any) -> list[str] | None:
    if isinstance(t, str):
        return [t]
    if isinstance(t, list) and all(isinstance(x, str) for x in t):
        return list(dict.fromkeys(t))
    return None


def _intersect_types(a: list[str], b: list[str]) -> list[str]:
    out: list[str] = []
    for x in a:
        for y in b:
            z = x if x == y else ("integer" if {x, y} == {"integer", "number"} else "")
            if z and z not in out:
                out.append(z)
    return out


def _merge(a: dict[str, Any], b: dict[str, Any]) -> Any:
    """A schema accepting exactly what both ``a`` and ``b`` accept (``a``'s annotations
    kept), ``_UNSATISFIABLE`` when nothing is, None when MFJS has no way to say it."""
    if "anyOf" in a or "anyOf" in b:
        return _merge_anyof(a, b)
    out = dict(a)
    for k, bv in b.items():
        if k == "properties" or k not in out:
            if k not in out:
                out[k] = copy.deepcopy(bv)
            continue
        av = out[k]
        if _same(av, bv) or k in _NOTES:
            continue
        if k == "type":
            ta, tb = _type_list(av), _type_list(bv)
            if ta is None or tb is None:
                return None
            both = _intersect_types(ta, tb)
            if not both:
                return _UNSATISFIABLE
            out[k] = both[0] if len(both) == 1 else both
        elif k == "required" and isinstance(av, list) and isinstance(bv, list):
            out[k] = av + [x for x in bv if x not in av]
        elif k == "enum" and isinstance(av, list) and isinstance(bv, list):
            values: Any = [v for v in av if any(_same(v, w) for w in bv)]
            if not values:
                return _UNSATISFIABLE
            out[k] = values
        elif k in _LOWER and _is_num(av) and _is_num(bv):
            out[k] = max(av, bv)
        elif k in _UPPER and _is_num(av) and _is_num(bv):
            out[k] = min(av, bv)
        elif k in ("items", "additionalProperties"):
            if av is True or bv is False:
                out[k] = copy.deepcopy(bv)
            elif bv is True or av is False:
                pass
            elif isinstance(av, dict) and isinstance(bv, dict):
                inner = _merge(av, bv)
                if inner is None or (inner is _UNSATISFIABLE and k == "items"):
                    return None
                out[k] = False if inner is _UNSATISFIABLE else inner
            else:
                return None
        else:
            return None
    if "properties" in a or "properties" in b:
        props = _merge_properties(a, b)
        if props is None or props is _UNSATISFIABLE:
            return props
        out["properties"] = props
    types = _type_list(out.get("type"))
    values = out.get("enum")
    if types is not None and isinstance(values, list):
        kept = [v for v in values if any(_fits(v, t) for t in types)]
        if not kept:
            return _UNSATISFIABLE
        out["enum"] = kept
    return out


def _merge_properties(a: dict[str, Any], b: dict[str, Any]) -> Any:
    pa, pb = a.get("properties", {}), b.get("properties", {})
    if not isinstance(pa, dict) or not isinstance(pb, dict):
        return None
    if ("patternProperties" in a or "patternProperties" in b) and set(pa) != set(pb):
        return None
    out: dict[str, Any] = {}
    for name in [*pa, *(n for n in pb if n not in pa)]:
        mine, theirs = pa.get(name), pb.get(name)
        if mine is None:
            mine = a.get("additionalProperties", True)
        if theirs is None:
            theirs = b.get("additionalProperties", True)
        if mine is True or theirs is True:
            merged = copy.deepcopy(theirs if mine is True else mine)
        elif mine is False or theirs is False:
            return None  # the name must be absent: MFJS cannot say it here
        elif isinstance(mine, dict) and isinstance(theirs, dict):
            merged = _merge(mine, theirs)
            if merged is None or merged is _UNSATISFIABLE:
                return None
        else:
            return None
        out[name] = {} if merged is True else merged
    return out


def _merge_anyof(a: dict[str, Any], b: dict[str, Any]) -> Any:
    ba = a.get("anyOf", [{}])
    bb = b.get("anyOf", [{}])
    if not isinstance(ba, list) or not isinstance(bb, list):
        return None
    if not all(isinstance(x, dict) for x in [*ba, *bb]) or len(ba) * len(bb) > _K.anyof_items:
        return None
    base = _merge(
        {k: v for k, v in a.items() if k != "anyOf"}, {k: v for k, v in b.items() if k != "anyOf"}
    )
    if base is None or base is _UNSATISFIABLE:
        return base
    notes = {k: v for k, v in base.items() if k in _NOTES or k in _K.root_only}
    rest = {k: v for k, v in base.items() if k not in notes}
    branches = []
    for x in ba:
        for y in bb:
            m = _merge(x, y)
            if m is not None and m is not _UNSATISFIABLE:
                m = _merge(m, rest)
            if m is None:
                return None
            if m is not _UNSATISFIABLE:
                branches.append(m)
    if not branches:
        return _UNSATISFIABLE
    return {**notes, "anyOf": branches}


def _pointer_target(root: dict[str, Any], ref: str) -> Any:
    """A local ref resolved as JSON Schema 2020-12 does (``%xx`` and ``~0``/``~1`` decoded)."""
    from urllib.parse import unquote

    if not ref.startswith("#"):
        return _UNSATISFIABLE
    text = unquote(ref[1:])
    if not text:
        return root
    if not text.startswith("/"):
        return _UNSATISFIABLE
    cur: Any = root
    for raw in text[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        elif isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            return _UNSATISFIABLE
    return cur


def _ref_of(pointer: Pointer) -> str:
    """The ref naming ``pointer`` (``#`` for the root)."""
    return "#" + "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in pointer)


def _all_dicts(node: Any, ptr: Pointer = ()) -> list[tuple[dict[str, Any], Pointer]]:
    found: list[tuple[dict[str, Any], Pointer]] = []
    stack: list[tuple[Any, Pointer]] = [(node, ptr)]
    while stack:
        cur, at = stack.pop()
        if isinstance(cur, dict):
            found.append((cur, at))
            stack.extend((v, (*at, k)) for k, v in cur.items())
        elif isinstance(cur, list):
            stack.extend((v, (*at, i)) for i, v in enumerate(cur))
    return found


class _Rewriter:
    def __init__(self, root: dict[str, Any], role: str) -> None:
        self.root = root
        self.role = role
        self.changes: list[SchemaChange] = []
        self.folded: dict[tuple[str, str], str] = {}

    def note(self, ptr: Pointer, rule: str, fix: str, action: str) -> None:
        self.changes.append(SchemaChange(ptr, rule, fix, action))

    def run(self) -> tuple[dict[str, Any], list[SchemaChange]]:
        self.refs()
        for _ in range(6):
            before = len(self.changes)
            self.root = self.node(self.root, ())
            if len(self.changes) == before:
                break
        self.recursion()
        self.tool_root()
        return self.root, self.changes

    # -- N7: refs outside #/$defs ----------------------------------------------------------

    def defs(self) -> dict[str, Any]:
        found = self.root.get("$defs")
        if not isinstance(found, dict):
            found = self.root["$defs"] = {}
        return found

    def fresh(self, wanted: str) -> str:
        base = "_".join(_PLAIN_NAME.findall(wanted)) or "def"
        taken: Any = self.root.get("$defs") if isinstance(self.root.get("$defs"), dict) else {}
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        return name

    def refs(self) -> None:
        root = self.root
        if "$defs" in root and not isinstance(root["$defs"], dict):
            return
        sites = [(d, at) for d, at in _all_dicts(root) if isinstance(d.get("$ref"), str)]
        mapping: dict[str, str] = {}
        for ref in sorted({d["$ref"] for d, _ in sites}):
            if ref == "#" or not ref.startswith("#"):
                continue
            plain = ref.startswith("#/$defs/") and "~" not in ref and "%" not in ref
            if plain and _resolve(root, ref) is not None:
                continue
            target = _pointer_target(root, ref)
            if target is _UNSATISFIABLE:
                continue
            if target is root:
                mapping[ref] = "#"
                continue
            if isinstance(target, bool):
                target = {} if target else None
            if not isinstance(target, dict):
                continue
            name = self.fresh(ref.rsplit("/", 1)[-1])
            self.defs()[name] = copy.deepcopy(target)
            mapping[ref] = f"#/$defs/{name}"
        if not mapping:
            return
        for d, at in _all_dicts(root):
            ref = d.get("$ref")
            if isinstance(ref, str) and ref in mapping:
                d["$ref"] = mapping[ref]
                self.note(at, "ref-local", "N7", f"$ref {ref} now points to {mapping[ref]}")
        legacy = root.get("definitions")
        if isinstance(legacy, dict) and not any(
            d.get("$ref", "").startswith("#/definitions") for d, _ in _all_dicts(root)
        ):
            del root["definitions"]
            self.note((), "ref-local", "N7", "definitions moved into $defs")
        defs = root.get("$defs")
        if isinstance(defs, dict):
            used = {d["$ref"] for d, _ in _all_dicts(root) if isinstance(d.get("$ref"), str)}
            for name in [n for n in defs if n == "" or "/" in n]:
                prefix = "#/$defs/" + name
                if not any(u == prefix or u.startswith(prefix + "/") for u in used):
                    del defs[name]
                    self.note(("$defs",), "defs-name", "N7", f"definition {name!r} renamed")

    # -- per schema -----------------------------------------------------------------------

    def node(self, s: Any, ptr: Pointer) -> Any:
        if not isinstance(s, dict):
            return s
        s = self.tuples(s, ptr)
        s = self.booleans(s, ptr)
        s = self.ref_siblings(s, ptr)
        s = self.anyof(s, ptr)
        s = self.type_list(s, ptr)
        s = self.enum(s, ptr)
        s = self.required(s, ptr)
        s = self.integer_bounds(s, ptr)
        defs = s.get("$defs")
        if isinstance(defs, dict):
            for name in list(defs):
                defs[name] = self.node(defs[name], (*ptr, "$defs", name))
        props = s.get("properties")
        if isinstance(props, dict):
            for name in list(props):
                props[name] = self.node(props[name], (*ptr, "properties", name))
        for key in ("items", "additionalProperties"):
            if isinstance(s.get(key), dict):
                s[key] = self.node(s[key], (*ptr, key))
        branches = s.get("anyOf")
        if isinstance(branches, list):
            for i, b in enumerate(branches):
                branches[i] = self.node(b, (*ptr, "anyOf", i))
        return s

    def tuples(self, s: dict[str, Any], ptr: Pointer) -> dict[str, Any]:
        items = s.get("items")
        if isinstance(items, list) and "prefixItems" not in s:
            s["prefixItems"] = items
            if "additionalItems" in s:
                s["items"] = s.pop("additionalItems")
            else:
                del s["items"]
            self.note(ptr, "items-object", "N3", "items as a list became prefixItems")
        prefix = s.get("prefixItems")
        if isinstance(prefix, list) and s.get("items") is False:
            limit, kinds = len(prefix), list[Any]()
            for i, p in enumerate(prefix):
                if p is False:
                    limit = i
                    break
                p = {} if p is True else p
                if not any(_same(p, k) for k in kinds):
                    kinds.append(copy.deepcopy(p))
            high = s.get("maxItems")
            s["maxItems"] = min(high, limit) if _is_num(high) else limit
            if limit == 0 or not kinds:
                del s["items"]
            else:
                s["items"] = kinds[0] if len(kinds) == 1 else {"anyOf": kinds}
            self.note(
                ptr,
                "items-object",
                "N3",
                f"tuple of {limit}: items false became maxItems {s['maxItems']} and items "
                "the union of the positions (prefixItems kept)",
            )
        return s

    def booleans(self, s: dict[str, Any], ptr: Pointer) -> dict[str, Any]:
        props = s.get("properties")
        if isinstance(props, dict):
            required: Any = s.get("required") if isinstance(s.get("required"), list) else []
            for name in list(props):
                at = (*ptr, "properties", name)
                if props[name] is True:
                    props[name] = {}
                    self.note(at, "property-schema-object", "N5", "true became {}")
                elif props[name] is False and (
                    s.get("additionalProperties") is False and name not in required
                ):
                    del props[name]
                    self.note(
                        at,
                        "property-schema-object",
                        "N5",
                        "false removed (additionalProperties false forbids the name already)",
                    )
        if s.get("items") is True:
            del s["items"]
            self.note((*ptr, "items"), "items-object", "N5", "items true removed")
        elif s.get("items") is False and "prefixItems" not in s:
            del s["items"]
            s["maxItems"] = 0
            self.note((*ptr, "items"), "items-object", "N5", "items false became maxItems 0")
        branches = s.get("anyOf")
        if isinstance(branches, list) and any(isinstance(b, bool) for b in branches):
            kept = [{} if b is True else b for b in branches if b is not False]
            if kept:
                s["anyOf"] = kept
                self.note(
                    (*ptr, "anyOf"),
                    "anyof-branch-object",
                    "N5",
                    "true branches became {}, false branches removed",
                )
        defs = s.get("$defs")
        if isinstance(defs, dict):
            for name in list(defs):
                at = (*ptr, "$defs", name)
                if defs[name] is True:
                    defs[name] = {}
                    self.note(at, "defs-entry-object", "N5", "true became {}")
                elif defs[name] is False and not self.referred(f"{_ref_of(ptr)}/$defs/{name}"):
                    del defs[name]
                    self.note(at, "defs-entry-object", "N5", "an unused false definition removed")
        return s

    def referred(self, prefix: str) -> bool:
        """Whether a $ref anywhere points at ``prefix`` or inside it (as written)."""
        for d, _ in _all_dicts(self.root):
            ref = d.get("$ref")
            if isinstance(ref, str) and (ref == prefix or ref.startswith(prefix + "/")):
                return True
            if isinstance(ref, str) and ("~" in ref or "%" in ref):
                return True  # an escaped pointer may name it: keep it
        return False

    def ref_target(self, ref: str) -> dict[str, Any] | None:
        target = _resolve(self.root, ref)
        seen = {ref}
        while target is not None:
            nxt = target.get("$ref")
            if not isinstance(nxt, str) or nxt in seen:
                break
            if any(k != "$ref" and k not in _NOTES for k in target):
                break
            seen.add(nxt)
            target = _resolve(self.root, nxt)
        return target

    def ref_siblings(self, s: dict[str, Any], ptr: Pointer) -> dict[str, Any]:
        ref = s.get("$ref")
        if not isinstance(ref, str):
            return s
        keep = _K.annotations | (_K.root_only if not ptr else frozenset())
        sib = {k: v for k, v in s.items() if k != "$ref" and k not in keep}
        target = self.ref_target(ref)
        if not sib or target is None or "$ref" in target:
            return s
        if "type" in sib:
            mine, theirs = _type_list(sib["type"]), _type_list(target.get("type"))
            if theirs is None and isinstance(target.get("anyOf"), list):
                kinds: list[str] = []
                for b in target["anyOf"]:
                    bt = _type_list(b.get("type")) if isinstance(b, dict) else None
                    if bt is None:
                        kinds = []
                        break
                    kinds += bt
                theirs = kinds or None
            if mine is not None and theirs is not None and _intersect_types(theirs, mine) == theirs:
                del s["type"], sib["type"]
                self.note(
                    ptr, "type-beside-ref", "N2", "type beside $ref removed: the target implies it"
                )
        if not sib:
            return s
        props: Any = sib.get("properties") if isinstance(sib.get("properties"), dict) else {}
        branches: Any = target.get("anyOf") if isinstance(target.get("anyOf"), list) else []
        refused = (
            "type" in sib
            or any(k in target for k in sib)
            or (
                isinstance(sib.get("required"), list)
                and any(r not in props for r in sib["required"])
            )
            or ("anyOf" in sib and "type" in target)
            or any(
                isinstance(b, dict) and any(k in b for k in sib if k != "anyOf") for b in branches
            )
        )
        if not refused:
            return s
        # The same fold is made once: a target holding the same $ref and siblings (a
        # recursive one) points at the definition being made instead of folding again.
        memo = (ref, json.dumps(sib, sort_keys=True, default=repr))
        name = self.folded.get(memo, "")
        if not name:
            base = {k: v for k, v in target.items() if k not in _K.root_only}
            merged = _merge(sib, copy.deepcopy(base))
            if merged is None or merged is _UNSATISFIABLE or len(self.folded) >= _MAX_FOLDS:
                return s
            tail = ref.rsplit("/", 1)[-1] if ref != "#" else "root"
            name = self.folded[memo] = self.fresh(f"{tail}_1")
            self.defs()[name] = merged
        undefined = isinstance(sib.get("required"), list) and not any(k in target for k in sib)
        rule = (
            "type-beside-ref"
            if "type" in sib
            else ("required-defined" if undefined else "ref-sibling-conflict")
        )
        out = {"$ref": f"#/$defs/{name}", **{k: v for k, v in s.items() if k in keep}}
        self.note(ptr, rule, "N2", f"{', '.join(sorted(sib))} beside $ref folded into $defs/{name}")
        return out

    def anyof(self, s: dict[str, Any], ptr: Pointer) -> dict[str, Any]:
        branches = s.get("anyOf")
        if not isinstance(branches, list) or not all(isinstance(b, dict) for b in branches):
            return s
        keep = _K.annotations | _K.root_only
        parent = {k: v for k, v in s.items() if k != "anyOf" and k not in keep}
        if not parent:
            return s
        props: Any = parent.get("properties") if isinstance(parent.get("properties"), dict) else {}

        def needs_parent(b: dict[str, Any]) -> bool:
            req, own = b.get("required"), b.get("properties")
            own = own if isinstance(own, dict) else {}
            return isinstance(req, list) and any(r not in own and r in props for r in req)

        refused = (
            "type" in parent
            or "enum" in parent
            or any(k in b for b in branches for k in parent)
            or any(needs_parent(b) for b in branches)
        )
        if not refused:
            return s
        branches = [dict(b) for b in branches]
        if "default" in parent and any("default" in b for b in branches):
            for b in branches:
                b.pop("default", None)
            self.note(
                ptr, "anyof-parent-conflict", "N11", "branch defaults removed, the parent's kept"
            )
        moved = {k: v for k, v in parent.items() if k != "default"}
        if not moved:
            out = {**s, "anyOf": branches}
            return out
        new: list[dict[str, Any]] = []
        for b in branches:
            m = _merge(b, moved)
            if m is None:
                return s
            if m is not _UNSATISFIABLE:
                new.append(m)
        if not new:
            return s
        out = {k: v for k, v in s.items() if k in keep or k == "default"}
        out["anyOf"] = new
        rule = (
            "type-beside-anyof"
            if "type" in parent
            else ("enum-needs-type" if "enum" in parent else "anyof-parent-conflict")
        )
        dropped = len(branches) - len(new)
        self.note(
            ptr,
            rule,
            "N1",
            f"{', '.join(sorted(moved))} moved into the anyOf branches"
            + (f" ({dropped} branch(es) that could never match removed)" if dropped else ""),
        )
        return out

    def type_list(self, s: dict[str, Any], ptr: Pointer) -> dict[str, Any]:
        t = s.get("type")
        if not isinstance(t, list) or "anyOf" in s or "$ref" in s:
            return s
        types = _type_list(t)
        if types is None or any(x not in _K.types for x in types) or not types:
            return s
        is_root = not ptr
        if len(types) != len(t):
            s["type"] = types[0] if len(types) == 1 else types
            self.note(ptr, "type-list-duplicates", "N8", "repeated types removed")
        if len(types) == 1:
            return s
        keep = _K.annotations | (_K.root_only if is_root else frozenset())
        extra = [k for k in s if k != "type" and k not in keep]
        values = s.get("enum")
        if isinstance(values, list) and values and len(types) == 2 and "null" in types:
            other = next(x for x in types if x != "null")
            if other in _K.enum_other:
                if types[0] in ("integer", "number") and any(not _is_num(v) for v in values):
                    s["type"] = ["null", types[0]]
                    self.note(ptr, "enum-value-type", "N4", "null listed first in type")
                kept = [v for v in values if any(_fits(v, x) for x in types)]
                if kept and len(kept) != len(values):
                    s["enum"] = kept
                    self.note(
                        (*ptr, "enum"), "enum-value-type", "N4", "values the type excludes removed"
                    )
                return s
        if not extra:
            return s
        out = {k: v for k, v in s.items() if k in keep or k == "default"}
        branches = []
        for x in types:
            b: dict[str, Any] = {"type": x}
            for k in extra:
                if k == "default" or (k in _TYPED_KEYWORDS and k not in _FOR_TYPE[x]):
                    continue
                b[k] = copy.deepcopy(s[k])
            if isinstance(b.get("enum"), list):
                b["enum"] = [v for v in b["enum"] if _fits(v, x)]
                if not b["enum"]:
                    continue
            branches.append(b)
        if not branches:
            return s
        out["anyOf"] = branches
        fix, rule = ("N4", "enum-type-list-shape") if "enum" in s else ("N8", "type-list-keywords")
        self.note(ptr, rule, fix, f"type list {types} split into one anyOf branch per type")
        return out

    def enum(self, s: dict[str, Any], ptr: Pointer) -> dict[str, Any]:
        values = s.get("enum")
        if not isinstance(values, list) or not values or "anyOf" in s or "$ref" in s:
            return s
        if "type" not in s:
            kinds: list[str] = []
            for v in values:
                k = _json_kind(v)
                if k == "unknown":
                    return s
                if k not in kinds:
                    kinds.append(k)
            if "integer" in kinds and "number" in kinds:
                kinds.remove("integer")
            if len(kinds) == 1:
                typed: Any = kinds[0]
            elif len(kinds) == 2 and "null" in kinds and (set(kinds) - {"null"}) <= _K.enum_other:
                typed = ["null", next(k for k in kinds if k != "null")]
            else:
                typed = kinds
            out = {"type": typed, **s}
            self.note(ptr, "enum-needs-type", "N4", f"type {typed} given from the enum's values")
            return self.type_list(out, ptr) if isinstance(typed, list) else out
        types = _type_list(s.get("type"))
        if types is not None and len(types) == 1 and types[0] in _K.types:
            kept = [v for v in values if _fits(v, types[0])]
            if kept and len(kept) != len(values):
                s["enum"] = kept
                self.note(
                    (*ptr, "enum"), "enum-value-type", "N4", "values the type excludes removed"
                )
        return s

    def required(self, s: dict[str, Any], ptr: Pointer) -> dict[str, Any]:
        req = s.get("required")
        if not isinstance(req, list) or not all(isinstance(r, str) for r in req):
            return s
        if "$ref" in s or "unevaluatedProperties" in s:
            return s
        if isinstance(s.get("anyOf"), list) and any(
            isinstance(b, dict) and "properties" in b for b in s["anyOf"]
        ):
            return s
        props = s.get("properties", {})
        if not isinstance(props, dict):
            return s
        missing = [r for r in dict.fromkeys(req) if r not in props]
        extra = s.get("additionalProperties", True)
        if not missing or extra is False:
            return s
        patterns: Any = (
            s.get("patternProperties") if isinstance(s.get("patternProperties"), dict) else {}
        )
        for name in missing:
            matched = False
            for pattern in patterns:
                try:
                    matched = matched or re.search(pattern, name) is not None
                except re.error:
                    return s
            props[name] = {} if (matched or extra is True) else copy.deepcopy(extra)
            self.note(
                (*ptr, "properties", name),
                "required-defined",
                "N6",
                f"required {name!r} defined as any other key would be",
            )
        s["properties"] = props
        return s

    def integer_bounds(self, s: dict[str, Any], ptr: Pointer) -> dict[str, Any]:
        if s.get("type") != "integer":
            return s
        low, high = s.get("minimum"), s.get("maximum")
        if _is_num(low) and math.isfinite(low) and not float(low).is_integer():
            s["minimum"] = math.ceil(low)
            self.note(
                (*ptr, "minimum"), "range-value", "N13", f"minimum {low} became {s['minimum']}"
            )
        if _is_num(high) and math.isfinite(high) and not float(high).is_integer():
            s["maximum"] = math.floor(high)
            self.note(
                (*ptr, "maximum"), "range-value", "N13", f"maximum {high} became {s['maximum']}"
            )
        below, above = s.get("exclusiveMinimum"), s.get("exclusiveMaximum")
        if _is_num(below) and math.isfinite(below):
            old, new = s.get("minimum"), math.floor(below) + 1
            s["minimum"] = max(old, new) if _is_num(old) else new
            del s["exclusiveMinimum"]
            self.note(
                (*ptr, "minimum"),
                "unsupported-keyword",
                "N13",
                f"exclusiveMinimum {below} became minimum",
            )
        if _is_num(above) and math.isfinite(above):
            old, new = s.get("maximum"), math.ceil(above) - 1
            s["maximum"] = min(old, new) if _is_num(old) else new
            del s["exclusiveMaximum"]
            self.note(
                (*ptr, "maximum"),
                "unsupported-keyword",
                "N13",
                f"exclusiveMaximum {above} became maximum",
            )
        return s

    # -- N9: recursion through required arrays --------------------------------------------

    def recursion(self) -> None:
        for _ in range(3):
            if not any(i.rule == "ref-termination" for i in check(self.root, self.role)):
                return
            before = len(self.changes)
            self.root = self.wrap_arrays(self.root, ())
            if len(self.changes) == before:
                return

    def wrap_arrays(self, s: Any, ptr: Pointer) -> Any:
        if not isinstance(s, dict):
            return s
        for key in ("$defs", "properties"):
            inner = s.get(key)
            if isinstance(inner, dict):
                for name in list(inner):
                    inner[name] = self.wrap_arrays(inner[name], (*ptr, key, name))
        for key in ("items", "additionalProperties"):
            if isinstance(s.get(key), dict):
                s[key] = self.wrap_arrays(s[key], (*ptr, key))
        branches = s.get("anyOf")
        if isinstance(branches, list):
            for i, b in enumerate(branches):
                branches[i] = self.wrap_arrays(b, (*ptr, "anyOf", i))
        items = s.get("items")
        low = s.get("minItems")
        if s.get("type") != "array" or not isinstance(items, dict) or (_is_num(low) and low > 0):
            return s
        if not any(isinstance(d.get("$ref"), str) for d, _ in _all_dicts(items)):
            return s
        try:
            if _Checker(self.root, self.role).terminates(s, set(), ptr):
                return s
        except _Stop:
            return s  # an unresolvable ref: the check refuses it
        out = {k: v for k, v in s.items() if k in _NOTES}
        out["anyOf"] = [
            {"type": "array", "maxItems": 0},
            {k: v for k, v in s.items() if k not in _NOTES},
        ]
        self.note(ptr, "ref-termination", "N9", "an explicit empty-array branch added")
        return out

    # -- N14: the tool-parameters root ----------------------------------------------------

    def tool_root(self) -> None:
        root = self.root
        if self.role != "tool-parameters" or any(k in root for k in ("type", "anyOf", "$ref")):
            return
        self.root = {"type": "object", **root}
        self.note(
            (),
            "tool-root-object",
            "N14",
            "type object added: a tool's arguments are always a JSON object",
        )
