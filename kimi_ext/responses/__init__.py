"""Responses (``POST /v1/responses``), mirroring ``kimi_raw.responses``.

The stateless item format: ``input`` items replayed whole on every call, ``reasoning``
items, ``function_call`` / ``function_call_output`` pairs and custom tools. Modules:
``params``, ``result``, ``stream``, ``history``, ``format``. Stream classes and the params
TypedDict are imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kimi_ext._core.call.lazy import lazy_attributes
from kimi_ext.responses.format import RESPONSES
from kimi_ext.responses.history import ResponsesHistory
from kimi_ext.responses.result import Response

if TYPE_CHECKING:
    from kimi_ext.responses.params import ResponsesParams
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

# The names imported on first use: name -> module.
_HOMES = {
    "AsyncResponseStream": "kimi_ext.responses.stream",
    "ResponseStream": "kimi_ext.responses.stream",
    "ResponsesStreamEvent": "kimi_ext.responses.stream",
    "ResponsesParams": "kimi_ext.responses.params",
}
__getattr__ = lazy_attributes(__name__, _HOMES)
