"""Load: many concurrent streams through one AsyncKimi against the stand-in.

Every stream gets its own scripted reply (derived from its request) and must end with
exactly that reply; afterwards the connection pool is idle (no connection left busy, no
request queued) and the memory traced before the run is back within a small margin.

``KIMI_LOAD_STREAMS`` sets the number of concurrent streams (default 500).
"""

from __future__ import annotations

import asyncio
import gc
import os
import re
import threading
import time
import tracemalloc
from typing import Any

import httpx
import pytest

from kimi_ext import AsyncKimi
from kimi_ext.testing import KimiStandIn, RecordedRequest, Reply
from tests.support.robustness import FINAL, FORMATS, request, resource

pytestmark = pytest.mark.slow  # hundreds of streams (`make test-fast` leaves it out)

STREAMS = int(os.environ.get("KIMI_LOAD_STREAMS", "500"))
# Every stream has its own connection (all are open at once); a few stay pooled after.
KEEP_ALIVE = 10
# Memory after the run (and a gc) may exceed the level before it by at most this much.
MARGIN = 512 * 1024
# Every phase of a request may wait long on a loaded machine: 500 connections open at once
# while the stand-in's threads (in this process) compete with the event loop for the GIL
# and the CPUs are shared. The client's defaults (connect 10 s, pool 30 s) are for real
# networks; on loopback only load can make a phase slow, and load is not what this checks.
LOADED_LOOPBACK = httpx.Timeout(connect=300.0, read=300.0, write=300.0, pool=300.0)
# How long the stand-in's threads of closed connections may take to end (polled).
SETTLE = 120.0


def reply_for(req: RecordedRequest) -> Reply:
    """Each request says "question <n>"; its reply names n in the text and the reasoning."""
    body = req.json
    text = body["input"] if "input" in body else body["messages"][-1]["content"]
    n = re.fullmatch(r"question (\d+)", text).group(1)  # type: ignore[union-attr]
    return Reply(text=f"Answer {n}: " + "lorem ipsum " * 8, reasoning=f"Thinking about {n}.")


async def one_stream(client: AsyncKimi, n: int) -> tuple[int, str, str]:
    fmt = FORMATS[n % 3]
    async with resource(client, fmt).stream(**request(fmt, f"question {n}")) as stream:
        pieces = [t async for t in stream.text_stream]
        final = await getattr(stream, FINAL[fmt])()
    assert "".join(pieces) == final.text
    return n, final.text, final.reasoning


async def run(client: AsyncKimi, count: int) -> None:
    results = await asyncio.gather(*(one_stream(client, n) for n in range(count)))
    for n, text, reasoning in results:
        assert text == f"Answer {n}: " + "lorem ipsum " * 8
        assert reasoning == f"Thinking about {n}."


def pool_state(client: AsyncKimi) -> tuple[int, int, int]:
    """(connections, busy connections, queued requests) of the client's pool."""
    pool: Any = client._sender.http._transport._pool  # type: ignore[attr-defined]
    connections = list(pool.connections)
    busy = [c for c in connections if not (c.is_idle() or c.is_closed())]
    return len(connections), len(busy), len(pool._requests)


async def test_concurrent_streams_complete_and_leave_nothing_behind() -> None:
    # The threads that were there before (the main thread, a parallel runner's own, any a
    # test before this one left): settle() waits for the stand-in's only.
    before_us = set(threading.enumerate())
    with KimiStandIn(caching=False) as standin:
        standin.responder = reply_for
        limits = httpx.Limits(max_connections=STREAMS, max_keepalive_connections=KEEP_ALIVE)
        http = httpx.AsyncClient(limits=limits, timeout=LOADED_LOOPBACK)
        client = AsyncKimi(
            api_key=standin.api_key, base_url=standin.base_url, fallback_base_url=None,
            http_client=http, max_retries=0, timeout=LOADED_LOOPBACK,
        )  # fmt: skip
        tracemalloc.start()
        try:
            # Warm up: lazy imports, and as many pooled connections as after the run.
            await run(client, 3 * KEEP_ALIVE)
            before = await settle(standin, before_us)
            started = time.perf_counter()
            await run(client, STREAMS)
            elapsed = time.perf_counter() - started
            assert len(standin.requests) == STREAMS  # one request each: nothing retried
            after = await settle(standin, before_us)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        connections, busy, queued = pool_state(client)
        assert 0 < connections <= KEEP_ALIVE
        assert (busy, queued) == (0, 0), "a connection was left busy"
        assert after - before < MARGIN, (before, after, peak)
        print(f"\n{STREAMS} streams in {elapsed:.1f}s; traced {before} -> {after} (peak {peak})")
        await client.close()
        await http.aclose()
        assert pool_state(client)[0] == 0


async def settle(standin: KimiStandIn, before_us: set[threading.Thread]) -> int:
    """Forget what the stand-in recorded, let closed connections' threads and callbacks
    finish, collect garbage: the memory traced now. Allocations of a coverage tracer (one
    per thread the stand-in started, kept by coverage) are not ours and are left out."""
    standin.reset()
    standin.responder = reply_for
    # Wait, however slow a loaded machine makes it, until the stand-in's threads of closed
    # connections have ended (its server thread and the pooled connections keep theirs;
    # threads that were there before the test are not counted) and no task but this one
    # is left (the loop turns at least once: until the done callbacks of the finished
    # tasks have run, it holds them and their results; closing a stream's async generators
    # may start tasks of its own).
    give_up = time.monotonic() + SETTLE
    while True:
        await asyncio.sleep(0.02)
        ours = set(threading.enumerate()) - before_us
        settled = len(ours) <= KEEP_ALIVE + 1 and len(asyncio.all_tasks()) == 1
        if settled or time.monotonic() > give_up:
            break
    gc.collect()
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, "*/coverage/*"), tracemalloc.Filter(False, tracemalloc.__file__)]
    )
    return sum(stat.size for stat in snapshot.statistics("filename"))
