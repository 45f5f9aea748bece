"""The call options every ``create()`` takes (not body fields); each format's params
(``kimi_ext.chat.params`` ...) add the wire fields.

Keyword arguments are named as on the wire.

These TypedDicts give editors and type checkers the field names; the values are checked at
run time by :mod:`kimi_ext._core.validation` before anything is sent. A top-level ``None`` means
"not given" and is left out of the body.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

import httpx

from kimi_ext._core.effort import Effort


class CallOptions(TypedDict, total=False):
    """Options for one call that are not sent as body fields."""

    effort: Effort | None
    """Reasoning effort, placed in the format's own field. Aliases are normalized:
    medium→high, xhigh→max, minimal→low, none→low (none still reasons)."""
    extra_body: Mapping[str, Any] | None
    """Fields merged into the body after validation, on purpose (not checked)."""
    extra_headers: Mapping[str, str] | None
    timeout: httpx.Timeout | float | None
    max_retries: int | None
    deadline: float | None
    """Seconds within which this call (its retries, and a stream to its end) must be over;
    overrides the client's ``deadline``."""
