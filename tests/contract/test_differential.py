"""One verdict: kimi_ext's validation, the stand-in and a standard validator of the spec
agree on bodies drawn from the spec's request schemas, valid and mutated, and name the same
path.

The standard validator (``jsonschema``) does not know the ``x-kimi-*`` extensions, so a body
that only an extension refuses (a UTF-8 byte limit, a per-model rule, unique tool names...)
is recognised by its rule text and skipped; everything JSON Schema can say must agree.
"""

from __future__ import annotations

from typing import Any

import pytest
from drawing import Drawer, mutated
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from spec import FORMATS, all_errors, request_component, request_validator, spec

from kimi_ext._core.contract import Violation, contract
from kimi_ext.testing.rules import ServiceError, check_chat, check_messages, check_responses

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)

# Rule texts of the extensions (what a standard validator cannot know).
EXTENSION_RULES = (
    "UTF-8 bytes", "is supported only by", "accepts only effort", "must be unique",
    "type is not defined", "asks for JSON", "partial mode", "request body may be at most",
)  # fmt: skip


def _client(fmt: str, body: dict[str, Any]) -> Violation | None:
    try:
        contract(fmt).check(body)
    except Violation as exc:
        return exc
    return None


def _standin(fmt: str, body: dict[str, Any]) -> ServiceError | None:
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


def _is_history_rule(err: ServiceError) -> bool:
    """Rules about the conversation as a whole, which only the service (stand-in) checks."""
    text = err.message
    return err.status == 404 or any(
        s in text
        for s in (
            "reasoning_content is missing", "is not found", "No tool output", "No tool call",
            "signature", "blocks are not allowed", "is duplicated", "not valid JSON",
        )
    )  # fmt: skip


def _bodies(fmt: str) -> st.SearchStrategy[dict[str, Any]]:
    drawer = Drawer(spec(fmt)["components"]["schemas"])
    check = request_validator(fmt)
    known = contract(fmt).known_models

    def fix(body: dict[str, Any]) -> dict[str, Any]:
        body["model"] = known[0] if body.get("model") not in known else body["model"]
        return body

    strategy = drawer.draw({"$ref": f"#/$defs/{request_component(fmt)}"}).map(fix)
    return strategy.filter(check.is_valid)


@pytest.mark.parametrize("fmt", FORMATS)
def test_valid_bodies_pass_everywhere(fmt: str) -> None:
    @SETTINGS
    @given(_bodies(fmt))
    def run(body: dict[str, Any]) -> None:
        client = _client(fmt, body)
        if client is not None:
            assert any(r in client.rule for r in EXTENSION_RULES), (client.path, client.rule)
            return
        standin = _standin(fmt, body)
        assert standin is None or _is_history_rule(standin), standin.message

    run()


@pytest.mark.parametrize("fmt", FORMATS)
def test_mutated_bodies_get_the_same_verdict_and_path(fmt: str) -> None:
    check = request_validator(fmt)

    @SETTINGS
    @given(_bodies(fmt).flatmap(mutated))
    def run(case: tuple[dict[str, Any], tuple[Any, ...]]) -> None:
        body, _where = case
        errors = all_errors(check.iter_errors(body))
        client = _client(fmt, body)
        if not errors:
            assert client is None or any(r in client.rule for r in EXTENSION_RULES), (
                client.path,
                client.rule,
            )
            return
        assert client is not None, [(list(e.absolute_path), e.message) for e in errors]
        if any(r in client.rule for r in EXTENSION_RULES):
            return  # also refused by an extension, which may come first
        named = {tuple(e.absolute_path) for e in errors}
        # A missing key is named at the key (kimi_ext) or at its object (jsonschema).
        assert client.path in named or client.path[:-1] in named, (client.path, named)
        standin = _standin(fmt, body)
        assert standin is not None
        assume(not _is_history_rule(standin))

    run()


def _reference_ok(fmt: str, body: Any) -> bool:
    try:
        contract(fmt).reference_check(body)
    except Violation:
        return False
    return True


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_fast_check_and_the_reference_validator_agree(fmt: str) -> None:
    """The generated fast check is an optimization: on plain JSON values it gives exactly
    the reference validator's verdict (it may only be stricter on exotic Python types)."""

    @SETTINGS
    @given(_bodies(fmt).flatmap(lambda b: st.one_of(st.just((b, ())), mutated(b))))
    def run(case: tuple[dict[str, Any], tuple[Any, ...]]) -> None:
        body, _ = case
        assert contract(fmt).fast_check(body) == _reference_ok(fmt, body)

    run()
