"""``StreamEvent.parsed``: every event the spec names becomes its generated model; events
it does not name (and malformed ones) stay as they came."""

from __future__ import annotations

import json
from typing import Any

import pytest
from stream_helpers import open_sync


def ev(kind: str, **fields: Any) -> bytes:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **fields})}\n\n".encode()


def response(status: str) -> dict[str, Any]:
    return {
        "id": "r",
        "object": "response",
        "created_at": 1,
        "model": "kimi-k3.1-pro",
        "status": status,
        "output": [],
    }


def test_responses_events_the_spec_names_parse_to_their_models() -> None:
    models = pytest.importorskip("kimi_raw.responses.models")
    body = ev("response.queued", response=response("queued"))
    body += ev("response.refusal.delta", item_id="m", output_index=0, content_index=0, delta="No")
    body += ev("response.refusal.done", item_id="m", output_index=0, content_index=0, refusal="No")
    body += ev("response.custom_tool_call_input.delta", item_id="c", output_index=1, delta="x")
    body += ev("response.x_new_event", note="kept")
    body += ev("response.completed", response=response("completed"))
    events = list(open_sync("responses", [body]))
    names = {e.type: type(e.parsed).__name__ for e in events}
    assert names == {
        "response.queued": "ResponseQueuedEvent",
        "response.refusal.delta": "ResponseRefusalDeltaEvent",
        "response.refusal.done": "ResponseRefusalDoneEvent",
        "response.custom_tool_call_input.delta": "ResponseCustomToolCallInputDeltaEvent",
        "response.x_new_event": "dict",
        "response.completed": "ResponseCompletedEvent",
    }
    assert isinstance(events[1].parsed, models.ResponseRefusalDeltaEvent)
    assert events[1].parsed.delta == "No"
    assert events[4].parsed is events[4].data


def test_every_member_of_the_spec_union_is_mapped_and_the_catch_all_is_not() -> None:
    from kimi_ext._core.streaming import event_models

    for fmt, union_size in (("messages", 8), ("responses", 25)):
        mapping = event_models(fmt)
        assert len(mapping) == union_size
        assert "UnknownEvent" not in mapping.values()
        assert mapping["error"] == "ErrorEvent"
    assert event_models("messages")["ping"] == "PingEvent"
    assert event_models("responses")["response.reasoning_summary_part.added"] == (
        "ResponseReasoningSummaryPartAddedEvent"
    )
    assert event_models("chat") == {"chunk": "ChatCompletionChunk"}


def test_an_event_without_a_type_and_a_malformed_one_stay_raw() -> None:
    body = b'event: x\ndata: {"note": 1}\n\n' + b"data: not json\n\n"
    body += ev("message_stop")
    events = list(open_sync("messages", [body]))
    assert [e.type for e in events] == ["x", "malformed", "message_stop"]
    assert events[0].parsed == {"note": 1}
    assert events[1].parsed == "not json"
    assert type(events[2].parsed).__name__ == "MessageStopEvent"
