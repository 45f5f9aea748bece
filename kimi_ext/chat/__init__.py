"""Chat Completions (``POST /v1/chat/completions``): everything of this format in one package, mirroring ``kimi_raw.chat``.

``params`` (the typed keyword arguments), ``result`` (the result view), ``stream`` (the
stream and its accumulator), ``history`` (the conversation), ``format`` (the
:class:`~kimi_ext._core.format.Format` the client and the features read).
The stream classes are imported on first use (streaming is heavy to import).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kimi_ext.chat.continued import ContinuedChatCompletion
from kimi_ext.chat.format import CHAT
from kimi_ext.chat.history import ChatHistory
from kimi_ext.chat.params import ChatParams
from kimi_ext.chat.result import ChatCompletion
from kimi_ext.chat.web_search import web_search_echo

if TYPE_CHECKING:
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

_LAZY = frozenset(["AsyncChatCompletionStream", "ChatCompletionStream", "ChatStreamEvent"])


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from kimi_ext.chat import stream

        return getattr(stream, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
