"""The Responses format (``POST /v1/responses``) as one :class:`Format`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kimi_ext._core.call.format import Format, set_within, tool_declaration
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
)
