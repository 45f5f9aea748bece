"""The OpenTelemetry hook: GenAI spans and metrics from the hook seam's events.

One CLIENT span per call, named ``chat {gen_ai.request.model}``; HTTP attempts beyond the
first, retries and base-URL switches as events on it; an INTERNAL ``execute_tool {name}``
span per tool call of ``run_tools``; the GenAI client metrics. Every name comes from
:mod:`kimi_ext.telemetry.semconv`. This module imports ``opentelemetry`` (the ``otel``
extra): it is imported only when telemetry is turned on.
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from opentelemetry import context as otel_context
from opentelemetry import metrics, trace
from opentelemetry.trace import SpanKind, Status, StatusCode

from kimi_ext._core.transport.version import __version__
from kimi_ext.formats import format_named
from kimi_ext.hooks import CallEnd, CallInfo, Hook, ResponseHead, ScopeInfo, ToolInfo
from kimi_ext.telemetry import semconv as sc
from kimi_ext.telemetry.content import capped, input_messages, output_messages

__all__ = ["Telemetry"]

_SCOPE = "kimi_ext"
_SCHEMA_URL = "https://opentelemetry.io/schemas/1.41.0"


class _CallTemplate:
    """What every call of one format to one server (streamed or not) has in common,
    worked out on its first call: the span's constant attributes, the metrics' server
    attributes and which body fields to read. A call then copies one dict and reads a
    few fields, instead of parsing the URL and rebuilding the same dicts each time."""

    __slots__ = ("format", "host", "port", "reads", "span_attrs")

    def __init__(self, fmt: Any, host: str, port: int, stream: bool) -> None:
        self.host = host
        self.port = port
        self.span_attrs: dict[str, Any] = {
            sc.OPERATION_NAME: sc.OPERATION_CHAT,
            sc.PROVIDER_NAME: sc.PROVIDER_MOONSHOT,
            sc.SERVER_ADDRESS: host,
            sc.SERVER_PORT: port,
            sc.KIMI_FORMAT: fmt.name,
        }
        if stream:
            # Conditionally required "if and only if the request is streaming".
            self.span_attrs[sc.REQUEST_STREAM] = True
        self.format = fmt  # for the content, when captured: the format reads its history
        # Every body field a call's span reads, in one fields() call: the model, the
        # output limit (the format's own field, else the older "max_tokens" alias), the
        # stop field's wire names (Chat's "stop", a string or a list; Messages'
        # "stop_sequences"; a body holds only its own format's), the sampling parameters.
        self.reads = (
            "model", fmt.output_limit_field, "max_tokens", "stop", "stop_sequences",
            "temperature", "top_p",
        )  # fmt: skip


class _Live:
    """A call's span and what its end needs."""

    __slots__ = ("attempts", "host", "last_status", "model", "port", "retried", "span")

    def __init__(self, span: Any, model: str | None, host: str, port: int) -> None:
        self.span = span
        self.model = model  # the request's model (None when the body names none)
        self.host = host  # the server answering (the fallback's after a switch)
        self.port = port
        # (time_ns, attempt, status, elapsed) of heads not yet added as events: a call of one
        # attempt (most) records its status as a span attribute only, so the events are
        # added (with their own times, in order) once a retry or a fallback shows there
        # is more than one.
        self.attempts: list[tuple[int, int, int, float]] = []
        self.retried = False
        self.last_status: int | None = None

    def flush(self) -> None:
        """Add the attempts held so far as span events, in order."""
        for stamp, attempt, status, elapsed in self.attempts:
            event = {
                sc.ATTEMPT_NUMBER: attempt,
                sc.HTTP_STATUS_CODE: status,
                sc.ATTEMPT_ELAPSED: elapsed,
            }
            self.span.add_event(sc.EVENT_ATTEMPT, event, timestamp=stamp)
        self.attempts.clear()


# The metric attribute sets kept at most (one per model, server and error type seen):
# past it the cache starts over, so a client asking for ever new model names stays bounded.
_METRIC_SETS_KEPT = 256


