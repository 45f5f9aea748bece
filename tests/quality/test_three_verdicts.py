"""Property: the client's validation, the stand-in and a standard JSON Schema validator of
the spec give the same verdict on drawn request bodies, valid ones and ones with one
value replaced, and name the same place.

What may differ, by design: rules no JSON Schema can state (``x-kimi-*``: UTF-8 byte
limits, unique tool names, model rules, typed tool properties, JSON mode's prompt,
partial mode on the last message) and integers written as floats (``1.0``) are refused by
the client and the stand-in only; the
stand-in alone answers 404 for a model the spec does not list and checks the replayed
history (tool-call pairing, reasoning on tool-call turns, thinking signatures).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from quality_helpers import ROOT, json_values
from ruamel.yaml import YAML
from test_validation_properties import VALID

from kimi_ext._core.validation import validate
from kimi_ext.errors import RequestValidationError
from kimi_ext.testing.rules import ServiceError, check_chat, check_messages, check_responses

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
REQUEST = {
    "chat": "CreateChatCompletionRequest",
    "messages": "CreateMessageRequest",
    "responses": "CreateResponseRequest",
}
# Rule texts of the x-kimi-* extensions (a standard validator cannot see these).
EXTENSION_RULES = (
    "UTF-8 bytes",
    "must be unique",
    "type is not defined",
    "accepts only effort",
    "is supported only by",
    "JSON mode",
    "final assistant",
    "the request body may be at most",
)
# What only the service checks (the replayed history) and its 404 for unknown models.
STANDIN_ONLY = (
    "is not found",
    "reasoning_content is missing",
    "No tool output found",
    "No tool call found",
    "Invalid `signature`",
    "signature: Field required",
)


def _validator(fmt: str) -> jsonschema.Draft202012Validator:
    spec = YAML(typ="safe", pure=True).load((ROOT / "openapi" / f"{fmt}.yaml").read_text())
    return jsonschema.Draft202012Validator(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": f"#/components/schemas/{REQUEST[fmt]}",
            "components": spec["components"],
        }
    )


VALIDATORS = {fmt: _validator(fmt) for fmt in REQUEST}


def standin_check(fmt: str, body: dict[str, Any]) -> ServiceError | None:
    try:
        if fmt == "chat":
            check_chat(body)
        elif fmt == "messages":
            check_messages(body, {"anthropic-version": "2023-06-01"}, lambda t, s: True)
        else:
            check_responses(body)
    except ServiceError as exc:
        return exc
    return None


def client_check(fmt: str, body: dict[str, Any]) -> RequestValidationError | None:
    try:
        validate(fmt, body)
    except RequestValidationError as exc:
        return exc
    return None


def schema_errors(fmt: str, body: Any) -> list[jsonschema.ValidationError]:
    return list(VALIDATORS[fmt].iter_errors(body))


def error_paths(errors: list[jsonschema.ValidationError]) -> Iterator[tuple[Any, ...]]:
    """Every path a standard validator names, the members' errors of a union included."""
    for error in errors:
        yield tuple(error.absolute_path)
        yield from error_paths(list(error.context or ()))


def dotted(path: tuple[Any, ...], style: str) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]" if style == "python" else f".{part}"
        else:
            out += f".{part}" if out else part
    return out


def parts(field: str) -> tuple[Any, ...]:
    """``messages[0].content`` as ``("messages", 0, "content")``: only a bracketed piece is
    a list index (an object key may be ``"0"`` too: ``properties.0``)."""
    out: list[Any] = []
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", field):
        out.append(int(index) if index else name)
    return tuple(out)


def plain(params: dict[str, Any], fmt: str) -> dict[str, Any]:
    """A drawn valid call as a wire body: no "not given" Nones, no tool messages (their
    pairing is a history rule of the service, not a schema rule)."""
    body = {k: copy.deepcopy(v) for k, v in params.items() if v is not None}
    if fmt == "chat":
        body["messages"] = [m for m in body["messages"] if m.get("role") != "tool"]
    return body


def locations(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in ``node`` whose value can be replaced (not the root)."""
    if path:
        yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from locations(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from locations(value, (*path, i))


def replaced(body: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(body)
    node: Any = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
@SETTINGS
@given(data=st.data())
def test_valid_bodies_pass_all_three(fmt: str, data: st.DataObject) -> None:
    body = plain(data.draw(VALID[fmt]), fmt)
    assert schema_errors(fmt, body) == []
    assert client_check(fmt, body) is None
    assert standin_check(fmt, body) is None


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
@SETTINGS
@given(data=st.data())
def test_mutated_bodies_get_the_same_verdict_and_path(fmt: str, data: st.DataObject) -> None:
    body = plain(data.draw(VALID[fmt], label="valid"), fmt)
    where = data.draw(st.sampled_from(list(locations(body))), label="where")
    value = data.draw(json_values, label="value")
    body = replaced(body, where, value)

    errors = schema_errors(fmt, body)
    client = client_check(fmt, body)
    standin = standin_check(fmt, body)

    if errors:
        # A body the spec refuses: the client refuses it, at a place the standard
        # validator names too (it stops at a union; the client names the member's field).
        assert client is not None, [e.message for e in errors]
        named = parts(client.field)
        # A conditional rule (if tool_choice is required then tools..., top_logprobs needs
        # logprobs) is named by the field that brings it; the standard validator names the
        # field that then fails.
        conditional = any(
            "then" in e.schema_path or "dependentSchemas" in e.schema_path for e in errors
        )
        assert conditional or any(named[: len(p)] == p for p in error_paths(errors)), (
            client.field,
            sorted(set(error_paths(errors))),
        )
    elif client is not None:
        # JSON Schema counts 1.0 as an integer; the contract does not (the service parses
        # integers strictly: see kimi_ext/_core/contract/schema.py).
        strict_integer = isinstance(client.value, float) and "integer" in client.rule
        assert strict_integer or any(rule in client.rule for rule in EXTENSION_RULES), str(client)

    if client is None:
        if standin is not None:  # only what the service alone checks
            unknown_model = standin.status == 404 and where == ("model",)
            assert unknown_model or any(s in standin.message for s in STANDIN_ONLY), standin.message
        return
    # The stand-in refuses it too, naming the same field in its family's style.
    assert standin is not None, str(client)
    if standin.status == 404:
        assert where == ("model",)
        return
    style = "python" if fmt != "messages" else "dotted"
    field = dotted(parts(client.field), style)
    if fmt == "messages":
        assert standin.message.startswith(f"{field}: ") or field in standin.message, (
            standin.message,
            str(client),
        )
    else:
        assert standin.param == field or field in standin.message, (standin.message, str(client))
