"""``python -m kimi_ext.testing [--port N] [--api-key KEY]``: run a stand-in until Ctrl-C."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from kimi_ext.testing.standin import serve_forever

EXIT_CANNOT_LISTEN = 2


def main(argv: Sequence[str] | None = None) -> int:
    """Serve until Ctrl-C (0); one line on stderr and 2 when the port cannot be bound."""
    parser = argparse.ArgumentParser(
        prog="python -m kimi_ext.testing",
        description="Run an offline stand-in for the Kimi API on 127.0.0.1.",
    )
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: any free port)")
    parser.add_argument("--api-key", default="test-key", help="the API key to accept")
    args = parser.parse_args(argv)
    try:
        serve_forever(port=args.port, api_key=args.api_key)
    except (OSError, OverflowError) as exc:
        # A busy, forbidden or out-of-range port is the user's to fix: say so in one line
        # (bind raises OverflowError for a port outside 0-65535).
        reason = getattr(exc, "strerror", None) or str(exc)
        print(f"{parser.prog}: cannot listen on 127.0.0.1:{args.port}: {reason}", file=sys.stderr)
        return EXIT_CANNOT_LISTEN
    return 0


if __name__ == "__main__":
    sys.exit(main())
