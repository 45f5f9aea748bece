"""The Message result view: typed accessors over the JSON received."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from kimi_ext._core.model.result import (
    ListField,
    Result,
    ToolCall,
    joined,
    list_field,
    list_of,
    str_field,
)
from kimi_ext._core.model.usage import Usage, int_at

if TYPE_CHECKING:  # the views are for type checkers: nothing imports them at run time
    from kimi_raw.messages.typeddicts import ContentBlock

__all__ = ["Message"]


class Message(Result, format="messages", model="MessageResponse"):
    """A Messages result (``create()`` or a finished stream)."""

    __slots__ = ()

    content: ListField[ContentBlock] = list_field(
        "The content blocks as received, unknown block types included (typed as the "
        "``ContentBlock`` union: narrow on ``block['type']`` for a block's fields)."
    )

    @property
    def role(self) -> str:
        """The message's role (``assistant``)."""
        return str(self._data.get("role", "assistant"))

    @property
    def text(self) -> str:
        return joined(self.content, "text", "text")

    @property
    def reasoning(self) -> str:
        return joined(self.content, "thinking", "thinking")

    @property
    def tool_calls(self) -> list[ToolCall]:
        # A block whose input_json_delta text never became JSON keeps it as partial_json:
        # with stop_reason max_tokens (or none yet: a cut stream) the call was truncated.
        # At max_tokens a tool_use that is the last block was still being written: its
        # input (often {}) cannot be trusted either.
        cut = self.stop_reason in ("max_tokens", None)
        content = list_of(self._data.get("content"))  # the same list, read as plain dicts
        last = content[-1] if content and self.stop_reason == "max_tokens" else None
        out = []
        for b in content:
            if not isinstance(b, dict) or b.get("type") != "tool_use":
                continue
            partial = b.get("partial_json")
            value = b.get("input", {})
            if isinstance(partial, str):
                arguments = partial
            elif isinstance(value, str):  # a gateway that sent the input JSON-encoded
                arguments = value
            else:
                arguments = json.dumps(value, ensure_ascii=False)
            out.append(
                ToolCall(
                    id=str(b.get("id", "")),
                    name=str(b.get("name", "")),
                    arguments=arguments,
                    type="tool_use",
                    raw=b,
                    truncated=(isinstance(partial, str) and cut) or b is last,
                    # the input arrives decoded (unless a gateway JSON-encoded it)
                    decoded=value if isinstance(value, dict) and partial is None else None,
                )
            )
        return out

    stop_reason = str_field(
        "Why generation stopped (``end_turn``, ``max_tokens``, ``tool_use``...)."
    )
    stop_sequence = str_field(
        "The stop sequence that ended generation, when the service reports one."
    )

    @property
    def finish_reasons(self) -> list[str]:
        """``[stop_reason]`` (empty without one)."""
        reason = self.stop_reason
        return [reason] if reason is not None else []

    def _cut_by_output_limit(self) -> bool:
        return self.stop_reason == "max_tokens"

    def _paused(self) -> bool:
        return self.stop_reason == "pause_turn"

    def _read_usage(self, usage: dict[str, Any]) -> Usage:
        # Messages' input_tokens excludes the cache: the total is the sum of three counts.
        read = int_at(usage, "cache_read_input_tokens") or 0
        write = int_at(usage, "cache_creation_input_tokens") or 0
        return Usage(
            total_input=(int_at(usage, "input_tokens") or 0) + read + write,
            cache_read=read,
            cache_write=write,
            cache_write_5m=int_at(usage, "cache_creation", "ephemeral_5m_input_tokens"),
            cache_write_1h=int_at(usage, "cache_creation", "ephemeral_1h_input_tokens"),
            output=int_at(usage, "output_tokens") or 0,
            reasoning=int_at(usage, "output_tokens_details", "thinking_tokens") or 0,
            web_search_requests=int_at(usage, "server_tool_use", "web_search_requests"),
            raw=usage,
        )
