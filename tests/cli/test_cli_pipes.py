"""The ``kimi`` command's output contract in pipes, its usage errors and its CLI wording,
driven in subprocesses against the offline stand-in."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import kimi_ext
from kimi_ext.cli import EXIT_INTERRUPTED, EXIT_STANDIN, EXIT_USAGE
from kimi_ext.testing import Fault, KimiStandIn, Reply
from tests.support.cli import Piped

CLI = [sys.executable, "-m", "kimi_ext.cli"]


def env_for(standin: KimiStandIn | None = None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIMI_")}
    if standin is not None:
        env["KIMI_API_KEY"] = standin.api_key
    env.update(extra, PYTHONUNBUFFERED="1")
    return env


def run(
    *args: str, env: dict[str, str], input: str = "", timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args], input=input, capture_output=True, text=True, env=env, timeout=timeout
    )


SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


@pytest.mark.parametrize("fmt", ["messages", "chat", "responses"])
@pytest.mark.parametrize("stream", [True, False])
def test_json_schema_answer_redirected_to_a_file_is_json(
    kimi_standin: KimiStandIn, tmp_path: Path, fmt: str, stream: bool
) -> None:
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(SCHEMA))
    out = tmp_path / "out.json"
    kimi_standin.queue(Reply.structured({"n": 3}, reasoning="Count them."))
    extra = [] if stream else ["--no-stream"]
    with out.open("w") as sink:
        proc = subprocess.run(
            [*CLI, "chat", "--base-url", kimi_standin.base_url, "--format", fmt, *extra,
             "--json-schema", str(schema), "count"],
            stdout=sink, stderr=subprocess.PIPE, text=True, env=env_for(kimi_standin), timeout=30,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text()) == {"n": 3}
    assert "Count them." in proc.stderr  # the reasoning is not lost, it is on stderr
    assert proc.stderr.count("usage: ") == 1


def test_hide_reasoning_in_a_pipe_prints_it_nowhere(kimi_standin: KimiStandIn) -> None:
    kimi_standin.queue(Reply(text="Yes.", reasoning="private chain"))
    proc = run("chat", "--base-url", kimi_standin.base_url, "--hide-reasoning", "ok?",
               env=env_for(kimi_standin))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "Yes.\n"
    assert "private chain" not in proc.stderr


@pytest.mark.parametrize("fmt", ["messages", "chat", "responses"])
@pytest.mark.parametrize("stream", [True, False])
def test_json_prints_the_whole_result(kimi_standin: KimiStandIn, fmt: str, stream: bool) -> None:
    kimi_standin.queue(Reply(text="Forty-two.", reasoning="Deep thought."))
    extra = [] if stream else ["--no-stream"]
    proc = run("chat", "--base-url", kimi_standin.base_url, "--format", fmt, *extra, "--json",
               "answer?", env=env_for(kimi_standin))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)  # one JSON document, nothing else on stdout
    text = json.dumps(result)
    assert "Forty-two." in text and "Deep thought." in text
    assert "usage" in result
    raw = result["raw"]  # the wire JSON, inside the envelope
    assert {"chat": "chat.completion", "messages": "message", "responses": "response"}[fmt] == (
        raw["object"] if fmt != "messages" else raw["type"]
    )
    assert "Deep thought." not in proc.stderr  # it is in the document; not printed twice


def test_json_lines_for_piped_turns(kimi_standin: KimiStandIn) -> None:
    kimi_standin.queue(Reply(text="One."), Reply(text="Two."))
    proc = run("chat", "--base-url", kimi_standin.base_url, "--json", "--format", "chat",
               env=env_for(kimi_standin), input="first\nsecond\n")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    docs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [d["raw"]["choices"][0]["message"]["content"] for d in docs] == ["One.", "Two."]
    assert [d["text"] for d in docs] == ["One.", "Two."]


def test_commands_in_piped_input_are_not_sent(kimi_standin: KimiStandIn) -> None:
    kimi_standin.queue(Reply(text="ok"))
    script = "/effort medium\n/model kimi-k3.1-pro-highspeed\n/nonsense\n//slash first\n"
    proc = run("chat", "--base-url", kimi_standin.base_url, "--format", "chat",
               env=env_for(kimi_standin), input=script)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert len(kimi_standin.requests) == 1
    body = kimi_standin.requests[0].json
    assert body["reasoning_effort"] == "high" and body["model"] == "kimi-k3.1-pro-highspeed"
    assert body["messages"][-1]["content"] == "/slash first"
    assert "unknown command /nonsense" in proc.stderr
    assert proc.stdout == "ok\n"


@pytest.mark.parametrize(
    ("flag", "value", "says"),
    [
        ("--timeout", "0", "argument --timeout: must be a number of seconds above 0 and at most"),
        ("--timeout", "0", "(30 days), not 0"),
        ("--timeout", "-1", "argument --timeout: must be a number of seconds above 0"),
        ("--timeout", "1e10", "at most 2,592,000 (30 days), not 1e10"),
        ("--timeout", "nan", "argument --timeout: must be a number of seconds above 0"),
        ("--max-tokens", "0", "argument --max-tokens: must be at least 1, not 0"),
        ("--max-retries", "-1", "argument --max-retries: must be 0 or more, not -1"),
    ],
)
def test_bad_numbers_are_usage_errors(
    kimi_standin: KimiStandIn, flag: str, value: str, says: str
) -> None:
    proc = run("chat", "--base-url", kimi_standin.base_url, f"{flag}={value}", "hi",
               env=env_for(kimi_standin))  # fmt: skip
    assert proc.returncode == EXIT_USAGE
    assert says in proc.stderr
    assert "Errno" not in proc.stderr and "Traceback" not in proc.stderr
    assert kimi_standin.requests == []  # nothing was sent


def test_max_tokens_is_sent_as_given(kimi_standin: KimiStandIn) -> None:
    kimi_standin.queue(Reply(text="ok"))
    proc = run("chat", "--base-url", kimi_standin.base_url, "--max-tokens", "7", "hi",
               env=env_for(kimi_standin))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert kimi_standin.requests[-1].json["max_tokens"] == 7


def test_version() -> None:
    proc = run("--version", env=env_for())
    assert proc.returncode == 0
    assert proc.stdout == f"kimi {kimi_ext.__version__} (kimi-ext)\n"


def test_help_shows_how_to_use_the_stand_in() -> None:
    for args in (["--help"], ["chat", "--help"]):
        proc = run(*args, env=env_for())
        assert proc.returncode == 0
        assert "kimi stand-in --port 8765" in proc.stdout
        assert "kimi chat --base-url http://127.0.0.1:8765" in proc.stdout


def test_errors_name_flags_and_variables_not_python(kimi_standin: KimiStandIn) -> None:
    no_key = run("chat", "--base-url", kimi_standin.base_url, "hi", env=env_for())
    assert no_key.returncode == 6
    assert "KIMI_API_KEY" in no_key.stderr and "--api-key" in no_key.stderr
    assert "api_key=" not in no_key.stderr
    insecure = run("chat", "--base-url", "http://example.com", "hi", env=env_for(kimi_standin))
    assert insecure.returncode == 6
    assert "--base-url 'http://example.com'" in insecure.stderr
    assert "--allow-insecure-http" in insecure.stderr
    assert "allow_insecure_http" not in insecure.stderr and "base_url" not in insecure.stderr
    from_env = run("chat", "hi", env=env_for(kimi_standin, KIMI_BASE_URL="ftp://x"))
    assert from_env.returncode == 6 and "KIMI_BASE_URL 'ftp://x'" in from_env.stderr
    # The key given as a flag works (and is what the stand-in checks).
    kimi_standin.queue(Reply(text="ok"))
    flag = run("chat", "--base-url", kimi_standin.base_url, "--api-key", kimi_standin.api_key,
               "hi", env=env_for())  # fmt: skip
    assert flag.returncode == 0, flag.stderr


def test_stand_in_on_a_busy_port_is_one_line() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = run("stand-in", "--port", str(port), env=env_for(), timeout=30)
    assert proc.returncode == EXIT_STANDIN
    assert proc.stderr.splitlines() == [
        f"kimi: stand-in: cannot listen on 127.0.0.1:{port}: Address already in use"
    ]
    assert proc.stdout == ""


def test_the_stand_in_command_serves_kimi_chat(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [*CLI, "stand-in", "--port", str(port)], stdout=subprocess.PIPE, text=True, env=env_for()
    )
    try:
        assert server.stdout is not None
        assert server.stdout.readline() == f"Kimi stand-in listening on http://127.0.0.1:{port}\n"
        assert server.stdout.readline() == "API key: test-key\n"
        # Exactly what the help epilog and the README show.
        proc = run("chat", "--base-url", f"http://127.0.0.1:{port}", "Hello",
                   env=env_for(KIMI_API_KEY="test-key"))  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=20)
    assert server.returncode == 0


def interrupt_first_turn(standin: KimiStandIn, *args: str) -> subprocess.CompletedProcess[str]:
    standin.queue(Reply(text="y" * 4000, reasoning="r" * 200))
    standin.fault(Fault.slow_events(0.05))
    sent_before = len(standin.requests)  # a test may have used the stand-in already
    proc = Piped(["chat", "--base-url", standin.base_url, *args], env_for(standin))
    proc.write("first question\n")
    # The events of this turn, not earlier ones: its answer is arriving on stdout (which
    # carries nothing else), so the CLI is well past its start-up and inside the turn.
    proc.read_until("yyyy")
    assert len(standin.requests) == sent_before + 1
    proc.proc.send_signal(signal.SIGINT)
    return proc.finish()


def test_ctrl_c_during_the_first_turn_says_nothing_was_saved(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    saved = tmp_path / "slow.json"
    proc = interrupt_first_turn(kimi_standin, "--save", str(saved))
    assert proc.returncode == EXIT_INTERRUPTED
    assert f"interrupted; nothing was saved to {saved} (no answer was complete)" in proc.stderr
    assert "kept in" not in proc.stderr and "Traceback" not in proc.stderr
    assert not saved.exists()


def test_ctrl_c_during_the_first_turn_of_a_loaded_file_leaves_it_unchanged(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    saved = tmp_path / "talk.json"
    kimi_standin.queue(Reply(text="Noted."))
    first = run("chat", "--base-url", kimi_standin.base_url, "--save", str(saved), "apples",
                env=env_for(kimi_standin))  # fmt: skip
    assert first.returncode == 0, first.stderr
    before = saved.read_bytes()
    proc = interrupt_first_turn(kimi_standin, "--load", str(saved), "--save", str(saved))
    assert proc.returncode == EXIT_INTERRUPTED
    assert f"interrupted; {saved} was not changed (no answer was complete)" in proc.stderr
    assert saved.read_bytes() == before


def test_ctrl_c_without_save_says_only_interrupted(kimi_standin: KimiStandIn) -> None:
    proc = interrupt_first_turn(kimi_standin)
    assert proc.returncode == EXIT_INTERRUPTED
    assert proc.stderr.rstrip().endswith("\ninterrupted") or proc.stderr.strip() == "interrupted"
    assert "kept" not in proc.stderr and "saved" not in proc.stderr
