"""``kimi cassettes check DIR|FILE [--used FILE]``: scan recorded cassettes for secrets and
for cassettes no test used (for CI)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, TextIO

from kimi_ext.cli.exits import EXIT_CASSETTES, EXIT_SETUP
from kimi_ext.keys import ENV_API_KEY, redact


def add_parser(commands: Any) -> None:
    """Add ``kimi cassettes`` to ``commands`` (the ``kimi`` parser's subparsers)."""
    cassettes = commands.add_parser(
        "cassettes",
        help="check recorded cassettes",
        description="Check recorded cassettes (see kimi stand-in --record).",
    )
    checks = cassettes.add_subparsers(dest="cassettes_command", required=True)
    check = checks.add_parser(
        "check",
        help="scan cassettes for secrets and unused cassettes (for CI)",
        description="Scan every cassette under DIR (or the cassette FILE) for key-like "
        "strings (and for pieces of the key in KIMI_API_KEY, if set, also split across a "
        "stream's frames) and, with --used, for cassettes no test used. "
        f"Exit 0 when clean, {EXIT_CASSETTES} with one line per problem.",
    )
    check.set_defaults(run=run)
    check.add_argument("folder", metavar="DIR|FILE", help="a cassette folder, or one cassette")
    check.add_argument(
        "--used",
        metavar="FILE",
        help="the list of used cassettes pytest --kimi-cassettes-used FILE wrote",
    )


def run(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """Run ``kimi cassettes check DIR|FILE [--used FILE]``: one line per problem."""
    from kimi_ext.testing.cassette import CassetteError
    from kimi_ext.testing.check import check_folder

    key = (os.environ.get(ENV_API_KEY) or "").strip()
    try:
        problems = check_folder(args.folder, used=args.used, keys=[key] if key else [])
    except CassetteError as exc:
        print(f"kimi: cassettes: {exc}", file=sys.stderr)
        return EXIT_SETUP
    for problem in problems:
        print(redact(str(problem), key or None), file=out)
    if problems:
        print(f"kimi: cassettes: {len(problems)} problem(s)", file=sys.stderr)
        return EXIT_CASSETTES
    print(
        f"{args.folder}: no secret found" + (", every cassette used" if args.used else ""), file=out
    )
    return 0
