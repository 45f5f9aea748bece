"""Results and stream events typed with the views ``make generate`` derives
(``kimi_raw.<format>.typeddicts``), as a user's type checker sees them: mypy --strict runs
(through ``mypy.api``) on small user files and the errors it reports are asserted line by
line.

Narrowing a result's block (``Message.content``), output item (``Response.output``), Chat
message and a stream event's ``data`` on ``"type"`` gives that member's fields; a misspelt or
mistyped field read on a narrowed block is flagged; an unknown block stays readable as a
mapping. At run time the typed values are the very dicts received (nothing copied), and the
views are not imported. mypy runs once for all the files (a cold run takes seconds)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import httpx
import pytest

from tests.support.mypy_run import assert_flagged_on, marked_line, strict_errors

# In parallel runs in one worker, which runs mypy over the case files once
# (tests/support/parallel.py).
pytestmark = pytest.mark.xdist_group("tests/typecheck/test_result_views.py")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
HEAD = """\
from collections.abc import Mapping
from typing import Any, assert_type
from kimi_ext import AsyncKimi, Kimi
from kimi_raw.messages.typeddicts import (
    is_known_content_block, is_known_content_block_delta, is_known_message_stream_event,
)
from kimi_raw.responses.typeddicts import (
    is_known_output_content_part, is_known_output_item, is_known_response_stream_event,
)
client = Kimi(api_key="sk-test")
def reply() -> Any:
    return client.messages.create(
        model="kimi-k3.1-pro", max_tokens=64, messages=[{"role": "user", "content": "hi"}]
    )
