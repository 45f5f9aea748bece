"""The API key, held so it never shows, and the redaction of it from what a server sends.

A :class:`Secret` has no readable ``repr`` and refuses to be pickled; the ``redact*``
functions take the key out of text, bodies and decoded JSON that may echo it (a server
quoting the request in an error, a proxy's page).
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["MIN_SEARCHED_KEY", "Secret", "redact", "redact_bytes", "redact_json", "searched_key"]


class Secret:
    """Holds the API key so that no ``repr``, ``str`` or traceback-with-locals shows it.

    ``get()`` returns the key; the object refuses to be pickled.
    """

    __slots__ = ("__weakref__", "_searched", "_value")

    def __init__(self, value: str) -> None:
        self._value = value
        # The bytes to search kept headers for (see MIN_SEARCHED_KEY), encoded once.
        self._searched = value.encode() if len(value) >= MIN_SEARCHED_KEY else None

    def get(self) -> str:
        """The key itself (to put in a header, or to redact it from text)."""
        return self._value

    def searched_bytes(self) -> bytes | None:
        """The key as bytes, or None when too short to search text for."""
        return self._searched

    def __repr__(self) -> str:
        return "<redacted>"

    __str__ = __repr__

    def __reduce__(self) -> tuple[Any, ...]:
        raise TypeError("an API key cannot be pickled")


def redact(text: str, secret: Secret | str | None) -> str:
    """Remove a secret from text that may echo it (server messages, URLs). Redact before
    cutting text short: a cut through the key would leave most of it behind."""
    value = secret.get() if isinstance(secret, Secret) else secret
    if value and value in text:
        return text.replace(value, "<redacted>")
    return text


# Kept bodies and headers are searched for keys at least this long: a shorter "key" (a
# test's "k") would redact ordinary text. Messages are redacted whatever the length.
MIN_SEARCHED_KEY = 8


def searched_key(secret: Secret | str | None) -> str | None:
    """The key to search kept data for, or None if it is too short to tell apart."""
    value = secret.get() if isinstance(secret, Secret) else secret
    return value if value and len(value) >= MIN_SEARCHED_KEY else None


def redact_bytes(content: bytes, secret: Secret | str | None) -> bytes:
    """:func:`redact` for a body as received (an error body that echoes the key)."""
    value = searched_key(secret)
    if value and value.encode() in content:
        return content.replace(value.encode(), b"<redacted>")
    return content


def redact_json(data: Any, secret: Secret | str | None) -> Any:
    """``data`` (decoded JSON) with the key replaced in every string, if it occurs."""
    value = searched_key(secret)
    if not value or data is None or isinstance(data, int | float):
        return data
    try:
        text = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return data
    escaped = json.dumps(value)[1:-1]
    if escaped not in text:
        return data
    return json.loads(text.replace(escaped, "<redacted>"))
