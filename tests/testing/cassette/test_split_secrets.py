"""A piece of the key cut in two by a stream's frame boundary: the recorder scrubs it from
the text the frames carry joined, and ``kimi cassettes check`` finds it there, in the three
formats, in every streamed field (text, reasoning, tool-call arguments), in the forms the
scrubber covers (raw, URL-encoded, base64), wherever the boundary falls."""

from __future__ import annotations

import base64
import io
import json
import os
import re
import tempfile
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kimi_ext.cli import EXIT_CASSETTES, main
from kimi_ext.testing import KimiStandIn, Reply, ToolCallSpec
from kimi_ext.testing.cassette import Cassette, cassette_files
from kimi_ext.testing.check import check_folder
from tests.support.cassettes import FORMATS, UPSTREAM_KEY, ask, call, client_for

KEY = UPSTREAM_KEY
# Another account's key, which the application does not send (so the recorder does not know
# it): an upstream echoing it leaves it in the cassette, for the check to find.
OTHER_KEY = "sk-acct/Zr4Qw81+NdVx6TeY3pL0kGh7=MuB5cFo2J"
FIELDS = ("text", "reasoning", "arguments")
FORMS = {
    "raw": lambda key: key,
    "quoted": lambda key: urllib.parse.quote(key, safe=""),
    # The characters of a base64 form that depend on the key alone (not on its end).
    "base64": lambda key: base64.b64encode(key.encode()).decode()[:-4],
}


def windows(text: str, size: int = 8) -> set[str]:
    return {text[i : i + size] for i in range(len(text) - size + 1)}


def reply_with(field: str, text: str) -> Reply:
    if field == "text":
        return Reply(text=text, reasoning="Echoing.")
    if field == "reasoning":
        return Reply(text="Done.", reasoning=text)
    return Reply(reasoning="Calling.", tool_calls=[ToolCallSpec("note", {"note": text})])


def kimi(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, exit=lambda code: None)
    return code, out.getvalue()


@pytest.fixture(scope="module")
def upstream() -> Iterator[KimiStandIn]:
    """The "real" service; each example sets its chunk size (what decides the frame
    boundaries) and queues its reply."""
    with KimiStandIn(api_key=KEY) as service:
        yield service


def record(upstream: KimiStandIn, folder: Path, fmt: str, reply: Reply) -> dict[str, Any]:
    """Record one streamed call; returns what the application saw live."""
    upstream.queue(reply)
    with (
        KimiStandIn().record(folder / "c.json", upstream.base_url) as proxy,
        client_for(proxy.base_url, KEY) as client,
    ):
        return call(client, fmt, True, **ask(fmt, "Echo it")).result


def replayed(folder: Path, fmt: str) -> dict[str, Any]:
    """What the application sees when the cassette replays."""
    with (
        KimiStandIn(api_key=KEY).replay(folder / "c.json") as player,
        client_for(player.base_url, KEY) as client,
    ):
        return call(client, fmt, True, **ask(fmt, "Echo it")).result


