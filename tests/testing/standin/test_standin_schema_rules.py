"""The stand-in refuses a JSON Schema that Moonshot's validator refuses at its strict level,
with the service's 400 and words, in each format; ``schema_rules="off"`` takes any, as an
older endpoint did."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from kimi_ext.testing import KimiStandIn
from tests.support.client import PATHS
from tests.support.schemas import SERVICE_WORDS, TYPE_BESIDE_ANYOF, with_tool


def post(server: KimiStandIn, fmt: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(
        server.base_url.rstrip("/").removesuffix("/v1") + PATHS[fmt],
        json=body,
        headers={"Authorization": f"Bearer {server.api_key}"},
    )


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_a_refused_schema_gets_the_services_400(fmt: str) -> None:
    with KimiStandIn() as server:
        reply = post(server, fmt, with_tool(fmt, TYPE_BESIDE_ANYOF))
    assert reply.status_code == 400
    message = reply.json()["error"]["message"]
    assert message.startswith("Invalid request: tools.") and SERVICE_WORDS in message
    assert "when using anyOf, type should be defined in anyOf items" in message


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_schema_rules_off_takes_the_schema_and_still_checks_the_rest(fmt: str) -> None:
    with KimiStandIn(schema_rules="off") as server:
        assert post(server, fmt, with_tool(fmt, TYPE_BESIDE_ANYOF)).status_code == 200
        broken = with_tool(fmt, TYPE_BESIDE_ANYOF)
        broken["model"] = 7  # the rest of the body is checked as before
        assert post(server, fmt, broken).status_code in (400, 404)
        assert len(server.requests) == 2


def test_schema_rules_takes_only_its_two_values() -> None:
    with pytest.raises(ValueError, match="schema_rules must be 'strict' or 'off'"):
        KimiStandIn(schema_rules="lite")  # type: ignore[arg-type]
