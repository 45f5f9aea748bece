"""The options more than one command takes: the number types (a bad number is a usage
error naming the text given) and the connection (``--api-key``, ``--base-url``,
``--allow-insecure-http``), read here so that an error names the flag or variable a
value came from."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import TypeVar

import httpx

from kimi_ext import errors
from kimi_ext.contract import MAX_SECONDS
from kimi_ext.keys import ENV_API_KEY, ENV_BASE_URL, is_loopback, missing_key_message

_N = TypeVar("_N", int, float)


def _number_type(
    convert: Callable[[str], _N], noun: str, ok: Callable[[_N], bool], rule: str
) -> Callable[[str], _N]:
    """An argparse type: ``convert`` the text, then refuse a value ``ok`` refuses, both
    with a message naming the text given (argparse prefixes the option's name)."""

    def parse(text: str) -> _N:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {noun}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{rule}, not {text}")
        return value

    return parse


positive_int = _number_type(int, "a whole number", lambda v: v > 0, "must be at least 1")
non_negative_int = _number_type(int, "a whole number", lambda v: v >= 0, "must be 0 or more")
# The client's own bound on a timeout or deadline (30 days): a longer one is a usage
# error here, not a refused client later.
seconds = _number_type(
    float,
    "a number of seconds",
    lambda v: 0 < v <= MAX_SECONDS,
    f"must be a number of seconds above 0 and at most {MAX_SECONDS:,} (30 days)",
)
port = _number_type(
    int, "a port number", lambda v: 0 <= v <= 65535, "must be 0-65535 (0: any free port)"
)


def add_connection_arguments(parser: argparse.ArgumentParser, api_key_help: str) -> None:
    """Add ``--api-key``, ``--base-url`` and ``--allow-insecure-http`` to ``parser``."""
    parser.add_argument("--api-key", default=None, help=api_key_help)
    parser.add_argument(
        "--base-url", default=None, help=f"API address (default ${ENV_BASE_URL}, else evolink)"
    )
    parser.add_argument(
        "--allow-insecure-http",
        action="store_true",
        help="allow a plain http:// --base-url that is not this machine",
    )


def api_key_of(args: argparse.Namespace) -> str:
    """The key from ``--api-key`` or ``$KIMI_API_KEY``; a CLI-worded error without one."""
    key = args.api_key or os.environ.get(ENV_API_KEY)
    if not key:
        raise errors.ClientConfigError(
            f"{missing_key_message('--api-key')}; for the offline stand-in use the key "
            "`kimi stand-in` prints"
        )
    return key


def base_url_of(args: argparse.Namespace) -> str | None:
    """``--base-url`` or ``$KIMI_BASE_URL`` (None: the default address), checked here so the
    error names the flag or variable it came from."""
    url = args.base_url or os.environ.get(ENV_BASE_URL)
    if not url:
        return None
    source = "--base-url" if args.base_url else ENV_BASE_URL
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise errors.ClientConfigError(f"{source} {url!r}: not a URL ({exc})") from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise errors.ClientConfigError(
            f"{source} {url!r}: must be an https:// address (or http:// to this machine, "
            "e.g. http://127.0.0.1:8765 for `kimi stand-in --port 8765`)"
        )
    if parsed.scheme == "http" and not args.allow_insecure_http and not is_loopback(parsed.host):
        raise errors.ClientConfigError(
            f"{source} {url!r}: plain http would send the API key unencrypted; use https, "
            "or add --allow-insecure-http if you really mean it"
        )
    return url
