"""Which recorded interaction answers a request: method, path and canonical body.

The canonical body is the parsed JSON with the volatile fields taken out (``ignore``: dotted
paths, ``*`` for any key or index, e.g. ``"messages.*.cache_control"``) and then passed
through the user's ``normalize`` function, if any. Two requests match when their canonical
bodies are equal (key order and number spelling do not matter). When nothing matches,
:func:`differences` names the paths where the closest recording differs.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kimi_ext.contract import format_path

__all__ = ["DEFAULT_IGNORE", "Difference", "Matcher", "differences"]

# Fields a client may fill differently on every run (an end-user id, a cache key derived
# from a session).
DEFAULT_IGNORE: tuple[str, ...] = (
    "metadata.user_id",
    "prompt_cache_key",
    "safety_identifier",
)


@dataclass(frozen=True)
class Matcher:
    """How requests are matched to recordings (see the module docstring).

    ::

        Matcher(ignore=(*DEFAULT_IGNORE, "temperature"))          # also ignore temperature
        Matcher(normalize=lambda body: {**body, "messages": body["messages"][-1:]})
    """

    ignore: Sequence[str] = DEFAULT_IGNORE
    normalize: Callable[[Any], Any] | None = None
    query: bool = False  # also compare the query string

    def canonical(self, body: Any) -> Any:
        """``body`` without the ignored fields, normalized."""
        if self.ignore and isinstance(body, dict | list):
            body = copy.deepcopy(body)
            for path in self.ignore:
                _drop(body, path.split("."))
        if self.normalize is not None:
            body = self.normalize(body)
        return body


def _drop(node: Any, parts: list[str]) -> None:
    head, rest = parts[0], parts[1:]
    if isinstance(node, dict):
        keys = list(node) if head == "*" else [head] if head in node else []
        for key in keys:
            if rest:
                _drop(node[key], rest)
            else:
                del node[key]
    elif isinstance(node, list):
        if head == "*":
            indexes = range(len(node))
        elif head.isdigit() and int(head) < len(node):
            indexes = range(int(head), int(head) + 1)
        else:
            return
        if rest:
            for i in indexes:
                _drop(node[i], rest)
        elif head != "*":
            del node[int(head)]


@dataclass(frozen=True)
class Difference:
    """A path where two bodies differ, and the values there (``MISSING`` when absent)."""

    path: str
    recorded: Any
    incoming: Any

    def describe(self) -> str:
        """``path: recorded X, got Y``; two long values are shown around their first
        difference (the same window of each), so a change near the end shows."""
        a, b = self.recorded, self.incoming
        if isinstance(a, str) and isinstance(b, str):
            recorded, incoming = (_quoted(*cut) for cut in _windows(a, b))
        else:
            recorded, incoming = (f"{text}{'...' * tail}" if head == 0 else
                                  f"...{text}{'...' * tail}"
                                  for text, head, tail in _windows(repr(a), repr(b)))  # fmt: skip
        return f"{self.path or '(the body)'}: recorded {recorded}, got {incoming}"


MISSING: Any = type("Missing", (), {"__repr__": lambda self: "(missing)"})()

_WIDTH = 60  # characters of each value shown
_BEFORE = 20  # of them, before the first difference


def _windows(a: str, b: str) -> tuple[tuple[str, int, bool], tuple[str, int, bool]]:
    """``a`` and ``b``, each cut to the same window around their first difference: (the
    window, where it starts, whether something follows it)."""
    if len(a) <= _WIDTH and len(b) <= _WIDTH:
        return (a, 0, False), (b, 0, False)
    first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
    if first is None:
        first = min(len(a), len(b))
    start = max(0, first - _BEFORE)
    end = start + _WIDTH
    return (a[start:end], start, end < len(a)), (b[start:end], start, end < len(b))


def _quoted(text: str, start: int, more: bool) -> str:
    """``text`` as a quoted string, with ``...`` inside the quotes where it was cut."""
    quoted = repr(text)
    return quoted[0] + "..." * bool(start) + quoted[1:-1] + "..." * more + quoted[-1]


def differences(recorded: Any, incoming: Any, limit: int = 1000) -> list[Difference]:
    """The paths where ``incoming`` differs from ``recorded`` (at most ``limit``)."""
    out: list[Difference] = []
    _walk(recorded, incoming, (), out, limit)
    return out


def _walk(a: Any, b: Any, at: tuple[str | int, ...], out: list[Difference], limit: int) -> None:
    if len(out) >= limit:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            _walk(a.get(key, MISSING), b.get(key, MISSING), (*at, key), out, limit)
        return
    if isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            _walk(
                a[i] if i < len(a) else MISSING,
                b[i] if i < len(b) else MISSING,
                (*at, i),
                out,
                limit,
            )
        return
    if a is MISSING or b is MISSING or (type(a) is not type(b) and not _numbers(a, b)) or a != b:
        out.append(Difference(format_path(at, style="python"), a, b))


def _numbers(a: Any, b: Any) -> bool:
    return all(isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b))
