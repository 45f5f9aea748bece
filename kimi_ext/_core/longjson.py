"""One very long JSON ``data`` line, parsed as its bytes arrive.

A stream's last Responses event (``response.completed``) repeats the whole output, and
``.done`` events repeat a whole text. Read the usual way, such a line is held as bytes,
then as text, then as the parsed object, while the text the stream already accumulated is
still held too: four copies of the answer at once. :class:`LongJSONLine` takes the line
chunk by chunk instead:

* each chunk is decoded to text as it comes (an incremental UTF-8 decoder);
* string literals longer than :data:`LONG_STRING` characters (and any that spans two
  chunks) are decoded piece by piece with the standard library's own string decoder and
  replaced in the line by a placeholder; the rest of the line, now small (the
  "skeleton"), is parsed with ``json.loads`` and the placeholders are put back;
* a long string equal to one of the ``known`` strings (what the stream already holds) is
  matched piece by piece and never built: the parsed object shares the known string;
* the received text is not kept: a long string spelled the way ``json.dumps`` spells it
  (with or without ``ensure_ascii``) can be spelled again from its value, so only the
  pieces spelled otherwise are kept. A line that is not valid JSON is thus still
  returned as its text, verbatim.

The result equals ``json.loads`` of the whole line, for any split of its bytes (the
standard library does all the decoding, so escapes, surrogate pairs, numbers, ``NaN``
and duplicate keys behave the same).

    line = LongJSONLine(known=["...text the stream holds..."])
    for chunk in chunks:
        line.feed(chunk)
    value = line.close()  # a ParsedLine, or the text when it is not JSON

Why it is kept (issue 16: it stays only if Responses' peak memory needs it to stay within
bare httpx's own peak on the same stream). Measured with ``python -m benchmarks --only
memory`` (full sizes: 100,000 events, result 0.45 MiB): bare httpx ``iter_lines`` +
``json.loads`` peaks at 1.42 MiB; kimi_ext with this parser at 0.86 MiB (0.61x httpx);
kimi_ext without it (the plain path: read the line whole, ``json.loads`` it) at 1.44 MiB
(1.02x httpx: the goal is missed). The plain path cannot do better than httpx: at every
step (joining the line's pieces, decoding, splitting, ``json.loads``) it holds two copies
of the long line, as httpx does, plus the output the stream already accumulated, which
httpx does not keep. It is an optimization only: with it or without, every event and
result is the same (tests/streams/test_stream_long_lines.py).
"""

from __future__ import annotations

import codecs
import json
import os
from collections.abc import Callable, Iterable
from json import decoder as _decoder
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any, final

__all__ = ["LONG_STRING", "LongJSONLine", "ParsedLine"]

#: Strings at least this long are decoded on their own and compared with known strings.
LONG_STRING = 1024

# An escape is at most 6 characters (\uXXXX), a surrogate pair 12: a piece of a string is
# cut before any escape that starts in its last 12 characters, so no escape is split.
_TAIL = 12
_HEX = frozenset("0123456789abcdefABCDEF")

# The C string decoder json.loads itself uses: (text, index after the opening quote) ->
# (value, index after the closing quote); ValueError when the string is invalid or open.
_scanstring: Callable[[str, int], tuple[str, int]] = _decoder.scanstring  # type: ignore[attr-defined]

# How a long string was spelled: as json.dumps spells it with ensure_ascii (bit 1),
# without (bit 2), or neither (0: its received text is kept).
_ASCII, _UNICODE = 1, 2


def _spellings(value: str, raw: str, wanted: int = _ASCII | _UNICODE) -> int:
    """Which of the ``wanted`` spellings of ``value`` (by json.dumps with and without
    ensure_ascii) ``raw``, the text between the quotes, is."""
    if "\\" not in raw:  # nothing was escaped: raw is the value itself
        return wanted & (_ASCII | _UNICODE if raw.isascii() else _UNICODE)
    if wanted & _ASCII:
        quoted = encode_basestring_ascii(value)
        if len(quoted) == len(raw) + 2 and quoted.startswith(raw, 1):
            # A value that is not all ASCII is spelled differently without ensure_ascii.
            return wanted if value.isascii() else _ASCII
        if value.isascii():
            return 0  # both spellings are the same
    if wanted & _UNICODE:
        quoted = encode_basestring(value)
        if len(quoted) == len(raw) + 2 and quoted.startswith(raw, 1):
            return _UNICODE
    return 0


def _spell(value: str, spelling: int) -> str:
    """``value`` spelled again as a JSON string literal, quotes included."""
    return encode_basestring_ascii(value) if spelling & _ASCII else encode_basestring(value)


