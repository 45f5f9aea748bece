"""Cassettes: recorded exchanges with the real service, as readable JSON files.

One cassette file holds a list of interactions::

    {
      "kimi_cassette": 1,
      "interactions": [
        {
          "request": {"method": "POST", "path": "/v1/messages", "query": "",
                      "headers": {"anthropic-version": "2023-06-01"},
                      "json": {"model": "kimi-k3.1-pro", "stream": true, ...}},
          "response": {"status": 200, "delay": 0.41,
                       "headers": {"content-type": "text/event-stream", "x-request-id": "..."},
                       "frames": [[0.0, "event: message_start\\ndata: {...}\\n\\n"], ...],
                       "ending": "end"}
        }
      ]
    }

``delay`` is the time from the request to the response headers, and each frame is ``[delay
before it, its bytes]``: one SSE event exactly as received (text, or ``{"base64": ...}``
when it is not UTF-8). A non-streamed body is ``json`` (with ``json_style``, the spacing
that reproduces its bytes exactly), else ``text`` or ``base64``. ``ending`` is ``end`` (the
body finished) or ``close`` (the connection dropped).
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kimi_ext.errors import KimiError

__all__ = [
    "VERSION",
    "Cassette",
    "CassetteError",
    "CassetteWarning",
    "Frame",
    "Interaction",
    "RecordedReply",
    "cassette_files",
]

VERSION = 1

# How a JSON body may have been spaced; the first that reproduces the bytes is stored.
_STYLES: dict[str, dict[str, Any]] = {
    "compact": {"separators": (",", ":"), "ensure_ascii": False},
    "compact_ascii": {"separators": (",", ":"), "ensure_ascii": True},
    "spaced": {"ensure_ascii": False},
    "spaced_ascii": {"ensure_ascii": True},
}


class CassetteError(KimiError, ValueError):
    """A cassette that cannot be used: the file, the place and the problem."""


class CassetteWarning(UserWarning):
    """Something about a cassette worth knowing that does not stop the test: a cassette
    named by ``@pytest.mark.kimi_cassette`` that does not exist is being recorded anew
    (the path it resolved to is named)."""


@dataclass(frozen=True)
class Frame:
    """One SSE event as received, and the seconds between it and what came before."""

    data: bytes
    delay: float = 0.0


@dataclass
class RecordedReply:
    """What the service answered."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)  # names lower-cased
    body: bytes | None = None  # a non-streamed body
    frames: list[Frame] | None = None  # a stream
    ending: str = "end"  # "end" or "close"
    delay: float = 0.0  # seconds until the headers arrived


@dataclass
class Interaction:
    """One recorded request and its reply."""

    method: str
    path: str
    body: Any  # the parsed JSON body (None when there was none), or the text
    reply: RecordedReply
    query: str = ""
    headers: dict[str, str] = field(default_factory=dict)  # allow-listed request headers
    cassette: Path | None = None  # the file it came from
    index: int = 0  # its position there

    def describe(self) -> str:
        """``<file> #<index> (POST /v1/chat/completions)`` for messages."""
        where = str(self.cassette) if self.cassette is not None else "<memory>"
        return f"{where} #{self.index} ({self.method} {self.path})"


