"""Keyword arguments of ``client.responses.create()``, named as on the wire.

The TypedDict gives editors and type checkers the field names; the values are checked at
run time against the contract before anything is sent. A top-level ``None`` means "not
given" and is left out of the body.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kimi_ext._core.params import CallOptions

__all__ = ["ResponsesParams"]


class ResponsesParams(CallOptions, total=False):
    model: str
    input: str | Iterable[Mapping[str, Any]] | Any
    instructions: str | None
    max_output_tokens: int | None
    reasoning: Mapping[str, Any] | None
    text: Mapping[str, Any] | None
    tools: Iterable[Mapping[str, Any]] | None
    tool_choice: str | Mapping[str, Any] | None
    include: list[str] | None
    prompt_cache_key: str | None
    prompt_cache_options: Mapping[str, Any] | None
    safety_identifier: str | None