class _Literal:
    """A long string of the line: its value and how to spell it again."""

    __slots__ = ("raw", "spelling", "value")

    def __init__(self, value: str, spelling: int, raw: list[str] | None) -> None:
        self.value = value
        self.spelling = spelling
        self.raw = raw  # the text between the quotes, when spelling is 0

    def text(self) -> str:
        if self.raw is not None:
            return '"' + "".join(self.raw) + '"'
        return _spell(self.value, self.spelling)


@final
class ParsedLine:
    """A long ``data`` line, parsed: ``value`` is what ``json.loads`` of its text gives.

    ``text()`` spells the line again exactly as received (for a value the stream cannot
    use, which is reported verbatim); :meth:`release` lets go of what that needs.
    """

    __slots__ = ("_line", "value")

    def __init__(self, value: Any, line: LongJSONLine) -> None:
        self.value = value
        self._line: LongJSONLine | None = line

    def text(self) -> str:
        """The line's text, as received (invalid UTF-8 replaced, like every line)."""
        if self._line is None:
            raise RuntimeError("this line was released: its text is no longer kept")
        return self._line.text()

    def release(self) -> None:
        """Let go of the skeleton and spellings that :meth:`text` needs."""
        self._line = None

    def __repr__(self) -> str:
        value = repr(self.value)
        return f"ParsedLine({value[:77] + '...' if len(value) > 80 else value})"


