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

import importlib
from typing import TYPE_CHECKING, Any

# The public names are imported on first use (PEP 562), not with the package: `import
# kimi_ext.cli` then runs the command's own first lines (its Ctrl-C handling) before the
# heavy imports, and a program pays only for what it uses.
_HOMES: dict[str, str] = {
    "DEFAULT_BASE_URL": "kimi_ext._core.transport.config",
    "FALLBACK_BASE_URL": "kimi_ext._core.transport.config",
    "SEEDROUTER_BASE_URL": "kimi_ext._core.transport.config",
    "normalize_effort": "kimi_ext._core.contract.effort",
    "ToolCall": "kimi_ext._core.model.result",
    "__version__": "kimi_ext._core.transport.version",
    "ChatCompletion": "kimi_ext.chat",
    "ChatHistory": "kimi_ext.chat",
    "web_search_echo": "kimi_ext.chat",
    "AsyncKimi": "kimi_ext.client",
    "Kimi": "kimi_ext.client",
    "ContinuedChatCompletion": "kimi_ext.continuation",
    "ContinuedMessage": "kimi_ext.continuation",
    "resume": "kimi_ext.continuation",
    "APIConnectionError": "kimi_ext.errors",
    "APIError": "kimi_ext.errors",
    "APIResponseError": "kimi_ext.errors",
    "APIStatusError": "kimi_ext.errors",
    "APITimeoutError": "kimi_ext.errors",
    "AuthenticationError": "kimi_ext.errors",
    "BadRequestError": "kimi_ext.errors",
    "ClientConfigError": "kimi_ext.errors",
    "ClientStateError": "kimi_ext.errors",
    "ConflictError": "kimi_ext.errors",
    "ContinuationUnsupportedError": "kimi_ext.errors",
    "HistoryError": "kimi_ext.errors",
    "IncompleteStreamError": "kimi_ext.errors",
    "InternalServerError": "kimi_ext.errors",
    "InvalidToolCallError": "kimi_ext.errors",
    "KimiError": "kimi_ext.errors",
    "NotFoundError": "kimi_ext.errors",
    "PermissionDeniedError": "kimi_ext.errors",
    "QuotaExceededError": "kimi_ext.errors",
    "RateLimitError": "kimi_ext.errors",
    "RequestValidationError": "kimi_ext.errors",
    "StructuredOutputError": "kimi_ext.errors",
    "ToolDefinitionError": "kimi_ext.errors",
    "UnprocessableEntityError": "kimi_ext.errors",
    "Message": "kimi_ext.messages",
    "MessagesHistory": "kimi_ext.messages",
    "Response": "kimi_ext.responses",
    "ResponsesHistory": "kimi_ext.responses",
    "ToolRun": "kimi_ext.tool_loop",
    "Tool": "kimi_ext.tools",
    "tool": "kimi_ext.tools",
    "Usage": "kimi_ext.usage",
    "usage_of": "kimi_ext.usage",
}

if TYPE_CHECKING:
    from kimi_ext._core.contract.effort import normalize_effort
    from kimi_ext._core.model.result import ToolCall
    from kimi_ext._core.transport.config import (
        DEFAULT_BASE_URL,
        FALLBACK_BASE_URL,
        SEEDROUTER_BASE_URL,
    )
    from kimi_ext._core.transport.version import __version__
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


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        # A submodule (kimi_ext.formats ...), as `import kimi_ext` made them reachable.
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
