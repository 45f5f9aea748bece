"""Past one machine: the batch runner inside Ray Data (the ``kimi-ext[ray]`` extra).

::

    import ray
    from kimi_ext.batch import on_ray

    summary = on_ray.run("requests.jsonl", "results/", workers=4, concurrency=64, rpm=3000)
    print(summary.text())                               # as kimi batch prints it

:func:`run` is ``kimi batch`` on Ray: the output folder is the checkpoint. Every line is
checked on the driver first (nothing is sent when one is bad); the lines whose result is
already in the folder are not sent again (``retry_failed=True`` sends the failed ones
again, their old lines leaving the folder); the rest go through
:class:`~kimi_ext.batch.runner.BatchRun` in ``workers`` Ray actors
(``map_batches`` with a :class:`ray.data.ActorPoolStrategy`), with the idempotency keys
``kimi batch`` gives (from the job id and the custom_id; the job id defaults to one from
the folder's absolute path), and written as new JSONL files in the folder. The
:class:`~kimi_ext.batch.summary.Summary` it returns has this run's counts and the whole
job's, read from the folder.

Each worker has its share of the concurrency and of the rate limits (``worker_options``
splits them): workers do not coordinate beyond that split, so a 429 pauses only the worker
that got it. The pieces (:func:`check`, :func:`read`, :class:`KimiBatch`, :func:`write`)
are public for a pipeline of your own; :func:`run` is how they resume. Ray is imported
only when a dataset is made.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kimi_ext.batch.checkpoint import Checkpoint, drop_failed, read_checkpoint
from kimi_ext.batch.ids import job_id_for
from kimi_ext.batch.lines import LineProblem, LineSource, parse_line
from kimi_ext.batch.plan import RunPlan, make_plan
from kimi_ext.batch.runner import RUN_STOPPERS, BatchRun
from kimi_ext.batch.summary import Prices, Summary
from kimi_ext.errors import ClientConfigError

if TYPE_CHECKING:
    import ray.data

__all__ = ["KimiBatch", "check", "output_files", "read", "run", "worker_options", "write"]

_log = logging.getLogger(__name__)


def check(source: str | Path) -> RunPlan:
    """Check every line of a batch file, as ``kimi batch`` does before sending anything
    (BatchInputError listing each bad line). Do it on the driver: a worker would find
    only the bad lines of its own batches, after others were sent."""
    return make_plan(LineSource(source), Checkpoint(), skip_invalid=False)


def output_files(folder: str | Path) -> list[Path]:
    """The JSONL files of an output folder, in name order (none when it does not exist)."""
    where = Path(folder)
    return sorted(where.glob("*.jsonl")) if where.is_dir() else []


def run(
    source: str | Path,
    folder: str | Path,
    *,
    workers: int = 2,
    job_id: str | None = None,
    concurrency: int = 16,
    rpm: int | None = None,
    tpm: int | None = None,
    retry_failed: bool = False,
    prices: Prices | None = None,
    batch_size: int = 64,
    num_cpus: float = 0.25,
    **options: Any,
) -> Summary:
    """Run (or resume) a batch on Ray, the results in ``folder``; returns the summary.

    ``workers`` Ray actors share ``concurrency``, ``rpm`` and ``tpm``; each takes
    ``num_cpus`` (they wait on the network: a fraction leaves the CPUs to reading and
    writing; on a small machine a whole CPU each can starve Ray Data's own tasks).
    ``job_id`` names the job in every idempotency key (default: from the folder's absolute
    path, as ``kimi batch`` does from its output file's). Other options go to each
    worker's :class:`~kimi_ext.batch.runner.BatchRun` (``max_retries``, ``api_key``,
    ``base_url``...). The input must be valid as a whole (BatchInputError, nothing sent).
    """
    import ray.data

    started = time.monotonic()
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise ClientConfigError(f"{out}: the output of a Ray run is a folder, not a file")
    point = read_checkpoint(output_files(out), retry_failed=retry_failed)
    plan = make_plan(LineSource(source), point, skip_invalid=False)
    if point.retried:  # only once the input is known good: the failed lines leave
        for path in output_files(out):
            drop_failed(path)
    summary = Summary(lines=plan.lines, already_done=plan.already_done,
                      retried_failed=point.retried, prices=prices, before=point.totals)  # fmt: skip
    earlier = set(output_files(out))
    if plan.todo:
        kwargs = worker_options(workers=workers, job_id=job_id or job_id_for(out),
                                concurrency=concurrency, rpm=rpm, tpm=tpm, **options)  # fmt: skip
        results = read(source).map_batches(
            KimiBatch, fn_constructor_kwargs={**kwargs, "done": point},
            compute=ray.data.ActorPoolStrategy(size=workers),
            batch_size=batch_size, num_cpus=num_cpus,
        )  # fmt: skip
        write(results, out)
    # This run's lines are the files it added (Ray adds files, never changes one).
    summary.run = read_checkpoint([p for p in output_files(out) if p not in earlier]).totals
    summary.not_started = plan.todo - summary.succeeded - summary.failed
    summary.seconds = time.monotonic() - started
    return summary


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
    ``text`` column, one per finished request, as ``kimi batch`` writes them.

    ``done``: what the output holds already (:func:`run` reads it); those lines are not
    sent. An exhausted quota or a rejected key stops the worker: the lines it finished are
    returned (so written), and it sends nothing more; they are left for the next run."""

    def __init__(self, *, done: Checkpoint | None = None, **options: Any) -> None:
        self.options = options
        self.done = done or Checkpoint()
        self.stopped: BaseException | None = None

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[str]]:
        lines = [str(text) for text in batch["text"]]
        todo = [text for number, text in enumerate(lines, 1) if not self._finished(number, text)]
        if not todo or self.stopped is not None:
            return {"text": []}
        return {"text": asyncio.run(self._run(todo))}

    def _finished(self, number: int, text: str) -> bool:
        line = parse_line(number, text)
        return not isinstance(line, LineProblem) and self.done.lookup(line.custom_id) is not None

    async def _run(self, lines: list[str]) -> list[str]:
        run = BatchRun(lines, None, **self.options)
        out: list[str] = []
        try:
            async with contextlib.aclosing(run.results()) as docs:
                async for doc in docs:
                    out.append(json.dumps(doc, ensure_ascii=False, separators=(",", ":")))
        except RUN_STOPPERS as exc:  # what was paid for is kept; the rest waits for a rerun
            self.stopped = exc
            _log.warning("kimi batch worker stopped: %s: %s", type(exc).__name__, exc)
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