class LongJSONLine:
    """Parse one JSON text fed as UTF-8 chunks; see the module docstring."""

    __slots__ = (
        "_alive",
        "_at",
        "_failed",
        "_in_string",
        "_known",
        "_marker",
        "_offset",
        "_parts",
        "_raw",
        "_skeleton",
        "_spelling",
        "_tail",
        "_utf8",
    )

    def __init__(self, known: Iterable[str] = ()) -> None:
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        # The line as text, long strings replaced by placeholders ("\0kimi-ext:<nonce>:N":
        # nothing real is expected to equal that); once it failed, the text as received.
        self._skeleton: list[str] = []
        # Skeleton index -> the long string whose placeholder (marker + that index) is there.
        self._at: dict[int, _Literal] = {}
        self._marker = "\0kimi-ext:" + os.urandom(12).hex() + ":"
        self._known = {text: text for text in known if len(text) >= LONG_STRING}
        self._failed = False
        # A string that spans chunks:
        self._in_string = False
        self._tail = ""  # its undecoded end (an escape that may be cut)
        self._parts: list[str] = []  # its decoded pieces, once no known string matches
        self._alive: list[str] | None = None  # known strings it may still equal
        self._offset = 0  # how much of those it has matched
        self._spelling = 0  # how it is spelled so far (see _spellings)
        self._raw: list[str] | None = None  # its received text, once spelled otherwise

    def feed(self, chunk: bytes) -> None:
        """Take the next bytes of the line (any split, even inside a UTF-8 character)."""
        if chunk:
            self._text(self._utf8.decode(chunk))

    def close(self) -> ParsedLine | str:
        """The line is complete: its parsed value, or its text when it is not JSON."""
        self._text(self._utf8.decode(b"", True))
        if self._in_string:  # it never ended: not JSON
            self._fail("")
        if not self._failed:
            try:
                value = json.loads("".join(self._skeleton))
            except (ValueError, RecursionError):
                pass
            else:
                return ParsedLine(self._fill(value) if self._at else value, self)
        return self.text()

    def text(self) -> str:
        """The text received so far, spelled again."""
        if self._failed:
            return "".join(self._skeleton)
        at = self._at
        return "".join(
            at[index].text() if index in at else piece for index, piece in enumerate(self._skeleton)
        )

    # -- the skeleton --------------------------------------------------------------

    def _text(self, s: str) -> None:
        if self._failed:
            self._skeleton.append(s)
            return
        pos = 0
        if self._in_string:
            s = self._tail + s
            self._tail = ""
            pos = self._string_piece(s, 0)
            if pos < 0:
                return
        skeleton = self._skeleton
        while True:
            quote = s.find('"', pos)
            if quote < 0:
                if pos < len(s):
                    skeleton.append(s[pos:])
                return
            if quote > pos:
                skeleton.append(s[pos:quote])
            try:
                value, end = _scanstring(s, quote + 1)
            except ValueError:  # it goes on in the next chunk (or is not valid JSON)
                self._in_string = True
                self._alive = list(self._known) or None
                self._spelling = _ASCII | _UNICODE
                pos = self._string_piece(s, quote + 1)
                if pos < 0:
                    return
                continue
            if end - quote <= LONG_STRING:
                skeleton.append(s[quote:end])  # short: json.loads reads it with the rest
            else:
                raw = s[quote + 1 : end - 1]
                spelling = _spellings(value, raw)
                value = self._known.get(value, value)
                self._place(_Literal(value, spelling, None if spelling else [raw]))
            pos = end

    def _place(self, literal: _Literal) -> None:
        index = len(self._skeleton)
        self._at[index] = literal
        self._skeleton.append(json.dumps(self._marker + str(index)))

    def _fill(self, root: Any) -> Any:
        """Put the long strings back where their placeholders are (no recursion)."""
        marker = self._marker
        refs = {marker + str(index): literal.value for index, literal in self._at.items()}
        if type(root) is str:
            return refs.get(root, root)
        stack = [root]
        while stack:
            node = stack.pop()
            if type(node) is dict:
                if any(type(key) is str and key in refs for key in node):
                    items = [(refs.get(key, key), value) for key, value in node.items()]
                    node.clear()
                    node.update(items)  # a repeated key keeps its last value, as json does
                for key, value in node.items():
                    if type(value) is str:
                        if value in refs:
                            node[key] = refs[value]
                    elif type(value) is dict or type(value) is list:
                        stack.append(value)
            elif type(node) is list:
                for index, value in enumerate(node):
                    if type(value) is str:
                        if value in refs:
                            node[index] = refs[value]
                    elif type(value) is dict or type(value) is list:
                        stack.append(value)
        return root

    # -- a string that spans chunks ------------------------------------------------

    def _string_piece(self, s: str, start: int) -> int:
        """Decode the string going on at ``s[start:]``; return where it ends, else -1."""
        cut = _safe_cut(s, start)
        if cut < len(s) and '"' in s[cut:]:
            # It may end after the escape kept back: scan the whole text for its end.
            try:
                value, end = _scanstring(s, start)
            except ValueError:
                pass
            else:
                self._add(value, s[start : end - 1])
                self._finish()
                return end
        if cut > start:
            piece = s[start:cut]
            try:
                value, end = _scanstring(piece + '"', 0)
            except ValueError:
                self._fail(s[start:])
                return -1
            if end <= len(piece):  # it ends in this chunk
                self._add(value, piece[: end - 1])
                self._finish()
                return start + end
            self._add(value, piece)
        self._tail = s[cut:]
        return -1

    def _add(self, value: str, raw: str) -> None:
        """One more decoded piece of the string (``raw``: its text as received)."""
        if self._raw is None:
            spelling = _spellings(value, raw, self._spelling)
            if spelling:
                self._spelling = spelling
            else:  # spelled otherwise: keep the received text from now on
                self._raw = [_spell(self._decoded(), self._spelling)[1:-1]]
                self._spelling = 0
        if self._raw is not None:
            self._raw.append(raw)
        alive = self._alive
        if alive is not None:
            offset = self._offset
            still = [known for known in alive if known.startswith(value, offset)]
            if still:
                self._alive = still
                self._offset = offset + len(value)
                return
            self._alive = None
            if offset:
                self._parts.append(alive[0][:offset])  # what matched so far, built now
        self._parts.append(value)

    def _decoded(self) -> str:
        """The string's value so far."""
        alive = self._alive
        if alive is not None:
            offset = self._offset
            whole = next((known for known in alive if len(known) == offset), None)
            return whole if whole is not None else alive[0][:offset]
        return "".join(self._parts)

    def _finish(self) -> None:
        self._place(_Literal(self._decoded(), self._spelling, self._raw))
        self._in_string = False
        self._parts = []
        self._alive = None
        self._offset = 0
        self._raw = None

    def _fail(self, rest: str) -> None:
        """Not valid JSON: from now on keep the text as received (see :meth:`text`).

        ``rest`` is the undecoded text of the string in progress."""
        if self._in_string:
            if self._raw is not None:
                so_far = "".join(self._raw)
            else:
                so_far = _spell(self._decoded(), self._spelling)[1:-1]
            self._skeleton.append('"' + so_far + self._tail + rest)
        text = self.text()
        self._failed = True
        self._skeleton = [text]
        self._at = {}
        self._in_string = False
        self._tail = ""
        self._parts = []
        self._alive = None
        self._raw = None


def _escape_start(s: str, index: int, start: int) -> bool:
    """Whether the backslash at ``s[index]`` begins an escape (an odd run ends there)."""
    run = index
    while run > start and s[run - 1] == "\\":
        run -= 1
    return (index - run) % 2 == 0


def _safe_cut(s: str, start: int) -> int:
    """Where ``s[start:]`` (string content from an escape boundary) can be cut so that no
    escape, and no surrogate pair of escapes, is split."""
    size = len(s)
    last = s.rfind("\\", max(start, size - _TAIL))
    if last < 0 or not _escape_start(s, last, start):
        return size  # no escape starts near the end (a trailing "\\\\" is complete)
    cut = last
    high = cut - 6
    if (
        high >= start
        and s[high] == "\\"
        and s[high + 1] == "u"
        and s[high + 2] in "dD"
        and s[high + 3] in "89abAB"
        and s[high + 4] in _HEX
        and s[high + 5] in _HEX
        and _escape_start(s, high, start)
    ):
        cut = high  # a high surrogate just before: keep the pair together
    return cut
