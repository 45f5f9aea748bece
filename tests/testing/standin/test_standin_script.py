"""Scripting the stand-in: rules that answer by request content, script files, and what the
docs (docs/testing.md) promise about queued replies and faults."""

from __future__ import annotations

import json
import logging
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from kimi_ext import Kimi, KimiError, RequestValidationError
from kimi_ext.testing import (
    Fault,
    KimiStandIn,
    Match,
    RecordedRequest,
    Reply,
    ScriptError,
    ToolCallSpec,
)
from kimi_ext.testing.script import fault_names
from tests.support.standin import (
    BODY,
    K31,
    PATHS,
    ROOT,
    Wire,
    answer_reasoning,
    answer_text,
    chat_body,
    messages_body,
    parse_sse,
    responses_body,
)

FORMATS = ("chat", "messages", "responses")
WEATHER = ToolCallSpec("get_weather", {"city": "Oslo"})


def chat_after_tool(prompt: str) -> dict[str, Any]:
    """A Chat request that hands a tool's result back (the second leg of a tool loop)."""
    call = {"id": "functions.get_weather:0", "type": "function",
            "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}  # fmt: skip
    return chat_body(
        messages=[
            {"role": "user", "content": prompt},
            {"role": "assistant", "reasoning_content": "Look it up.", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "functions.get_weather:0", "content": "5 C"},
        ]
    )


# ------------------------------------------------------------------------------- rules


def test_concurrent_requests_get_the_reply_their_content_asks_for(standin: KimiStandIn) -> None:
    cities = [f"city-{n}" for n in range(8)]
    for city in cities:
        standin.when(city, f"Weather in {city}: sunny.")
    answers: dict[str, str] = {}
    start = threading.Barrier(len(cities))

    def ask(city: str) -> None:
        with httpx.Client(base_url=standin.base_url, timeout=10) as client:
            start.wait(timeout=10)  # all at once: arrival order is anyone's
            response = client.post(
                PATHS["chat"],
                json=chat_body(f"What is the weather in {city}?"),
                headers={"Authorization": "Bearer test-key"},
            )
            answers[city] = response.json()["choices"][0]["message"]["content"]

    threads = [threading.Thread(target=ask, args=(city,)) for city in cities]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert answers == {city: f"Weather in {city}: sunny." for city in cities}
    assert [rule.hits for rule in standin.rules] == [1] * len(cities)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_rule_answers_in_every_format_and_before_the_queue(
    wire: Wire, standin: KimiStandIn, fmt: str
) -> None:
    standin.queue("from the queue")
    rule = standin.when("Oslo", Reply(text="Sunny.", reasoning="Checked.", tool_calls=[WEATHER]))
    result = wire.ok(fmt, BODY[fmt]("Weather in Oslo?"))
    assert answer_text(fmt, result) == "Sunny."
    assert answer_reasoning(fmt, result) == "Checked."
    assert "get_weather" in json.dumps(result)
    assert rule.hits == 1 and standin.pending_replies == 1
    # A request the rule does not match gets the queue.
    assert answer_text(fmt, wire.ok(fmt, BODY[fmt]("Weather in Rome?"))) == "from the queue"


def test_successive_replies_the_last_repeating_and_times(wire: Wire, standin: KimiStandIn) -> None:
    rule = standin.when("loop", Reply(tool_calls=[WEATHER]), "Done.")
    texts = [wire.ok("chat", chat_body("loop"))["choices"][0] for _ in range(3)]
    assert [t["finish_reason"] for t in texts] == ["tool_calls", "stop", "stop"]
    assert [t["message"]["content"] for t in texts[1:]] == ["Done.", "Done."]
    assert rule.hits == 3 and not rule.exhausted
    once = standin.when("once", "only once", times=1)
    assert wire.ok("chat", chat_body("once"))["choices"][0]["message"]["content"] == "only once"
    assert once.exhausted
    assert wire.ok("chat", chat_body("once"))["choices"][0]["message"]["content"] == "once"  # echo


def test_match_conditions(wire: Wire, standin: KimiStandIn) -> None:
    standin.when(Match(text="Oslo", tool_result=True), "It is 5 C in Oslo.")
    standin.when(Match(text="Oslo", tool_result=False), Reply(tool_calls=[WEATHER]))
    standin.when(Match(format="messages", model="kimi-k3"), "k3 on messages")
    standin.when(lambda request: request.headers.get("x-test") == "yes", "by header")
    first = wire.ok("chat", chat_body("Weather in Oslo?"))["choices"][0]
    assert first["message"]["tool_calls"][0]["function"]["name"] == "get_weather"
    second = wire.ok("chat", chat_after_tool("Weather in Oslo?"))["choices"][0]
    assert second["message"]["content"] == "It is 5 C in Oslo."
    k3 = wire.ok("messages", messages_body("hi", model="kimi-k3"))
    assert answer_text("messages", k3) == "k3 on messages"
    assert answer_text("messages", wire.ok("messages", messages_body("hi"))) == "hi"
    response = wire.post("responses", responses_body("x"), headers={"x-test": "yes"})
    assert answer_text("responses", response.json()) == "by header"


def test_recorded_request_facts_rules_match_on(wire: Wire, standin: KimiStandIn) -> None:
    wire.ok("chat", chat_after_tool("first"))
    tool_use = {"type": "tool_use", "id": "t", "name": "f", "input": {}}
    wire.ok("messages", messages_body(messages=[
        {"role": "user", "content": [{"type": "text", "text": "asked"}]},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "x"}, tool_use]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "r"}]},
    ]))  # fmt: skip
    wire.ok("responses", responses_body(input=[
        {"role": "user", "content": [{"type": "input_text", "text": "item"}]},
        {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c", "output": "r"},
    ]))  # fmt: skip
    wire.ok("responses", responses_body("plain"))
    facts = [(r.last_user_text, r.ends_with_tool_result) for r in standin.requests]
    assert facts == [("first", True), ("asked", True), ("item", True), ("plain", False)]
    other = RecordedRequest("GET", "/v1/models", {}, b"", None)
    assert (other.last_user_text, other.ends_with_tool_result) == ("", False)


def test_a_request_the_service_refuses_uses_no_rule(wire: Wire, standin: KimiStandIn) -> None:
    rule = standin.when("Oslo", "Sunny.", times=1)
    wire.error("chat", chat_body("Oslo", model="kimi-k9"), 404)
    wire.post("chat", chat_body("Oslo"), key="wrong")
    assert rule.hits == 0
    assert wire.ok("chat", chat_body("Oslo"))["choices"][0]["message"]["content"] == "Sunny."


def test_a_rules_faults_act_on_the_requests_it_answers(wire: Wire, standin: KimiStandIn) -> None:
    standin.when("flaky", faults=[Fault.server_error()], times=1)
    standin.when("cut", "A long answer that is cut.", faults=[Fault.cut_stream(after=2)])
    assert wire.post("chat", chat_body("not this one")).status_code == 200
    assert wire.error("chat", chat_body("flaky"), 500)["type"] == "server_error"
    # Its faults used up (times=1): the same request now gets the echo.
    assert wire.ok("chat", chat_body("flaky"))["choices"][0]["message"]["content"] == "flaky"
    stream = wire.stream("messages", messages_body("cut"))
    assert [e.event for e in stream.events] == ["message_start", "ping"]
    # A stream fault does not touch a JSON request; the reply still comes.
    assert answer_text("chat", wire.ok("chat", chat_body("cut"))) == "A long answer that is cut."


def test_a_raising_match_is_one_log_line_and_a_500(
    wire: Wire, standin: KimiStandIn, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(request: RecordedRequest) -> bool:
        raise ValueError("no such field")

    standin.when(broken, "never", name="broken rule")
    caplog.set_level(logging.INFO, logger="kimi_ext.testing")
    detail = wire.error("chat", chat_body(), 500)
    assert detail["message"] == "stand-in: rule 'broken rule' raised ValueError: no such field"
    [record] = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert record.exc_info is None
    assert record.getMessage().startswith(
        "stand-in: rule 'broken rule' raised ValueError: no such field at "
    )


def test_when_refuses_a_bad_match_or_times(standin: KimiStandIn) -> None:
    with pytest.raises(TypeError, match="match must be a str, a Match or a callable, not int"):
        standin.when(5, "x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="times must be a positive integer or None, not 0"):
        standin.when("x", "y", times=0)
    assert standin.rules == []


def test_reset_and_clear_rules(standin: KimiStandIn, wire: Wire) -> None:
    standin.when("a", "b")
    standin.clear_rules()
    assert standin.rules == []
    standin.when("a", "b")
    standin.reset()
    assert standin.rules == []
    assert wire.ok("chat", chat_body("a"))["choices"][0]["message"]["content"] == "a"


# ------------------------------------------------------------------------ script files

SCRIPT: dict[str, Any] = {
    "rules": [
        {
            "name": "weather call",
            "when": {"text": "Oslo", "tool_result": False},
            "reply": {
                "reasoning": "I need the weather tool.",
                "tool_calls": [
                    {"name": "get_weather", "arguments": {"city": "Oslo"}},
                    {"name": "get_time", "arguments": '{"tz": "CET"}', "id": "call-2"},
                ],
            },
        },
        {
            "when": {"text": "Oslo", "tool_result": True},
            "replies": ["It is 5 C.", {"text": "Still 5 C.", "reasoning": ""}],
        },
        {"when": {"format": "responses"}, "reply": {"structured": {"ok": True}}},
        {"when": {"text": "search"}, "reply": {"text": "Found.", "web_search": {
            "query": "kimi", "results": [{"url": "https://a.example/", "title": "A"}]}}},
        {"when": {"text": "fail"}, "times": 1, "faults": [{"fault": "rate_limit",
                                                          "retry_after": 0.01}]},
    ],
    "queue": ["queued one", {"text": "queued two"}],
    "faults": [[{"fault": "usage_on_choice"}, {"fault": "split_tool_name"}]],
}  # fmt: skip


def write(tmp_path: Path, data: Any, name: str = "script.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, "utf-8")
    return path


def test_a_script_file_sets_up_rules_queue_and_faults(tmp_path: Path) -> None:
    path = write(tmp_path, SCRIPT)
    with (
        KimiStandIn(script=path) as standin,
        httpx.Client(
            base_url=standin.base_url, timeout=10, headers={"Authorization": "Bearer test-key"}
        ) as http,
    ):
        assert [r.name for r in standin.rules] == ["weather call", "", "", "", ""]
        assert standin.pending_replies == 2 and standin.pending_faults == 1

        def chat(body: dict[str, Any]) -> dict[str, Any]:
            message: dict[str, Any] = http.post(PATHS["chat"], json=body).json()
            return message["choices"][0]["message"]

        first = chat(chat_body("Weather in Oslo?"))
        assert first["reasoning_content"] == "I need the weather tool."
        assert [(c["id"], c["function"]["name"], c["function"]["arguments"])
                for c in first["tool_calls"]] == [
            ("functions.get_weather:0", "get_weather", '{"city": "Oslo"}'),
            ("call-2", "get_time", '{"tz": "CET"}'),
        ]  # fmt: skip
        assert chat(chat_after_tool("Weather in Oslo?"))["content"] == "It is 5 C."
        again = chat(chat_after_tool("Weather in Oslo?"))
        assert (again["content"], again["reasoning_content"]) == ("Still 5 C.", "")
        response = http.post(PATHS["responses"], json=responses_body("anything")).json()
        assert answer_text("responses", response) == '{"ok":true}'
        headers = {"anthropic-version": "2023-06-01"}
        found = http.post(PATHS["messages"], json=messages_body("search it"), headers=headers)
        assert (
            "web_search_tool_result" in found.text
            and answer_text("messages", found.json()) == "Found."
        )
        limited = http.post(PATHS["chat"], json=chat_body("fail"))
        assert limited.status_code == 429 and limited.headers["retry-after"] == "0.01"
        assert chat(chat_body("no rule"))["content"] == "queued one"
        # The queued fault entry is for Chat streams: still there, as is the last reply.
        assert standin.pending_faults == 1 and standin.pending_replies == 1
        body = {**chat_body("no rule", stream=True), "stream_options": {"include_usage": True}}
        streamed = http.post(PATHS["chat"], json=body).text
        chunks = [e.json for e in parse_sse(streamed) if e.data != "[DONE]"]
        assert any("usage" in c["choices"][0] for c in chunks if c["choices"])
        assert "queued two" in streamed and standin.pending_faults == 0


def test_load_script_adds_to_a_running_stand_in(
    tmp_path: Path, wire: Wire, standin: KimiStandIn
) -> None:
    standin.when("first", "kept")
    script = standin.load_script(write(tmp_path, {"rules": [{"when": {}, "reply": "any"}]}))
    assert len(script.rules) == 1 and len(standin.rules) == 2
    assert wire.ok("chat", chat_body("first"))["choices"][0]["message"]["content"] == "kept"
    assert wire.ok("chat", chat_body("other"))["choices"][0]["message"]["content"] == "any"


BAD_SCRIPTS: list[tuple[Any, str]] = [
    ("[1,", "not valid JSON"),
    ([], "the top level: must be an object, not a list"),
    ({"rule": []}, "the top level: unknown key 'rule' (the keys are faults, queue, rules)"),
    ({"rules": {}}, "rules: must be a list, not an object"),
    ({"rules": [{"when": {"text": "x"}}]}, "rules[0]: needs a 'reply', 'replies' or 'faults'"),
    ({"rules": [{"reply": "a", "replies": []}]}, "rules[0]: has both 'reply' and 'replies'"),
    ({"rules": [{"reply": "a", "when": {"txt": "x"}}]}, "rules[0].when: unknown key 'txt'"),
    ({"rules": [{"reply": "a", "when": {"text": 5}}]}, "rules[0].when.text: must be a string, not a number 5"),
    ({"rules": [{"reply": "a", "when": {"format": "grpc"}}]}, "rules[0].when.format: must be one of chat, messages, responses, not 'grpc'"),
    ({"rules": [{"reply": "a", "when": {"tool_result": "yes"}}]}, "rules[0].when.tool_result: must be true or false"),
    ({"rules": [{"reply": "a", "times": 0}]}, "rules[0].times: must be a positive integer, not 0"),
    ({"rules": [{"reply": "a", "times": True}]}, "rules[0].times: must be a positive integer, not a boolean"),
    ({"queue": [{"txt": "a"}]}, "queue[0]: unknown key 'txt' (the keys are reasoning, structured, text, tool_calls, web_search)"),
    ({"queue": [{"text": "a", "structured": {}}]}, "queue[0]: has both 'text' and 'structured'"),
    ({"queue": [{"tool_calls": [{"arguments": {}}]}]}, "queue[0].tool_calls[0]: needs a 'name'"),
    ({"queue": [{"tool_calls": [{"name": "f", "arguments": 3}]}]}, "queue[0].tool_calls[0].arguments: must be an object or JSON text, not a number 3"),
    ({"queue": [{"web_search": {"results": []}}]}, "queue[0].web_search: needs a 'query'"),
    ({"faults": [{"fault": "explode"}]}, "faults[0].fault: unknown fault 'explode' (the faults are control_characters, cut_mid_event,"),
    ({"faults": [{"kind": "cut_stream"}]}, 'faults[0]: must be an object with a "fault" name'),
    ({"faults": [{"fault": "cut_stream"}]}, "faults[0]: cut_stream needs 'after'"),
    ({"faults": [{"fault": "cut_stream", "after": "3"}]}, "faults[0].after: must be an integer, not a string '3'"),
    ({"faults": [{"fault": "cut_stream", "afterwards": 3}]}, "faults[0]: cut_stream takes no 'afterwards' (its arguments: after)"),
    ({"faults": [[]]}, "faults[0]: an empty list of faults"),
    ({"rules": [{"faults": [{"fault": "rate_limit", "retry_after": "soon"}]}]}, "rules[0].faults[0].retry_after: must be a number or null, not a string 'soon'"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "problem"), BAD_SCRIPTS)
def test_a_broken_script_is_refused_naming_the_place_and_adds_nothing(
    tmp_path: Path, standin: KimiStandIn, data: Any, problem: str
) -> None:
    path = write(tmp_path, data)
    with pytest.raises(ScriptError) as info:
        standin.load_script(path)
    assert isinstance(info.value, KimiError) and isinstance(info.value, ValueError)
    assert str(info.value).startswith(f"stand-in script {path}: ")
    assert problem in str(info.value)
    assert (standin.rules, standin.pending_replies, standin.pending_faults) == ([], 0, 0)


def test_a_missing_script_file_is_a_script_error(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match=r"missing.json: cannot be read: No such file"):
        KimiStandIn(script=tmp_path / "missing.json")


def test_every_fault_constructor_can_be_scripted() -> None:
    names = fault_names()
    assert "cut_stream" in names and "rate_limit" in names and "error" in names
    assert all(isinstance(getattr(Fault, name)(**ARGS.get(name, {})), Fault) for name in names)


ARGS: dict[str, dict[str, Any]] = {
    "error": {"status": 418, "message": "teapot"},
    "slow_first_byte": {"delay": 0},
    "cut_stream": {"after": 1},
    "cut_mid_event": {"after": 1},
    "slow_events": {"delay": 0},
    "hold_open": {"seconds": 0},
}


def test_serve_forever_serves_a_script(tmp_path: Path) -> None:
    path = write(tmp_path, {"rules": [{"when": {"text": "ping"}, "reply": "pong"}]})
    code = (
        "from kimi_ext.testing import serve_forever; import sys; serve_forever(script=sys.argv[1])"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        base_url = proc.stdout.readline().rsplit(" ", 1)[-1].strip()
        assert proc.stdout.readline().strip() == "API key: test-key"
        assert proc.stdout.readline().strip() == f"Script: {path} (1 rules, 0 queued replies)"
        response = httpx.post(
            base_url + PATHS["chat"], json=chat_body("ping?"),
            headers={"Authorization": "Bearer test-key"},
        )  # fmt: skip
        assert response.json()["choices"][0]["message"]["content"] == "pong"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


# ------------------------------------------------------------- what the docs promise


def test_queued_replies_stay_queued_when_a_call_fails_before_it_is_sent(
    standin: KimiStandIn,
) -> None:
    standin.queue("for the good call")
    with Kimi(api_key=standin.api_key, base_url=standin.base_url, fallback_base_url=None) as kimi:
        with pytest.raises(RequestValidationError):
            kimi.messages.create(model=K31, messages=[{"role": "user", "content": "x"}])  # type: ignore[call-arg]
        assert standin.requests == [] and standin.pending_replies == 1
        reply = kimi.messages.create(
            model=K31, max_tokens=100, messages=[{"role": "user", "content": "x"}]
        )
    assert reply.text == "for the good call"


def readme_section() -> str:
    """The stand-in's part of the docs' testing page (before its cassettes)."""
    text = (ROOT / "docs" / "testing.md").read_text("utf-8")
    return text[: text.index("\n## Cassettes")]


def test_the_readme_names_every_fault_and_the_scripting_api() -> None:
    section = readme_section()
    missing = [name for name in fault_names() if f"`Fault.{name}(" not in section]
    assert missing == [], f"docs/testing.md does not name {missing}"
    for name in ("responder", "when(", "Match(", "load_script", "script=", "ScriptError"):
        assert name in section, name


def test_the_readme_example_of_after_counts_is_true(wire: Wire) -> None:
    """docs/testing.md lists the events ``after`` counts for one reply; they are the events
    sent."""
    section = readme_section()
    for fmt in FORMATS:
        row = re.search(rf"^\| {fmt} \| (.+) \|$", section, re.MULTILINE)
        assert row is not None, fmt
        listed = [(re.findall(r"`([^`]+)`", item) or [item])[0] for item in row[1].split(", ")]
        wire.standin.queue(Reply(text="Hi", reasoning="Hm"))
        stream = wire.stream(fmt, BODY[fmt]())
        if fmt == "chat":
            deltas = [list(p["choices"][0]["delta"]) for p in stream.payloads()]
            sent = [*(d[0] if d else "finish chunk" for d in deltas), "[DONE]"]
            assert listed == sent
        else:
            assert listed == [e.event for e in stream.events], fmt
    wire.standin.queue(Reply(text="Hi", reasoning="Hm"))
    wire.standin.fault(Fault.cut_stream(after=2))
    cut = wire.stream("messages", messages_body())
    assert [e.event for e in cut.events] == ["message_start", "ping"]


def test_the_readme_script_example_loads(tmp_path: Path) -> None:
    section = readme_section()
    example = section[
        section.index("```json\n") + 8 : section.index("```", section.index("```json\n") + 8)
    ]
    script = KimiStandIn(script=write(tmp_path, example)).load_script(write(tmp_path, example))
    assert (len(script.rules), len(script.queue), len(script.faults)) == (4, 2, 2)
