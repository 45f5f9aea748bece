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

from typing import TYPE_CHECKING

from kimi_ext._core.call.lazy import lazy_attributes

if TYPE_CHECKING:
    from kimi_ext.batch.api import arun_batch as arun_batch
    from kimi_ext.batch.api import run_batch as run_batch
    from kimi_ext.batch.ids import fingerprint as fingerprint
    from kimi_ext.batch.ids import idempotency_key as idempotency_key
    from kimi_ext.batch.ids import job_id_for as job_id_for
    from kimi_ext.batch.lines import BatchInputError as BatchInputError
    from kimi_ext.batch.lines import LineProblem as LineProblem
    from kimi_ext.batch.progress import Progress as Progress
    from kimi_ext.batch.runner import BatchRun as BatchRun
    from kimi_ext.batch.summary import ModelPrice as ModelPrice
    from kimi_ext.batch.summary import Prices as Prices
    from kimi_ext.batch.summary import Summary as Summary


# The public names and where each lives (``__all__`` is derived from it); imported on first
# use (PEP 562), so `kimi chat`, which imports the batch command's options, does not load
# the runner. The imports under TYPE_CHECKING mirror it (explicit re-exports).
_HOMES = {
    "arun_batch": "kimi_ext.batch.api",
    "run_batch": "kimi_ext.batch.api",
    "BatchRun": "kimi_ext.batch.runner",
    "Progress": "kimi_ext.batch.progress",
    "fingerprint": "kimi_ext.batch.ids",
    "idempotency_key": "kimi_ext.batch.ids",
    "job_id_for": "kimi_ext.batch.ids",
    "BatchInputError": "kimi_ext.batch.lines",
    "LineProblem": "kimi_ext.batch.lines",
    "ModelPrice": "kimi_ext.batch.summary",
    "Prices": "kimi_ext.batch.summary",
    "Summary": "kimi_ext.batch.summary",
}
__all__ = list(_HOMES)
__getattr__ = lazy_attributes(__name__, _HOMES)
