"""The Response result view: typed accessors over the JSON received."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kimi_ext._core.model.result import (
    ListField,
    Result,
    ToolCall,
    is_str,
    joined,
    list_field,
    list_of,
    str_field,
    unfinished_arguments,
)
from kimi_ext._core.model.usage import Usage, int_at

if TYPE_CHECKING:  # the views are for type checkers: nothing imports them at run time
    from kimi_raw.responses.typeddicts import OutputItem

__all__ = ["Response"]


class Response(Result, format="responses", model="ResponseObject"):
    """A Responses result (``create()`` or a finished stream)."""

    __slots__ = ()

    output: ListField[OutputItem] = list_field(
        "The output items as received, unknown item types included (typed as the "
        "``OutputItem`` union: narrow on ``item['type']`` for an item's fields)."
    )

    def _items(self) -> list[Any]:
        """:attr:`output` (the same list), read as plain dicts by the accessors below."""
        return list_of(self._data.get("output"))

    @property
    def text(self) -> str:
        return "".join(
            joined(item.get("content"), "output_text", "text")
            for item in self._items()
            if isinstance(item, dict) and item.get("type") == "message"
        )

    output_text = text

    @property
    def reasoning(self) -> str:
        parts: list[str] = []
        for item in self._items():
            if not isinstance(item, dict) or item.get("type") != "reasoning":
                continue
            content = list_of(item.get("content")) or list_of(item.get("summary"))
            parts.extend(p["text"] for p in content if isinstance(p, dict) and is_str(p, "text"))
        return "".join(parts)

    @property
    def tool_calls(self) -> list[ToolCall]:
        cut = self.status in ("incomplete", None)  # the output limit, or a cut stream
        out = []
        for item in self._items():
            if not isinstance(item, dict):
                continue
            kind = item.get("type")
            if kind not in ("function_call", "custom_tool_call"):
                continue
            arguments = str(item.get("arguments", item.get("input", "")))
            unfinished = cut or item.get("status") in ("incomplete", "in_progress")
            out.append(
                ToolCall(
                    id=str(item.get("call_id", "")),
                    name=str(item.get("name", "")),
                    arguments=arguments,
                    type=str(kind),
                    raw=item,
                    truncated=kind == "function_call"
                    and unfinished
                    and unfinished_arguments(arguments),
                    free_form=kind == "custom_tool_call",
                )
            )
        return out

    status = str_field("The response status (``completed``, ``incomplete``, ``failed``...).")

    @property
    def incomplete_reason(self) -> str | None:
        """Why an incomplete response stopped (``incomplete_details.reason``)."""
        details = self._data.get("incomplete_details")
        return details.get("reason") if isinstance(details, dict) else None

    @property
    def finish_reasons(self) -> list[str]:
        """``[incomplete_details.reason]`` for an incomplete response, else ``[status]``
        (empty without one)."""
        reason = self.incomplete_reason if self.status == "incomplete" else None
        if isinstance(reason, str):
            return [reason]
        status = self.status
        return [status] if status is not None else []

    def _cut_by_output_limit(self) -> bool:
        return self.status == "incomplete"

    def _read_usage(self, usage: dict[str, Any]) -> Usage:
        return Usage(
            total_input=int_at(usage, "input_tokens") or 0,
            cache_read=int_at(usage, "input_tokens_details", "cached_tokens") or 0,
            cache_write=int_at(usage, "input_tokens_details", "cache_write_tokens") or 0,
            output=int_at(usage, "output_tokens") or 0,
            reasoning=int_at(usage, "output_tokens_details", "reasoning_tokens") or 0,
            raw=usage,
        )