class Telemetry(Hook):
    """Records OpenTelemetry GenAI spans and metrics for a client's calls.

    ``Kimi(telemetry=True)`` uses the global tracer and meter providers; pass your own
    with ``Kimi(telemetry=Telemetry(tracer_provider=..., meter_provider=...))``.
    ``capture_content`` (default: ``$OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT``)
    records the messages on the span, each attribute cut at ``content_limit`` characters;
    ``conventions`` (default: per ``$OTEL_SEMCONV_STABILITY_OPT_IN``) picks the version.
    """

    def __init__(
        self,
        *,
        tracer_provider: Any = None,
        meter_provider: Any = None,
        capture_content: bool | None = None,
        content_limit: int = 16384,
        conventions: sc.Conventions | None = None,
    ) -> None:
        self.conventions = conventions if conventions is not None else sc.selected()
        self.capture_content = (
            sc.capture_content() if capture_content is None else bool(capture_content)
        )
        self.content_limit = content_limit
        self._tracer = trace.get_tracer(
            _SCOPE, __version__, tracer_provider=tracer_provider, schema_url=_SCHEMA_URL
        )
        meter = metrics.get_meter(
            _SCOPE, __version__, meter_provider=meter_provider, schema_url=_SCHEMA_URL
        )
        conv = self.conventions
        self._duration = meter.create_histogram(
            conv.duration_metric, unit="s", description="GenAI operation duration.",
            explicit_bucket_boundaries_advisory=list(sc.DURATION_BUCKETS),
        )  # fmt: skip
        self._first_chunk = meter.create_histogram(
            conv.time_to_first_chunk_metric, unit="s",
            description="Time to receive the first chunk of a streamed response.",
            explicit_bucket_boundaries_advisory=list(sc.DURATION_BUCKETS),
        )  # fmt: skip
        self._tokens = None
        if conv.token_usage_metric is not None:
            self._tokens = meter.create_histogram(
                conv.token_usage_metric, unit="{token}",
                description="Number of input and output tokens used.",
                explicit_bucket_boundaries_advisory=list(sc.TOKEN_BUCKETS),
            )  # fmt: skip
        self._counters = {
            field: meter.create_counter(name, unit="{token}")
            for field, name in conv.token_counters.items()
        }
        self._servers: dict[str, tuple[str, int]] = {}
        self._templates: dict[tuple[str, str, bool], _CallTemplate] = {}
        # (host, port, request model, response model, error.type) -> the attribute dicts
        # of the duration, the input tokens and the output tokens (or the counters):
        # built once per combination, not per call.
        self._metric_sets: dict[tuple[Any, ...], tuple[dict[str, Any], ...]] = {}

    # --- calls ------------------------------------------------------------------------------

    def _server(self, base_url: str) -> tuple[str, int]:
        """server.address and server.port of a base URL (parsed once per URL)."""
        server = self._servers.get(base_url)
        if server is None:
            url = httpx.URL(base_url)
            port = url.port or (443 if url.scheme == "https" else 80)
            server = self._servers[base_url] = (url.host, port)
        return server

    def _template(self, call: CallInfo) -> _CallTemplate:
        key = (call.format, call.base_url, call.stream)
        template = self._templates.get(key)
        if template is None:
            host, port = self._server(call.base_url)
            template = self._templates[key] = _CallTemplate(
                format_named(call.format), host, port, call.stream
            )
        return template

    def on_call_start(self, call: CallInfo) -> None:
        template = self._template(call)
        model, limit, alias, stop, stop_sequences, temperature, top_p = call.fields(*template.reads)
        attrs = template.span_attrs.copy()
        if isinstance(model, str):
            attrs[sc.REQUEST_MODEL] = model
            name = f"{sc.OPERATION_CHAT} {model}"
        else:
            model = None
            name = sc.OPERATION_CHAT
        if limit is None:
            limit = alias
        if isinstance(limit, int) and not isinstance(limit, bool):
            attrs[sc.REQUEST_MAX_TOKENS] = limit
        if stop is None:
            stop = stop_sequences
        if stop is not None:
            if isinstance(stop, str):
                attrs[sc.REQUEST_STOP_SEQUENCES] = [stop]  # fields() redacted it
            elif isinstance(stop, list) and stop and all(isinstance(s, str) for s in stop):
                attrs[sc.REQUEST_STOP_SEQUENCES] = [call.redacted(s) for s in stop]
        if isinstance(temperature, int | float) and not isinstance(temperature, bool):
            attrs[sc.REQUEST_TEMPERATURE] = float(temperature)
        if isinstance(top_p, int | float) and not isinstance(top_p, bool):
            attrs[sc.REQUEST_TOP_P] = float(top_p)
        if self.capture_content:
            self._capture_input(attrs, call.body, template.format)
        # From the call's own start, not from now: the time to the first chunk and the
        # duration are measured from it, so the span holds both even when this hook runs
        # late on a busy machine.
        span = self._tracer.start_span(
            name, kind=SpanKind.CLIENT, attributes=attrs, start_time=call.started_ns
        )
        call.data[self] = _Live(span, model, template.host, template.port)

    def _capture_input(self, attrs: dict[str, Any], body: dict[str, Any], fmt: Any) -> None:
        messages, system = input_messages(body, fmt)
        attrs[sc.INPUT_MESSAGES] = capped(json.dumps(messages), self.content_limit)
        if system:
            attrs[sc.SYSTEM_INSTRUCTIONS] = capped(json.dumps(system), self.content_limit)

    def on_response(self, call: CallInfo, response: ResponseHead) -> None:
        live = call.data.get(self)
        if live is not None:
            live.last_status = response.status_code
            live.attempts.append(
                (time.time_ns(), response.attempt, response.status_code, response.elapsed)
            )

    def on_retry(self, call: CallInfo, error: BaseException, wait: float) -> None:
        live = call.data.get(self)
        if live is None:
            return
        live.retried = True
        live.flush()
        attrs: dict[str, Any] = {sc.ERROR_TYPE: _error_type(error), sc.RETRY_WAIT: wait}
        status = getattr(error, "status_code", None)
        if isinstance(status, int):
            attrs[sc.HTTP_STATUS_CODE] = status
        live.span.add_event(sc.EVENT_RETRY, attrs)

    def on_fallback(self, call: CallInfo, old_url: str, new_url: str, error: BaseException) -> None:
        live = call.data.get(self)
        if live is None:
            return
        live.retried = True
        live.flush()
        live.span.add_event(
            sc.EVENT_FALLBACK,
            {sc.FALLBACK_FROM: old_url, sc.FALLBACK_TO: new_url, sc.ERROR_TYPE: _error_type(error)},
        )
        # The answer comes from the fallback's server from now on.
        host, port = self._server(new_url)
        live.span.set_attributes({sc.SERVER_ADDRESS: host, sc.SERVER_PORT: port})
        live.host = host
        live.port = port

    def on_first_event(self, call: CallInfo, elapsed: float) -> None:
        live = call.data.get(self)
        if live is None:
            return
        live.span.set_attribute(sc.RESPONSE_TIME_TO_FIRST_CHUNK, elapsed)
        # Before the response's model is known: the request's attributes only.
        self._first_chunk.record(elapsed, self._metric_attrs(live, None, None)[0])

    def on_call_end(self, call: CallInfo, end: CallEnd) -> None:
        live = call.data.pop(self, None)
        if live is None:
            return
        span = live.span
        attrs: dict[str, Any] = {sc.KIMI_ATTEMPTS: end.attempts}
        if live.last_status is not None:
            attrs[sc.HTTP_STATUS_CODE] = live.last_status  # the last attempt's
        if live.retried:
            live.flush()
        result = end.result
        response_model = None
        if result is not None:
            rid = result.id
            if rid is not None:
                attrs[sc.RESPONSE_ID] = rid
            response_model = result.model
            if response_model is not None:
                attrs[sc.RESPONSE_MODEL] = response_model
            reasons = result.finish_reasons
            if reasons:
                attrs[sc.RESPONSE_FINISH_REASONS] = reasons
        if call.stream:
            attrs[sc.STREAM_FINISHED] = end.finished
        usage = end.usage
        if usage is not None and not usage.raw:
            usage = None  # the service reported none: nothing to record
        if usage is not None:
            _usage_attributes(attrs, usage)
        error = end.error
        error_type = None
        if error is not None:
            error_type = _error_type(error)
            message = call.redacted(f"{type(error).__name__}: {error}")[:1000]
            span.set_status(Status(StatusCode.ERROR, message))
        elif not end.finished:
            error_type = sc.ERROR_STREAM_CLOSED
            span.set_status(Status(StatusCode.ERROR, "the stream was closed before its end"))
        if error_type is not None:
            attrs[sc.ERROR_TYPE] = error_type
        if self.capture_content and result is not None:
            messages = output_messages(result)
            attrs[sc.OUTPUT_MESSAGES] = capped(
                call.redacted(json.dumps(messages)), self.content_limit
            )
        span.set_attributes(attrs)
        span.end()
        metric_sets = self._metric_attrs(live, response_model, error_type)
        self._duration.record(end.duration, metric_sets[0])
        if usage is not None:
            tokens = self._tokens
            if tokens is not None:
                tokens.record(usage.total_input, metric_sets[1])
                tokens.record(usage.output, metric_sets[2])
            for field, counter in self._counters.items():
                counter.add(getattr(usage, field), metric_sets[3])

    def _metric_attrs(
        self, live: _Live, response_model: str | None, error_type: str | None
    ) -> tuple[dict[str, Any], ...]:
        """The metric attribute dicts of a call: the duration's, the input and output
        token records' (gen_ai.token.type), the counters' (gen_ai.token.modality); made
        once per combination and reused (the SDK copies what it keeps)."""
        key = (live.host, live.port, live.model, response_model, error_type)
        sets = self._metric_sets.get(key)
        if sets is None:
            attrs: dict[str, Any] = {
                sc.OPERATION_NAME: sc.OPERATION_CHAT,
                sc.PROVIDER_NAME: sc.PROVIDER_MOONSHOT,
                sc.SERVER_ADDRESS: live.host,
                sc.SERVER_PORT: live.port,
            }
            if live.model is not None:
                attrs[sc.REQUEST_MODEL] = live.model
            if response_model is not None:
                attrs[sc.RESPONSE_MODEL] = response_model
            if error_type is not None:
                attrs[sc.ERROR_TYPE] = error_type
            sets = (
                attrs,
                {**attrs, sc.TOKEN_TYPE: sc.TOKEN_INPUT},
                {**attrs, sc.TOKEN_TYPE: sc.TOKEN_OUTPUT},
                {**attrs, sc.TOKEN_MODALITY: sc.MODALITY_UNKNOWN},
            )
            if len(self._metric_sets) >= _METRIC_SETS_KEPT:
                self._metric_sets.clear()
            self._metric_sets[key] = sets
        return sets

    # --- tools ------------------------------------------------------------------------------

    def on_tool_start(self, tool: ToolInfo) -> None:
        attrs: dict[str, Any] = {
            sc.OPERATION_NAME: sc.OPERATION_EXECUTE_TOOL,
            sc.TOOL_NAME: tool.name,
            sc.TOOL_TYPE: sc.TOOL_TYPE_FUNCTION,
        }
        if tool.call_id:
            attrs[sc.TOOL_CALL_ID] = tool.call_id
        if self.capture_content:
            arguments = tool.arguments
            text = arguments if isinstance(arguments, str) else json.dumps(arguments, default=str)
            attrs[sc.TOOL_CALL_ARGUMENTS] = capped(tool.redacted(text), self.content_limit)
        span = self._tracer.start_span(
            f"{sc.OPERATION_EXECUTE_TOOL} {tool.name}", kind=SpanKind.INTERNAL, attributes=attrs
        )
        # Current while the tool runs: spans the tool makes are its children.
        token = otel_context.attach(trace.set_span_in_context(span))
        tool.data[self] = (span, token)

    def on_tool_end(self, tool: ToolInfo, output: str, error: str | None) -> None:
        held = tool.data.pop(self, None)
        if held is None:
            return
        span, token = held
        otel_context.detach(token)
        if error is not None:
            span.set_attribute(sc.ERROR_TYPE, error)
            span.set_status(Status(StatusCode.ERROR))
        elif self.capture_content:
            span.set_attribute(
                sc.TOOL_CALL_RESULT, capped(tool.redacted(output), self.content_limit)
            )
        span.end()

    # --- scopes (a batch run) ---------------------------------------------------------------

    def on_scope_start(self, scope: ScopeInfo) -> None:
        attrs = {k: v for k, v in scope.attributes.items() if _is_attribute_value(v)}
        span = self._tracer.start_span(scope.name, kind=SpanKind.INTERNAL, attributes=attrs)
        token = otel_context.attach(trace.set_span_in_context(span))
        scope.data[self] = (span, token)

    def on_scope_end(self, scope: ScopeInfo, error: BaseException | None) -> None:
        held = scope.data.pop(self, None)
        if held is None:
            return
        span, token = held
        otel_context.detach(token)
        if error is not None:
            span.set_attribute(sc.ERROR_TYPE, _error_type(error))
            span.set_status(Status(StatusCode.ERROR, type(error).__name__))
        span.end()


