"""``kimi chat`` with a reply holding half a surrogate pair (a server that escaped each half
on its own, ``"\\ud83d"`` alone in its JSON): the answer is printed, in a pipe and on a
terminal, streamed and not, with U+FFFD for the lone half (a pair split over two stream
events is joined into its character); ``--json`` and ``--save`` keep the text exactly."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kimi_ext.formats import format_named
from kimi_ext.testing import KimiStandIn, Reply
from tests.support.hostile_server import CHAT_OK, SSE, RawServer, answer, chunk, head, replies

CLI = [sys.executable, "-m", "kimi_ext.cli"]
FORMATS = ["chat", "messages", "responses"]
TEXT, REASONING = "Hi \ud83d there", "R \udc00 done"
SHOWN, SHOWN_REASONING = "Hi \ufffd there", "R \ufffd done"


def env_for(key: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIMI_")}
    env.update(KIMI_API_KEY=key, PYTHONUNBUFFERED="1", TERM="dumb")
    return env


def strings(value: Any) -> Iterator[str]:
    """Every string in decoded JSON."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def assert_saved_exactly(path: Path, fmt: str, standin: KimiStandIn, texts: list[str]) -> None:
    """The saved file loads back (as a history and with ``--load``) holding ``texts`` as
    received, and the next turn sends them back escaped."""
    text = path.read_text("utf-8")
    history = format_named(fmt).history_type.loads(text)
    held = set(strings(json.loads(history.dumps())))
    assert all(t in held for t in texts), held
    assert set(strings(json.loads(text))) >= set(texts)
    standin.queue(Reply(text="again"))
    run = subprocess.run(
        [*CLI, "chat", "--base-url", standin.base_url, "--load", str(path), "--no-stream", "more"],
        capture_output=True, env=env_for(standin.api_key), timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert b"Hi \\ud83d there" in standin.requests[-1].body


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("fmt", FORMATS)
def test_in_a_pipe_a_lone_half_is_printed_and_saved(
    kimi_standin: KimiStandIn, tmp_path: Path, fmt: str, stream: bool
) -> None:
    kimi_standin.queue(Reply(text=TEXT, reasoning=REASONING))
    saved = tmp_path / "talk.json"
    flags = [] if stream else ["--no-stream"]
    run = subprocess.run(
        [*CLI, "chat", "--base-url", kimi_standin.base_url, "--format", fmt, *flags,
         "--save", str(saved), "hi"],
        capture_output=True, env=env_for(kimi_standin.api_key), timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    assert run.stdout.decode("utf-8") == SHOWN + "\n"  # valid UTF-8, nothing dropped
    assert SHOWN_REASONING in run.stderr.decode("utf-8")
    assert_saved_exactly(saved, fmt, kimi_standin, [TEXT, REASONING])


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("fmt", FORMATS)
def test_json_output_keeps_a_lone_half_as_an_escape(
    kimi_standin: KimiStandIn, fmt: str, stream: bool
) -> None:
    kimi_standin.queue(Reply(text=TEXT, reasoning=REASONING))
    flags = [] if stream else ["--no-stream"]
    run = subprocess.run(
        [*CLI, "chat", "--base-url", kimi_standin.base_url, "--format", fmt, *flags, "--json", "hi"],
        capture_output=True, env=env_for(kimi_standin.api_key), timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    line = run.stdout.decode("utf-8")
    assert line.isascii() and line.count("\n") == 1
    doc = json.loads(line)
    assert (doc["text"], doc["reasoning"]) == (TEXT, REASONING)


# --- the exact bytes of a server that escapes each half on its own -------------------------


def test_a_pair_split_over_two_stream_events_is_joined(tmp_path: Path) -> None:
    # b'"\\ud83d"' then b'"\\ude00"': each half escaped alone, in two events; then a lone
    # high half at the very end, which no second half follows.
    events = b"".join(
        chunk(piece) for piece in ["Smile ", "\ud83d", "\ude00", " and ", "\ud83d"]
    ) + chunk(finish="stop") + b"data: [DONE]\n\n"  # fmt: skip
    assert b'"content": "\\ud83d"' in events and b'"content": "\\ude00"' in events
    with RawServer(replies(head(200, SSE) + events)) as server:
        saved = tmp_path / "talk.json"
        run = subprocess.run(
            [*CLI, "chat", "--base-url", server.base_url, "--format", "chat",
             "--save", str(saved), "hi"],
            capture_output=True, env=env_for("sk-test-0123456789"), timeout=60,
        )  # fmt: skip
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    assert run.stdout.decode("utf-8") == "Smile \U0001f600 and \ufffd\n"
    # Saved as the JSON escapes they came as: read back, the pair is its one character
    # again (as JSON reads it) and the lone half is kept.
    held = set(strings(json.loads(saved.read_text("utf-8"))))
    assert "Smile \U0001f600 and \ud83d" in held


def test_a_lone_half_in_a_json_body_is_printed(tmp_path: Path) -> None:
    body = json.loads(json.dumps(CHAT_OK))
    body["choices"][0]["message"]["content"] = "Hi \ud83d there"
    raw = answer(200, json.dumps(body))
    assert b'"Hi \\ud83d there"' in raw
    with RawServer(replies(raw)) as server:
        saved = tmp_path / "talk.json"
        run = subprocess.run(
            [*CLI, "chat", "--base-url", server.base_url, "--format", "chat", "--no-stream",
             "--save", str(saved), "hi"],
            capture_output=True, env=env_for("sk-test-0123456789"), timeout=60,
        )  # fmt: skip
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    assert run.stdout.decode("utf-8") == "Hi \ufffd there\n"
    assert "Hi \ud83d there" in set(strings(json.loads(saved.read_text("utf-8"))))


# --- on a terminal --------------------------------------------------------------------------


def run_on_a_terminal(args: list[str], env: dict[str, str], timeout: float = 60) -> bytes:
    """``kimi`` with a pty for stdin, stdout and stderr; everything it wrote, once it exits."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([*CLI, *args], stdin=slave, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    screen = b""
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], end - time.monotonic())
            if not ready:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            screen += data
        assert proc.wait(timeout=max(end - time.monotonic(), 1)) == 0, screen
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return screen


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("fmt", FORMATS)
def test_on_a_terminal_a_lone_half_is_shown_and_saved(
    kimi_standin: KimiStandIn, tmp_path: Path, fmt: str, stream: bool
) -> None:
    kimi_standin.queue(Reply(text=TEXT, reasoning=REASONING))
    saved = tmp_path / "talk.json"
    flags = [] if stream else ["--no-stream"]
    screen = run_on_a_terminal(
        ["chat", "--base-url", kimi_standin.base_url, "--format", fmt, *flags,
         "--save", str(saved), "hi"],
        env_for(kimi_standin.api_key),
    )  # fmt: skip
    shown = screen.decode("utf-8")
    assert SHOWN in shown and SHOWN_REASONING in shown
    assert "Traceback" not in shown
    assert_saved_exactly(saved, fmt, kimi_standin, [TEXT, REASONING])


@pytest.mark.parametrize("stream", [True, False])
def test_an_output_encoding_without_the_characters_gets_replacements(
    kimi_standin: KimiStandIn, stream: bool
) -> None:
    # stdout in an encoding that lacks the answer's characters (a latin-1 locale): printed
    # with the codec's "?", and --json as ASCII escapes; never a UnicodeEncodeError.
    flags = [] if stream else ["--no-stream"]
    env = {**env_for(kimi_standin.api_key), "PYTHONIOENCODING": "latin-1"}
    for json_flag in ([], ["--json"]):
        kimi_standin.queue(Reply(text="你好 \ud83d ok", reasoning="é"))
        run = subprocess.run(
            [*CLI, "chat", "--base-url", kimi_standin.base_url, *flags, *json_flag, "hi"],
            capture_output=True, env=env, timeout=60,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr.decode("latin-1")
        if json_flag:
            assert json.loads(run.stdout)["text"] == "你好 \ud83d ok"
        else:
            assert run.stdout == b"?? ? ok\n"
            assert b"\xe9" in run.stderr  # the reasoning's é, in latin-1
