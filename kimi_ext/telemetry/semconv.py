"""Every OpenTelemetry name kimi_ext records, in one table per conventions version.

The GenAI semantic conventions are at Development stability and have moved since v1.41.x,
the last release of them in open-telemetry/semantic-conventions; later ones live in
open-telemetry/semantic-conventions-genai, where the token metrics were replaced. So one
version is pinned and a later one is opt-in, as the official instrumentations do it:

* :data:`V1_41` (default): ``model/gen-ai/registry.yaml``, ``spans.yaml`` and
  ``metrics.yaml`` at tag v1.41.1 of open-telemetry/semantic-conventions, and the bucket
  advice of ``docs/gen-ai/gen-ai-metrics.md`` there.
* :data:`LATEST`: ``OTEL_SEMCONV_STABILITY_OPT_IN`` containing ``gen_ai_latest_experimental``
  selects the semantic-conventions-genai registry: the same span attributes, and the token
  counters of its ``model/gen-ai/token-metrics.yaml`` instead of the
  ``gen_ai.client.token.usage`` histogram.

``gen_ai.provider.name``: v1.41.1's list has no value for Moonshot AI; the genai registry
added ``moonshot_ai``, which both tables use (the attribute's value list is open).

Nothing here imports OpenTelemetry: this module is the names only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["LATEST", "OPT_IN_ENV", "OPT_IN_VALUE", "V1_41", "Conventions", "selected"]

OPT_IN_ENV = "OTEL_SEMCONV_STABILITY_OPT_IN"
OPT_IN_VALUE = "gen_ai_latest_experimental"
CAPTURE_ENV = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"

# --- attributes (the same key in both versions) ---------------------------------------------
OPERATION_NAME = "gen_ai.operation.name"
PROVIDER_NAME = "gen_ai.provider.name"
REQUEST_MODEL = "gen_ai.request.model"
REQUEST_MAX_TOKENS = "gen_ai.request.max_tokens"
REQUEST_STOP_SEQUENCES = "gen_ai.request.stop_sequences"
REQUEST_TEMPERATURE = "gen_ai.request.temperature"
REQUEST_TOP_P = "gen_ai.request.top_p"
REQUEST_STREAM = "gen_ai.request.stream"
RESPONSE_ID = "gen_ai.response.id"
RESPONSE_MODEL = "gen_ai.response.model"
RESPONSE_FINISH_REASONS = "gen_ai.response.finish_reasons"
RESPONSE_TIME_TO_FIRST_CHUNK = "gen_ai.response.time_to_first_chunk"
USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens"
USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens"
USAGE_CACHE_READ_INPUT_TOKENS = "gen_ai.usage.cache_read.input_tokens"
USAGE_CACHE_CREATION_INPUT_TOKENS = "gen_ai.usage.cache_creation.input_tokens"
USAGE_REASONING_OUTPUT_TOKENS = "gen_ai.usage.reasoning.output_tokens"
TOKEN_TYPE = "gen_ai.token.type"
TOKEN_MODALITY = "gen_ai.token.modality"
TOOL_NAME = "gen_ai.tool.name"
TOOL_CALL_ID = "gen_ai.tool.call.id"
TOOL_TYPE = "gen_ai.tool.type"
TOOL_CALL_ARGUMENTS = "gen_ai.tool.call.arguments"
TOOL_CALL_RESULT = "gen_ai.tool.call.result"
INPUT_MESSAGES = "gen_ai.input.messages"
OUTPUT_MESSAGES = "gen_ai.output.messages"
SYSTEM_INSTRUCTIONS = "gen_ai.system_instructions"
ERROR_TYPE = "error.type"
SERVER_ADDRESS = "server.address"
SERVER_PORT = "server.port"
HTTP_STATUS_CODE = "http.response.status_code"

# --- values ---------------------------------------------------------------------------------
PROVIDER_MOONSHOT = "moonshot_ai"
OPERATION_CHAT = "chat"
OPERATION_EXECUTE_TOOL = "execute_tool"
TOKEN_INPUT = "input"
TOKEN_OUTPUT = "output"
TOOL_TYPE_FUNCTION = "function"
ERROR_OTHER = "_OTHER"  # the conventions' fallback value of error.type
# kimi_ext's own error.type for a stream closed by its reader before the end.
ERROR_STREAM_CLOSED = "stream_closed"

# --- kimi_ext's own names (no convention covers them) --------------------------------------
# Span events on the call's span, one per HTTP attempt, retry and base-URL switch.
EVENT_ATTEMPT = "kimi.http.attempt"
EVENT_RETRY = "kimi.http.retry"
EVENT_FALLBACK = "kimi.http.fallback"
ATTEMPT_NUMBER = "kimi.attempt"  # 0 for the first attempt
ATTEMPT_ELAPSED = "kimi.attempt.elapsed"  # seconds to the response head
RETRY_WAIT = "kimi.retry.wait"  # seconds
FALLBACK_FROM = "kimi.fallback.from"
FALLBACK_TO = "kimi.fallback.to"
USAGE_CACHE_CREATION_5M = "kimi.usage.cache_creation.5m.input_tokens"
USAGE_CACHE_CREATION_1H = "kimi.usage.cache_creation.1h.input_tokens"
KIMI_FORMAT = "kimi.format"  # chat | messages | responses
KIMI_ATTEMPTS = "kimi.attempts"
# A batch run's parent span (kimi_ext.hooks.scope(client, BATCH_SPAN, {BATCH_SIZE: n})).
BATCH_SPAN = "kimi.batch"
BATCH_SIZE = "kimi.batch.size"  # the lines this run sends
BATCH_JOB_ID = "kimi.batch.job_id"  # the job id its idempotency keys are derived from
STREAM_FINISHED = "kimi.stream.finished"

# --- metrics: bucket advice (gen-ai-metrics.md, v1.41.1) ------------------------------------
TOKEN_BUCKETS = (
    1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
)  # fmt: skip
DURATION_BUCKETS = (
    0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
)  # fmt: skip


@dataclass(frozen=True)
class Conventions:
    """One version's names where versions differ: the metrics."""

    version: str
    duration_metric: str
    time_to_first_chunk_metric: str
    # v1.41: one histogram, split by gen_ai.token.type ("input" / "output").
    token_usage_metric: str | None
    # Later: counters per kind of token (usage field -> metric name), with
    # gen_ai.token.modality (Kimi reports no modality: "unknown").
    token_counters: Mapping[str, str]


