"""Property: every response schema round-trips what the service may send, verbatim.

Recorded payloads (tests/fixtures) are mutated at random: unknown fields at every level,
enum-like strings (stop_reason, finish_reason, status) replaced by random ones, and objects
of new types inserted or swapped in where the format's models have a catch-all member.
``from_dict(payload).to_dict()`` must give the payload back exactly, must not touch its
input, and every new-type object must land in a catch-all (``Unknown*``) model.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kimi_ext.chat.stream import ChatStreamEvent
from kimi_ext.messages.stream import MessagesStreamEvent
from kimi_ext.responses.stream import ResponsesStreamEvent
from tests.support.robustness import (
    RESULT,
    canonical,
    catch_all_sites,
    model_class,
    model_objects,
    mutated,
    recorded_payloads,
)

CASES = recorded_payloads()
EVENT = {
    "chat": ChatStreamEvent,
    "messages": MessagesStreamEvent,
    "responses": ResponsesStreamEvent,
}
SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def schemas_of(fmt: str, kind: str) -> list[tuple[str, str, str, dict[str, Any]]]:
    return [c for c in CASES if c[0] == fmt and c[1] == kind]


def kept_as_unknown(obj: Any, block: dict[str, Any]) -> bool:
    """In a catch-all model, or (Chat) in a ToolCall, whose ``type`` is an open string."""
    if type(obj).__name__.startswith("Unknown"):
        return True
    return type(obj).__name__ == "ToolCall" and obj.type_ == block["type"]


def check_round_trip(fmt: str, kind: str, payload: dict[str, Any], inserted: list[Any]) -> None:
    before = copy.deepcopy(payload)
    model = model_class(fmt, kind, payload)
    parsed = model.from_dict(payload)
    assert canonical(payload) == canonical(before), "from_dict changed its input"
    assert canonical(parsed.to_dict()) == canonical(payload)
    assert canonical(model.from_dict(parsed.to_dict()).to_dict()) == canonical(payload)
    landed = {id(o): o for o in model_objects(parsed)}.values()
    for block in inserted:
        holders = [o for o in landed if canonical(o.to_dict()) == canonical(block)]
        assert holders, f"{block!r} is not a model of its own"
        assert any(kept_as_unknown(o, block) for o in holders), (
            block,
            [type(o).__name__ for o in holders],
        )
    # The way applications reach the models gives the same answer.
    if kind == "response":
        assert canonical(RESULT[fmt](payload).parsed.to_dict()) == canonical(payload)
    else:
        event = EVENT[fmt]("chunk" if fmt == "chat" else str(payload.get("type")), payload)
        parsed = event.parsed  # unknown event types: the dict as received
        assert canonical(parsed if parsed is payload else parsed.to_dict()) == canonical(payload)


def test_the_recordings_cover_every_response_schema() -> None:
    kinds = {(fmt, kind) for fmt, kind, _, _ in CASES}
    assert kinds == {
        (f, k) for f in ("chat", "messages", "responses") for k in ("response", "event")
    }
    for fmt in ("messages", "responses"):
        names = {
            model_class(fmt, "event", p).__name__
            for f, k, _, p in CASES
            if f == fmt and k == "event"
        }
        stream_models = (MessagesStreamEvent if fmt == "messages" else ResponsesStreamEvent)._models
        assert set(stream_models.values()) - {"ErrorEvent"} <= names, fmt
        assert "UnknownEvent" in names or fmt == "responses"


def test_every_site_with_a_catch_all_is_reached() -> None:
    """The mutation really inserts new types where the models promise a catch-all."""
    seen: dict[str, set[str]] = {"chat": set(), "messages": set(), "responses": set()}
    for fmt, _, _, payload in CASES:
        lists, objects = catch_all_sites(fmt, payload)
        seen[fmt].update(str(p[-1]) for p in lists + objects)
    assert seen["chat"] >= {"tool_calls"}
    assert seen["messages"] >= {"content", "content_block", "delta"}
    assert seen["responses"] >= {
        "output",
        "content",
        "summary",
        "annotations",
        "tools",
        "item",
        "part",
    }


@pytest.mark.parametrize(
    ("fmt", "kind"),
    [(f, k) for f in ("chat", "messages", "responses") for k in ("response", "event")],
)
@SETTINGS
@given(data=st.data())
def test_mutated_payloads_round_trip_verbatim(fmt: str, kind: str, data: st.DataObject) -> None:
    _, _, label, payload = data.draw(st.sampled_from(schemas_of(fmt, kind)), label="recording")
    changed, inserted = data.draw(mutated(fmt, payload), label=f"mutation of {label}")
    check_round_trip(fmt, kind, changed, inserted)


@pytest.mark.parametrize(("fmt", "kind", "label", "payload"), CASES, ids=[c[2] for c in CASES])
def test_recorded_payloads_round_trip_unchanged(
    fmt: str, kind: str, label: str, payload: dict[str, Any]
) -> None:
    check_round_trip(fmt, kind, copy.deepcopy(payload), [])
