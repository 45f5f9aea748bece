"""Moonshot's schema rules on the way out: a JSON Schema the request carries (tool
parameters, an output schema) is rewritten into the rules when it breaks them and can be
rewritten losslessly (``schemas="normalize"``, the default), or refused before sending
(``schemas="refuse"``); one that cannot be rewritten is refused either way. The stand-in
refuses like the service."""

from __future__ import annotations

import copy
import logging
from typing import Any

import pytest

from kimi_ext import AsyncKimi, ClientConfigError, Kimi, RequestValidationError
from kimi_ext.testing import KimiStandIn, Reply
from tests.support.client import acreate, create, minimal
from tests.support.schemas import SERVICE_WORDS, TYPE_BESIDE_ANYOF, UNFIXABLE, with_tool


def sent_tool_schema(fmt: str, body: dict[str, Any]) -> Any:
    tool = body["tools"][0]
    return {"chat": lambda: tool["function"]["parameters"],
            "messages": lambda: tool["input_schema"],
            "responses": lambda: tool["parameters"]}[fmt]()  # fmt: skip


def with_output_schema(fmt: str, schema: dict[str, Any]) -> dict[str, Any]:
    if fmt == "chat":
        extra = {"response_format": {"type": "json_schema",
                                     "json_schema": {"name": "out", "schema": schema}}}  # fmt: skip
    elif fmt == "messages":
        extra = {"output_config": {"format": {"type": "json_schema", "schema": schema}}}
    else:
        extra = {"text": {"format": {"type": "json_schema", "name": "out", "schema": schema}}}
    return minimal(fmt, **extra)


FORMATS = ["chat", "messages", "responses"]


@pytest.fixture
def standin() -> Any:
    with KimiStandIn() as server:
        yield server


def client_of(server: KimiStandIn, **options: Any) -> Kimi:
    return Kimi(api_key=server.api_key, base_url=server.base_url, fallback_base_url=None,
                **options)  # fmt: skip


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_fixable_tool_schema_is_sent_rewritten_and_the_callers_dict_is_unchanged(
    standin: KimiStandIn, fmt: str, caplog: pytest.LogCaptureFixture
) -> None:
    params = with_tool(fmt, TYPE_BESIDE_ANYOF)
    before = copy.deepcopy(params)
    with client_of(standin) as client, caplog.at_level(logging.DEBUG, logger="kimi_ext"):
        create(client, fmt, **params)
    assert params == before  # nothing of the caller's changed
    sent = sent_tool_schema(fmt, standin.requests[-1].json)
    unit = sent["properties"]["unit"]
    assert "type" not in unit and all(b["type"] == "string" for b in unit["anyOf"])
    assert any("rewrote the JSON Schema at tools[0]" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("fmt", FORMATS)
def test_refuse_names_the_field_in_the_services_words_and_sends_nothing(
    standin: KimiStandIn, fmt: str
) -> None:
    with (
        client_of(standin, schemas="refuse") as client,
        pytest.raises(RequestValidationError) as info,
    ):
        create(client, fmt, **with_tool(fmt, TYPE_BESIDE_ANYOF))
    assert info.value.field.startswith("tools[0].")
    assert SERVICE_WORDS + "'properties.unit': when using anyOf" in info.value.rule
    assert standin.requests == []


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("schemas", ["normalize", "refuse"])
def test_a_schema_no_rewrite_can_save_is_refused_either_way(
    standin: KimiStandIn, fmt: str, schemas: str
) -> None:
    with (
        client_of(standin, schemas=schemas) as client,
        pytest.raises(RequestValidationError, match="required property 'a' is not defined"),
    ):
        create(client, fmt, **with_tool(fmt, UNFIXABLE))
    assert standin.requests == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_output_schemas_are_held_to_the_rules_too(standin: KimiStandIn, fmt: str) -> None:
    tuple_schema = {
        "type": "object",
        "properties": {
            "pair": {"type": "array", "prefixItems": [{"type": "integer"}], "items": False}
        },
    }
    with (
        client_of(standin, schemas="refuse") as client,
        pytest.raises(RequestValidationError, match="items must be an object"),
    ):
        create(client, fmt, **with_output_schema(fmt, tuple_schema))
    assert standin.requests == []
    standin.queue(Reply(text='{"pair": [1]}'))
    with client_of(standin) as client:
        create(client, fmt, **with_output_schema(fmt, tuple_schema))
    assert len(standin.requests) == 1  # rewritten, and the stand-in took it


async def test_the_async_client_rewrites_too(standin: KimiStandIn) -> None:
    async with AsyncKimi(
        api_key=standin.api_key, base_url=standin.base_url, fallback_base_url=None
    ) as client:
        await acreate(client, "messages", **with_tool("messages", TYPE_BESIDE_ANYOF))
        with pytest.raises(RequestValidationError):
            await acreate(client, "messages", **with_tool("messages", UNFIXABLE))
    assert len(standin.requests) == 1


def test_each_schema_is_checked_once_while_it_is_unchanged(
    standin: KimiStandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kimi_ext._core.contract import mfjs

    # The stand-in (in this process) checks what it receives, new objects on every request:
    # only looks at the caller's own schema objects count.
    seen: list[int] = []
    real_check, real_normalize = mfjs.check, mfjs.normalize

    def counting_check(schema: Any, role: str = "tool-parameters") -> Any:
        seen.append(id(schema))
        return real_check(schema, role)

    def counting_normalize(schema: Any, role: str = "tool-parameters") -> Any:
        seen.append(id(schema))
        return real_normalize(schema, role)

    monkeypatch.setattr(mfjs, "check", counting_check)
    monkeypatch.setattr(mfjs, "normalize", counting_normalize)
    schemas = [{"type": "object", "properties": {f"p{i}": {"type": "string"}}} for i in range(30)]
    tools = [{"name": f"t{i}", "input_schema": s} for i, s in enumerate(schemas)]
    mine = set(map(id, schemas))

    def looks() -> int:
        return sum(1 for i in seen if i in mine)

    with client_of(standin) as client:
        client.messages.create(**minimal("messages", tools=tools))
        first = looks()
        assert mine <= set(seen)  # each schema was looked at
        for _ in range(3):  # and not again while unchanged
            client.messages.create(**minimal("messages", tools=tools))
        assert looks() == first
        schemas[0]["properties"]["p0"]["type"] = "integer"  # changed in place: checked again
        client.messages.create(**minimal("messages", tools=tools))
        assert looks() > first
    assert standin.requests[-1].json["tools"][0]["input_schema"]["properties"]["p0"] == {
        "type": "integer"
    }


@pytest.mark.parametrize("bad", ["fix", None, 1])
def test_the_option_is_checked_at_construction(bad: Any) -> None:
    with pytest.raises(ClientConfigError, match=r'schemas=.*must be "normalize" or "refuse"'):
        Kimi(api_key="k", schemas=bad)
    with pytest.raises(ClientConfigError, match="schemas="):
        AsyncKimi(api_key="k", schemas=bad)
