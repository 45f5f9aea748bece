"""The TypedDicts ``make generate`` derives from the specs (scripts/derive_types.py), as a
user's type checker sees them: mypy --strict runs (through ``mypy.api``) on small user files
and the errors it reports are asserted line by line.

A misspelt or mistyped nested key (a message role, a content block field, a tool's
``input_schema``, a tool_choice) is flagged; every request fixture, a history object and
plain dicts and lists built at run time pass; narrowing a received block on its ``"type"``
gives that block's fields. mypy runs once for all the files (a cold run takes seconds)."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.support.mypy_run import assert_flagged_on, marked_line, strict_errors
from tests.support.paths import FIXTURES, ROOT

# In parallel runs in one worker, which runs mypy over the case files once
# (tests/support/parallel.py).
pytestmark = pytest.mark.xdist_group("tests/typecheck/test_derived_types.py")

REQUEST_TYPES = {
    "chat": "CreateChatCompletionRequestParam",
    "messages": "CreateMessageRequestParam",
    "responses": "CreateResponseRequestParam",
}
HEAD = """\
from typing import Any
from kimi_ext import Kimi
client = Kimi(api_key="sk-test")
"""
M = 'model="kimi-k3.1-pro", max_tokens=64'

# name -> (code after HEAD, what the error on the line marked `# E` must mention or "").
# Each file holds one mistake, on the marked line; nothing else may be reported.
FLAGGED: dict[str, tuple[str, str]] = {
    "messages_role_misspelt": (
        f'client.messages.create({M}, messages=[{{"role": "usr", "content": "hi"}}])  # E',
        "",
    ),
    "messages_role_key_misspelt": (
        f'client.messages.create({M}, messages=[{{"rle": "user", "content": "hi"}}])  # E',
        "",
    ),
    "messages_block_field_misspelt": (
        f"client.messages.create({M}, messages=[{{'role': 'user', "
        "'content': [{'type': 'text', 'txt': 'hi'}]}])  # E",
        "",
    ),
    "messages_block_field_mistyped": (
        f"client.messages.create({M}, messages=[{{'role': 'user', "
        "'content': [{'type': 'text', 'text': 3}]}])  # E",
        "",
    ),
    "messages_tool_input_schema_misspelt": (
        f"client.messages.create({M}, messages=[{{'role': 'user', 'content': 'hi'}}], "
        "tools=[{'name': 'f', 'input_shema': {'type': 'object'}}])  # E",
        "",
    ),
    "messages_tool_input_schema_mistyped": (
        f"client.messages.create({M}, messages=[{{'role': 'user', 'content': 'hi'}}], "
        "tools=[{'name': 'f', 'input_schema': 'object'}])  # E",
        "",
    ),
    "messages_tool_choice_misspelt": (
        f"client.messages.create({M}, messages=[{{'role': 'user', 'content': 'hi'}}], "
        "tool_choice={'type': 'auot'})  # E",
        "",
    ),
    "output_limit_other_string": (
        'client.messages.create(model="kimi-k3.1-pro", max_tokens="max", messages=[])  # E',
        "",
    ),
    "messages_top_level_key_misspelt": (
        'client.messages.create(model="kimi-k3.1-pro", max_token=64, '
        "messages=[{'role': 'user', 'content': 'hi'}])  # E",
        '"max_token"',
    ),
    "chat_role_misspelt": (
        'client.chat.completions.create(model="kimi-k3.1-pro", '
        'messages=[{"role": "usr", "content": "hi"}])  # E',
        "",
    ),
    "chat_image_url_key_misspelt": (
        'client.chat.completions.create(model="kimi-k3.1-pro", messages=[{"role": "user", '
        '"content": [{"type": "image_url", "image_url": {"uri": "ms://f"}}]}])  # E',
        "",
    ),
    "chat_tool_choice_misspelt": (
        'client.chat.completions.create(model="kimi-k3.1-pro", '
        'messages=[{"role": "user", "content": "hi"}], tool_choice="requird")  # E',
        "",
    ),
    "responses_part_type_misspelt": (
        'client.responses.create(model="kimi-k3.1-pro", input=[{"type": "message", '
        '"role": "user", "content": [{"type": "input_txt", "text": "hi"}]}])  # E',
        "",
    ),
    # Annotated with its TypedDict, a literal gets mypy's own wording, naming the key.
    "annotated_message_role": (
        "from kimi_ext.messages.params import MessageParam\n"
        'turn: MessageParam = {"role": "usr", "content": "hi"}  # E',
        '"role"',
    ),
    "annotated_block_key": (
        "from kimi_raw.messages.typeddicts import TextBlockParam\n"
        'block: TextBlockParam = {"type": "text", "txt": "hi"}  # E',
        '"txt"',
    ),
    "annotated_tool_input_schema": (
        "from kimi_raw.messages.typeddicts import CustomToolParam\n"
        'tool: CustomToolParam = {"name": "f", "input_shema": {}}  # E',
        '"input_shema"',
    ),
    "unnarrowed_block_field": (
        "from kimi_raw.messages.typeddicts import ContentBlock\n"
        "def text(block: ContentBlock) -> str:\n"
        '    return block["text"]  # E',
        '"text"',
    ),
}

ACCEPTED: dict[str, str] = {
    "valid_nested_calls": f"""
        import json
        from kimi_ext import ChatHistory, MessagesHistory, ResponsesHistory
        def get_weather(city: str) -> str:
            return city
        client.messages.create(
            {M}, effort="low", system=[{{"type": "text", "text": "Be terse."}}],
            messages=[
                {{"role": "user", "content": [
                    {{"type": "text", "text": "hi"}},
                    {{"type": "image", "source": {{"type": "url", "url": "ms://f"}}}},
                ]}},
                {{"role": "assistant", "content": [
                    {{"type": "thinking", "thinking": "t", "signature": "s"}},
                    {{"type": "tool_use", "id": "a", "name": "f", "input": {{"x": 1}}}},
                ]}},
                {{"role": "user", "content": [
                    {{"type": "tool_result", "tool_use_id": "a", "content": "ok"}},
                ]}},
            ],
            tools=[get_weather, {{"name": "f", "input_schema": {{"type": "object"}}}},
                   {{"type": "web_search_20250305", "name": "web_search"}}],
            tool_choice={{"type": "auto"}}, timeout=5.0,
        )
        client.chat.completions.create(
            model="kimi-k3.1-pro", reasoning_effort="high", tool_choice="auto",
            messages=[{{"role": "system", "content": "Be terse."}},
                      {{"role": "user", "content": [{{"type": "text", "text": "hi"}}]}}],
            tools=[{{"type": "function", "function": {{"name": "f", "parameters": {{}}}}}}],
        )
        client.responses.create(
            model="kimi-k3.1-pro", instructions="Be terse.",
            input=[{{"type": "message", "role": "user",
                     "content": [{{"type": "input_text", "text": "hi"}}]}}],
        )
        client.responses.create(model="kimi-k3.1-pro", input="hi")
        history = MessagesHistory(system="Be terse.")
        history.add_user("hi")
        client.messages.create({M}, messages=history, system=history.system)
        client.chat.completions.create(model="kimi-k3.1-pro", messages=ChatHistory())
        client.responses.create(model="kimi-k3.1-pro", input=ResponsesHistory())
    """,
    # An output limit of "auto" (x-kimi-client-values), and the counts it goes with.
    "output_limit_auto": """
        from kimi_ext import MessagesHistory
        from kimi_ext.budget import TokenCount
        history = MessagesHistory()
        client.messages.create(model="kimi-k3.1-pro", max_tokens="auto", messages=history)
        client.chat.completions.create(model="kimi-k3.1-pro", max_completion_tokens="auto",
                                       messages=[])
        client.chat.completions.create(model="kimi-k3.1-pro", max_tokens="auto", messages=[])
        client.responses.create(model="kimi-k3.1-pro", max_output_tokens="auto", input="hi")
        count: TokenCount = history.count_tokens()
        total: int = count.input_tokens
    """,
    "built_at_run_time": f"""
        import json
        rows: list[dict[str, Any]] = json.loads('[{{"role": "user", "content": "hi"}}]')
        client.messages.create({M}, messages=rows)
        client.messages.create({M}, messages=json.loads("[]"))
        block: dict[str, Any] = {{"type": "text", "text": "hi"}}
        client.messages.create({M}, messages=[{{"role": "user", "content": [block]}}])
        tools: list[dict[str, Any]] = []
        choice: dict[str, Any] = {{"type": "auto"}}
        client.messages.create({M}, messages=rows, tools=tools, tool_choice=choice)
        client.chat.completions.create(model="kimi-k3.1-pro", messages=rows, tools=tools)
        client.responses.create(model="kimi-k3.1-pro", input=rows, tools=tools)
    """,
    "narrowing_on_type": """
        from typing import assert_type
        from kimi_raw.messages.typeddicts import (
            ContentBlock, MessageResponse, MessageStreamEvent, is_known_content_block,
            is_known_message_stream_event, is_known_content_block_delta,
            is_unknown_content_block,
        )
        from kimi_raw.responses.typeddicts import OutputItem, is_known_output_item
        def texts(message: MessageResponse) -> list[str]:
            out: list[str] = []
            for block in message["content"]:
                if is_unknown_content_block(block):
                    assert_type(block["type"], str)  # an unknown block stays readable
                    continue
                if not is_known_content_block(block):
                    continue  # the older guard still narrows (to the same members)
                if block["type"] == "text":
                    out.append(block["text"])
                elif block["type"] == "tool_use":
                    assert_type(block["input"], dict[str, Any])
                    out.append(block["id"] + block["name"])
                elif block["type"] == "thinking":
                    out.append(block["thinking"] + block.get("signature", ""))
            return out
        def delta_text(event: MessageStreamEvent) -> str:
            if is_known_message_stream_event(event) and event["type"] == "content_block_delta":
                delta = event["delta"]
                if is_known_content_block_delta(delta) and delta["type"] == "text_delta":
                    return delta["text"]
            return ""
        def call_args(item: OutputItem) -> str:
            if is_known_output_item(item):
                match item["type"]:
                    case "function_call":
                        return item["arguments"]
                    case _:
                        return ""
            return ""
        def unknown_type(block: ContentBlock) -> str:
            return block.get("type", "")
    """,
}


def _fixture_cases() -> dict[str, str]:
    """Every request fixture, as a literal typed with its format's request TypedDict."""
    cases = {}
    for fmt, name in REQUEST_TYPES.items():
        for path in sorted((FIXTURES / fmt).glob("request_*.json")):
            body = json.loads(path.read_text("utf-8"))
            cases[f"fixture_{fmt}_{path.stem}"] = (
                f"from kimi_raw.{fmt}.typeddicts import {name}\nbody: {name} = {body!r}\n"
            )
    return cases


