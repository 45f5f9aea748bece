"""Keyword arguments of ``client.chat.completions.create()``, named as on the wire.

``messages`` takes a :class:`~kimi_ext.ChatHistory` or a list of message dicts;
``effort=`` is placed in ``reasoning_effort``. Checked at run time against the contract
before anything is sent; a top-level ``None`` means "not given" and is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kimi_ext._core.effort import Effort
from kimi_ext._core.params import CallOptions

__all__ = ["ChatParams"]


class ChatParams(CallOptions, total=False):
    model: str
    messages: Iterable[Mapping[str, Any]] | Any
    reasoning_effort: Effort | None
    max_completion_tokens: int | None
    max_tokens: int | None
    stream_options: Mapping[str, Any] | None
    tools: Iterable[Mapping[str, Any] | Callable[..., Any]] | None
    tool_choice: str | Mapping[str, Any] | None
    response_format: Mapping[str, Any] | None
    prediction: Mapping[str, Any] | None
    prompt_cache_key: str | None
    prompt_cache_options: Mapping[str, Any] | None
    safety_identifier: str | None
    logprobs: bool | None
    top_logprobs: int | None
    stop: str | list[str] | None
    temperature: float | None
    top_p: float | None
    n: int | None
    frequency_penalty: float | None
    presence_penalty: float | None
