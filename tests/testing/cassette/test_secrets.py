"""Nothing secret reaches a cassette: the key planted everywhere a careless recorder would
copy it from, in every form, and the user's own scrubbers."""

from __future__ import annotations

import base64
import json
import re
import socket
import threading
import urllib.parse
from pathlib import Path

import httpx
import pytest

import kimi_ext
from kimi_ext.testing import Fault, KimiStandIn, Match, Reply, ToolCallSpec
from kimi_ext.testing.cassette import Cassette, cassette_files
from kimi_ext.testing.check import check_folder
from kimi_ext.testing.scrub import Scrubber
from tests.support.cassettes import FORMATS, UPSTREAM_KEY, ask, call, client_for

KEY = UPSTREAM_KEY
B64 = base64.b64encode(KEY.encode()).decode()
BASIC = base64.b64encode(f"me:{KEY}".encode()).decode()
URLSAFE = base64.urlsafe_b64encode(f"xy{KEY}".encode()).decode()
QUOTED = urllib.parse.quote(KEY, safe="")
PLUS = urllib.parse.quote_plus(KEY)
PLANTED = f"key {KEY} b64 {B64} basic {BASIC} urlsafe {URLSAFE} quoted {QUOTED} plus {PLUS}"


def windows(text: str, size: int = 8) -> set[str]:
    return {text[i : i + size] for i in range(len(text) - size + 1)}


def forbidden() -> set[str]:
    """Every 8-character piece of the key, and of each encoded form planted (less the
    edge characters of a base64 form, which depend on what surrounds the key)."""
    pieces = windows(KEY) | windows(QUOTED) | windows(PLUS) | windows(KEY.replace("/", "\\/"))
    for encoded in (B64, BASIC, URLSAFE):
        pieces |= windows(encoded[4:-4])
    return pieces


def test_the_key_is_in_no_cassette_in_any_form(tmp_path: Path) -> None:
    folder = tmp_path / "recorded"
    with KimiStandIn(api_key=KEY) as upstream:
        upstream.when(Match(text="tool please"), Reply(
            tool_calls=[ToolCallSpec("login", {"token": KEY, "basic": BASIC})], reasoning=PLANTED
        ))  # fmt: skip
        with KimiStandIn().record(folder, upstream.base_url,
                         scrubbers=[re.compile(r"acct-\d+"), "Jane Doe"],
                         keep_headers=["x-debug", "x-echo"]) as proxy:  # fmt: skip
            headers = {
                "x-api-key": KEY,  # both credential headers at once
                "x-debug": KEY,  # allow-listed by the user: still scrubbed
                "anthropic-beta": QUOTED,  # allow-listed by default
                "Cookie": f"session={KEY}; theme=dark",
            }
            with client_for(proxy.base_url, KEY) as client:
                for fmt in FORMATS:
                    for stream in (False, True):
                        text = f"{PLANTED} for acct-12345 of Jane Doe"
                        seen = call(client, fmt, stream, **ask(fmt, text), extra_headers=headers)
                        assert KEY in json.dumps(seen.result)  # echoed back live
                call(client, "messages", True, **ask("messages", "tool please"),
                     metadata={"user_id": KEY})  # fmt: skip
                call(client, "chat", False, **ask("chat", "tool please"))
            # What no client sends, a careless application might.
            url = f"{proxy.base_url}/v1/chat/completions?api_key={QUOTED}&b={B64}"
            raw = httpx.post(url, json=ask("chat", PLANTED), headers={
                "Authorization": f"Bearer {KEY}", "Proxy-Authorization": f"Basic {BASIC}"})  # fmt: skip
            assert raw.status_code == 200
            upstream.fault(Fault.error(401, f"bad key {KEY}", headers={
                "x-request-id": f"req-{KEY}", "x-trace-id": QUOTED, "x-echo": B64,
                "set-cookie": f"s={KEY}"}))  # fmt: skip
            with client_for(proxy.base_url, KEY) as client, pytest.raises(kimi_ext.KimiError):
                call(client, "responses", False, **ask("responses", "Hi"))
    files = cassette_files(folder)
    assert len(files) == 10
    everything = "\n".join(p.read_text() for p in files)
    leaked = sorted(p for p in forbidden() if p in everything)
    assert not leaked
    assert "acct-12345" not in everything and "Jane Doe" not in everything
    assert "<redacted>" in everything and "for <redacted> of <redacted>" in everything
    for path in files:
        for interaction in Cassette.load(path).interactions:
            names = {*interaction.headers, *interaction.reply.headers}
            assert not names & {"authorization", "x-api-key", "cookie", "set-cookie",
                                "proxy-authorization"}  # fmt: skip
    kept = Cassette.load(files[-1]).interactions[0].reply
    assert kept.status == 401 and kept.headers["x-request-id"] == "req-<redacted>"
    assert kept.headers["x-echo"] == "<redacted>"
    assert check_folder(folder, keys=[KEY]) == []


