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


class _FormatFields:
    """Where a format's body keeps what the span records (read from its contract once)."""

    __slots__ = ("history_field", "output_limit_field", "system_field")

    def __init__(self, fmt: Any) -> None:
        self.output_limit_field: str = fmt.output_limit_field
        self.history_field: str = fmt.history_field
        self.system_field: str | None = fmt.system_field


class _Live:
    """A call's span and what its end needs."""

    __slots__ = ("attempts", "last_status", "metric_attrs", "retried", "span")

    def __init__(self, span: Any, metric_attrs: dict[str, Any]) -> None:
        self.span = span
        self.metric_attrs = metric_attrs
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
        self._formats: dict[str, _FormatFields] = {}

    # --- calls ------------------------------------------------------------------------------

    def _server(self, base_url: str) -> tuple[str, int]:
        """server.address and server.port of a base URL (parsed once per URL)."""
        server = self._servers.get(base_url)
        if server is None:
            url = httpx.URL(base_url)
            port = url.port or (443 if url.scheme == "https" else 80)
            server = self._servers[base_url] = (url.host, port)
        return server

    def on_call_start(self, call: CallInfo) -> None:
        field = call.field
        model = field("model")
        host, port = self._server(call.base_url)
        common: dict[str, Any] = {
            sc.OPERATION_NAME: sc.OPERATION_CHAT,
            sc.PROVIDER_NAME: sc.PROVIDER_MOONSHOT,
            sc.SERVER_ADDRESS: host,
            sc.SERVER_PORT: port,
        }
        if isinstance(model, str):
            common[sc.REQUEST_MODEL] = model
        attrs = dict(common)
        attrs[sc.KIMI_FORMAT] = call.format
        if call.stream:
            # Conditionally required "if and only if the request is streaming".
            attrs[sc.REQUEST_STREAM] = True
        fmt = self._formats.get(call.format)
        if fmt is None:
            fmt = self._formats[call.format] = _FormatFields(format_named(call.format))
        limit = field(fmt.output_limit_field)
        if limit is None:
            limit = field("max_tokens")
        if isinstance(limit, int) and not isinstance(limit, bool):
            attrs[sc.REQUEST_MAX_TOKENS] = limit
        # The stop field's wire name: Chat's "stop" (a string or a list), Messages'
        # "stop_sequences"; a body holds only its own format's.
        stop = field("stop")
        if stop is None:
            stop = field("stop_sequences")
        if isinstance(stop, str):
            stop = [stop]
        if isinstance(stop, list) and stop and all(isinstance(s, str) for s in stop):
            attrs[sc.REQUEST_STOP_SEQUENCES] = [call.redacted(s) for s in stop]
        for key, name in (("temperature", sc.REQUEST_TEMPERATURE), ("top_p", sc.REQUEST_TOP_P)):
            value = field(key)
            if isinstance(value, int | float) and not isinstance(value, bool):
                attrs[name] = float(value)
        if self.capture_content:
            self._capture_input(attrs, call.body, fmt)
        name = f"{sc.OPERATION_CHAT} {model}" if isinstance(model, str) else sc.OPERATION_CHAT
        span = self._tracer.start_span(name, kind=SpanKind.CLIENT, attributes=attrs)
        call.data[self] = _Live(span, common)

    def _capture_input(self, attrs: dict[str, Any], body: dict[str, Any], fmt: Any) -> None:
        messages, system = input_messages(body, fmt.history_field, fmt.system_field)
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
        live.metric_attrs[sc.SERVER_ADDRESS] = host
        live.metric_attrs[sc.SERVER_PORT] = port

    def on_first_event(self, call: CallInfo, elapsed: float) -> None:
        live = call.data.get(self)
        if live is None:
            return
        live.span.set_attribute(sc.RESPONSE_TIME_TO_FIRST_CHUNK, elapsed)
        self._first_chunk.record(elapsed, live.metric_attrs)

    def on_call_end(self, call: CallInfo, end: CallEnd) -> None:
        live = call.data.pop(self, None)
        if live is None:
            return
        span = live.span
        metric_attrs = live.metric_attrs
        attrs: dict[str, Any] = {sc.KIMI_ATTEMPTS: end.attempts}
        if live.last_status is not None:
            attrs[sc.HTTP_STATUS_CODE] = live.last_status  # the last attempt's
        if live.retried:
            live.flush()
        result = end.result
        if result is not None:
            self._result_attributes(attrs, result, metric_attrs)
        if call.stream:
            attrs[sc.STREAM_FINISHED] = end.finished
        usage = end.usage
        if usage is not None and usage.raw:
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
        duration_attrs = metric_attrs
        if error_type is not None:
            duration_attrs = {**metric_attrs, sc.ERROR_TYPE: error_type}
        self._duration.record(end.duration, duration_attrs)
        if usage is not None and usage.raw:
            self._record_tokens(usage, duration_attrs)

    def _result_attributes(
        self, attrs: dict[str, Any], result: Any, metric_attrs: dict[str, Any]
    ) -> None:
        rid = result.id
        if rid is not None:
            attrs[sc.RESPONSE_ID] = rid
        model = result.model
        if model is not None:
            attrs[sc.RESPONSE_MODEL] = model
            metric_attrs[sc.RESPONSE_MODEL] = model
        reasons = result.finish_reasons
        if reasons:
            attrs[sc.RESPONSE_FINISH_REASONS] = reasons

    def _record_tokens(self, usage: Any, attrs: dict[str, Any]) -> None:
        if self._tokens is not None:
            self._tokens.record(usage.total_input, {**attrs, sc.TOKEN_TYPE: sc.TOKEN_INPUT})
            self._tokens.record(usage.output, {**attrs, sc.TOKEN_TYPE: sc.TOKEN_OUTPUT})
        if self._counters:
            counted = {**attrs, sc.TOKEN_MODALITY: sc.MODALITY_UNKNOWN}
            for field, counter in self._counters.items():
                counter.add(getattr(usage, field), counted)

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