FIXTURE_CASES = _fixture_cases()

VIEW_TYPES = {
    "chat": ("ChatCompletion", "ChatCompletionChunk"),
    "messages": ("MessageResponse", "MessageStreamEvent"),
    "responses": ("ResponseObject", "ResponseStreamEvent"),
}
# Received on purpose with keys or event types the spec does not name: kept verbatim at run
# time, but a TypedDict literal cannot carry a key its class does not name.
UNNAMED_KEYS = {
    "response_unknown_fields", "stream_unknown", "stream_usage_on_choice", "stream_web_search",
}  # fmt: skip


def _view_cases() -> dict[str, str]:
    """Every other response and stream fixture, each body or event payload as a literal typed
    with its view: the views name what the service sends."""
    cases = {}
    for fmt, (response, event) in VIEW_TYPES.items():
        head = f"from kimi_raw.{fmt}.typeddicts import {response}, {event}\n"
        for path in sorted((FIXTURES / fmt).glob("response_*.json")):
            if path.stem not in UNNAMED_KEYS:
                body = json.loads(path.read_text("utf-8"))
                cases[f"view_{fmt}_{path.stem}"] = head + f"body: {response} = {body!r}\n"
        for path in sorted((FIXTURES / fmt).glob("stream_*.sse")):
            if path.stem in UNNAMED_KEYS:
                continue
            lines = path.read_text("utf-8").splitlines()
            data = [line[5:].strip() for line in lines if line.startswith("data:")]
            events = [json.loads(d) for d in data if d != "[DONE]"]
            assert events, path
            typed = "".join(f"event{i}: {event} = {e!r}\n" for i, e in enumerate(events))
            cases[f"view_{fmt}_{path.stem}"] = head + typed
    return cases


