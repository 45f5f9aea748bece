"""kimi-ext: a fast, correct client for Kimi K3.1 Pro in all three wire formats.

::

    from kimi_ext import Kimi

    client = Kimi()  # KIMI_API_KEY; KIMI_BASE_URL or https://direct.evolink.ai
    print(client.messages.create(model="kimi-k3.1-pro", max_tokens=256,
                                 messages=[{"role": "user", "content": "Hi"}]).text)

What is here:

- :class:`Kimi` and :class:`AsyncKimi`: ``client.chat.completions``, ``client.messages`` and
  ``client.responses``, each with ``create``, ``stream``, ``parse`` (structured output into
  a dataclass, TypedDict or pydantic model) and ``run_tools``.
- :class:`ChatHistory`, :class:`MessagesHistory`, :class:`ResponsesHistory`: conversations
  that keep reasoning, signatures and tool-call ids exactly as received.
- :func:`tool`, :func:`web_search_echo`, :func:`resume`, :func:`usage_of`,
  :func:`normalize_effort`; ``kimi_ext.images`` for image parts.
- Errors, all subclasses of :class:`KimiError`.
- ``kimi_ext.testing``: an offline stand-in server; ``kimi``: the command line.
"""

from __future__ import annotations

from kimi_ext._core.config import DEFAULT_BASE_URL, FALLBACK_BASE_URL, SEEDROUTER_BASE_URL
from kimi_ext._core.effort import normalize_effort
from kimi_ext._core.result import ToolCall
from kimi_ext._core.version import __version__
from kimi_ext.chat import ChatCompletion, ChatHistory, web_search_echo
from kimi_ext.client import AsyncKimi, Kimi
from kimi_ext.continuation import ContinuedChatCompletion, ContinuedMessage, resume
from kimi_ext.errors import (
    APIConnectionError,
    APIError,
    APIResponseError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ClientConfigError,
    ClientStateError,
    ConflictError,
    ContinuationUnsupportedError,
    HistoryError,
    IncompleteStreamError,
    InternalServerError,
    InvalidToolCallError,
    KimiError,
    NotFoundError,
    PermissionDeniedError,
    QuotaExceededError,
    RateLimitError,
    RequestValidationError,
    StructuredOutputError,
    ToolDefinitionError,
    UnprocessableEntityError,
)
from kimi_ext.messages import Message, MessagesHistory
from kimi_ext.responses import Response, ResponsesHistory
from kimi_ext.tool_loop import ToolRun
from kimi_ext.tools import Tool, tool
from kimi_ext.usage import Usage, usage_of

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
    "ChatHistory",
    "ClientConfigError",
    "ClientStateError",
    "ConflictError",
    "ContinuationUnsupportedError",
    "ContinuedChatCompletion",
    "ContinuedMessage",
    "HistoryError",
    "IncompleteStreamError",
    "InternalServerError",
    "InvalidToolCallError",
    "Kimi",
    "KimiError",
    "Message",
    "MessagesHistory",
    "NotFoundError",
    "PermissionDeniedError",
    "QuotaExceededError",
    "RateLimitError",
    "RequestValidationError",
    "Response",
    "ResponsesHistory",
    "StructuredOutputError",
    "Tool",
    "ToolCall",
    "ToolDefinitionError",
    "ToolRun",
    "UnprocessableEntityError",
    "Usage",
    "__version__",
    "normalize_effort",
    "resume",
    "tool",
    "usage_of",
    "web_search_echo",
]
