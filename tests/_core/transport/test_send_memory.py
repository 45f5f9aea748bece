"""A large request is held once: when the body has been encoded, the JSON text it came from
is let go before anything else happens (issue 12 item 6).

Measured against the benchmark's loopback server (200-turn, 2.5 MB history): while the text
stayed alive until ``prepare`` returned, every call took ~614 more minor page faults than
httpx's (about one fresh 2.5 MB region), and ``json.dumps`` of the very same list cost
~0.8 ms more (9.1 vs 8.3 ms); letting it go at once brought the faults to httpx's count.
"""

from __future__ import annotations

import tracemalloc
from typing import Any

import pytest

import kimi_ext._core.call.building as building
from kimi_ext.chat.format import CHAT


@pytest.fixture
def held_at_prepared(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Bytes allocated since tracing began, taken as the Prepared request is made."""
    seen: list[int] = []
    real = building.Prepared

    def spy(**fields: Any) -> Any:
        seen.append(tracemalloc.get_traced_memory()[0])
        return real(**fields)

    monkeypatch.setattr(building, "Prepared", spy)
    return seen


def test_the_json_text_is_freed_once_encoded(held_at_prepared: list[int]) -> None:
    text = "x" * (2 << 20)  # ASCII: the str and its UTF-8 bytes are the same size
    params = {
        "model": "kimi-k3.1-pro",
        "messages": [{"role": "user", "content": text}],
        "max_tokens": 16,
    }
    building.prepare(CHAT, {**params, "messages": [{"role": "user", "content": "hi"}]})
    held_at_prepared.clear()  # the first call loads the contract: not what is measured
    tracemalloc.start()
    try:
        prepared = building.prepare(CHAT, params)
    finally:
        tracemalloc.stop()
    size = len(prepared.content)
    assert size > 2 << 20
    (held,) = held_at_prepared
    # The encoded bytes (plus small change), not the bytes and the text (twice the size).
    assert size <= held < size * 1.25, (held, size)
