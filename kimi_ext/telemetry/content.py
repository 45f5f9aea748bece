"""Message content for the span, when capturing is on: the conventions' message shapes
(``gen_ai.input.messages``: role and parts; ``gen_ai.output.messages``: the same plus
``finish_reason``), built from any format's body and result, and cut to a size.

The request side is the format's own (its Format's ``neutral_messages``, parts from
:mod:`kimi_ext._core.model.parts`); the result side reads any format's result the same way.
Text parts are ``{"type": "text", "content": ...}``; reasoning ``{"type": "reasoning"}``;
tool calls ``{"type": "tool_call", "id", "name", "arguments"}``; a tool's answer
``{"type": "tool_call_response", "id", "response"}``; a block of another kind is kept as
received under ``{"type": <its type>, "content": <block>}``, so nothing is hidden.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kimi_ext._core.model.parts import content_parts

if TYPE_CHECKING:
    from kimi_ext._core.call.format import Format

__all__ = ["capped", "input_messages", "output_messages"]


def capped(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, marked as cut when it was."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"...<cut: {len(text) - limit} more characters>"


def input_messages(
    body: dict[str, Any], fmt: Format[Any, Any, Any]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The request's messages (its format's neutral form) and its separate system
    instructions (if any)."""
    messages = fmt.neutral_messages(body.get(fmt.history_field))
    system_field = fmt.system_field
    system = body.get(system_field) if system_field else None
    return messages, content_parts(system) if system else []


def output_messages(result: Any) -> list[dict[str, Any]]:
    """The result as the conventions' one output message (any format's result)."""
    parts: list[dict[str, Any]] = []
    reasoning = result.reasoning
    if reasoning:
        parts.append({"type": "reasoning", "content": reasoning})
    text = result.text
    if text:
        parts.append({"type": "text", "content": text})
    for call in result.tool_calls:
        parts.append({"type": "tool_call", "id": call.id, "name": call.name,
                      "arguments": call.arguments})  # fmt: skip
    reasons = result.finish_reasons
    message: dict[str, Any] = {"role": "assistant", "parts": parts}
    if reasons:
        message["finish_reason"] = reasons[0]
    return [message]
