"""Messages (``POST /v1/messages``), mirroring ``kimi_raw.messages``.

The Anthropic-style format: content blocks, signed ``thinking`` blocks that must come
back unchanged, ``tool_use`` / ``tool_result`` pairs, server tools run by the service,
prefill to continue an answer (:mod:`.continued`). Modules: ``params``, ``result``,
``stream``, ``history``, ``format``. Stream classes and the params TypedDict are imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kimi_ext._core.call.lazy import lazy_attributes
from kimi_ext.messages.continued import ContinuedMessage
from kimi_ext.messages.format import MESSAGES
from kimi_ext.messages.history import MessagesHistory
from kimi_ext.messages.result import Message

if TYPE_CHECKING:
    from kimi_ext.messages.params import MessagesParams
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

# The names imported on first use: name -> module.
_HOMES = {
    "AsyncMessageStream": "kimi_ext.messages.stream",
    "MessageStream": "kimi_ext.messages.stream",
    "MessagesStreamEvent": "kimi_ext.messages.stream",
    "MessagesParams": "kimi_ext.messages.params",
}
__getattr__ = lazy_attributes(__name__, _HOMES)
