"""parse(): a schema that is not a valid JSON Schema, or a structured-output field that
cannot hold one, is refused before the request is sent (issue 30: parse(schema={"type": 5})
sent the request, paid, then raised a raw TypeError)."""

from __future__ import annotations

from typing import Any

import pytest

from kimi_ext import AsyncKimi, Kimi, RequestValidationError
from kimi_ext.testing import KimiStandIn
from tests.support.history import MODEL, aclient, client, standin, standin_server

_ = (aclient, client, standin, standin_server)  # fixtures

FORMATS = ("chat", "messages", "responses")


def deep(depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


def request(fmt: str, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"model": MODEL, **extra}
    if fmt == "responses":
        out["input"] = "Weather?"
    else:
        out["messages"] = [{"role": "user", "content": "Weather?"}]
    if fmt == "messages":
        out["max_tokens"] = 500
    return out


def resource(c: Any, fmt: str) -> Any:
    return {"chat": c.chat.completions, "messages": c.messages, "responses": c.responses}[fmt]


BAD_SCHEMAS = [
    ({"type": 5}, r"is not a valid JSON Schema: 5 is not valid .* \(at schema\['type'\]\)"),
    (
        {"type": "object", "properties": 5},
        r"is not a valid JSON Schema: 5 is not of type 'object' \(at schema\['properties'\]\)",
    ),
    ({"type": "object", "required": "city"}, r"\(at schema\['required'\]\)"),
    (deep(600), r"is nested too deeply to be checked as a JSON Schema"),
]


@pytest.mark.parametrize(("schema", "problem"), BAD_SCHEMAS)
@pytest.mark.parametrize("fmt", FORMATS)
async def test_an_invalid_schema_is_refused_before_sending(
    fmt: str,
    schema: dict[str, Any],
    problem: str,
    client: Kimi,
    aclient: AsyncKimi,
    standin: KimiStandIn,
) -> None:
    with pytest.raises(RequestValidationError, match=problem) as info:
        resource(client, fmt).parse(schema=schema, **request(fmt))
    assert info.value.field == "schema"
    with pytest.raises(RequestValidationError, match=problem):
        await resource(aclient, fmt).parse(schema=schema, **request(fmt))
    assert standin.requests == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_name_that_is_not_a_str_is_refused_before_sending(
    fmt: str, client: Kimi, standin: KimiStandIn
) -> None:
    with pytest.raises(RequestValidationError, match=r"name=5: must be a str or None"):
        resource(client, fmt).parse(schema={"type": "object"}, name=5, **request(fmt))
    assert standin.requests == []


@pytest.mark.parametrize(("fmt", "field"), [("messages", "output_config"), ("responses", "text")])
@pytest.mark.parametrize("value", [True, 5, "json", ["format"]])
def test_a_structured_output_field_that_is_not_an_object_is_refused_before_sending(
    fmt: str, field: str, value: Any, client: Kimi, standin: KimiStandIn
) -> None:
    with pytest.raises(RequestValidationError, match=f"{field}=.*: must be an object") as info:
        resource(client, fmt).parse(schema={"type": "object"}, **request(fmt, **{field: value}))
    assert info.value.field == field
    assert standin.requests == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_valid_schema_still_goes_out(fmt: str, client: Kimi, standin: KimiStandIn) -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    extra = {"output_config": {"effort": "high"}} if fmt == "messages" else {}
    parsed = resource(client, fmt).parse(schema=schema, **request(fmt, **extra))
    assert isinstance(parsed.value, dict) and isinstance(parsed.value["city"], str)
    assert len(standin.requests) == 1
    if fmt == "messages":  # the other fields of output_config are kept
        assert standin.last_request.json["output_config"]["effort"] == "high"
