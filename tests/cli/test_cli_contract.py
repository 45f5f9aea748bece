"""The ``kimi`` command's contract, through the real command: the ``--json`` envelope, the
saved-conversation file, usage errors, the exit-code table and Ctrl-C during start-up."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from kimi_ext import ChatHistory, KimiError, MessagesHistory, ResponsesHistory
from kimi_ext.cli import EXIT_INTERRUPTED, EXIT_SETUP, EXIT_STANDIN, EXIT_USAGE
from kimi_ext.cli.output import EXIT_CODES, EXIT_TABLE
from kimi_ext.testing import KimiStandIn, Reply, ToolCallSpec
from tests.support.cli import CLI, Piped, interrupt_at
from tests.support.paths import ROOT

HISTORY = {"chat": ChatHistory, "messages": MessagesHistory, "responses": ResponsesHistory}
CLI_PAGE = ROOT / "docs" / "cli.md"  # the kimi command's page of the docs
ENVELOPE_KEYS = {
    "format", "model", "request_id", "text", "reasoning", "tool_calls", "usage",
    "stop_reason", "raw",
}  # fmt: skip
USAGE_KEYS = {
    "total_input", "uncached_input", "cache_read", "cache_write", "cache_write_5m",
    "cache_write_1h", "output", "reasoning", "web_search_requests",
}  # fmt: skip


def env_for(standin: KimiStandIn | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIMI_")}
    if standin is not None:
        env["KIMI_API_KEY"] = standin.api_key
    env["PYTHONUNBUFFERED"] = "1"
    return env


def kimi(standin: KimiStandIn, *args: str, input: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, "chat", "--base-url", standin.base_url, *args],
        input=input, capture_output=True, text=True, env=env_for(standin), timeout=60,
    )  # fmt: skip


# --- --json: one envelope for every format ------------------------------------------------


@pytest.mark.parametrize("fmt", ["messages", "chat", "responses"])
@pytest.mark.parametrize("stream", [True, False])
def test_json_is_one_envelope_in_every_format(
    kimi_standin: KimiStandIn, fmt: str, stream: bool
) -> None:
    kimi_standin.queue(
        Reply(text="Let me look.", reasoning="Need the weather.",
              tool_calls=[ToolCallSpec("get_weather", {"city": "Oslo"})])
    )  # fmt: skip
    extra = [] if stream else ["--no-stream"]
    proc = kimi(kimi_standin, "--format", fmt, *extra, "--json", "Weather in Oslo?")
    assert proc.returncode == 0, proc.stderr
    (line,) = proc.stdout.splitlines()
    doc = json.loads(line)
    assert set(doc) == ENVELOPE_KEYS
    assert doc["format"] == fmt and doc["model"] == "kimi-k3.1-pro"
    assert doc["text"] == "Let me look." and doc["reasoning"] == "Need the weather."
    (call,) = doc["tool_calls"]
    assert call["name"] == "get_weather" and json.loads(call["arguments"]) == {"city": "Oslo"}
    assert call["id"] and call["type"]
    assert doc["stop_reason"] == {"chat": "tool_calls", "messages": "tool_use",
                                  "responses": "completed"}[fmt]  # fmt: skip
    assert isinstance(doc["request_id"], str) and doc["request_id"]
    assert set(doc["usage"]) == USAGE_KEYS
    usage = doc["usage"]
    # The normalized counts: those of the usage line on stderr.
    assert (
        f"usage: input {usage['total_input']} (cached {usage['cache_read']}, cache written "
        f"{usage['cache_write']}) · output {usage['output']} (reasoning {usage['reasoning']})"
    ) in proc.stderr
    assert doc["raw"]["usage"]  # the wire JSON, as received
    assert doc["raw"]["id"]


def test_json_lines_are_the_same_envelope_per_turn(kimi_standin: KimiStandIn) -> None:
    kimi_standin.queue(Reply(text="One."), Reply(text="Two."))
    proc = kimi(kimi_standin, "--json", "--format", "responses", input="first\nsecond\n")
    assert proc.returncode == 0, proc.stderr
    docs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [d["text"] for d in docs] == ["One.", "Two."]
    assert all(set(d) == ENVELOPE_KEYS for d in docs)


# --- the saved-conversation file ------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["messages", "chat", "responses"])
def test_a_saved_file_is_plain_json_that_history_loads_reads(
    kimi_standin: KimiStandIn, tmp_path: Path, fmt: str
) -> None:
    saved = tmp_path / "talk.json"
    kimi_standin.queue(Reply(text="Noted.", reasoning="Apples."))
    run = kimi(kimi_standin, "--format", fmt, "--effort", "low", "--save", str(saved), "apples")
    assert run.returncode == 0, run.stderr
    doc = json.loads(saved.read_text())
    assert isinstance(doc["items"], list)  # nested JSON, not a string of escaped JSON
    assert doc["cli"]["model"] == "kimi-k3.1-pro" and doc["cli"]["effort"] == "low"
    history = HISTORY[fmt].loads(saved.read_text())  # the library reads it as it is
    # Responses keeps the reasoning as an item of its own.
    assert len(history) == {"chat": 2, "messages": 2, "responses": 3}[fmt]
    assert "Noted." in json.dumps(history.to_wire())


@pytest.mark.parametrize("fmt", ["messages", "chat", "responses"])
def test_load_reads_a_history_dumps_file(
    kimi_standin: KimiStandIn, tmp_path: Path, fmt: str
) -> None:
    history = HISTORY[fmt]()
    history.add_user("Remember: pears")
    history.append({"role": "assistant", "content": "Noted."} if fmt != "responses" else
                   {"type": "message", "role": "assistant",
                    "content": [{"type": "output_text", "text": "Noted."}]},
                   model="kimi-k3")  # fmt: skip
    saved = tmp_path / "dumped.json"
    saved.write_text(history.dumps())
    kimi_standin.queue(Reply(text="Pears."))
    run = kimi(kimi_standin, "--load", str(saved), "--save", str(saved), "What did I say?")
    assert run.returncode == 0, run.stderr
    sent = kimi_standin.requests[-1]
    assert sent.path.endswith({"chat": "/chat/completions", "messages": "/messages",
                               "responses": "/responses"}[fmt])  # fmt: skip
    assert "Remember: pears" in json.dumps(sent.json)
    resumed = HISTORY[fmt].loads(saved.read_text())
    assert len(resumed) == {"chat": 4, "messages": 4, "responses": 5}[fmt]


def test_a_file_saved_by_the_earlier_cli_still_loads(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    history = ChatHistory()
    history.add_user("Remember: plums")
    history.append({"role": "assistant", "content": "Noted."}, model="kimi-k3")
    saved = tmp_path / "old.json"
    saved.write_text(json.dumps({"version": 1, "format": "chat", "history": history.dumps()}))
    kimi_standin.queue(Reply(text="Plums."))
    run = kimi(kimi_standin, "--load", str(saved), "again")
    assert run.returncode == 0, run.stderr
    assert kimi_standin.requests[-1].json["messages"][0]["content"] == "Remember: plums"


def test_load_restores_the_saved_model_and_effort_unless_given(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    saved = tmp_path / "talk.json"
    kimi_standin.queue(Reply(text="a"), Reply(text="b"), Reply(text="c"))
    args = ["--model", "kimi-k3.1-pro-highspeed", "--effort", "low", "--save", str(saved)]
    assert kimi(kimi_standin, *args, "one").returncode == 0
    assert kimi(kimi_standin, "--load", str(saved), "two").returncode == 0
    body = kimi_standin.requests[-1].json
    assert body["model"] == "kimi-k3.1-pro-highspeed"
    assert body["output_config"]["effort"] == "low"
    assert kimi(kimi_standin, "--load", str(saved), "--effort", "max", "three").returncode == 0
    assert kimi_standin.requests[-1].json["output_config"]["effort"] == "max"


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "cannot read it (No such file or directory)"),
        ("{not json", "not JSON ("),
        ("[1, 2]", "not a saved conversation (a JSON list, not an object)"),
        ('{"format": "chat"}', "not a saved conversation (no 'kimi_ext' key;"),
        ('{"kimi_ext": "Nope", "version": 1}', "not a saved conversation ('Nope';"),
        ('{"kimi_ext": "ChatHistory", "version": 1, "system": null, "items": 3, "turns": []}',
         "damaged ChatHistory: 'items' must be a list of objects"),
        ('{"kimi_ext": "ChatHistory", "version": 9}', "unsupported ChatHistory dump version 9"),
        ('{"version": 1, "format": "chat", "history": "{oops"}',
         "damaged: its 'history' is not JSON"),
    ],
)  # fmt: skip
def test_a_bad_file_is_named_with_what_is_wrong(
    kimi_standin: KimiStandIn, tmp_path: Path, content: str | None, says: str
) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    run = kimi(kimi_standin, "--load", str(path), "hi")
    assert run.returncode == 6, run.stderr
    (line,) = run.stderr.splitlines()
    assert line.startswith(f"kimi: ClientConfigError: --load {path}: "), line
    assert says in line
    assert "('format')" not in line and "Traceback" not in run.stderr
    assert kimi_standin.requests == []


# --- usage errors: the subcommand's usage, and a suggestion ---------------------------------


@pytest.mark.parametrize(
    ("args", "usage", "says"),
    [
        (["chat", "--formt", "chat", "hi"], "usage: kimi chat ",
         "kimi chat: error: unrecognized arguments: --formt (did you mean --format?)"),
        (["chat", "--hide-reasonig=1", "hi"], "usage: kimi chat ",
         "unrecognized arguments: --hide-reasonig=1 (did you mean --hide-reasoning?)"),
        (["chat", "--format", "chta", "hi"], "usage: kimi chat ",
         "argument --format: invalid choice: 'chta' (choose from chat, messages, responses); "
         "did you mean chat?"),
        (["stand-in", "--prot", "8765"], "usage: kimi stand-in ",
         "unrecognized arguments: --prot 8765 (did you mean --port?)"),
        (["caht", "hi"], "usage: kimi [-h]", "invalid choice: 'caht' (choose from chat, "
         "batch, stand-in, cassettes); did you mean chat?"),
        (["batch", "in.jsonl", "-o", "out.jsonl", "--rmp", "5"], "usage: kimi batch ",
         "unrecognized arguments: --rmp 5 (did you mean --rpm?)"),
    ],
)  # fmt: skip
def test_a_bad_flag_shows_its_commands_usage_and_a_close_match(
    args: list[str], usage: str, says: str
) -> None:
    proc = subprocess.run([*CLI, *args], capture_output=True, text=True, env=env_for(), timeout=60)
    assert proc.returncode == EXIT_USAGE
    assert proc.stderr.startswith(usage), proc.stderr
    assert says in proc.stderr


# --- one exit-code table --------------------------------------------------------------------


@pytest.mark.parametrize(
    "flags",
    [["--effort", "extreme"], ["--max-tokens", "0"], ["--model", "kimi-k3", "--effort", "low"],
     ["--timeout", "0"]],
)  # fmt: skip
def test_a_bad_value_exits_2_whichever_layer_refuses_it(
    kimi_standin: KimiStandIn, flags: list[str]
) -> None:
    run = kimi(kimi_standin, *flags, "hi")
    assert run.returncode == EXIT_USAGE, run.stderr
    assert flags[-2] in run.stderr  # the flag is named
    assert "Traceback" not in run.stderr
    assert kimi_standin.requests == []


def test_both_stand_in_commands_exit_7_on_a_busy_port() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        codes = {
            command[-1]: subprocess.run([*command, "--port", port], capture_output=True,
                                        env=env_for(), timeout=60).returncode
            for command in ([*CLI, "stand-in"], [sys.executable, "-m", "kimi_ext.testing"])
        }  # fmt: skip
    assert codes == {"stand-in": EXIT_STANDIN, "kimi_ext.testing": EXIT_STANDIN}


def test_stand_in_serves_a_script_file_and_refuses_a_broken_one(tmp_path: Path) -> None:
    script = tmp_path / "replies.json"
    script.write_text(json.dumps({"rules": [{"when": {"text": "ping"}, "reply": "pong"}]}))
    proc = subprocess.Popen(
        [*CLI, "stand-in", "--script", str(script)], stdout=subprocess.PIPE, text=True,
        env=env_for(),
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        base_url = proc.stdout.readline().rsplit(" ", 1)[-1].strip()
        key = proc.stdout.readline().rsplit(" ", 1)[-1].strip()
        assert proc.stdout.readline().startswith(f"Script: {script} (1 rules")
        done = subprocess.run(
            [*CLI, "chat", "--base-url", base_url, "--no-stream", "ping?"],
            capture_output=True, text=True, env={**env_for(), "KIMI_API_KEY": key}, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "pong"
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0
    script.write_text(json.dumps({"rules": [{"when": {"text": 5}, "reply": "x"}]}))
    broken = subprocess.run(
        [*CLI, "stand-in", "--script", str(script)], capture_output=True, text=True,
        env=env_for(), timeout=60,
    )  # fmt: skip
    assert broken.returncode == EXIT_SETUP
    assert broken.stdout == ""  # nothing was served
    (line,) = broken.stderr.strip().splitlines()
    assert str(script) in line and "rules[0].when.text" in line


def test_the_exit_table_covers_every_code_and_is_in_the_help_and_the_readme() -> None:
    rows = dict(EXIT_TABLE)

    def row_of(code: int) -> str:
        for row, meaning in rows.items():
            low, _, high = row.partition("-")
            if int(low) <= code <= int(high or low):
                return meaning
        raise AssertionError(f"exit code {code} is not in the table")

    for cls, code in EXIT_CODES:  # every code is in a row that names its class
        assert cls is KimiError or cls.__name__ in row_of(code), cls
    row_of(EXIT_STANDIN), row_of(EXIT_INTERRUPTED)
    shown = subprocess.run([*CLI, "--help"], capture_output=True, text=True, check=True).stdout
    table = shown.split("exit codes:\n", 1)[1]
    for code in rows:
        assert re.search(rf"^ +{code}  ", table, re.MULTILINE), code
    section = CLI_PAGE.read_text()
    for code in rows:
        assert f"| {code} |" in section, code


# --- Ctrl-C while the command starts --------------------------------------------------------


@pytest.mark.parametrize(
    "at",
    [
        "import httpx",  # the first heavy import (the package's names load lazily)
        "import argparse",  # while kimi_ext.cli is imported
        "open messages.json",  # while the format's contract is read
        "import httpcore",  # while the client is built
        "socket.connect",  # the first request is being sent
    ],
)
def test_ctrl_c_while_starting_exits_130_quietly(
    kimi_standin: KimiStandIn, tmp_path: Path, at: str
) -> None:
    env = env_for(kimi_standin)
    interrupt_at(tmp_path, env, at)
    proc = subprocess.run(
        [*CLI, "chat", "--base-url", kimi_standin.base_url, "hello"],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert proc.returncode == EXIT_INTERRUPTED, proc.stderr
    assert proc.stderr.strip() == "interrupted"
    assert proc.stdout == ""


def test_ctrl_c_typed_before_the_first_prompt_exits_130_quietly(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    env = env_for(kimi_standin)
    interrupt_at(tmp_path, env, "import argparse", wait=True)
    proc = Piped(["chat", "--base-url", kimi_standin.base_url], env)
    proc.read_until("<<starting: import argparse>>", stream="stderr")
    proc.proc.send_signal(signal.SIGINT)
    done = proc.finish()
    assert done.returncode == EXIT_INTERRUPTED, done.stderr
    assert done.stderr.replace("<<starting: import argparse>>", "").strip() == "interrupted"


def test_ctrl_c_while_starting_sends_and_saves_nothing(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    saved = tmp_path / "never.json"
    env = env_for(kimi_standin)
    interrupt_at(tmp_path, env, "import httpcore")
    proc = subprocess.run(
        [*CLI, "chat", "--base-url", kimi_standin.base_url, "--save", str(saved), "hello"],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert proc.returncode == EXIT_INTERRUPTED
    assert kimi_standin.requests == [] and not saved.exists()


def test_an_ignored_sigint_stays_ignored(kimi_standin: KimiStandIn, tmp_path: Path) -> None:
    # A job a shell starts with `&` ignores Ctrl-C; kimi keeps it so, as Python does.
    env = env_for(kimi_standin)
    interrupt_at(tmp_path, env, "import argparse")
    kimi_standin.queue(Reply(text="Still here."))
    proc = subprocess.run(
        [*CLI, "chat", "--base-url", kimi_standin.base_url, "hello"],
        capture_output=True, text=True, env=env, timeout=60,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "Still here.\n"
