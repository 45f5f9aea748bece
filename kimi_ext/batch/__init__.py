"""Run a batch JSONL file through Kimi: resumable, rate-limited, and never paying twice.

Input and output lines are those of the OpenAI and Moonshot batch APIs::

    {"custom_id": "q1", "method": "POST", "url": "/v1/messages", "body": {...}}
    {"id": "batch_req_...", "custom_id": "q1", "response": {"status_code": 200,
     "request_id": "...", "body": {...}}, "error": null}

The output file is the checkpoint: run the same call again and it continues where it
stopped. From Python::

    from kimi_ext.batch import run_batch

    for line in run_batch("requests.jsonl", "results.jsonl", concurrency=8, rpm=300):
        print(line["custom_id"], line["error"] is None)

``arun_batch`` is the async twin (an async iterator); :class:`BatchRun` gives access to
the summary afterwards. From a shell: ``kimi batch requests.jsonl -o results.jsonl``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kimi_ext.batch.api import arun_batch, run_batch
    from kimi_ext.batch.ids import fingerprint, idempotency_key, job_id_for
    from kimi_ext.batch.lines import BatchInputError, LineProblem
    from kimi_ext.batch.progress import Progress
    from kimi_ext.batch.runner import BatchRun
    from kimi_ext.batch.summary import ModelPrice, Prices, Summary

__all__ = [
    "BatchInputError",
    "BatchRun",
    "LineProblem",
    "ModelPrice",
    "Prices",
    "Progress",
    "Summary",
    "arun_batch",
    "fingerprint",
    "idempotency_key",
    "job_id_for",
    "run_batch",
]

# Where each public name lives; imported on first use (PEP 562), so `kimi chat`, which
# imports the batch command's options, does not load the runner.
_HOMES = {
    "arun_batch": "api", "run_batch": "api", "BatchRun": "runner", "Progress": "progress",
    "fingerprint": "ids", "idempotency_key": "ids", "job_id_for": "ids",
    "BatchInputError": "lines", "LineProblem": "lines",
    "ModelPrice": "summary", "Prices": "summary", "Summary": "summary",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
