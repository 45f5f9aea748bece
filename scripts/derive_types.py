"""Derive the TypedDicts of one spec's JSON bodies (run by scripts/generate.sh).

    python scripts/derive_types.py openapi/chat.yaml OUT_DIR/chat/typeddicts.py

Two families of TypedDicts come out of the spec's component schemas, one class per object
schema and one alias per union:

* **Requests** (``<Component>Param``): everything the request body reaches, nested shapes
  included (messages, content blocks, tools, tool_choice ...), and ``<Format>CreateFields``,
  the body fields as keyword arguments (all optional, a top-level ``None`` meaning "not
  given"; ``stream`` is the client's own argument). Every object may also be a mapping
  built at run time (``dict[str, Any]``, typed :data:`RuntimeMapping`): a dict literal must
  match a TypedDict, so a misspelt or mistyped key is flagged, while
  ``list[dict[str, Any]]`` read from a file still passes.
* **Views** (``<Component>``): what the response and the stream events reach, as received.
  They type the JSON itself (nothing is copied or converted). A response union ends in the
  spec's catch-all member (``UnknownBlock`` ...): a ``total=False`` TypedDict whose
  ``type`` is any string. The union alias declares only the members the spec names, each
  with a Literal ``type``, so ``if block["type"] == "text":`` narrows to one member and
  gives its fields (mypy narrows a union of TypedDicts on a key only when every member's
  is a Literal). A value of another type still comes at run time: ``is_unknown_<union>``
  tells it and types it as the catch-all, readable as received. ``Known<Union>`` and
  ``is_known_<union>`` remain, for code that narrowed with them.

What JSON Schema says beyond shapes (patterns, limits, if/then, x-kimi-*) is checked at run
time by kimi_ext's validation; the types only carry names, required keys, literal values
and nesting. The output is deterministic (the spec's order).
"""

from __future__ import annotations

import keyword
import re
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

REF = "#/components/schemas/"
SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}


def _plain(node: Any) -> Any:
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", name))


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _doc(schema: dict[str, Any]) -> str | None:
    text = " ".join(str(schema.get("description", "")).split())
    if not text:
        return None
    first = re.split(r"(?<!e\.g\.)(?<!i\.e\.)(?<=\.)\s+(?=[A-Z`])", text, maxsplit=1)[0]
    return first.replace("\\", "\\\\").replace('"""', "'''")


