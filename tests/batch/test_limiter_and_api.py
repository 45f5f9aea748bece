"""The shared limiter on its own (tokens per minute, the service's rate-limit headers), and
the Python API yielding results as they finish, sync and async."""

from __future__ import annotations

import asyncio
import bisect
import io
import math
import threading
import time
from pathlib import Path

import httpx
import pytest

from kimi_ext.batch import BatchRun, arun_batch, run_batch
from kimi_ext.batch.limiter import RateLimiter, reset_seconds
from kimi_ext.batch.progress import Progress, Stats
from kimi_ext.testing import KimiStandIn
from tests.support.batch import line, read_jsonl


def test_reset_headers_are_read_in_the_gateways_spellings() -> None:
    assert reset_seconds("1.5") == 1.5
    assert reset_seconds("20ms") == pytest.approx(0.02)
    assert reset_seconds("6m0s") == 360
    assert reset_seconds("1h2m3s") == 3723
    assert reset_seconds("soon") is None and reset_seconds(None) is None


async def test_tokens_per_minute_hold_back_until_the_window_frees() -> None:
    limiter = RateLimiter(tpm=100, window=0.5)
    first = await limiter.reserve(60)
    started = time.monotonic()
    await limiter.reserve(60)  # 120 > 100: waits for the first to leave the window
    assert time.monotonic() - started >= 0.4
    limiter.settle(first, 10)  # measured usage replaces the estimate
    assert limiter._tokens == 60  # the first left the window; the second still counts
    big = await limiter.reserve(500)  # larger than the budget: goes alone, once empty
    assert big is not None


async def test_a_spent_budget_in_the_headers_pauses_every_request() -> None:
    limiter = RateLimiter()
    limiter.observe(httpx.Response(200, headers={"x-ratelimit-remaining-requests": "0",
                                                 "x-ratelimit-reset-requests": "400ms"}))  # fmt: skip
    started = time.monotonic()
    await asyncio.gather(limiter.acquire(), limiter.acquire())
    assert time.monotonic() - started >= 0.35
    limiter.observe(httpx.Response(429, headers={"retry-after-ms": "300"}))
    assert limiter.paused_until - time.monotonic() > 0.2
    assert limiter.pauses == 2


class Held:
    def __init__(self, standin: KimiStandIn, text: str) -> None:
        self.release = threading.Event()
        self.text = text
        standin.responder = self

    def __call__(self, request: object) -> None:
        if getattr(request, "last_user_text", "") == self.text:
            assert self.release.wait(60)


