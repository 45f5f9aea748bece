"""Suite-wide fixtures: the offline stand-in (also shipped as a pytest plugin), and a check
that every request body the suite sends through the kimi_ext client is valid for its
spec under a standard JSON Schema 2020-12 validator (not the client's own)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from ruamel.yaml import YAML

from kimi_ext.testing.pytest_plugin import kimi_standin

__all__ = ["kimi_standin"]

ROOT = Path(__file__).resolve().parents[1]
REQUEST = {
    "chat": "CreateChatCompletionRequest",
    "messages": "CreateMessageRequest",
    "responses": "CreateResponseRequest",
}
_validators: dict[str, jsonschema.Draft202012Validator] = {}


def spec_validator(fmt: str) -> jsonschema.Draft202012Validator:
    """A standard validator of the request schema of ``openapi/<fmt>.yaml``."""
    found = _validators.get(fmt)
    if found is None:
        spec = YAML(typ="safe", pure=True).load((ROOT / "openapi" / f"{fmt}.yaml").read_text())
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": f"#/components/schemas/{REQUEST[fmt]}",
            "components": spec["components"],
        }
        found = _validators[fmt] = jsonschema.Draft202012Validator(schema)
    return found


@pytest.fixture(autouse=True, scope="session")
def every_sent_body_is_valid_for_its_spec() -> Iterator[None]:
    """Wrap the client's request building: a body it would send must pass the spec.

    ``extra_body=`` sends fields on purpose, unchecked: a call that uses it to replace a
    documented field is not checked, one that only adds fields is checked without them.
    """
    import kimi_ext.client as client_module

    original = client_module.prepare

    def checked(endpoint: Any, params: Any, *, stream: bool = False) -> Any:
        prepared = original(endpoint, params, stream=stream)
        extra = dict(params.get("extra_body") or {})
        fmt = endpoint.name
        validator = spec_validator(fmt)
        documented = validator.schema["components"]["schemas"][REQUEST[fmt]]["properties"]
        if not any(key in documented for key in extra):
            body = {k: v for k, v in prepared.body.items() if k not in extra}
            errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
            if errors:
                shown = [f"{list(e.absolute_path)}: {e.message[:160]}" for e in errors[:3]]
                raise AssertionError(f"kimi_ext would send a {fmt} body its spec refuses: {shown}")
        return prepared

    client_module.prepare = checked
    try:
        yield
    finally:
        client_module.prepare = original
