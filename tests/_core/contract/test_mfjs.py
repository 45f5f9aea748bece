"""The MFJS engine (kimi_ext/_core/contract/mfjs.py) against the rules table and walle.

tests/fixtures/mfjs/cases.json is our own case table: schemas written from the MFJS rules
by the project (none taken from walle), each with the verdict and message walle 196bb0c
gave at its three levels, recorded with a local build. CI checks our engine against those
recorded answers; with WALLE_BIN set to a walle oracle (JSON lines in, one verdict per line
out) the last test also asks walle itself, on the case table and on the schemas the
normalizer produces.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from typing import Any

import pytest

from kimi_ext._core.contract import mfjs
from kimi_ext.errors import SchemaRejectedError
from tests.support.paths import FIXTURES, ROOT

CASES: list[dict[str, Any]] = json.loads((FIXTURES / "mfjs" / "cases.json").read_text("utf-8"))


def errors(schema: Any, role: str = "output-schema") -> list[mfjs.SchemaIssue]:
    return [i for i in mfjs.check(schema, role) if i.severity == "error"]


def warnings(schema: Any, role: str = "output-schema") -> list[mfjs.SchemaIssue]:
    return [i for i in mfjs.check(schema, role) if i.severity == "warning"]


# -- the table ------------------------------------------------------------------------------


def test_the_engine_implements_exactly_the_rule_ids_of_the_table() -> None:
    table = mfjs.rules()["rules"]
    source = (ROOT / "kimi_ext" / "_core" / "contract" / "mfjs.py").read_text("utf-8")
    named = set(re.findall(r'"([a-z][a-z0-9-]+)"', source))
    assert set(table) <= named, sorted(set(table) - named)
    # Every id the engine reports is in the table (the table is the one list of rules).
    reported = {i.rule for c in CASES for role in mfjs.ROLES for i in mfjs.check(c["schema"], role)}
    assert reported <= set(table), sorted(reported - set(table))


def test_the_table_is_compiled_from_the_yaml_and_documents_walle_and_the_limits() -> None:
    table = mfjs.rules()
    assert table["source"]["commit"] == "196bb0c" and table["source"]["level"] == "strict"
    assert table["limits"] == {
        "anyof-items": 500,
        "depth": 30,
        "enum-items": 1000,
        "enum-length-threshold": 2500,
        "enum-total-length": 75000,
        "schema-size-bytes": 120000,
        "total-properties": 3000,
    }
    assert table["documented-limits"] == {
        "anyof-items": 10,
        "depth": 5,
        "enum-values-total": 500,
        "total-properties": 100,
    }
    for rule in table["rules"].values():
        assert rule["at-strict"] in ("refuse", "warn")
        assert (rule["from"] == "ultra") <= (rule["at-strict"] == "warn")
    assert "{field}" in table["envelope"] and "{detail}" in table["envelope"]


# -- the recorded case table ----------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_verdict_and_the_message_agree_with_walle_strict(case: dict[str, Any]) -> None:
    found = errors(case["schema"])
    walle = case["walle"]["strict"]
    if walle == "accept":
        assert found == [], [i.message for i in found]
    else:
        assert walle in [i.message for i in found]


@pytest.mark.parametrize(
    "case",
    [c for c in CASES if c["walle"]["strict"] == "accept" and c["walle"]["ultra"] != "accept"],
    ids=lambda c: c["id"],
)
def test_what_only_ultra_refuses_is_a_warning(case: dict[str, Any]) -> None:
    assert errors(case["schema"]) == []
    assert case["walle"]["ultra"] in [i.message for i in warnings(case["schema"])]


def test_agreement_over_the_whole_table() -> None:
    verdicts = sum((c["walle"]["strict"] == "accept") == (not errors(c["schema"])) for c in CASES)
    messages = sum(
        c["walle"]["strict"] == "accept"
        or c["walle"]["strict"] in [i.message for i in errors(c["schema"])]
        for c in CASES
    )
    assert (verdicts, messages) == (len(CASES), len(CASES))


def test_the_tool_parameters_role_adds_only_the_root_object_rule() -> None:
    for case in CASES:
        schema = case["schema"]
        plain = {(i.rule, i.message) for i in errors(schema)}
        tool = {(i.rule, i.message) for i in errors(schema, "tool-parameters")}
        root_is_object = isinstance(schema, dict) and schema.get("type") == "object"
        extra = tool - plain
        assert extra == (set() if root_is_object or not isinstance(schema, dict) else extra)
        assert {rule for rule, _ in extra} <= {"tool-root-object"}, case["id"]


# -- every problem, walle's paths -----------------------------------------------------------


def test_every_problem_is_listed_not_only_the_first() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "anyOf": [{"type": "string"}]},
            "b": True,
            "c": {"enum": ["x"]},
        },
        "required": ["a", "z"],
    }
    found = {(i.path, i.rule) for i in errors(schema)}
    assert found == {
        ("properties.a", "type-beside-anyof"),
        ("properties.a", "anyof-parent-conflict"),  # type on both sides, too
        ("properties", "property-schema-object"),
        ("properties.c", "enum-needs-type"),
        ("required", "required-defined"),
    }


def test_paths_drop_anyof_indexes_and_pointers_keep_them() -> None:
    schema = {"properties": {"a": {"type": "string"}}, "anyOf": [{"required": ["a"]}]}
    (issue,) = errors(schema)
    assert issue.path == "anyOf.required"
    assert issue.pointer == ("anyOf", 0, "required")
    assert (
        issue.message
        == "At path 'anyOf.required': required property 'a' is not defined in properties"
    )


def test_a_required_list_that_never_ends_is_refused_at_the_array() -> None:
    schema = {
        "type": "object",
        "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}},
        "required": ["kids"],
    }
    (issue,) = errors(schema)
    assert issue.rule == "ref-termination"
    assert issue.pointer == ("properties", "kids", "items")


def test_a_ref_under_an_unsupported_keyword_is_still_checked_for_its_place() -> None:
    defs = {"A": {"type": "string"}}
    under_not = {
        "type": "object",
        "properties": {"a": {"not": {"$ref": "#/$defs/A"}}},
        "$defs": defs,
    }
    assert [i.rule for i in errors(under_not)] == ["ref-context"]
    # ...and so is its target: walle resolves it only from the root's $defs.
    missing = {"type": "object", "properties": {"a": {"not": {"$ref": "#/$defs/B"}}}, "$defs": defs}
    assert "At path 'root': invalid $ref path: #/$defs/B" in [i.message for i in errors(missing)]
    # Anything else under an unsupported keyword is not looked at.
    ignored = {"type": "object", "properties": {"a": {"oneOf": [{"type": "bogus"}]}}}
    assert errors(ignored) == []


def test_a_name_holding_braces_fools_walles_lookup_and_is_refused_as_walle_does() -> None:
    schema = {"type": "object", "properties": {"a{0}": {"type": "string", "enum": ["x"]}}}
    assert [i.message for i in errors(schema)] == [
        "At path 'properties.a{0}.enum': invalid path: properties.a{0}"
    ]


def test_enum_values_are_printed_as_go_prints_them() -> None:
    def message(value: Any) -> str:
        schema = {"type": "object", "properties": {"a": {"type": "string", "enum": [value]}}}
        (issue,) = errors(schema)
        return issue.message.split("(", 1)[1].rsplit(")", 1)[0]

    assert message(1000000) == "1e+06"
    assert message(123456) == "123456"
    assert message(2.5) == "2.5"
    assert message(1e-05) == "1e-05"
    assert message(True) == "true"
    assert message({"b": [1, None]}) == "map[b:[1 <nil>]]"


def test_a_root_that_is_not_an_object_is_a_parse_error_in_walles_words() -> None:
    assert [i.message for i in errors("x")] == [
        "JSON schema parsing error: JSON type error at offset 3: expected map[string]interface {} but got string"
    ]
    assert [i.message for i in errors(None)] == ["schema must be a dict"]
    assert [i.rule for i in errors([])] == ["root-object"]


# -- limits ---------------------------------------------------------------------------------


def test_the_size_is_measured_as_go_encodes_it() -> None:
    # Go escapes < > & as \\u003c...: 6 bytes each where Python's compact JSON has 1.
    near = 119_900 // 6
    schema = {"type": "object", "description": "<" * near}
    assert len(json.dumps(schema, separators=(",", ":"))) < 120_000 / 5
    assert [i.rule for i in errors(schema)] == []
    schema["description"] = "<" * (near + 30)
    assert [i.rule for i in errors(schema)] == ["schema-size"]


def test_documented_limits_are_warnings_only() -> None:
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(101)}}
    assert errors(wide) == []
    assert [i.rule for i in warnings(wide)] == ["documented-limit"]
    branches = {"anyOf": [{"type": "string", "maxLength": n} for n in range(11)]}
    assert [i.rule for i in warnings(branches)] == ["documented-limit"]


def test_untyped_subschemas_pass_with_a_warning() -> None:
    schema = {"type": "object", "properties": {"a": {}, "b": {"description": "free"}}}
    assert errors(schema) == []
    assert [(i.path, i.rule) for i in warnings(schema)] == [
        ("properties.a", "untyped-subschema"),
        ("properties.b", "untyped-subschema"),
    ]


# -- the tool-parameters root ---------------------------------------------------------------


def test_tool_parameters_want_an_object_root_unless_it_is_an_anyof_of_objects() -> None:
    assert [i.rule for i in errors({}, "tool-parameters")] == ["tool-root-object"]
    assert errors({}, "output-schema") == []
    assert [i.rule for i in errors({"properties": {}}, "tool-parameters")] == ["tool-root-object"]
    union = {"anyOf": [{"type": "object"}, {"type": "object", "properties": {}}]}
    assert errors(union, "tool-parameters") == []
    assert [i.rule for i in warnings(union, "tool-parameters")] == ["tool-root-object"]


def test_the_service_message_wraps_an_issue_in_the_envelope() -> None:
    (issue,) = errors({"type": "object", "properties": {"a": {"enum": ["x"]}}})
    assert mfjs.service_message(issue, "tools.function.parameters") == (
        "Invalid request: tools.function.parameters is not a valid moonshot flavored json "
        "schema, details: <At path 'properties.a': type is not defined>"
    )
    (root,) = errors({}, "tool-parameters")
    assert mfjs.service_message(root, "tools.function.parameters") == (
        'tools.function.parameters.type is required and must be "object"'
    )


# -- cache ----------------------------------------------------------------------------------


def test_the_cache_answers_by_content_and_is_not_shared_with_the_caller() -> None:
    schema = {"type": "object", "properties": {"a": {"enum": ["x"]}}}
    first = mfjs.check(schema)
    first.clear()
    again = mfjs.check({"properties": {"a": {"enum": ["x"]}}, "type": "object"})
    assert [i.rule for i in again] == ["enum-needs-type"]
    schema["properties"]["a"]["type"] = "string"  # a changed schema is a new entry
    assert mfjs.check(schema) == []


def test_a_schema_is_checked_as_it_goes_on_the_wire() -> None:
    # json.dumps sends a tuple as an array and an Enum member as its value.
    import enum

    class Mode(enum.StrEnum):
        AUTO = "auto"

    wire = {"type": "object", "properties": {"a": {"type": "string", "enum": ("x", Mode.AUTO)}}}
    assert errors(wire) == []
    assert [i.rule for i in errors({"type": "object", "properties": {"a": {"enum": {1}}}})] == [
        "enum-array"
    ]


# -- walle itself (opt-in) ------------------------------------------------------------------


def _ask_walle(binary: str, schemas: list[Any]) -> list[dict[str, Any]]:
    lines = "".join(json.dumps({"schema": s, "level": "strict"}) + "\n" for s in schemas)
    done = subprocess.run([binary], input=lines, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.skipif(
    not os.environ.get("WALLE_BIN"),
    reason="WALLE_BIN is not set: a walle oracle (JSON lines in/out) cannot be built in CI",
)
def test_walle_itself_agrees_on_the_cases_and_on_what_the_normalizer_makes() -> None:
    binary = os.environ["WALLE_BIN"]
    schemas = [c["schema"] for c in CASES]
    for schema, answer in zip(schemas, _ask_walle(binary, schemas), strict=True):
        found = errors(schema)
        assert answer["ok"] == (not found), schema
        if not answer["ok"]:
            assert answer["error"] in [i.message for i in found]
    made = []
    for schema in schemas:
        try:
            made.append(mfjs.normalize(schema, "output-schema")[0])
        except SchemaRejectedError:
            continue
    assert all(a["ok"] for a in _ask_walle(binary, made))
