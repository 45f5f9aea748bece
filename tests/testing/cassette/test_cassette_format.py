"""The cassette file: what is stored reproduces the bytes received, whatever they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kimi_ext.testing.cassette import Cassette, CassetteError, Frame, Interaction, RecordedReply
from kimi_ext.testing.matching import Matcher, differences
from kimi_ext.testing.recorder import split_frames


def roundtrip(tmp_path: Path, reply: RecordedReply, body: object = None) -> RecordedReply:
    cassette = Cassette(tmp_path / "c.json", [Interaction("POST", "/v1/responses", body, reply)])
    cassette.save()
    (loaded,) = Cassette.load(cassette.path).interactions
    assert loaded.body == body
    return loaded.reply


@pytest.mark.parametrize(
    ("raw", "stored_as"),
    [
        (b'{"id":"resp_1","output":[]}', "json"),  # compact
        (b'{"id": "resp_1", "text": "caf\\u00e9"}', "json"),  # spaced, ASCII escapes
        (b'{"b":1,"a":[1.0,2]}', "json"),  # key order and 1.0 kept
        (b'{"a":  1}', "text"),  # spacing no style reproduces
        (b"<html>502 Bad Gateway</html>", "text"),
        (b"\xff\xfe not utf-8", "base64"),
        (b"", "text"),
    ],
)
def test_a_body_comes_back_byte_for_byte(raw: bytes, stored_as: str, tmp_path: Path) -> None:
    reply = roundtrip(tmp_path, RecordedReply(502, {"content-type": "x"}, body=raw), {"q": 1})
    assert reply.body == raw
    document = json.loads((tmp_path / "c.json").read_text())
    assert stored_as in document["interactions"][0]["response"]


def test_frames_come_back_byte_for_byte(tmp_path: Path) -> None:
    frames = [
        Frame(b'event: response.created\ndata: {"a":"\\ud83d"}\n\n', 0.25),
        Frame(b"data: caf\xc3\xa9\r\n\r\n", 0.0),
        Frame(b"data: \xff broken utf-8\n\n", 1.5),
        Frame(b'data: {"cut', 0.001),  # the stream broke off mid-event
    ]
    reply = roundtrip(tmp_path, RecordedReply(200, frames=frames, ending="close"))
    assert reply.frames == frames and reply.ending == "close"
    lines = (tmp_path / "c.json").read_text().splitlines()
    assert any(
        line.strip() == '[0.25, "event: response.created\\ndata: {\\"a\\":\\"\\\\ud83d\\"}\\n\\n"],'
        for line in lines
    )


def test_split_frames_keeps_every_separator() -> None:
    frames, rest = split_frames(b"data: 1\n\ndata: 2\r\n\r\nevent: x\r\rdata: par")
    assert frames == [b"data: 1\n\n", b"data: 2\r\n\r\n", b"event: x\r\r"]
    assert rest == b"data: par"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{", "not JSON"),
        ('{"interactions": []}', 'not a kimi cassette (needs "kimi_cassette": 1)'),
        ('{"kimi_cassette": 1, "interactions": {}}', "interactions: must be a list"),
        ('{"kimi_cassette": 1, "interactions": [{"request": {"method": "POST", "path": "/"},'
         ' "response": {"status": 200, "ending": "maybe", "frames": []}}]}',
         "interactions[0]: response.ending: must be 'end' or 'close', not 'maybe'"),
        ('{"kimi_cassette": 1, "interactions": [{"request": {"method": "POST", "path": "/"},'
         ' "response": {"status": 200, "frames": [[0, 5]]}}]}',
         "interactions[0]: a frame or body must be text"),
    ],
)  # fmt: skip
def test_a_broken_cassette_names_the_file_and_the_place(
    text: str, problem: str, tmp_path: Path
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(text)
    with pytest.raises(CassetteError) as error:
        Cassette.load(path)
    assert str(error.value).startswith(f"{path}: ")
    assert problem in str(error.value)


def test_the_matcher_ignores_paths_with_wildcards() -> None:
    matcher = Matcher(ignore=("messages.*.cache_control", "metadata.user_id", "tools.1"))
    body = {
        "messages": [{"role": "user", "content": "x", "cache_control": {"type": "ephemeral"}}],
        "metadata": {"user_id": "u1", "keep": 1},
        "tools": ["a", "b", "c"],
    }
    assert matcher.canonical(body) == {
        "messages": [{"role": "user", "content": "x"}],
        "metadata": {"keep": 1},
        "tools": ["a", "c"],
    }
    assert body["metadata"]["user_id"] == "u1"  # the request itself is left alone
    normalized = Matcher(normalize=lambda b: {**b, "model": "any"})
    assert normalized.canonical({"model": "kimi-k3"}) == {"model": "any"}


def test_differences_name_each_path() -> None:
    found = differences(
        {"a": [1, {"b": "x"}], "c": True, "n": 1},
        {"a": [1, {"b": "y"}, 3], "d": None, "n": 1.0},
    )
    assert [d.describe() for d in found] == [
        "a[1].b: recorded 'x', got 'y'",
        "a[2]: recorded (missing), got 3",
        "c: recorded True, got (missing)",
        "d: recorded (missing), got None",
    ]
