"""JSON Schemas the Kimi service accepts: check and normalize them before sending.

Kimi checks every JSON Schema a request carries (a tool's parameters or input schema, a
structured-output schema) against its own dialect, Moonshot Flavored JSON Schema (MFJS),
with its validator walle at the ``strict`` level, and answers 400 for one it refuses:
``Invalid request: tools.function.parameters is not a valid moonshot flavored json schema,
details: <At path 'properties.a': type is not defined>``. The rules are written once, in
``openapi/mfjs.yaml`` (learnt from walle's documents, commit 196bb0c:
https://github.com/MoonshotAI/walle/blob/196bb0c/docs/mfjs-spec.md).

:func:`check_schema` lists every problem (the service names only one), each with its path,
rule and the service's words; ``"error"`` ones make the service refuse the schema,
``"warning"`` ones do not (a stricter level or an older endpoint may).

    >>> from kimi_ext.schemas import check_schema
    >>> bad = {"type": "object", "properties": {"a": {"type": "string", "anyOf": [{"maxLength": 3}]}}}
    >>> [i.message for i in check_schema(bad) if i.severity == "error"]
    ["At path 'properties.a': when using anyOf, type should be defined in anyOf items instead of the parent schema"]

:func:`normalize_schema` rewrites what can be rewritten without changing which values the
schema accepts, and says what it changed; what cannot be rewritten so is refused with
:class:`kimi_ext.SchemaRejectedError`, never dropped silently.

    >>> from kimi_ext.schemas import normalize_schema
    >>> fixed = normalize_schema(bad)
    >>> fixed.schema["properties"]["a"]
    {'anyOf': [{'maxLength': 3, 'type': 'string'}]}
    >>> [c.fix for c in fixed.changes]
    ['N1']

The role says what the schema is for: ``"tool-parameters"`` (a tool's parameters or
``input_schema``; the service also wants ``"type": "object"`` at its root) or
``"output-schema"`` (a structured-output schema). Both functions are cached by the schema's
content, so checking the same tool list on every call costs once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kimi_ext._core.contract import mfjs
from kimi_ext._core.contract.mfjs import SchemaChange, SchemaIssue
from kimi_ext.errors import SchemaRejectedError

__all__ = [
    "ROLES",
    "NormalizedSchema",
    "SchemaChange",
    "SchemaIssue",
    "SchemaRejectedError",
    "check_schema",
    "normalize_schema",
]

ROLES = mfjs.ROLES
"""The roles a schema can have: ``"output-schema"`` and ``"tool-parameters"``."""


@dataclass(frozen=True, slots=True)
class NormalizedSchema:
    """What :func:`normalize_schema` made: ``schema`` (a new dict, the input is never
    modified) and ``changes`` (every rewrite, in the order made; empty when the schema was
    accepted as it was)."""

    schema: dict[str, Any]
    changes: tuple[SchemaChange, ...]


def check_schema(schema: Any, *, role: str = "tool-parameters") -> list[SchemaIssue]:
    """Every issue of ``schema`` under the service's schema rules (MFJS, walle strict) and
    those of ``role``: errors (the service refuses the schema) and warnings.

    An empty list, or warnings only, means the service accepts it. Raises
    :class:`kimi_ext.RequestValidationError` for an unknown ``role``.

        >>> check_schema({"type": "object", "properties": {"q": {"type": "string"}}})
        []
        >>> [i.path for i in check_schema({"type": "object", "required": ["q"]})]
        ['required', 'required']
    """
    return mfjs.check(schema, role)


def normalize_schema(schema: Any, *, role: str = "tool-parameters") -> NormalizedSchema:
    """``schema`` rewritten into a form the service accepts, accepting exactly the same
    values, with every change reported (:class:`SchemaChange`).

    Raises :class:`kimi_ext.SchemaRejectedError` (its ``issues`` list the errors left) when
    no such rewrite exists, and :class:`kimi_ext.RequestValidationError` for an unknown
    ``role``. Normalizing a normalized schema changes nothing.

        >>> normalize_schema({"type": "object", "properties": {"n": {"enum": [1, 2]}}}).schema
        {'type': 'object', 'properties': {'n': {'type': 'integer', 'enum': [1, 2]}}}
    """
    out, changes = mfjs.normalize(schema, role)
    return NormalizedSchema(out, tuple(changes))
