"""Structured output: put a JSON Schema in the right field, then validate and parse the answer.

    result = client.messages.parse(schema=Weather, model="kimi-k3.1-pro", max_tokens=512,
                                   messages=[{"role": "user", "content": "Weather in Paris?"}])
    result.value      # a Weather instance, validated against its schema
    result.result     # the Message it came from (usage, reasoning, ...)

``schema`` is a JSON Schema dict, a dataclass, a TypedDict, or a pydantic v2 model (or any
type pydantic's ``TypeAdapter`` handles that contains one, e.g. ``list[City]``; pydantic is
the optional ``kimi-ext[pydantic]`` extra). The answer is validated with ``jsonschema``,
then decoded (:func:`kimi_ext._type_schema.build_value`): dataclasses are built and
TypedDicts filled wherever they are nested (``City | None``, ``dict[str, City]``, recursive
types), enums become members, sets and tuples are rebuilt; pydantic types are validated by
pydantic. An answer cut off by the output-token limit raises StructuredOutputError with
``truncated=True`` instead of a confusing JSON error; every StructuredOutputError carries
the ``result`` and its ``usage``, so failed answers' tokens can be counted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from kimi_ext._core.call.format import Format
from kimi_ext._core.contract.arguments import checked
from kimi_ext._core.model.result import Result
from kimi_ext._type_schema import build_value, schema_from_type
from kimi_ext.errors import RequestValidationError, StructuredOutputError
from kimi_ext.formats import format_named

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

T = TypeVar("T")


@dataclass(frozen=True)
class Structured(Generic[T]):
    """A validated structured answer and the result it came from."""

    value: T
    result: Result


def resolve_schema(schema: Any) -> dict[str, Any]:
    """A JSON Schema dict from a dict (as given), or from a dataclass, TypedDict or pydantic
    type (in the form Moonshot's schema rules accept: a lossless rewrite of what the type
    gives, see kimi_ext.schemas)."""
    if isinstance(schema, dict):
        return schema
    try:
        derived = schema_from_type(schema)
    except TypeError as exc:
        raise RequestValidationError("schema", schema, str(exc)) from None
    from kimi_ext._core.contract import mfjs

    return mfjs.normalize(derived, "output-schema")[0]


def schema_problem(schema: dict[str, Any], cls: type[Validator] | None = None) -> str | None:
    """Why ``schema`` is not a valid JSON Schema (by the metaschema of ``cls``, default
    2020-12, the draft :func:`parse_result` validates with), or None when it is."""
    from jsonschema import Draft202012Validator, exceptions

    try:
        (cls or Draft202012Validator).check_schema(schema)
    except exceptions.SchemaError as exc:
        where = "".join(f"[{p!r}]" for p in exc.absolute_path)
        return f"is not a valid JSON Schema: {exc.message}" + (
            f" (at schema{where})" if where else ""
        )
    except RecursionError:
        return "is nested too deeply to be checked as a JSON Schema"
    return None


def schema_name(schema: Any) -> str:
    """The name sent with the schema: the type's name, a dict's ``title``, else "output"."""
    name = (
        getattr(schema, "__name__", None) if not isinstance(schema, dict) else schema.get("title")
    )
    return str(name or "output")


@checked(RequestValidationError)
def place_schema(
    fmt: Format[Any, Any, Any] | str,
    params: dict[str, Any],
    schema: Any,
    *,
    name: str | None = None,
) -> dict[str, Any]:
    """``params`` with the schema placed in the format's structured-output field.

    Raises RequestValidationError (nothing is sent) when the schema is not a valid JSON
    Schema: the answer could not be checked against it."""
    json_schema = resolve_schema(schema)
    problem = schema_problem(json_schema)
    if problem is not None:
        raise RequestValidationError("schema", schema, problem)
    return format_named(fmt).place_schema(dict(params), json_schema, name or schema_name(schema))


def parse_result(result: Result, schema: Any) -> Structured[Any]:
    """Validate the text of ``result`` against ``schema`` and decode it.

    Every StructuredOutputError raised carries ``result`` and its ``usage``."""
    text = result.text
    if result._cut_by_output_limit():
        raise StructuredOutputError(
            "structured output was truncated at the output-token limit "
            f"({len(text)} characters received); raise the limit and retry",
            text=text,
            truncated=True,
            result=result,
        )
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise StructuredOutputError(
            f"the answer is not valid JSON: {exc}", text=text, result=result
        ) from None
    import jsonschema

    json_schema = resolve_schema(schema)
    validator = jsonschema.Draft202012Validator(json_schema)
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path) or "(root)"
        raise StructuredOutputError(
            f"the answer does not match the schema at {where}: {first.message}",
            text=text,
            result=result,
        )
    if not isinstance(schema, dict):
        try:
            value = build_value(schema, value)
        except ValueError as exc:  # pydantic's ValidationError (a model validator, say)
            raise StructuredOutputError(
                f"the answer does not match {schema_name(schema)}{_first_error(exc)}",
                text=text,
                result=result,
            ) from None
    return Structured(value=value, result=result)


def _first_error(exc: ValueError) -> str:
    """The first problem of a pydantic ValidationError (its location and message), or the
    error's text."""
    details = getattr(exc, "errors", None)
    if callable(details):
        first = details()[0]
        where = "/".join(str(p) for p in first.get("loc", ())) or "(root)"
        return f" at {where}: {first.get('msg')}"
    return f": {exc}"
