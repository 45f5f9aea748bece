"""Small text facts shared by the request builder, the histories and the contract."""

from __future__ import annotations


def has_lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds half of a UTF-16 surrogate pair, which UTF-8 cannot encode."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
