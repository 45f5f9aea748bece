"""Continuing a Chat answer from a prefix: partial mode (an assistant message with
``partial: true`` last), and the result that puts the prefix back in front."""

from __future__ import annotations

from typing import Any

from kimi_ext._core.call.format import Continuation
from kimi_ext._core.model.history import with_message
from kimi_ext.chat.result import ChatCompletion

__all__ = ["CONTINUATION", "ContinuedChatCompletion"]


class ContinuedChatCompletion(ChatCompletion):
    """A Chat continuation whose message content is ``prefix`` + the continuation.

    When it resumes a cut stream, ``partial`` is the result that was cut, and the
    message's ``reasoning_content`` is the partial's reasoning followed by the
    continuation's (Chat takes any reasoning text back, so all of it is replayed)."""

    __slots__ = ("continuation", "partial", "prefix")

    def __init__(
        self, prefix: str, continuation: ChatCompletion, partial: ChatCompletion | None = None
    ) -> None:
        data = dict(continuation.to_dict())
        before = partial.reasoning if partial is not None else ""
        choices = data.get("choices")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            first = dict(choices[0])
            message = dict(first.get("message") or {})
            content = message.get("content")
            message["content"] = prefix + (content if isinstance(content, str) else "")
            if before:
                message["reasoning_content"] = before + continuation.reasoning
            first["message"] = message
            data["choices"] = [first, *choices[1:]]
        else:
            message = {"role": "assistant", "content": prefix}
            if before:
                message["reasoning_content"] = before
            data["choices"] = [{"index": 0, "message": message}]
        super().__init__(data, continuation.http_response)
        self.prefix = prefix
        self.continuation = continuation
        self.partial = partial


def continue_request(prefix: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The prefix sent (all of it) and the partial-mode request."""
    partial = {"role": "assistant", "content": prefix, "partial": True} if prefix else None
    return prefix, {**params, "messages": with_message(params.get("messages"), partial)}


CONTINUATION = Continuation(request=continue_request, joined=ContinuedChatCompletion)
