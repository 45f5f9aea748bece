"""Schemas Moonshot's rules refuse, and requests carrying them, for the tests of the client
and of the stand-in (issue 31)."""

from __future__ import annotations

from typing import Any

from tests.support.client import minimal

# Refused by the service as written ("when using anyOf, type should be defined in anyOf
# items instead of the parent schema"); the same values pass the rewritten form.
TYPE_BESIDE_ANYOF: dict[str, Any] = {
    "type": "object",
    "properties": {"unit": {"type": "string", "anyOf": [{"enum": ["c"]}, {"enum": ["f"]}]}},
    "required": ["unit"],
}
# Accepts nothing a rewrite could keep: "a" is required but may not be there.
UNFIXABLE: dict[str, Any] = {
    "type": "object",
    "properties": {},
    "required": ["a"],
    "additionalProperties": False,
}
SERVICE_WORDS = "is not a valid moonshot flavored json schema, details: <At path "


def with_tool(fmt: str, schema: dict[str, Any]) -> dict[str, Any]:
    if fmt == "chat":
        tool = {"type": "function", "function": {"name": "f", "parameters": schema}}
    elif fmt == "messages":
        tool = {"name": "f", "input_schema": schema}
    else:
        tool = {"type": "function", "name": "f", "parameters": schema}
    return minimal(fmt, tools=[tool])
