"""Chat Completions (``POST /v1/chat/completions``), mirroring ``kimi_raw.chat``.

The OpenAI-style format: ``messages`` with ``role``, reasoning in ``reasoning_content``,
tool calls under ``tool_calls``, the builtin ``$web_search`` answered by the client
(:mod:`.web_search`), partial mode to continue an answer (:mod:`.continued`). Modules:
``params``, ``result``, ``stream``, ``history``, ``format`` (its
:class:`~kimi_ext._core.call.format.Format`). Stream classes and the params TypedDict are imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kimi_ext._core.call.lazy import lazy_attributes
from kimi_ext.chat.continued import ContinuedChatCompletion
from kimi_ext.chat.format import CHAT
from kimi_ext.chat.history import ChatHistory
from kimi_ext.chat.result import ChatCompletion
from kimi_ext.chat.web_search import web_search_echo

if TYPE_CHECKING:
    from kimi_ext.chat.params import ChatParams
    from kimi_ext.chat.stream import (
        AsyncChatCompletionStream,
        ChatCompletionStream,
        ChatStreamEvent,
    )

__all__ = [
    "CHAT",
    "AsyncChatCompletionStream",
    "ChatCompletion",
    "ChatCompletionStream",
    "ChatHistory",
    "ChatParams",
    "ChatStreamEvent",
    "ContinuedChatCompletion",
    "web_search_echo",
]

# The names imported on first use: name -> module.
_HOMES = {
    "AsyncChatCompletionStream": "kimi_ext.chat.stream",
    "ChatCompletionStream": "kimi_ext.chat.stream",
    "ChatStreamEvent": "kimi_ext.chat.stream",
    "ChatParams": "kimi_ext.chat.params",
}
__getattr__ = lazy_attributes(__name__, _HOMES)
