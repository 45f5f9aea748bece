"""The exceptions kimi_ext raises. Everything is rooted at :class:`KimiError`.

Catch the narrowest class you can act on::

    try:
        client.messages.create(...)
    except kimi_ext.QuotaExceededError:
        ...  # top up the account: retrying will not help
    except kimi_ext.RateLimitError as e:
        ...  # back off; e.response.headers may carry retry-after
    except kimi_ext.APIStatusError as e:
        print(e.status_code, e.error_type, e.message, e.request_id)
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "APIConnectionError",
    "APIError",
    "APIResponseError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "ClientConfigError",
    "ConflictError",
    "HistoryError",
    "IncompleteStreamError",
    "InternalServerError",
    "KimiError",
    "NotFoundError",
    "PermissionDeniedError",
    "QuotaExceededError",
    "RateLimitError",
    "RequestValidationError",
    "StructuredOutputError",
    "UnprocessableEntityError",
]


class KimiError(Exception):
    """Root of every error kimi_ext raises on purpose."""


class RequestValidationError(KimiError, ValueError):
    """A request broke a documented rule; nothing was sent.

    ``field`` is the wire path of the offending value (``"stop[2]"``), ``value`` the value,
    ``rule`` the rule it broke.
    """

    def __init__(self, field: str, value: Any, rule: str) -> None:
        self.field = field
        self.value = value
        self.rule = rule
        super().__init__(f"{field}={_short(value)}: {rule}")


class HistoryError(KimiError, ValueError):
    """A conversation history lost or changed part of an assistant turn."""

    def __init__(self, index: int, problem: str) -> None:
        self.index = index
        self.problem = problem
        super().__init__(f"message {index}: {problem}")


class StructuredOutputError(KimiError):
    """Structured output could not be parsed or did not match its schema.

    ``truncated`` is True when the model ran out of output tokens before finishing the JSON.
    """

    def __init__(self, message: str, *, text: str, truncated: bool = False) -> None:
        self.text = text
        self.truncated = truncated
        super().__init__(message)


class InvalidToolCallError(KimiError, ValueError):
    """A tool call whose arguments cannot be used: cut by the output limit before they were
    complete (``truncated``), or not valid JSON. Such a call is never run.

    ``arguments`` is the text as received (the partial JSON of a cut call), ``result`` the
    result holding the call when known.
    """

    def __init__(
        self,
        message: str,
        *,
        call_id: str,
        name: str,
        arguments: str,
        truncated: bool,
        result: Any = None,
    ) -> None:
        self.call_id = call_id
        self.name = name
        self.arguments = arguments
        self.truncated = truncated
        self.result = result
        super().__init__(message)


class APIError(KimiError):
    """An error talking to the API (no usable answer came back)."""

    def __init__(self, message: str, *, request: httpx.Request | None = None) -> None:
        self.message = message
        self.request = request
        super().__init__(message)


class APIConnectionError(APIError):
    """The server could not be reached, or the connection broke."""

    def __init__(
        self, message: str = "Connection error.", *, request: httpx.Request | None = None
    ) -> None:
        super().__init__(message, request=request)


class APITimeoutError(APIConnectionError):
    """The request timed out (connect, read, write or pool)."""

    def __init__(
        self, message: str = "Request timed out.", *, request: httpx.Request | None = None
    ) -> None:
        super().__init__(message, request=request)


class IncompleteStreamError(APIConnectionError):
    """A stream ended before its terminal event.

    ``partial`` is everything accumulated so far, as the same type the finished stream
    would have returned; nothing received is lost. ``cause`` is the transport error, if any.
    """

    def __init__(self, message: str, *, partial: Any, request: httpx.Request | None = None) -> None:
        self.partial = partial
        super().__init__(message, request=request)


class APIStatusError(APIError):
    """The server answered with an error status (or an error event inside a stream)."""

    status_code: int

    def __init__(
        self,
        message: str,
        *,
        status_code: int,
        response: httpx.Response | None,
        body: Any,
        error_type: str | None = None,
        code: str | None = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(message, request=_request_of(response))
        self.status_code = status_code
        self.response = response
        self.body = body
        self.error_type = error_type
        self.code = code
        self.request_id = request_id

    def __str__(self) -> str:
        parts = [f"{self.status_code}"]
        if self.error_type:
            parts.append(self.error_type)
        text = f"{' '.join(parts)}: {self.message}"
        if self.request_id:
            text += f" (request id {self.request_id})"
        return text


class BadRequestError(APIStatusError):
    """400: the service rejected the request."""


class AuthenticationError(APIStatusError):
    """401: the API key is missing or wrong."""


class PermissionDeniedError(APIStatusError):
    """403: the key may not use this model or endpoint."""


class NotFoundError(APIStatusError):
    """404: wrong path or unknown model."""


class ConflictError(APIStatusError):
    """409: a conflicting request; retried by default."""


class UnprocessableEntityError(APIStatusError):
    """422: the request was well-formed but could not be processed."""


class RateLimitError(APIStatusError):
    """429: too many requests; retried with backoff by default."""


class QuotaExceededError(RateLimitError):
    """429 meaning the account's quota or plan is exhausted. Never retried."""


