"""Reasoning effort: the accepted aliases and what they mean on the wire.

Kimi reasons on every request; effort only sets how much. The levels, the aliases the
service maps and the models that accept only some levels come from the spec
(``x-kimi-effort`` and ``x-kimi-models``). Some gateways reject the aliases, so the client
always sends the canonical level::

    >>> normalize_effort("medium", model="kimi-k3.1-pro")
    'high'
    >>> normalize_effort("none", model="kimi-k3.1-pro")   # still reasons, at low effort
    'low'
"""

from __future__ import annotations

from typing import Any, Literal

from kimi_ext._core.contract import Violation, contract, format_names
from kimi_ext._core.contract.arguments import checked
from kimi_ext.errors import RequestValidationError

# For editors and type checkers only; the values accepted at run time are the spec's
# (a test keeps this in step with it).
Effort = Literal["low", "high", "max", "medium", "xhigh", "minimal", "none"]


@checked(RequestValidationError)
def normalize_effort(value: Any, *, model: Any, field: str = "effort", fmt: str = "chat") -> str:
    """Return the canonical effort level for ``value`` or raise RequestValidationError.

    Aliases map as the spec documents (medium→high, xhigh→max, minimal→low, none→low);
    ``none`` does not disable reasoning. A model limited to some levels (``kimi-k3``:
    only ``max``) refuses the others; an unknown model gets the generic rule. ``fmt`` is
    the format's name (``"chat"``, ``"messages"``, ``"responses"``).
    """
    if fmt not in format_names():
        raise RequestValidationError(
            "fmt", fmt, f"must be one of {', '.join(sorted(format_names()))}"
        )
    try:
        return contract(fmt).level(value, model, (field,))
    except Violation as exc:
        raise RequestValidationError(field, value, exc.rule) from None
