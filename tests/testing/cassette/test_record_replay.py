"""Record through the stand-in acting as a proxy in front of a second stand-in, then replay
with no upstream running: the application sees exactly what it saw while recording."""

from __future__ import annotations

import inspect
import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

import kimi_ext
from kimi_ext.testing import Fault, KimiStandIn, Reply, ToolCallSpec
from kimi_ext.testing.cassette import Cassette, CassetteError
from tests.support.cassettes import FORMATS, UPSTREAM_KEY, Seen, ask, call, client_for, endpoint


def record(upstream: KimiStandIn, path: Path, fmt: str, stream: bool, text: str) -> Seen:
    with KimiStandIn().record(path, upstream.base_url) as proxy:
        assert proxy.recording and not proxy.replaying
        with client_for(proxy.base_url, UPSTREAM_KEY) as client:
            return call(client, fmt, stream, **ask(fmt, text))


def replay(path: Path, fmt: str, stream: bool, text: str, **options: Any) -> Seen:
    with (
        KimiStandIn().replay(path, **options) as player,
        client_for(player.base_url, player.api_key) as client,
    ):
        return call(client, fmt, stream, **ask(fmt, text))


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_replay_gives_exactly_what_recording_gave(
    fmt: str, stream: bool, upstream: KimiStandIn, tmp_path: Path
) -> None:
    upstream.queue(Reply(text="Lisbon: walk Alfama, then Belém. 🚋", reasoning="Two days."))
    cassette = tmp_path / "trip.json"
    recorded = record(upstream, cassette, fmt, stream, "Plan two days in Lisbon.")
    assert recorded.result  # the upstream really answered through the proxy
    assert len(upstream.requests) == 1
    upstream.stop()  # replay with no upstream running

    replayed = replay(cassette, fmt, stream, "Plan two days in Lisbon.")

    assert replayed.result == recorded.result
    assert replayed.events == recorded.events
    assert replayed.request_id == recorded.request_id  # the service's, not the stand-in's
    if stream:
        assert len(recorded.events) > 5
        stored = Cassette.load(cassette).interactions[0].reply
        assert stored.frames is not None and stored.ending == "end"
        assert "text/event-stream" in stored.headers["content-type"]


def test_the_cassette_is_readable_json(upstream: KimiStandIn, tmp_path: Path) -> None:
    cassette = tmp_path / "c.json"
    record(upstream, cassette, "messages", True, "Hi")
    record(upstream, cassette, "chat", False, "Hello")  # appended to the same file
    document = json.loads(cassette.read_text())
    first, second = document["interactions"]
    assert first["request"]["json"]["messages"] == [{"role": "user", "content": "Hi"}]
    assert first["request"]["headers"]["anthropic-version"]
    frame = first["response"]["frames"][0]
    assert isinstance(frame[0], float) and frame[1].startswith("event: message_start\ndata: ")
    # One frame per line.
    lines = cassette.read_text().splitlines()
    assert sum('"event: ' in line for line in lines) == len(first["response"]["frames"])
    assert second["response"]["json"]["choices"][0]["message"]["content"] == "Hello"
    assert "frames" not in second["response"]


