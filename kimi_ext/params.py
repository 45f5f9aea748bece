"""Keyword arguments of the three ``create()`` calls, named as on the wire.

These TypedDicts give editors and type checkers the field names; the values are checked at
run time by :mod:`kimi_ext._core.validation` before anything is sent. A top-level ``None`` means
"not given" and is left out of the body.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

import httpx

from kimi_ext.effort import Effort


class CallOptions(TypedDict, total=False):
    """Options for one call that are not sent as body fields."""

    effort: Effort | None
    """Reasoning effort, placed in the format's own field. Aliases are normalized:
    medium→high, xhigh→max, minimal→low, none→low (none still reasons)."""
    extra_body: Mapping[str, Any] | None
    """Fields merged into the body after validation, on purpose (not checked)."""
    extra_headers: Mapping[str, str] | None
    timeout: httpx.Timeout | float | None
    max_retries: int | None
    deadline: float | None
    """Seconds within which this call (its retries, and a stream to its end) must be over;
    overrides the client's ``deadline``."""


class ChatParams(CallOptions, total=False):
    model: str
    messages: Iterable[Mapping[str, Any]] | Any
    reasoning_effort: Effort | None
    max_completion_tokens: int | None
    max_tokens: int | None
    stream_options: Mapping[str, Any] | None
    tools: Iterable[Mapping[str, Any]] | None
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


class MessagesParams(CallOptions, total=False):
    model: str
    messages: Iterable[Mapping[str, Any]] | Any
    max_tokens: int
    system: str | Iterable[Mapping[str, Any]] | None
    stop_sequences: list[str] | None
    tools: Iterable[Mapping[str, Any]] | None
    tool_choice: Mapping[str, Any] | None
    metadata: Mapping[str, Any] | None
    cache_control: Mapping[str, Any] | None
    output_config: Mapping[str, Any] | None
    temperature: float | None
    top_p: float | None


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