message = client.messages.create(
    model="kimi-k3.1-pro", max_tokens=64, messages=[{"role": "user", "content": "hi"}]
)
completion = client.chat.completions.create(
    model="kimi-k3.1-pro", messages=[{"role": "user", "content": "hi"}]
)
response = client.responses.create(model="kimi-k3.1-pro", input="hi")
"""

# name -> (code after HEAD, what the error on the line marked `# E` must mention or "").
# Each file holds one mistake, on the marked line; nothing else may be reported.
FLAGGED: dict[str, tuple[str, str]] = {
    "thinking_field_misspelt": (
        """
        for block in message.content:
            if is_known_content_block(block) and block["type"] == "thinking":
                print(block["thinkng"])  # E
        """,
        '"thinkng"',
    ),
    "thinking_signature_mistyped": (
        """
        for block in message.content:
            if is_known_content_block(block) and block["type"] == "thinking":
                signature: int = block.get("signature", 0)  # E
        """,
        "",
    ),
    "tool_use_field_misspelt": (
        """
        for block in message.content:
            if is_known_content_block(block) and block["type"] == "tool_use":
                print(block["inputs"])  # E
        """,
        '"inputs"',
    ),
    "tool_use_input_mistyped": (
        """
        for block in message.content:
            if is_known_content_block(block) and block["type"] == "tool_use":
                arguments: str = block["input"]  # E
        """,
        "dict[str, Any]",
    ),
    "text_field_read_on_another_block": (
        """
        for block in message.content:
            if is_known_content_block(block) and block["type"] == "tool_use":
                print(block["text"])  # E
        """,
        '"text"',
    ),
    "natural_narrowing_field_misspelt": (
        """
        for b in message.content:
            if b["type"] == "text":
                print(b["txt"])  # E
        """,
        '"txt"',
    ),
    "natural_narrowing_other_member_field": (
        """
        for b in message.content:
            if b["type"] == "thinking":
                t: str = b["text"]  # E
        """,
        '"text"',
    ),
    "natural_item_field_misspelt": (
        """
        for item in response.output:
            if item["type"] == "function_call":
                print(item["argument"])  # E
        """,
        '"argument"',
    ),
    "natural_event_field_misspelt": (
        """
        with client.messages.stream(model="kimi-k3.1-pro", max_tokens=64, messages=[]) as stream:
            for event in stream:
                data = event.data
                if not isinstance(data, str) and data["type"] == "content_block_delta":
                    delta = data["delta"]
                    if delta["type"] == "text_delta":
                        print(delta["txt"])  # E
        """,
        '"txt"',
    ),
    "unknown_block_field_mistyped": (
        """
        from kimi_raw.messages.typeddicts import is_unknown_content_block
        for b in message.content:
            if is_unknown_content_block(b):
                kind: int = b["type"]  # E
        """,
        "",
    ),
    "unnarrowed_content_field": (
        """
        print(message.content[0]["text"])  # E
        """,
        '"text"',
    ),
    "chat_message_field_misspelt": (
        """
        print(completion.message["reasoning_contnt"])  # E
        """,
        '"reasoning_contnt"',
    ),
    "chat_choice_field_misspelt": (
        """
        print(completion.choices[0]["finish_reasn"])  # E
        """,
        '"finish_reasn"',
    ),
    "responses_item_field_misspelt": (
        """
        for item in response.output:
            if is_known_output_item(item) and item["type"] == "function_call":
                print(item["argument"])  # E
        """,
        '"argument"',
    ),
    "stream_event_unnarrowed": (
        """
        with client.messages.stream(model="kimi-k3.1-pro", max_tokens=64, messages=[]) as stream:
            for event in stream:
                print(event.data["type"])  # E
        """,
        "",
    ),
    "stream_delta_field_misspelt": (
        """
        with client.messages.stream(model="kimi-k3.1-pro", max_tokens=64, messages=[]) as stream:
            for event in stream:
                data = event.data
                if isinstance(data, str) or not is_known_message_stream_event(data):
                    continue
                if data["type"] == "content_block_delta":
                    delta = data["delta"]
                    if is_known_content_block_delta(delta) and delta["type"] == "text_delta":
                        print(delta["txt"])  # E
        """,
        '"txt"',
    ),
    "chat_chunk_field_misspelt": (
        """
        with client.chat.completions.stream(model="kimi-k3.1-pro", messages=[]) as stream:
            for event in stream:
                if not isinstance(event.data, str):
                    for choice in event.data["choices"]:
                        print(choice["delta"]["contnt"])  # E
        """,
        '"contnt"',
    ),
    "resumed_stream_event_unnarrowed": (
        """
        import kimi_ext
        with kimi_ext.resume(client, completion, stream=True, messages=[]) as more:
            for event in more:
                print(event.data["choices"])  # E
        """,
        "",
    ),
    "responses_event_field_misspelt": (
        """
        async def main() -> None:
            async with AsyncKimi().responses.stream(model="kimi-k3.1-pro", input="hi") as s:
                async for event in s:
                    data = event.data
                    if isinstance(data, str) or not is_known_response_stream_event(data):
                        continue
                    if data["type"] == "response.output_text.delta":
                        print(data["delt"])  # E
        """,
        '"delt"',
    ),
}

ACCEPTED: dict[str, str] = {
    "result_blocks_narrow_on_type": """
        def blocks() -> list[str]:
            out: list[str] = []
            for block in message.content:
                if not is_known_content_block(block):
                    # An unknown block type stays readable, as a mapping.
                    view: Mapping[str, object] = block
                    out.extend(f"{key}={value!r}" for key, value in block.items())
                    out.append(str(block.get("type")) + str(len(view)))
                    continue
                if block["type"] == "thinking":
                    assert_type(block["thinking"], str)
                    signature = block.get("signature")
                    assert_type(signature, str | None)
                    out.append(block["thinking"] + (signature or ""))
                elif block["type"] == "tool_use":
                    assert_type(block["input"], dict[str, Any])
                    out.append(block["id"] + block["name"])
                elif block["type"] == "text":
                    out.append(block["text"])
            return out
        """,
    "natural_narrowing_of_blocks": """
        # The most natural typed code: no guard first (issue 30).
        def natural() -> str:
            shown = ""
            for b in message.content:
                if b["type"] == "text":
                    t: str = b["text"]
                    shown += t
                elif b["type"] == "thinking":
                    assert_type(b["thinking"], str)
                elif b["type"] == "tool_use":
                    assert_type(b["input"], dict[str, Any])
            return shown
        """,
    "natural_narrowing_of_items_and_parts": """
        def natural() -> list[str]:
            out: list[str] = []
            for item in response.output:
                if item["type"] == "function_call":
                    arguments: str = item["arguments"]
                    out.append(item["name"] + arguments)
                elif item["type"] == "message":
                    for part in item["content"]:
                        if part["type"] == "output_text":
                            out.append(part["text"])
                elif item["type"] == "reasoning":
                    for summary in item.get("summary", []):
                        if summary["type"] == "summary_text":
                            out.append(summary["text"])
            return out
        """,
    "natural_narrowing_of_stream_events": """
        def messages_text() -> str:
            out = ""
            with client.messages.stream(model="kimi-k3.1-pro", max_tokens=64, messages=[]) as s:
                for event in s:
                    data = event.data
                    if isinstance(data, str):  # a "malformed" event: the text received
                        continue
                    if data["type"] == "content_block_delta":
                        delta = data["delta"]
                        if delta["type"] == "text_delta":
                            out += delta["text"]
                    elif data["type"] == "content_block_start":
                        block = data["content_block"]
                        if block["type"] == "tool_use":
                            out += block["name"]
            return out
        async def responses_text() -> str:
            out = ""
            async with AsyncKimi().responses.stream(model="kimi-k3.1-pro", input="hi") as s:
                async for event in s:
                    data = event.data
                    if isinstance(data, str):
                        continue
                    if data["type"] == "response.output_text.delta":
                        out += data["delta"]
                    elif data["type"] == "response.output_item.done":
                        item = data["item"]
                        if item["type"] == "function_call":
                            out += item["arguments"]
            return out
        """,
    "natural_chat_tool_calls": """
        def calls() -> list[str]:
            out: list[str] = []
            message = completion.message
            text: str = message.get("content") or ""
            for call in message.get("tool_calls") or []:
                if call["type"] == "function":
                    name: str = call["function"]["name"]
                    out.append(name + call["function"]["arguments"] + text)
            return out
        """,
    "unknown_blocks_stay_readable_typed": """
        from kimi_raw.messages.typeddicts import UnknownBlock, is_unknown_content_block
        from kimi_raw.responses.typeddicts import UnknownItem, is_unknown_output_item
        def unknown() -> list[str]:
            out: list[str] = []
            for b in message.content:
                if is_unknown_content_block(b):
                    kept: UnknownBlock = b
                    kind: str = kept["type"]  # any string the spec does not name
                    out.append(kind + repr(b.get("data")) + repr(dict(b)))
                elif b["type"] == "text":
                    out.append(b["text"])
            for item in response.output:
                if is_unknown_output_item(item):
                    seen: UnknownItem = item
                    out.append(str(seen.get("type")))
            return out
        """,
    "chat_message_and_choices": """
        def read() -> str:
            content = completion.message.get("content")
            assert_type(content, str | None)
            for call in completion.message.get("tool_calls") or []:
                print(call.get("id"))
            reason = completion.choices[0].get("finish_reason") if completion.choices else None
            assert_type(reason, str | None)
            return (content or "") + (reason or "")
        """,
    "responses_items_narrow_on_type": """
        def read() -> list[str]:
            out: list[str] = []
            for item in response.output:
                if not is_known_output_item(item):
                    out.append(str(item.get("type")))
                    continue
                match item["type"]:
                    case "function_call":
                        assert_type(item["arguments"], str)
                        out.append(item["name"] + item["arguments"])
                    case "message":
                        for part in item["content"]:
                            if is_known_output_content_part(part) and part["type"] == "output_text":
                                out.append(part["text"])
                    case _:
                        pass
            return out
        """,
    "stream_events_narrow_on_type": """
        def messages_text() -> str:
            out = ""
            with client.messages.stream(model="kimi-k3.1-pro", max_tokens=64, messages=[]) as stream:
                for event in stream:
                    data = event.data
                    if isinstance(data, str):  # a "malformed" event: the text received
                        continue
                    if not is_known_message_stream_event(data):
                        out += str(data.get("type"))  # an unknown event, still readable
                    elif data["type"] == "content_block_start":
                        block = data["content_block"]
                        if is_known_content_block(block) and block["type"] == "tool_use":
                            out += block["name"]
                    elif data["type"] == "content_block_delta":
                        delta = data["delta"]
                        if is_known_content_block_delta(delta):
                            if delta["type"] == "text_delta":
                                out += delta["text"]
                            elif delta["type"] == "thinking_delta":
                                out += delta["thinking"]
                final = stream.get_final_message()
                out += "".join(b.get("type", "") for b in final.content)
            return out
        def chat_text() -> str:
            out = ""
            with client.chat.completions.stream(model="kimi-k3.1-pro", messages=[]) as stream:
                for event in stream:
                    if isinstance(event.data, str):
                        continue
                    for choice in event.data["choices"]:
                        out += choice.get("delta", {}).get("content") or ""
            return out
        async def responses_text() -> str:
            out = ""
            async with AsyncKimi().responses.stream(model="kimi-k3.1-pro", input="hi") as s:
                async for event in s:
                    data = event.data
                    if isinstance(data, str) or not is_known_response_stream_event(data):
                        continue
                    if data["type"] == "response.output_text.delta":
                        out += data["delta"]
                    elif data["type"] == "response.output_item.done":
                        item = data["item"]
                        if is_known_output_item(item) and item["type"] == "function_call":
                            out += item["arguments"]
            return out
        """,
    "resumed_stream_events": """
        import kimi_ext
        from kimi_raw.messages.typeddicts import MessageStreamEvent
        def resumed() -> None:
            ask: list[dict[str, Any]] = [{"role": "user", "content": "hi"}]
            with kimi_ext.resume(client, message, stream=True, messages=ask) as more:
                for event in more:
                    if not isinstance(event.data, str):
                        assert_type(event.data, MessageStreamEvent)
        """,
    "untyped_code_still_passes": """
        # Code written before the views (no narrowing, Any) is not disturbed.
        r = reply()
        print(r.content[0]["text"], r.to_dict()["content"])
        block: dict[str, Any] = message.to_dict()["content"][0]
        print(block["whatever"])
        """,
}


def _readme_example() -> str:
    """The docs' example of the views (docs/formats.md, Types), on its ``msg``: it
    type-checks."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "formats.md").read_text("utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    (block,) = [b for b in blocks if "is_unknown_content_block" in b]
    return "msg = message\n" + block


