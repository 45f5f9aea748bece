"""Checks a request body against the format's contract before anything is sent.

The rules are not written here: they are the request schema and ``x-kimi-*`` extensions of
``openapi/<format>.yaml``, derived by ``make generate`` and compiled by
:mod:`kimi_ext._core.contract`. This module adds only what the *client* decides on top:
an unknown field is refused, at the top level and inside every object the user wrote (a
typo would otherwise be dropped silently by the gateway; ``extra_body=`` sends a top-level
field on purpose), content the service sent (from a history object) goes back unchecked,
and every failure becomes a :class:`~kimi_ext.errors.RequestValidationError` naming the
JSON path, the value and the rule.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from kimi_ext._core.contract import Violation, contract, format_path
from kimi_ext.errors import RequestValidationError


def validate(fmt: str, body: Mapping[str, Any], *, received: Collection[int] | None = None) -> None:
    """Raise RequestValidationError unless ``body`` keeps every documented rule of ``fmt``.

    An object the user wrote may hold only the keys its schema names, at any depth (a
    misspelt key in a tool, a user message or a block is refused, not dropped, and named
    with the documented key it is closest to).
    ``received``: for a history object, the positions in its history field of the items the
    service sent; they go back as they came, unknown block types and keys included (the
    history's own rules checked them), and every other object is held to its schema. For a
    plain list (``received`` None) the shapes the service also sends (an assistant turn,
    its blocks or items) may be received content, so their unknown keys go as they are,
    except a near miss of a field the object lacks (``reasoning_contnet``: a typo).

    >>> validate("chat", {"model": "kimi-k3.1-pro", "messages": [{"role": "user"}]})
    Traceback (most recent call last):
    ...
    kimi_ext.errors.RequestValidationError: messages[0].content=None: is required
    """
    rules = contract(fmt)
    for name in rules.unknown_fields(body):
        reason = rules.unsupported_fields.get(name)
        raise RequestValidationError(
            name,
            body[name],
            reason
            or f"is not a documented {fmt} request field (gateways drop unknown fields "
            "silently); pass extra_body={...} to send it anyway",
        )
    try:
        rules.check(body, closed=True, received=received)
    except Violation as exc:
        raise RequestValidationError(format_path(exc.path), exc.value, exc.rule) from None
