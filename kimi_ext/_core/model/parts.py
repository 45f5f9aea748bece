"""A conversation in neutral form, the same for every format: a message is
``{"role": ..., "parts": [...]}`` and a part is text, a tool call, a tool's answer, or a
block of another kind kept as received (the GenAI conventions' message shapes, which
telemetry records as ``gen_ai.input.messages``).

Each format turns its own history into this with its Format's ``neutral_messages``
(``kimi_ext/<format>/format.py``); these helpers are the parts they share.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

__all__ = ["content_parts", "message", "text_part", "tool_call_part", "tool_response_part"]


def text_part(text: Any) -> dict[str, Any]:
    return {"type": "text", "content": text}


def tool_call_part(call_id: Any, name: Any, arguments: Any) -> dict[str, Any]:
    return {"type": "tool_call", "id": call_id, "name": name, "arguments": arguments}


def tool_response_part(call_id: Any, response: Any) -> dict[str, Any]:
    return {"type": "tool_call_response", "id": call_id, "response": response}


def message(role: Any, parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {"role": role, "parts": parts}


def content_parts(content: Any, text_types: Collection[str] = ("text",)) -> list[dict[str, Any]]:
    """The parts of a message's content: a string is one text part; in a list, a block of
    one of ``text_types`` is a text part, a string is too, and any other block is kept as
    received under its own type (nothing is hidden)."""
    if isinstance(content, str):
        return [text_part(content)]
    parts: list[dict[str, Any]] = []
    if isinstance(content, list):
        for block in content:
            if isinstance(block, dict) and block.get("type") in text_types:
                parts.append(text_part(block.get("text", "")))
            elif isinstance(block, dict):
                parts.append({"type": str(block.get("type", "unknown")), "content": block})
            elif isinstance(block, str):
                parts.append(text_part(block))
    return parts
