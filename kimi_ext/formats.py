"""The three wire formats, and how to find the one a name, result or result dict belongs to.

Also the types every format shares: :class:`Format` (what the three objects are),
:class:`Result` (the base of every result class) and :class:`History` (of every history).

    >>> from kimi_ext.formats import FORMATS, format_named
    >>> [f.name for f in FORMATS]
    ['chat', 'messages', 'responses']
    >>> format_named("messages").history_field
    'messages'
"""

from __future__ import annotations

from typing import Any

from kimi_ext._core.call.format import Format
from kimi_ext._core.model.history import History
from kimi_ext._core.model.result import Result
from kimi_ext.chat.format import CHAT
from kimi_ext.errors import RequestValidationError
from kimi_ext.messages.format import MESSAGES
from kimi_ext.responses.format import RESPONSES

__all__ = [
    "CHAT",
    "FORMATS",
    "MESSAGES",
    "RESPONSES",
    "Format",
    "History",
    "Result",
    "format_named",
    "format_of",
    "guess_format",
]

FORMATS: tuple[Format[Any, Any, Any], ...] = (CHAT, MESSAGES, RESPONSES)
_BY_NAME = {f.name: f for f in FORMATS}


def format_named(name: str | Format[Any, Any, Any]) -> Format[Any, Any, Any]:
    """The Format called ``name`` (a Format is returned as it is).

    Raises :class:`~kimi_ext.RequestValidationError` (a ValueError) for an unknown name.
    """
    if isinstance(name, Format):
        return name
    found = _BY_NAME.get(name) if isinstance(name, str) else None
    if found is None:
        raise RequestValidationError("format", name, f"must be one of {', '.join(_BY_NAME)}")
    return found


def format_of(result: Result) -> Format[Any, Any, Any] | None:
    """The Format of a result object (None for a type that is no format's)."""
    for fmt in FORMATS:
        if isinstance(result, fmt.result_type):
            return fmt
    return None


def guess_format(data: dict[str, Any]) -> Format[Any, Any, Any]:
    """The Format a result dict most likely comes from, by its shape."""
    if "choices" in data or str(data.get("object", "")).startswith("chat.completion"):
        return CHAT
    if data.get("type") == "message" or "stop_reason" in data:
        return MESSAGES
    if data.get("object") == "response" or "output" in data:
        return RESPONSES
    usage = data.get("usage")
    if isinstance(usage, dict) and ("prompt_tokens" in usage or "completion_tokens" in usage):
        return CHAT
    if isinstance(usage, dict) and "cache_creation_input_tokens" in usage:
        return MESSAGES
    return RESPONSES
