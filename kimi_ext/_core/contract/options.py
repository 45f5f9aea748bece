"""The call options (``timeout``, ``deadline``, ``extra_headers``...): which keyword
arguments they are, and the checks that they can work, made before anything is sent."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypedDict

import httpx

from kimi_ext._core.contract.effort import Effort
from kimi_ext.errors import RequestValidationError

__all__ = [
    "CLIENT_OPTIONS",
    "MAX_SECONDS",
    "NONE_IS_NO_LIMIT",
    "SCHEMA_POLICIES",
    "CallOptions",
    "check_header",
    "check_options",
    "client_option_problem",
    "option_problem",
]

# Options that shape the call, never sent as body fields.
CLIENT_OPTIONS = frozenset(
    {"effort", "extra_body", "extra_headers", "timeout", "max_retries", "deadline"}
)


class CallOptions(TypedDict, total=False):
    """The keyword arguments of every ``create()`` that are not body fields (kimi_ext's own;
    each format's params add the body fields derived from its spec). ``None`` means "not
    given", except for ``timeout`` and ``deadline`` (:data:`NONE_IS_NO_LIMIT`)."""

    effort: Effort | None
    """Reasoning effort, placed in the format's own field. Aliases are normalized:
    medium→high, xhigh→max, minimal→low, none→low (none still reasons)."""
    extra_body: Mapping[str, Any] | None
    """Fields merged into the body after validation, on purpose (not checked)."""
    extra_headers: Mapping[str, str] | None
    """Headers added to this request."""
    timeout: httpx.Timeout | float | None
    """Seconds, or an httpx.Timeout; None for no limit; left out, the client's."""
    max_retries: int | None
    """Retries of this call; None or left out, the client's ``max_retries``."""
    deadline: float | None
    """Seconds within which this call (its retries, and a stream to its end) must be over;
    None for no deadline; left out, the client's ``deadline``."""


# The call options whose None is a value ("no limit"), not "not given": left out, the
# client's setting applies.
NONE_IS_NO_LIMIT = frozenset({"timeout", "deadline"})


# The longest wait a timeout (each part of an httpx.Timeout) or a deadline may ask for: 30
# days. A longer one cannot be armed everywhere (Python's timers overflow past about 9.2e9 s
# on Linux, 4.3e6 s on Windows); None is the way to say "no limit".
MAX_SECONDS = 30 * 24 * 3600


def _seconds_problem(value: Any, *, zero: bool) -> str | None:
    """Why ``value`` is not a usable number of seconds (``zero``: 0 is allowed), or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "must be seconds (a number)"
    low = value >= 0 if zero else value > 0
    if not (low and value <= MAX_SECONDS):  # NaN fails both comparisons
        least = ">= 0" if zero else "> 0"
        return f"must be seconds {least} and at most {MAX_SECONDS:,} (30 days)"
    return None


def _deadline_problem(value: Any) -> str | None:
    problem = _seconds_problem(value, zero=False)
    return problem and f"{problem}, or None for no deadline"


def _timeout_problem(value: Any) -> str | None:
    if isinstance(value, httpx.Timeout):
        for part in ("connect", "read", "write", "pool"):
            seconds = getattr(value, part)
            problem = seconds is not None and _seconds_problem(seconds, zero=True)
            if problem:
                return f"its {part} {problem}, or None for no limit"
        return None
    problem = _seconds_problem(value, zero=True)
    return problem and f"{problem}, an httpx.Timeout, or None for no limit"


def _retries_problem(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return "must be an integer >= 0"
    return None


def _mapping_problem(value: Any) -> str | None:
    return None if isinstance(value, Mapping) else "must be a dict"


# One rule per option, shared by a call's options and the client's (Kimi(timeout=...)).
_RULES = {
    "deadline": _deadline_problem,
    "timeout": _timeout_problem,
    "max_retries": _retries_problem,
    "extra_body": _mapping_problem,
    "extra_headers": _mapping_problem,
}


def option_problem(name: str, value: Any) -> str | None:
    """The rule ``value`` breaks as the option ``name`` (``deadline``, ``timeout``,
    ``max_retries``, ``extra_body``, ``extra_headers``), or None when it can work.

    None is never a problem here: on a call it means "not given" (for ``timeout`` and
    ``deadline`` on a client, "no limit")."""
    return None if value is None else _RULES[name](value)


def check_options(params: Mapping[str, Any]) -> None:
    """The call options have the types and ranges the sender relies on (else they fail
    mid-call); RequestValidationError naming the first that does not."""
    for name in _RULES:
        value = params.get(name)
        problem = option_problem(name, value)
        if problem:
            raise RequestValidationError(name, value, problem)
    headers = params.get("extra_headers") or {}
    for key, value in headers.items():
        check_header("extra_headers", key, value)


# How a client handles a JSON Schema of the user's that breaks Moonshot's rules (``Kimi(
# schemas=...)``): rewrite it losslessly, or refuse the request.
SCHEMA_POLICIES = ("normalize", "refuse")


def client_option_problem(name: str, value: Any) -> str | None:
    """The rule a client's option ``value`` breaks (``Kimi(name=value)``), or None: the
    call options' rules (a client's ``max_retries`` must be a number), and the pool's
    ``limits`` and ``max_body_size``, which only a client has."""
    if name == "max_retries" and value is None:
        return "must be an integer >= 0 (None is not a number of retries)"
    if name == "limits":
        return _limits_problem(value)
    if name == "schemas":
        return None if value in SCHEMA_POLICIES else 'must be "normalize" or "refuse"'
    if name == "max_body_size":
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            return "must be bytes > 0 (an integer)"
        return None
    return option_problem(name, value)


def _limits_problem(value: Any) -> str | None:
    if not isinstance(value, httpx.Limits):
        return "must be an httpx.Limits"
    # httpx takes these unchecked: with 0 connections every attempt waits out the pool
    # timeout; a negative count or expiry fails inside the pool.
    least = {"max_connections": 1, "max_keepalive_connections": 0}
    for part, lowest in least.items():
        number = getattr(value, part)
        if number is not None and (
            isinstance(number, bool) or not isinstance(number, int) or number < lowest
        ):
            return f"its {part} must be an integer >= {lowest}, or None for no limit"
    expiry = value.keepalive_expiry
    problem = expiry is not None and _seconds_problem(expiry, zero=True)
    return f"its keepalive_expiry {problem}, or None" if problem else None


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
