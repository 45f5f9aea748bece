"""Reasoning effort: the accepted aliases and what they mean on the wire.

Kimi reasons on every request; effort only sets how much. The service documents three
levels (``low``, ``high``, ``max``; ``max`` is the default) and accepts four client aliases.
Some gateways reject the aliases, so the client always sends the canonical level::

    >>> normalize_effort("medium", model="kimi-k3.1-pro")
    'high'
    >>> normalize_effort("none", model="kimi-k3.1-pro")   # still reasons, at low effort
    'low'
"""

from __future__ import annotations

from typing import Any, Literal

from .errors import RequestValidationError

Effort = Literal["low", "high", "max", "medium", "xhigh", "minimal", "none"]

LEVELS: tuple[str, ...] = ("low", "high", "max")

# ``none`` does NOT turn reasoning off on Kimi: it maps to the lowest level.
ALIASES: dict[str, str] = {"medium": "high", "xhigh": "max", "minimal": "low", "none": "low"}

# Models that accept only the maximum effort.
MAX_ONLY_MODELS: frozenset[str] = frozenset({"kimi-k3"})


def normalize_effort(value: Any, *, model: Any, field: str = "effort") -> str:
    """Return the canonical effort level for ``value`` or raise RequestValidationError.

    Aliases map as documented: medium→high, xhigh→max, minimal→low, none→low.
    ``none`` does not disable reasoning. ``kimi-k3`` accepts only ``max``.
    """
    if not isinstance(value, str):
        raise RequestValidationError(
            field,
            value,
            "must be one of low, high, max (or an alias: medium, xhigh, minimal, none)",
        )
    level = ALIASES.get(value, value)
    if level not in LEVELS:
        raise RequestValidationError(
            field,
            value,
            "must be one of low, high, max (or an alias: medium, xhigh, minimal, none)",
        )
    if isinstance(model, str) and model in MAX_ONLY_MODELS and level != "max":
        raise RequestValidationError(
            field, value, f"model {model} accepts only effort max (got {level} after aliases)"
        )
    return level
