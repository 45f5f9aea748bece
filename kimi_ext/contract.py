"""The service's request contract, for code that plays or checks the service.

What the Kimi service accepts is written once, in ``openapi/<format>.yaml``; ``make
generate`` derives each format's contract from it, and the client checks every request
body with it before sending. This module is the documented way to read that same contract
from outside the client (the stand-in, :mod:`kimi_ext.testing`, answers with it):

    >>> from kimi_ext.contract import contract, format_path
    >>> "kimi-k3.1-pro" in contract("chat").known_models
    True
    >>> contract("responses").max_body_bytes > 0
    True
    >>> format_path(("messages", 3, "content"))
    'messages[3].content'

Also here: the rules about a replayed conversation that no schema can state
(:func:`arguments_replayable`, :func:`first_duplicate`), and the Messages content block
types that carry reasoning (:data:`THINKING_TYPES`).
"""

from __future__ import annotations

from kimi_ext._core.contract import (
    Contract,
    Violation,
    contract,
    format_names,
    format_path,
    json_type,
)
from kimi_ext._core.contract.options import MAX_SECONDS
from kimi_ext._core.contract.replay import arguments_replayable, first_duplicate
from kimi_ext._core.model.history import THINKING_TYPES

__all__ = [
    "MAX_SECONDS",
    "THINKING_TYPES",
    "Contract",
    "Violation",
    "arguments_replayable",
    "contract",
    "first_duplicate",
    "format_names",
    "format_path",
    "json_type",
]
