"""The Messages format (``POST /v1/messages``) as one :class:`Format`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kimi_ext._core.format import Format, tool_declaration
from kimi_ext._core.lazy import lazy_class
from kimi_ext.messages.continued import CONTINUATION
from kimi_ext.messages.events import TERMINAL
from kimi_ext.messages.history import MessagesHistory
from kimi_ext.messages.result import Message

if TYPE_CHECKING:
    from kimi_ext.messages.stream import AsyncMessageStream, MessageStream

__all__ = ["MESSAGES"]


def _tool_definition(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return tool_declaration(name, description, "input_schema", parameters)


def _place_schema(params: dict[str, Any], schema: dict[str, Any], name: str) -> dict[str, Any]:
    # Messages' format carries no name.
    config = dict(params.get("output_config") or {})
    config["format"] = {"type": "json_schema", "schema": schema}
    params["output_config"] = config
    return params


MESSAGES: Format[Message, MessageStream, AsyncMessageStream] = Format(
    name="messages",
    raw_module="kimi_raw.messages.api.messages.create_message",
    history_field="messages",
    output_limit_field="max_tokens",
    result_type=Message,
    history_type=MessagesHistory,
    load_stream=lazy_class("kimi_ext.messages.stream", "MessageStream"),
    load_async_stream=lazy_class("kimi_ext.messages.stream", "AsyncMessageStream"),
    final_getter="get_final_message",
    terminal_events=TERMINAL,
    client_path=("messages",),
    tool_definition=_tool_definition,
    place_schema=_place_schema,
    system_field="system",
    continuation=CONTINUATION,
)
