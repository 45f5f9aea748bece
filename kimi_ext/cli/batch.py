"""``kimi batch IN.jsonl -o OUT.jsonl``: the subcommand; its options and the run itself
are :mod:`kimi_ext.batch.command`'s (the connection options are the cli's)."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from kimi_ext.batch import command as batch_command
from kimi_ext.cli.options import (
    add_connection_arguments,
    api_key_of,
    base_url_of,
    non_negative_int,
    positive_int,
    seconds,
)
from kimi_ext.keys import ENV_API_KEY


def add_parser(commands: Any) -> None:
    """Add ``kimi batch`` to ``commands`` (the ``kimi`` parser's subparsers)."""
    batch = commands.add_parser(
        "batch",
        help="run a batch JSONL file of requests (resumable)",
        description=batch_command.DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    batch.set_defaults(run=run)
    batch_command.add_arguments(
        batch, positive=positive_int, non_negative=non_negative_int, seconds=seconds
    )
    add_connection_arguments(batch, api_key_help=f"the API key (default ${ENV_API_KEY})")


def run(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """Run ``kimi batch``."""
    return batch_command.run_command(
        args, api_key=api_key_of(args), base_url=base_url_of(args), out=out
    )
