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
* ``hasattr(response, "_content")`` to know whether a body is unread: the public
  ``response.is_stream_consumed`` says the same at the same cost.

Building the request by hand (:func:`build_request`, ~2.5 %) was removed too, then restored:
without it two full ``make bench`` runs missed the ``small`` goal (messages 1.11 and 1.12
against <= 1.10; with it, 1.06-1.07 in the runs right after).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx

__all__ = ["build_request", "cap_reads", "drop_body", "set_body"]


def build_request(
    http: httpx.Client | httpx.AsyncClient,
    method: str,
    url: httpx.URL,
    content: bytes,
    headers: dict[str, str],
    timeout: Any,
) -> httpx.Request:
    """What ``http.build_request(method, url, content=, headers=, timeout=)`` returns.

    Why: ``build_request`` merges our headers into the client's by scanning the client's
    list once per header we set; for a client without cookies or params (what else it
    merges) the same request is made here from public constructors, the client's headers
    minus ours, then ours. Measured: 25 us instead of 36 per request, ~2.5 % of a small
    call; kept although under the 5 % bar, because without it (and the rest of issue 25's
    removals) the ``small`` goal (<= 1.10x bare httpx) was missed (messages 1.11-1.12 in two
    full runs). ``tests/_core/transport/test_request_build.py`` pins that the request equals
    ``build_request``'s, so an httpx that changes what it merges fails there first.
    """
    if http.cookies or http.params:
        return http.build_request(method, url, content=content, headers=headers,
                                  timeout=timeout)  # fmt: skip
    ours = {name.lower() for name in headers}
    merged: list[Any] = [  # the client's as bytes (as kept), ours as str
        (name, value)
        for name, value in http.headers.raw
        if name.decode("latin-1").lower() not in ours
    ]
    merged.extend(headers.items())
    return httpx.Request(
        method, url, content=content, headers=merged,
        extensions={"timeout": httpx.Timeout(timeout).as_dict()},
    )  # fmt: skip


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
