"""The context budget: token counts before sending, and requests that fit the window.

Kimi K3.1 Pro's context window is 1,048,576 tokens (the specs' ``x-kimi-context-window``),
input and output together. The gateways have no count endpoint, so counts are made
offline, with no tokenizer::

    count = client.messages.count_tokens(model="kimi-k3.1-pro", max_tokens=1024,
                                         messages=history)
    print(count.input_tokens, count.kind, count.basis, count.remaining)
    print(history.count_tokens().input_tokens)       # the same, from the history itself

A history records the usage the service reported for every turn it received with
``add(result)``; a count starts from the last such turn (exact) and estimates only what
was added after it, at a chars-per-token ratio learned from the same conversation
(:class:`Estimator` for the defaults and how to plug in another rule).

Before sending, a request whose input is sure to exceed the window (the reported tokens
alone do) is refused with :class:`~kimi_ext.RequestValidationError` naming the count and
the window. An output limit of ``"auto"`` (``max_tokens="auto"``, ``max_completion_tokens=
"auto"``, ``max_output_tokens="auto"``) is replaced by the room left in the window, and
refused when that is under :data:`AUTO_OUTPUT_FLOOR` (reasoning spends from the same budget,
so less could end before any visible answer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kimi_ext._core.contract.options import CLIENT_OPTIONS
from kimi_ext._core.model.budget import (
    AUTO_OUTPUT_FLOOR,
    ESTIMATE_MARGIN,
    LEARN_ANCHORS,
    MEDIA_TOKENS,
    CountKind,
    Estimator,
    Size,
    TokenCount,
    count_request,
)
from kimi_ext._core.model.history import History
from kimi_ext.formats import Format, format_named

__all__ = [
    "AUTO_OUTPUT_FLOOR",
    "ESTIMATE_MARGIN",
    "LEARN_ANCHORS",
    "MEDIA_TOKENS",
    "CountKind",
    "Estimator",
    "Size",
    "TokenCount",
    "context_window",
    "count_tokens",
]


def context_window(fmt: str | Format[Any, Any, Any] = "chat") -> int:
    """The context window in tokens, from the format's spec (``x-kimi-context-window``)."""
    return format_named(fmt).contract.context_window


def count_tokens(
    fmt: str | Format[Any, Any, Any],
    params: Mapping[str, Any],
    *,
    estimator: Estimator | None = None,
) -> TokenCount:
    """The input tokens of the request ``params`` (``create()``'s keyword arguments, tool
    definitions as dicts) would send in format ``fmt``, counted offline. A history object
    as the history field is counted from its reported usage. Nothing is validated or sent:
    ``create()`` does that."""
    form = format_named(fmt)
    body = {k: v for k, v in params.items() if v is not None and k not in CLIENT_OPTIONS}
    field = form.history_field
    history = body.get(field)
    records: Sequence[Any] | None = None
    if isinstance(history, History):
        records = history.turn_records()
        body[field] = list(history)
        name = form.system_field
        kept = getattr(history, name, None) if name is not None else None
        if name is not None and kept is not None and body.get(name) is None:
            body[name] = kept
    elif history is not None and not isinstance(history, str | list):
        try:
            body[field] = list(history)
        except TypeError:
            body[field] = [history]
    return count_request(form.name, body, meta=records, estimator=estimator)
