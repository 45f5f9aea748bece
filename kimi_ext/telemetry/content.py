"""Message content for the span, when capturing is on: the conventions' message shapes
(``gen_ai.input.messages``: role and parts; ``gen_ai.output.messages``: the same plus
``finish_reason``), built from any format's body and result, and cut to a size.

Text parts become ``{"type": "text", "content": ...}``; reasoning ``{"type": "reasoning"}``;
tool calls ``{"type": "tool_call", "id", "name", "arguments"}``; a block of another kind is
kept as received under ``{"type": <its type>, "content": <block>}``, so nothing is hidden.
"""

from __future__ import annotations

from typing import Any

__all__ = ["capped", "input_messages", "output_messages"]

_TEXT_TYPES = ("text", "input_text", "output_text")


def capped(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, marked as cut when it was."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"...<cut: {len(text) - limit} more characters>"


def _parts(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "content": content}]
    parts: list[dict[str, Any]] = []
    if isinstance(content, list):
        for block in content:
            if isinstance(block, dict) and block.get("type") in _TEXT_TYPES:
                parts.append({"type": "text", "content": block.get("text", "")})
            elif isinstance(block, dict):
                parts.append({"type": str(block.get("type", "unknown")), "content": block})
            elif isinstance(block, str):
                parts.append({"type": "text", "content": block})
    return parts


def input_messages(
    body: dict[str, Any], history_field: str, system_field: str | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The request's messages and its separate system instructions (if any)."""
    history = body.get(history_field)
    if isinstance(history, str):  # Responses' input may be one text
        history = [{"role": "user", "content": history}]
    messages = []
    for item in history if isinstance(history, list) else []:
        if not isinstance(item, dict):
            continue
        role = item.get("role")
        if role is None:  # a Responses item that is not a message (a tool output, say)
            messages.append({"role": "tool", "parts": [{"type": str(item.get("type")),
                                                        "content": item}]})  # fmt: skip
            continue
        parts = _parts(item.get("content"))
        for call in item.get("tool_calls") or []:
            if isinstance(call, dict):
                function = call.get("function") or {}
                parts.append({"type": "tool_call", "id": call.get("id"),
                              "name": function.get("name"),
                              "arguments": function.get("arguments")})  # fmt: skip
        messages.append({"role": role, "parts": parts})
    system = body.get(system_field) if system_field else None
    return messages, _parts(system) if system else []


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
