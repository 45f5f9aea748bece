"""The output file is the checkpoint: read it to resume, append to it as results come.

A line is appended, whole, in one ``write`` once its request is final, so a ``kill -9``
leaves every earlier line intact; at worst the last line is cut short, and a resumed run
drops that partial line (its request was not final) before going on. What a resumed run
needs from the file is kept small whatever its length: an 8-byte hash of each finished
``custom_id`` and 8 bytes of its fingerprint, in sorted arrays.
"""

from __future__ import annotations

import json
import os
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kimi_ext.batch.ids import fingerprint_of_id, key_hash
from kimi_ext.batch.summary import Totals
from kimi_ext.errors import ClientConfigError

__all__ = ["Checkpoint", "OutputWriter", "drop_failed", "read_checkpoint"]


def _fp64(print_: str) -> int:
    return int(print_[:16], 16)


@dataclass
class Checkpoint:
    """What the output file already holds: finished custom_ids (hashed, sorted) with the
    fingerprint of the request each answers, and the totals of its lines (counts, failed
    custom_ids, usage: the part of the job done before this run)."""

    hashes: array[int] = field(default_factory=lambda: array("Q"))
    prints: array[int] = field(default_factory=lambda: array("Q"))
    done: int = 0
    totals: Totals = field(default_factory=Totals)
    dropped_partial: int = 0  # bytes of a cut last line that were dropped
    retried: int = 0  # failed lines removed to be sent again (retry_failed)

    def lookup(self, custom_id: str) -> int | None:
        """The stored fingerprint (64 bits) of ``custom_id``'s result, None if it has none."""
        h = key_hash(custom_id)
        i = bisect_left(self.hashes, h)
        if i < len(self.hashes) and self.hashes[i] == h:
            return self.prints[i]
        return None

    def matches(self, custom_id: str, print_: str) -> bool | None:
        """None: not finished; True: finished for this very request; False: finished for
        a request that has changed since."""
        stored = self.lookup(custom_id)
        return None if stored is None else stored == _fp64(print_)


def read_checkpoint(paths: Path | Sequence[Path], *, retry_failed: bool = False) -> Checkpoint:
    """Read the output file (nothing when it does not exist), line by line; or several
    (the files of a Ray run's output folder), as one output. A cut last line is dropped
    from its file. With ``retry_failed`` the failed lines do not count as finished
    (:func:`drop_failed` then removes them from the file, once the run goes on), so their
    requests are sent again and each custom_id stays in the output once."""
    point = Checkpoint()
    hashes: array[int] = array("Q")
    prints: array[int] = array("Q")
    for path in [paths] if isinstance(paths, Path) else paths:
        _read_file(path, point, hashes, prints, retry_failed=retry_failed)
    # Sorted by hash for lookups (the order list is the only per-line Python object).
    order = sorted(range(len(hashes)), key=hashes.__getitem__)
    point.hashes = array("Q", (hashes[i] for i in order))
    point.prints = array("Q", (prints[i] for i in order))
    point.done = len(order)
    return point


def _read_file(
    path: Path, point: Checkpoint, hashes: array[int], prints: array[int], *, retry_failed: bool
) -> None:
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        return
    except OSError as exc:
        raise ClientConfigError(f"{path}: cannot read the output file ({exc.strerror})") from None
    dropped = 0
    with handle:
        complete = 0
        for number, raw in enumerate(handle, 1):
            if not raw.endswith(b"\n"):  # cut by a crash in the middle of its write
                dropped = len(raw)
                break
            complete += len(raw)
            if not raw.strip():
                continue
            doc = _output_line(path, number, raw)
            if doc.get("error") is not None and retry_failed:
                point.retried += 1
                continue
            print_ = fingerprint_of_id(doc.get("id"))
            if print_ is None:
                raise ClientConfigError(
                    f"{path}: line {number}: its id {doc.get('id')!r} was not written by "
                    "kimi batch; write the results to another file"
                )
            hashes.append(key_hash(doc["custom_id"]))
            prints.append(_fp64(print_))
            point.totals.add(doc)
    if dropped:
        point.dropped_partial += dropped
        with path.open("r+b") as cut:
            cut.truncate(complete)


def _output_line(path: Path, number: int, raw: bytes) -> dict[str, Any]:
    try:
        doc = json.loads(raw)
    except ValueError:
        doc = None
    if not isinstance(doc, dict) or not isinstance(doc.get("custom_id"), str):
        raise ClientConfigError(
            f"{path}: line {number} is not a batch output line (a JSON object with a "
            "custom_id); is this the right output file?"
        )
    return doc


def drop_failed(path: Path) -> None:
    """Rewrite the output without its failed lines (line by line, into a file beside it
    that then replaces it atomically)."""
    tmp = path.with_name(path.name + ".tmp")
    with path.open("rb") as source, tmp.open("wb") as target:
        for raw in source:
            if raw.strip() and json.loads(raw).get("error") is not None:
                continue
            target.write(raw)
        target.flush()
        os.fsync(target.fileno())
    tmp.replace(path)


class OutputWriter:
    """Appends output lines, each in one ``write`` of the whole line (no torn line at a
    crash, only a possibly missing last one)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise ClientConfigError(
                f"{path}: cannot write the output file ({exc.strerror or exc})"
            ) from None

    def write(self, doc: dict[str, Any]) -> None:
        """Append one output line."""
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate the server sent: JSON escapes carry it
            data = (json.dumps(doc, separators=(",", ":")) + "\n").encode("ascii")
        view = memoryview(data)
        try:
            while view:  # a regular file takes it in one write; a short one is finished here
                view = view[os.write(self._fd, view) :]
        except OSError as exc:  # a full disk, say: the run stops, what was written stays
            raise ClientConfigError(
                f"{self.path}: cannot append to the output file ({exc.strerror or exc}); "
                "the lines written so far are intact: run again to go on"
            ) from None

    def close(self) -> None:
        """Close the file."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
