"""Messages (``POST /v1/messages``): everything of this format in one package, mirroring ``kimi_raw.messages``.

``params`` (the typed keyword arguments), ``result`` (the result view), ``stream`` (the
stream and its accumulator), ``history`` (the conversation), ``format`` (the
:class:`~kimi_ext._core.format.Format` the client and the features read).
The stream classes are imported on first use (streaming is heavy to import).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kimi_ext.messages.continued import ContinuedMessage
from kimi_ext.messages.format import MESSAGES
from kimi_ext.messages.history import MessagesHistory
from kimi_ext.messages.params import MessagesParams
from kimi_ext.messages.result import Message

if TYPE_CHECKING:
    from kimi_ext.messages.stream import AsyncMessageStream, MessagesStreamEvent, MessageStream

__all__ = [
    "MESSAGES",
    "AsyncMessageStream",
    "ContinuedMessage",
    "Message",
    "MessageStream",
    "MessagesHistory",
    "MessagesParams",
    "MessagesStreamEvent",
]

_LAZY = frozenset(["AsyncMessageStream", "MessageStream", "MessagesStreamEvent"])


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from kimi_ext.messages import stream

        return getattr(stream, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
