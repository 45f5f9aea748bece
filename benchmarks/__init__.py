"""Benchmarks of kimi_ext against bare httpx and the openai / anthropic SDKs.

Everything runs against a loopback HTTP/1.1 server in a child process
(:mod:`benchmarks.server`) that serves the same prepared bytes to every client. Each
group below measures its contenders interleaved (:mod:`benchmarks.runner`) and yields
rows of one table; :func:`run_benchmarks` runs the groups of a :class:`Config`.

Groups and goals (for kimi_ext):

* ``small``: a small non-streaming request per format, <= 1.10x bare httpx;
* ``stream``: accumulating a 20,000-event stream per format, <= 1.5x httpx
  ``iter_lines`` + ``json.loads``;
* ``linear``: per-event cost at 100,000 events <= 1.2x that at 5,000;
  ``big``: one 4 MiB event decodes in linear time (per byte <= 1.2x that of 1 MiB);
* ``history``: sending a 200-turn, ~2.5 MB history, <= 1.10x httpx ``json=``;
* ``startup``: ``import kimi_ext`` + ``Kimi()`` in a fresh process, <= 1.5x ``import
  httpx; httpx.Client()`` (raw and with interpreter startup subtracted);
* ``memory``: peak traced memory while accumulating a 100,000-event stream.
  Responses: <= 1.10x the peak of the bare httpx baseline (``iter_lines`` + ``json.loads``,
  keeping nothing) on the same stream (``memory_responses``). Its last event,
  ``response.completed``, repeats the whole output, so merely reading it costs a few
  copies of the result; the client may cost at most 10 % more than that, though it also
  keeps what it accumulated (``.partial`` needs it if the stream breaks). Chat and Messages: <= 3x
  ``len(json.dumps(result.to_dict()))`` (``memory``): no event there repeats the output,
  so the baseline's peak is only its read buffers and the current event (well under the
  result) and no ratio to it would mean anything; the goal bounds what the accumulated
  result costs beyond its JSON size instead.
* ``telemetry``: a small request with telemetry off stays within 1% of the pre-seam call
  path; on (OpenTelemetry SDK, in-memory exporter) it adds at most the SDK's own cost of
  the same span and metrics + 15 us; and at most half of what
  ``opentelemetry-instrumentation-openai-v2`` adds to the openai SDK (Chat). See
  :mod:`benchmarks.telemetry`.
* ``replay``: replaying a recorded 20,000-event stream through the stand-in
  (``kimi stand-in --replay``, cassettes) <= 1.5x serving the same bytes from the plain
  loopback server, read by the same client: the bytes alone (httpx ``iter_raw``), and the
  kimi_ext client rebuilding the result.
* ``batch``: ``kimi batch``'s runner (:mod:`benchmarks.batch`): >= 95 % of the throughput
  its concurrency allows at a fixed server latency, CPU per request <= 1.2x a bare asyncio
  + httpx + semaphore loop writing the same JSONL, peak RSS of a 10x larger input <= 1.1x,
  and no window with more than ``--rpm`` requests (on a scaled-down window).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .payloads import FORMATS

if TYPE_CHECKING:
    from .runner import Row

__all__ = ["CONFIGS", "GROUPS", "Config", "run_benchmarks"]

GROUPS = (
    "small",
    "stream",
    "linear",
    "big",
    "history",
    "schemas",
    "startup",
    "memory",
    "telemetry",
    "replay",
    "batch",
)

GOALS = {
    "small": 1.10,
    "stream": 1.5,
    "linear": 1.2,
    "big": 1.2,
    "history": 1.10,
    # A call with 255 tools whose schemas were seen before / the same body posted by httpx.
    "schemas_cached": 1.05,
    # First use of a tool's schema (check and normalize), per tool / 30 us.
    "schemas_first_use": 1.0,
    "startup": 1.5,
    "memory": 3.0,  # Chat and Messages: peak / result size
    "memory_responses": 1.10,  # Responses: peak / bare httpx's peak on the same stream
    "telemetry_off": 1.01,  # telemetry off / the pre-seam call path
    "telemetry_on": 1.0,  # what telemetry adds / (the SDK's own cost + 15 us)
    "telemetry_vs_openai_v2": 0.5,  # what it adds / what openai-v2 adds to openai
    "replay": 1.5,
    "batch_throughput": 1 / 0.95,  # time / what the concurrency allows at a fixed latency
    "batch_cpu": 1.2,  # CPU per request / a bare asyncio + httpx + semaphore loop
    "batch_memory": 1.1,  # peak RSS of a 10x larger input / the smaller one's
    "batch_rpm": 1.0,  # most requests in any window / --rpm
}


@dataclass(frozen=True)
class Config:
    name: str
    small_batch: int  # calls per timed sample
    small_reps: int
    stream_events: int
    stream_reps: int
    linear_events: tuple[int, int]
    linear_reps: int
    big_bytes: tuple[int, int]
    big_reps: int
    history_turns: int
    history_scale: int  # ~12.5 * scale bytes per turn
    history_batch: int
    history_reps: int
    startup_rounds: int
    startup_warmup: int
    startup_sdks: bool  # also time importing the SDKs (about a second each)
    memory_events: int
    memory_sdk_events: (
        int  # the SDKs are slow: their memory is measured on a shorter stream (0: not)
    )
    memory_reps: int
    # batch: (lines, concurrency, latency ms); lines for CPU; (small, large) lines for
    # memory; (rpm, window s, lines); repetitions of each.
    batch_latency: tuple[int, int, int] = (800, 16, 250)
    batch_cpu_lines: int = 3000
    # The sizes, 10x apart: the 100,000-line run takes ~3 minutes here (~1.6 ms of
    # CPU per request), the price of measuring what was asked rather than a scaled stand-in.
    batch_memory_lines: tuple[int, int] = (10_000, 100_000)
    batch_rpm: tuple[int, float, int] = (20, 1.0, 60)
    batch_reps: int = 1

    def describe(self) -> str:
        return (
            f"{self.name} (small: {self.small_reps} reps x {self.small_batch} calls; streams: "
            f"{self.stream_events:,} events x {self.stream_reps} reps; linearity: "
            f"{self.linear_events[0]:,} vs {self.linear_events[1]:,} events x "
            f"{self.linear_reps} reps, {self.big_bytes[0]:,} vs {self.big_bytes[1]:,} bytes x "
            f"{self.big_reps} reps; history: {self.history_turns} turns x {self.history_reps} "
            f"reps; startup: {self.startup_rounds} rounds; memory: {self.memory_events:,} "
            f"events, SDKs {self.memory_sdk_events:,}; batch: {self.batch_latency[0]} lines at "
            f"{self.batch_latency[2]} ms, CPU {self.batch_cpu_lines:,} lines, memory "
            f"{self.batch_memory_lines[0]:,} vs {self.batch_memory_lines[1]:,} lines)"
        )


CONFIGS = {
    "full": Config(
        name="full",
        small_batch=100,
        small_reps=11,
        stream_events=20_000,
        stream_reps=5,
        linear_events=(5_000, 100_000),
        linear_reps=5,
        big_bytes=(1 << 20, 4 << 20),
        big_reps=7,
        history_turns=200,
        history_scale=1250,
        history_batch=3,
        history_reps=9,
        startup_rounds=15,
        startup_warmup=2,
        startup_sdks=True,
        memory_events=100_000,
        memory_sdk_events=20_000,
        memory_reps=2,
    ),
    "quick": Config(
        name="quick",
        small_batch=30,
        small_reps=3,
        stream_events=2_000,
        stream_reps=3,
        linear_events=(1_000, 10_000),
        linear_reps=3,
        big_bytes=(256 << 10, 1 << 20),
        big_reps=3,
        history_turns=50,
        history_scale=1250,
        history_batch=1,
        history_reps=3,
        startup_rounds=3,
        startup_warmup=1,
        startup_sdks=True,
        memory_events=10_000,
        memory_sdk_events=2_000,
        memory_reps=1,
        batch_latency=(320, 16, 250),
        batch_cpu_lines=1000,
        batch_memory_lines=(1_000, 10_000),
        batch_rpm=(10, 1.0, 30),
    ),
    "smoke": Config(
        name="smoke",
        small_batch=1,
        small_reps=1,
        stream_events=60,
        stream_reps=1,
        linear_events=(60, 240),
        linear_reps=1,
        big_bytes=(4096, 16384),
        big_reps=1,
        history_turns=4,
        history_scale=40,
        history_batch=1,
        history_reps=1,
        startup_rounds=1,
        startup_warmup=0,
        startup_sdks=False,
        memory_events=100,
        memory_sdk_events=0,  # none: the child process would spend seconds importing them
        memory_reps=1,
        batch_latency=(32, 16, 20),
        batch_cpu_lines=50,
        batch_memory_lines=(50, 500),
        batch_rpm=(5, 0.5, 10),
    ),
}


def run_benchmarks(
    config: Config,
    *,
    groups: Sequence[str] = GROUPS,
    formats: Sequence[str] = FORMATS,
    log: Callable[[str], None] = lambda text: None,
) -> tuple[list[Row], str]:
    """Run the groups; return the table rows and the notes for RESULTS.md."""
    from .suite import run_suite

    return run_suite(config, groups=groups, formats=formats, log=log)
