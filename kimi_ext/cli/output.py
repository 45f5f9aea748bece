"""What every command shares in its output: the exit code of an error (``EXIT_CODES``),
the table ``kimi --help`` shows and docs/cli.md documents (``EXIT_TABLE``), the one line
an error prints, and text written so that any terminal or pipe can take it.

Output contract: stdout carries only the answer (or, with ``--json``, one JSON document
per turn); the usage line, banner and messages always go to stderr.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import textwrap
from typing import Any, TextIO

# Public names only (an import-linter contract forbids kimi_ext._core in the cli): what the
# command needs, an application can use too.
from kimi_ext import errors
from kimi_ext.batch import command as batch_command
from kimi_ext.batch.lines import BatchInputError
from kimi_ext.cli.exits import (
    EXIT_CASSETTES,
    EXIT_INTERRUPTED,
    EXIT_SETUP,
    EXIT_STANDIN,
    EXIT_USAGE,
)
from kimi_ext.keys import ENV_API_KEY, redact

EXIT_BATCH_INPUT = batch_command.EXIT_BAD_INPUT  # kimi batch: bad input lines, nothing sent

# Narrowest class first: the first match decides the exit code. One code per kind of
# mistake, whichever layer notices it: a flag or value the command refuses and a request
# those flags make invalid (RequestValidationError, e.g. `--effort extreme`) are both 2.
EXIT_CODES: tuple[tuple[type[BaseException], int], ...] = (
    (BatchInputError, EXIT_BATCH_INPUT),
    (errors.RequestValidationError, EXIT_USAGE),
    (errors.HistoryError, 4),
    (errors.StructuredOutputError, 5),
    (errors.ClientConfigError, EXIT_SETUP),
    (errors.AuthenticationError, 10),
    (errors.PermissionDeniedError, 11),
    (errors.NotFoundError, 12),
    (errors.QuotaExceededError, 13),
    (errors.RateLimitError, 14),
    (errors.BadRequestError, 15),
    (errors.InternalServerError, 16),
    (errors.APIStatusError, 17),
    (errors.IncompleteStreamError, 20),
    (errors.APITimeoutError, 21),
    (errors.APIConnectionError, 22),
    (errors.APIResponseError, 23),
    (errors.KimiError, 1),
)

# The table `kimi --help` shows and docs/cli.md documents: (code or range, meaning).
EXIT_TABLE: tuple[tuple[str, str], ...] = (
    ("0", "success"),
    ("1", "any other kimi_ext error"),
    (
        f"{EXIT_USAGE}",
        "bad command line: an unknown flag or command, a bad value, a request the flags "
        "make invalid (RequestValidationError, e.g. --effort extreme)",
    ),
    (
        f"{EXIT_BATCH_INPUT}",
        "kimi batch: the input has bad lines (BatchInputError: invalid, duplicate "
        "custom_id, unknown url, changed since its result was written); nothing was sent",
    ),
    ("4", "the conversation would be refused (HistoryError, e.g. an edited --load file)"),
    ("5", "the answer does not match --json-schema (StructuredOutputError)"),
    (
        f"{EXIT_SETUP}",
        "setup: no API key, an unusable address (--base-url or KIMI_BASE_URL), a file "
        "named by --load, --json-schema or --script that cannot be used (ClientConfigError)",
    ),
    (f"{EXIT_STANDIN}", "the stand-in cannot listen on its port (busy or not allowed)"),
    (
        f"{batch_command.EXIT_SOME_FAILED}",
        "kimi batch finished, but some lines failed (their output lines carry the error; "
        "--retry-failed sends them again)",
    ),
    (
        f"{EXIT_CASSETTES}",
        "a cassette check failed: kimi cassettes check found a key-like string or a cassette "
        "no test used, or kimi stand-in --strict left a recorded interaction unused",
    ),
    (
        "10-17",
        "the service refused: 10 AuthenticationError, 11 PermissionDeniedError, "
        "12 NotFoundError, 13 QuotaExceededError, 14 RateLimitError, 15 BadRequestError, "
        "16 InternalServerError, 17 any other HTTP status (APIStatusError)",
    ),
    (
        "20-23",
        "the answer did not arrive: 20 IncompleteStreamError, 21 APITimeoutError, "
        "22 APIConnectionError, 23 APIResponseError (not the service's JSON)",
    ),
    (f"{EXIT_INTERRUPTED}", "interrupted (Ctrl-C)"),
)


def exit_table() -> str:
    """The exit-code table, as ``kimi --help`` prints it."""
    lines = ["exit codes:"]
    for code, meaning in EXIT_TABLE:
        # "12 NotFoundError" stays on one line (a no-break space while wrapping).
        glued = re.sub(r"(\d+) (?=[A-Z])", "\\1\u00a0", meaning)
        first, *rest = (t.replace("\u00a0", " ") for t in textwrap.wrap(glued, width=78))
        lines.append(f"  {code:>5}  {first}")
        lines += [" " * 9 + line for line in rest]
    return "\n".join(lines)


def exit_code(error: BaseException) -> int:
    """The exit code of ``error``: that of the narrowest class in ``EXIT_CODES``."""
    for cls, code in EXIT_CODES:
        if isinstance(error, cls):
            return code
    return 1


def report(error: errors.KimiError) -> int:
    """Print ``error`` as the one line a command ends with; returns its exit code."""
    # The key never reaches an error's text; redacted here too, in case a key read from
    # the environment differs (say by whitespace) from the one the client holds.
    key = (os.environ.get(ENV_API_KEY) or "").strip()
    text = one_line(redact(str(error), key or None))
    print(f"kimi: {type(error).__name__}: {text}", file=sys.stderr)
    return exit_code(error)


def one_line(text: str) -> str:
    """``text`` on one line, at most 300 characters."""
    text = " ".join(text.split())
    return text if len(text) <= 300 else text[:297] + "..."


def printable(text: str, stream: TextIO | None = None) -> str:
    """``text`` as ``stream`` (UTF-8 when None) can write it. A server may escape each half
    of a surrogate pair on its own: two halves in a row are joined into their character, a
    lone half becomes U+FFFD, the mark for a character that cannot be shown (not a
    backslash escape, which would read as text the model wrote). On a stream whose encoding
    lacks a character (``PYTHONIOENCODING=latin-1``), it becomes that codec's ``?``. Only
    what is printed changes: the history, ``--save`` and ``--json`` keep the text as
    received."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
        with contextlib.suppress(LookupError):
            text = text.encode(encoding, "replace").decode(encoding)
    return text


def json_line(doc: Any, stream: TextIO | None = None) -> str:
    """``doc`` as one line of JSON that ``stream`` (UTF-8 when None) can write: where it
    cannot (a lone surrogate, a character its encoding lacks), as ASCII with ``\\u``
    escapes, so nothing received is lost."""
    text = json.dumps(doc, ensure_ascii=False)
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(doc)
    return text + "\n"


class Printer:
    """Streamed text written as :func:`printable`: the first half of a surrogate pair that
    ends a fragment is held until the next fragment shows whether its second half follows."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.held = ""

    def write(self, text: str) -> None:
        """Write ``text``, holding a first half of a surrogate pair that ends it."""
        text, self.held = self.held + text, ""
        if text and "\ud800" <= text[-1] <= "\udbff":
            text, self.held = text[:-1], text[-1]
        if text:
            put(self.stream, printable(text, self.stream))

    def end(self) -> None:
        """Write what is held (a lone half: no second half came)."""
        if self.held:
            put(self.stream, printable(self.held, self.stream))
            self.held = ""


def put(stream: TextIO, text: str) -> None:
    """Write ``text`` and flush at once: the reader watches the answer arrive (and a pipe
    sees it in order)."""
    stream.write(text)
    stream.flush()
