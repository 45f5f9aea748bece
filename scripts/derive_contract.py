"""Derive the machine-readable request contract of one spec (run by scripts/generate.sh).

    python scripts/derive_contract.py openapi/chat.yaml OUT_DIR/_contract/chat.json

The output is what kimi_ext's validation and the stand-in read: the request body's JSON
Schema (2020-12, every component under ``$defs``), the top-level field set, the documented
defaults, the typed stream events, the tool types, and the spec's ``x-kimi-*`` extensions
(models and their rules, effort levels and aliases, body limit, history and output-limit
fields, terminal events). Nothing here is written by hand elsewhere: change the spec, run
``make generate``, and every consumer follows. The output is deterministic (sorted keys).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

REF_PREFIX = "#/components/schemas/"


def _plain(node: Any) -> Any:
    """ruamel's round-trip types as plain JSON values, with component refs re-pointed."""
    if isinstance(node, dict):
        out = {str(k): _plain(v) for k, v in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith(REF_PREFIX):
            out["$ref"] = "#/$defs/" + ref[len(REF_PREFIX) :]
        return out
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if isinstance(node, bool | int | float | str) or node is None:
        return node
    return str(node)


def _resolve(defs: dict[str, Any], schema: Any) -> Any:
    while isinstance(schema, dict) and "$ref" in schema:
        schema = defs[schema["$ref"].removeprefix("#/$defs/")]
    return schema


def _type_const(defs: dict[str, Any], member: Any) -> Any:
    """The ``type`` constant of a union member (None without one)."""
    schema = _resolve(defs, member)
    prop = _resolve(defs, schema.get("properties", {}).get("type", {}))
    return prop.get("const") if isinstance(prop, dict) else None


def _members(defs: dict[str, Any], schema: Any) -> list[Any]:
    schema = _resolve(defs, schema)
    return list(schema.get("oneOf") or schema.get("anyOf") or [schema])


def _stream_events(defs: dict[str, Any], union: str | None) -> dict[str, str]:
    """Event type -> model of the stream union's members kimi_ext types: each member with a
    ``type`` constant, except those marked ``x-kimi-unrecorded`` (their shape is not yet
    confirmed by a recorded stream; they stay dicts)."""
    if union is None:
        return {}
    out = {}
    for member in _members(defs, defs[union]):
        const = _type_const(defs, member)
        if const is not None and not _resolve(defs, member).get("x-kimi-unrecorded"):
            out[const] = member["$ref"].removeprefix("#/$defs/")
    return out


def _tool_types(defs: dict[str, Any], request: dict[str, Any]) -> list[str]:
    """The ``type`` constants of the tools a request may declare."""
    tools = _resolve(defs, request.get("properties", {}).get("tools", {}))
    if "items" not in tools:
        return []
    consts = (_type_const(defs, m) for m in _members(defs, tools["items"]))
    return sorted(c for c in consts if c is not None)


def _check_fields(extensions: dict[str, Any], request: dict[str, Any], spec_path: Path) -> None:
    # A misspelt field name in an extension would only show as a request without history.
    for key in ("history-field", "system-field", "output-limit-field"):
        name = extensions.get(key)
        if name is not None and name not in request.get("properties", {}):
            raise SystemExit(f"{spec_path}: x-kimi-{key} {name!r} is not a request field")
    for name in extensions.get("client-values", {}):
        if name not in request.get("properties", {}):
            raise SystemExit(f"{spec_path}: x-kimi-client-values {name!r} is not a request field")


def _schema_fields(defs: dict[str, Any], request: dict[str, Any]) -> list[dict[str, Any]]:
    """Where the request carries a JSON Schema of the user's (``x-kimi-mfjs: <role>``): each
    place as a path from the body (``*``: every item of an array; through ``$ref``, unions
    and conditionals), with its role, in the spec's order, once each."""
    found: dict[tuple[str, ...], str] = {}

    def walk(node: Any, path: tuple[str, ...], seen: frozenset[str]) -> None:
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.removeprefix("#/$defs/")
            if name not in seen:
                walk(defs[name], path, seen | {name})
        role = node.get("x-kimi-mfjs")
        if isinstance(role, str):
            found.setdefault(path, role)
        for key in ("oneOf", "anyOf", "allOf"):
            for member in node.get(key, []):
                walk(member, path, seen)
        for key in ("if", "then", "else"):
            walk(node.get(key), path, seen)
        for name, sub in node.get("properties", {}).items():
            walk(sub, (*path, name), seen)
        walk(node.get("items"), (*path, "*"), seen)

    walk(request, (), frozenset())
    return [{"path": list(path), "role": role} for path, role in found.items()]


def derive(spec_path: Path) -> dict[str, Any]:
    spec = _plain(YAML(typ="rt").load(spec_path.read_text(encoding="utf-8")))
    ((path, item),) = spec["paths"].items()
    ((method, operation),) = item.items()
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    request_name = body["$ref"].removeprefix("#/$defs/")
    defs = spec["components"]["schemas"]
    request = defs[request_name]
    defaults = {}
    for name, prop in request.get("properties", {}).items():
        resolved = _resolve(defs, prop)
        if isinstance(resolved, dict) and "default" in resolved:
            defaults[name] = resolved["default"]
    headers = {
        p["name"]: p["schema"].get("default")
        for p in operation.get("parameters", [])
        if p.get("in") == "header"
    }
    # What the service refuses a request without (the client sends every header above).
    required_headers = sorted(
        p["name"]
        for p in operation.get("parameters", [])
        if p.get("in") == "header" and p.get("required")
    )
    stream_events = (
        operation["responses"]["200"]["content"].get("text/event-stream", {}).get("schema")
    )
    extensions = {k.removeprefix("x-kimi-"): v for k, v in spec.items() if k.startswith("x-kimi-")}
    _check_fields(extensions, request, spec_path)
    stream_union = stream_events["$ref"].removeprefix("#/$defs/") if stream_events else None
    # What the service sends: a request schema also reachable from here can carry received
    # content (kimi_ext lets such content in a plain history list go back as it came).
    response_name = operation["responses"]["200"]["content"]["application/json"]["schema"][
        "$ref"
    ].removeprefix("#/$defs/")
    return {
        "format": spec_path.stem,
        "title": spec["info"]["title"],
        "method": method.upper(),
        "path": path,
        "headers": headers,
        "required_headers": required_headers,
        "request": request_name,
        "fields": sorted(request.get("properties", {})),
        "required": sorted(request.get("required", [])),
        "defaults": defaults,
        "response": response_name,
        "stream_event": stream_union,
        "stream_events": _stream_events(defs, stream_union),
        "tool_types": _tool_types(defs, request),
        "schema_fields": _schema_fields(defs, request),
        "extensions": extensions,
        # The keys are sorted on output; this keeps the spec's order (the current model first).
        "known_models": list(extensions.get("models", {})),
        "schema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": f"#/$defs/{request_name}",
            "$defs": defs,
        },
    }


LOADER = '''"""Request contracts derived from openapi/*.yaml by `make generate`. Do not edit.

Each <format>.json holds the request body's JSON Schema (2020-12), its top-level fields,
defaults and the spec's x-kimi-* extensions. kimi_ext and its stand-in read these.
"""

import json
from functools import cache
from importlib.resources import files
from typing import Any


@cache
def load(fmt: str) -> dict[str, Any]:
    """The derived contract of one format ("chat", "messages" or "responses")."""
    text = files(__name__).joinpath(f"{fmt}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data
'''


def main(argv: list[str]) -> int:
    if argv[1] == "--loader":
        Path(argv[2]).parent.mkdir(parents=True, exist_ok=True)
        Path(argv[2]).write_text(LOADER, encoding="utf-8")
        return 0
    spec_path, out_path = Path(argv[1]), Path(argv[2])
    out_path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(derive(spec_path), indent=1, sort_keys=True, ensure_ascii=False)
    out_path.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
