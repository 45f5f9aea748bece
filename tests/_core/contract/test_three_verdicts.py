"""Property: the client's validation, the stand-in and a standard JSON Schema validator of
the spec give the same verdict on request bodies, valid ones and ones with one value
replaced or one key removed, and name the same place.

The bodies come from two sources, each with its own properties below:

- drawn from the spec's request schemas (:class:`drawing.Drawer`): every shape the schema
  allows, histories no client would build included;
- the hand-written strategies of valid calls (``VALID`` in
  tests/quality/test_validation_properties.py): realistic calls whose history the service
  accepts, so all three must let them through.

What may differ, by design: rules no JSON Schema can state (``x-kimi-*``: UTF-8 byte
limits, unique tool names, model rules, Moonshot's schema rules, JSON mode's prompt,
partial mode on the last message) and integers written as floats (``1.0``) are refused by
the client and the stand-in only; the stand-in alone answers 404 for a model the spec does
not list and checks the replayed history (tool-call pairing, reasoning on tool-call turns,
thinking signatures). A body that only an extension refuses is recognised by its rule
text; everything JSON Schema can say must agree.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kimi_ext._core.contract import Violation, contract
from kimi_ext._core.contract.validation import validate
from kimi_ext.errors import RequestValidationError
from kimi_ext.testing.rules import ServiceError, check_chat, check_messages, check_responses
from tests.support.drawing import Drawer, mutated
from tests.support.robustness import json_values
from tests.support.spec import FORMATS, all_errors, request_component, request_validator, spec
from tests.support.valid_requests import VALID

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)
# Rule texts of the x-kimi-* extensions (a standard validator cannot see these). JSON
# mode's and partial mode's rules are matched by either of two pieces of their sentence.
# The client refuses an unknown key inside an object the user wrote (its own policy).
UNKNOWN_KEY = "is not a field of this object"
MFJS = "is not a valid moonshot flavored json schema"
EXTENSION_RULES = (
    "UTF-8 bytes", "must be unique", MFJS, "accepts only effort",
    "is supported only by", "JSON mode", "asks for JSON", "final assistant", "partial mode",
    "request body may be at most", "a tool output needs its call", UNKNOWN_KEY,
)  # fmt: skip
# What only the service checks (the replayed history) and its 404 for unknown models.
STANDIN_ONLY = (
    "is not found",
    "reasoning_content is missing",
    "No tool output found",
    "No tool call found",
    "Invalid `signature`",
    "signature: Field required",
)
# Bodies drawn from the schema also carry histories no client builds (thinking blocks
# where they are not allowed, repeated ids, arguments that are not JSON): history rules too.
DRAWN_HISTORY_RULES = (
    *STANDIN_ONLY,
    "No tool output", "No tool call", "signature", "blocks are not allowed", "is duplicated",
    "not valid JSON",
)  # fmt: skip


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


def contract_check(fmt: str, body: dict[str, Any]) -> Violation | None:
    """The contract's own verdict (a path tuple), without the client's unknown-field rule."""
    try:
        contract(fmt).check(body)
    except Violation as exc:
        return exc
    return None


def client_check(fmt: str, body: dict[str, Any]) -> RequestValidationError | None:
    """The public ``validate`` (a dotted field name), as a caller meets it."""
    try:
        validate(fmt, body)
    except RequestValidationError as exc:
        return exc
    return None


def _client_path(fmt: str, body: dict[str, Any]) -> tuple[Any, ...] | None:
    """The path of the client's violation as a tuple (None: refused for an unknown
    top-level field, which the contract's check does not cover)."""
    try:
        contract(fmt).check(body, closed=True)
    except Violation as exc:
        return exc.path
    return None


def schema_errors(fmt: str, body: Any) -> list[jsonschema.ValidationError]:
    """The standard validator's errors (a union's members' errors are in their context)."""
    return list(request_validator(fmt).iter_errors(body))


def is_extension_rule(rule: str) -> bool:
    return any(r in rule for r in EXTENSION_RULES)


def is_drawn_history_rule(err: ServiceError) -> bool:
    """Rules about the conversation as a whole, which only the service (stand-in) checks."""
    return err.status == 404 or any(s in err.message for s in DRAWN_HISTORY_RULES)


# ------------------------------------------------------------------ bodies from the schema


def drawn_bodies(fmt: str) -> st.SearchStrategy[dict[str, Any]]:
    drawer = Drawer(spec(fmt)["components"]["schemas"])
    check = request_validator(fmt)
    known = contract(fmt).known_models

    def fix(body: dict[str, Any]) -> dict[str, Any]:
        body["model"] = known[0] if body.get("model") not in known else body["model"]
        return body

    strategy = drawer.draw({"$ref": f"#/$defs/{request_component(fmt)}"}).map(fix)
    return strategy.filter(check.is_valid)


@pytest.mark.parametrize("fmt", FORMATS)
def test_drawn_bodies_pass_everywhere(fmt: str) -> None:
    @SETTINGS
    @given(drawn_bodies(fmt))
    def run(body: dict[str, Any]) -> None:
        client = contract_check(fmt, body)
        if client is not None:
            assert is_extension_rule(client.rule), (client.path, client.rule)
            return
        standin = standin_check(fmt, body)
        assert standin is None or is_drawn_history_rule(standin), standin.message

    run()


