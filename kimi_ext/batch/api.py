"""The Python API of a batch run: :func:`arun_batch` and its synchronous twin
:func:`run_batch`, both yielding output lines as they are written."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import Any

from kimi_ext.batch.runner import BatchRun

__all__ = ["arun_batch", "run_batch"]


# sync/async twin of run_batch.
async def arun_batch(
    source: str | Path | Iterable[Any], output: str | Path | None, **options: Any
) -> AsyncIterator[dict[str, Any]]:
    """Run a batch, yielding each output line as it is written (see :class:`BatchRun` for
    the options: ``concurrency``, ``rpm``, ``tpm``, ``max_retries``, ``retry_failed``,
    ``skip_invalid``, ``job_id``, ``prices``, and the client's ``api_key``, ``base_url``...).

    Example::

        async for line in arun_batch("requests.jsonl", "results.jsonl", concurrency=8):
            print(line["custom_id"])
    """
    async with contextlib.aclosing(BatchRun(source, output, **options).results()) as docs:
        async for doc in docs:
            yield doc


# sync/async twin of arun_batch.
def run_batch(
    source: str | Path | Iterable[Any], output: str | Path | None, **options: Any
) -> Iterator[dict[str, Any]]:
    """The synchronous :func:`arun_batch`: the run goes on in a thread of its own (with its
    own event loop); this yields each output line as it is written. Leaving the loop early
    stops the run (lines in flight are abandoned, not written; the output is resumable)."""
    run = BatchRun(source, output, **options)
    return _in_thread(run)


def _in_thread(run: BatchRun) -> Iterator[dict[str, Any]]:
    done = object()
    handoff: queue.Queue[Any] = queue.Queue(maxsize=max(run.concurrency, 1) * 2)
    loop_box: list[asyncio.AbstractEventLoop] = []
    leaving = threading.Event()

    async def pump() -> None:
        loop_box.append(asyncio.get_running_loop())
        async with contextlib.aclosing(run.results()) as docs:
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