def _walk(node: Any) -> Any:
    """Every schema object inside ``node``."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


class Deriver:
    """Walks the spec from the request body (requests) or the response and stream events
    (views), naming one class per object schema and one alias per union on the way."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.defs: dict[str, Any] = spec["components"]["schemas"]
        self.blocks: dict[str, list[str]] = {}  # emitted name -> lines, in order
        self.names: dict[tuple[str, str], str] = {}  # (family, component) -> emitted name
        self.aliases: dict[str, set[str]] = {}  # union alias -> the names it uses
        self.members = {  # the components a union tagged by ``type`` names as a member
            m["$ref"][len(REF) :]
            for schema in _walk(self.defs)
            if any(self.type_const(m) for m in schema.get("oneOf", []) + schema.get("anyOf", []))
            for m in schema.get("oneOf", []) + schema.get("anyOf", [])
            if isinstance(m, dict) and str(m.get("$ref", "")).startswith(REF)
        }

    # -- naming ---------------------------------------------------------------------------
    def name(self, component: str, family: str) -> str:
        if family == "request":
            return component if component.endswith("Param") else component + "Param"
        return component

    def is_catch_all(self, schema: dict[str, Any]) -> bool:
        """The spec's catch-all union member: an open object that names no properties, in a
        union (kept out of the known members by a ``not``, in a response union)."""
        return any(schema is self.defs[name] for name in self.members) and not schema.get(
            "properties"
        )

    def resolve(self, schema: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith(REF):
            name = ref[len(REF) :]
            return name, self.defs[name]
        return None, schema

    # -- annotations ----------------------------------------------------------------------
    def ann(self, schema: dict[str, Any], family: str, hint: str) -> str:
        """The annotation of one schema; ``hint`` names an inline object's class."""
        component, target = self.resolve(schema)
        if component is not None and self.is_object(target):
            if self.is_catch_all(target) and family == "request":
                return "RuntimeMapping"
            if not target.get("properties") and not self.is_catch_all(target):
                return self.ann_of_type("object", target, family, component)
            return self.emit_class(component, target, family) + self.escape(family)
        if component is not None and self.is_union(target):
            alias = self.emit_union(component, target, family)
            # Objects may come from run time too; a union of scalars stays as it is (a union
            # still being built, reached again through itself, counts as one of objects).
            names = self.aliases.get(alias)
            scalars = names is not None and not names & (self.blocks.keys() - self.aliases.keys())
            return alias + ("" if scalars else self.escape(family))
        schema = target
        parts: list[str] = []
        if "const" in schema:
            parts.append(f"Literal[{schema['const']!r}]")
        elif "enum" in schema:
            values = [v for v in schema["enum"] if v is not None]
            if values:
                parts.append("Literal[" + ", ".join(repr(v) for v in values) + "]")
            if None in schema["enum"]:
                parts.append("None")
        elif self.is_union(schema):
            members = schema.get("oneOf") or schema.get("anyOf")
            for i, member in enumerate(members):
                parts.extend(self.ann(member, family, f"{hint}{i}").split(" | "))
        else:
            types = schema.get("type")
            for kind in [types] if isinstance(types, str) else list(types or []):
                parts.append(self.ann_of_type(kind, schema, family, hint))
        if not parts:
            return "Any"
        unique = list(dict.fromkeys(parts))
        if "str" in unique:  # an enum or const beside plain str says no more than str
            unique = [p for p in unique if not p.startswith("Literal[")] or unique
        return " | ".join(unique)

    def ann_of_type(self, kind: str, schema: dict[str, Any], family: str, hint: str) -> str:
        if kind == "array":
            item = self.ann(schema.get("items", {}), family, hint + "Item")
            return f"Sequence[{item}]" if family == "request" else f"list[{item}]"
        if kind == "object":
            if schema.get("properties"):
                return self.emit_class(hint, schema, family) + self.escape(family)
            return "Mapping[str, Any]" if family == "request" else "dict[str, Any]"
        return SCALARS[kind]

    @staticmethod
    def escape(family: str) -> str:
        return " | RuntimeMapping" if family == "request" else ""

    @staticmethod
    def is_object(schema: dict[str, Any]) -> bool:
        return schema.get("type") == "object" and not Deriver.is_union(schema)

    @staticmethod
    def is_union(schema: dict[str, Any]) -> bool:
        return "oneOf" in schema or "anyOf" in schema

    # -- emission -------------------------------------------------------------------------
    def emit_class(self, component: str, schema: dict[str, Any], family: str) -> str:
        key = (family, component)
        if key in self.names:
            return self.names[key]
        name = self.name(component, family)
        if name in self.blocks:
            raise SystemExit(f"two schemas would both be named {name}")
        self.names[key] = name
        self.blocks[name] = []  # reserve the slot (a schema may reach itself)
        catch_all = self.is_catch_all(schema)
        required = set(schema.get("required", []))
        fields: list[tuple[str, str]] = []
        if catch_all:
            fields.append(("type", "str"))
        for prop, sub in schema.get("properties", {}).items():
            ann = self.ann(sub, family, name.removesuffix("Param") + _camel(prop))
            if catch_all:
                fields.append((prop, ann))
            elif prop in required:
                fields.append((prop, f"Required[{ann}]"))
            else:
                fields.append((prop, f"NotRequired[{ann}]"))
        total = ", total=False" if catch_all else ""
        doc = _doc(schema)
        if catch_all:
            doc = (doc or "") + " Its ``type`` is any string; its other keys are kept as received."
        if all(p.isidentifier() and not keyword.iskeyword(p) for p, _ in fields):
            lines = [f"class {name}(TypedDict{total}):"]
            if doc:
                lines.append(f'    """{doc.strip()}"""')
                lines += [""] if fields else []
            lines += [f"    {p}: {a}" for p, a in fields] or ([] if doc else ["    pass"])
        else:
            body = ", ".join(f"{p!r}: {a!r}" for p, a in fields)
            lines = [f"{name} = TypedDict({name!r}, {{{body}}}{total})"]
        self.blocks[name] = lines
        return name

    def emit_union(self, component: str, schema: dict[str, Any], family: str) -> str:
        key = (family, component)
        if key in self.names:
            return self.names[key]
        name = self.name(component, family)
        self.names[key] = name
        self.blocks[name] = []
        members = schema.get("oneOf") or schema.get("anyOf")
        parts: list[str] = []
        catch_all: list[str] = []
        for i, member in enumerate(members):
            # Each use of a request union adds RuntimeMapping once; its members do not.
            ann = self.ann(member, family, f"{name}{i}").replace(" | RuntimeMapping", "")
            _, target = self.resolve(member)
            if family == "view" and self.is_catch_all(target):
                catch_all.append(ann)
                continue
            parts.extend(p for p in ann.split(" | ") if p not in parts)
        doc = _doc(schema)
        lines = [f"{name}: TypeAlias = {' | '.join(parts)}"]
        if doc:
            lines.append(f'"""{doc}"""')
        if catch_all:
            # A view union with its catch-all: the alias declares the members the spec
            # names, each with a Literal ``type``, so testing ``value["type"]`` narrows to
            # one of them (a member whose ``type`` is any string would stop that). A value
            # of another type is still there at run time: ``is_unknown_*`` tells it and
            # types it as the catch-all, whose keys are readable as received.
            (unknown,) = catch_all
            snake, types_name = _snake(name), f"_{_snake(name).upper()}_TYPES"
            lines += [
                "",
                f"Known{name}: TypeAlias = {name}",
                f'"""{name} itself (kept for code that narrowed with ``is_known_{snake}``)."""',
                "",
                "",
                f"def is_unknown_{snake}(value: {name}) -> TypeGuard[{unknown}]:",
                f'    """True when ``value`` has a ``type`` the spec does not name for a {name}'
                " (it is then read as received, as a mapping); test it before narrowing on"
                ' ``type``."""',
                f"    return value.get('type') not in {types_name}",
                "",
                "",
                f"def is_known_{snake}(value: {name}) -> TypeGuard[Known{name}]:",
                f'    """True when ``value`` is one of the {name} members the spec names."""',
                f"    return value.get('type') in {types_name}",
            ]
            types = sorted(self.type_const(m) for m in members if self.type_const(m))
            lines.insert(0, f"{types_name} = frozenset({types!r})")
        self.blocks[name] = lines
        self.aliases[name] = set(re.findall(r"\w+", " ".join(parts)))
        return name

    def ordered(self) -> list[str]:
        """The classes in the order met, then the aliases, each after those it names: the
        aliases are evaluated at import (``typing.get_type_hints`` works on every class),
        the class annotations only when asked for."""
        order = [name for name in self.blocks if name not in self.aliases]
        placed: set[str] = set()

        def place(name: str) -> None:
            if name in placed:
                return
            placed.add(name)
            for other in sorted(self.aliases[name] & self.aliases.keys()):
                place(other)
            order.append(name)

        for name in self.aliases:
            place(name)
        return order

    def type_const(self, member: dict[str, Any]) -> str:
        _, target = self.resolve(member)
        prop = target.get("properties", {}).get("type", {})
        _, prop = self.resolve(prop)
        return str(prop.get("const", ""))


HEADER = '''"""TypedDicts of the JSON bodies of openapi/{fmt}.yaml ({title}).

Derived by scripts/derive_types.py. Do not edit: run `make generate`.

``*Param`` classes type what a request sends (nested shapes included, each object also
accepting a mapping built at run time); the other classes are views of what the service
sends, as received. See scripts/derive_types.py for the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NotRequired, Required, TypeAlias, TypedDict, TypeGuard


class RuntimeValue:
    """A value of a mapping built at run time (``dict[str, Any]``); no literal is one."""


RuntimeMapping: TypeAlias = Mapping[str, RuntimeValue]
"""A JSON object built at run time: ``dict[str, Any]`` fits; a dict literal does not (it
must match its TypedDict, so a misspelt key is flagged)."""
'''


def derive(spec_path: Path) -> str:
    spec = _plain(YAML(typ="safe").load(spec_path.read_text(encoding="utf-8")))
    fmt = spec_path.stem
    ((_, item),) = spec["paths"].items()
    ((_, operation),) = item.items()
    deriver = Deriver(spec)
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    _, request = deriver.resolve(body)
    # The keyword arguments: the body's fields, each optional, None meaning "not given".
    fields = []
    # Values kimi_ext replaces before sending (x-kimi-client-values: an output limit "auto").
    client_values: dict[str, list[str]] = spec.get("x-kimi-client-values", {})
    for prop, sub in request.get("properties", {}).items():
        if prop == "stream":
            continue
        ann = deriver.ann(sub, "request", "Create" + _camel(prop))
        if prop == "tools":  # kimi_ext also declares Python functions and kimi_ext.tool()s
            ann = ann.replace("Sequence[", "Sequence[Callable[..., Any] | ", 1)
        if prop in client_values:
            ann += " | Literal[" + ", ".join(repr(v) for v in client_values[prop]) + "]"
        fields.append(f"    {prop}: {ann} | None")
    create = _camel(fmt) + "CreateFields"
    deriver.blocks[create] = [
        f"class {create}(TypedDict, total=False):",
        f'    """The body fields of one ``{fmt}`` request, as keyword arguments."""',
        "",
        *fields,
    ]
    deriver.emit_class(body["$ref"][len(REF) :], request, "request")
    content = operation["responses"]["200"]["content"]
    for media in ("application/json", "text/event-stream"):
        if media in content:
            deriver.ann(content[media]["schema"], "view", "Response")
    blocks = ["\n".join(deriver.blocks[name]) for name in deriver.ordered()]
    title = spec["info"]["title"]
    return HEADER.format(title=title, fmt=fmt) + "\n\n" + "\n\n\n".join(blocks) + "\n"


def main(argv: list[str]) -> int:
    spec_path, out_path = Path(argv[1]), Path(argv[2])
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(derive(spec_path), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
