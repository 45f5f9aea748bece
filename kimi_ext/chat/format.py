"""The Chat Completions format (``POST /v1/chat/completions``) as one :class:`Format`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kimi_ext._core.call.format import Format, tool_declaration
from kimi_ext._core.model.parts import content_parts, message, tool_call_part, tool_response_part
from kimi_ext.chat.continued import CONTINUATION
from kimi_ext.chat.history import ChatHistory
from kimi_ext.chat.result import ChatCompletion
from kimi_ext.chat.web_search import WEB_SEARCH_NAMES, echo_if_web_search

if TYPE_CHECKING:
    from kimi_ext.chat.stream import AsyncChatCompletionStream, ChatCompletionStream

__all__ = ["CHAT"]


def _tool_definition(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "function",
        "function": tool_declaration(name, description, "parameters", parameters),
    }


def _place_schema(params: dict[str, Any], schema: dict[str, Any], name: str) -> dict[str, Any]:
    params["response_format"] = {
        "type": "json_schema",
        "json_schema": {"name": name, "schema": schema, "strict": True},
    }
    return params


def _neutral_messages(history: Any) -> list[dict[str, Any]]:
    out = []
    for item in history if isinstance(history, list) else []:
        if not isinstance(item, dict):
            continue
        role = item.get("role")
        if role == "tool":
            response = item.get("content")
            out.append(message(role, [tool_response_part(item.get("tool_call_id"), response)]))
            continue
        reasoning = item.get("reasoning_content")
        parts = [{"type": "reasoning", "content": reasoning}] if reasoning else []
        parts += content_parts(item.get("content"))
        for call in item.get("tool_calls") or []:
            if isinstance(call, dict):
                function = call.get("function") or {}
                parts.append(
                    tool_call_part(call.get("id"), function.get("name"), function.get("arguments"))
                )
        out.append(message(role, parts))
    return out


def _streams() -> tuple[type[ChatCompletionStream], type[AsyncChatCompletionStream]]:
    # Imported on the first stream only: the stream module pulls in the streaming machinery.
    from kimi_ext.chat.stream import AsyncChatCompletionStream, ChatCompletionStream

    return ChatCompletionStream, AsyncChatCompletionStream


CHAT: Format[ChatCompletion, ChatCompletionStream, AsyncChatCompletionStream] = Format(
    name="chat",
    result_type=ChatCompletion,
    history_type=ChatHistory,
    tool_definition=_tool_definition,
    place_schema=_place_schema,
    streams=_streams,
    # Without this, Chat streams end without usage.
    stream_defaults={"stream_options": {"include_usage": True}},
    web_search_names=WEB_SEARCH_NAMES,
    web_search_echo=echo_if_web_search,
    continuation=CONTINUATION,
    neutral_messages=_neutral_messages,
)
