"""One token-usage shape for all three formats.

The formats count input differently (see the reference usage table): Chat and Responses
report a total that already includes cache reads and writes; Messages reports three
disjoint counts whose sum is the total. :func:`usage_of` applies the right rule so cache
tokens are never counted twice::

    u = kimi_ext.usage_of(result)
    print(u.total_input, u.cache_read, u.cache_write, u.uncached_input, u.output, u.reasoning)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Usage", "usage_of"]


@dataclass(frozen=True)
class Usage:
    """Normalized token usage of one call.

    ``total_input`` includes cached tokens; ``uncached_input`` is what remains after
    ``cache_read`` and ``cache_write``. ``output`` includes ``reasoning``.
    ``cache_write_5m`` / ``cache_write_1h`` are None where the format does not split writes.
    """

    total_input: int = 0
    cache_read: int = 0
    cache_write: int = 0
    cache_write_5m: int | None = None
    cache_write_1h: int | None = None
    output: int = 0
    reasoning: int = 0
    web_search_requests: int | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def uncached_input(self) -> int:
        """Input tokens neither read from nor written to the prompt cache."""
        return self.total_input - self.cache_read - self.cache_write

    @property
    def total(self) -> int:
        """All input plus all output tokens."""
        return self.total_input + self.output


def _int(obj: Any, *path: str) -> int | None:
    for key in path:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj if isinstance(obj, int) and not isinstance(obj, bool) else None


def usage_of(result: Any) -> Usage:
    """Normalized :class:`Usage` of a result of any format (a result object or its dict).

    Returns an all-zero Usage when the result carries no usage (for example a stream cut
    before its final usage arrived).
    """
    data = result.to_dict() if hasattr(result, "to_dict") else result
    if not isinstance(data, dict):
        return Usage()
    fmt = getattr(result, "format", None) or guess_format(data)
    usage = data.get("usage")
    if not isinstance(usage, dict) and fmt == "chat":
        # Some gateways put Chat usage inside the first choice.
        choices = data.get("choices")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            usage = choices[0].get("usage")
    if not isinstance(usage, dict):
        return Usage()
    return usage_from(fmt, usage)


def guess_format(data: dict[str, Any]) -> str:
    """chat, messages or responses, from the shape of a result dict."""
    if "choices" in data or str(data.get("object", "")).startswith("chat.completion"):
        return "chat"
    if data.get("type") == "message" or "stop_reason" in data:
        return "messages"
    if data.get("object") == "response" or "output" in data:
        return "responses"
    usage = data.get("usage")
    if isinstance(usage, dict) and ("prompt_tokens" in usage or "completion_tokens" in usage):
        return "chat"
    if isinstance(usage, dict) and "cache_creation_input_tokens" in usage:
        return "messages"
    return "responses"


def _chat_cache_read(usage: dict[str, Any]) -> int:
    """Cache reads: ``prompt_tokens_details.cached_tokens``, else Moonshot's older
    top-level ``cached_tokens``."""
    read = _int(usage, "prompt_tokens_details", "cached_tokens")
    if read is None:
        read = _int(usage, "cached_tokens")
    return read or 0


def usage_from(fmt: str, usage: dict[str, Any]) -> Usage:
    """Normalize the ``usage`` object of one format."""
    if fmt == "chat":
        return Usage(
            total_input=_int(usage, "prompt_tokens") or 0,
            cache_read=_chat_cache_read(usage),
            cache_write=_int(usage, "prompt_tokens_details", "cache_write_tokens") or 0,
            output=_int(usage, "completion_tokens") or 0,
            reasoning=_int(usage, "completion_tokens_details", "reasoning_tokens") or 0,
            raw=usage,
        )
    if fmt == "messages":
        read = _int(usage, "cache_read_input_tokens") or 0
        write = _int(usage, "cache_creation_input_tokens") or 0
        return Usage(
            total_input=(_int(usage, "input_tokens") or 0) + read + write,
            cache_read=read,
            cache_write=write,
            cache_write_5m=_int(usage, "cache_creation", "ephemeral_5m_input_tokens"),
            cache_write_1h=_int(usage, "cache_creation", "ephemeral_1h_input_tokens"),
            output=_int(usage, "output_tokens") or 0,
            reasoning=_int(usage, "output_tokens_details", "thinking_tokens") or 0,
            web_search_requests=_int(usage, "server_tool_use", "web_search_requests"),
            raw=usage,
        )
    return Usage(
        total_input=_int(usage, "input_tokens") or 0,
        cache_read=_int(usage, "input_tokens_details", "cached_tokens") or 0,
        cache_write=_int(usage, "input_tokens_details", "cache_write_tokens") or 0,
        output=_int(usage, "output_tokens") or 0,
        reasoning=_int(usage, "output_tokens_details", "reasoning_tokens") or 0,
        raw=usage,
    )