def test_a_folder_gets_one_cassette_per_exchange(upstream: KimiStandIn, tmp_path: Path) -> None:
    folder = tmp_path / "recorded"
    record(upstream, folder, "chat", True, "one")
    record(upstream, folder, "responses", False, "two")
    assert sorted(p.name for p in folder.iterdir()) == ["0001-chat.json", "0002-responses.json"]
    assert replay(folder, "responses", False, "two").result["output"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_tool_loop_replays(fmt: str, upstream: KimiStandIn, tmp_path: Path) -> None:
    def get_weather(city: str) -> dict[str, Any]:
        """Current weather in a city.

        Args:
            city: the city name.
        """
        return {"city": city, "celsius": 18}

    upstream.when(
        kimi_ext.testing.Match(text="Oslo", tool_result=False),
        Reply(tool_calls=[ToolCallSpec("get_weather", {"city": "Oslo"})], reasoning="Look."),
    )
    upstream.when(kimi_ext.testing.Match(tool_result=True), "It is 18 C in Oslo.")
    cassette = tmp_path / "tools.json"

    def loop(base_url: str, key: str) -> Any:
        with client_for(base_url, key) as client:
            return endpoint(client, fmt).run_tools(tools=[get_weather], **ask(fmt, "Oslo?"))

    with KimiStandIn().record(cassette, upstream.base_url) as proxy:
        recorded = loop(proxy.base_url, UPSTREAM_KEY)
    upstream.stop()
    with KimiStandIn().replay(cassette, strict=True) as player:
        replayed = loop(player.base_url, player.api_key)
    assert recorded.rounds == replayed.rounds == 2
    assert replayed.final.to_dict() == recorded.final.to_dict()
    assert replayed.final.text == "It is 18 C in Oslo."


def test_signed_thinking_comes_back_and_is_accepted(upstream: KimiStandIn, tmp_path: Path) -> None:
    """The replaying stand-in has another signing secret than the recorded service: it
    accepts the signatures the service gave, and still refuses a changed thinking block."""
    cassette = tmp_path / "signed.json"
    first = [{"role": "user", "content": "Think, then say hi."}]

    def converse(base_url: str, key: str) -> tuple[Any, Any]:
        with client_for(base_url, key) as client:
            with client.messages.stream(model="kimi-k3.1-pro", max_tokens=512, messages=first) as s:
                one = s.get_final_message()
            history = [*first, {"role": "assistant", "content": one.content},
                       {"role": "user", "content": "Again."}]  # fmt: skip
            two = client.messages.create(model="kimi-k3.1-pro", max_tokens=512, messages=history)
            return one, two

    with KimiStandIn().record(cassette, upstream.base_url) as proxy:
        one, two = converse(proxy.base_url, UPSTREAM_KEY)
    thinking = next(b for b in one.content if b["type"] == "thinking")
    assert thinking["signature"] and upstream.verify_thinking(
        thinking["thinking"], thinking["signature"]
    )
    upstream.stop()

    with KimiStandIn().replay(cassette) as player:
        assert not player.verify_thinking("made up", thinking["signature"])
        assert player.verify_thinking(thinking["thinking"], thinking["signature"])
        one_again, two_again = converse(player.base_url, player.api_key)
        assert two_again.to_dict() == two.to_dict()
        # A changed thinking block with the recorded signature: the history rules refuse it.
        forged = {**thinking, "thinking": thinking["thinking"] + " (edited)"}
        history = [*first, {"role": "assistant", "content": [forged, *one.content[1:]]},
                   {"role": "user", "content": "Again."}]  # fmt: skip
        with (
            client_for(player.base_url, player.api_key) as client,
            pytest.raises(kimi_ext.BadRequestError, match="signature"),
        ):
            client.messages.create(model="kimi-k3.1-pro", max_tokens=512, messages=history)
        assert not player.mismatches  # the front door refused it before any matching
    assert one_again.to_dict() == one.to_dict()


def test_an_error_reply_and_the_retry_replay(upstream: KimiStandIn, tmp_path: Path) -> None:
    cassette = tmp_path / "errors.json"
    upstream.fault(Fault.rate_limit(retry_after=0.01))
    upstream.queue("Finally.")

    def run(base_url: str, key: str) -> tuple[str, str]:
        with client_for(base_url, key, max_retries=1) as client:
            ok = client.chat.completions.create(**ask("chat", "Hi"))  # a 429, then the reply
            upstream.fault(Fault.server_error())  # (the replay never asks the upstream)
            with pytest.raises(kimi_ext.InternalServerError) as failed:
                client.chat.completions.create(**ask("chat", "Hi again"), max_retries=0)
            return ok.text, str(failed.value)

    with KimiStandIn().record(cassette, upstream.base_url) as proxy:
        recorded = run(proxy.base_url, UPSTREAM_KEY)
    statuses = [i.reply.status for i in Cassette.load(cassette).interactions]
    assert statuses == [429, 200, 500]
    assert Cassette.load(cassette).interactions[0].reply.headers["retry-after"] == "0.01"
    upstream.stop()
    with KimiStandIn().replay(cassette, strict=True) as player:
        assert run(player.base_url, player.api_key) == recorded
        assert len(player.requests) == 3


def test_the_contract_is_still_enforced(upstream: KimiStandIn, tmp_path: Path) -> None:
    cassette = tmp_path / "c.json"
    record(upstream, cassette, "chat", False, "Hi")
    with KimiStandIn().replay(cassette) as player:
        bad = {**ask("chat", "Hi"), "temperature": "warm"}
        reply = httpx.post(f"{player.base_url}/v1/chat/completions", json=bad,
                           headers={"Authorization": f"Bearer {player.api_key}"})  # fmt: skip
        assert reply.status_code == 400
        assert reply.json()["error"]["param"] == "temperature"
        wrong_key = httpx.post(f"{player.base_url}/v1/chat/completions", json=ask("chat", "Hi"),
                               headers={"Authorization": "Bearer nope"})  # fmt: skip
        assert wrong_key.status_code == 401
        assert not player.mismatches and len(player.unused_interactions()) == 1


def test_a_request_that_matches_nothing_names_the_closest(
    upstream: KimiStandIn, tmp_path: Path
) -> None:
    cassette = tmp_path / "c.json"
    record(upstream, cassette, "messages", False, "Weather in Oslo?")
    record(upstream, cassette, "messages", False, "Something else entirely")
    with KimiStandIn().replay(cassette) as player:
        with (
            client_for(player.base_url, player.api_key) as client,
            pytest.raises(kimi_ext.BadRequestError) as refused,
        ):
            client.messages.create(**{**ask("messages", "Weather in Rome?"), "max_tokens": 300})
        message = str(refused.value)
        assert f"{cassette} #0" in message
        assert "messages[0].content: recorded 'Weather in Oslo?', got 'Weather in Rome?'" in message
        assert "max_tokens: recorded 512, got 300" in message
        assert player.mismatches == [m for m in player.mismatches if "closest" in m]
        assert len(player.mismatches) == 1
        with pytest.raises(CassetteError, match="closest"):
            player.check_cassettes()


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_change_near_the_end_of_a_long_value_shows_in_the_mismatch(
    fmt: str, upstream: KimiStandIn, tmp_path: Path
) -> None:
    cassette = tmp_path / "c.json"
    long = "Summarise the following notes for me: " + "tram tiles Tagus " * 8
    record(upstream, cassette, fmt, False, long + "in Lisbon.")
    with KimiStandIn().replay(cassette) as player:
        with (
            client_for(player.base_url, player.api_key) as client,
            pytest.raises(kimi_ext.BadRequestError) as refused,
        ):
            endpoint(client, fmt).create(**ask(fmt, long + "in Porto."))
        (mismatch,) = player.mismatches
    # The same window of each value, around where they differ, marked as cut on both sides.
    field = "input" if fmt == "responses" else "messages[0].content"
    assert f"{field}: recorded '...tram tiles Tagus in Lisbon.', got '...tram" in mismatch
    assert ", got '...tram tiles Tagus in Porto.'" in mismatch
    assert mismatch in str(refused.value)
    # A long value differing early is cut after the window only.
    early = tmp_path / "early.json"
    record(upstream, early, fmt, False, "x" + long)
    with KimiStandIn().replay(early) as player, client_for(player.base_url, "test-key") as client:
        with pytest.raises(kimi_ext.BadRequestError):
            endpoint(client, fmt).create(**ask(fmt, "y" + long))
        (mismatch,) = player.mismatches
    shown = (long[:59] + "...'").replace("Summarise", "")
    assert f"{field}: recorded 'xSummarise{shown}, got 'ySummarise{shown}" in mismatch


def test_each_recording_answers_once_unless_repeats_are_allowed(
    upstream: KimiStandIn, tmp_path: Path
) -> None:
    cassette = tmp_path / "c.json"
    record(upstream, cassette, "chat", False, "Hi")
    assert replay(cassette, "chat", False, "Hi").result
    with (
        KimiStandIn().replay(cassette) as player,
        client_for(player.base_url, player.api_key) as client,
    ):
        client.chat.completions.create(**ask("chat", "Hi"))
        with pytest.raises(kimi_ext.BadRequestError, match="were all used"):
            client.chat.completions.create(**ask("chat", "Hi"))
    with (
        KimiStandIn().replay(cassette, allow_repeats=True) as player,
        client_for(player.base_url, player.api_key) as client,
    ):
        a = client.chat.completions.create(**ask("chat", "Hi"))
        b = client.chat.completions.create(**ask("chat", "Hi"))
        assert a.to_dict() == b.to_dict()


def test_matching_ignores_volatile_fields_and_can_be_adjusted(
    upstream: KimiStandIn, tmp_path: Path
) -> None:
    from kimi_ext.testing.matching import DEFAULT_IGNORE, Matcher

    cassette = tmp_path / "c.json"
    with (
        KimiStandIn().record(cassette, upstream.base_url) as proxy,
        client_for(proxy.base_url, UPSTREAM_KEY) as client,
    ):
        client.chat.completions.create(
            **ask("chat", "Hi"), safety_identifier="run-1", max_completion_tokens=200
        )
    again = {**ask("chat", "Hi"), "safety_identifier": "run-2", "max_completion_tokens": 300}
    matcher = Matcher(ignore=(*DEFAULT_IGNORE, "max_completion_tokens"))
    with (
        KimiStandIn().replay(cassette, matcher=matcher) as p,
        client_for(p.base_url, p.api_key) as client,
    ):
        assert client.chat.completions.create(**again).text == "Hi"
    # By default only safety_identifier is ignored.
    with (
        KimiStandIn().replay(cassette) as p,
        client_for(p.base_url, p.api_key) as client,
        pytest.raises(
            kimi_ext.BadRequestError, match="max_completion_tokens: recorded 200, got 300"
        ),
    ):
        client.chat.completions.create(**again)


def test_strict_replay_fails_on_an_unused_interaction(
    upstream: KimiStandIn, tmp_path: Path
) -> None:
    cassette = tmp_path / "c.json"
    record(upstream, cassette, "chat", False, "one")
    record(upstream, cassette, "chat", False, "two")
    with pytest.raises(CassetteError, match=r"unused: .*c\.json #1 \(POST /v1/chat/completions\)"):
        replay(cassette, "chat", False, "one", strict=True)
    replay(cassette, "chat", False, "one")  # not strict: fine


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_replayed_stream_cut_at_frame_k(fmt: str, upstream: KimiStandIn, tmp_path: Path) -> None:
    cassette = tmp_path / "c.json"
    recorded = record(upstream, cassette, fmt, True, "A long enough answer to cut.")
    stored = Cassette.load(cassette).interactions[0]
    frames = stored.reply.frames
    assert frames is not None
    with KimiStandIn().replay(cassette) as player:
        player.fault(Fault.cut_stream(after=3))
        with (
            client_for(player.base_url, player.api_key) as client,
            pytest.raises(kimi_ext.IncompleteStreamError),
        ):
            call(client, fmt, True, **ask(fmt, "A long enough answer to cut."))
    # What went over the wire: exactly the first three recorded frames, then the close.
    with KimiStandIn().replay(cassette) as player:
        player.fault(Fault.cut_stream(after=3))
        body = b""
        url = f"{player.base_url}{player_path(fmt)}"
        with (
            httpx.stream("POST", url, json=stored.body, headers=headers(player, fmt)) as response,
            pytest.raises(httpx.RemoteProtocolError),
        ):
            for chunk in response.iter_raw():
                body += chunk
        assert body == b"".join(f.data for f in frames[:3])
    assert recorded.events


def player_path(fmt: str) -> str:
    return {
        "chat": "/v1/chat/completions",
        "messages": "/v1/messages",
        "responses": "/v1/responses",
    }[fmt]


def headers(standin: KimiStandIn, fmt: str) -> dict[str, str]:
    out = {"Authorization": f"Bearer {standin.api_key}"}
    if fmt == "messages":
        out["anthropic-version"] = "2023-06-01"
    return out


def test_other_faults_apply_to_a_replay(upstream: KimiStandIn, tmp_path: Path) -> None:
    cassette = tmp_path / "c.json"
    record(upstream, cassette, "messages", True, "Hi")
    with KimiStandIn().replay(cassette, allow_repeats=True) as player:
        player.fault(Fault.error_event(after=2))
        with client_for(player.base_url, player.api_key) as client:
            with pytest.raises(kimi_ext.KimiError, match="Overloaded"):
                call(client, "messages", True, **ask("messages", "Hi"))
            player.fault(Fault.rate_limit(retry_after=None))
            with pytest.raises(kimi_ext.RateLimitError):
                call(client, "messages", True, **ask("messages", "Hi"))


def test_recorded_pacing_is_kept_or_dropped(upstream: KimiStandIn, tmp_path: Path) -> None:
    cassette = tmp_path / "c.json"
    record(upstream, cassette, "chat", True, "Hi")
    document = json.loads(cassette.read_text())
    document["interactions"][0]["response"]["frames"][1][0] = 0.4  # a pause before frame 1
    cassette.write_text(json.dumps(document))
    import time

    started = time.monotonic()
    replay(cassette, "chat", True, "Hi", timing="recorded")
    assert time.monotonic() - started >= 0.4
    with pytest.raises(ValueError, match="timing"):
        KimiStandIn().replay(cassette, timing="slow")  # type: ignore[arg-type]


def test_a_stream_is_relayed_as_it_arrives(tmp_path: Path) -> None:
    """The upstream sends two events and waits: the application already has them."""
    import socket

    release = threading.Event()
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    first = b'data: {"n":1}\n\n' + b'data: {"n":2}\n\n'

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                request += conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                         b"Transfer-Encoding: chunked\r\n\r\n")  # fmt: skip
            conn.sendall(b"%x\r\n%s\r\n" % (len(first), first))
            if not release.wait(30):
                return  # the proxy held the first events back: it never gets the rest
            rest = b"data: [DONE]\n\n"
            conn.sendall(b"%x\r\n%s\r\n0\r\n\r\n" % (len(rest), rest))

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    cassette = tmp_path / "c.json"
    try:
        with KimiStandIn().record(cassette, f"http://127.0.0.1:{port}") as proxy:
            url = f"{proxy.base_url}/v1/chat/completions"
            auth = {"Authorization": "Bearer k"}
            with httpx.stream("POST", url, content=b"{}", headers=auth, timeout=30) as response:
                lines = response.iter_lines()
                got = [next(lines), next(lines), next(lines), next(lines)]
                assert got == ['data: {"n":1}', "", 'data: {"n":2}', ""]
                release.set()  # only now does the upstream send the rest
                assert next(lines) == "data: [DONE]"
                # Read to the body's end: the proxy stores the reply before it ends the
                # body, so the cassette is written before the proxy stops (which waits for
                # a handler still relaying for a bounded time only).
                assert list(lines) == [""]
    finally:
        release.set()
        listener.close()
        server.join(10)
    frames = Cassette.load(cassette).interactions[0].reply.frames
    assert frames is not None
    assert [f.data for f in frames] == [
        b'data: {"n":1}\n\n',
        b'data: {"n":2}\n\n',
        b"data: [DONE]\n\n",
    ]


