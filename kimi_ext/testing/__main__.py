"""``python -m kimi_ext.testing [--port N] [--api-key KEY]``: run a stand-in until Ctrl-C."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from kimi_ext.testing.standin import serve_forever


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m kimi_ext.testing",
        description="Run an offline stand-in for the Kimi API on 127.0.0.1.",
    )
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: any free port)")
    parser.add_argument("--api-key", default="test-key", help="the API key to accept")
    args = parser.parse_args(argv)
    serve_forever(port=args.port, api_key=args.api_key)


if __name__ == "__main__":
    main()
