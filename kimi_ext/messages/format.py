"""The Messages format (``POST /v1/messages``) as one :class:`Format`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kimi_ext._core.call.format import Format, set_within, tool_declaration
from kimi_ext._core.model.parts import content_parts, message, tool_call_part, tool_response_part
from kimi_ext.messages.continued import CONTINUATION
from kimi_ext.messages.history import MessagesHistory
from kimi_ext.messages.result import Message

if TYPE_CHECKING:
    from kimi_ext.messages.stream import AsyncMessageStream, MessageStream

__all__ = ["MESSAGES"]


def _tool_definition(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return tool_declaration(name, description, "input_schema", parameters)


def _place_schema(params: dict[str, Any], schema: dict[str, Any], name: str) -> dict[str, Any]:
    # Messages' format carries no name.
    return set_within(params, "output_config", "format", {"type": "json_schema", "schema": schema})


def _neutral_messages(history: Any) -> list[dict[str, Any]]:
    out = []
    for item in history if isinstance(history, list) else []:
        if not isinstance(item, dict):
            continue
        content = item.get("content")
        blocks = content if isinstance(content, list) else [content]
        parts = []
        for block in blocks:
            if not isinstance(block, dict):
                parts.extend(content_parts([block]))
                continue
            kind = block.get("type")
            if kind == "tool_use":
                parts.append(tool_call_part(block.get("id"), block.get("name"), block.get("input")))
            elif kind == "tool_result":
                parts.append(tool_response_part(block.get("tool_use_id"), block.get("content")))
            elif kind == "thinking":
                parts.append({"type": "reasoning", "content": block.get("thinking", "")})
            else:
                parts.extend(content_parts([block]))
        out.append(message(item.get("role"), parts))
    return out


def _streams() -> tuple[type[MessageStream], type[AsyncMessageStream]]:
    # Imported on the first stream only: the stream module pulls in the streaming machinery.
    from kimi_ext.messages.stream import AsyncMessageStream, MessageStream

    return MessageStream, AsyncMessageStream


MESSAGES: Format[Message, MessageStream, AsyncMessageStream] = Format(
    name="messages",
    result_type=Message,
    history_type=MessagesHistory,
    tool_definition=_tool_definition,
    place_schema=_place_schema,
    streams=_streams,
    continuation=CONTINUATION,
    neutral_messages=_neutral_messages,
)
