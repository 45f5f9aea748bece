"""The ``kimi`` command, driven as a user would: a subprocess (and a pseudo-terminal)
against the offline stand-in."""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from kimi_ext.cli import EXIT_INTERRUPTED
from kimi_ext.cli.output import EXIT_CODES, exit_code
from kimi_ext.errors import APIStatusError, QuotaExceededError
from kimi_ext.testing import Fault, KimiStandIn, Reply
from tests.support.cli import Piped

CODE = {cls.__name__: code for cls, code in EXIT_CODES}


def kimi(standin: KimiStandIn, *args: str, input: str | None = None, key: str | None = None,
         timeout: float = 30) -> subprocess.CompletedProcess[str]:  # fmt: skip
    env = dict(os.environ, KIMI_API_KEY=key or standin.api_key, PYTHONUNBUFFERED="1")
    env.pop("KIMI_LOG", None)
    return subprocess.run(
        [sys.executable, "-m", "kimi_ext.cli", "chat", "--base-url", standin.base_url, *args],
        input=input if input is not None else "",
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )


def test_console_script_is_installed() -> None:
    script = shutil.which("kimi", path=str(Path(sys.executable).parent))
    assert script is not None
    out = subprocess.run([script, "--help"], capture_output=True, text=True, check=True).stdout
    assert "chat" in out and "stand-in" in out


@pytest.mark.parametrize("fmt", ["messages", "chat", "responses"])
def test_one_shot_answer_with_reasoning_and_usage(kimi_standin: KimiStandIn, fmt: str) -> None:
    kimi_standin.queue(Reply(text="Paris is the capital.", reasoning="Recall geography."))
    run = kimi(kimi_standin, "--format", fmt, "--effort", "medium", "Capital of France?")
    assert run.returncode == 0, run.stderr
    # In a pipe stdout is the answer alone; the reasoning goes to stderr.
    assert run.stdout == "Paris is the capital.\n"
    assert "[reasoning]\nRecall geography.\n" in run.stderr
    usage = [line for line in run.stderr.splitlines() if line.startswith("usage:")]
    assert len(usage) == 1
    assert "input" in usage[0] and "cached" in usage[0] and "cache written" in usage[0]
    assert "output" in usage[0] and "reasoning" in usage[0]
    body = kimi_standin.requests[-1].json
    effort = {"chat": body.get("reasoning_effort"), "messages": body.get("output_config", {}).get("effort"),
              "responses": body.get("reasoning", {}).get("effort")}[fmt]  # fmt: skip
    assert effort == "high"


def test_hide_reasoning_and_no_stream(kimi_standin: KimiStandIn) -> None:
    kimi_standin.queue(Reply(text="Done.", reasoning="secret thoughts"))
    run = kimi(kimi_standin, "--hide-reasoning", "--no-stream", "--system", "Be brief.", "Go")
    assert run.returncode == 0, run.stderr
    assert run.stdout == "Done.\n"
    body = kimi_standin.requests[-1].json
    assert body["system"] == "Be brief." and "stream" not in body


def test_interactive_two_turns_keep_history(kimi_standin: KimiStandIn) -> None:
    kimi_standin.queue(Reply(text="One."), Reply(text="Two."))
    run = kimi(kimi_standin, "--format", "chat", input="first\n\nsecond\n")
    assert run.returncode == 0, run.stderr
    assert "One." in run.stdout and "Two." in run.stdout
    second = kimi_standin.requests[-1].json["messages"]
    assert [m["role"] for m in second] == ["user", "assistant", "user"]
    assert second[1]["reasoning_content"]  # the reasoning went back with the turn
    assert second[2]["content"] == "second"


def test_save_then_load_resumes_exactly(kimi_standin: KimiStandIn, tmp_path: Path) -> None:
    saved = tmp_path / "talk.json"
    kimi_standin.queue(Reply(text="Noted."), Reply(text="You said apples."))
    first = kimi(kimi_standin, "--save", str(saved), "Remember: apples")
    assert first.returncode == 0, first.stderr
    data = json.loads(saved.read_text())
    assert data["kimi_ext"] == "MessagesHistory"  # the format is that of the saved class
    second = kimi(kimi_standin, "--load", str(saved), "--save", str(saved), "What did I say?")
    assert second.returncode == 0, second.stderr
    sent = kimi_standin.requests[-1].json["messages"]
    assert sent[0]["content"] == "Remember: apples"
    thinking = sent[1]["content"][0]
    assert thinking["type"] == "thinking" and thinking["signature"]  # accepted by the stand-in
    assert len(sent) == 3
    assert len(json.loads(saved.read_text())["items"]) == 4  # both turns, saved again


