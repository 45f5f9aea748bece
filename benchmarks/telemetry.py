"""The ``telemetry`` group: what the hook seam and OpenTelemetry cost a small request.

Three goals, each a ratio measured in one run, the contenders interleaved as everywhere:

* **off**: a client without telemetry (the default) against the same call made the way
  ``Kimi._call`` made it before the seam existed (``parse_json_body(sender.send(...))``,
  its result class built the same way): <= 1.01. The seam's per-attempt ``call is None``
  tests inside the sender are in both (they cannot be taken out without a second copy of
  the sender); the ``small`` group's ratio to httpx, run before and after, covers them.
* **on**: telemetry on, recording with the OpenTelemetry SDK into an in-memory span
  exporter and metric reader. What it adds to a call (on minus off, per repetition) over
  what the SDK itself costs to record the same span and metrics (one span with the same
  attributes, started before the same call made with telemetry off and ended after it,
  where an instrumentation's span is, plus the same histogram records, through the same
  providers) plus 15 µs: <= 1.0.
* **vs openai-v2**: the same overhead over what ``opentelemetry-instrumentation-openai-v2``
  adds to the openai SDK's ``chat.completions.create`` on the same request and server
  (instrumented minus the unwrapped original, same providers): <= 0.5. Chat only: it is
  the one API that instrumentation covers. A row without a goal shows the floor of that
  ratio: the SDK's own cost of kimi_ext's span and records over openai-v2's overhead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .contenders import (
    BASELINE,
    Clients,
    Contender,
    _check_sdk_text,
    _check_text,
    request_for,
)
from .payloads import MODEL
from .runner import Row, Spread, fmt_time, measure, spread, warm

__all__ = ["telemetry_rows"]

OFF = "kimi_ext create(), telemetry off"
TODAY = "kimi_ext create(), the pre-seam call path"
ON = "kimi_ext create(), telemetry on (SDK, in-memory)"
SDK_SPAN = "SDK alone: the same span and metrics"
OFF_SDK = "kimi_ext create(), telemetry off, inside the SDK alone's span"
OPENAI = "openai create()"
OPENAI_ON = "openai create(), openai-v2 instrumentation"
ALLOWANCE = 15e-6  # seconds: what kimi_ext may add on top of the SDK's own cost
# The attributes known when the request starts (the rest come with the response).
_REQUEST_SIDE = ("gen_ai.operation", "gen_ai.provider", "gen_ai.request", "server.", "kimi.format")


class _Otel:
    """SDK providers recording into memory (cleared between repetitions' blocks)."""

    def __init__(self) -> None:
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import InMemoryMetricReader
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
            InMemorySpanExporter,
        )

        self.exporter = InMemorySpanExporter()
        self.tracer_provider = TracerProvider()
        self.tracer_provider.add_span_processor(SimpleSpanProcessor(self.exporter))
        self.reader = InMemoryMetricReader()
        self.meter_provider = MeterProvider(metric_readers=[self.reader])

    def shutdown(self) -> None:
        self.tracer_provider.shutdown()
        self.meter_provider.shutdown()


class _SdkAlone:
    """One span with ``span_attrs`` and the metric records kimi_ext makes, straight on the
    SDK (the instruments made once, as kimi_ext makes them once per client). As any
    instrumentation must, the request's attributes are given at the start (:meth:`begin`)
    and the response's set before the end (:meth:`finish`); :meth:`around` runs a call
    between the two, where an instrumentation's span is, and ``self()`` both back to back."""

    def __init__(
        self, otel: _Otel, span_attrs: dict[str, Any], metric_attrs: dict[str, Any]
    ) -> None:
        from opentelemetry.trace import SpanKind

        self.tracer = otel.tracer_provider.get_tracer("bench.sdk")
        meter = otel.meter_provider.get_meter("bench.sdk")
        self.duration = meter.create_histogram("bench.duration", unit="s")
        self.tokens = meter.create_histogram("bench.tokens", unit="{token}")
        self.name = f"chat {MODEL}"
        self.kind = SpanKind.CLIENT
        self.attrs = {k: v for k, v in span_attrs.items() if k.startswith(_REQUEST_SIDE)}
        self.later = {k: v for k, v in span_attrs.items() if not k.startswith(_REQUEST_SIDE)}
        self.metric_attrs = metric_attrs
        self.inputs = {**metric_attrs, "gen_ai.token.type": "input"}
        self.outputs = {**metric_attrs, "gen_ai.token.type": "output"}

    def begin(self) -> Any:
        return self.tracer.start_span(self.name, kind=self.kind, attributes=self.attrs)

    def finish(self, span: Any) -> Any:
        span.set_attributes(self.later)
        span.end()
        self.duration.record(0.0005, self.metric_attrs)
        self.tokens.record(10, self.inputs)
        self.tokens.record(20, self.outputs)
        return span

    def __call__(self) -> Any:
        return self.finish(self.begin())

    def around(self, call: Callable[[], Any]) -> Callable[[], Any]:
        """``call`` inside the span (its result returned)."""
        begin, finish = self.begin, self.finish

        def run() -> Any:
            span = begin()
            result = call()
            finish(span)
            return result

        return run


