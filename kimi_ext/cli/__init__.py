"""The ``kimi`` command: chat with Kimi from a terminal, run a batch file, or run the offline
stand-in.

    kimi chat "Explain idempotency keys in one paragraph."
    kimi chat --format chat --effort low --save talk.json      # interactive, saved each turn
    kimi chat --load talk.json "And with retries?"             # resume a saved conversation
    kimi batch requests.jsonl -o results.jsonl                 # a batch file, resumable
    kimi stand-in --port 8765                                  # offline server for tests
    kimi cassettes check cassettes/                            # no secret in the recordings

This module is the entry point (the ``kimi`` script calls :func:`main`) and only that:
importing it loads nothing heavy and changes nothing in the process (no signal handler,
no environment variable, no output). :func:`main` imports the commands; a Ctrl-C from
then on, while they load or while the command line is read, ends the command with one
line and exit code 130, never a traceback.

The rest of the package: one module per command (:mod:`~kimi_ext.cli.chat` with its
session, saved files and interactive loop, :mod:`~kimi_ext.cli.batch`,
:mod:`~kimi_ext.cli.standin`, :mod:`~kimi_ext.cli.cassettes`), each adding its own
subcommand to the parser (:mod:`~kimi_ext.cli.commands`); the options they share
(:mod:`~kimi_ext.cli.options`); the output and exit codes (:mod:`~kimi_ext.cli.output`,
:mod:`~kimi_ext.cli.exits`).

Exit codes: one per kind of mistake, whichever layer notices it (shown by ``kimi --help``).
Errors are one line naming CLI flags and environment variables (``--api-key`` /
``KIMI_API_KEY``...); a bad command line shows the usage of its (sub)command and the
closest option or choice.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

from kimi_ext._core.call.lazy import lazy_attributes
from kimi_ext.cli.exits import (
    EXIT_CASSETTES,
    EXIT_INTERRUPTED,
    EXIT_SETUP,
    EXIT_STANDIN,
    EXIT_USAGE,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = [
    "EXIT_CASSETTES",
    "EXIT_INTERRUPTED",
    "EXIT_SETUP",
    "EXIT_STANDIN",
    "EXIT_USAGE",
    "main",
]


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
    exit: Callable[[int], Any] = sys.exit,
) -> int:
    """Entry point of the ``kimi`` console script: run the command ``argv`` (default
    ``sys.argv[1:]``) and ``exit`` with its code (see ``kimi --help``)."""
    try:
        # The heavy imports happen here, not when this module is imported: a Ctrl-C while
        # they run or while the command line is read is one line and 130 (a command with
        # more to say, say a chat with a --save file, says it itself). The process's own
        # SIGINT handling is left as it was: nothing to swap, nothing to put back.
        from kimi_ext.cli.commands import run

        code = run(argv, stdin or sys.stdin, out or sys.stdout)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr, flush=True)
        code = EXIT_INTERRUPTED
    exit(code)
    return code


# The names kimi_ext.cli had when it was one module, and where each is now: still found
# here for a release (with a DeprecationWarning), without loading anything until asked.
_MOVED: dict[str, tuple[str, str]] = {
    **dict.fromkeys(
        ["EXIT_BATCH_INPUT", "EXIT_CODES", "EXIT_TABLE", "exit_code", "exit_table",
         "json_line", "one_line", "printable"],
        ("output", ""),
    ),
    **dict.fromkeys(
        ["ChatSession", "DEFAULT_MAX_TOKENS", "DEFAULT_MODEL", "STOP_REASON", "Style",
         "Thinking", "envelope", "new_history", "usage_line"],
        ("session", ""),
    ),
    **dict.fromkeys(
        ["HISTORY_CLASSES", "SAVE_VERSION", "Saved", "load_conversation", "save_conversation"],
        ("saved", ""),
    ),
    **dict.fromkeys(["HELP", "PROMPT", "Repl"], ("repl", "")),
    **dict.fromkeys(["FORMATS", "run_chat"], ("chat", "")),
    **dict.fromkeys(["api_key_of", "base_url_of"], ("options", "")),
    **dict.fromkeys(["Parser", "build_parser", "run_command"], ("commands", "")),
    "STANDIN_HOWTO": ("standin", "HOWTO"),
}  # fmt: skip


# The package's one lazy helper (the cli's only import from the core: import-linter's cli
# contract names it as the exception).
__getattr__ = lazy_attributes(
    __name__,
    {},
    moved={
        name: (f"{__name__}.{module}", new_name or name)
        for name, (module, new_name) in _MOVED.items()
    },
)
