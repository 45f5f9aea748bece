"""The runner against the stand-in's faults: 429 with Retry-After pauses the whole run,
5xx and cut streams are retried (and written as failures when the retries run out, never
as complete), a slow server is kept at the concurrency asked, and --rpm holds in every
window (on a scaled-down window)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from kimi_ext.batch import BatchRun, run_batch
from kimi_ext.testing import Fault, KimiStandIn
from tests.support.batch import answered, kimi_batch, line, mixed, read_jsonl, write_jsonl


def run_api(standin: KimiStandIn, source: object, out: Path, **options: object) -> list[dict]:
    return list(run_batch(source, out, api_key=standin.api_key, base_url=standin.base_url,
                          **options))  # fmt: skip


def test_a_429_pauses_every_worker_for_its_retry_after(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    kimi_standin.when("ask id-00005", faults=[Fault.rate_limit(retry_after=1.5)], times=1)
    # Each answer takes 50 ms: without a run-wide pause the other workers would go on
    # sending through the Retry-After (200 lines take ~2.5 s at 4 workers).
    kimi_standin.when(lambda r: True, faults=[Fault.slow_first_byte(0.05)])
    docs = run_api(kimi_standin, mixed(200, stream_every=0), tmp_path / "out.jsonl",
                   concurrency=4)  # fmt: skip
    assert len(docs) == 200 and all(d["error"] is None for d in docs)
    requests = kimi_standin.requests
    (limited,) = [i for i, r in enumerate(requests) if r.last_user_text == "ask id-00005"][:1]
    t0 = requests[limited].received_at
    later = sorted(r.received_at for r in requests[limited + 1 :])
    # The other workers went quiet too: a gap of (nearly) the Retry-After follows the 429,
    # apart from what was already on its way when the 429 came back.
    gaps = [b - a for a, b in zip([t0, *later], later, strict=False)]
    assert max(gaps) >= 1.3, gaps
    retry = [r for r in requests if r.last_user_text == "ask id-00005"]
    assert len(retry) == 2 and retry[1].received_at - t0 >= 1.4
    assert retry[0].headers["idempotency-key"] == retry[1].headers["idempotency-key"]


def test_5xx_is_retried_then_written_as_a_failure_when_retries_run_out(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    kimi_standin.when("ask once", faults=[Fault.server_error(503)], times=1)
    kimi_standin.when("ask always", faults=[Fault.server_error(500)], times=3)
    source = write_jsonl(tmp_path / "in.jsonl",
                         [line("once", "messages"), line("always", "responses")])  # fmt: skip
    out = tmp_path / "out.jsonl"
    run = kimi_batch(kimi_standin, source, "-o", out, "--max-retries", "1")
    assert run.returncode == 8, run.stderr
    docs = {d["custom_id"]: d for d in read_jsonl(out)}
    assert docs["once"]["error"] is None and docs["once"]["response"]["status_code"] == 200
    assert docs["always"]["response"]["status_code"] == 500
    assert docs["always"]["error"]["code"]
    assert answered(kimi_standin).count("once") == 2
    assert answered(kimi_standin).count("always") == 2  # 1 + --max-retries 1


def test_a_cut_stream_is_sent_again_and_never_written_as_complete(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    kimi_standin.when("ask healed", faults=[Fault.cut_stream(after=3)], times=1)
    kimi_standin.when("ask broken", faults=[Fault.cut_mid_event(after=2)], times=5)
    lines = [line("healed", "chat", stream=True), line("broken", "messages", stream=True),
             line("plain", "responses", stream=True)]  # fmt: skip
    docs = {d["custom_id"]: d for d in run_api(kimi_standin, lines, tmp_path / "o.jsonl",
                                               max_retries=1)}  # fmt: skip
    healed = docs["healed"]["response"]["body"]
    assert healed["choices"][0]["finish_reason"] == "stop"
    assert healed["choices"][0]["message"]["content"] == "ask healed"
    broken = docs["broken"]
    assert broken["response"] is None and broken["error"]["code"] == "incomplete_stream"
    assert docs["plain"]["response"]["body"]["status"] == "completed"
    assert answered(kimi_standin).count("healed") == 2
    assert answered(kimi_standin).count("broken") == 2
    on_disk = {d["custom_id"]: d for d in read_jsonl(tmp_path / "o.jsonl")}
    assert on_disk == docs


def test_a_slow_server_is_kept_at_the_concurrency_asked(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    lock = threading.Lock()
    now = [0]
    most = [0]

    def slow(request: object) -> None:  # a server that takes its time on every request
        with lock:
            now[0] += 1
            most[0] = max(most[0], now[0])
        time.sleep(0.1)
        with lock:
            now[0] -= 1

    kimi_standin.responder = slow
    kimi_standin.when(lambda r: True, faults=[Fault.slow_first_byte(0.05)])
    docs = run_api(kimi_standin, mixed(24, stream_every=4), tmp_path / "out.jsonl",
                   concurrency=3)  # fmt: skip
    assert len(docs) == 24 and all(d["error"] is None for d in docs)
    assert most[0] == 3


def test_rpm_holds_in_every_window(kimi_standin: KimiStandIn, tmp_path: Path) -> None:
    # A scaled-down minute: 2 s. 4 requests per window, 12 requests, 8 workers.
    run = BatchRun(mixed(12, stream_every=0), tmp_path / "out.jsonl", concurrency=8, rpm=4,
                   rate_window=2.0, api_key=kimi_standin.api_key,
                   base_url=kimi_standin.base_url)  # fmt: skip
    # When the limiter let each attempt go: the time it read, on its own clock. (The
    # service's arrival times are not that: the first requests of a process wait on its
    # first imports and loads after they left the limiter, and arrive bunched with the
    # next ones.)
    read: list[float] = []
    let_go: list[float] = []
    clock, acquire = run.limiter.clock, run.limiter.acquire

    def reading() -> float:
        read.append(clock())
        return read[-1]

    async def timed() -> None:
        await acquire()  # its last clock read is the time it let the attempt go at
        let_go.append(read[-1])

    run.limiter.clock = reading
    run.limiter.acquire = timed  # type: ignore[method-assign]
    docs = list(run)
    assert len(docs) == 12 and all(d["error"] is None for d in docs)
    # Every request the service saw went through the limiter, once.
    assert len(let_go) == len(kimi_standin.requests) == 12
    assert let_go[-1] - let_go[0] >= 4.0  # three windows' worth: at least two waits
    # No window of 2 s holds more than 4 (u - 2.0 < t: as the limiter forgets a send).
    for i, t in enumerate(let_go):
        assert sum(1 for u in let_go[i:] if u - 2.0 < t) <= 4, let_go


def test_a_retry_after_longer_than_the_client_waits_pauses_the_run_then_resends(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    # The client waits for at most 60 s itself; with a longer hint it raises at once. The
    # runner then holds the whole run for the hint and sends the line again. The test
    # shortens the run's pause (61 s) to half a second.
    kimi_standin.when("ask a", faults=[Fault.error(429, "slow down", error_type="rate_limit_error",
                                                   headers={"retry-after-ms": "61000"})],
                      times=1)  # fmt: skip
    run = BatchRun([line("a"), line("b")], tmp_path / "o.jsonl", concurrency=1,
                   api_key=kimi_standin.api_key, base_url=kimi_standin.base_url)  # fmt: skip
    pause = run.limiter.pause
    run.limiter.pause = lambda seconds: pause(min(seconds, 0.5))  # type: ignore[method-assign]
    docs = {d["custom_id"]: d for d in run}
    assert docs["a"]["error"] is None and docs["b"]["error"] is None
    assert answered(kimi_standin) == ["a", "a", "b"]
    times = [r.received_at for r in kimi_standin.requests]
    assert times[1] - times[0] >= 0.45  # the pause held the resend (and b behind it)