def test_an_upstream_cut_is_recorded_and_replayed_as_a_cut(
    upstream: KimiStandIn, tmp_path: Path
) -> None:
    cassette = tmp_path / "c.json"
    upstream.fault(Fault.cut_stream(after=4))
    with (
        KimiStandIn().record(cassette, upstream.base_url) as proxy,
        client_for(proxy.base_url, UPSTREAM_KEY) as client,
        pytest.raises(kimi_ext.IncompleteStreamError) as live,
    ):
        call(client, "responses", True, **ask("responses", "Hi"))
    stored = Cassette.load(cassette).interactions[0].reply
    assert stored.ending == "close" and stored.frames is not None and len(stored.frames) == 4
    upstream.stop()
    with (
        KimiStandIn().replay(cassette) as player,
        client_for(player.base_url, player.api_key) as client,
        pytest.raises(kimi_ext.IncompleteStreamError) as replayed,
    ):
        call(client, "responses", True, **ask("responses", "Hi"))
    assert replayed.value.partial.to_dict() == live.value.partial.to_dict()


def test_recording_setup_mistakes_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unencrypted"):
        KimiStandIn().record(tmp_path / "c.json", "http://api.example.com")
    with pytest.raises(CassetteError, match="no cassette there"):
        KimiStandIn().replay(tmp_path / "missing.json")
    (tmp_path / "broken.json").write_text('{"kimi_cassette": 1, "interactions": [{"request": {}}]}')
    with pytest.raises(
        CassetteError, match=r"broken\.json: interactions\[0\]: missing field 'response'"
    ):
        KimiStandIn().replay(tmp_path / "broken.json")


