"""Keeping secrets out of cassettes: the key in every form a recorder could copy it.

A :class:`Scrubber` knows the keys it has seen (each request's ``Authorization`` /
``x-api-key``) and the user's own scrubbers (literal strings, regular expressions or
functions). :meth:`Scrubber.scrub` replaces, in a text, every 8-character piece of a key
in every form: raw, JSON-escaped, URL-encoded, hex, and
base64 (standard and URL-safe, at the three alignments a key can have inside a longer
encoded blob such as a ``Basic`` credential), so no fragment long enough to matter survives.

:func:`key_like` finds what looks like a credential in a text without knowing the key (the
``kimi cassettes check`` scan).
"""

from __future__ import annotations

import base64
import json
import re
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from re import Pattern

from kimi_ext.keys import MIN_SEARCHED_KEY

__all__ = [
    "PIECE",
    "REDACTED",
    "Scrubber",
    "key_forms",
    "key_like",
    "key_like_spans",
    "key_pieces",
]

REDACTED = "<redacted>"
PIECE = 8  # the length of a key fragment that must not survive

UserScrubber = str | Pattern[str] | Callable[[str], str]


def key_forms(key: str) -> set[str]:
    """The texts ``key`` may appear as: raw, JSON-escaped, URL-encoded, hex and the parts
    of its base64 encodings that depend on the key alone, at each alignment."""
    raw = key.encode("utf-8", "surrogatepass")
    forms = {
        key,
        json.dumps(key)[1:-1],
        json.dumps(key, ensure_ascii=False)[1:-1],
        urllib.parse.quote(key, safe=""),
        urllib.parse.quote_plus(key),
        raw.hex(),
    }
    for offset in range(3):
        # Output character j covers bits [6j, 6j + 6): keep the characters whose bits all
        # come from the key (the rest depend on what surrounds it).
        padded = b"\0" * offset + raw + b"\0\0"
        first = -(-8 * offset // 6)
        end = (8 * (offset + len(raw))) // 6
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            forms.add(encode(padded).decode("ascii")[first:end])
    return {form for form in forms if form}


def key_pieces(key: str) -> set[str]:
    """Every ``PIECE``-character window of every form of ``key`` (a form shorter than
    that: the whole form)."""
    pieces: set[str] = set()
    for form in key_forms(key):
        if len(form) <= PIECE:
            pieces.add(form)
        else:
            pieces.update(form[i : i + PIECE] for i in range(len(form) - PIECE + 1))
    return pieces


@dataclass(repr=False)
class Scrubber:
    """Replaces secrets in text with ``<redacted>`` (see the module docstring).

    ``scrubbers`` are the user's: a literal string (replaced wherever it occurs), a
    compiled regular expression (each match replaced) or a function from text to text.
    """

    scrubbers: Iterable[UserScrubber] = ()
    _pieces: set[str] = field(default_factory=set)
    _shortest: int = PIECE
    _run: Pattern[str] | None = None
    _user: list[UserScrubber] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._user = list(self.scrubbers)
        for scrubber in self._user:
            if not isinstance(scrubber, str | Pattern) and not callable(scrubber):
                raise TypeError(
                    f"a scrubber must be a string, a compiled pattern or a function, "
                    f"not {type(scrubber).__name__}"
                )

    def add_secret(self, key: str) -> None:
        """Scrub every form of ``key`` from now on (a key shorter than 8 characters, such
        as a test's ``"k"``, is ignored: it cannot be told apart from ordinary text)."""
        key = key.strip()
        if len(key) < MIN_SEARCHED_KEY:
            return  # too short to tell apart from ordinary text (a test's "k")
        new = key_pieces(key) - self._pieces
        if not new:
            return
        self._pieces |= new
        self._shortest = min(len(p) for p in self._pieces)
        # Candidate runs: characters that occur in some piece, as long as the shortest
        # piece; each run is then checked window by window (a set lookup per position).
        alphabet = "".join(sorted({c for p in self._pieces for c in p}))
        self._run = re.compile(f"[{re.escape(alphabet)}]{{{self._shortest},}}")

    def __repr__(self) -> str:
        # Never the pieces themselves: they are the key.
        return f"<Scrubber: {len(self._user)} user scrubbers, keys {'known' if self._pieces else 'none'}>"

    def __reduce__(self) -> tuple[object, ...]:
        raise TypeError("a Scrubber holds pieces of keys and cannot be pickled")

    @property
    def has_secrets(self) -> bool:
        """Whether a key was added."""
        return bool(self._pieces)

    def scrub(self, text: str) -> str:
        """``text`` with every known secret piece and every user scrubber's match replaced."""
        text = self._scrub_keys(text)
        for scrubber in self._user:
            if isinstance(scrubber, str):
                if scrubber:
                    text = text.replace(scrubber, REDACTED)
            elif isinstance(scrubber, Pattern):
                text = scrubber.sub(REDACTED, text)
            else:
                text = scrubber(text)
        return text

    def found(self, text: str) -> bool:
        """Whether ``text`` holds a piece of a known key."""
        return any(True for _ in self._spans(text))

    def _spans(self, text: str) -> Iterator[tuple[int, int]]:
        run = self._run
        if run is None:
            return
        pieces, sizes = self._pieces, sorted({len(p) for p in self._pieces})
        for match in run.finditer(text):
            chunk, base = match[0], match.start()
            for i in range(len(chunk) - self._shortest + 1):
                for size in sizes:
                    if chunk[i : i + size] in pieces:
                        yield base + i, base + i + size

    def spans(self, text: str, *, user: bool = False) -> list[tuple[int, int]]:
        """The ``(start, end)`` stretches of ``text`` made of pieces of a known key (with
        ``user``, also the user's literal strings and patterns' matches; a function cannot
        say where it changed the text), in order, overlapping ones merged (each stretch is
        replaced once)."""
        found = list(self._spans(text))
        for scrubber in self._user if user else ():
            if isinstance(scrubber, str) and scrubber:
                at = text.find(scrubber)
                while at >= 0:
                    found.append((at, at + len(scrubber)))
                    at = text.find(scrubber, at + 1)
            elif isinstance(scrubber, Pattern):
                found += [m.span() for m in scrubber.finditer(text) if m.end() > m.start()]
        merged: list[tuple[int, int]] = []
        for a, b in sorted(found):
            if merged and a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        return merged

    def _scrub_keys(self, text: str) -> str:
        out: list[str] = []
        last = 0
        for start, end in self.spans(text):
            out += [text[last:start], REDACTED]
            last = end
        return "".join(out) + text[last:] if out else text


# What a credential looks like when the key itself is not known: a long token with both
# letters and digits (so "Bearer authentication" in a model's answer is not one).
_TOKEN = r"(?=[^\s\"',;]*\d)(?=[^\s\"',;]*[A-Za-z])[A-Za-z0-9._~+/=\-]"
_KEY_LIKE = re.compile(
    rf"(?P<prefix>\b(?:sk|ak|msk)-{_TOKEN}{{16,}})"
    rf"|(?P<bearer>\b(?:Bearer|Basic)\s+{_TOKEN}{{16,}})"
    r"|(?P<header>\"(?:authorization|x-api-key|api-key|proxy-authorization|cookie|set-cookie)\"\s*:)"
    rf"|(?P<param>\b(?:api[_-]?key|access[_-]?token)\b[\"']?\s*[:=]\s*[\"']?{_TOKEN}{{12,}})",
    re.IGNORECASE,
)


def key_like(text: str) -> list[tuple[int, str]]:
    """``(offset, what)`` for each credential-looking string in ``text``: a prefixed key
    (``sk-…``), a ``Bearer`` / ``Basic`` credential, a credential header, an ``api_key=``
    parameter."""
    return [(start, what) for start, _, what in key_like_spans(text)]


_KINDS = {
    "prefix": "a prefixed key",
    "bearer": "a Bearer/Basic credential",
    "header": "a credential header",
    "param": "an api_key parameter",
}


def key_like_spans(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, what)`` for each credential-looking string in ``text`` (see
    :func:`key_like`)."""
    return [
        (match.start(), match.end(), _KINDS[match.lastgroup or "prefix"])
        for match in _KEY_LIKE.finditer(text)
    ]
