"""Responses (``POST /v1/responses``): everything of this format in one package, mirroring ``kimi_raw.responses``.

``params`` (the typed keyword arguments), ``result`` (the result view), ``stream`` (the
stream and its accumulator), ``history`` (the conversation), ``format`` (the
:class:`~kimi_ext._core.format.Format` the client and the features read).
The stream classes are imported on first use (streaming is heavy to import).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kimi_ext.responses.format import RESPONSES
from kimi_ext.responses.history import ResponsesHistory
from kimi_ext.responses.params import ResponsesParams
from kimi_ext.responses.result import Response

if TYPE_CHECKING:
    from kimi_ext.responses.stream import AsyncResponseStream, ResponsesStreamEvent, ResponseStream

__all__ = [
    "RESPONSES",
    "AsyncResponseStream",
    "Response",
    "ResponseStream",
    "ResponsesHistory",
    "ResponsesParams",
    "ResponsesStreamEvent",
]

_LAZY = frozenset(["AsyncResponseStream", "ResponseStream", "ResponsesStreamEvent"])


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from kimi_ext.responses import stream

        return getattr(stream, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