def test_an_unreachable_upstream_gets_a_502(tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with KimiStandIn().record(tmp_path / "c.json", f"http://127.0.0.1:{port}") as proxy:
        reply = httpx.post(f"{proxy.base_url}/v1/chat/completions", json=ask("chat", "Hi"),
                           headers={"Authorization": "Bearer k"})  # fmt: skip
    assert reply.status_code == 502
    assert "cannot reach the upstream" in reply.json()["error"]["message"]
    assert not (tmp_path / "c.json").exists()


def test_a_recording_stand_in_can_be_stopped_and_started_again(
    upstream: KimiStandIn, tmp_path: Path
) -> None:
    cassette = tmp_path / "c.json"
    proxy = KimiStandIn().record(cassette, upstream.base_url)
    for text in ("one", "two"):
        with proxy, client_for(proxy.base_url, UPSTREAM_KEY) as client:
            assert call(client, "chat", False, **ask("chat", text)).result
    assert [i.body["messages"][0]["content"] for i in Cassette.load(cassette).interactions] == [
        "one",
        "two",
    ]


def test_matching_on_the_query_string_is_optional(upstream: KimiStandIn, tmp_path: Path) -> None:
    from kimi_ext.testing.matching import Matcher

    cassette = tmp_path / "c.json"
    with KimiStandIn().record(cassette, upstream.base_url) as proxy:
        reply = httpx.post(f"{proxy.base_url}/v1/chat/completions?trace=1", json=ask("chat", "Hi"),
                           headers={"Authorization": f"Bearer {UPSTREAM_KEY}"})  # fmt: skip
        assert reply.status_code == 200
    assert Cassette.load(cassette).interactions[0].query == "trace=1"
    for matcher, status in ((Matcher(), 200), (Matcher(query=True), 400)):
        with KimiStandIn().replay(cassette, matcher=matcher) as player:
            reply = httpx.post(f"{player.base_url}/v1/chat/completions?trace=2",
                               json=ask("chat", "Hi"),
                               headers={"Authorization": f"Bearer {player.api_key}"})  # fmt: skip
            assert reply.status_code == status, reply.text
    assert "with the query 'trace=2' (recorded: 'trace=1')" in reply.json()["error"]["message"]


# ------------------------------------------------------- cassettes wrap the stand-in


def test_the_constructor_takes_server_settings_only() -> None:
    named = {
        name
        for name, p in inspect.signature(KimiStandIn).parameters.items()
        if p.kind is not inspect.Parameter.VAR_KEYWORD
    }
    assert not named & {"record", "upstream", "replay", "timing", "matcher", "strict_replay"}
    assert {"api_key", "port", "sse_transport", "strict_fields", "script"} <= named


@pytest.mark.parametrize("order", ["replay, then record", "record, then replay"])
def test_replay_and_record_compose_into_new_episodes(
    order: str, upstream: KimiStandIn, tmp_path: Path
) -> None:
    """Both wrappers, in either order: what the cassette answers is replayed, the rest is
    forwarded, answered by the service and added to the cassette."""
    cassette = tmp_path / "c.json"
    record(upstream, cassette, "chat", False, "one")
    standin = KimiStandIn()
    if order == "replay, then record":
        standin.replay(cassette).record(cassette, upstream.base_url)
    else:
        standin.record(cassette, upstream.base_url).replay(cassette)
    assert standin.recording and standin.replaying
    with standin, client_for(standin.base_url, UPSTREAM_KEY) as client:
        assert call(client, "chat", False, **ask("chat", "one")).result["choices"]
        assert call(client, "chat", False, **ask("chat", "two")).result["choices"]
    assert len(upstream.requests) == 2  # "one" was replayed, "two" forwarded
    assert len(Cassette.load(cassette).interactions) == 2
    upstream.stop()
    with (  # both are answered now, offline (strict: none went unused)
        KimiStandIn().replay(cassette, strict=True) as player,
        client_for(player.base_url, player.api_key) as client,
    ):
        for text in ("one", "two"):
            assert call(client, "chat", False, **ask("chat", text)).result["choices"]


def test_a_stand_in_is_wrapped_before_it_starts(upstream: KimiStandIn, tmp_path: Path) -> None:
    cassette = tmp_path / "c.json"
    record(upstream, cassette, "chat", False, "one")
    with KimiStandIn() as running:
        with pytest.raises(RuntimeError, match=r"replay\(\) wraps the stand-in before start"):
            running.replay(cassette)
        with pytest.raises(RuntimeError, match=r"record\(\) wraps the stand-in before start"):
            running.record(cassette, upstream.base_url)
        assert not running.recording and not running.replaying
    with pytest.raises(ValueError, match="already replays"):
        KimiStandIn().replay(cassette).replay(cassette)


def test_the_old_cassette_keywords_still_work_with_a_deprecation_warning(
    upstream: KimiStandIn, tmp_path: Path
) -> None:
    """``KimiStandIn(record=, upstream=)`` and ``KimiStandIn(replay=, ...)``: deprecated for
    a release, and doing what they did."""
    cassette = tmp_path / "c.json"
    with pytest.warns(DeprecationWarning, match=r"KimiStandIn\(record=, upstream=\)") as seen:
        proxy = KimiStandIn(record=cassette, upstream=upstream.base_url)
    assert seen[0].filename == __file__  # the warning points at the caller
    with proxy, client_for(proxy.base_url, UPSTREAM_KEY) as client:
        recorded = call(client, "chat", False, **ask("chat", "one"))
    upstream.stop()
    with pytest.warns(DeprecationWarning, match=r"\.replay\(path"):
        player = KimiStandIn(replay=cassette, strict_replay=True, allow_repeats=True)
    assert player.replaying and not player.recording and player.strict_replay
    with player, client_for(player.base_url, player.api_key) as client:
        assert call(client, "chat", False, **ask("chat", "one")).result == recorded.result
    with pytest.raises(ValueError, match="go together"):
        KimiStandIn(record=tmp_path / "c.json")
    with pytest.raises(TypeError, match="unexpected keyword argument 'replays'"):
        KimiStandIn(replays=cassette)  # type: ignore[call-arg]
