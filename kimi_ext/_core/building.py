"""Where a request is built: keyword arguments in, a validated body ready to send out.

The steps, in order: drop client-only options and top-level ``None``s, turn history objects
into wire lists, place and normalize ``effort``, validate against the documented rules
(:mod:`kimi_ext._core.validation`), then merge ``extra_body`` (on purpose, unchecked). The path,
method and format headers come from the generated ``kimi_raw`` request builder, so the wire
stays defined by the specs in ``openapi/``.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections.abc import Mapping
from typing import Any

import httpx

from kimi_ext._core.effort import normalize_effort
from kimi_ext._core.format import Format
from kimi_ext._core.request import UNSET_TIMEOUT, Prepared
from kimi_ext._core.text import has_lone_surrogate
from kimi_ext._core.validation import validate
from kimi_ext.errors import RequestValidationError

# Options that shape the call, never sent as body fields.
CLIENT_OPTIONS = frozenset(
    {"effort", "extra_body", "extra_headers", "timeout", "max_retries", "deadline"}
)


_ROUTES: dict[str, tuple[str, str, dict[str, str]]] = {}


def prepare(
    fmt: Format[Any, Any, Any], params: Mapping[str, Any], *, stream: bool = False
) -> Prepared:
    """Build and validate the request for ``fmt`` from wire-named keyword arguments.

    Raises RequestValidationError (and sends nothing) when a documented rule is broken.
    """
    try:
        body = build_body(fmt, params, stream=stream)
    except (RecursionError, UnicodeEncodeError):
        # Absurdly deep input, or a lone surrogate a rule measured in UTF-8, met while
        # validating: name where it is.
        raise _json_problem({k: v for k, v in params.items() if k not in CLIENT_OPTIONS}) from None
    try:
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        # The fast encoder failed: walk the body (slowly, once) to name the value.
        raise _json_problem(body) from None
    try:
        content = text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (half of a pair, as a server once sent it): UTF-8 cannot carry
        # it, JSON's \u escapes can, so the history stays sendable exactly as received.
        content = json.dumps(body, separators=(",", ":"), allow_nan=False).encode("ascii")
    limit = fmt.contract.max_body_bytes
    if limit is not None and len(content) > limit:
        raise RequestValidationError(
            "body",
            f"<{len(content):,} bytes>",
            f"the request body may be at most {limit:,} bytes (the service's limit)",
        )
    route = _ROUTES.get(fmt.name)
    if route is None:
        route = _ROUTES[fmt.name] = fmt.route()
    method, path, headers = route
    headers = dict(headers)
    extra_headers = params.get("extra_headers")
    if extra_headers:
        headers.update(extra_headers)
    return Prepared(
        method=method,
        path=path,
        headers=headers,
        content=content,
        body=body,
        timeout=params.get("timeout", UNSET_TIMEOUT),
        max_retries=params.get("max_retries"),
        stream=bool(body.get("stream")),
        deadline=params.get("deadline", UNSET_TIMEOUT),
    )


# Deeper than this, a body is refused (json and the validators recurse per level).
MAX_DEPTH = 500


def _json_problem(body: Any) -> RequestValidationError:
    """The error naming the first value of ``body`` that is not JSON: its path and type.

    Iterative, so it works on input too deep for the recursive encoder.
    """
    stack: list[tuple[Any, str, int, tuple[int, ...]]] = [(body, "", 0, ())]
    while stack:
        value, path, depth, parents = stack.pop()
        where = path.lstrip(".") or "body"
        if depth > MAX_DEPTH:
            return RequestValidationError(
                _short_path(where), type(value).__name__,
                f"is nested more than {MAX_DEPTH} levels deep; JSON this deep is refused",
            )  # fmt: skip
        if value is None or isinstance(value, bool | int):
            continue
        if isinstance(value, float):
            if not math.isfinite(value):
                return RequestValidationError(
                    where, value, f"a {type(value).__name__} NaN or Infinity is not a JSON number"
                )
            continue
        if isinstance(value, str):
            if has_lone_surrogate(value):
                return RequestValidationError(
                    where, value, "a str with a lone surrogate, which UTF-8 cannot encode"
                )
            continue
        if isinstance(value, dict | list | tuple):
            if id(value) in parents:
                return RequestValidationError(
                    where, type(value).__name__, "is circular: it contains itself"
                )
            inner = (*parents, id(value))
            if isinstance(value, dict):
                items: list[tuple[str, Any]] = []
                for key, item in value.items():
                    if isinstance(key, str):
                        if has_lone_surrogate(key):
                            return RequestValidationError(
                                f"{where}[{key!r}]", key,
                                "the key contains a lone surrogate, which UTF-8 cannot encode",
                            )  # fmt: skip
                        items.append((f"{path}.{key}", item))
                    elif key is None or isinstance(key, int | float):
                        items.append((f"{path}[{key!r}]", item))
                    else:
                        return RequestValidationError(
                            f"{where}[{key!r}]", type(key).__name__,
                            "a JSON object key must be a string",
                        )  # fmt: skip
            else:
                items = [(f"{path}[{i}]", item) for i, item in enumerate(value)]
            stack.extend((item, p, depth + 1, inner) for p, item in reversed(items))
            continue
        return RequestValidationError(
            where, type(value).__name__,
            f"a {type(value).__name__} is not a JSON value (use str, int, float, bool, None, "
            "dict or list)",
        )  # fmt: skip
    return RequestValidationError("body", type(body).__name__, "cannot be encoded as JSON")


def _short_path(path: str) -> str:
    return path if len(path) <= 120 else f"{path[:100]}...({path.count('[')} levels)"


def build_body(
    fmt: Format[Any, Any, Any], params: Mapping[str, Any], *, stream: bool = False
) -> dict[str, Any]:
    """The validated JSON body for ``params`` (see :func:`prepare`)."""
    _check_options(params)
    body: dict[str, Any] = {
        k: v for k, v in params.items() if v is not None and k not in CLIENT_OPTIONS
    }
    history = body.get(fmt.history_field)
    to_wire = getattr(history, "to_wire", None)
    if to_wire is not None:
        body[fmt.history_field] = to_wire()
    elif history is not None and not isinstance(history, list | str | Mapping):
        # A tuple or generator of messages; anything else is left for validation to name.
        with contextlib.suppress(TypeError):
            body[fmt.history_field] = list(history)
    if stream:
        body["stream"] = True
    if body.get("stream") is True:
        for name, value in fmt.stream_defaults.items():
            body.setdefault(name, value)
    _place_effort(fmt, body, params.get("effort"))
    validate(fmt.name, body)
    extra = params.get("extra_body")
    if extra:
        body.update(extra)
    return body


def _check_options(params: Mapping[str, Any]) -> None:
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


def _place_effort(fmt: Format[Any, Any, Any], body: dict[str, Any], effort: Any) -> None:
    """Put ``effort`` in the format's own field and normalize aliases there."""
    path = fmt.effort_path
    field_name = ".".join(path)
    parent: dict[str, Any] = body
    if len(path) == 2:
        container = body.get(path[0])
        if container is None:
            if effort is None:
                return
            container = {}
        elif not isinstance(container, Mapping):
            raise RequestValidationError(path[0], container, "must be an object")
        parent = body[path[0]] = dict(container)  # copy: never mutate the caller's dict
    native = parent.get(path[-1])
    model = body.get("model")
    if effort is not None:
        level = normalize_effort(effort, model=model, field="effort", fmt=fmt.name)
        if (
            native is not None
            and normalize_effort(native, model=model, field=field_name, fmt=fmt.name) != level
        ):
            raise RequestValidationError(
                field_name, native, f"disagrees with effort={effort!r}; give one of them"
            )
        parent[path[-1]] = level
    elif native is not None:
        parent[path[-1]] = normalize_effort(native, model=model, field=field_name, fmt=fmt.name)