@dataclass
class Cassette:
    """The interactions of one cassette file."""

    path: Path
    interactions: list[Interaction] = field(default_factory=list)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Cassette:
        """Read a cassette file (:class:`CassetteError` naming the file and the place)."""
        where = Path(path)
        try:
            document = json.loads(where.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CassetteError(f"{where}: cannot read: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise CassetteError(f"{where}: not JSON: {exc}") from None
        if not isinstance(document, dict) or document.get("kimi_cassette") != VERSION:
            raise CassetteError(f'{where}: not a kimi cassette (needs "kimi_cassette": {VERSION})')
        items = document.get("interactions")
        if not isinstance(items, list):
            raise CassetteError(f"{where}: interactions: must be a list")
        cassette = cls(where)
        for n, item in enumerate(items):
            try:
                interaction = _interaction(item)
            except (KeyError, TypeError, ValueError) as exc:
                raise CassetteError(f"{where}: interactions[{n}]: {_problem(exc)}") from None
            interaction.cassette, interaction.index = where, n
            cassette.interactions.append(interaction)
        return cassette

    def dumps(self) -> str:
        """The cassette as JSON text (two-space indents, one frame per line)."""
        return _dumps_document([_dump_interaction(i) for i in self.interactions])

    def save(self, text: str | None = None) -> None:
        """Write the file atomically (``text``: what :meth:`dumps` gave, scrubbed)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = self.dumps() if text is None else text
        fd, temp = tempfile.mkstemp(prefix=".cassette-", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(data)
            os.replace(temp, self.path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise


def cassette_files(where: str | os.PathLike[str]) -> list[Path]:
    """The cassette file ``where`` names, or every ``*.json`` under the folder, sorted."""
    path = Path(where)
    if path.is_dir():
        return sorted(p for p in path.rglob("*.json") if p.is_file())
    return [path]


def _problem(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    return str(exc)


def _blob(data: bytes) -> str | dict[str, str]:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def _unblob(value: Any) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, dict) and isinstance(value.get("base64"), str):
        return base64.b64decode(value["base64"], validate=True)
    raise ValueError(f"a frame or body must be text or {{'base64': ...}}, not {value!r:.60}")


def _dump_body(data: bytes) -> dict[str, Any]:
    try:
        text = data.decode("utf-8")
        parsed = json.loads(text)
    except ValueError:
        blob = _blob(data)
        return {"text": blob} if isinstance(blob, str) else blob
    for style, options in _STYLES.items():
        if json.dumps(parsed, **options) == text:
            return {"json": parsed, "json_style": style}
    return {"text": text}


def _load_body(item: Mapping[str, Any]) -> bytes | None:
    if "json" in item:
        style = item.get("json_style", "compact")
        if style not in _STYLES:
            raise ValueError(f"json_style: unknown style {style!r}")
        return json.dumps(item["json"], **_STYLES[style]).encode("utf-8")
    if "text" in item:
        return _unblob(item["text"])
    if "base64" in item:
        return _unblob({"base64": item["base64"]})
    return None


def _interaction(item: Any) -> Interaction:
    request, response = item["request"], item["response"]
    frames = response.get("frames")
    reply = RecordedReply(
        status=int(response["status"]),
        headers={str(k).lower(): str(v) for k, v in (response.get("headers") or {}).items()},
        body=_load_body(response),
        frames=None if frames is None else [Frame(_unblob(f[1]), float(f[0])) for f in frames],
        ending=str(response.get("ending", "end")),
        delay=float(response.get("delay", 0.0)),
    )
    if reply.ending not in ("end", "close"):
        raise ValueError(f"response.ending: must be 'end' or 'close', not {reply.ending!r}")
    body = request["json"] if "json" in request else request.get("text")
    return Interaction(
        method=str(request["method"]),
        path=str(request["path"]),
        body=body,
        reply=reply,
        query=str(request.get("query", "")),
        headers={str(k).lower(): str(v) for k, v in (request.get("headers") or {}).items()},
    )


def _dump_interaction(interaction: Interaction) -> dict[str, Any]:
    request: dict[str, Any] = {"method": interaction.method, "path": interaction.path}
    if interaction.query:
        request["query"] = interaction.query
    if interaction.headers:
        request["headers"] = interaction.headers
    if isinstance(interaction.body, str):
        request["text"] = interaction.body
    elif interaction.body is not None:
        request["json"] = interaction.body
    reply = interaction.reply
    response: dict[str, Any] = {
        "status": reply.status,
        "delay": round(reply.delay, 6),
        "headers": reply.headers,
    }
    if reply.frames is not None:
        response["frames"] = [[round(f.delay, 6), _blob(f.data)] for f in reply.frames]
        response["ending"] = reply.ending
    elif reply.body is not None:
        response.update(_dump_body(reply.body))
    return {"request": request, "response": response}


def _dumps_document(items: list[dict[str, Any]]) -> str:
    """Indented JSON, one frame per line (a 20,000-event stream is 20,000 lines)."""
    rendered: dict[str, list[str]] = {}
    salt = secrets.token_hex(8)  # no body can hold the mark by chance
    for n, item in enumerate(items):
        frames = item["response"].get("frames")
        if frames is not None:
            mark = f"@frames-{salt}-{n}@"
            rendered[mark] = [json.dumps(f, ensure_ascii=False) for f in frames]
            item["response"]["frames"] = mark
    text = json.dumps({"kimi_cassette": VERSION, "interactions": items}, indent=2,
                      ensure_ascii=False)  # fmt: skip
    for mark, lines in rendered.items():
        at = text.index(f'"{mark}"')
        indent = " " * (at - text.rindex("\n", 0, at) - 1 - len('"frames": '))
        inner = f",\n{indent}  ".join(lines)
        body = f"[\n{indent}  {inner}\n{indent}]" if lines else "[]"
        text = text[:at] + body + text[at + len(mark) + 2 :]
    return text + "\n"
