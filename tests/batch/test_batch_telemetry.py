"""A batch run with telemetry on is one ``kimi.batch`` span, the parent of every call's
span; a hook sees the run as one scope around its calls."""

from __future__ import annotations

from typing import Any

from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from kimi_ext.batch import arun_batch
from kimi_ext.hooks import CallEnd, CallInfo, Hook, ScopeInfo
from kimi_ext.telemetry import Telemetry
from kimi_ext.testing import Fault, KimiStandIn
from tests.support.batch import mixed


async def test_a_batch_run_is_one_parent_span_of_its_calls(kimi_standin: KimiStandIn) -> None:
    exporter = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    meter_provider = MeterProvider(metric_readers=[InMemoryMetricReader()])
    telemetry = Telemetry(tracer_provider=tracer_provider, meter_provider=meter_provider)
    lines = mixed(6)
    out = [
        doc
        async for doc in arun_batch(
            lines, None, job_id="job-otel", concurrency=3, api_key=kimi_standin.api_key,
            base_url=kimi_standin.base_url, telemetry=telemetry,
        )
    ]  # fmt: skip
    assert sorted(d["custom_id"] for d in out) == sorted(line["custom_id"] for line in lines)
    spans = exporter.get_finished_spans()
    runs = [s for s in spans if s.name == "kimi.batch"]
    assert len(runs) == 1
    run = runs[0]
    assert run.attributes is not None
    assert run.attributes["kimi.batch.size"] == 6
    assert run.attributes["kimi.batch.job_id"] == "job-otel"
    calls = [s for s in spans if s.name == "chat kimi-k3.1-pro"]
    assert len(calls) == 6
    for call in calls:
        assert call.parent is not None and call.parent.span_id == run.context.span_id
        assert call.context.trace_id == run.context.trace_id
    tracer_provider.shutdown()
    meter_provider.shutdown()


class Events(Hook):
    def __init__(self) -> None:
        self.seen: list[tuple[str, Any]] = []

    def on_scope_start(self, scope: ScopeInfo) -> None:
        self.seen.append(("scope start", scope.name))

    def on_call_end(self, call: CallInfo, end: CallEnd) -> None:
        self.seen.append(("call end", end.error is None))

    def on_scope_end(self, scope: ScopeInfo, error: BaseException | None) -> None:
        self.seen.append(("scope end", type(error).__name__ if error else None))


async def test_a_quota_stop_ends_the_runs_scope_with_its_error(
    kimi_standin: KimiStandIn,
) -> None:
    kimi_standin.fault(Fault.quota())
    events = Events()
    lines = mixed(3)
    try:
        async for _ in arun_batch(
            lines, None, job_id="job-quota", concurrency=1, api_key=kimi_standin.api_key,
            base_url=kimi_standin.base_url, hooks=[events],
        ):  # fmt: skip
            pass
    except Exception as exc:
        assert type(exc).__name__ == "QuotaExceededError"
    else:
        raise AssertionError("the quota error did not stop the run")
    assert events.seen[0] == ("scope start", "kimi.batch")
    assert events.seen[-1] == ("scope end", "QuotaExceededError")
    assert ("call end", False) in events.seen
