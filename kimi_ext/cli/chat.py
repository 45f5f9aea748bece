"""``kimi chat``: ask once (with a prompt) or talk interactively (without one).

    kimi chat "Explain idempotency keys in one paragraph."
    kimi chat --format chat --effort low --save talk.json      # interactive, saved each turn
    kimi chat --load talk.json "And with retries?"             # resume a saved conversation

The conversation is :mod:`kimi_ext.cli.session`'s, its files :mod:`kimi_ext.cli.saved`'s,
the interactive loop :mod:`kimi_ext.cli.repl`'s.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from kimi_ext.cli.exits import EXIT_INTERRUPTED
from kimi_ext.cli.options import add_connection_arguments, non_negative_int, positive_int, seconds
from kimi_ext.cli.repl import Repl
from kimi_ext.cli.session import DEFAULT_MODEL, ChatSession
from kimi_ext.cli.standin import HOWTO
from kimi_ext.formats import FORMATS as WIRE_FORMATS
from kimi_ext.keys import ENV_API_KEY

FORMATS = tuple(f.name for f in WIRE_FORMATS)
DEFAULT_FORMAT = "messages"


def add_parser(commands: Any) -> None:
    """Add ``kimi chat`` to ``commands`` (the ``kimi`` parser's subparsers)."""
    chat = commands.add_parser(
        "chat",
        help="ask once (with a prompt) or talk interactively",
        description="Ask once (with a prompt) or talk interactively (without one). stdout "
        "carries only the answer; reasoning goes there too on a terminal, else to stderr.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=HOWTO,
    )
    chat.set_defaults(run=run)
    chat.add_argument("prompt", nargs="*", help="the message; omit it for an interactive session")
    chat.add_argument(
        "--format", choices=FORMATS, default=None, help=f"wire format (default {DEFAULT_FORMAT})"
    )
    chat.add_argument(
        "--model", default=None, help=f"the model (default {DEFAULT_MODEL}, or the --load file's)"
    )
    chat.add_argument(
        "--effort", default=None, help="low, high, max (aliases: medium, xhigh, minimal, none)"
    )
    chat.add_argument("--system", default=None, help="system prompt / instructions")
    chat.add_argument(
        "--max-tokens", type=positive_int, default=None, help="output limit, reasoning included"
    )
    chat.add_argument(
        "--json-schema", metavar="FILE", help="structured output: the answer must match it"
    )
    chat.add_argument(
        "--json", action="store_true", help="print each whole result as one JSON document"
    )
    chat.add_argument(
        "--image", metavar="FILE", action="append", default=[], help="attach an image (repeatable)"
    )
    chat.add_argument("--no-stream", action="store_true", help="wait for the whole answer")
    chat.add_argument("--hide-reasoning", action="store_true", help="do not print the reasoning")
    add_connection_arguments(
        chat,
        api_key_help=f"the API key (default ${ENV_API_KEY}; prefer the variable: "
        "other users can see command lines)",
    )
    chat.add_argument("--max-retries", type=non_negative_int, default=2)
    chat.add_argument("--timeout", type=seconds, default=900.0, help="timeout in seconds")
    chat.add_argument("--save", metavar="FILE", help="save the conversation after every turn")
    chat.add_argument("--load", metavar="FILE", help="continue a conversation saved with --save")


def run(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """Run ``kimi chat``: one turn with a prompt, else the interactive loop."""
    # A --load file brings its own format: --format may only repeat it.
    args.format_given = args.format is not None
    args.format = args.format or DEFAULT_FORMAT
    return run_chat(args, stdin, out)


def run_chat(
    args: argparse.Namespace, stdin: TextIO, out: TextIO, err: TextIO | None = None
) -> int:
    """Run a chat session of ``args``: one turn with a prompt, else the interactive loop;
    Ctrl-C during a turn says what the ``--save`` file holds."""
    session = ChatSession(args, out, err)
    try:
        if args.prompt:
            session.turn(" ".join(args.prompt), args.image)
            return 0
        return Repl(session, stdin, args.image).run()
    except KeyboardInterrupt:
        print("\n" + session.interrupted_message(), file=session.err, flush=True)
        return EXIT_INTERRUPTED
    finally:
        session.close()
