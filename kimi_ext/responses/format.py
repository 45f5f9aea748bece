"""The Responses format (``POST /v1/responses``) as one :class:`Format`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kimi_ext._core.call.format import Format, set_within, tool_declaration
from kimi_ext._core.model.parts import content_parts, message, tool_call_part, tool_response_part
from kimi_ext.responses.history import ResponsesHistory
from kimi_ext.responses.result import Response

if TYPE_CHECKING:
    from kimi_ext.responses.stream import AsyncResponseStream, ResponseStream

__all__ = ["RESPONSES"]


def _tool_definition(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return tool_declaration(name, description, "parameters", parameters, type="function")


def _place_schema(params: dict[str, Any], schema: dict[str, Any], name: str) -> dict[str, Any]:
    text_format = {"type": "json_schema", "name": name, "schema": schema, "strict": True}
    return set_within(params, "text", "format", text_format)


_TEXT_TYPES = ("input_text", "output_text", "text")
_CALLS = {"function_call": "arguments", "custom_tool_call": "input"}
_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})


def _neutral_messages(history: Any) -> list[dict[str, Any]]:
    if isinstance(history, str):  # the input may be one text
        return [message("user", content_parts(history))]
    out = []
    for item in history if isinstance(history, list) else []:
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if "role" in item:
            out.append(message(item["role"], content_parts(item.get("content"), _TEXT_TYPES)))
        elif kind in _CALLS:
            call = tool_call_part(item.get("call_id"), item.get("name"), item.get(_CALLS[kind]))
            out.append(message("assistant", [call]))
        elif kind in _OUTPUTS:
            response = tool_response_part(item.get("call_id"), item.get("output"))
            out.append(message("tool", [response]))
        else:  # an item of another kind (reasoning, a builtin tool's work), as received
            role = "assistant" if kind == "reasoning" else "tool"
            out.append(message(role, [{"type": str(kind), "content": item}]))
    return out


def _streams() -> tuple[type[ResponseStream], type[AsyncResponseStream]]:
    # Imported on the first stream only: the stream module pulls in the streaming machinery.
    from kimi_ext.responses.stream import AsyncResponseStream, ResponseStream

    return ResponseStream, AsyncResponseStream


RESPONSES: Format[Response, ResponseStream, AsyncResponseStream] = Format(
    name="responses",
    result_type=Response,
    history_type=ResponsesHistory,
    tool_definition=_tool_definition,
    place_schema=_place_schema,
    streams=_streams,
    neutral_messages=_neutral_messages,
)