@pytest.mark.parametrize("start", range(len(KEY) - 7))
def test_every_8_character_piece_of_the_key_is_scrubbed(start: int) -> None:
    scrubber = Scrubber()
    scrubber.add_secret(KEY)
    piece = KEY[start : start + 8]
    assert scrubber.scrub(f"before {piece} after") == "before <redacted> after"
    assert scrubber.scrub("a text with no key in it") == "a text with no key in it"


def test_a_short_key_is_not_searched() -> None:
    scrubber = Scrubber()
    scrubber.add_secret("k")  # a test's key: it would redact every k
    assert not scrubber.has_secrets
    assert scrubber.scrub("kimi_cassette") == "kimi_cassette"


def test_user_scrubbers_of_each_kind() -> None:
    scrubber = Scrubber([re.compile(r"acct-\d+"), "Jane", lambda text: text.upper()])
    assert scrubber.scrub("acct-42 Jane") == "<REDACTED> <REDACTED>"
    with pytest.raises(TypeError, match="a scrubber must be"):
        Scrubber([42])  # type: ignore[list-item]


def test_the_recording_stand_in_shows_no_key_in_its_requests(tmp_path: Path) -> None:
    with (
        KimiStandIn(api_key=KEY) as upstream,
        KimiStandIn().record(tmp_path / "c.json", upstream.base_url) as proxy,
        client_for(proxy.base_url, KEY) as client,
    ):
        call(client, "chat", False, **ask("chat", "Hi"))
        (seen,) = proxy.requests
        assert seen.headers["authorization"] == "<redacted>"
        assert KEY not in repr(proxy.requests)
        # ... while the upstream got it as the application sent it.
        assert upstream.requests[0].headers["authorization"] == f"Bearer {KEY}"


def test_no_repr_pickle_or_log_line_shows_the_key(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import logging
    import pickle

    scrubber = Scrubber()
    scrubber.add_secret(KEY)
    assert KEY[:8] not in repr(scrubber) and "keys known" in repr(scrubber)
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(scrubber)
    caplog.set_level(logging.DEBUG, logger="kimi_ext.testing")
    # An upstream that logs nothing of its own: every line caught is the proxy's.
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                request += conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 2\r\nConnection: close\r\n\r\n{}")  # fmt: skip

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    upstream = f"http://127.0.0.1:{listener.getsockname()[1]}"
    try:
        with KimiStandIn().record(tmp_path / "c.json", upstream) as proxy:
            url = f"{proxy.base_url}/v1/chat/completions?api_key={QUOTED}"
            auth = {"Authorization": f"Bearer {KEY}"}
            assert httpx.post(url, json=ask("chat", "Hi"), headers=auth).status_code == 200
    finally:
        listener.close()
        server.join(10)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "POST /v1/chat/completions?api_key=<redacted>" in logged
    assert not [p for p in forbidden() if p in logged]
