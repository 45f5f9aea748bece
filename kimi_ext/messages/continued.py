"""Continuing a Messages answer from a prefix: an assistant turn last (prefill), and the
result that puts the prefix back in front."""

from __future__ import annotations

from typing import Any

from kimi_ext._core.call.format import Continuation
from kimi_ext._core.model.history import with_message
from kimi_ext.messages.result import Message

__all__ = ["CONTINUATION", "ContinuedMessage"]


class ContinuedMessage(Message):
    """A Messages continuation whose first text block starts with ``prefix``."""

    __slots__ = ("continuation", "prefix")

    def __init__(self, prefix: str, continuation: Message) -> None:
        data = dict(continuation.to_dict())
        content: list[Any] = list(continuation.content)  # read as plain dicts
        if prefix:
            for i, block in enumerate(content):
                if isinstance(block, dict) and block.get("type") == "text":
                    text = block.get("text")
                    content[i] = {**block, "text": prefix + (text if isinstance(text, str) else "")}
                    break
            else:
                at = 0
                while (
                    at < len(content)
                    and isinstance(content[at], dict)
                    and content[at].get("type") in ("thinking", "redacted_thinking")
                ):
                    at += 1
                content.insert(at, {"type": "text", "text": prefix})
        data["content"] = content
        super().__init__(data, continuation.http_response)
        self.prefix = prefix
        self.continuation = continuation


def continue_request(prefix: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The prefix sent (without trailing whitespace) and the prefill request (a history
    object stays one, so its system prompt and received turns go as they would)."""
    sent = prefix.rstrip()
    prefill = {"role": "assistant", "content": sent} if sent else None
    return sent, {**params, "messages": with_message(params.get("messages"), prefill)}


CONTINUATION = Continuation(request=continue_request, joined=ContinuedMessage)