ACCEPTED["readme_example"] = _readme_example()


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[int, str]]]:
    """mypy --strict over every case file at once: file stem -> [(line, message)]."""
    root = tmp_path_factory.mktemp("user_files")
    sources = {name: HEAD + textwrap.dedent(code) for name, (code, _) in FLAGGED.items()}
    sources |= {name: HEAD + textwrap.dedent(code) for name, code in ACCEPTED.items()}
    return strict_errors(root, sources)


def _marked_line(code: str) -> int:
    return marked_line(HEAD + textwrap.dedent(code))


@pytest.mark.parametrize("name", list(FLAGGED))
def test_a_misspelt_or_mistyped_field_read_is_flagged_on_its_line(
    name: str, reported: dict[str, list[tuple[int, str]]]
) -> None:
    code, mentions = FLAGGED[name]
    assert_flagged_on(reported[name], _marked_line(code), mentions)


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_narrowing_results_and_events_gives_their_fields(
    name: str, reported: dict[str, list[tuple[int, str]]]
) -> None:
    assert reported[name] == []


def test_the_typed_values_are_the_dicts_received() -> None:
    """Typing only: ``content``, ``output``, ``choices`` and ``message`` are the objects in
    the JSON received (unknown block types and fields kept), not copies."""
    from kimi_ext.chat.result import ChatCompletion
    from kimi_ext.messages.result import Message
    from kimi_ext.responses.result import Response

    data = json.loads((FIXTURES / "messages" / "response_unknown_fields.json").read_text("utf-8"))
    message = Message(data)
    assert message.content is data["content"]
    assert {"container_upload", "redacted_thinking"} <= {b["type"] for b in message.content}

    data = json.loads((FIXTURES / "responses" / "response_unknown_fields.json").read_text("utf-8"))
    response = Response(data)
    assert response.output is data["output"]

    data = json.loads((FIXTURES / "chat" / "response_unknown_fields.json").read_text("utf-8"))
    completion = ChatCompletion(data)
    assert completion.choices is data["choices"]
    assert completion.message is data["choices"][0]["message"]
    assert ChatCompletion({}).message == {} and Message({}).content == []


