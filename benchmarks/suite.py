"""The benchmark groups: each measures its contenders and turns the times into rows."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from . import GOALS
from .contenders import (
    BASELINE,
    KIMI_STREAM,
    Clients,
    Contender,
    big_event,
    helper_name,
    history,
    sdk_available,
    small_request,
    socket_floor,
    stream_accumulation,
)
from .memory import measure_memory
from .payloads import expected, history_turns
from .runner import Row, fmt_time, measure, paired, spread, warm
from .server import Server
from .startup import measure_startup

if TYPE_CHECKING:
    from . import Config

__all__ = ["run_suite"]

MIB = 1 << 20


def _timed_rows(
    bench: str,
    fmt: str,
    contenders: Sequence[Contender],
    times: dict[str, list[float]],
    goal: float,
    base: str = BASELINE,
    ratio_of: str = "vs httpx",
) -> list[Row]:
    rows = []
    for contender in contenders:
        rows.append(
            Row(
                bench,
                fmt,
                contender.name,
                fmt_time(spread(times[contender.name])),
                paired(times, contender.name, base),
                ratio_of,
                goal if contender.kimi else None,
            )
        )
    return rows


def _renamed(contenders: list[Contender], suffix: str) -> list[Contender]:
    for contender in contenders:
        contender.name = f"{contender.name} {suffix}"
    return contenders


def _scaling_rows(
    bench: str,
    fmt: str,
    small: list[Contender],
    large: list[Contender],
    times: dict[str, list[float]],
    sizes: tuple[int, int],
    unit: str,
    goal: float,
) -> list[Row]:
    """Rows comparing the cost per unit (event or byte) of the large run with the small."""
    rows = []
    for a, b in zip(small, large, strict=True):
        per_small = [t / sizes[0] for t in times[a.name]]
        per_large = [t / sizes[1] for t in times[b.name]]
        name = a.name.rsplit(" @", 1)[0]
        if unit == "event":
            value = (
                f"{fmt_time(statistics.median(per_small))} → "
                f"{fmt_time(statistics.median(per_large))} per event"
            )
        else:
            value = (
                f"{fmt_time(statistics.median(times[a.name]))} → "
                f"{fmt_time(statistics.median(times[b.name]))}"
            )
        rows.append(
            Row(
                bench,
                fmt,
                name,
                value,
                spread([y / x for x, y in zip(per_small, per_large, strict=True)]),
                f"per {unit}, {sizes[1]:,} vs {sizes[0]:,}",
                goal if a.kimi else None,
            )
        )
    return rows


class Suite:
    def __init__(
        self,
        config: Config,
        server: Server,
        clients: Clients,
        formats: Sequence[str],
        log: Callable[[str], None],
    ) -> None:
        self.config = config
        self.server = server
        self.clients = clients
        self.formats = list(formats)
        self.log = log
        self.sdks = {fmt: sdk_available(fmt) for fmt in formats}
        self.notes: list[str] = []

    # --- groups ----------------------------------------------------------------------------

    def small(self) -> list[Row]:
        c = self.config
        rows = []
        for fmt in self.formats:
            self.log(f"small request: {fmt}")
            contenders = small_request(self.clients, fmt, sdks=self.sdks[fmt])
            warm(contenders)
            times = measure(contenders, reps=c.small_reps, batch=c.small_batch)
            rows += _timed_rows("small request (create)", fmt, contenders, times, GOALS["small"])
        return rows

    def stream(self) -> list[Row]:
        c = self.config
        n = c.stream_events
        rows = []
        for fmt in self.formats:
            self.log(f"stream of {n:,} events: {fmt}")
            contenders = stream_accumulation(self.clients, fmt, n, sdks=self.sdks[fmt])
            contenders.append(socket_floor(self.clients, fmt, n))
            warm(contenders)  # also opens each client's connection
            times = measure(contenders, reps=c.stream_reps)
            rows += _timed_rows(
                f"stream of {n:,} events, read whole", fmt, contenders, times, GOALS["stream"]
            )
        return rows

    def linear(self) -> list[Row]:
        c = self.config
        sizes = c.linear_events
        rows = []
        for fmt in self.formats:
            self.log(f"per-event cost, {sizes[0]:,} vs {sizes[1]:,} events: {fmt}")
            small = _renamed(
                stream_accumulation(self.clients, fmt, sizes[0], sdks=False, iterate=False),
                f"@{sizes[0]}",
            )
            large = _renamed(
                stream_accumulation(self.clients, fmt, sizes[1], sdks=False, iterate=False),
                f"@{sizes[1]}",
            )
            warm(small + large)
            times = measure(small + large, reps=c.linear_reps)
            events = (
                expected(fmt, "stream", sizes[0]).events,
                expected(fmt, "stream", sizes[1]).events,
            )
            rows += _scaling_rows(
                "per-event cost (linear)",
                fmt,
                small,
                large,
                times,
                events,
                "event",
                GOALS["linear"],
            )
            kimi = large[1]
            rows.append(
                Row(
                    "per-event cost (linear)",
                    fmt,
                    f"{KIMI_STREAM}, at {sizes[1]:,} events",
                    fmt_time(spread(times[kimi.name])),
                    paired(times, kimi.name, large[0].name),
                    "vs httpx",
                )
            )
        return rows

    def big(self) -> list[Row]:
        c = self.config
        sizes = c.big_bytes
        rows = []
        for fmt in self.formats:
            self.log(f"one large event, {sizes[0]:,} vs {sizes[1]:,} bytes: {fmt}")
            small = _renamed(
                big_event(self.clients, fmt, sizes[0], sdks=self.sdks[fmt]), f"@{sizes[0]}"
            )
            large = _renamed(
                big_event(self.clients, fmt, sizes[1], sdks=self.sdks[fmt]), f"@{sizes[1]}"
            )
            warm(small + large)
            times = measure(small + large, reps=c.big_reps)
            rows += _scaling_rows(
                "one large event (linear)", fmt, small, large, times, sizes, "byte", GOALS["big"]
            )
            for contender in large[1:]:
                rows.append(
                    Row(
                        "one large event (linear)",
                        fmt,
                        f"{contender.name.rsplit(' @', 1)[0]}, {sizes[1] / MIB:g} MiB event",
                        fmt_time(spread(times[contender.name])),
                        paired(times, contender.name, large[0].name),
                        "vs httpx",
                    )
                )
        return rows

    def history(self) -> list[Row]:
        c = self.config
        rows = []
        for fmt in self.formats:
            self.log(f"history of {c.history_turns} turns: {fmt}")
            contenders, size = history(
                self.clients, fmt, c.history_turns, scale=c.history_scale, sdks=self.sdks[fmt]
            )
            warm(contenders)
            times = measure(contenders, reps=c.history_reps, batch=c.history_batch)
            bench = f"send a {c.history_turns}-turn history ({size / 1e6:.2f} MB)"
            rows += _timed_rows(bench, fmt, contenders, times, GOALS["history"])
        script = history_turns(c.history_turns, c.history_scale)
        calls = sum(len(turn["calls"]) for turn in script)
        self.notes.append(
            f"- History: {c.history_turns} assistant turns, each with reasoning "
            f"(~{6 * c.history_scale:,} bytes) and, in 3 of 4 turns, 1-2 tool calls whose "
            f"results are ~{7 * c.history_scale // 2:,} bytes ({calls} calls in all); a user "
            "message every 4 turns. Built the way an application builds it: `add()` of each "
            "reply and `add_tool_result()` of each call on a Chat/Messages/ResponsesHistory; "
            "the plain list is `history.to_wire()` copied to fresh dicts. The baseline posts "
            "the same body with httpx `json=` and `json.loads` the small reply."
        )
        return rows

    def schemas(self) -> list[Row]:
        """Issue 31's costs: a call with 255 tools seen before, against the same bytes
        posted by httpx; and the first use of a schema (check and normalize), per tool."""
        import time as _time

        from kimi_ext.schemas import check_schema, normalize_schema

        from .contenders import many_tools, tool_schemas

        c = self.config
        count = 255
        self.log(f"a Messages call with {count} tools")
        contenders, size = many_tools(self.clients, count)
        warm(contenders)
        times = measure(contenders, reps=c.history_reps, batch=c.history_batch)
        bench = f"send {count} tools seen before ({size / 1e3:.0f} kB)"
        rows = _timed_rows(bench, "messages", contenders, times, GOALS["schemas_cached"])
        self.log("first use of a tool schema: check and normalize")
        per_tool = []
        for rep in range(c.history_reps):
            fresh = [tool_schemas(100_000 * (rep + 1) + i) for i in range(count)]
            started = _time.perf_counter()
            for schema in fresh:
                check_schema(schema)
                normalize_schema(schema)
            per_tool.append((_time.perf_counter() - started) / count)
        rows.append(
            Row(
                "first use of a tool schema (check + normalize)",
                "",
                "kimi_ext, per tool",
                fmt_time(spread(per_tool)),
                spread([t / 30e-6 for t in per_tool]),
                "per tool / 30 µs",
                GOALS["schemas_first_use"],
            )
        )
        return rows

    def startup(self) -> list[Row]:
        c = self.config
        names = ["python -c pass", "import httpx; httpx.Client()", "import kimi_ext; Kimi()"]
        if c.startup_sdks and (self.sdks.get("chat") or self.sdks.get("responses")):
            names.append("import openai; OpenAI()")
        if c.startup_sdks and self.sdks.get("messages"):
            names.append("import anthropic; Anthropic()")
        self.log(f"import + construct, {c.startup_rounds} rounds")
        times = measure_startup(names, rounds=c.startup_rounds, warmup=c.startup_warmup)
        base = "import httpx; httpx.Client()"
        bare = "python -c pass"
        bench = "import + client construction (fresh process)"
        rows = []
        for name in names:
            ratio = None if name == bare else paired(times, name, base)
            goal = GOALS["startup"] if name.startswith("import kimi_ext") else None
            rows.append(
                Row(bench, "", name, fmt_time(spread(times[name])), ratio, "vs httpx, raw", goal)
            )
        for name in names[2:]:
            own = [t - p for t, p in zip(times[name], times[bare], strict=True)]
            ref = [t - p for t, p in zip(times[base], times[bare], strict=True)]
            goal = GOALS["startup"] if name.startswith("import kimi_ext") else None
            rows.append(
                Row(
                    bench,
                    "",
                    f"{name} − python startup",
                    fmt_time(spread(own)),
                    spread([a / b for a, b in zip(own, ref, strict=True)]),
                    "vs httpx, startup subtracted",
                    goal,
                )
            )
        return rows

    def telemetry(self) -> list[Row]:
        from .telemetry import telemetry_rows

        c = self.config
        return telemetry_rows(
            self.clients, self.formats, reps=c.small_reps, batch=c.small_batch, goals=GOALS,
            log=self.log,
        )  # fmt: skip

    def replay(self) -> list[Row]:
        from .replay import (
            cassette_folder,
            frames_in,
            recorded_body,
            recorded_cassette,
            replay_contenders,
            replaying,
        )

        c = self.config
        n = c.stream_events
        rows = []
        with cassette_folder() as folder:
            for fmt in self.formats:
                self.log(f"replay of a recorded {n:,}-event stream: {fmt}")
                cassette = recorded_cassette(self.server.root, fmt, n, Path(folder))
                with replaying(cassette) as replay_root:
                    contenders, clients = replay_contenders(
                        self.clients.http,
                        self.server.root,
                        replay_root,
                        fmt,
                        n,
                        recorded_body(cassette),
                    )
                    try:
                        warm(contenders)
                        times = measure(contenders, reps=c.stream_reps)
                    finally:
                        for client in clients:
                            client.close()
                bench = f"replay a recorded {frames_in(cassette):,}-frame stream"
                # Bytes alone against the plain server's, then the client's read of each.
                for pair in (contenders[:2], contenders[2:]):
                    rows += _timed_rows(
                        bench, fmt, pair, times, GOALS["replay"], base=pair[0].name,
                        ratio_of="vs plain server",
                    )  # fmt: skip
        self.notes.append(
            "- Replay: the stream is recorded through `KimiStandIn().record(...)` from the plain "
            "server, then replayed by `kimi stand-in --replay FILE --allow-repeats` in a child "
            "process (timing fast: the recorded frames written 64 KiB at a time). Each pair of "
            "rows reads the same bytes from both servers with the same client: httpx "
            "`iter_raw` (the serving cost, undiluted), then kimi_ext `stream()` + `get_final`."
        )
        return rows

    def batch(self) -> list[Row]:
        from .batch import batch_rows

        return batch_rows(self.config, self.server.root, self.log)

    def memory(self) -> list[Row]:
        c = self.config
        spec: list[list[object]] = []
        for fmt in self.formats:
            spec.append([fmt, BASELINE, c.memory_events, c.memory_reps])
            spec.append([fmt, KIMI_STREAM, c.memory_events, c.memory_reps])
            if self.sdks[fmt] and c.memory_sdk_events:
                spec.append([fmt, helper_name(fmt), c.memory_sdk_events, 1])
        self.log(f"peak memory, {c.memory_events:,} events (SDKs: {c.memory_sdk_events:,})")
        rows = []
        results = measure_memory(self.server.root, spec)
        baseline = {(r["format"], r["events"]): r["peaks"] for r in results if r["contender"] == BASELINE}  # fmt: skip
        for result in results:
            size = result["result_size"]
            peaks = result["peaks"]
            name = result["contender"]
            fmt = result["format"]
            value = f"{statistics.median(peaks) / MIB:.2f} MiB peak; result {size / MIB:.2f} MiB"
            ratio, ratio_of = spread([p / size for p in peaks]), "peak / result size"
            goal = GOALS["memory"] if name == KIMI_STREAM else None
            if fmt == "responses" and name == KIMI_STREAM:
                # The goal for Responses is 1.10x bare httpx's peak (see benchmarks/__init__):
                # each repetition against the baseline's repetition of the same index.
                bare = baseline[(fmt, result["events"])]
                value += f" ({statistics.median(peaks) / size:.2f}x the result)"
                ratio = spread([p / b for p, b in zip(peaks, bare, strict=True)])
                ratio_of, goal = "peak / httpx peak", GOALS["memory_responses"]
            rows.append(
                Row(
                    f"peak memory, stream of {result['events']:,} events",
                    fmt,
                    name,
                    value,
                    ratio,
                    ratio_of,
                    goal,
                )
            )
        return rows


def _keys(config: Config, formats: Sequence[str]) -> list[str]:
    keys = []
    for fmt in formats:
        keys.append(f"{fmt}.small.0")
        for n in (config.stream_events, *config.linear_events, config.memory_events):
            keys.append(f"{fmt}.stream.{n}")
        keys.append(f"{fmt}.stream.{config.memory_sdk_events}")
        for size in config.big_bytes:
            keys.append(f"{fmt}.big.{size}")
    return list(dict.fromkeys(keys))


def run_suite(
    config: Config,
    *,
    groups: Sequence[str],
    formats: Sequence[str],
    log: Callable[[str], None],
) -> tuple[list[Row], str]:
    rows: list[Row] = []
    server = Server()
    with server as root:
        log(f"server at {root}; preparing payloads")
        server.prime(*_keys(config, formats))
        clients = Clients(root)
        suite = Suite(config, server, clients, formats, log)
        try:
            for group in groups:
                rows += getattr(suite, group)()
        finally:
            clients.close()
    return rows, notes(config) + "\n".join(suite.notes) + "\n" + analysis(rows)


def notes(config: Config) -> str:
    n = config.stream_events
    sizes = ", ".join(
        f"{fmt} {len(stream_body(fmt, n)) / 1e6:.1f} MB"
        for fmt in ("chat", "messages", "responses")
    )
    return f"""
