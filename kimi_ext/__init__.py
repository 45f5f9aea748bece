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

from typing import TYPE_CHECKING

from kimi_ext._core.call.lazy import lazy_attributes

# The one table of the public names: name -> the module it lives in. Each is imported on
# first use (PEP 562), not with the package: `import kimi_ext.cli` then runs the command's
# own first lines (its Ctrl-C handling) before the heavy imports, and a program pays only
# for what it uses. The imports under TYPE_CHECKING mirror it for type checkers and the
# layer check (tests/tooling/test_lazy_imports.py holds the two in step).
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
    "SchemaRejectedError": "kimi_ext.errors",
    "StructuredOutputError": "kimi_ext.errors",
    "ToolDefinitionError": "kimi_ext.errors",
    "UnprocessableEntityError": "kimi_ext.errors",
    "Message": "kimi_ext.messages",
    "MessagesHistory": "kimi_ext.messages",
    "Response": "kimi_ext.responses",
    "ResponsesHistory": "kimi_ext.responses",
    "NormalizedSchema": "kimi_ext.schemas",
    "SchemaChange": "kimi_ext.schemas",
    "SchemaIssue": "kimi_ext.schemas",
    "check_schema": "kimi_ext.schemas",
    "normalize_schema": "kimi_ext.schemas",
    "ToolRun": "kimi_ext.tool_loop",
    "Tool": "kimi_ext.tools",
    "tool": "kimi_ext.tools",
    "Usage": "kimi_ext.usage",
    "usage_of": "kimi_ext.usage",
}

if TYPE_CHECKING:
    from kimi_ext._core.contract.effort import normalize_effort as normalize_effort
    from kimi_ext._core.model.result import ToolCall as ToolCall
    from kimi_ext._core.transport.config import DEFAULT_BASE_URL as DEFAULT_BASE_URL
    from kimi_ext._core.transport.config import FALLBACK_BASE_URL as FALLBACK_BASE_URL
    from kimi_ext._core.transport.config import SEEDROUTER_BASE_URL as SEEDROUTER_BASE_URL
    from kimi_ext._core.transport.version import __version__ as __version__
    from kimi_ext.chat import ChatCompletion as ChatCompletion
    from kimi_ext.chat import ChatHistory as ChatHistory
    from kimi_ext.chat import web_search_echo as web_search_echo
    from kimi_ext.client import AsyncKimi as AsyncKimi
    from kimi_ext.client import Kimi as Kimi
    from kimi_ext.continuation import ContinuedChatCompletion as ContinuedChatCompletion
    from kimi_ext.continuation import ContinuedMessage as ContinuedMessage
    from kimi_ext.continuation import resume as resume
    from kimi_ext.errors import APIConnectionError as APIConnectionError
    from kimi_ext.errors import APIError as APIError
    from kimi_ext.errors import APIResponseError as APIResponseError
    from kimi_ext.errors import APIStatusError as APIStatusError
    from kimi_ext.errors import APITimeoutError as APITimeoutError
    from kimi_ext.errors import AuthenticationError as AuthenticationError
    from kimi_ext.errors import BadRequestError as BadRequestError
    from kimi_ext.errors import ClientConfigError as ClientConfigError
    from kimi_ext.errors import ClientStateError as ClientStateError
    from kimi_ext.errors import ConflictError as ConflictError
    from kimi_ext.errors import ContinuationUnsupportedError as ContinuationUnsupportedError
    from kimi_ext.errors import HistoryError as HistoryError
    from kimi_ext.errors import IncompleteStreamError as IncompleteStreamError
    from kimi_ext.errors import InternalServerError as InternalServerError
    from kimi_ext.errors import InvalidToolCallError as InvalidToolCallError
    from kimi_ext.errors import KimiError as KimiError
    from kimi_ext.errors import NotFoundError as NotFoundError
    from kimi_ext.errors import PermissionDeniedError as PermissionDeniedError
    from kimi_ext.errors import QuotaExceededError as QuotaExceededError
    from kimi_ext.errors import RateLimitError as RateLimitError
    from kimi_ext.errors import RequestValidationError as RequestValidationError
    from kimi_ext.errors import SchemaRejectedError as SchemaRejectedError
    from kimi_ext.errors import StructuredOutputError as StructuredOutputError
    from kimi_ext.errors import ToolDefinitionError as ToolDefinitionError
    from kimi_ext.errors import UnprocessableEntityError as UnprocessableEntityError
    from kimi_ext.messages import Message as Message
    from kimi_ext.messages import MessagesHistory as MessagesHistory
    from kimi_ext.responses import Response as Response
    from kimi_ext.responses import ResponsesHistory as ResponsesHistory
    from kimi_ext.schemas import NormalizedSchema as NormalizedSchema
    from kimi_ext.schemas import SchemaChange as SchemaChange
    from kimi_ext.schemas import SchemaIssue as SchemaIssue
    from kimi_ext.schemas import check_schema as check_schema
    from kimi_ext.schemas import normalize_schema as normalize_schema
    from kimi_ext.tool_loop import ToolRun as ToolRun
    from kimi_ext.tools import Tool as Tool
    from kimi_ext.tools import tool as tool
    from kimi_ext.usage import Usage as Usage
    from kimi_ext.usage import usage_of as usage_of


# Derived from the one table: a new public name is a line in _HOMES (and its import above).
__all__ = list(_HOMES)
__getattr__ = lazy_attributes(__name__, _HOMES, submodules=True)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
