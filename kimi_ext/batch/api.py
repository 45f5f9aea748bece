"""The Python API of a batch run: :func:`arun_batch` and its synchronous twin
:func:`run_batch`, both yielding output lines as they are written."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import Any

from kimi_ext.batch.runner import BatchRun

__all__ = ["arun_batch", "run_batch"]


# twin: run_batch
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
    # twin: differs (the sync one runs the async one in a thread of its own)
    async with contextlib.aclosing(BatchRun(source, output, **options).results()) as docs:
        async for doc in docs:
            yield doc


# twin: arun_batch
def run_batch(
    source: str | Path | Iterable[Any], output: str | Path | None, **options: Any
) -> Iterator[dict[str, Any]]:
    """The synchronous :func:`arun_batch`: the run goes on in a thread of its own (with its
    own event loop); this yields each output line as it is written. Leaving the loop early
    stops the run (lines in flight are abandoned, not written; the output is resumable)."""
    # twin: differs (as arun_batch says)
    return iter(BatchRun(source, output, **options))