## How it is measured

- Server: a raw-socket HTTP/1.1 server in a child process (`benchmarks/server.py`), one
  thread per keep-alive connection, answering every request with bytes prepared once per
  scenario, identical for every client. JSON replies carry Content-Length; streams are
  sent chunked in 64 KiB chunks cut without regard to event boundaries. The row "raw
  socket read (server floor)" is the time to receive a whole stream on a bare socket: the
  server and the loopback cost that much of every stream figure.
- Baseline: `httpx.Client.post(url, json=body)` + `json.loads(response.content)`; for
  streams `client.stream(...)` + `iter_lines()` + `json.loads` of every `data:` line (no
  accumulation). kimi_ext, openai and anthropic are pointed at the same server with
  `base_url`; every result is checked against what the server sent (the text, reasoning
  and tool-call arguments rebuilt from the stream), once per scenario, outside the timing.
- Streams ({n:,} events: {sizes}) follow the recorded fixtures: reasoning fragments
  (60%), answer text (30%) and one tool call whose JSON arguments arrive in fragments
  (10%), each fragment a token of English text (~5 characters, with quotes, newlines and
  a few Latin-1 accents), plus the format's framing events (Chat: role chunk, finish,
  usage chunk, `[DONE]`; Messages: message_start, ping, block start/stop, signature,
  message_delta/stop; Responses: created, in_progress, item/part added and done,
  `.done` events carrying the whole text, response.completed carrying the whole output).
