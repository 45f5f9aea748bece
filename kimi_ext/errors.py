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
    "ClientStateError",
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
    "ToolDefinitionError",
    "UnprocessableEntityError",
]


class KimiError(Exception):
    """Root of every error kimi_ext raises on purpose."""

    def __reduce__(self) -> tuple[Any, ...]:
        # The subclasses take keyword-only arguments, which the default reduce cannot
        # replay; rebuild from args and attributes instead. A kept httpx request has had
        # its key redacted by the sender, so the pickle holds no secret.
        return (_rebuild_error, (type(self), self.args, self.__dict__))


def _rebuild_error(cls: type[KimiError], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class _Secret:
    """Holds the API key so that no ``repr``, ``str`` or traceback-with-locals shows it.

    ``get()`` returns the key; the object refuses to be pickled.
    """

    __slots__ = ("__weakref__", "_searched", "_value")

    def __init__(self, value: str) -> None:
        self._value = value
        # The bytes to search kept headers for (see MIN_SEARCHED_KEY), encoded once.
        self._searched = value.encode() if len(value) >= MIN_SEARCHED_KEY else None

    def get(self) -> str:
        """The key itself (to put in a header, or to redact it from text)."""
        return self._value

    def searched_bytes(self) -> bytes | None:
        """The key as bytes, or None when too short to search text for."""
        return self._searched

    def __repr__(self) -> str:
        return "<redacted>"

    __str__ = __repr__

    def __reduce__(self) -> tuple[Any, ...]:
        raise TypeError("an API key cannot be pickled")


class ClientStateError(KimiError, RuntimeError):
    """The client cannot be used in its state: it was closed, or (``AsyncKimi``) it is
    used from another event loop than the one it first ran on."""


class ToolDefinitionError(KimiError, TypeError):
    """``kimi_ext.tool()`` cannot make a tool of what it was given."""


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
    """A conversation history lost or changed part of an assistant turn, or a saved
    history cannot be restored (``index`` is then None)."""

    def __init__(self, index: int | None, problem: str) -> None:
        self.index = index
        self.problem = problem
        super().__init__(problem if index is None else f"message {index}: {problem}")


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
    would have returned; nothing received is lost. ``timed_out`` is True when the stream
    stalled (a read timed out) or the call's deadline passed, False when it was cut or
    closed. The transport error, if any, is chained as ``__cause__``.
    """

    def __init__(
        self,
        message: str,
        *,
        partial: Any,
        request: httpx.Request | None = None,
        timed_out: bool = False,
    ) -> None:
        self.partial = partial
        self.timed_out = timed_out
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
        # The server's retry hint in seconds (Retry-After / retry-after-ms), if any.
        self.retry_after: float | None = None

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

# Words that mean the money or the plan is gone: retrying cannot help.
_BALANCE_WORDS = re.compile(
    r"insufficient[_ ]?(balance|credit|funds|quota)|out of (credits?|funds|quota)"
    r"|(no|zero) (credits?|balance)|(credit|account) balance|balance (is )?(0|zero|exhausted)"
    r"|payment required|billing|exceeded your current plan|plan limit|upgrade your plan"
    r"|arrears|overdue|余额不足|余额|欠费|额度不足|配额已用尽|充值",
    re.IGNORECASE,
)
_QUOTA = re.compile(r"quota|配额|额度", re.IGNORECASE)
# A quota over a short window ("per-minute request quota") is a rate limit: it clears.
_WINDOW_WORDS = re.compile(
    r"per[- ]?(second|minute|min|hour)|/(s|sec|min|m)\b|\b(rpm|tpm|rps|qps)\b"
    r"|(retry|try again) (in|after)|requests per|tokens per|每分钟|每秒|请稍后",
    re.IGNORECASE,
)


def is_quota_error(error_type: str | None, code: str | None, message: str) -> bool:
    """True when a 429 means an exhausted quota or plan rather than a momentary rate limit.

    A balance or billing wording always means quota; the word "quota" does too, unless the
    message names a short window (per minute, RPM, "retry in 1s"), which clears by itself.
    """
    for word in (error_type, code):
        if word and "insufficient" in word.lower():
            return True
        if word and "quota" in word.lower():
            return not _WINDOW_WORDS.search(message)
    if _BALANCE_WORDS.search(message):
        return True
    return bool(_QUOTA.search(message)) and not _WINDOW_WORDS.search(message)


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
    response: httpx.Response,
    *,
    secret: _Secret | str | None = None,
    content: bytes | None = None,
    cut_at: int | None = None,
) -> APIStatusError:
    """Build the right APIStatusError for an error response whose body has been read.

    ``content`` is the body (default ``response.content``); ``cut_at`` says it was cut at
    that many bytes (the message says so). A non-JSON body still gives the right class,
    with the start of the body text as the message. The body is held once: as parsed
    JSON, or as text.
    """
    if content is None:
        content = response.content
    content = redact_bytes(content, secret)
    body: Any = None
    text: str | None = None
    if content:
        try:
            body = json.loads(content)
        except (ValueError, RecursionError):
            body = text = content.decode("utf-8", "replace")
    message, etype, code, request_id = parse_error_body(body)
    if request_id is None:
        request_id = request_id_of(response.headers)
    if message is None:
        # Redact before cutting, so a key that straddles the cut leaves nothing behind
        # (the text is at most the capped error body).
        message = redact(text or "", secret).strip()[:_MESSAGE_LIMIT]
        message = message or response.reason_phrase or "error"
    else:
        message = redact(message, secret)
    if cut_at is not None:
        message += f" [error body cut at {cut_at} bytes]"
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
    body: Any, *, response: httpx.Response | None, secret: _Secret | str | None = None
) -> APIStatusError:
    """Build the APIStatusError for an ``error`` event received inside a stream."""
    body = redact_json(body, secret)
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


# The longest server text an error message quotes.
_MESSAGE_LIMIT = 2000


def redact(text: str, secret: _Secret | str | None) -> str:
    """Remove a secret from text that may echo it (server messages, URLs). Redact before
    cutting text short: a cut through the key would leave most of it behind."""
    value = secret.get() if isinstance(secret, _Secret) else secret
    if value and value in text:
        return text.replace(value, "<redacted>")
    return text


# Kept bodies and headers are searched for keys at least this long: a shorter "key" (a
# test's "k") would redact ordinary text. Messages are redacted whatever the length.
MIN_SEARCHED_KEY = 8


def searched_key(secret: _Secret | str | None) -> str | None:
    """The key to search kept data for, or None if it is too short to tell apart."""
    value = secret.get() if isinstance(secret, _Secret) else secret
    return value if value and len(value) >= MIN_SEARCHED_KEY else None


def redact_bytes(content: bytes, secret: _Secret | str | None) -> bytes:
    """:func:`redact` for a body as received (an error body that echoes the key)."""
    value = searched_key(secret)
    if value and value.encode() in content:
        return content.replace(value.encode(), b"<redacted>")
    return content


def redact_json(data: Any, secret: _Secret | str | None) -> Any:
    """``data`` (decoded JSON) with the key replaced in every string, if it occurs."""
    value = searched_key(secret)
    if not value or data is None or isinstance(data, int | float):
        return data
    try:
        text = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return data
    escaped = json.dumps(value)[1:-1]
    if escaped not in text:
        return data
    return json.loads(text.replace(escaped, "<redacted>"))


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
