"""The Ray Data path, run by a real local Ray cluster (set up once for the module: Ray is
slow to start): ``on_ray.run`` reads a batch JSONL, runs the same runner in each worker,
writes the same output lines into a folder, and resumes like ``kimi batch`` (the folder is
the checkpoint, the same idempotency keys, failed lines sent again when asked)."""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from kimi_ext.batch import BatchInputError, Prices, idempotency_key, job_id_for
from kimi_ext.testing import Fault, KimiStandIn
from tests.support.batch import answered, line, mixed, write_jsonl

ray = pytest.importorskip("ray")  # the ray extra (in dev: CI runs this)

# A local Ray cluster is slow to start (`make test-fast` leaves these out). In parallel runs
# (pytest-xdist, --dist loadgroup) the suite's Ray users, these and the docs page that
# starts Ray (tests/docs), run in one worker: one local cluster at a time.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ray")]


class Deprecations(logging.Handler):
    """Ray Data says a deprecated argument in a log record, not a Python warning."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if "deprecat" in text.lower():
            self.seen.append(text)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Deprecations]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)  # fmt: skip
    # Ray Data's own context warns of its own deprecated default while it is made (not an
    # argument of ours): made here, so the runs below are held to no deprecation at all.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        ray.data.DataContext.get_current()
    caught = Deprecations()
    loggers = [logging.getLogger(name) for name in ("ray", "ray.data")]
    for logger in loggers:  # ray.data's records may not propagate to "ray"
        logger.addHandler(caught)
    try:
        yield caught
    finally:
        for logger in loggers:
            logger.removeHandler(caught)
        ray.shutdown()


def folder_docs(folder: Path) -> list[dict]:
    return [json.loads(raw) for f in sorted(folder.glob("*.jsonl"))
            for raw in f.read_text().splitlines() if raw.strip()]  # fmt: skip


def test_the_ray_recipe_resumes_like_kimi_batch(
    local_ray: Deprecations, kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    from kimi_ext.batch import on_ray

    lines = mixed(30, stream_every=4)
    source = write_jsonl(tmp_path / "requests.jsonl", lines)
    folder = tmp_path / "results"
    kimi_standin.when("ask id-00007", faults=[Fault.error(400, "no", error_type="bad")],
                      times=1)  # fmt: skip
    prices = Prices.from_dict({"kimi-k3.1-pro": {"input": 1.0, "output": 4.0}})
    options = {"workers": 2, "concurrency": 8, "rpm": 100_000, "batch_size": 8,
               "prices": prices, "api_key": kimi_standin.api_key,
               "base_url": kimi_standin.base_url}  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        first = on_ray.run(source, folder, **options)
    assert local_ray.seen == []  # the current Ray API: no deprecated argument
    ids = sorted(ln["custom_id"] for ln in lines)
    assert sorted(d["custom_id"] for d in folder_docs(folder)) == ids
    assert sorted(answered(kimi_standin)) == ids
    job = job_id_for(folder)  # the keys kimi batch gives: the job and the custom_id
    for request in kimi_standin.requests:
        cid = request.last_user_text.removeprefix("ask ")
        assert request.headers["idempotency-key"] == idempotency_key(job, cid)
    assert (first.succeeded, first.failed, first.already_done) == (29, 1, 0)
    assert first.job.failed_ids == ["id-00007"] and first.cost is not None and first.cost > 0

    again = on_ray.run(source, folder, **options)  # the same recipe, the same folder
    assert len(kimi_standin.requests) == 30  # nothing sent again
    assert sorted(d["custom_id"] for d in folder_docs(folder)) == ids  # each line once
    assert (again.succeeded, again.failed, again.already_done) == (0, 0, 30)
    assert again.job == first.job and again.job.cost(prices) == first.cost
    assert "whole job: 29 succeeded, 1 failed (id-00007)" in again.text()

    retried = on_ray.run(source, folder, retry_failed=True, **options)
    assert answered(kimi_standin)[30:] == ["id-00007"]  # only the failed line
    docs = folder_docs(folder)
    assert sorted(d["custom_id"] for d in docs) == ids and all(d["error"] is None for d in docs)
    assert (retried.succeeded, retried.retried_failed) == (1, 1)
    assert (retried.job.succeeded, retried.job.failed) == (30, 0)
    assert local_ray.seen == []


def test_the_recipe_checks_the_file_on_the_driver(tmp_path: Path) -> None:
    from kimi_ext.batch import on_ray

    source = write_jsonl(tmp_path / "r.jsonl", [line("a"), line("a", "messages")])
    with pytest.raises(BatchInputError, match="is used again"):
        on_ray.check(source)
    with pytest.raises(BatchInputError, match="is used again"):  # run() checks first too
        on_ray.run(source, tmp_path / "out")
    assert not (tmp_path / "out").exists()
