"""Keyword arguments of ``client.messages.create()``, named as on the wire.

The body fields, nested shapes included (messages, content blocks, tools, tool_choice ...),
are derived from openapi/messages.yaml by ``make generate``
(``kimi_raw.messages.typeddicts``); the call options (``effort=``, ``timeout=`` ...) are
kimi_ext's own. ``max_tokens`` is required at run time; ``messages`` takes a
:class:`~kimi_ext.MessagesHistory` (pass its ``system`` too) or a list of message dicts;
``effort=`` goes in ``output_config``. Unset (``None``) fields stay off the wire.
"""

from __future__ import annotations

from kimi_raw.messages.typeddicts import MessageParam, MessagesCreateFields

from kimi_ext._core.contract.options import CallOptions

# MessageParam: one item of the history field, for annotating a list built in code.
__all__ = ["MessageParam", "MessagesParams"]


class MessagesParams(MessagesCreateFields, CallOptions, total=False):
    """The keyword arguments of ``create()``, ``stream()`` and ``continue_()``."""
