"""Keyword arguments of ``client.responses.create()``, named as on the wire.

The body fields, nested shapes included (input items, content parts, tools, tool_choice
...), are derived from openapi/responses.yaml by ``make generate``
(``kimi_raw.responses.typeddicts``); the call options (``effort=``, ``timeout=`` ...) are
kimi_ext's own. ``input`` takes a :class:`~kimi_ext.ResponsesHistory` (pass its
``instructions`` too), a list of input items or a string; ``effort=`` goes in
``reasoning``. The endpoint is stateless: replay the whole history on every call.
"""

from __future__ import annotations

from kimi_raw.responses.typeddicts import InputItemParam, ResponsesCreateFields

from kimi_ext._core.contract.options import CallOptions

# InputItemParam: one item of the history field, for annotating a list built in code.
__all__ = ["InputItemParam", "ResponsesParams"]


class ResponsesParams(ResponsesCreateFields, CallOptions, total=False):
    """The keyword arguments of ``create()``, ``stream()`` and ``continue_()``."""
