"""The ChatCompletion result view: typed accessors over the JSON received."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import httpx

from kimi_ext._core.model.result import (
    ListField,
    Result,
    ToolCall,
    list_field,
    list_of,
    unfinished_arguments,
)
from kimi_ext._core.model.usage import Usage, int_at

if TYPE_CHECKING:  # the views are for type checkers: nothing imports them at run time
    from kimi_raw.chat.typeddicts import ChatCompletionChoice, ChatCompletionMessage

__all__ = ["ChatCompletion"]


class ChatCompletion(Result, format="chat", model="ChatCompletion"):
    """A Chat Completions result (``create()`` or a finished stream)."""

    __slots__ = ("_done_missing",)

    def __init__(self, data: dict[str, Any], response: httpx.Response | None = None) -> None:
        super().__init__(data, response)
        self._done_missing = False

    @property
    def done_missing(self) -> bool:
        """True for a streamed completion whose stream ended after its ``finish_reason``
        without ``data: [DONE]``: accepted as complete, but usage may be missing (None)."""
        return self._done_missing

    choices: ListField[ChatCompletionChoice] = list_field(
        "The ``choices`` as received (an empty list when missing)."
    )

    @property
    def message(self) -> ChatCompletionMessage:
        """The first choice's message (the assistant turn to keep in history), the dict
        received (an empty one when missing)."""
        return cast("ChatCompletionMessage", self._message())

    def _message(self) -> dict[str, Any]:
        """:attr:`message`, read as a plain dict by the accessors below."""
        choices = list_of(self._data.get("choices"))
        if choices and isinstance(choices[0], dict):
            message = choices[0].get("message")
            if isinstance(message, dict):
                return message
        return {}

    @property
    def text(self) -> str:
        content = self._message().get("content")
        return content if isinstance(content, str) else ""

    @property
    def reasoning(self) -> str:
        value = self._message().get("reasoning_content")
        return value if isinstance(value, str) else ""

    @property
    def tool_calls(self) -> list[ToolCall]:
        calls = self._message().get("tool_calls")
        if not isinstance(calls, list):
            return []
        out = []
        cut = self.finish_reason == "length"  # the output limit: the last call may be cut
        for call in calls:
            if not isinstance(call, dict):
                continue
            fn = call.get("function")
            fn = fn if isinstance(fn, dict) else {}
            arguments = str(fn.get("arguments", ""))
            out.append(
                ToolCall(
                    id=str(call.get("id", "")),
                    name=str(fn.get("name", "")),
                    arguments=arguments,
                    type=str(call.get("type", "function")),
                    raw=call,
                    truncated=cut and unfinished_arguments(arguments),
                )
            )
        return out

    @property
    def finish_reason(self) -> str | None:
        """The first choice's ``finish_reason`` (``stop``, ``length``, ``tool_calls``...)."""
        choices = list_of(self._data.get("choices"))
        if choices and isinstance(choices[0], dict):
            reason = choices[0].get("finish_reason")
            return reason if isinstance(reason, str) else None
        return None

    @property
    def finish_reasons(self) -> list[str]:
        """Every choice's ``finish_reason``, in order (those that have one)."""
        return [
            choice["finish_reason"]
            for choice in list_of(self._data.get("choices"))
            if isinstance(choice, dict) and isinstance(choice.get("finish_reason"), str)
        ]

    def _fallback_usage(self) -> Any:
        choices = list_of(self._data.get("choices"))
        return choices[0].get("usage") if choices and isinstance(choices[0], dict) else None

    def _cut_by_output_limit(self) -> bool:
        return self.finish_reason == "length"

    def _read_usage(self, usage: dict[str, Any]) -> Usage:
        return Usage(
            total_input=int_at(usage, "prompt_tokens") or 0,
            cache_read=_cache_read(usage),
            cache_write=int_at(usage, "prompt_tokens_details", "cache_write_tokens") or 0,
            output=int_at(usage, "completion_tokens") or 0,
            reasoning=int_at(usage, "completion_tokens_details", "reasoning_tokens") or 0,
            raw=usage,
        )


def _cache_read(usage: dict[str, Any]) -> int:
    """Cache reads: ``prompt_tokens_details.cached_tokens``, else Moonshot's older
    top-level ``cached_tokens``."""
    read = int_at(usage, "prompt_tokens_details", "cached_tokens")
    if read is None:
        read = int_at(usage, "cached_tokens")
    return read or 0