def test_a_stream_event_data_is_the_object_decoded() -> None:
    """Each event's ``data`` is the JSON object the accumulator was fed (unknown events
    too), and a ``"malformed"`` event's is the text received."""
    from kimi_ext.messages.stream import MessageStream

    body = (
        b'event: message_start\ndata: {"type": "message_start", "message": {"id": "m",'
        b' "type": "message", "role": "assistant", "content": []}}\n\n'
        b'data: {"type": "future_event", "x": [1]}\n\n'
        b"data: {not json\n\n"
        b'data: {"type": "message_stop"}\n\n'
    )
    response = httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})
    events = list(MessageStream(response, secret=None))
    assert [e.type for e in events] == [
        "message_start",
        "future_event",
        "malformed",
        "message_stop",
    ]
    assert events[1].data == {"type": "future_event", "x": [1]}
    assert events[2].data == "{not json"


def test_the_views_are_not_imported_at_run_time() -> None:
    """The views exist for type checkers: using results and streams does not import them
    (the ``startup`` benchmark's import time is unchanged)."""
    code = textwrap.dedent(
        """
        import sys
        import kimi_ext
        kimi_ext.Kimi(api_key="sk-test")
        from kimi_ext.chat.stream import ChatCompletionStream
        from kimi_ext.messages.stream import MessageStream
        from kimi_ext.responses.stream import ResponseStream
        from kimi_ext.messages.result import Message
        Message({"content": [{"type": "text", "text": "hi"}]}).content
        print(sorted(m for m in sys.modules if m.endswith(".typeddicts")))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