async def test_the_async_api_yields_results_as_they_finish(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    held = Held(kimi_standin, "ask slow")
    lines = [line("slow"), *(line(f"fast-{i}", "messages") for i in range(5))]
    order = []
    async for doc in arun_batch(
        lines,
        tmp_path / "out.jsonl",
        concurrency=3,
        api_key=kimi_standin.api_key,
        base_url=kimi_standin.base_url,
    ):
        order.append(doc["custom_id"])
        if len(order) == 5:  # every fast line came back while the slow one was held
            held.release.set()
    assert order[-1] == "slow" and sorted(order[:5]) == [f"fast-{i}" for i in range(5)]
    assert [d["custom_id"] for d in read_jsonl(tmp_path / "out.jsonl")] == order


def test_the_sync_api_yields_as_they_finish_and_keeps_the_summary(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    held = Held(kimi_standin, "ask slow")
    run = BatchRun([line("slow", "responses"), line("a"), line("b")], tmp_path / "o.jsonl",
                   concurrency=2, api_key=kimi_standin.api_key,
                   base_url=kimi_standin.base_url)  # fmt: skip
    order = []
    for doc in run:
        order.append(doc["custom_id"])
        if len(order) == 2:
            held.release.set()
    assert order == ["a", "b", "slow"]
    assert run.summary.succeeded == 3 and run.summary.total_usage.requests == 3
    assert run.summary.usage["kimi-k3.1-pro"].output > 0


def test_leaving_the_sync_loop_early_stops_the_run_resumably(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    out = tmp_path / "o.jsonl"
    lines = [line(f"x{i}") for i in range(30)]
    options = {"api_key": kimi_standin.api_key, "base_url": kimi_standin.base_url,
               "concurrency": 2}  # fmt: skip
    for _ in run_batch(lines, out, **options):
        break
    first = {d["custom_id"] for d in read_jsonl(out)}
    assert 1 <= len(first) < 30
    rest = [d["custom_id"] for d in run_batch(lines, out, **options)]
    assert not set(rest) & first
    assert sorted(d["custom_id"] for d in read_jsonl(out)) == sorted(f"x{i}" for i in range(30))


async def test_measured_usage_gives_tokens_back_at_once() -> None:
    limiter = RateLimiter(tpm=100, window=60.0)  # a whole minute: only a settle can free
    first = await limiter.reserve(90)
    waiting = asyncio.create_task(limiter.reserve(50))
    await asyncio.sleep(0)  # let it start waiting: 90 + 50 > 100
    assert not waiting.done()
    limiter.settle(first, 20)  # the answer used 20 tokens, not 90
    second = await asyncio.wait_for(waiting, timeout=30)
    assert second is not None and limiter._tokens == 70


async def test_requests_per_minute_are_counted_per_second_without_an_rpm_rule() -> None:
    now = [0.2]
    limiter = RateLimiter(clock=lambda: now[0])
    for _ in range(5):
        await limiter.acquire()
    now[0] = 1.5
    for _ in range(3):
        await limiter.acquire()
    assert limiter.per_minute() == pytest.approx(8 * 60 / 1.3)  # 8 in the 1.3 s covered
    assert len(limiter._seconds) == 2 and not limiter._sent  # two counters, no times
    now[0] = 61.3  # the window has left second 0 behind, not yet second 1
    assert limiter.per_minute() == 3
    now[0] = 62.0
    assert limiter.per_minute() == 0
    assert limiter.requests == 8


async def test_with_an_rpm_rule_each_send_time_is_kept_for_the_window() -> None:
    now = [10.0]
    limiter = RateLimiter(rpm=2, window=60, clock=lambda: now[0])
    await limiter.acquire()
    now[0] = 30.0
    await limiter.acquire()
    assert limiter.per_minute() == 6 and list(limiter._sent) == [10.0, 30.0]  # 2 in 20 s
    assert not limiter._seconds
    now[0] = 70.0  # the first has left the window: a third goes at once
    await asyncio.wait_for(limiter.acquire(), 60)
    assert list(limiter._sent) == [30.0, 70.0] and limiter.requests == 3


class FakeTime:
    """An injected clock and the sleep that moves it (no real waiting)."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


async def test_progress_reads_the_true_rate_from_the_first_request() -> None:
    # At 1.9 s, 259 requests is ~8,180 a minute, not "259 req/min" (a count over 60 s).
    time_ = FakeTime()
    limiter = RateLimiter(clock=time_.clock, sleep=time_.sleep)
    assert limiter.per_minute() == 0
    for i in range(259):
        time_.now = 1000.0 + 1.9 * i / 258
        await limiter.acquire()
    assert limiter.per_minute() == pytest.approx(259 * 60 / 1.9)
    shown = Progress(io.StringIO(), bar=False).line(Stats(total=1000, done=259), limiter)
    assert f"{259 * 60 / 1.9:.0f} req/min" in shown  # what a pipe shows: "8179 req/min"
    time_.now = 1000.0 + 30.0  # nothing more sent: the rate falls as time goes
    assert limiter.per_minute() == pytest.approx(259 * 60 / 30.0)
    time_.now = 1000.0 + 62.0  # the window (whole seconds, without an rpm) has left them
    assert limiter.per_minute() == 0


@pytest.mark.parametrize("rpm", [400, 60, 3000])
async def test_rpm_is_spread_over_the_minute_not_spent_in_a_burst(rpm: int) -> None:
    time_ = FakeTime()
    limiter = RateLimiter(rpm=rpm, clock=time_.clock, sleep=time_.sleep)
    sent = []
    for _ in range(3 * rpm):  # three minutes' worth, as fast as the limiter lets them go
        await limiter.acquire()
        sent.append(time_.now)
    most = math.ceil(rpm / 60) + limiter.burst
    assert limiter.burst <= max(1, math.ceil(rpm / 600))  # small: a tenth of a second's share
    for i, start in enumerate(sent):  # every 1-second window from each send on (less a
        # micro-second: thousands of float additions may land a send a hair early)
        assert bisect.bisect_left(sent, start + 1.0 - 1e-6) - i <= most
    assert bisect.bisect_left(sent, sent[0] + 5.0) <= 5 * rpm / 60 + most  # not 116 of 400
    for i, start in enumerate(sent):  # and still no 60 s window over the rpm
        assert bisect.bisect_left(sent, start + 60.0) - i <= rpm
    minutes = (sent[-1] - sent[0]) / 60
    assert (len(sent) - 1 - limiter.burst) / minutes == pytest.approx(rpm, rel=0.01)
