"""``make demo`` runs offline and shows every step working."""

from __future__ import annotations

import pytest

from kimi_ext import demo


def test_demo_runs_offline(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("KIMI_API_KEY", raising=False)
    assert demo.main([]) == 0
    out = capsys.readouterr().out
    assert "offline stand-in" in out
    assert "(thinking) The user asks about spring in Kyoto" in out
    assert "thinking signed: True" in out
    assert "tool call functions.get_weather:0: get_weather" in out
    assert "rounds=3" in out
    assert "CityFacts(city='Lyon', country='France', population_millions=0.52)" in out
    second_turn = out.split("And what should I eat there?")[1]
    assert "(cached 0," not in second_turn.splitlines()[2]  # the second turn hit the cache
    assert "resumed: Day one: walk the Alfama at dawn" in out
    assert "Moorish Castle." in out
    assert out.rstrip().endswith("done.")


def test_live_demo_needs_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KIMI_API_KEY", raising=False)
    assert demo.main(["--live"]) == 2
