"""Keyword arguments of ``client.responses.create()``, named as on the wire.

``input`` takes a :class:`~kimi_ext.ResponsesHistory` (pass its ``instructions`` too), a
list of input items or a string; ``effort=`` goes in ``reasoning``. The endpoint is
stateless: replay the whole history on every call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
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
    tools: Iterable[Mapping[str, Any] | Callable[..., Any]] | None
    tool_choice: str | Mapping[str, Any] | None
    include: list[str] | None
    prompt_cache_key: str | None
    prompt_cache_options: Mapping[str, Any] | None
    safety_identifier: str | None
