"""The wire facts a Format uses (where the history, its instructions and the output limit go,
what ends a stream, which events are typed, whether custom tools exist) are read from the
spec through the derived contract; nothing in kimi_ext keeps a copy of them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from ruamel.yaml import YAML

from kimi_ext._core.contract import Contract
from kimi_ext.formats import format_named
from kimi_ext.messages.stream import MessagesStreamEvent
from kimi_ext.responses.stream import ResponsesStreamEvent
from tests.support.paths import ROOT

FORMATS = ("chat", "messages", "responses")


def spec(fmt: str) -> dict[str, Any]:
    loaded: dict[str, Any] = YAML(typ="safe", pure=True).load(
        (ROOT / "openapi" / f"{fmt}.yaml").read_text("utf-8")
    )
    return loaded


def derive_script() -> ModuleType:
    found = importlib.util.spec_from_file_location(
        "derive_contract_under_test", ROOT / "scripts" / "derive_contract.py"
    )
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module


def edited(tmp_path: Path, fmt: str, change: Any) -> Path:
    """A copy of the spec of ``fmt`` with ``change(data)`` applied."""
    yaml = YAML(typ="rt")
    data = yaml.load((ROOT / "openapi" / f"{fmt}.yaml").read_text("utf-8"))
    change(data)
    out = tmp_path / f"{fmt}.yaml"
    with out.open("w", encoding="utf-8") as fh:
        yaml.dump(data, fh)
    return out


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_reads_its_fields_and_terminal_events_from_its_spec(fmt: str) -> None:
    data, wire = spec(fmt), format_named(fmt)
    assert wire.history_field == data["x-kimi-history-field"]
    assert wire.system_field == data.get("x-kimi-system-field")
    assert wire.output_limit_field == data["x-kimi-output-limit-field"]
    assert wire.terminal_events == frozenset(data["x-kimi-terminal-events"])
    request = data["components"]["schemas"][wire.contract.data["request"]]["properties"]
    for name in (wire.history_field, wire.system_field, wire.output_limit_field):
        assert name is None or name in request


def test_the_facts_follow_an_edited_spec(tmp_path: Path) -> None:
    def change(data: Any) -> None:
        data["x-kimi-output-limit-field"] = "max_tokens"
        data["x-kimi-terminal-events"] = ["[END]"]

    derived = derive_script().derive(edited(tmp_path, "chat", change))
    edited_contract = Contract(json.loads(json.dumps(derived)))
    assert edited_contract.output_limit_field == "max_tokens"
    assert edited_contract.terminal_events == frozenset({"[END]"})
    assert format_named("chat").output_limit_field == "max_completion_tokens"  # committed


def test_a_fact_naming_a_field_the_request_lacks_is_refused(tmp_path: Path) -> None:
    def change(data: Any) -> None:
        data["x-kimi-history-field"] = "conversation"

    with pytest.raises(SystemExit, match="x-kimi-history-field 'conversation'"):
        derive_script().derive(edited(tmp_path, "messages", change))


def test_custom_tools_follow_the_tool_union(tmp_path: Path) -> None:
    assert [format_named(f).custom_tools for f in FORMATS] == [False, False, True]

    def change(data: Any) -> None:
        tools = data["components"]["schemas"]["RequestTool"]
        tools["oneOf" if "oneOf" in tools else "anyOf"] = [
            m for m in tools.get("oneOf", tools.get("anyOf")) if "ApplyPatch" not in m["$ref"]
        ]

    derived = derive_script().derive(edited(tmp_path, "responses", change))
    assert "custom" not in derived["tool_types"]
    assert "custom" in format_named("responses").contract.tool_types


def union_types(fmt: str, union: str) -> tuple[set[str], set[str]]:
    """(typed, unrecorded) ``type`` constants of the members of a stream-event union."""
    schemas = spec(fmt)["components"]["schemas"]
    typed, unrecorded = set(), set()
    for member in schemas[union]["anyOf"]:
        schema = schemas[member["$ref"].rsplit("/", 1)[-1]]
        const = schema.get("properties", {}).get("type", {}).get("const")
        if const is not None:
            (unrecorded if schema.get("x-kimi-unrecorded") else typed).add(const)
    return typed, unrecorded


@pytest.mark.parametrize(
    ("fmt", "union", "event"),
    [
        ("messages", "MessageStreamEvent", MessagesStreamEvent),
        ("responses", "ResponseStreamEvent", ResponsesStreamEvent),
    ],
)
def test_the_typed_events_are_the_spec_union_but_the_unrecorded(
    fmt: str, union: str, event: type[Any]
) -> None:
    typed, unrecorded = union_types(fmt, union)
    assert set(event._models) == typed
    assert not set(event._models) & unrecorded


def test_events_the_old_table_left_out_are_typed_and_unrecorded_ones_stay_dicts() -> None:
    part = {"type": "summary_text", "text": ""}
    added = ResponsesStreamEvent(
        "response.reasoning_summary_part.added",
        {
            "type": "response.reasoning_summary_part.added",
            "item_id": "rs_1",
            "output_index": 0,
            "summary_index": 0,
            "part": part,
        },
    )
    assert type(added.parsed).__name__ == "ResponseReasoningSummaryPartAddedEvent"
    assert added.parsed.to_dict() == added.data
    queued = {"type": "response.queued", "response": {"id": "r", "status": "queued"}}
    assert ResponsesStreamEvent("response.queued", queued).parsed is queued