def test_load_rejects_a_different_format(kimi_standin: KimiStandIn, tmp_path: Path) -> None:
    saved = tmp_path / "talk.json"
    kimi_standin.queue(Reply(text="ok"))
    assert kimi(kimi_standin, "--save", str(saved), "hi").returncode == 0
    run = kimi(kimi_standin, "--load", str(saved), "--format", "chat", "again")
    assert run.returncode == CODE["ClientConfigError"]
    assert "drop --format" in run.stderr


def test_json_schema_answer_is_validated(kimi_standin: KimiStandIn, tmp_path: Path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text(
        json.dumps({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})
    )
    kimi_standin.queue(Reply.structured({"n": 3}), Reply.structured({"n": "three"}))
    ok = kimi(kimi_standin, "--json-schema", str(schema), "count")
    assert ok.returncode == 0, ok.stderr
    assert kimi_standin.requests[-1].json["output_config"]["format"]["type"] == "json_schema"
    bad = kimi(kimi_standin, "--json-schema", str(schema), "count")
    assert bad.returncode == CODE["StructuredOutputError"]
    assert "does not match the schema at n" in bad.stderr


def test_image_is_attached(kimi_standin: KimiStandIn, tmp_path: Path) -> None:
    image = tmp_path / "dot.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 32)
    kimi_standin.queue(Reply(text="A dot."))
    run = kimi(kimi_standin, "--image", str(image), "What is it?")
    assert run.returncode == 0, run.stderr
    content = kimi_standin.requests[-1].json["messages"][0]["content"]
    assert any(
        b.get("type") == "image" and b["source"]["media_type"] == "image/png" for b in content
    )


@pytest.mark.parametrize(
    ("setup", "args", "key", "expected"),
    [
        (None, [], "wrong-key", "AuthenticationError"),
        (Fault.quota(), [], None, "QuotaExceededError"),
        (Fault.rate_limit(retry_after=0), ["--max-retries", "0"], None, "RateLimitError"),
        (Fault.server_error(500), ["--max-retries", "0"], None, "InternalServerError"),
        (Fault.cut_stream(after=3), [], None, "IncompleteStreamError"),
        (Fault.slow_first_byte(2.0), ["--timeout", "0.3", "--max-retries", "0"], None, "APITimeoutError"),
        (None, ["--effort", "turbo"], None, "RequestValidationError"),
        (None, ["--model", "kimi-k3", "--effort", "low"], None, "RequestValidationError"),
    ],
)  # fmt: skip
def test_each_error_class_has_its_exit_code(
    kimi_standin: KimiStandIn, setup: Fault | None, args: list[str], key: str | None, expected: str
) -> None:
    if setup is not None:
        kimi_standin.fault(setup)
    run = kimi(kimi_standin, *args, "hello", key=key)
    assert run.returncode == CODE[expected], run.stderr
    lines = [line for line in run.stderr.splitlines() if line.startswith("kimi: ")]
    assert len(lines) == 1 and lines[0].startswith(f"kimi: {expected}: ")
    assert "Traceback" not in run.stderr


def test_connection_error_exit_code(tmp_path: Path) -> None:
    env = dict(os.environ, KIMI_API_KEY="k")
    run = subprocess.run(
        [sys.executable, "-m", "kimi_ext.cli", "chat", "--base-url", "http://127.0.0.1:9", "--max-retries", "0", "hi"],
        capture_output=True, text=True, env=env, timeout=30,
    )  # fmt: skip
    assert run.returncode == CODE["APIConnectionError"]
    assert run.stderr.startswith("kimi: APIConnectionError: ")


def test_missing_key_and_bad_request_codes(kimi_standin: KimiStandIn) -> None:
    env = {k: v for k, v in os.environ.items() if k != "KIMI_API_KEY"}
    run = subprocess.run(
        [sys.executable, "-m", "kimi_ext.cli", "chat", "--base-url", kimi_standin.base_url, "hi"],
        capture_output=True, text=True, env=env, timeout=30,
    )  # fmt: skip
    assert run.returncode == CODE["ClientConfigError"] and "KIMI_API_KEY" in run.stderr
    kimi_standin.fault(Fault.error(400, "bad input", error_type="invalid_request_error"))
    run = kimi(kimi_standin, "hi")
    assert run.returncode == CODE["BadRequestError"], run.stderr


def test_exit_codes_are_distinct_and_narrowest_first() -> None:
    codes = [code for _, code in EXIT_CODES]
    assert len(codes) == len(set(codes))
    quota = QuotaExceededError("q", status_code=429, response=None, body=None)
    assert exit_code(quota) == CODE["QuotaExceededError"]
    other = APIStatusError("x", status_code=418, response=None, body=None)
    assert exit_code(other) == CODE["APIStatusError"]


def test_ctrl_c_stops_cleanly_and_keeps_the_conversation(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    saved = tmp_path / "talk.json"
    kimi_standin.queue(Reply(text="First answer."), Reply(text="x" * 4000))
    kimi_standin.fault(Fault.slow_events(0.05), times=2)
    env = dict(os.environ, KIMI_API_KEY=kimi_standin.api_key, PYTHONUNBUFFERED="1")
    piped = Piped(["chat", "--base-url", kimi_standin.base_url, "--save", str(saved)], env)
    piped.write("one\ntwo\n")
    piped.read_until("First answer.\n")
    piped.read_until("xxxx")  # the second answer is streaming now (an event, not a delay)
    assert len(kimi_standin.requests) == 2
    piped.proc.send_signal(signal.SIGINT)
    proc = piped.finish()
    err = proc.stderr
    assert proc.returncode == EXIT_INTERRUPTED
    assert f"interrupted; {saved} holds the conversation up to the last complete answer" in err
    assert "Traceback" not in err
    text = json.dumps(json.loads(saved.read_text())["items"])
    assert "First answer." in text and "two" not in text  # the finished turn only


def test_pseudo_terminal_session(kimi_standin: KimiStandIn) -> None:
    kimi_standin.queue(Reply(text="Hi there.", reasoning="Greeting."))
    env = dict(os.environ, KIMI_API_KEY=kimi_standin.api_key, PYTHONUNBUFFERED="1", TERM="xterm")
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "kimi_ext.cli", "chat", "--base-url", kimi_standin.base_url],
        stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    screen = b""

    def read_until(marker: bytes, count: int = 1, timeout: float = 20) -> None:
        nonlocal screen
        end = time.monotonic() + timeout
        while screen.count(marker) < count and time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    screen += os.read(master, 4096)
                except OSError:
                    break

    try:
        read_until(b"you> ")
        os.write(master, b"hello\n")
        read_until(b"usage:")
        read_until(b"you> ", count=2)
        os.write(master, b"/exit\n")
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert proc.returncode == 0
    assert b"\x1b[2mGreeting." in screen  # reasoning dimmed on a terminal
    assert b"Hi there." in screen
    assert screen.count(b"you> ") >= 2


@pytest.mark.parametrize(
    ("status", "expected"),
    [(403, "PermissionDeniedError"), (404, "NotFoundError"), (418, "APIStatusError")],
)
def test_other_status_classes_have_their_codes(
    kimi_standin: KimiStandIn, status: int, expected: str
) -> None:
    kimi_standin.fault(Fault.error(status, "no", error_type="permission_error"))
    run = kimi(kimi_standin, "--max-retries", "0", "hi")
    assert run.returncode == CODE[expected], run.stderr
    assert run.stderr.startswith(f"kimi: {expected}: {status}")


def test_a_tampered_saved_history_is_refused_before_sending(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    saved = tmp_path / "talk.json"
    kimi_standin.queue(Reply(text="Noted."))
    assert kimi(kimi_standin, "--save", str(saved), "Remember apples").returncode == 0
    data = json.loads(saved.read_text())
    text = json.dumps(data).replace("Thinking it over", "Thinking it ovex")
    assert text != json.dumps(data), "the saved thinking text must be there to tamper with"
    saved.write_text(text)
    sent_before = len(kimi_standin.requests)
    run = kimi(kimi_standin, "--load", str(saved), "again")
    assert run.returncode == CODE["HistoryError"], run.stderr
    assert "thinking" in run.stderr
    assert len(kimi_standin.requests) == sent_before  # nothing was sent


def test_non_json_success_body_has_its_code(httpserver: Any) -> None:
    httpserver.expect_request("/v1/messages").respond_with_data("<html>portal</html>", status=200)
    env = dict(os.environ, KIMI_API_KEY="k")
    run = subprocess.run(
        [sys.executable, "-m", "kimi_ext.cli", "chat", "--no-stream", "--base-url",
         httpserver.url_for("").rstrip("/"), "hi"],
        capture_output=True, text=True, env=env, timeout=30,
    )  # fmt: skip
    assert run.returncode == CODE["APIResponseError"], run.stderr
