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

from typing import Any

import httpx

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
    "ContinuationUnsupportedError",
    "HistoryError",
    "IncompleteStreamError",
    "InternalServerError",
    "KimiError",
    "NotFoundError",
    "PermissionDeniedError",
    "QuotaExceededError",
    "RateLimitError",
    "RequestValidationError",
    "SchemaRejectedError",
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


class SchemaRejectedError(RequestValidationError):
    """A JSON Schema the service would refuse (Moonshot Flavored JSON Schema, as walle checks
    it at its strict level) and that cannot be rewritten without changing which values it
    accepts; nothing was sent.

    ``issues`` lists every error left (:class:`kimi_ext.schemas.SchemaIssue`, each with its
    path, rule and the service's words); ``field``, ``value`` and ``rule`` are those of the
    first: its path in the schema, the value there and every error's message.
    """

    def __init__(self, field: str, value: Any, rule: str, *, issues: list[Any]) -> None:
        super().__init__(field, value, rule)
        self.issues = list(issues)


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
    ``result`` is the result the answer came from and ``usage`` its normalized usage (a
    :class:`kimi_ext.Usage`, as ``result.usage``), so the tokens a failed answer cost can
    be counted; both are None when the error was raised without a result.
    """

    def __init__(
        self, message: str, *, text: str, truncated: bool = False, result: Any = None
    ) -> None:
        self.text = text
        self.truncated = truncated
        self.result = result
        self.usage: Any = None if result is None else result.usage
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


class ContinuationUnsupportedError(KimiError, TypeError):
    """An answer was to be continued (``resume()``, ``continue_``) in a format that cannot
    continue one: Responses has no partial mode. Nothing was sent; send the request again
    to get a whole new answer. (A TypeError too, as this case raised before.)"""


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
        # For a failure reported inside a stream: what the stream had received (the type
        # its final() returns). None for an error status.
        self.partial: Any = None

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


def _request_of(response: httpx.Response | None) -> httpx.Request | None:
    """The request of ``response``, or None (httpx raises when it has none); the streams
    use it too (this is the lowest layer)."""
    if response is None:
        return None
    try:
        return response.request
    except RuntimeError:
        return None


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except RecursionError:  # a value nested too deeply to show must not hide the error
        text = f"<{type(value).__name__} nested too deeply to show>"
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
