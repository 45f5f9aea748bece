"""The Responses accumulator: refusal and summary parts announced twice."""

from __future__ import annotations

from kimi_ext.responses.stream import ResponseAccumulator


def test_responses_refusal_and_summary_parts_announced_twice() -> None:
    acc = ResponseAccumulator()
    events = [
        {"type": "response.refusal.delta", "output_index": 0, "content_index": 0, "delta": "I can"},
        {"type": "response.refusal.done", "output_index": 0, "content_index": 0, "refusal": "I cannot."},
        {"type": "response.reasoning_summary_part.added", "output_index": 1, "summary_index": 0, "part": {"type": "summary_text", "text": ""}},
        {"type": "response.reasoning_summary_part.added", "output_index": 1, "summary_index": 0, "part": {"type": "summary_text", "text": "", "v": 2}},
        {"type": "response.reasoning_summary_text.delta", "output_index": 1, "summary_index": 0, "delta": "Short."},
    ]  # fmt: skip
    for event in events:
        acc.feed(None, event)
    output = acc.snapshot()["output"]
    assert output[0]["content"] == [{"type": "refusal", "refusal": "I cannot."}]
    assert output[1]["summary"] == [{"type": "summary_text", "text": "Short.", "v": 2}]
    assert acc.result(None).reasoning == "Short."
