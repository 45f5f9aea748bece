"""Keyword arguments of ``client.messages.create()``, named as on the wire.

``max_tokens`` is required; ``messages`` takes a :class:`~kimi_ext.MessagesHistory` (pass
its ``system`` too) or a list of message dicts; ``effort=`` goes in ``output_config``.
Unset (``None``) fields stay off the wire.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kimi_ext._core.params import CallOptions

__all__ = ["MessagesParams"]


class MessagesParams(CallOptions, total=False):
    model: str
    messages: Iterable[Mapping[str, Any]] | Any
    max_tokens: int
    system: str | Iterable[Mapping[str, Any]] | None
    stop_sequences: list[str] | None
    tools: Iterable[Mapping[str, Any] | Callable[..., Any]] | None
    tool_choice: Mapping[str, Any] | None
    metadata: Mapping[str, Any] | None
    cache_control: Mapping[str, Any] | None
    output_config: Mapping[str, Any] | None
    temperature: float | None
    top_p: float | None
