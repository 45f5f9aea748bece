"""The ``kimi_ext`` logger. ``KIMI_LOG=debug`` or ``KIMI_LOG=info`` turns it on.

Headers are always logged through :func:`redact_headers`, so the key never reaches a log.
"""

from __future__ import annotations

import logging
import os
import weakref
from collections.abc import Iterable
from typing import Any

from kimi_ext._core.transport.secret import searched_key

logger = logging.getLogger("kimi_ext")

SENSITIVE_HEADERS = frozenset({"authorization", "x-api-key", "api-key", "proxy-authorization"})


def setup_from_env() -> None:
    """Attach a stderr handler at the level KIMI_LOG names (debug or info), once."""
    level = os.environ.get("KIMI_LOG", "").strip().lower()
    if level not in ("debug", "info"):
        return
    logger.setLevel(logging.DEBUG if level == "debug" else logging.INFO)
    if not any(getattr(h, "_kimi_ext", False) for h in logger.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("[%(asctime)s %(name)s %(levelname)s] %(message)s"))
        handler._kimi_ext = True  # type: ignore[attr-defined]
        logger.addHandler(handler)


class _RedactKeys(logging.Filter):
    """Redacts the keys of live clients from records of httpcore's debug trace, which
    prints response heads verbatim (a server may echo the key in a header)."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets: weakref.WeakSet[Any] = weakref.WeakSet()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        changed = message
        for secret in list(self.secrets):
            value = searched_key(secret)
            if value:
                changed = changed.replace(value, "<redacted>")
        if changed is not message and changed != message:
            record.msg, record.args = changed, ()
        return True


_FILTER = _RedactKeys()
_TRACE_LOGGERS = ("httpcore.http11", "httpcore.http2", "httpcore.connection", "httpcore.proxy")


def watch_secret(secret: Any) -> None:
    """Keep ``secret`` (a ``Secret``) out of httpcore's debug log while it lives."""
    if not _FILTER.secrets:
        for name in _TRACE_LOGGERS:
            trace = logging.getLogger(name)
            if _FILTER not in trace.filters:
                trace.addFilter(_FILTER)
    _FILTER.secrets.add(secret)


def redact_headers(headers: Iterable[tuple[str, str]], secret: Any = None) -> dict[str, str]:
    """A copy of ``headers`` safe to log: credential headers, and any value that contains
    ``secret`` (a server may echo the key in a response header), become ``<redacted>``."""
    value = searched_key(secret)
    return {
        name: (
            "<redacted>" if name.lower() in SENSITIVE_HEADERS or (value and value in text) else text
        )
        for name, text in headers
    }
