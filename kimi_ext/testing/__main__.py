"""``python -m kimi_ext.testing [--port N] [--api-key KEY]``: run a stand-in until Ctrl-C.

Its exit codes are those of ``kimi stand-in`` (the table in ``kimi --help``): 0 after
Ctrl-C, 2 for a bad command line (``--port 70000``), 7 when the port cannot be listened on.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from kimi_ext.testing.standin import StandInError, serve_forever

EXIT_USAGE = 2  # argparse's, as kimi_ext.cli.EXIT_USAGE
EXIT_CANNOT_LISTEN = 7  # as kimi_ext.cli.EXIT_STANDIN (the cli sits above this layer)


def main(argv: Sequence[str] | None = None) -> int:
    """Serve until Ctrl-C (0); 2 for a bad command line (a port outside 0-65535); one
    line on stderr and 7 when the port cannot be listened on."""
    parser = argparse.ArgumentParser(
        prog="python -m kimi_ext.testing",
        description="Run an offline stand-in for the Kimi API on 127.0.0.1.",
    )
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: any free port)")
    parser.add_argument("--api-key", default="test-key", help="the API key to accept")
    args = parser.parse_args(argv)
    try:
        serve_forever(port=args.port, api_key=args.api_key)
    except StandInError as exc:
        # The user's to fix, said in one line: a port outside 0-65535 (bind raises
        # OverflowError) is a bad value (2), a busy or forbidden one cannot be listened on.
        print(f"{parser.prog}: {exc}", file=sys.stderr)
        return EXIT_USAGE if isinstance(exc.__cause__, OverflowError) else EXIT_CANNOT_LISTEN
    return 0


if __name__ == "__main__":
    sys.exit(main())