@pytest.mark.parametrize("fmt", FORMATS)
def test_mutated_drawn_bodies_get_the_same_verdict_and_path(fmt: str) -> None:
    @SETTINGS
    @given(drawn_bodies(fmt).flatmap(mutated))
    def run(case: tuple[dict[str, Any], tuple[Any, ...]]) -> None:
        body, _where = case
        errors = all_errors(schema_errors(fmt, body))
        client = contract_check(fmt, body)
        if not errors:
            assert client is None or is_extension_rule(client.rule), (client.path, client.rule)
            return
        assert client is not None, [(list(e.absolute_path), e.message) for e in errors]
        if is_extension_rule(client.rule):
            return  # also refused by an extension, which may come first
        named = {tuple(e.absolute_path) for e in errors}
        # A missing key is named at the key (kimi_ext) or at its object (jsonschema).
        assert client.path in named or client.path[:-1] in named, (client.path, named)
        standin = standin_check(fmt, body)
        assert standin is not None
        assume(not is_drawn_history_rule(standin))

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
    @given(drawn_bodies(fmt).flatmap(lambda b: st.one_of(st.just((b, ())), mutated(b))))
    def run(case: tuple[dict[str, Any], tuple[Any, ...]]) -> None:
        body, _ = case
        assert contract(fmt).fast_check(body) == _reference_ok(fmt, body)

    run()


# ------------------------------------------------------------------ valid calls


def dotted(path: tuple[Any, ...], style: str) -> str:
    """``messages[0].content`` (python style) or ``messages.0.content``: the test's own
    spelling, apart from kimi_ext's format_path (which the stand-in uses), of a path from
    :func:`parts` (a key first, no empty names)."""
    pieces = [f"[{p}]" if isinstance(p, int) and style == "python" else f".{p}" for p in path]
    return "".join(pieces).removeprefix(".")


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


@pytest.mark.parametrize("fmt", FORMATS)
@SETTINGS
@given(data=st.data())
def test_valid_calls_pass_all_three(fmt: str, data: st.DataObject) -> None:
    body = plain(data.draw(VALID[fmt]), fmt)
    assert schema_errors(fmt, body) == []
    assert client_check(fmt, body) is None
    assert standin_check(fmt, body) is None


@pytest.mark.parametrize("fmt", FORMATS)
@SETTINGS
@given(data=st.data())
def test_mutated_valid_calls_get_the_same_verdict_and_field(fmt: str, data: st.DataObject) -> None:
    valid = plain(data.draw(VALID[fmt], label="valid"), fmt)
    body, where = data.draw(mutated(valid, json_values, removals=False), label="mutated")

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
        paths = {tuple(e.absolute_path) for e in all_errors(errors)}
        assert conditional or any(named[: len(p)] == p for p in paths), (
            client.field,
            sorted(paths),
        )
    elif client is not None:
        # JSON Schema counts 1.0 as an integer; the contract does not (the service parses
        # integers strictly: see kimi_ext/_core/contract/schema.py).
        strict_integer = isinstance(client.value, float) and "integer" in client.rule
        assert strict_integer or is_extension_rule(client.rule), str(client)

    if client is None:
        if standin is not None:  # only what the service alone checks
            unknown_model = standin.status == 404 and where == ("model",)
            assert unknown_model or any(s in standin.message for s in STANDIN_ONLY), standin.message
        return
    if UNKNOWN_KEY in client.rule and (standin is None or standin.status == 404):
        # The client's own policy, like an unknown top-level field: what the service does
        # with an unknown nested key is not documented, so the stand-in keeps to the schema
        # as written. (An unknown key close to a required key that is missing is refused by
        # both, naming that key: checked below.)
        return
    # The stand-in refuses it too, naming the same field in its family's style.
    assert standin is not None, str(client)
    if standin.status == 404:
        assert where == ("model",)
        return
    style = "python" if fmt != "messages" else "dotted"
    # From the contract's own path: a key may hold brackets or dots (a drawn property
    # named "[0"), which the field string cannot tell apart from an index.
    field = dotted(_client_path(fmt, body) or parts(client.field), style)
    if MFJS in standin.message:
        # The service's schema refusal names the field without indexes
        # ("Invalid request: tools.input_schema is not a valid ...").
        named = ".".join(p for p in (_client_path(fmt, body) or ()) if isinstance(p, str))
        assert f"Invalid request: {named} {MFJS}" in standin.message, (standin.message, named)
        return
    if fmt == "messages":
        assert standin.message.startswith(f"{field}: ") or field in standin.message, (
            standin.message,
            str(client),
        )
    else:
        assert standin.param == field or field in standin.message, (standin.message, str(client))


@pytest.mark.parametrize("fmt", FORMATS)
@SETTINGS
@given(data=st.data())
def test_the_fast_check_and_the_reference_validator_agree_on_valid_calls(
    fmt: str, data: st.DataObject
) -> None:
    """As above, on the valid calls and on them with any JSON value at one place."""
    valid = plain(data.draw(VALID[fmt], label="valid"), fmt)
    mutation = mutated(valid, json_values, removals=True)
    body, _ = data.draw(st.one_of(st.just((valid, ())), mutation), label="body")
    assert contract(fmt).fast_check(body) == _reference_ok(fmt, body)


@pytest.mark.parametrize(
    "body",
    [
        # A union member that adds a request-only rule beside its $ref (ContentBlockParam's
        # TextBlock: no blank text): the fast check once used the shared component alone.
        {"model": "kimi-k3.1-pro", "max_tokens": 8, "messages": [{"role": "user", "content": [{"type": "text", "text": ""}]}]},
        {"model": "kimi-k3.1-pro", "max_tokens": 8, "messages": [{"role": "user", "content": [{"type": "text", "text": " \n"}]}]},
        {"model": "kimi-k3.1-pro", "max_tokens": 8, "system": [{"type": "text", "text": ""}], "messages": [{"role": "user", "content": "hi"}]},
    ],
)  # fmt: skip
def test_the_fast_check_keeps_a_union_members_own_rules(body: dict[str, Any]) -> None:
    assert not _reference_ok("messages", body)
    assert contract("messages").fast_check(body) is False
