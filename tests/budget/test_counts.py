"""kimi_ext.budget: token counts before sending, in the three formats, sync and async.

Counts start from the usage a history recorded for its last received turn; only what was
added after it is estimated, and the work a count does grows with those messages only."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

import kimi_ext
from kimi_ext import (
    AsyncKimi,
    Kimi,
)
from kimi_ext.budget import CountKind, Estimator, Size, TokenCount, context_window
from kimi_ext.testing import KimiStandIn, Reply
from tests.support.budget import (
    FORMATS,
    MODEL,
    long_anchored_history,
    new_history,
    request,
    resource,
)


@pytest.fixture(scope="module")
def standin() -> Iterator[KimiStandIn]:
    with KimiStandIn() as server:
        yield server


@pytest.fixture
def kimi(standin: KimiStandIn) -> Iterator[Kimi]:
    with Kimi(api_key=standin.api_key, base_url=standin.base_url) as client:
        yield client


@dataclass(frozen=True)
class CountingEstimator(Estimator):
    """The default rule, counting the values it measures."""

    measured: list[Any] = field(default_factory=list, compare=False)

    def measure(self, value: Any) -> Size:
        self.measured.append(value)
        return super().measure(value)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_request_is_counted_before_sending_without_a_reported_turn(
    kimi: Kimi, standin: KimiStandIn, fmt: str
) -> None:
    sent_before = len(standin.requests)
    history = new_history(fmt)
    history.add_user("What is the capital of Portugal? " * 20)
    count = resource(kimi, fmt).count_tokens(**request(fmt, history))
    assert isinstance(count, TokenCount)
    assert count.kind is CountKind.ESTIMATED and not count.exact
    assert count.anchored == 0 and count.input_tokens == count.estimated > 150
    assert count.window == context_window(fmt) == 1_048_576
    assert count.remaining == count.window - count.input_tokens
    assert "estimated" in count.basis
    assert len(standin.requests) == sent_before  # offline: nothing was sent
    # A plain list counts the same as the history holding the same messages.
    plain = request(fmt, list(history))
    if fmt == "messages":
        plain["system"] = history.system
    elif fmt == "responses":
        plain["instructions"] = history.instructions
    assert resource(kimi, fmt).count_tokens(**plain).input_tokens == count.input_tokens


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_count_starts_from_the_reported_usage_of_the_last_turn(
    kimi: Kimi, standin: KimiStandIn, fmt: str
) -> None:
    history = new_history(fmt)
    history.add_user("Plan a day in Lisbon.")
    standin.queue(Reply(text="Walk by the river. " * 10, reasoning="A short plan. " * 5))
    result = resource(kimi, fmt).create(**request(fmt, history))
    history.add(result)
    history.add_user("And the evening?")
    count = history.count_tokens()
    assert count.kind is CountKind.ANCHORED
    assert count.anchored == result.usage.total_input
    assert count.lower_bound == result.usage.total_input + result.usage.output
    assert count.input_tokens >= count.lower_bound
    turn_items = len(result.output) if fmt == "responses" else 1
    assert count.estimated_messages == turn_items + 1  # the answer and the question after it
    assert str(result.usage.total_input) in count.basis.replace(",", "")
    # The resource counts the same request the same way.
    again = resource(kimi, fmt).count_tokens(**request(fmt, history))
    assert again.anchored == count.anchored and again.input_tokens == count.input_tokens
    standin.queue(Reply(text="Dinner in Alfama."))
    sent = resource(kimi, fmt).create(**request(fmt, history))
    assert abs(count.input_tokens - sent.usage.total_input) <= 0.05 * sent.usage.total_input


@pytest.mark.parametrize("fmt", FORMATS)
def test_only_the_messages_after_the_last_reported_turn_are_estimated(fmt: str) -> None:
    """The work of a count: the estimator measures the messages added since the last
    reported turn and the few reported turns it learns its ratio from, never the whole
    history, so a 2,000-turn history costs what a 200-turn one does."""
    measured = {}
    for turns in (200, 2000):
        history = long_anchored_history(fmt, turns)
        history.add_user("one more question")
        estimator = CountingEstimator()
        count = history.count_tokens(estimator=estimator)
        assert count.kind is CountKind.ANCHORED
        assert count.anchored == 50 + 60 * (turns - 1)
        measured[turns] = len(estimator.measured)
        # The anchored turn and the question after it, plus the turns it learned from.
        assert len(estimator.measured) <= 2 + 2 * kimi_ext.budget.LEARN_ANCHORS
    assert measured[200] == measured[2000]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_ratio_is_learned_from_the_conversation(fmt: str) -> None:
    # Each round (a question and an answer) was reported as 300 tokens: far more than the
    # default ratio says; the next message is estimated at the learned one.
    history = long_anchored_history(fmt, 12, per_turn=300)
    history.add_user("question 99: " + "word " * 10)
    count = history.count_tokens()
    assert "learned" in count.basis
    default = long_anchored_history(
        fmt, 1
    ).count_tokens()  # one reported turn: nothing to learn from
    assert count.chars_per_token < default.chars_per_token


@pytest.mark.parametrize("fmt", FORMATS)
def test_reported_usage_survives_saving_copying_and_prefix_slices(fmt: str) -> None:
    history = long_anchored_history(fmt, 5)
    history.add_user("next")
    count = history.count_tokens()
    saved = history.dumps()
    assert json.loads(saved)["version"] == 2
    loaded = type(history).loads(saved)
    assert loaded == history and loaded.dumps() == saved
    assert loaded.count_tokens() == count
    assert history.copy().count_tokens() == count
    assert history[: len(history)].count_tokens() == count
    # A slice from the middle no longer starts where the requests did: nothing is anchored.
    middle = history[2:]
    assert middle.count_tokens().kind is CountKind.ESTIMATED
    assert json.loads(middle.dumps())["version"] == 1  # no usage written: readable by v1
    # A save written before usage was recorded still loads (and is estimated).
    old = json.loads(saved)
    old["version"] = 1
    old["turns"] = [row[:5] for row in old["turns"]]
    assert type(history).loads(json.dumps(old)).count_tokens().kind is CountKind.ESTIMATED


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_damaged_saved_usage_is_refused_by_name(fmt: str) -> None:
    doc = json.loads(long_anchored_history(fmt, 2).dumps())
    doc["turns"][0][5] = ["many", 3]
    with pytest.raises(kimi_ext.HistoryError, match="usage must be"):
        type(new_history(fmt)).loads(json.dumps(doc))


@pytest.mark.parametrize("fmt", FORMATS)
def test_tools_and_images_are_counted(kimi: Kimi, fmt: str) -> None:
    history = new_history(fmt)
    history.add_user("Describe it.")
    bare = resource(kimi, fmt).count_tokens(**request(fmt, history)).input_tokens

    def describe(city: str, detail: int = 1) -> str:
        """Describe a city at some length.

        Args:
            city: the city's name, as its people write it.
            detail: how many paragraphs.
        """
        return city

    with_tools = resource(kimi, fmt).count_tokens(**request(fmt, history, tools=[describe]))
    assert with_tools.input_tokens > bare + 20
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 400  # ~136 KB of base64
    pictured = new_history(fmt)
    pictured.add_user("Describe it.", images=[png])
    count = resource(kimi, fmt).count_tokens(**request(fmt, pictured))
    media = kimi_ext.budget.MEDIA_TOKENS
    # One image at the per-image estimate, not its base64 text at 4 characters a token.
    assert media <= count.input_tokens - bare <= media + 40


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_clients_count_the_same(standin: KimiStandIn, fmt: str) -> None:
    async with AsyncKimi(api_key=standin.api_key, base_url=standin.base_url) as client:
        history = new_history(fmt)
        history.add_user("Plan a day in Lisbon.")
        standin.queue(Reply(text="Walk by the river."))
        result = await resource(client, fmt).create(**request(fmt, history))
        history.add(result)
        history.add_user("And then?")
        count = await resource(client, fmt).count_tokens(**request(fmt, history))
        assert count == history.count_tokens()
        assert count.anchored == result.usage.total_input


def test_estimator_defaults_and_a_custom_rule() -> None:
    estimator = Estimator()
    assert estimator.measure("abcd" * 10).text == 10
    assert estimator.measure("里斯本").text == 3  # one token per non-ASCII character
    halved = Estimator(ascii_chars_per_token=2.0)
    history = long_anchored_history("chat", 1)
    history.add_user("x" * 400)
    assert history.count_tokens(estimator=halved).input_tokens > history.count_tokens().input_tokens


def test_a_count_never_fails_on_what_create_would_refuse(kimi: Kimi) -> None:
    looped: list[Any] = []
    looped.append(looped)
    odd = [{"role": "user", "content": {1, 2}}, {"role": "user", "content": looped}]
    count = kimi.chat.completions.count_tokens(model=MODEL, messages=odd)
    assert count.kind is CountKind.ESTIMATED and count.input_tokens > 0
    with pytest.raises(kimi_ext.RequestValidationError):
        kimi.chat.completions.create(model=MODEL, messages=odd)
