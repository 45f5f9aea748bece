"""``kimi stand-in``: the offline Kimi stand-in in the foreground, until Ctrl-C (its
options, and the server it builds from them)."""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, TextIO

from kimi_ext.cli.exits import EXIT_CASSETTES, EXIT_SETUP, EXIT_STANDIN, EXIT_USAGE
from kimi_ext.cli.options import port

# Shown by `kimi --help`, `kimi chat --help` and `kimi stand-in --help`.
HOWTO = """\
offline, with no key and no network:
  kimi stand-in --port 8765                  # in one terminal; prints its address and key
  kimi stand-in --script replies.json        # answer from a script file (rules and replies)
  kimi stand-in --record cassettes --upstream https://direct.evolink.ai   # record real answers
  kimi stand-in --replay cassettes           # answer with what was recorded
  KIMI_API_KEY=test-key kimi chat --base-url http://127.0.0.1:8765 "Hello"   # in another"""


def add_parser(commands: Any) -> None:
    """Add ``kimi stand-in`` to ``commands`` (the ``kimi`` parser's subparsers)."""
    standin = commands.add_parser(
        "stand-in",
        help="run the offline Kimi stand-in in the foreground",
        description="Run the offline Kimi stand-in on 127.0.0.1 until Ctrl-C.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=HOWTO,
    )
    standin.set_defaults(run=run)
    standin.add_argument("--port", type=port, default=0, help="port (0: any free port)")
    standin.add_argument("--api-key", default="test-key", help="the key it accepts")
    standin.add_argument(
        "--script",
        metavar="FILE",
        help="answer from a JSON script file of rules, replies and faults (see docs/testing.md)",
    )
    standin.add_argument(
        "--record",
        metavar="DIR",
        help="be a recording proxy: forward to --upstream and store each exchange in DIR "
        "(a folder: one cassette per exchange; a .json file: all in it)",
    )
    standin.add_argument(
        "--upstream",
        metavar="URL",
        type=_upstream,
        help="the service to record from (https, or http on this machine)",
    )
    standin.add_argument(
        "--scrub",
        metavar="REGEX",
        action="append",
        type=_pattern,
        default=[],
        help="also keep what matches REGEX out of the recordings (repeatable)",
    )
    standin.add_argument(
        "--keep-header",
        metavar="NAME",
        action="append",
        default=[],
        help="also record this response header (a pattern such as x-kimi-*; repeatable)",
    )
    standin.add_argument(
        "--replay",
        metavar="DIR",
        help="answer with the cassettes in DIR (a folder or a .json file); with --record, "
        "record what they do not answer",
    )
    standin.add_argument(
        "--timing",
        choices=("fast", "recorded"),
        default="fast",
        help="replay as fast as possible (default) or at the recorded pace",
    )
    standin.add_argument(
        "--allow-repeats",
        action="store_true",
        help="let a recording answer again once every match was used",
    )
    standin.add_argument(
        "--strict",
        action="store_true",
        help=f"on Ctrl-C, list the interactions no request used and exit {EXIT_CASSETTES} "
        "if there are any",
    )


def _pattern(value: str) -> re.Pattern[str]:
    try:
        return re.compile(value)
    except re.error as exc:
        raise argparse.ArgumentTypeError(f"not a regular expression: {exc}") from None


def _upstream(value: str) -> str:
    from kimi_ext.testing.recorder import check_upstream

    try:
        return check_upstream(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix(f"upstream {value!r}: ")) from None


def run(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """Run ``kimi stand-in``: a one-line error (no traceback) when the port is taken."""
    from kimi_ext.testing import KimiStandIn, ScriptError, StandInError, serve
    from kimi_ext.testing.cassette import CassetteError

    if (args.record is None) != (args.upstream is None):
        print("kimi stand-in: error: --record and --upstream go together", file=sys.stderr)
        return EXIT_USAGE
    try:
        standin = KimiStandIn(args.api_key, port=args.port, script=args.script)
        if args.replay is not None:
            standin.replay(
                args.replay,
                timing=args.timing,
                allow_repeats=args.allow_repeats,
                strict=args.strict,
            )
        if args.record is not None:
            standin.record(
                args.record, args.upstream, scrubbers=args.scrub, keep_headers=args.keep_header
            )
        problems = serve(standin)
    except (ScriptError, CassetteError) as exc:
        # Read before the port is bound: a broken file serves nothing.
        print(f"kimi: stand-in: {exc}", file=sys.stderr)
        return EXIT_SETUP
    except StandInError as exc:
        print(f"kimi: stand-in: {exc}", file=sys.stderr)
        return EXIT_STANDIN
    for problem in problems:
        print(f"kimi: stand-in: {problem}", file=sys.stderr)
    return EXIT_CASSETTES if problems else 0