def _error_type(error: BaseException) -> str:
    """error.type: the exception's class name (kimi_ext's errors: ``RateLimitError``,
    ``IncompleteStreamError``, ``APITimeoutError``, ``APIConnectionError``...)."""
    return type(error).__name__ or sc.ERROR_OTHER


def _usage_attributes(attrs: dict[str, Any], usage: Any) -> None:
    """The usage attributes. gen_ai.usage.input_tokens includes cache reads and writes
    (the registry: "SHOULD include all types of input tokens, including cached tokens"):
    Usage.total_input already applies each format's rule, so none is counted twice."""
    attrs[sc.USAGE_INPUT_TOKENS] = usage.total_input
    attrs[sc.USAGE_OUTPUT_TOKENS] = usage.output
    attrs[sc.USAGE_CACHE_READ_INPUT_TOKENS] = usage.cache_read
    attrs[sc.USAGE_CACHE_CREATION_INPUT_TOKENS] = usage.cache_write
    attrs[sc.USAGE_REASONING_OUTPUT_TOKENS] = usage.reasoning
    if usage.cache_write_5m is not None:
        attrs[sc.USAGE_CACHE_CREATION_5M] = usage.cache_write_5m
    if usage.cache_write_1h is not None:
        attrs[sc.USAGE_CACHE_CREATION_1H] = usage.cache_write_1h


def _is_attribute_value(value: Any) -> bool:
    if isinstance(value, str | bool | int | float):
        return True
    return isinstance(value, list | tuple) and all(
        isinstance(v, str | bool | int | float) for v in value
    )
