"""Responses' stream events that the stream and the :class:`~kimi_ext._core.format.Format`
both need (in a module of their own, so neither imports the other)."""

from __future__ import annotations

__all__ = ["TERMINAL"]

# rule: the stream is complete after one of these (and only then).
TERMINAL = frozenset({"response.completed", "response.incomplete", "response.failed"})
