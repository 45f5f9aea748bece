"""The Ray Data recipe, run by a real local Ray cluster: read a batch JSONL, run the same
runner in each worker (map_batches with a callable class), write the same output lines."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from kimi_ext.batch import BatchInputError, idempotency_key
from kimi_ext.testing import KimiStandIn
from tests.support.batch import line, mixed, write_jsonl

ray = pytest.importorskip("ray")  # the ray extra (in dev: CI runs this)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)  # fmt: skip
    try:
        yield
    finally:
        ray.shutdown()


def test_the_ray_recipe_runs_every_line_once(
    local_ray: None, kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    from kimi_ext.batch import on_ray

    lines = mixed(40, stream_every=4)
    source = write_jsonl(tmp_path / "requests.jsonl", lines)
    on_ray.check(source)
    options = on_ray.worker_options(
        workers=2, job_id="ray-job", concurrency=8, rpm=10_000,
        api_key=kimi_standin.api_key, base_url=kimi_standin.base_url,
    )  # fmt: skip
    assert (options["concurrency"], options["rpm"]) == (4, 5000)
    results = on_ray.read(source).map_batches(
        on_ray.KimiBatch,
        fn_constructor_kwargs=options,
        concurrency=2,
        batch_size=8,
        num_cpus=0.25,  # the workers wait on the network: leave the CPUs to reading, writing
    )
    on_ray.write(results, tmp_path / "results")
    files = sorted((tmp_path / "results").glob("*.jsonl"))
    assert files
    docs = [json.loads(raw) for f in files for raw in f.read_text().splitlines()]
    assert sorted(d["custom_id"] for d in docs) == sorted(ln["custom_id"] for ln in lines)
    assert all(d["error"] is None and d["response"]["status_code"] == 200 for d in docs)
    assert len(kimi_standin.requests) == 40
    for request in kimi_standin.requests:  # keys from the job and the custom_id
        cid = request.last_user_text.removeprefix("ask ")
        assert request.headers["idempotency-key"] == idempotency_key("ray-job", cid)


def test_the_recipe_checks_the_file_on_the_driver(tmp_path: Path) -> None:
    from kimi_ext.batch import on_ray

    source = write_jsonl(tmp_path / "r.jsonl", [line("a"), line("a", "messages")])
    with pytest.raises(BatchInputError, match="is used again"):
        on_ray.check(source)
