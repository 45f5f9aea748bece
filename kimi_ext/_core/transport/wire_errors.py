"""Where an error response (or an ``error`` event inside a stream) becomes the right
:class:`~kimi_ext.APIStatusError` subclass, with the key redacted from all it keeps."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from kimi_ext._core.model.result import request_id_of
from kimi_ext._core.transport.secret import Secret, redact, redact_bytes, redact_json
from kimi_ext.errors import (
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    QuotaExceededError,
    RateLimitError,
    UnprocessableEntityError,
)

__all__ = [
    "STATUS_OF_ERROR_TYPE",
    "error_class",
    "error_in_event_stream",
    "is_quota_error",
    "parse_error_body",
    "status_error_from_event",
    "status_error_from_response",
    "status_of_event",
]

# The longest server text an error message quotes.
_MESSAGE_LIMIT = 2000

_BY_STATUS: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}

# Error types (and the Responses error codes, which come without a type: a ``response.failed``
# event's ``error.code``) that arrive inside an SSE stream after a 200: map them to the
# status the same failure would have had as a plain response, so the class, the retry and
# a batch line's verdict are the same as for that response.
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
    # Responses error codes (LiteLLM relays an upstream 429 as rate_limit_exceeded).
    "rate_limit_exceeded": 429,
    "invalid_prompt": 400,
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


def error_in_event_stream(text: str) -> dict[str, Any] | None:
    """The first event of an SSE body that holds an ``error`` (``data: {"error": ...}``),
    or None when ``text`` has none. Some gateways answer an error status with the body
    they would have streamed; the error is read from it like a JSON error body.

    Only ``data`` lines are read (joined per event, one space after the colon dropped, as
    the SSE standard says): an error body is small and read whole, so the streams'
    incremental decoder is not needed here."""
    lines: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("data:"):
            value = line[5:]
            lines.append(value[1:] if value.startswith(" ") else value)
            continue
        if line or not lines:
            continue
        data, lines = "\n".join(lines), []
        try:
            event = json.loads(data)
        except (ValueError, RecursionError):
            continue
        if not isinstance(event, dict):
            continue
        if event.get("error") is not None:
            return event
        if event.get("type") == "error":  # Responses' flat error event: code and message
            code = event.get("code")
            kind = code if isinstance(code, str) else None
            return {"error": {"message": event.get("message"), "type": kind, "code": code}}
    return None


def status_error_from_response(
    response: httpx.Response,
    *,
    secret: Secret | str | None = None,
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
            event = error_in_event_stream(text)
            if event is not None:  # an error status whose body is an event stream
                body, text = event, None
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


def status_of_event(error_type: str | None, code: str | None) -> int:
    """The HTTP status an error reported inside a stream stands for: from its type, else
    its code (a Responses ``error.code`` such as ``rate_limit_exceeded``: 429, or an HTTP
    status a relay puts there), else 500.

    The error carries this derived status (``status_code``), not the stream's 200: it is
    what the same failure answered as a plain response would have had, and what the
    retry policy and a batch line's record read."""
    for word in (error_type, code):
        status = STATUS_OF_ERROR_TYPE.get(word or "")
        if status is not None:
            return status
    if code is not None and code.isascii() and code.isdigit() and 400 <= int(code) < 600:
        return int(code)  # a relay's HTTP status as the code (LiteLLM: "code": "429")
    return 500


def status_error_from_event(
    body: Any, *, response: httpx.Response | None, secret: Secret | str | None = None
) -> APIStatusError:
    """Build the APIStatusError for an ``error`` event received inside a stream."""
    body = redact_json(body, secret)
    message, etype, code, request_id = parse_error_body(body)
    if request_id is None and response is not None:
        request_id = request_id_of(response.headers)
    status = status_of_event(etype, code)
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
