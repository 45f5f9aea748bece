"""Batch input lines: ``{"custom_id", "method": "POST", "url", "body"}``, one JSON object a
line, in the format the OpenAI and Moonshot batch APIs read.

Each line is checked the way the client checks a call: the URL picks the :class:`Format`
(its spec's path), and the body goes through the same request builder the client uses
(:func:`kimi_ext._core.call.building.prepare`), so every documented rule applies and none is
written here. What this module adds are the rules of a batch *file*: a line is a JSON
object with exactly those four keys, ``custom_id`` is a non-empty string used once, the
method is the format's.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from kimi_ext._core.call.building import prepare
from kimi_ext._core.call.format import Format
from kimi_ext._core.contract.options import CLIENT_OPTIONS
from kimi_ext.errors import ClientConfigError, KimiError, RequestValidationError
from kimi_ext.formats import FORMATS

__all__ = [
    "LINE_KEYS",
    "BatchInputError",
    "BatchLine",
    "LineProblem",
    "LineSource",
    "check_line",
    "format_for_url",
    "parse_line",
]

LINE_KEYS = ("custom_id", "method", "url", "body")


@dataclass(frozen=True, slots=True)
class LineProblem:
    """Why one input line cannot be sent: its number (1-based), its custom_id (None when it
    has none), the JSON path of the bad value within the line, and the rule it breaks."""

    line: int
    custom_id: str | None
    path: str
    rule: str

    def __str__(self) -> str:
        who = f" (custom_id {self.custom_id!r})" if self.custom_id is not None else ""
        return f"line {self.line}{who}: {self.path}: {self.rule}"


class BatchInputError(KimiError, ValueError):
    """The input file has bad lines; nothing was sent. ``problems`` lists every one
    (:class:`LineProblem`); the message shows the first hundred."""

    SHOWN = 100

    def __init__(self, source: str, problems: list[LineProblem]) -> None:
        self.source = source
        self.problems = problems
        shown = "\n".join(f"  {p}" for p in problems[: self.SHOWN])
        more = len(problems) - self.SHOWN
        tail = f"\n  ... and {more} more" if more > 0 else ""
        super().__init__(
            f"{source}: {len(problems)} bad line{'s' if len(problems) != 1 else ''}, nothing "
            f"was sent (skip them with --skip-invalid / skip_invalid=True):\n{shown}{tail}"
        )


@dataclass(slots=True)
class BatchLine:
    """One request of a batch: where it is (``line``, 1-based), its ``custom_id``, the
    :class:`Format` its URL names and its JSON ``body``."""

    line: int
    custom_id: str
    url: str
    fmt: Format[Any, Any, Any]
    body: dict[str, Any]
    size: int = 0
    """The line's length in bytes as read (0 for a line given as an object)."""

    @property
    def stream(self) -> bool:
        """Whether the body asks for a stream (``"stream": true``)."""
        return self.body.get("stream") is True


@cache
def _urls() -> dict[str, Format[Any, Any, Any]]:
    # The path of each format comes from its spec (through its contract).
    return {fmt.contract.path: fmt for fmt in FORMATS}


def format_for_url(url: str) -> Format[Any, Any, Any] | None:
    """The Format whose endpoint ``url`` names (``/v1/messages``...), else None. A full URL
    (``https://host/v1/messages``) is taken by its path."""
    urls = _urls()
    found = urls.get(url)
    if found is None and "://" in url:
        path = "/" + url.split("://", 1)[1].partition("/")[2]
        found = urls.get(path.split("?", 1)[0])
    return found


