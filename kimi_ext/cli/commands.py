"""The ``kimi`` parser, made of one subcommand per command module, and the run of a
parsed command: each module adds its own subparser and names the function that runs it
(``set_defaults(run=...)``); a ``KimiError`` any of them lets out ends the command with
one line and its exit code."""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Sequence
from typing import Any, TextIO

from kimi_ext import __version__, errors
from kimi_ext.cli import batch, cassettes, chat, standin
from kimi_ext.cli.output import exit_table, report

# In the order `kimi --help` lists them.
COMMANDS = (chat, batch, standin, cassettes)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors show the usage of the command they belong to
    (``kimi chat``'s for a ``kimi chat`` flag) and suggest the closest option or choice."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse, refusing unknown arguments here: argparse would otherwise pass a
        subcommand's up to ``kimi`` and print the top-level usage."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            hints = [hint for arg in extras if (hint := self._closest_option(arg))]
            more = f" (did you mean {', '.join(hints)}?)" if hints else ""
            self.error(f"unrecognized arguments: {' '.join(extras)}{more}")
        return parsed, extras

    def _closest_option(self, arg: str) -> str | None:
        if not arg.startswith("-"):
            return None
        name = arg.partition("=")[0]
        match = difflib.get_close_matches(name, list(self._option_string_actions), n=1)
        return match[0] if match else None

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is not None and value not in choices:
            names = [str(c) for c in choices]
            match = difflib.get_close_matches(str(value), names, n=1)
            more = f"; did you mean {match[0]}?" if match else ""
            raise argparse.ArgumentError(
                action, f"invalid choice: {value!r} (choose from {', '.join(names)}){more}"
            )


def build_parser() -> argparse.ArgumentParser:
    """The ``kimi`` argument parser: each command module adds its subcommand."""
    parser = Parser(
        prog="kimi",
        description="Talk to Kimi K3.1 Pro (key from KIMI_API_KEY), or run the offline stand-in.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=standin.HOWTO + "\n\n" + exit_table(),
    )
    parser.add_argument("--version", action="version", version=f"kimi {__version__} (kimi-ext)")
    commands = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(commands)
    return parser


def run(argv: Sequence[str] | None, stdin: TextIO, out: TextIO) -> int:
    """Parse ``argv`` and run its command; returns the exit code (see ``kimi --help``)."""
    return run_command(build_parser().parse_args(argv), stdin, out)


def run_command(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """Run the command ``args`` (from :func:`build_parser`) holds; returns its exit code."""
    try:
        code: int = args.run(args, stdin, out)
    except errors.KimiError as exc:
        return report(exc)
    return code
