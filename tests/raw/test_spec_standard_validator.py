"""Every fixture (the reference documents' examples and the project's own payloads) is
valid for its spec under a standard JSON Schema 2020-12 validator, with no special
reading of unions: each union is unambiguous (a value matches exactly one ``oneOf``
member; response unions are ``anyOf`` whose catch-all excludes the known types).

Requests also get the same verdict from kimi_ext's contract validator.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from ruamel.yaml import YAML

from kimi_ext._core.contract import Violation, contract
from tests.support.paths import ROOT
from tests.support.responses_requests import REQUEST_BODIES as RESPONSES_REQUESTS

FIXTURES = ROOT / "tests" / "fixtures"
FORMATS = ("chat", "messages", "responses")
SCHEMA = {
    "chat": {
        "request": "CreateChatCompletionRequest",
        "response": "ChatCompletion",
        "error": "ErrorResponse",
        "stream": "ChatCompletionChunk",
    },
    "messages": {
        "request": "CreateMessageRequest",
        "response": "MessageResponse",
        "error": "ErrorResponse",
        "stream": "MessageStreamEvent",
    },
    "responses": {
        "request": "CreateResponseRequest",
        "response": "ResponseObject",
        "error": "ErrorResponse",
        "stream": "ResponseStreamEvent",
    },
}


def _spec(fmt: str) -> dict[str, Any]:
    loaded: dict[str, Any] = YAML(typ="safe", pure=True).load(
        (ROOT / "openapi" / f"{fmt}.yaml").read_text("utf-8")
    )
    return loaded


SPECS = {fmt: _spec(fmt) for fmt in FORMATS}


def validator(fmt: str, name: str) -> jsonschema.Draft202012Validator:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": f"#/components/schemas/{name}",
        "components": SPECS[fmt]["components"],
    }
    return jsonschema.Draft202012Validator(schema)


def sse_payloads(text: str) -> list[Any]:
    out = []
    for line in text.splitlines():
        if line.startswith("data:"):
            data = line[5:].strip()
            if data and data != "[DONE]":
                out.append(json.loads(data))
    return out


def cases() -> list[tuple[str, str, str, Any]]:
    found = []
    for fmt in FORMATS:
        for path in sorted((FIXTURES / fmt).iterdir()):
            kind = path.name.split("_", 1)[0]
            if path.suffix == ".sse":
                for n, payload in enumerate(sse_payloads(path.read_text("utf-8"))):
                    is_error = fmt == "chat" and "error" in payload
                    found.append(
                        (fmt, "error" if is_error else "stream", f"{path.name}#{n}", payload)
                    )
            elif kind in ("request", "response", "error"):
                found.append((fmt, kind, path.name, json.loads(path.read_text("utf-8"))))
    return found


CASES = cases()
# Responses has no request fixture files: its request examples live in its raw tests.
# apply_patch_tool exercises the raw parser with shapes the service refuses (apply_patch
# declared twice, a forced named tool): checked below as refused by both validators.
RAW_ONLY = ("apply_patch_tool",)
CASES += [
    ("responses", "request", f"REQUEST_BODIES[{name}]", body)
    for name, body in sorted(RESPONSES_REQUESTS.items())
    if name not in RAW_ONLY
]


def test_the_fixtures_cover_every_kind() -> None:
    assert {(f, k) for f, k, _, _ in CASES} == {
        (f, k) for f in FORMATS for k in ("request", "response", "error", "stream")
    }


@pytest.mark.parametrize(
    ("fmt", "kind", "name", "payload"), CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES]
)
def test_fixture_is_valid_for_a_standard_validator(
    fmt: str, kind: str, name: str, payload: Any
) -> None:
    errors = list(validator(fmt, SCHEMA[fmt][kind]).iter_errors(payload))
    assert not errors, [f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors]
    if kind == "request":
        contract(fmt).check(payload)  # the client's own validator agrees


@pytest.mark.parametrize(
    ("fmt", "body", "path", "deeper"),
    [
        ("messages", {"tools": [{"type": "file_search"}]}, ("tools", 0), ("type",)),
        ("responses", {"tools": [{"type": "file_search"}]}, ("tools", 0), ("type",)),
        (
            "messages",
            {"messages": [{"role": "user", "content": [{"type": "video", "data": "x"}]}]},
            ("messages", 0, "content"),
            (0, "type"),
        ),
    ],
)
def test_undocumented_request_members_are_refused_by_both(
    fmt: str, body: dict[str, Any], path: tuple[Any, ...], deeper: tuple[Any, ...]
) -> None:
    """The standard validator fails the union at ``path``; ours names the member's tag."""
    base: dict[str, Any] = {"model": "kimi-k3.1-pro", "max_tokens": 8, "input": "Hi"}
    base = {k: v for k, v in base.items() if k in contract(fmt).fields}
    if fmt == "messages":
        base["messages"] = [{"role": "user", "content": "Hi"}]
    request = {**base, **body}
    errors = list(validator(fmt, SCHEMA[fmt]["request"]).iter_errors(request))
    assert errors
    assert any(tuple(e.absolute_path)[: len(path)] == path for e in errors)
    with pytest.raises(Violation) as info:
        contract(fmt).check(request)
    assert info.value.path == (*path, *deeper)


@pytest.mark.parametrize("name", RAW_ONLY)
def test_raw_only_bodies_are_refused_by_both(name: str) -> None:
    body = RESPONSES_REQUESTS[name]
    assert list(validator("responses", SCHEMA["responses"]["request"]).iter_errors(body))
    with pytest.raises(Violation):
        contract("responses").check(body)
