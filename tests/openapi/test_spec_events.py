"""Every stream event (and Messages delta) type the client handles is documented in its
spec, as a member of the stream-event union (so a standard validator checks it and the
union's catch-all excludes it)."""

from __future__ import annotations

import ast
import re
from typing import Any

import pytest
from ruamel.yaml import YAML

from tests.support.paths import ROOT


def spec(fmt: str) -> dict[str, Any]:
    loaded: dict[str, Any] = YAML(typ="safe", pure=True).load(
        (ROOT / "openapi" / f"{fmt}.yaml").read_text("utf-8")
    )
    return loaded


def member_types(fmt: str, union: str) -> set[str]:
    schemas = spec(fmt)["components"]["schemas"]
    out = set()
    for member in schemas[union]["anyOf"]:
        schema = schemas[member["$ref"].rsplit("/", 1)[-1]]
        const = schema.get("properties", {}).get("type", {}).get("const")
        if const is not None:
            out.add(const)
    return out


def handled(module: str, pattern: str) -> set[str]:
    """The string constants of a kimi_ext module that look like event types."""
    # The stream module and the events module it shares with its Format (terminal events).
    paths = [ROOT / "kimi_ext" / module, ROOT / "kimi_ext" / module.replace("stream", "events")]
    trees = [ast.parse(path.read_text("utf-8")) for path in paths]
    return {
        node.value
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.fullmatch(pattern, node.value)
    }


@pytest.mark.parametrize(
    ("fmt", "union", "module", "pattern"),
    [
        ("responses", "ResponseStreamEvent", "responses/stream.py", r"response\.[a-z_.]+|error"),
        (
            "messages",
            "MessageStreamEvent",
            "messages/stream.py",
            r"message_(start|delta|stop)|content_block_(start|delta|stop)|ping|error",
        ),
        ("messages", "ContentBlockDelta", "messages/stream.py", r"[a-z_]+_delta"),
    ],
)
def test_every_event_type_the_client_handles_is_in_the_spec(
    fmt: str, union: str, module: str, pattern: str
) -> None:
    types = handled(module, pattern)
    if union == "ContentBlockDelta":
        types -= {"content_block_delta", "message_delta"}  # event names, not delta types
    assert types, "the pattern finds the handled types"
    assert types <= member_types(fmt, union), sorted(types - member_types(fmt, union))
    unknown = spec(fmt)["components"]["schemas"]
    catch_all = unknown[union]["anyOf"][-1]["$ref"].rsplit("/", 1)[-1]
    assert set(unknown[catch_all]["not"]["properties"]["type"]["enum"]) == member_types(fmt, union)
