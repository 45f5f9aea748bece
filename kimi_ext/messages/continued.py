"""Continuing a Messages answer from a prefix: an assistant turn last (prefill), and the
result that puts the prefix back in front."""

from __future__ import annotations

from typing import Any

from kimi_ext._core.call.format import Continuation
from kimi_ext._core.model.history import THINKING_TYPES, with_message
from kimi_ext.messages.result import Message

__all__ = ["CONTINUATION", "ContinuedMessage"]


class ContinuedMessage(Message):
    """A Messages continuation whose first text block starts with ``prefix``.

    When it resumes a cut stream, ``partial`` is the message that was cut. Its reasoning
    blocks come first in ``content``, before the continuation's, so the turn replays them
    as received; ``reasoning`` is the partial's reasoning followed by the continuation's.
    A thinking block the cut interrupted (the last block of a message that never ended,
    with no signature) is not in ``content``: the service takes thinking back only whole
    and signed, so it is not replayed; it stays in ``reasoning`` and on ``partial`` (or
    ``continuation``, when the continuation was cut too)."""

    __slots__ = ("continuation", "partial", "prefix")

    def __init__(self, prefix: str, continuation: Message, partial: Message | None = None) -> None:
        data = dict(continuation.to_dict())
        content: list[Any] = _finished_blocks(continuation)  # read as plain dicts
        if partial is not None:
            content = [
                b
                for b in _finished_blocks(partial)
                if isinstance(b, dict) and b.get("type") in THINKING_TYPES
            ] + content
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
                    and content[at].get("type") in THINKING_TYPES
                ):
                    at += 1
                content.insert(at, {"type": "text", "text": prefix})
        data["content"] = content
        super().__init__(data, continuation.http_response)
        self.prefix = prefix
        self.continuation = continuation
        self.partial = partial

    @property
    def reasoning(self) -> str:
        """All the reasoning received, in order: the partial's (cut blocks too), then the
        continuation's."""
        before = self.partial.reasoning if self.partial is not None else ""
        return before + self.continuation.reasoning


def _finished_blocks(message: Message) -> list[Any]:
    """The message's blocks without a thinking block the cut interrupted: the last block
    of a message that never ended (no ``stop_reason``), arrived without its signature."""
    content: list[Any] = list(message.content)
    last = content[-1] if content else None
    if (
        message.stop_reason is None
        and isinstance(last, dict)
        and last.get("type") == "thinking"
        and not last.get("signature")
    ):
        content.pop()
    return content


def continue_request(prefix: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The prefix sent (without trailing whitespace) and the prefill request (a history
    object stays one, so its system prompt and received turns go as they would)."""
    sent = prefix.rstrip()
    prefill = {"role": "assistant", "content": sent} if sent else None
    return sent, {**params, "messages": with_message(params.get("messages"), prefill)}


CONTINUATION = Continuation(request=continue_request, joined=ContinuedMessage)
