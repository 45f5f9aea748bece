"""Every use of an httpx (or httpcore) internal, in one place.

The rest of kimi_ext uses httpx's public API only. What is here has no public equivalent;
each entry says why it is needed and what it saves, measured. ``make test`` runs the suite
on the newest httpx that ``pyproject.toml`` allows and ``make test-httpx-oldest`` runs the
transport tests (sending, streaming, deadlines, hostile servers) on the oldest, so a
release that moves one of these fails a test first.

Removed (issue 25; each saved under 5 % of a small request, measured with ``python -m
benchmarks --only small --quick``, A/B interleaved, and timed in process; a small request
takes ~400-450 us on loopback):

* writing redacted header values into ``httpx.Headers._list`` instead of
  ``headers[name] = ...``: saved ~5 us per request (request 2.8 us instead of 7.9; response
  headers 2.6 instead of 3.2), ~1.3 %;
* building the ``httpx.Request`` by hand instead of ``client.build_request``: saved
  ~10 us (25.5 instead of 36.1), ~2.5 %;
* ``hasattr(response, "_content")`` to know whether a body is unread: the public
  ``response.is_stream_consumed`` says the same at the same cost.

In the A/B runs (six rounds, the median over the three formats) a small call took 448 us
with both shortcuts and 457 us with neither (build_request alone: 460, public headers
alone: 472, within this shared machine's noise of about +-10 %).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx

__all__ = ["cap_reads", "drop_body", "set_body"]


def set_body(response: httpx.Response, content: bytes) -> None:
    """Make ``content`` what ``response.content`` (``.text``, ``.json()``) returns.

    Why (``Response._content``): the sender reads a body under a cap (``max_body_size``,
    ``MAX_ERROR_BODY``) chunk by chunk, which ``response.read()`` cannot do (it reads
    everything, so a hostile server could fill memory), and must then hand over the same
    response object (hooks and results already hold it) with its body readable; the
    streams and ``parse_json_body`` also replace a kept body by its redacted copy (it may
    echo the key). A new ``httpx.Response(content=...)`` would change the object users
    hold, and decode an already decoded body again when it has a Content-Encoding. Not a
    speed shortcut: there is no public way to do it at any cost.
    """
    response._content = content


def drop_body(response: httpx.Response) -> None:
    """Free the body of a response whose error will be retried (see :func:`set_body`):
    httpx responses sit in a reference cycle, so it would otherwise be held until the next
    garbage collection, and a retry loop of large error bodies would hold them all."""
    if response.is_stream_consumed:
        set_body(response, b"")


def cap_reads(response: httpx.Response, deadline: float) -> Callable[[], None] | None:
    """Make every read of ``response``'s connection, from this thread, wait at most until
    ``deadline`` (``time.monotonic()``); return the function that undoes it, or None when
    it cannot (no network stream, as with in-memory transports, or HTTP/2, where closing
    the response ends only its stream).

    Why (replaces the ``read`` method of httpcore's ``network_stream``, a documented
    extension whose ``read(max_bytes, timeout)`` is its interface): after a stream's
    terminal event, the end of the body is read so that the HTTP/1.1 connection goes back
    to the pool, but a server may hold the body open; this rule bounds that wait to the
    stream's drain grace. httpcore fixes the read timeout when the body starts, and httpx
    has no per-read timeout. The public alternative, a watchdog thread per stream that shuts
    the socket down at the grace (as the call deadline does), costs a thread start and
    cancel per stream (~80 us measured in process, ~18 % of a small request's ~450 us),
    so this one stays.
    """
    extensions = response.extensions
    if extensions.get("http_version", b"HTTP/1.1") not in (b"HTTP/1.1", b"HTTP/1.0"):
        return None
    stream: Any = extensions.get("network_stream")
    read = getattr(stream, "read", None)
    if read is None:
        return None
    owner = threading.get_ident()

    def capped(max_bytes: int, timeout: float | None = None) -> Any:
        if threading.get_ident() == owner:
            left = max(deadline - time.monotonic(), 0.001)
            timeout = left if timeout is None else min(timeout, left)
        return read(max_bytes, timeout)

    try:
        stream.read = capped
    except (AttributeError, TypeError):
        return None

    def undo() -> None:
        with contextlib.suppress(AttributeError):
            del stream.read

    return undo