class InternalServerError(APIStatusError):
    """5xx: a server-side failure; retried by default."""


_BY_STATUS: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}

# Error types that arrive inside an SSE stream after a 200: map them to the status the
# same failure would have had as a plain response.
STATUS_OF_ERROR_TYPE: dict[str, int] = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "exceeded_current_quota_error": 429,
    "insufficient_quota": 429,
    "api_error": 500,
    "server_error": 500,
    "overloaded_error": 529,
}

_QUOTA_WORDS = re.compile(
    r"quota|insufficient[_ ](balance|credit|funds)|billing|exceeded your current plan|plan limit",
    re.IGNORECASE,
)


def is_quota_error(error_type: str | None, code: str | None, message: str) -> bool:
    """True when a 429 means an exhausted quota or plan rather than a momentary rate limit."""
    for word in (error_type, code):
        if word and ("quota" in word.lower() or "insufficient" in word.lower()):
            return True
    return bool(_QUOTA_WORDS.search(message))


def error_class(
    status_code: int, error_type: str | None, code: str | None, message: str
) -> type[APIStatusError]:
    """The APIStatusError subclass for a status code and error details."""
    if status_code == 429 and is_quota_error(error_type, code, message):
        return QuotaExceededError
    if status_code >= 500:
        return InternalServerError
    return _BY_STATUS.get(status_code, APIStatusError)


def parse_error_body(body: Any) -> tuple[str | None, str | None, str | None, str | None]:
    """(message, error_type, code, request_id) from either error envelope.

    Messages: ``{"type": "error", "error": {"type", "message"}, "request_id"}``.
    Chat/Responses: ``{"error": {"message", "type", "code"}}``. Anything else gives Nones.
    """
    if not isinstance(body, dict):
        return None, None, None, None
    err = body.get("error")
    request_id = body.get("request_id")
    request_id = request_id if isinstance(request_id, str) else None
    if isinstance(err, dict):
        message = err.get("message")
        etype = err.get("type")
        code = err.get("code")
        return (
            message if isinstance(message, str) else None,
            etype if isinstance(etype, str) else None,
            str(code) if code is not None else None,
            request_id,
        )
    if isinstance(err, str):
        return err, None, None, request_id
    message = body.get("message")
    return (message if isinstance(message, str) else None), None, None, request_id


def status_error_from_response(
    response: httpx.Response, *, secret: str | None = None
) -> APIStatusError:
    """Build the right APIStatusError for an error response whose body has been read.

    A non-JSON body still gives the right class, with the body text as the message.
    """
    text = response.text
    try:
        body: Any = json.loads(text) if text else None
    except (ValueError, RecursionError):
        body = text
    message, etype, code, request_id = parse_error_body(body)
    if request_id is None:
        request_id = request_id_of(response.headers)
    if message is None:
        message = text.strip()[:2000] or response.reason_phrase or "error"
    message = redact(message, secret)
    cls = error_class(response.status_code, etype, code, message)
    return cls(
        message,
        status_code=response.status_code,
        response=response,
        body=body,
        error_type=etype,
        code=code,
        request_id=request_id,
    )


def status_error_from_event(
    body: Any, *, response: httpx.Response | None, secret: str | None = None
) -> APIStatusError:
    """Build the APIStatusError for an ``error`` event received inside a stream."""
    message, etype, code, request_id = parse_error_body(body)
    if request_id is None and response is not None:
        request_id = request_id_of(response.headers)
    status = STATUS_OF_ERROR_TYPE.get(etype or "", 500)
    message = redact(message or "error event in stream", secret)
    cls = error_class(status, etype, code, message)
    return cls(
        message,
        status_code=status,
        response=response,
        body=body,
        error_type=etype,
        code=code,
        request_id=request_id,
    )


def request_id_of(headers: Mapping[str, str]) -> str | None:
    """The request id the gateways put in response headers, if any."""
    # x-trace-id: Moonshot's own header, used when no request-id header came.
    for name in (
        "x-request-id",
        "request-id",
        "x-kimi-request-id",
        "x-oneapi-request-id",
        "x-trace-id",
    ):
        value = headers.get(name)
        if value:
            return value
    return None


def redact(text: str, secret: str | None) -> str:
    """Remove a secret from text that may echo it (server messages, URLs)."""
    if secret and secret in text:
        return text.replace(secret, "<redacted>")
    return text


def _request_of(response: httpx.Response | None) -> httpx.Request | None:
    if response is None:
        return None
    try:
        return response.request
    except RuntimeError:
        return None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


class ClientConfigError(KimiError, ValueError):
    """The client was configured in a way that cannot work or is unsafe."""


class APIResponseError(APIError):
    """A success status whose body is not the JSON the format promises.

    ``body`` is the text received, kept so nothing is lost.
    """

    def __init__(self, message: str, *, response: httpx.Response, body: str) -> None:
        super().__init__(message, request=_request_of(response))
        self.response = response
        self.body = body