def parse_line(number: int, raw: bytes | str | dict[str, Any]) -> BatchLine | LineProblem:
    """The line's fields, checked for shape only (not the body's rules): a BatchLine, or
    the first LineProblem. The runner uses this on lines already checked. ``raw`` is the
    line's text, or its object already decoded (a row of a Ray dataset)."""
    if isinstance(raw, dict):
        doc: Any = raw
    else:
        try:
            doc = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            return LineProblem(number, None, "line", f"is not JSON ({exc})")
    if not isinstance(doc, dict):
        return LineProblem(number, None, "line", f"must be a JSON object, not {_kind(doc)}")
    cid = doc.get("custom_id")
    shown_id = cid if isinstance(cid, str) else None
    if not isinstance(cid, str) or not cid:
        return LineProblem(number, None, "custom_id", "must be a non-empty string, given "
                           + (_kind(cid) if cid != "" else "an empty string"))  # fmt: skip
    for key in doc:
        if key not in LINE_KEYS:
            return LineProblem(
                number, shown_id, key, f"is not a field of a batch line ({', '.join(LINE_KEYS)})"
            )
    url = doc.get("url")
    fmt = format_for_url(url) if isinstance(url, str) else None
    if fmt is None or not isinstance(url, str):
        known = ", ".join(_urls())
        return LineProblem(number, cid, "url", f"{url!r} is not an endpoint of Kimi ({known})")
    method = doc.get("method")
    expected = fmt.route[0]
    if method != expected:
        return LineProblem(number, cid, "method", f"{method!r}: {url} takes {expected}")
    body = doc.get("body")
    if not isinstance(body, dict):
        return LineProblem(number, cid, "body", f"must be a JSON object, not {_kind(body)}")
    return BatchLine(number, cid, url, fmt, body, 0 if isinstance(raw, dict) else len(raw))


def check_line(number: int, raw: bytes | str | dict[str, Any]) -> BatchLine | LineProblem:
    """Parse the line and check its body against every documented rule of its format,
    exactly as the client checks a call before sending it (nothing is sent here)."""
    parsed = parse_line(number, raw)
    if isinstance(parsed, LineProblem):
        return parsed
    for name in parsed.body:
        if name in CLIENT_OPTIONS:
            return LineProblem(
                number, parsed.custom_id, f"body.{name}",
                f"is an option of kimi_ext calls, not a field of the {parsed.fmt.name} "
                "request body (write the wire field instead)",
            )  # fmt: skip
    try:
        prepare(parsed.fmt, parsed.body, stream=parsed.stream)  # the line's own choice
    except RequestValidationError as exc:
        return LineProblem(
            number, parsed.custom_id, f"body.{exc.field}", _rule_of(exc, parsed.fmt, parsed.body)
        )
    return parsed


def _rule_of(exc: RequestValidationError, fmt: Format[Any, Any, Any], body: dict[str, Any]) -> str:
    """The rule as a batch file can follow it. A call's advice for an undocumented field
    (``extra_body=``) has no place in a JSONL line: a batch line sends only documented
    fields, so the advice is to fix the line's body (with the nearest documented name)."""
    rules = fmt.contract
    if exc.field in rules.unknown_fields(body) and exc.field not in rules.unsupported_fields:
        near = difflib.get_close_matches(exc.field, sorted(rules.fields), n=1)
        hint = f"did you mean {near[0]!r}? " if near else ""
        return (
            f"is not a documented {fmt.name} request field, and a batch line sends only "
            f"documented ones (gateways drop unknown fields silently); {hint}correct or remove "
            "it in the line's body"
        )
    # The error's own text, "<field>=<value shortened>: <rule>", without the field.
    return str(exc).removeprefix(f"{exc.field}=")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string",
             list: "an array", dict: "an object"}  # fmt: skip
    return names.get(type(value), type(value).__name__)


RawLine = bytes | str | dict[str, Any]


class LineSource:
    """Where the lines come from, read as often as needed (the whole input is checked
    before anything is sent, then read again to send): a JSONL file, read line by line so
    memory does not grow with it, or lines in memory (text or decoded objects)."""

    def __init__(self, where: str | os.PathLike[str] | Iterable[RawLine]) -> None:
        if isinstance(where, str | os.PathLike):
            self.path: Path | None = Path(where)
            self.name = str(where)
            self._lines: list[RawLine] = []
        else:
            self.path = None
            self.name = "<lines>"
            self._lines = list(where)

    def __iter__(self) -> Iterator[tuple[int, RawLine]]:
        """(line number, line) for each non-blank line (blank lines are allowed and
        counted, so numbers match an editor's)."""
        if self.path is None:
            for number, item in enumerate(self._lines, 1):
                if isinstance(item, dict) or item.strip():
                    yield number, item
            return
        try:
            handle = self.path.open("rb")
        except OSError as exc:
            raise ClientConfigError(
                f"{self.name}: cannot read the input file ({exc.strerror or exc})"
            ) from None
        with handle:
            for number, raw in enumerate(handle, 1):
                if raw.strip():
                    yield number, raw
