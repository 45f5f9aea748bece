"""Standard JSON Schema 2020-12 validators built straight from openapi/*.yaml.

These are independent of kimi_ext: the YAML is read here, component refs are pointed at
``$defs``, and the ``jsonschema`` package validates. The contract tests compare kimi_ext's
own compiled validator and the stand-in against these.
"""

from __future__ import annotations

import functools
from typing import Any

import jsonschema
from ruamel.yaml import YAML

from tests.support.paths import ROOT

FORMATS = ("chat", "messages", "responses")


def _plain(node: Any) -> Any:
    if isinstance(node, dict):
        out = {str(k): _plain(v) for k, v in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            out["$ref"] = "#/$defs/" + ref.removeprefix("#/components/schemas/")
        return out
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


@functools.cache
def spec(fmt: str) -> dict[str, Any]:
    """The OpenAPI document of ``fmt`` as plain JSON values."""
    text = (ROOT / "openapi" / f"{fmt}.yaml").read_text("utf-8")
    data: dict[str, Any] = _plain(YAML(typ="safe").load(text))
    return data


def operation(fmt: str) -> dict[str, Any]:
    """The one operation of the spec."""
    ((_, item),) = spec(fmt)["paths"].items()
    ((_, op),) = item.items()
    result: dict[str, Any] = op
    return result


def component_of(schema: dict[str, Any]) -> str:
    return str(schema["$ref"]).removeprefix("#/$defs/")


def request_component(fmt: str) -> str:
    return component_of(operation(fmt)["requestBody"]["content"]["application/json"]["schema"])


def response_component(fmt: str) -> str:
    return component_of(operation(fmt)["responses"]["200"]["content"]["application/json"]["schema"])


def event_component(fmt: str) -> str:
    return component_of(
        operation(fmt)["responses"]["200"]["content"]["text/event-stream"]["schema"]
    )


@functools.cache
def validator(fmt: str, component: str) -> jsonschema.Draft202012Validator:
    """A standard validator for one component schema of ``fmt``'s spec."""
    schema = {"$ref": f"#/$defs/{component}", "$defs": spec(fmt)["components"]["schemas"]}
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def request_validator(fmt: str) -> jsonschema.Draft202012Validator:
    return validator(fmt, request_component(fmt))


def all_errors(errors: Any) -> list[jsonschema.ValidationError]:
    """Every error, with the errors inside oneOf / anyOf / if branches flattened in."""
    out: list[jsonschema.ValidationError] = []
    for error in errors:
        out.append(error)
        out.extend(all_errors(error.context or ()))
    return out