V1_41 = Conventions(
    version="1.41.1",
    duration_metric="gen_ai.client.operation.duration",
    time_to_first_chunk_metric="gen_ai.client.operation.time_to_first_chunk",
    token_usage_metric="gen_ai.client.token.usage",
    token_counters={},
)

LATEST = Conventions(
    version="gen_ai_latest_experimental",
    duration_metric="gen_ai.client.operation.duration",
    time_to_first_chunk_metric="gen_ai.client.operation.time_to_first_chunk",
    token_usage_metric=None,
    token_counters={
        "total_input": "gen_ai.client.inference.usage.input_tokens",
        "output": "gen_ai.client.inference.usage.output_tokens",
        "cache_read": "gen_ai.client.inference.usage.cache_read.input_tokens",
        "cache_write": "gen_ai.client.inference.usage.cache_write.input_tokens",
        "reasoning": "gen_ai.client.inference.usage.reasoning.output_tokens",
    },
)
MODALITY_UNKNOWN = "unknown"


def selected(environ: Mapping[str, str] = os.environ) -> Conventions:
    """The version ``OTEL_SEMCONV_STABILITY_OPT_IN`` selects (a comma-separated list)."""
    values = {part.strip().lower() for part in environ.get(OPT_IN_ENV, "").split(",")}
    return LATEST if OPT_IN_VALUE in values else V1_41


def capture_content(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`` asks for content:
    ``true`` (v1.41-era instrumentations) or ``SPAN_ONLY`` / ``SPAN_AND_EVENT`` /
    ``EVENT_ONLY`` (the later ones); kimi_ext puts content on span attributes only."""
    value = environ.get(CAPTURE_ENV, "").strip().lower()
    return value in ("true", "1", "span_only", "span_and_event", "event_only")
