"""The memory goals the benchmarks judge (issues 16 and 25): Responses at most 1.10x bare
httpx's peak on the same stream, Chat and Messages against the size of the result.

The measurement itself takes a minute (``python -m benchmarks --only memory``); here the
child's figures are given, and the rows built from them are checked.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from benchmarks import CONFIGS, GOALS, suite
from benchmarks.contenders import BASELINE, KIMI_STREAM

MIB = 1 << 20


def rows_for(monkeypatch: pytest.MonkeyPatch, fmt: str, bare: list[int], kimi: list[int]) -> Any:
    events = CONFIGS["smoke"].memory_events
    size = MIB // 2
    measured = [
        {"format": fmt, "contender": BASELINE, "events": events, "peaks": bare, "result_size": size},
        {"format": fmt, "contender": KIMI_STREAM, "events": events, "peaks": kimi, "result_size": size},
    ]  # fmt: skip
    monkeypatch.setattr(suite, "measure_memory", lambda root, spec: measured)
    bench = suite.Suite.__new__(suite.Suite)
    bench.config = CONFIGS["smoke"]
    bench.server = SimpleNamespace(root="unused")  # type: ignore[assignment]
    bench.formats = [fmt]
    bench.sdks = {fmt: False}
    bench.log = lambda text: None
    return {row.contender: row for row in bench.memory()}


def test_responses_is_held_to_bare_httpx_peak(monkeypatch: pytest.MonkeyPatch) -> None:
    # 2x the result, well within the old 3x goal, but 1.2x httpx's peak: missed.
    rows = rows_for(monkeypatch, "responses", [MIB * 5 // 6] * 2, [MIB, MIB])
    kimi = rows[KIMI_STREAM]
    assert kimi.goal == GOALS["memory_responses"] == 1.10
    assert kimi.ratio_of == "peak / httpx peak"
    assert kimi.ratio.median == pytest.approx(MIB / (MIB * 5 // 6))
    assert kimi.met is False
    assert rows[BASELINE].goal is None
    # Within 1.10x httpx's peak (here 1.05x, 4x the result, which the old goal refused): met.
    rows = rows_for(monkeypatch, "responses", [2 * MIB, 2 * MIB], [21 * MIB // 10] * 2)
    assert rows[KIMI_STREAM].met is True


@pytest.mark.parametrize("fmt", ["chat", "messages"])
def test_chat_and_messages_keep_three_times_the_result(
    monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    rows = rows_for(monkeypatch, fmt, [MIB // 4, MIB // 4], [MIB, MIB])
    kimi = rows[KIMI_STREAM]
    assert (kimi.goal, kimi.ratio_of) == (GOALS["memory"], "peak / result size") == (3.0, "peak / result size")  # fmt: skip
    assert kimi.ratio.median == pytest.approx(2.0)
    assert kimi.met is True
    assert rows_for(monkeypatch, fmt, [MIB // 4], [2 * MIB])[KIMI_STREAM].met is False
