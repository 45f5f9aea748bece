"""``kimi cassettes check``: a cassette folder (or file) has no secret in it and no
cassette no test uses.

::

    problems = check_folder("tests/cassettes", used="used.txt", keys=[os.environ["KIMI_API_KEY"]])
    for problem in problems:
        print(problem)          # tests/cassettes/x.json: line 12: a Bearer/Basic credential

Each ``*.json`` under the folder (or the one file named) must be a readable cassette; its
text must hold no credential-looking string (:func:`kimi_ext.testing.scrub.key_like`) and
no 8-character piece of a given key in any form, neither in one place nor in the text a
stream sends in pieces, joined across its frames (:mod:`kimi_ext.testing.streamtext`); with
``used`` (the file ``--kimi-cassettes-used`` writes), every cassette must be listed there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from kimi_ext.testing.cassette import Cassette, CassetteError, cassette_files
from kimi_ext.testing.scrub import Scrubber, key_like, key_like_spans
from kimi_ext.testing.streamtext import channels

__all__ = ["Problem", "check_folder"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one cassette file."""

    path: Path
    what: str

    def __str__(self) -> str:
        return f"{self.path}: {self.what}"


def check_folder(
    folder: str | Path, *, used: str | Path | None = None, keys: Iterable[str] = ()
) -> list[Problem]:
    """The problems of the cassettes under ``folder``, or of the one cassette file it
    names (none: all is well).

    Raises :class:`CassetteError` when ``folder`` is neither a folder nor a file, or
    ``used`` cannot be read.
    """
    root = Path(folder)
    if not root.is_dir() and not root.is_file():
        raise CassetteError(f"{root}: no such folder or cassette file")
    scrubber = Scrubber()
    for key in keys:
        scrubber.add_secret(key)
    problems: list[Problem] = []
    files = cassette_files(root)
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
            cassette = Cassette.load(path)
        except (OSError, UnicodeDecodeError, CassetteError) as exc:
            problems.append(Problem(path, f"not a usable cassette: {exc}"))
            continue
        for offset, what in key_like(text):
            problems.append(Problem(path, f"line {text.count(chr(10), 0, offset) + 1}: {what}"))
        whole = scrubber.has_secrets and scrubber.found(text)
        if whole:
            problems.append(Problem(path, "holds a piece of the API key"))
        problems += [Problem(path, what) for what in _streamed(cassette, scrubber, whole)]
    if used is not None:
        try:
            lines = Path(used).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise CassetteError(f"{used}: cannot read: {exc.strerror or exc}") from None
        taken = {Path(line.strip()).resolve() for line in lines if line.strip()}
        problems += [
            Problem(path, "no test used it") for path in files if path.resolve() not in taken
        ]
    return problems


def _streamed(cassette: Cassette, scrubber: Scrubber, key_reported: bool) -> list[str]:
    """What each stream's text, joined across its frames, holds: a credential-looking
    string or a piece of the key that no single frame shows whole."""
    found: list[str] = []
    for n, interaction in enumerate(cassette.interactions):
        frames = interaction.reply.frames
        if not frames:
            continue
        for channel in channels([f.data for f in frames]):
            if len(channel.segments) < 2:
                continue  # one frame's string: the scan of the file's text saw it
            for start, end, what in key_like_spans(channel.text):
                spread = channel.frames(start, end)
                if len(spread) > 1:
                    found.append(f"interactions[{n}]: {what} split across {_frames(spread)}")
            if key_reported:
                continue
            for start, end in scrubber.spans(channel.text):
                found.append(
                    f"interactions[{n}]: a piece of the API key in the text streamed by "
                    f"{_frames(channel.frames(start, end))}"
                )
    return found


def _frames(numbers: list[int]) -> str:
    first, last = numbers[0], numbers[-1]
    return f"frame {first}" if first == last else f"frames {first}-{last}"
