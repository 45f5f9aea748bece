"""A fast yes/no check of a request body, written as Python source from the schema.

:mod:`.schema` is the reference validator: it names the path and the rule. On a 200-turn
history it still costs several function calls per object, so the hot keywords (types, fixed
values, required and known fields, lists, tagged unions, string limits) are also turned into
one plain Python function per component here. ``make generate`` writes them
(:func:`source`, by ``scripts/derive_fast.py``) into
``kimi_raw/_contract/<format>_fast_<mode>.py``: one factory per mode, which :func:`load`
imports and binds, so nothing is compiled at run time. Whatever this generator does not inline (conditionals, extensions, untagged unions)
calls the reference check for that node. The one rule: when the fast check passes, the body
is valid. When it fails, :class:`~kimi_ext._core.contract.Contract` runs the reference
validator, which finds the path and the rule (or, if the fast check was merely conservative,
passes).

This is an optimization only; deleting it (and its call in ``Contract.check``) leaves the
behaviour unchanged. The property tests run both and require the same verdict.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kimi_ext._core.contract.schema import (
    _ANNOTATIONS,
    NEAR_TYPOS,
    Compiler,
    ecma_pattern,
    near_typos,
)
from kimi_ext._core.contract.text import has_lone_surrogate

if TYPE_CHECKING:
    from kimi_ext._core.contract import Closed

FastCheck = Callable[[Any], None]


class Fail(Exception):
    """The fast check found something; the reference validator will say what."""


_INLINE = frozenset(
    {
        "type", "const", "enum", "minLength", "maxLength", "pattern", "minimum", "maximum",
        "items", "minItems", "maxItems", "required", "properties", "additionalProperties",
        "oneOf", "anyOf", "x-kimi-max-utf8-bytes", NEAR_TYPOS,
    }
)  # fmt: skip
# What a yes/no answer can ignore: the annotations, and the wording of a failure.
_IGNORED = _ANNOTATIONS | {"x-kimi-error", "x-kimi-service-error", "x-kimi-unique-error"}
_PY_TYPES = {
    "string": "(str,)",
    "integer": "(int,)",
    "number": "(int, float)",
    "boolean": "(bool,)",
    "object": "(dict,)",
    "array": "(list,)",
    "null": "(type(None),)",
}


class _Writer:
    def __init__(self, compiler: Compiler) -> None:
        self.compiler = compiler
        self.lines: list[str] = []
        # name -> the source expression of a constant the functions use (bound once, when
        # the factory runs); the same expression is bound once under one name.
        self.names: dict[str, str] = {}
        self.done: set[str] = set()
        self.pending: list[str] = []
        self.inline: list[tuple[str, Any]] = []
        self.counter = 0

    def const(self, expr: str) -> str:
        """The name of the constant whose value is the source expression ``expr``."""
        for name, known in self.names.items():
            if known == expr:
                return name
        self.counter += 1
        name = f"_k{self.counter}"
        self.names[name] = expr
        return name

    def slow(self, schema: Any) -> str:
        """The name of the reference check of ``schema`` (compiled when the factory runs)."""
        return self.const(f"_compile({_literal(schema)})")

    def names_set(self, values: Any) -> str:
        return self.const(_frozenset(values))

    def function(self, ref: str) -> str:
        name = "_v_" + re.sub(r"\W", "_", ref)
        if ref not in self.done:
            self.done.add(ref)
            self.pending.append(ref)
        return name

    def member(self, schema: Any, ref: str) -> str:
        """The function that checks one union member: its component's, or, when the member
        adds keywords beside its ``$ref`` (a request-only rule on a shared block), a
        function of its own that checks both."""
        if not isinstance(schema, Mapping) or set(schema) <= {"$ref"} | _IGNORED:
            return self.function(ref)
        self.counter += 1
        name = f"_m{self.counter}"
        self.inline.append((name, schema))
        return name

    def emit_inline(self, name: str, schema: Any) -> None:
        self.lines.append(f"def {name}(v):")
        body: list[str] = []
        self.node(schema, "v", body, 1)
        self.lines.extend(body or ["    pass"])
        self.lines.append("")

    def emit_component(self, ref: str) -> None:
        name = self.function(ref)
        self.lines.append(f"def {name}(v):")
        body: list[str] = []
        self.node(self.compiler.defs[ref], "v", body, 1)
        self.lines.extend(body or ["    pass"])
        self.lines.append("")

    def node(self, schema: Any, var: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        if schema is True or schema == {}:
            return
        if not isinstance(schema, Mapping) or schema is False:
            out.append(f"{pad}raise Fail")
            return
        if "$ref" in schema:
            ref = str(schema["$ref"]).removeprefix("#/$defs/")
            out.append(f"{pad}{self.function(ref)}({var})")
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            self.node(rest, var, out, depth)
            return
        others = {k: v for k, v in schema.items() if k not in _INLINE and k not in _IGNORED}
        forbidden = _forbidden_key(others.get("not"))
        if forbidden is not None:
            del others["not"]
            out.append(f"{pad}if type({var}) is dict and {forbidden!r} in {var}: raise Fail")
        tag_if = _tag_condition(others.get("if")) if schema.get("type") == "object" else None
        if tag_if is not None:
            # ``if`` one field is a constant (a role): both branches inline.
            others.pop("if")
            then, other = others.pop("then", True), others.pop("else", True)
            key, value = tag_if
            wanted = self.const(repr(value))
            then_body: list[str] = []
            self.node(then, var, then_body, depth + 1)
            else_body: list[str] = []
            self.node(other, var, else_body, depth + 1)
            out.append(f"{pad}if type({var}) is dict:")
            out.append(f"{pad}    if {key!r} in {var} and {var}[{key!r}] == {wanted}:")
            out.extend(["    " + line for line in then_body] or [f"{pad}        pass"])
            out.append(f"{pad}    else:")
            out.extend(["    " + line for line in else_body] or [f"{pad}        pass"])
        condition = others.get("if")
        presence = _presence_condition(condition)
        if presence is not None:
            # ``if`` asks only whether keys are present (met by a non-object too): both
            # branches inline, chosen by the same test.
            others.pop("if")
            then, other = others.pop("then", True), others.pop("else", True)
            test = " and ".join(f"{k!r} in {var}" for k in presence) or "True"
            met: list[str] = []
            self.node(then, var, met, depth + 1)
            unmet: list[str] = []
            self.node(other, var, unmet, depth + 1)
            if met or unmet:
                out.append(f"{pad}if type({var}) is not dict or ({test}):")
                out.extend(met or [f"{pad}    pass"])
                out.append(f"{pad}else:")
                out.extend(unmet or [f"{pad}    pass"])
            condition = None
        needed = condition.get("required") if isinstance(condition, Mapping) else None
        if needed and "else" not in others and schema.get("type") == "object":
            # ``if`` needs these keys: without one of them it fails and, with no ``else``,
            # nothing applies, so the reference check runs only when they are all there.
            sub = {"if": others.pop("if"), "then": others.pop("then", True)}
            slow = self.slow(sub)
            present = " and ".join(f"{k!r} in {var}" for k in needed)
            out.append(f"{pad}if type({var}) is dict and {present}: {slow}({var}, ())")
        if others:
            # Keywords not inlined (conditionals, extensions) go to the reference
            # validator; they are a conjunction with the rest, so the rest stays inline.
            if "then" in others or "else" in others:
                others["if"] = schema["if"]
            slow = self.slow(others)
            out.append(f"{pad}{slow}({var}, ())")
        kind = schema.get("type")
        if isinstance(kind, str):
            out.append(f"{pad}if type({var}) not in {_PY_TYPES[kind]}: raise Fail")
        elif isinstance(kind, list):
            types = " + ".join(_PY_TYPES[k] for k in kind)
            out.append(f"{pad}if type({var}) not in ({types}): raise Fail")
        if "const" in schema or "enum" in schema:
            values = [schema["const"]] if "const" in schema else list(schema["enum"])
            if all(isinstance(v, str) for v in values):
                allowed = self.names_set(values)
                out.append(f"{pad}if type({var}) is not str or {var} not in {allowed}: raise Fail")
            else:
                slow = self.slow({"enum": values})
                out.append(f"{pad}{slow}({var}, ())")
        self.string(schema, var, out, pad)
        self.number(schema, var, out, pad)
        self.array(schema, var, out, depth)
        self.object(schema, var, out, depth)
        for key in ("oneOf", "anyOf"):
            if key in schema:
                self.union(schema, key, var, out, depth)

    def string(self, schema: Mapping[str, Any], var: str, out: list[str], pad: str) -> None:
        guard = f"{pad}if type({var}) is str and "
        if "minLength" in schema:
            out.append(f"{guard}len({var}) < {int(schema['minLength'])}: raise Fail")
        if "maxLength" in schema:
            out.append(f"{guard}len({var}) > {int(schema['maxLength'])}: raise Fail")
        if "x-kimi-max-utf8-bytes" in schema:
            # Short strings are encoded too: a lone surrogate must fail here.
            limit = int(schema["x-kimi-max-utf8-bytes"])
            out.append(f"{guard}len({var}.encode('utf-8', 'replace')) > {limit}: raise Fail")
            out.append(f"{guard}not {var}.isascii() and _has_surrogate({var}): raise Fail")
        if "pattern" in schema:
            regex = self.const(f"_pattern({str(schema['pattern'])!r})")
            out.append(f"{guard}{regex}.search({var}) is None: raise Fail")

    def number(self, schema: Mapping[str, Any], var: str, out: list[str], pad: str) -> None:
        for key, op in (("minimum", "<"), ("maximum", ">")):
            if key in schema:
                bound = self.const(repr(schema[key]))
                out.append(
                    f"{pad}if type({var}) in (int, float) and {var} {op} {bound}: raise Fail"
                )

    def array(self, schema: Mapping[str, Any], var: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        guard = f"{pad}if type({var}) is list and "
        if "minItems" in schema:
            out.append(f"{guard}len({var}) < {int(schema['minItems'])}: raise Fail")
        if "maxItems" in schema:
            out.append(f"{guard}len({var}) > {int(schema['maxItems'])}: raise Fail")
        items = schema.get("items")
        if items is not None and items is not True and items != {}:
            item = f"e{depth}"
            loop = (f"{pad}if type({var}) is list:", f"{pad}    for {item} in {var}:")
            out.extend(self.under(loop, items, item, depth + 2))

    def under(self, header: tuple[str, ...], schema: Any, var: str, depth: int) -> list[str]:
        """``header`` then the checks of ``schema`` on ``var``; nothing at all when ``schema``
        checks nothing (a loop or lookup with an empty body would cost time for no rule)."""
        body: list[str] = []
        self.node(schema, var, body, depth)
        return [*header, *body] if body else []

    def object(self, schema: Mapping[str, Any], var: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        required = list(schema.get("required", ()))
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        if not (required or props or extra is not True):
            return
        block: list[str] = []
        inner = pad + "    "
        if required:
            test = " or ".join(f"{k!r} not in {var}" for k in required)
            block.append(f"{inner}if {test}: raise Fail")
        for key, sub in props.items():
            value = f"p{depth}"
            get = f"{inner}{value} = {var}.get({key!r}, _MISSING)"
            block.extend(
                self.under((get, f"{inner}if {value} is not _MISSING:"), sub, value, depth + 2)
            )
        if schema.get(NEAR_TYPOS):
            # Open to received keys: only an object with a key it does not name pays for
            # the near-miss test (one set comparison in C otherwise).
            known = self.names_set(props)
            typos = self.const(f"_typos({_frozenset(props)})")
            block.append(f"{inner}if not {var}.keys() <= {known}: {typos}({var}, ())")
        if extra is False:
            # A closed object: one set comparison in C, not a loop over its keys.
            known = self.names_set(props)
            block.append(f"{inner}if not {var}.keys() <= {known}: raise Fail")
        elif extra is not True:
            known = self.names_set(props)
            value = f"x{depth}"
            body: list[str] = []
            self.node(extra, value, body, depth + 3)
            block.append(f"{inner}for _key, {value} in {var}.items():")
            block.append(f"{inner}    if _key not in {known}:")
            block.extend(body or [f"{inner}        raise Fail"])
        if out and out[-1] == f"{pad}if type({var}) not in (dict,): raise Fail":
            out.extend(line[4:] for line in block)  # the type is already known here
        else:
            out.append(f"{pad}if type({var}) is dict:")
            out.extend(block)

    def union(
        self, schema: Mapping[str, Any], key: str, var: str, out: list[str], depth: int
    ) -> None:
        pad = "    " * depth
        members = [self.compiler.resolve(m) for m in schema[key]]
        refs = [str(m.get("$ref", "")).removeprefix("#/$defs/") for m in schema[key]]
        tags = _tag_table(members, self.compiler)
        scalar = [
            (i, m)
            for i, m in enumerate(members)
            if isinstance(m, Mapping) and m.get("type") != "object"
        ]
        objects = [
            i for i, m in enumerate(members) if isinstance(m, Mapping) and m.get("type") == "object"
        ]
        kinds = [m.get("type") for _, m in scalar]
        simple = all(isinstance(k, str) for k in kinds) and len(set(kinds)) == len(kinds)
        if tags is None and len(objects) > 1 and key == "anyOf" and simple:
            partial = _partial_tags(members, self.compiler)
            if partial is not None and all(refs[i] for i in partial[1].values()):
                # A tagged union with a catch-all: a known tag goes straight to its member
                # (anyOf: one passing member is enough); anything else to the reference.
                self.tagged_with_fallback(schema, key, var, out, depth, scalar, refs, partial)
                return
        if (
            (tags is None and len(objects) > 1)
            or not simple
            or (tags is not None and not all(refs[i] for i in objects))
        ):
            slow = self.slow({key: schema[key]})
            out.append(f"{pad}{slow}({var}, ())")
            return
        first = self.scalar_branches(schema[key], scalar, var, out, depth)
        if objects:
            word = "if" if first else "elif"
            out.append(f"{pad}{word} type({var}) is dict:")
            if tags is None:
                body: list[str] = []
                self.node(schema[key][objects[0]], var, body, depth + 1)
                out.extend(body or [f"{pad}    pass"])
            else:
                tag_key, table = tags
                funcs: dict[str | None, str] = {}
                for t, hit in table.items():
                    if len(hit) == 1:
                        funcs[t] = self.member(schema[key][hit[0]], refs[hit[0]])
                    else:  # two members share the tag: the reference union decides
                        sub = {key: [schema[key][i] for i in hit]}
                        slow = self.slow(sub)
                        funcs[t] = self.const(f"lambda v, _c={slow}: _c(v, ())")
                self.pending_tables.append((tag_key, funcs))
                name = f"_tags{len(self.pending_tables)}"
                tag = f"t{depth}"
                out.append(f"{pad}    {tag} = {var}.get({tag_key!r})")
                out.append(f"{pad}    if type({tag}) is not str and {tag} is not None: raise Fail")
                out.append(f"{pad}    {name}[{tag}]({var})")
            out.append(f"{pad}else: raise Fail")
        else:
            out.append(f"{pad}else: raise Fail")

    def tagged_with_fallback(
        self,
        schema: Mapping[str, Any],
        key: str,
        var: str,
        out: list[str],
        depth: int,
        scalar: list[tuple[int, Any]],
        refs: list[str],
        partial: tuple[str, dict[str, int]],
    ) -> None:
        pad = "    " * depth
        slow = self.slow({key: schema[key]})
        tag_key, table = partial
        self.counter += 1
        funcs = f"_k{self.counter}"  # bound after the functions it names
        members = {t: self.member(schema[key][i], refs[i]) for t, i in table.items()}
        self.late_tables.append((funcs, members))
        first = self.scalar_branches(schema[key], scalar, var, out, depth)
        word = "if" if first else "elif"
        tag, f = f"t{depth}", f"f{depth}"
        out.append(f"{pad}{word} type({var}) is dict:")
        out.append(f"{pad}    {tag} = {var}.get({tag_key!r})")
        out.append(f"{pad}    {f} = {funcs}.get({tag}) if type({tag}) is str else None")
        out.append(f"{pad}    if {f} is None: {slow}({var}, ())")
        out.append(f"{pad}    else: {f}({var})")
        out.append(f"{pad}else: {slow}({var}, ())")

    def scalar_branches(
        self,
        members: list[Any],
        scalar: list[tuple[int, Any]],
        var: str,
        out: list[str],
        depth: int,
    ) -> bool:
        """``if``/``elif`` branches by Python type for the non-object members; True when
        none were written (the next branch starts with ``if``)."""
        pad = "    " * depth
        first = True
        for i, m in scalar:
            word = "if" if first else "elif"
            first = False
            out.append(f"{pad}{word} type({var}) in {_PY_TYPES[m['type']]}:")
            body: list[str] = []
            self.node(members[i], var, body, depth + 1)
            out.extend(body or [f"{pad}    pass"])
        return first

    pending_tables: list[tuple[str, dict[str | None, str]]]
    late_tables: list[tuple[str, dict[str, str]]]


def _presence_condition(schema: Any) -> list[str] | None:
    """The keys of an ``if`` that only asks for them: ``{required: [k, ...]}``."""
    if not isinstance(schema, Mapping) or set(schema) - _IGNORED != {"required"}:
        return None
    keys = schema["required"]
    return [str(k) for k in keys] if isinstance(keys, list) else None


def _tag_condition(schema: Any) -> tuple[str, str] | None:
    """``(k, c)`` for ``if: {required: [k], properties: {k: {const: c}}}``."""
    if not isinstance(schema, Mapping) or set(schema) != {"required", "properties"}:
        return None
    required, props = schema["required"], schema["properties"]
    if len(required) != 1 or set(props) != set(required):
        return None
    prop = props[required[0]]
    if isinstance(prop, Mapping) and set(prop) == {"const"} and isinstance(prop["const"], str):
        return str(required[0]), prop["const"]
    return None


def _partial_tags(members: list[Any], compiler: Compiler) -> tuple[str, dict[str, int]] | None:
    """``(key, {tag: member})`` over the members with a required constant tag, if any."""
    for key in ("type", "role"):
        table: dict[str, int] = {}
        for i, m in enumerate(members):
            if not (isinstance(m, Mapping) and m.get("type") == "object"):
                continue
            prop = compiler.resolve(m.get("properties", {}).get(key))
            if isinstance(prop, Mapping) and key in m.get("required", ()) and "const" in prop:
                if not isinstance(prop["const"], str) or prop["const"] in table:
                    return None
                table[prop["const"]] = i
        if table:
            return key, table
    return None


def _forbidden_key(schema: Any) -> str | None:
    """``k`` for ``not: {required: [k]}`` (a key that must not appear)."""
    if isinstance(schema, Mapping) and set(schema) == {"required"} and len(schema["required"]) == 1:
        return str(schema["required"][0])
    return None


def _tag_table(
    members: list[Any], compiler: Compiler
) -> tuple[str, dict[str | None, list[int]]] | None:
    """``(key, {tag: member indexes})`` when every object member has a constant tag; a
    member that may leave the tag out is also listed under ``None``."""
    objects = [
        (i, m)
        for i, m in enumerate(members)
        if isinstance(m, Mapping) and m.get("type") == "object"
    ]
    if len(objects) < 2:
        return None
    for key in ("type", "role"):
        table: dict[str | None, list[int]] = {}
        for i, m in objects:
            prop = compiler.resolve(m.get("properties", {}).get(key))
            if not isinstance(prop, Mapping):
                break
            values = [prop["const"]] if "const" in prop else prop.get("enum") or []
            if not values or any(not isinstance(v, str) for v in values):
                break
            for v in values:
                table.setdefault(v, []).append(i)
            if key not in m.get("required", ()):
                table.setdefault(None, []).append(i)
        else:
            return key, table
    return None


class _Missing:
    pass


_MISSING = _Missing()
# The generated module of each mode (see ``Closed``): ``<format>_fast_<mode>``.
MODES: dict[Closed, str] = {None: "as_written", "strict": "strict", "lenient": "lenient"}
# What a factory is given: the names its source uses for the run-time helpers.
_PARAMETERS = "_compile, Fail, _has_surrogate, _MISSING, _FailingDict, _pattern, _typos"


def source(compiler: Compiler, root: str, factory: str) -> str:
    """The source of ``def factory(...)``, which returns the fast check of the component
    ``root`` (and of everything it references) as compiled by ``compiler``. ``make
    generate`` writes it into ``kimi_raw/_contract/<format>_fast_<mode>.py`` (see
    :func:`load`)."""
    writer = _Writer(compiler)
    writer.pending_tables = []
    writer.late_tables = []
    entry = writer.function(root)
    while writer.pending or writer.inline:
        if writer.pending:
            writer.emit_component(writer.pending.pop())
        else:
            writer.emit_inline(*writer.inline.pop())
    lines = [f"def {factory}({_PARAMETERS}):"]
    lines += [f"    {name} = {expr}" for name, expr in writer.names.items()]
    lines += [f"    {line}" if line else "" for line in _without_implied_checks(writer.lines)]
    # The tag tables name the functions, so they are bound after them.
    for n, (_, funcs) in enumerate(writer.pending_tables, 1):
        table = ", ".join(f"{tag!r}: {f}" for tag, f in funcs.items())
        lines.append(f"    _tags{n} = _FailingDict({{{table}}})")
    for table_name, names in writer.late_tables:
        table = ", ".join(f"{tag!r}: {f}" for tag, f in names.items())
        lines.append(f"    {table_name} = {{{table}}}")
    lines.append(f"    return {entry}")
    return "\n".join(lines) + "\n"


def load(fmt: str, closed: Closed, compiler: Compiler) -> FastCheck:
    """The fast check that ``make generate`` wrote for format ``fmt`` in mode ``closed``,
    bound to ``compiler`` (the same mode's) for the nodes it leaves to the reference."""
    # By name: kimi_raw (generated) is outside import-linter's root, and a process loads
    # only the modes it checks.
    module = importlib.import_module(f"kimi_raw._contract.{fmt}_fast_{MODES[closed]}")
    check: FastCheck = module.build(
        compiler.compile, Fail, has_lone_surrogate, _MISSING, _FailingDict, ecma_pattern,
        near_typos,
    )  # fmt: skip
    return check


def _literal(value: Any) -> str:
    """``value`` (JSON data) as a Python literal."""
    return repr(value)


def _frozenset(values: Any) -> str:
    """A frozenset of strings as deterministic source (sorted: a set's order varies)."""
    return f"frozenset({sorted(values)!r})"


_TYPE_CHECK = re.compile(r"( *)if type\((\w+)\) not in (\(\w+,\)): raise Fail")


def _without_implied_checks(lines: list[str]) -> list[str]:
    """``lines`` with each type check that a neighbouring line already implies made a
    ``pass``: inside a branch taken on that very type (``if type(p) in (str,):``), or
    right before a fixed-value check that also fails for any other type. Measured: ~10%
    of the check of a 200-turn history (one such line per message and per block)."""
    out = list(lines)
    for n, line in enumerate(lines):
        match = _TYPE_CHECK.fullmatch(line)
        if match is None or n == 0:
            continue
        pad, var, types = match.groups()
        before = lines[n - 1].strip()
        after = lines[n + 1] if n + 1 < len(lines) else ""
        in_branch = lines[n - 1].startswith(pad[:-4] + before) and before in (
            f"if type({var}) in {types}:", f"elif type({var}) in {types}:",
        )  # fmt: skip
        fixed = types == "(str,)" and after.startswith(
            f"{pad}if type({var}) is not str or {var} not in "
        )
        if in_branch or fixed:
            out[n] = f"{pad}pass"
    return out


class _FailingDict(dict[Any, Any]):
    """A tag table whose unknown tags fail the fast check."""

    def __missing__(self, key: Any) -> Any:
        raise Fail
