"""Keyword arguments of ``client.chat.completions.create()``, named as on the wire.

The body fields, nested shapes included (messages, content parts, tools, tool_choice ...),
are derived from openapi/chat.yaml by ``make generate`` (``kimi_raw.chat.typeddicts``); the
call options (``effort=``, ``timeout=`` ...) are kimi_ext's own. ``messages`` takes a
:class:`~kimi_ext.ChatHistory` or a list of message dicts (a literal must match
``ChatMessageParam``; a ``list[dict[str, Any]]`` built at run time passes); ``effort=`` is
placed in ``reasoning_effort``. Checked at run time against the contract before anything
is sent; a top-level ``None`` means "not given" and is left out.
"""

from __future__ import annotations

from kimi_raw.chat.typeddicts import ChatCreateFields, ChatMessageParam

from kimi_ext._core.contract.options import CallOptions

# ChatMessageParam: one item of the history field, for annotating a list built in code.
__all__ = ["ChatMessageParam", "ChatParams"]


class ChatParams(ChatCreateFields, CallOptions, total=False):
    """The keyword arguments of ``create()``, ``stream()`` and ``continue_()``."""