VIEW_CASES = _view_cases()


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[int, str]]]:
    """mypy --strict over every case file at once: file stem -> [(line, message)]."""
    root = tmp_path_factory.mktemp("user_files")
    sources = {name: HEAD + code for name, (code, _) in FLAGGED.items()}
    sources |= {name: HEAD + textwrap.dedent(code) for name, code in ACCEPTED.items()}
    sources |= FIXTURE_CASES | VIEW_CASES
    return strict_errors(root, sources)


def _marked_line(code: str) -> int:
    return marked_line(HEAD + code)


@pytest.mark.parametrize("name", list(FLAGGED))
def test_a_misspelt_or_mistyped_key_is_flagged_on_its_line(
    name: str, reported: dict[str, list[tuple[int, str]]]
) -> None:
    code, mentions = FLAGGED[name]
    assert_flagged_on(reported[name], _marked_line(code), mentions)


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_valid_calls_runtime_values_and_narrowing_pass(
    name: str, reported: dict[str, list[tuple[int, str]]]
) -> None:
    assert reported[name] == []


def test_every_request_fixture_is_accepted(reported: dict[str, list[tuple[int, str]]]) -> None:
    assert len(FIXTURE_CASES) >= 10  # chat and messages hold request fixtures
    assert {name: reported[name] for name in FIXTURE_CASES if reported[name]} == {}


