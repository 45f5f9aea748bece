"""Responses' stream events as its spec names them: those that complete a stream, and
those the stream types (event type -> generated model; the others stay dicts). Read from
the derived contract, in a module of their own so that the stream needs no Format."""

from __future__ import annotations

from kimi_ext._core.contract import contract

__all__ = ["MODELS", "TERMINAL"]

# rule: the stream is complete after one of these (and only then).
TERMINAL = contract("responses").terminal_events
MODELS = contract("responses").stream_events