SPLITS = dict(
    fmt=st.sampled_from(FORMATS),
    field=st.sampled_from(FIELDS),
    form=st.sampled_from(sorted(FORMS)),
    start=st.integers(0, 20),
    size=st.integers(8, 16),
    lead=st.integers(0, 24),  # text before the piece: moves it across the boundaries
    chunk=st.integers(2, 20),
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(**SPLITS)
def test_a_piece_split_across_frames_is_scrubbed_when_recording(
    upstream: KimiStandIn,
    fmt: str,
    field: str,
    form: str,
    start: int,
    size: int,
    lead: int,
    chunk: int,
) -> None:
    encoded = FORMS[form](KEY)
    piece = encoded[start : start + size]
    upstream.chunk_chars = chunk
    with tempfile.TemporaryDirectory() as where:
        folder = Path(where)
        live = record(upstream, folder, fmt, reply_with(field, "k" * lead + piece + " ok"))
        assert piece in json.dumps(live, ensure_ascii=False)  # echoed back live
        stored = (folder / "c.json").read_text()
        assert check_folder(folder, keys=[KEY]) == []
        again = json.dumps(replayed(folder, fmt), ensure_ascii=False)
        assert not windows(encoded) & windows(again), "a piece of the key survives, joined"
        assert "<redacted>" in again
        assert not windows(encoded) & windows(stored)


def test_the_reported_case_twelve_characters_in_two_chat_frames(
    upstream: KimiStandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    upstream.chunk_chars = 16
    record(upstream, tmp_path, "chat", Reply(text=f"your key: {KEY[:12]}\u2026 ok"))
    (interaction,) = Cassette.load(tmp_path / "c.json").interactions
    events = [json.loads(f.data.decode()[6:]) for f in interaction.reply.frames or ()
              if f.data.startswith(b"data: {")]  # fmt: skip
    texts = [e["choices"][0]["delta"].get("content") for e in events if e["choices"]]
    assert [t for t in texts if t] == ["your key: <redacted>", "\u2026 ok"]
    monkeypatch.setenv("KIMI_API_KEY", KEY)
    assert kimi("cassettes", "check", str(tmp_path)) == (0, f"{tmp_path}: no secret found\n")


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(**SPLITS)
def test_kimi_cassettes_check_finds_a_piece_split_across_frames(
    upstream: KimiStandIn,
    fmt: str,
    field: str,
    form: str,
    start: int,
    size: int,
    lead: int,
    chunk: int,
) -> None:
    piece = FORMS[form](OTHER_KEY)[start : start + size]
    upstream.chunk_chars = chunk
    with tempfile.TemporaryDirectory() as where:
        folder = Path(where)
        record(upstream, folder, fmt, reply_with(field, "k" * lead + piece + " ok"))
        (path,) = cassette_files(folder)
        problems = [str(p) for p in check_folder(path, keys=[OTHER_KEY])]
        assert problems, "the piece was not found"
        assert all(p.startswith(f"{path}: ") for p in problems)
        assert all(not windows(piece) & windows(p) for p in problems)  # never shown
        os.environ["KIMI_API_KEY"] = OTHER_KEY
        try:
            code, out = kimi("cassettes", "check", str(path))
        finally:
            del os.environ["KIMI_API_KEY"]
        assert code == EXIT_CASSETTES
        assert "API key" in out


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_key_like_string_split_across_frames_is_found_without_the_key(
    upstream: KimiStandIn, tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    upstream.chunk_chars = 5
    record(upstream, tmp_path, fmt, Reply(text=f"use {OTHER_KEY} now"))
    path = tmp_path / "c.json"
    monkeypatch.delenv("KIMI_API_KEY", raising=False)
    code, out = kimi("cassettes", "check", str(path))
    assert code == EXIT_CASSETTES
    assert f"{path}: interactions[0]: a prefixed key split across frames " in out


@pytest.mark.parametrize("chunk", [3, 5, 7])
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_users_own_secrets_split_across_frames_are_scrubbed(
    upstream: KimiStandIn, tmp_path: Path, fmt: str, chunk: int
) -> None:
    upstream.chunk_chars = chunk
    upstream.queue(Reply(text="For Jane Doe, account acct-1234567: all fine."))
    with (
        KimiStandIn().record(tmp_path / "c.json", upstream.base_url,
                    scrubbers=["Jane Doe", re.compile(r"acct-\d+")]) as proxy,
        client_for(proxy.base_url, KEY) as client,
    ):  # fmt: skip
        live = call(client, fmt, True, **ask(fmt, "Echo it")).result
    assert "Jane Doe" in json.dumps(live) and "acct-1234567" in json.dumps(live)
    again = json.dumps(replayed(tmp_path, fmt))
    assert "For <redacted>, account <redacted>: all fine." in again
    stored = (tmp_path / "c.json").read_text()
    assert not any(digits in stored for digits in ("1234567", "234567", "34567"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_line_separator_in_the_text_does_not_hide_the_frame(
    upstream: KimiStandIn, tmp_path: Path, fmt: str
) -> None:
    # U+2028 is written raw in the JSON; it does not end an SSE line.
    upstream.chunk_chars = 16
    record(upstream, tmp_path, fmt, Reply(text=f"a\u2028 your key: {KEY[:12]} ok"))
    again = json.dumps(replayed(tmp_path, fmt), ensure_ascii=False)
    assert "a\u2028 your key: <redacted> ok" in again
    assert check_folder(tmp_path, keys=[KEY]) == []


@pytest.mark.parametrize("cut", [1, 4, 7, 11])
@pytest.mark.parametrize("fmt", FORMATS)
def test_twelve_characters_cut_after_each_offset(
    upstream: KimiStandIn, tmp_path: Path, fmt: str, cut: int
) -> None:
    # 16-character deltas: the first frame ends with `cut` characters of the piece.
    upstream.chunk_chars = 16
    piece = KEY[3:15]
    record(upstream, tmp_path, fmt, Reply(text="k" * (16 - cut) + piece + " ok"))
    again = json.dumps(replayed(tmp_path, fmt), ensure_ascii=False)
    assert "k" * (16 - cut) + "<redacted> ok" in again
    assert not windows(KEY) & windows((tmp_path / "c.json").read_text())
