"""A run iterated from synchronous code: the run goes on in a thread of its own, with its
own event loop, and hands each output line over as it is written."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import AsyncGenerator, Callable, Iterator
from typing import Any

__all__ = ["in_thread"]


def in_thread(
    results: Callable[[], AsyncGenerator[dict[str, Any], None]], buffer: int
) -> Iterator[dict[str, Any]]:
    """Iterate ``results()`` (an async generator function) from synchronous code. Leaving
    the loop early closes the generator (and so stops the run)."""
    done = object()
    handoff: queue.Queue[Any] = queue.Queue(maxsize=max(buffer, 1))
    loop_box: list[asyncio.AbstractEventLoop] = []
    leaving = threading.Event()

    async def pump() -> None:
        loop_box.append(asyncio.get_running_loop())
        async with contextlib.aclosing(results()) as docs:
            async for doc in docs:
                while not leaving.is_set():
                    try:
                        handoff.put_nowait(doc)
                        break
                    except queue.Full:  # the caller is slower: wait without blocking the loop
                        await asyncio.sleep(0.01)
                if leaving.is_set():
                    break

    def worker() -> None:
        try:
            asyncio.run(pump())
            handoff.put((done, None))
        except BaseException as exc:  # handed to the caller's thread
            handoff.put((done, exc))

    thread = threading.Thread(target=worker, name="kimi-batch", daemon=True)
    thread.start()
    try:
        while True:
            item = handoff.get()
            if isinstance(item, tuple) and item and item[0] is done:
                if item[1] is not None:
                    raise item[1]
                return
            yield item
    finally:
        leaving.set()
        while thread.is_alive():
            with contextlib.suppress(queue.Empty):  # let the pump finish a blocked put
                handoff.get(timeout=0.1)
            thread.join(timeout=0.1)
