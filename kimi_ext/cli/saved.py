"""The files ``kimi chat --save`` writes and ``--load`` reads: the ``History.dumps()``
document with the CLI's settings under ``"cli"`` (see :func:`save_conversation` and
:func:`load_conversation`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kimi_ext import errors
from kimi_ext.formats import FORMATS as WIRE_FORMATS
from kimi_ext.formats import History, format_named

SAVE_VERSION = 1  # the CLI settings saved beside the history (see save_conversation)

HISTORY_CLASSES = {f.history_type.__name__: f.name for f in WIRE_FORMATS}


class Saved:
    """A conversation read by ``--load``: its format, history and the CLI settings saved
    with it (None where the file has none)."""

    def __init__(self, fmt: str, history: History, settings: dict[str, Any]) -> None:
        self.fmt = fmt
        self.history = history
        self.model: str | None = _str_or_none(settings.get("model"))
        self.effort: str | None = _str_or_none(settings.get("effort"))


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def load_conversation(path: Path) -> Saved:
    """The conversation in ``path``: a file written by ``--save`` or ``/save``, or by
    ``History.dumps()`` (its format is that of the saved class), or by a kimi before 0.x
    (the history as a JSON string under ``"history"``). Anything else: a
    ClientConfigError naming the file and what is wrong with it."""

    def refuse(problem: str) -> errors.ClientConfigError:
        return errors.ClientConfigError(f"--load {path}: {problem}")

    try:
        text = path.read_bytes()
    except OSError as exc:
        raise refuse(f"cannot read it ({exc.strerror or exc})") from None
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise refuse(f"not JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise refuse(f"not a saved conversation (a JSON {type(doc).__name__}, not an object)")
    settings: Any = doc.get("cli")
    if isinstance(doc.get("history"), str) and "kimi_ext" not in doc:
        # The earlier --save layout: {"version", "format", "history": "<dumps text>"}.
        settings, text = {}, doc["history"]
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise refuse(f"damaged: its 'history' is not JSON ({exc})") from None
        if not isinstance(doc, dict):
            raise refuse("damaged: its 'history' is not a saved history")
    kind = doc.get("kimi_ext")
    fmt = HISTORY_CLASSES.get(kind) if isinstance(kind, str) else None
    if fmt is None:
        known = ", ".join(HISTORY_CLASSES)
        found = f"{kind!r}" if "kimi_ext" in doc else "no 'kimi_ext' key"
        raise refuse(
            f"not a saved conversation ({found}; expected a file from kimi chat --save or "
            f"History.dumps(), whose 'kimi_ext' names one of {known})"
        )
    try:
        history = format_named(fmt).history_type.loads(text)
    except errors.HistoryError as exc:
        raise refuse(str(exc)) from None
    return Saved(fmt, history, settings if isinstance(settings, dict) else {})


def save_conversation(path: Path, history: History, settings: dict[str, Any]) -> None:
    """Write ``history`` to ``path`` (atomically): the ``History.dumps()`` document, which
    ``History.loads`` reads as it is, with the CLI's ``settings`` under ``"cli"``."""
    text = history.dumps()
    # dumps() is one JSON object: the settings go in as its first key, without parsing
    # (and writing again) the whole history on every turn.
    cli = json.dumps({"version": SAVE_VERSION, **settings}, ensure_ascii=False)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text('{"cli": ' + cli + ", " + text[1:], encoding="utf-8")
    tmp.replace(path)  # never leave a half-written file behind
