"""Checks a request body against the format's contract before anything is sent.

The rules are not written here: they are the request schema and ``x-kimi-*`` extensions of
``openapi/<format>.yaml``, derived by ``make generate`` and compiled by
:mod:`kimi_ext._core.contract`. This module adds only what the *client* decides on top: an
unknown top-level field is refused (a typo would otherwise be dropped silently by the
gateway; ``extra_body=`` sends such a field on purpose), and every failure becomes a
:class:`~kimi_ext.errors.RequestValidationError` naming the JSON path, the value and the rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kimi_ext._core.contract import Violation, contract, format_path
from kimi_ext.errors import RequestValidationError


def validate(fmt: str, body: Mapping[str, Any]) -> None:
    """Raise RequestValidationError unless ``body`` keeps every documented rule of ``fmt``.

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
        rules.check(body)
    except Violation as exc:
        raise RequestValidationError(format_path(exc.path), exc.value, exc.rule) from None
