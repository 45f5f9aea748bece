"""The call options (``timeout``, ``deadline``, ``extra_headers``...): which keyword
arguments they are, and the checks that they can work, made before anything is sent."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, TypedDict

import httpx

from kimi_ext._core.contract.effort import Effort
from kimi_ext.errors import RequestValidationError

__all__ = ["CLIENT_OPTIONS", "CallOptions", "check_header", "check_options"]

# Options that shape the call, never sent as body fields.
CLIENT_OPTIONS = frozenset(
    {"effort", "extra_body", "extra_headers", "timeout", "max_retries", "deadline"}
)


class CallOptions(TypedDict, total=False):
    """The keyword arguments of every ``create()`` that are not body fields (kimi_ext's own;
    each format's params add the body fields derived from its spec). ``None`` means "not
    given"."""

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


def check_options(params: Mapping[str, Any]) -> None:
    """The client options have the types the sender relies on (else they fail mid-call)."""
    for name in ("extra_body", "extra_headers"):
        value = params.get(name)
        if value is not None and not isinstance(value, Mapping):
            raise RequestValidationError(name, value, "must be a dict")
    headers = params.get("extra_headers") or {}
    for key, value in headers.items():
        check_header("extra_headers", key, value)
    deadline = params.get("deadline")
    if deadline is not None and (
        isinstance(deadline, bool)
        or not isinstance(deadline, int | float)
        or not 0 < deadline < math.inf
    ):
        raise RequestValidationError("deadline", deadline, "must be seconds > 0 (a number) or None")
    timeout = params.get("timeout")
    if timeout is not None and not isinstance(timeout, httpx.Timeout):
        if isinstance(timeout, bool) or not isinstance(timeout, int | float):
            raise RequestValidationError(
                "timeout", timeout, "must be seconds (a number), an httpx.Timeout or None"
            )
        if not 0 <= timeout < math.inf:
            raise RequestValidationError("timeout", timeout, "must be a finite number >= 0")
    retries = params.get("max_retries")
    if retries is not None and (
        isinstance(retries, bool) or not isinstance(retries, int) or retries < 0
    ):
        raise RequestValidationError("max_retries", retries, "must be an integer >= 0")


_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_FIELD_VALUE = re.compile(r"[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?")


def check_header(where: str, name: Any, value: Any) -> None:
    """Raise RequestValidationError unless ``name: value`` can be sent as an HTTP header
    as it is (a token name; a visible-ASCII value without CR, LF or edge whitespace)."""
    field = f"{where}[{name!r}]"
    if not isinstance(name, str) or not isinstance(value, str):
        raise RequestValidationError(field, value, "header names and values must be strings")
    if not _TOKEN.fullmatch(name):
        raise RequestValidationError(
            field, name, "a header name must be ASCII letters, digits or !#$%&'*+-.^_`|~"
        )
    if value and not _FIELD_VALUE.fullmatch(value):
        bad = next(
            (f"U+{ord(c):04X} at {i}" for i, c in enumerate(value) if not " " <= c <= "~"),
            "whitespace at an end",
        )
        raise RequestValidationError(
            field,
            _masked(name, value),
            f"a header value must be visible ASCII without CR, LF or whitespace at the ends "
            f"(found {bad}); nothing was sent",
        )


def _masked(name: str, value: str) -> str:
    """What an error may show of a header value: not a credential's."""
    sensitive = any(word in name.lower() for word in ("auth", "key", "token", "secret"))
    return "<redacted>" if sensitive else value
