"""kimi-ext: a fast, correct client for Kimi K3.1 Pro in all three wire formats.

from kimi_ext import Kimi
client = Kimi()
print(client.messages.create(model="kimi-k3.1-pro", max_tokens=256,
                             messages=[{"role": "user", "content": "Hi"}]).text)
"""

from __future__ import annotations

__version__ = "0.1.0"

from ._config import DEFAULT_BASE_URL, FALLBACK_BASE_URL, SEEDROUTER_BASE_URL
from .client import AsyncKimi, Kimi
from .effort import normalize_effort
from .errors import (
    APIConnectionError,
    APIError,
    APIResponseError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ClientConfigError,
    ConflictError,
    HistoryError,
    IncompleteStreamError,
    InternalServerError,
    KimiError,
    NotFoundError,
    PermissionDeniedError,
    QuotaExceededError,
    RateLimitError,
    RequestValidationError,
    StructuredOutputError,
    UnprocessableEntityError,
)
from .results import ChatCompletion, Message, Response, ToolCall
from .usage import Usage, usage_of

__all__ = [
    "DEFAULT_BASE_URL",
    "FALLBACK_BASE_URL",
    "SEEDROUTER_BASE_URL",
    "APIConnectionError",
    "APIError",
    "APIResponseError",
    "APIStatusError",
    "APITimeoutError",
    "AsyncKimi",
    "AuthenticationError",
    "BadRequestError",
    "ChatCompletion",
    "ClientConfigError",
    "ConflictError",
    "HistoryError",
    "IncompleteStreamError",
    "InternalServerError",
    "Kimi",
    "KimiError",
    "Message",
    "NotFoundError",
    "PermissionDeniedError",
    "QuotaExceededError",
    "RateLimitError",
    "RequestValidationError",
    "Response",
    "StructuredOutputError",
    "ToolCall",
    "UnprocessableEntityError",
    "Usage",
    "__version__",
    "normalize_effort",
    "usage_of",
]
