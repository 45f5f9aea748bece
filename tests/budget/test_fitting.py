"""kimi_ext.budget: requests that fit the context window, in the three formats, sync and
async. An input sure to exceed the window is refused before sending; an output limit of
"auto" becomes the room left, never less than the floor."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import kimi_ext
from kimi_ext import AsyncKimi, Kimi, RequestValidationError
from kimi_ext.budget import AUTO_OUTPUT_FLOOR, ESTIMATE_MARGIN, context_window
from kimi_ext.testing import KimiStandIn, Reply
from tests.support.budget import FORMATS, new_history, request, resource, result_of

WINDOW = 1_048_576
LIMIT_FIELDS = {
    "chat": ("max_completion_tokens", "max_tokens"),
    "messages": ("max_tokens",),
    "responses": ("max_output_tokens",),
}
CASES = [(fmt, name) for fmt in FORMATS for name in LIMIT_FIELDS[fmt]]


@pytest.fixture(scope="module")
def standin() -> Iterator[KimiStandIn]:
    with KimiStandIn() as server:
        yield server


@pytest.fixture
def kimi(standin: KimiStandIn) -> Iterator[Kimi]:
    with Kimi(api_key=standin.api_key, base_url=standin.base_url) as client:
        yield client


def reported(fmt: str, input_tokens: int, output_tokens: int = 1000) -> Any:
    """A history whose last turn reported ``input_tokens``, and a question after it."""
    history = new_history(fmt)
    history.add_user("Summarize the log.")
    history.add(result_of(fmt, "It is long.", input_tokens, output_tokens))
    history.add_user("And the errors?")
    return history


def test_the_window_comes_from_the_spec() -> None:
    for fmt in FORMATS:
        assert context_window(fmt) == WINDOW
        assert kimi_ext.formats.format_named(fmt).contract.context_window == WINDOW


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_input_sure_to_exceed_the_window_is_refused_before_sending(
    kimi: Kimi, standin: KimiStandIn, fmt: str
) -> None:
    history = reported(fmt, WINDOW - 500, 2000)
    sent = len(standin.requests)
    field = "input" if fmt == "responses" else "messages"
    with pytest.raises(RequestValidationError) as caught:
        resource(kimi, fmt).create(**request(fmt, history))
    error = caught.value
    assert error.field == field
    text = str(error)
    assert f"{WINDOW - 500 + 2000:,}" in text and f"{WINDOW:,}-token context window" in text
    assert "shorten the history" in text
    assert isinstance(error, kimi_ext.KimiError)
    assert len(standin.requests) == sent
    # Under the window it goes (the reported input alone decides: nothing estimated).
    standin.queue(Reply(text="Two errors."))
    resource(kimi, fmt).create(**request(fmt, reported(fmt, 100_000)))
    assert len(standin.requests) == sent + 1


@pytest.mark.parametrize(("fmt", "name"), CASES)
def test_auto_asks_for_the_room_left_in_the_window(
    kimi: Kimi, standin: KimiStandIn, fmt: str, name: str
) -> None:
    history = reported(fmt, 900_000, 3000)
    params = request(fmt, history)
    params.pop("max_tokens", None)
    params[name] = "auto"
    count = resource(kimi, fmt).count_tokens(**params)
    standin.queue(Reply(text="Two errors."))
    resource(kimi, fmt).create(**params)
    sent = standin.last_request.json[name]
    expected = WINDOW - count.anchored - int(count.estimated * (1 + ESTIMATE_MARGIN) + 0.999)
    assert sent == expected
    assert count.input_tokens + sent <= WINDOW
    assert params[name] == "auto"  # the caller's arguments are not changed


@pytest.mark.parametrize("fmt", FORMATS)
def test_auto_on_a_short_conversation_is_capped_at_the_fields_maximum(
    kimi: Kimi, standin: KimiStandIn, fmt: str
) -> None:
    name = LIMIT_FIELDS[fmt][0]
    history = new_history(fmt)
    history.add_user("Hi")
    params = {**request(fmt, history), name: "auto"}
    standin.queue(Reply(text="Hello."))
    resource(kimi, fmt).create(**params)
    sent = standin.last_request.json[name]
    count = resource(kimi, fmt).count_tokens(**params)
    assert isinstance(sent, int) and WINDOW - 2 * count.input_tokens <= sent < WINDOW


@pytest.mark.parametrize("fmt", FORMATS)
def test_auto_below_the_floor_is_refused(kimi: Kimi, standin: KimiStandIn, fmt: str) -> None:
    name = LIMIT_FIELDS[fmt][0]
    history = reported(fmt, WINDOW - AUTO_OUTPUT_FLOOR + 1000, 10)
    sent = len(standin.requests)
    with pytest.raises(RequestValidationError) as caught:
        resource(kimi, fmt).create(**{**request(fmt, history), name: "auto"})
    assert caught.value.field == name
    assert f"{AUTO_OUTPUT_FLOOR:,}" in str(caught.value) and "visible answer" in str(caught.value)
    assert len(standin.requests) == sent
    # A number is sent as given: the service shrinks it to the room left.
    standin.queue(Reply(text="Two errors."))
    resource(kimi, fmt).create(**{**request(fmt, history), name: 500})
    assert standin.last_request.json[name] == 500


@pytest.mark.parametrize("fmt", FORMATS)
def test_any_other_string_is_refused_as_before(kimi: Kimi, fmt: str) -> None:
    name = LIMIT_FIELDS[fmt][0]
    history = new_history(fmt)
    history.add_user("Hi")
    with pytest.raises(RequestValidationError) as caught:
        resource(kimi, fmt).create(**{**request(fmt, history), name: "AUTO"})
    assert caught.value.field == name


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_clients_fit_and_refuse_the_same(standin: KimiStandIn, fmt: str) -> None:
    name = LIMIT_FIELDS[fmt][0]
    async with AsyncKimi(api_key=standin.api_key, base_url=standin.base_url) as client:
        with pytest.raises(RequestValidationError, match="context window"):
            await resource(client, fmt).create(**request(fmt, reported(fmt, WINDOW)))
        history = reported(fmt, 500_000)
        standin.queue(Reply(text="Two errors."))
        await resource(client, fmt).create(**{**request(fmt, history), name: "auto"})
        sent = standin.last_request.json[name]
        count = await resource(client, fmt).count_tokens(**request(fmt, history))
        assert WINDOW - 600_000 < sent <= WINDOW - count.input_tokens