def _sdk_alone(otel: _Otel, span_attrs: dict[str, Any], metric_attrs: dict[str, Any]) -> Any:
    """The SDK's own work for kimi_ext's span and records (see :class:`_SdkAlone`)."""
    return _SdkAlone(otel, span_attrs, metric_attrs)


def _recorded(otel: _Otel) -> tuple[dict[str, Any], dict[str, Any]]:
    """The attributes of the last span kimi_ext recorded, and its metric attributes."""
    span = otel.exporter.get_finished_spans()[-1]
    attrs = dict(span.attributes)
    keys = ("gen_ai.operation.name", "gen_ai.provider.name", "gen_ai.request.model",
            "gen_ai.response.model", "server.address", "server.port")  # fmt: skip
    return attrs, {k: attrs[k] for k in keys if k in attrs}


def _today(kimi: Any, fmt: str, body: dict[str, Any]) -> Callable[[], Any]:
    """The call as ``Kimi._call`` made it before the hook seam (prepare, send, parse)."""
    from kimi_ext._core.transport.sending import parse_json_body

    resource: Any = {"chat": kimi.chat.completions, "messages": kimi.messages,
                     "responses": kimi.responses}[fmt]  # fmt: skip
    result_cls = resource.format.result_type
    sender = kimi._sender
    key = kimi._key

    def run() -> Any:
        prepared = resource._prepare(body, False)
        response = sender.send(prepared, sender.start(prepared))
        return result_cls(parse_json_body(response, key), response)

    return run


def _resource(client: Any, fmt: str) -> Any:
    return {"chat": client.chat.completions, "messages": client.messages,
            "responses": client.responses}[fmt]  # fmt: skip


def _diff(times: dict[str, list[float]], a: str, b: str) -> list[float]:
    return [x - y for x, y in zip(times[a], times[b], strict=True)]


def telemetry_rows(
    clients: Clients,
    formats: Sequence[str],
    *,
    reps: int,
    batch: int,
    goals: dict[str, float],
    log: Callable[[str], None],
) -> list[Row]:
    import httpx

    import kimi_ext
    from kimi_ext.telemetry import Telemetry

    rows: list[Row] = []
    bench = "telemetry (small create)"
    for fmt in formats:
        log(f"telemetry: {fmt}")
        key = f"{fmt}.small.0"
        body = request_for(fmt)
        url = clients.url(key, fmt)
        otel = _Otel()
        off = clients.kimi(key)
        on = kimi_ext.Kimi(
            api_key="bench-key", base_url=f"{clients.root}/s/{key}", timeout=60,
            telemetry=Telemetry(
                tracer_provider=otel.tracer_provider, meter_provider=otel.meter_provider,
                capture_content=False,
            ),
        )  # fmt: skip
        http = clients.http

        def baseline(http: httpx.Client = http, url: str = url, body: Any = body) -> Any:
            return http.post(url, json=body, headers={"Authorization": "Bearer bench-key"})

        on_resource = _resource(on, fmt)
        off_resource = _resource(off, fmt)
        on_resource.create(**body)  # one span to copy the attributes of
        span_attrs, metric_attrs = _recorded(otel)
        sdk_alone = _sdk_alone(otel, span_attrs, metric_attrs)
        contenders = [
            Contender(BASELINE, baseline),
            Contender(TODAY, _today(off, fmt, body), _check_text),
            Contender(OFF, lambda r=off_resource, b=body: r.create(**b), _check_text, kimi=True),
            Contender(ON, lambda r=on_resource, b=body: r.create(**b), _check_text, kimi=True),
            Contender(SDK_SPAN, sdk_alone),
            Contender(
                OFF_SDK,
                sdk_alone.around(lambda r=off_resource, b=body: r.create(**b)),
                _check_text,
            ),
        ]
        instrumentor = None
        if fmt == "chat":
            instrumentor, openai_plain, openai_on = _openai_pair(clients, key, body, otel)
            contenders += [
                Contender(OPENAI, openai_plain, _check_sdk_text),
                Contender(OPENAI_ON, openai_on, _check_sdk_text),
            ]
        try:
            warm(contenders)
            otel.exporter.clear()
            times = measure(contenders, reps=reps, batch=batch)
        finally:
            if instrumentor is not None:
                instrumentor.uninstrument()
            on.close()
            otel.shutdown()
        rows += _rows(bench, fmt, times, goals)
    return rows


