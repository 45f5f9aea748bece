"""Past one machine: the batch runner inside Ray Data (the ``kimi-ext[ray]`` extra).

::

    import ray
    from kimi_ext.batch import on_ray

    on_ray.check("requests.jsonl")                      # every line, before anything is sent
    lines = on_ray.read("requests.jsonl")               # a Dataset of {"text": line}
    results = lines.map_batches(
        on_ray.KimiBatch,                               # the same runner in each worker
        fn_constructor_kwargs=on_ray.worker_options(
            workers=4, job_id="eval-2026-12", concurrency=64, rpm=3000, tpm=2_000_000
        ),
        concurrency=4, batch_size=256, num_cpus=0.25,   # workers wait on the network
    )
    on_ray.write(results, "results/")                   # the same output lines, in files

Each worker runs :class:`~kimi_ext.batch.runner.BatchRun` on its batches, with its share of
the concurrency and of the rate limits (``worker_options`` splits them): workers do not
coordinate beyond that split, so a 429 pauses only the worker that got it. Resuming is
Ray's: a failed task is run again, and its lines carry the same idempotency keys (they come
from ``job_id`` and the custom_id). Ray is imported only by :func:`read` and :func:`write`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kimi_ext.batch.checkpoint import Checkpoint
from kimi_ext.batch.lines import LineSource
from kimi_ext.batch.plan import Plan, make_plan
from kimi_ext.batch.runner import BatchRun

if TYPE_CHECKING:
    import ray.data

__all__ = ["KimiBatch", "check", "read", "worker_options", "write"]


def check(source: str | Path) -> Plan:
    """Check every line of a batch file, as ``kimi batch`` does before sending anything
    (BatchInputError listing each bad line). Do it on the driver: a worker would find
    only the bad lines of its own batches, after others were sent."""
    return make_plan(LineSource(source), Checkpoint(), skip_invalid=False)


def worker_options(
    *,
    workers: int,
    job_id: str,
    concurrency: int = 16,
    rpm: int | None = None,
    tpm: int | None = None,
    **options: Any,
) -> dict[str, Any]:
    """The ``fn_constructor_kwargs`` of :class:`KimiBatch` for ``workers`` workers: the
    concurrency and the limits divided between them (each at least 1). Other options go
    to each worker's run (``max_retries``, ``api_key``, ``base_url``...)."""
    if workers < 1:
        raise ValueError(f"workers={workers}: must be at least 1")

    def share(total: int | None) -> int | None:
        return None if total is None else max(total // workers, 1)

    return {"job_id": job_id, "concurrency": share(concurrency), "rpm": share(rpm),
            "tpm": share(tpm), **options}  # fmt: skip


class KimiBatch:
    """A callable class for ``Dataset.map_batches``: each batch of input lines (the
    ``text`` column) goes through the batch runner; the output lines come back in the
    ``text`` column, one per finished request, as ``kimi batch`` writes them."""

    def __init__(self, **options: Any) -> None:
        self.options = options

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[str]]:
        lines = [str(text) for text in batch["text"]]
        return {"text": asyncio.run(self._run(lines))}

    async def _run(self, lines: list[str]) -> list[str]:
        run = BatchRun(lines, None, **self.options)
        out: list[str] = []
        async with contextlib.aclosing(run.results()) as docs:
            async for doc in docs:
                out.append(json.dumps(doc, ensure_ascii=False, separators=(",", ":")))
        return out


def read(source: str | Path) -> ray.data.Dataset:
    """A batch JSONL file (or a folder of them) as a Ray dataset of ``{"text": line}``:
    the lines stay text, so no schema is imposed on the bodies of three formats."""
    import ray.data

    return ray.data.read_text(str(source), drop_empty_lines=True)


def write(results: ray.data.Dataset, folder: str | Path) -> None:
    """Write the output lines (the ``text`` column) as JSONL files in ``folder``."""
    results.write_datasink(_jsonl_sink()(str(folder)))


def _jsonl_sink() -> type:
    # Defined on first use: its base class is Ray's, imported only here.
    from ray.data.datasource import BlockBasedFileDatasink

    class JSONLines(BlockBasedFileDatasink):
        """Each row's ``text``, then a newline."""

        def __init__(self, path: str) -> None:
            super().__init__(path, file_format="jsonl")

        def write_block_to_file(self, block: Any, file: Any) -> None:
            for row in block.iter_rows(public_row_format=False):
                file.write(str(row["text"]).encode("utf-8") + b"\n")

    return JSONLines
