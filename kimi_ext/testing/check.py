"""``kimi cassettes check``: a cassette folder has no secret in it and no cassette no test
uses.

::

    problems = check_folder("tests/cassettes", used="used.txt", keys=[os.environ["KIMI_API_KEY"]])
    for problem in problems:
        print(problem)          # tests/cassettes/x.json: line 12: a Bearer/Basic credential

Each ``*.json`` under the folder must be a readable cassette; its text must hold no
credential-looking string (:func:`kimi_ext.testing.scrub.key_like`) and no 8-character
piece of a given key in any form; with ``used`` (the file ``--kimi-cassettes-used`` writes),
every cassette must be listed there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from kimi_ext.testing.cassette import Cassette, CassetteError, cassette_files
from kimi_ext.testing.scrub import Scrubber, key_like

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
    """The problems of the cassettes under ``folder`` (none: all is well).

    Raises :class:`CassetteError` when ``folder`` is not a folder or ``used`` cannot be read.
    """
    root = Path(folder)
    if not root.is_dir():
        raise CassetteError(f"{root}: not a folder")
    scrubber = Scrubber()
    for key in keys:
        scrubber.add_secret(key)
    problems: list[Problem] = []
    files = cassette_files(root)
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
            Cassette.load(path)
        except (OSError, UnicodeDecodeError, CassetteError) as exc:
            problems.append(Problem(path, f"not a usable cassette: {exc}"))
            continue
        for offset, what in key_like(text):
            problems.append(Problem(path, f"line {text.count(chr(10), 0, offset) + 1}: {what}"))
        if scrubber.has_secrets and scrubber.found(text):
            problems.append(Problem(path, "holds a piece of the API key"))
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