def _openai_pair(
    clients: Clients, key: str, body: dict[str, Any], otel: _Otel
) -> tuple[Any, Callable[[], Any], Callable[[], Any]]:
    """The openai SDK's create, instrumented by openai-v2 (same providers), and the
    unwrapped original on the same client, so both run interleaved in one process."""
    import openai
    from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor

    client = clients.openai(key)
    instrumentor = OpenAIInstrumentor()
    instrumentor.instrument(
        tracer_provider=otel.tracer_provider, meter_provider=otel.meter_provider
    )
    completions = client.chat.completions
    original = openai.resources.chat.completions.Completions.create.__wrapped__

    def plain() -> Any:
        return original(completions, **body)

    def instrumented() -> Any:
        return completions.create(**body)

    return instrumentor, plain, instrumented


def _rows(
    bench: str, fmt: str, times: dict[str, list[float]], goals: dict[str, float]
) -> list[Row]:
    def vs(name: str, base: str) -> Spread:
        return spread([t / b for t, b in zip(times[name], times[base], strict=True)])

    rows = [
        Row(bench, fmt, BASELINE, fmt_time(spread(times[BASELINE])), vs(BASELINE, BASELINE),
            "vs httpx"),
        Row(bench, fmt, TODAY, fmt_time(spread(times[TODAY])), vs(TODAY, BASELINE), "vs httpx"),
        Row(bench, fmt, OFF, fmt_time(spread(times[OFF])), vs(OFF, TODAY),
            "off / pre-seam path", goals["telemetry_off"]),
    ]  # fmt: skip
    added = _diff(times, ON, OFF)
    sdk = times[SDK_SPAN]
    # The SDK's cost is taken in situ (its span started before a real call and ended after
    # it, with the records, as telemetry pays it), not in a hot loop of its own, which would
    # make it look cheaper than it is inside a call.
    in_situ = _diff(times, OFF_SDK, OFF)
    rows.append(
        Row(
            bench, fmt, ON,
            f"{fmt_time(spread(times[ON]))}; adds {fmt_time(spread(added))}",
            spread([on / (base + ALLOWANCE)
                    for on, base in zip(times[ON], times[OFF_SDK], strict=True)]),
            "on / (off + the SDK's own + 15 µs)", goals["telemetry_on"],
        )
    )  # fmt: skip
    rows.append(
        Row(bench, fmt, OFF_SDK, f"{fmt_time(spread(times[OFF_SDK]))}; the SDK adds "
            f"{fmt_time(spread(in_situ))} (alone, in a loop: {fmt_time(spread(sdk))})",
            vs(OFF_SDK, OFF), "vs off")
    )  # fmt: skip
    if OPENAI_ON in times:
        theirs = _diff(times, OPENAI_ON, OPENAI)
        rows.append(
            Row(bench, fmt, OPENAI_ON,
                f"{fmt_time(spread(times[OPENAI_ON]))}; adds {fmt_time(spread(theirs))}",
                None, "openai-v2's overhead")
        )  # fmt: skip
        rows.append(
            Row(
                bench, fmt, "kimi_ext telemetry overhead vs openai-v2's",
                f"{fmt_time(spread(added))} vs {fmt_time(spread(theirs))}",
                spread([a / t if t > 0 else float("inf")
                        for a, t in zip(added, theirs, strict=True)]),
                "kimi_ext added / openai-v2 added", goals["telemetry_vs_openai_v2"],
            )
        )  # fmt: skip
        # The floor of that ratio: what the SDK alone costs to record kimi_ext's span and
        # records (in situ), over openai-v2's whole overhead. No code of kimi_ext's can take
        # the ratio above below this without recording less.
        rows.append(
            Row(
                bench, fmt, "the SDK alone (kimi_ext's span and records) vs openai-v2's",
                f"{fmt_time(spread(in_situ))} vs {fmt_time(spread(theirs))}",
                spread([a / t if t > 0 else float("inf")
                        for a, t in zip(in_situ, theirs, strict=True)]),
                "SDK alone added / openai-v2 added",
            )
        )  # fmt: skip
    return rows
