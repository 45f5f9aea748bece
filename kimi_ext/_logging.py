"""The ``kimi_ext`` logger. ``KIMI_LOG=debug`` or ``KIMI_LOG=info`` turns it on.

Headers are always logged through :func:`redact_headers`, so the key never reaches a log.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from typing import Any

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


def redact_headers(headers: Iterable[tuple[str, str]], secret: Any = None) -> dict[str, str]:
    """A copy of ``headers`` safe to log: credential headers, and any value that contains
    ``secret`` (a server may echo the key in a response header), become ``<redacted>``."""
    value = secret.get() if hasattr(secret, "get") else secret
    return {
        name: (
            "<redacted>" if name.lower() in SENSITIVE_HEADERS or (value and value in text) else text
        )
        for name, text in headers
    }