- kimi_ext: `with client.X.stream(...) as s: s.get_final_*()`; also `create(stream=True)`
  iterated. openai: `create(stream=True)` iterated, collecting text, reasoning and
  arguments, and the `.stream()` helper with `get_final_completion()` /
  `get_final_response()`; anthropic: the same with `messages.stream()` and
  `get_final_message()`.
- Linearity: per-event cost of the longer stream over the shorter one, per repetition;
  one large event: the answer text arrives as a single delta of the given size, and the
  figure is the cost per byte of the larger over the smaller.
- Startup: wall time of `python -c "..."` from spawn to exit, interleaved over rounds;
  the children use a private bytecode cache (warmed first) so every library loads from
  bytecode as an installed package does (this machine sets PYTHONDONTWRITEBYTECODE).
- Memory: tracemalloc in a child process, started after a warm-up so only the stream's
  own allocations count (peak above the process baseline). "Size of the final result" is
  `len(json.dumps(result.to_dict()))` of kimi_ext's result for the same stream (the same
  denominator for every row of a format). The baseline rows show what merely reading
  and parsing the stream with httpx holds at its peak (read buffers, the current event),
  which every other figure includes too. The SDKs are measured on a shorter stream, as
  they take seconds per 20,000 events.
- Memory goals: Responses, whose last event repeats the whole output, is held to 1.10x
  bare httpx's peak on the same stream (kimi_ext peak / httpx peak <= 1.10, repetition by
  repetition); Chat and Messages, where the baseline holds no result, to 3x the size of
  the result.
"""


def stream_body(fmt: str, events: int) -> bytes:
    from .payloads import stream_bytes

    return stream_bytes(fmt, "stream", events)


def analysis(rows: Sequence[Row]) -> str:
    """Explanations that depend on what was measured."""
    out = []
    for row in rows:
        if row.met is False and row.bench.startswith("peak memory") and row.fmt == "responses":
            out.append(
                "- Responses peak memory: the goal is 1.10x bare httpx's peak on the same "
                "stream. The stream ends with `response.completed`, whose JSON repeats the "
                "whole output; httpx holds that line and its parsed copy at once, and so does "
                "the client, which also keeps the output accumulated so far (`.partial` needs "
                "it if the stream breaks). A miss means some other copy is held: compare "
                "tracemalloc snapshots at the peak."
            )
    if not out:
        return ""
    return "\n## Goals out of reach\n\n" + "\n".join(out) + "\n"