def test_every_received_fixture_fits_its_view(reported: dict[str, list[tuple[int, str]]]) -> None:
    assert len(VIEW_CASES) >= 30
    assert {name: reported[name] for name in VIEW_CASES if reported[name]} == {}


def test_the_known_guards_tell_received_blocks_apart() -> None:
    """At run time, ``is_known_*`` is True for the members the spec names and False for a
    block it does not know (kept verbatim: the view is the received dict itself)."""
    from kimi_raw.messages.typeddicts import is_known_content_block, is_unknown_content_block

    body: dict[str, Any] = json.loads(
        (FIXTURES / "messages" / "response_unknown_fields.json").read_text("utf-8")
    )
    verdicts = {block["type"]: is_known_content_block(block) for block in body["content"]}
    assert verdicts["text"] and verdicts["thinking"] and verdicts["tool_use"]
    assert not verdicts["container_upload"] and not verdicts["redacted_thinking"]
    unknown = {block["type"]: is_unknown_content_block(block) for block in body["content"]}
    assert unknown == {kind: not known for kind, known in verdicts.items()}


def test_the_derived_module_is_what_scripts_derive_types_writes(tmp_path: Path) -> None:
    """The committed module is the script's output for the committed spec (deterministic),
    and it names the request, the views and the catch-all fallback."""
    import subprocess
    import sys

    root = ROOT
    out = tmp_path / "typeddicts.py"
    script = root / "scripts" / "derive_types.py"
    for fmt in REQUEST_TYPES:
        subprocess.run(
            [sys.executable, str(script), str(root / "openapi" / f"{fmt}.yaml"), str(out)],
            check=True,
        )
        committed = root / "generated" / "kimi_raw" / fmt / "typeddicts.py"
        assert out.read_text("utf-8") == committed.read_text("utf-8"), fmt
    text = (root / "generated" / "kimi_raw" / "messages" / "typeddicts.py").read_text("utf-8")
    assert "class UnknownBlock(TypedDict, total=False):\n" in text
    # The union declares the members the spec names (so "type" narrows); the catch-all
    # is reached through its guard.
    assert re.search(
        r"^ContentBlock: TypeAlias = TextBlock \|.*\| WebSearchToolResultBlock$", text, re.MULTILINE
    )
    assert "def is_unknown_content_block(value: ContentBlock) -> TypeGuard[UnknownBlock]:" in text
    assert "    input_schema: Required[Mapping[str, Any]]\n" in text
