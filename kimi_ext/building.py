"""Where a request is built: keyword arguments in, a validated body ready to send out.

The steps, in order: drop client-only options and top-level ``None``s, turn history objects
into wire lists, place and normalize ``effort``, validate against the documented rules
(:mod:`kimi_ext.validation`), then merge ``extra_body`` (on purpose, unchecked). The path,
method and format headers come from the generated ``kimi_raw`` request builder, so the wire
stays defined by the specs in ``openapi/``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from ._contract import contract
from .effort import normalize_effort
from .errors import RequestValidationError
from .validation import validate_chat, validate_messages, validate_responses

# Options that shape the call, never sent as body fields.
CLIENT_OPTIONS = frozenset({"effort", "extra_body", "extra_headers", "timeout", "max_retries"})


@dataclass(frozen=True)
class Endpoint:
    """One wire format: where its generated request builder lives and its contract."""

    name: str
    raw_module: str
    history_field: str
    validate: Callable[[Mapping[str, Any]], None]

    @property
    def effort_path(self) -> tuple[str, ...]:
        """Where this format puts reasoning effort (from the spec's ``x-kimi-effort``)."""
        return contract(self.name).effort.path

    def route(self) -> tuple[str, str, dict[str, str]]:
        """(method, path, format headers) from the generated request builder."""
        module = importlib.import_module(self.raw_module)
        # Required header parameters (Messages' anthropic-version) take the spec's default.
        raw_kwargs = {
            name.replace("-", "_"): value for name, value in contract(self.name).headers.items()
        }
        kwargs = module._get_kwargs(body=_NoBody(), **raw_kwargs)
        headers = {str(k): str(v) for k, v in kwargs.get("headers", {}).items()}
        headers.pop("Content-Type", None)
        return str(kwargs["method"]).upper(), str(kwargs["url"]), headers


CHAT = Endpoint(
    name="chat",
    raw_module="kimi_raw.chat.api.chat.create_chat_completion",
    history_field="messages",
    validate=validate_chat,
)
MESSAGES = Endpoint(
    name="messages",
    raw_module="kimi_raw.messages.api.messages.create_message",
    history_field="messages",
    validate=validate_messages,
)
RESPONSES = Endpoint(
    name="responses",
    raw_module="kimi_raw.responses.api.responses.create_response",
    history_field="input",
    validate=validate_responses,
)


@dataclass
class Prepared:
    """A request ready to send to any base URL (the sender picks it per attempt)."""

    method: str
    path: str
    headers: dict[str, str]
    content: bytes
    body: dict[str, Any]
    timeout: httpx.Timeout | float | object | None
    max_retries: int | None
    stream: bool


_ROUTES: dict[str, tuple[str, str, dict[str, str]]] = {}
UNSET_TIMEOUT = object()


def prepare(endpoint: Endpoint, params: Mapping[str, Any], *, stream: bool = False) -> Prepared:
    """Build and validate the request for ``endpoint`` from wire-named keyword arguments.

    Raises RequestValidationError (and sends nothing) when a documented rule is broken.
    """
    body = build_body(endpoint, params, stream=stream)
    try:
        content = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise RequestValidationError(
            "body", type(exc).__name__, f"is not valid JSON: {exc}"
        ) from None
    limit = contract(endpoint.name).max_body_bytes
    if limit is not None and len(content) > limit // 4 and len(content.encode("utf-8")) > limit:
        raise RequestValidationError(
            "body",
            f"<{len(content.encode('utf-8')):,} bytes>",
            f"the request body may be at most {limit:,} bytes (the service's limit)",
        )
    route = _ROUTES.get(endpoint.name)
    if route is None:
        route = _ROUTES[endpoint.name] = endpoint.route()
    method, path, headers = route
    headers = dict(headers)
    extra_headers = params.get("extra_headers")
    if extra_headers:
        headers.update(extra_headers)
    return Prepared(
        method=method,
        path=path,
        headers=headers,
        content=content.encode("utf-8"),
        body=body,
        timeout=params.get("timeout", UNSET_TIMEOUT),
        max_retries=params.get("max_retries"),
        stream=bool(body.get("stream")),
    )


def build_body(
    endpoint: Endpoint, params: Mapping[str, Any], *, stream: bool = False
) -> dict[str, Any]:
    """The validated JSON body for ``params`` (see :func:`prepare`)."""
    _check_options(params)
    body: dict[str, Any] = {
        k: v for k, v in params.items() if v is not None and k not in CLIENT_OPTIONS
    }
    history = body.get(endpoint.history_field)
    to_wire = getattr(history, "to_wire", None)
    if to_wire is not None:
        body[endpoint.history_field] = to_wire()
    elif history is not None and not isinstance(history, list | str | Mapping):
        # A tuple or generator of messages; anything else is left for validation to name.
        with contextlib.suppress(TypeError):
            body[endpoint.history_field] = list(history)
    if stream:
        body["stream"] = True
    if endpoint is CHAT and body.get("stream") is True and "stream_options" not in body:
        # Without this, Chat streams end without usage.
        body["stream_options"] = {"include_usage": True}
    _place_effort(endpoint, body, params.get("effort"))
    endpoint.validate(body)
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
        if not isinstance(key, str) or not isinstance(value, str):
            raise RequestValidationError(
                f"extra_headers[{key!r}]", value, "header names and values must be strings"
            )
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


def _place_effort(endpoint: Endpoint, body: dict[str, Any], effort: Any) -> None:
    """Put ``effort`` in the format's own field and normalize aliases there."""
    path = endpoint.effort_path
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
        level = normalize_effort(effort, model=model, field="effort", fmt=endpoint.name)
        if (
            native is not None
            and normalize_effort(native, model=model, field=field_name, fmt=endpoint.name) != level
        ):
            raise RequestValidationError(
                field_name, native, f"disagrees with effort={effort!r}; give one of them"
            )
        parent[path[-1]] = level
    elif native is not None:
        parent[path[-1]] = normalize_effort(
            native, model=model, field=field_name, fmt=endpoint.name
        )


class _NoBody:
    """Stands in for the generated request model when only the route is wanted."""

    def to_dict(self) -> dict[str, Any]:
        return {}
