"""Property: a long line parsed as it arrives equals ``json.loads`` of the whole line.

For any JSON text (spelled the way ``json.dumps`` spells it with or without
``ensure_ascii``, or with escapes spelled otherwise), any split of its UTF-8 bytes, and
any known strings (equal to strings of the value, prefixes of them, or unrelated),
:class:`~kimi_ext._core.longjson.LongJSONLine` returns ``json.loads`` of the text, and spells
the text again exactly. Text that is not JSON (valid JSON with characters inserted or
removed, invalid UTF-8) comes back verbatim. ``LONG_STRING`` is made small so short
generated strings take the long-string path too.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kimi_ext._core import longjson
from kimi_ext._core.longjson import LongJSONLine, ParsedLine

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Characters that exercise every escape: quotes, backslashes, controls, Latin-1,
# the BMP, astral characters (surrogate pairs under ensure_ascii) and lone surrogates.
CHARS = st.one_of(
    st.sampled_from(list('ab "\\/\n\t\r\b\x00\x1fé€😀\ud83d\ude00\u2028')),
    st.characters(codec="utf-8"),
)
TEXTS = st.text(CHARS, max_size=40)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    TEXTS,
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(TEXTS, inner, max_size=5)),
    max_leaves=20,
)


@pytest.fixture(autouse=True)
def _small_long_string(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(longjson, "LONG_STRING", 6)


def _strings(value: Any) -> list[str]:
    out: list[str] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, dict):
            for key, item in node.items():
                out.append(key)
                stack.append(item)
        elif isinstance(node, list):
            stack.extend(node)
    return out


def _upper_escapes(text: str) -> str:
    """The same JSON with \\u escapes in upper case and "/" escaped: valid, not canonical."""
    text = re.sub(
        r"(?<!\\)((?:\\\\)*)\\u([0-9a-f]{4})", lambda m: m[1] + "\\u" + m[2].upper(), text
    )
    return text.replace("/", "\\/")


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    out, last = [], 0
    for point in [*points, len(data)]:
        out.append(data[last:point])
        last = point
    return out


def _parse(chunks: list[bytes], known: list[str]) -> ParsedLine | str:
    line = LongJSONLine(known)
    for chunk in chunks:
        line.feed(chunk)
    return line.close()


def _check(result: ParsedLine | str, raw: str) -> None:
    """The parser's answer is json.loads of the text and spells the text again exactly,
    or, when the text is not JSON, the text itself."""
    try:
        expected = json.loads(raw)
    except (ValueError, RecursionError):
        assert result == raw
        return
    assert isinstance(result, ParsedLine), result
    assert _same(result.value, expected)
    assert result.text() == raw


def _same(a: Any, b: Any) -> bool:
    """Equality that also holds for the same float NaN (json reads "NaN")."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@st.composite
def spelled(draw: st.DrawFn) -> tuple[Any, str]:
    value = draw(VALUES)
    style = draw(st.sampled_from(["ascii", "unicode", "upper", "spaced"]))
    if style == "ascii":
        text = json.dumps(value)
    elif style == "unicode":
        text = json.dumps(value, ensure_ascii=False)
    elif style == "upper":
        text = _upper_escapes(json.dumps(value))
    else:
        text = " " + json.dumps(value, indent=1, ensure_ascii=draw(st.booleans())) + "\n "
    return value, text


@st.composite
def known_for(draw: st.DrawFn, value: Any) -> list[str]:
    strings = _strings(value)
    known: list[str] = []
    for text in strings:
        choice = draw(st.integers(0, 3))
        if choice == 1:
            known.append(text)
        elif choice == 2:
            known.append(text[: draw(st.integers(0, len(text)))])
        elif choice == 3:
            known.append(text + draw(TEXTS))
    known += draw(st.lists(TEXTS, max_size=3))
    return known


@given(data=st.data(), case=spelled(), cuts=st.lists(st.integers(0, 10**6), max_size=12))
@SETTINGS
def test_any_split_gives_json_loads(
    data: st.DataObject, case: tuple[Any, str], cuts: list[int]
) -> None:
    value, text = case
    known = data.draw(known_for(value))
    data = text.encode("utf-8", "surrogatepass")  # a lone surrogate spelled raw: replaced
    _check(_parse(_split(data, cuts), known), data.decode("utf-8", "replace"))


@given(case=spelled(), cuts=st.lists(st.integers(0, 10**6), max_size=8))
@SETTINGS
def test_known_strings_are_shared_not_copied(case: tuple[Any, str], cuts: list[int]) -> None:
    value, text = case
    known = [s for s in _strings(value) if len(s) >= longjson.LONG_STRING]
    known = [s + "" for s in known]  # the objects the stream holds
    result = _parse(_split(text.encode("utf-8", "surrogatepass"), cuts), known)
    if not isinstance(result, ParsedLine):
        return  # lone surrogates spelled raw: covered above
    ids = {id(s) for s in known}
    for string in _strings(result.value):
        if string in known:
            assert id(string) in ids, string


@given(
    case=spelled(),
    edits=st.lists(
        st.tuples(st.integers(0, 10**6), st.sampled_from(['"', "\\", "{", "", "x", "\\u12"])),
        min_size=1,
        max_size=3,
    ),
    cuts=st.lists(st.integers(0, 10**6), max_size=8),
)
@SETTINGS
def test_broken_json_comes_back_verbatim(
    case: tuple[Any, str], edits: list[tuple[int, str]], cuts: list[int]
) -> None:
    _, text = case
    for at, insert in edits:
        at %= len(text) + 1
        text = text[:at] + insert + text[at + (0 if insert else 1) :]
    data = text.encode("utf-8", "surrogatepass")
    _check(_parse(_split(data, cuts), []), data.decode("utf-8", "replace"))


@given(data=st.binary(max_size=200), cuts=st.lists(st.integers(0, 10**6), max_size=8))
@SETTINGS
def test_any_bytes(data: bytes, cuts: list[int]) -> None:
    _check(_parse(_split(data, cuts), ["abcdefgh"]), data.decode("utf-8", "replace"))


TRICKY = [
    json.dumps({"k": 'ab\\\\cd"ef\\é😀\ud83d\ude00 gh/\n' * 2, "n": [1.5e300, -0, None]}),
    json.dumps(["\\" * 7 + "x", "\\" * 8, '"\\"', "\ud83d", "😀" * 3], ensure_ascii=False),
    _upper_escapes(json.dumps({"😀é": "\\u0041\\\\u0042" + "\\" * 3, "z": "\ud800x"})),
]


@pytest.mark.parametrize("text", TRICKY)
def test_every_two_splits_of_tricky_escapes(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    raw = data.decode("utf-8", "replace")
    expected = json.loads(raw)
    for first in range(len(data) + 1):
        for second in range(first, len(data) + 1, 3):
            result = _parse([data[:first], data[first:second], data[second:]], [])
            assert isinstance(result, ParsedLine), (first, second)
            assert _same(result.value, expected), (first, second)
            assert result.text() == raw, (first, second)


@pytest.mark.parametrize("spelled_otherwise", ["\\/", "\\u00E9", "\\u0041"])
def test_a_string_spelled_otherwise_then_broken_comes_back_verbatim(spelled_otherwise: str) -> None:
    text = '{"a": "' + ("abc " + spelled_otherwise) * 50 + "\\x" + 'tail"}'
    data = text.encode()
    for size in (7, 64, 100):
        assert _parse(_split(data, list(range(size, len(data), size))), []) == text
