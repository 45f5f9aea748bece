"""The stand-in as an HTTP server: lifecycle, connections, recording, CLI, fixture."""

from __future__ import annotations

import inspect
import json
import logging
import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest

from kimi_ext.testing import Fault, KimiStandIn, Reply, serve_forever
from tests.support.standin import PATHS, Wire, chat_body, messages_body, parse_sse, responses_body


def standin_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("kimi-standin")]


def test_the_fixture_yields_a_started_standin(kimi_standin: KimiStandIn) -> None:
    assert kimi_standin.running
    assert kimi_standin.api_key == "test-key"
    assert kimi_standin.base_url == f"http://127.0.0.1:{kimi_standin.port}"
    assert kimi_standin.port > 0


def test_start_stop_and_context_manager_leave_no_threads() -> None:
    before = set(standin_threads())
    standin = KimiStandIn(api_key="k-1")
    assert not standin.running
    with pytest.raises(RuntimeError):
        _ = standin.base_url
    assert standin.start() is standin
    assert standin.start() is standin  # idempotent
    port = standin.port
    response = httpx.post(
        f"{standin.base_url}/v1/chat/completions",
        json=chat_body(),
        headers={"Authorization": "Bearer k-1"},
    )
    assert response.status_code == 200
    standin.stop()
    standin.stop()  # idempotent
    assert not standin.running
    assert set(standin_threads()) == before
    with pytest.raises(httpx.ConnectError):
        httpx.post(f"http://127.0.0.1:{port}/v1/chat/completions", json=chat_body())
    with KimiStandIn() as other:
        assert other.running
    assert not other.running


def test_two_standins_get_different_free_ports() -> None:
    with KimiStandIn() as one, KimiStandIn() as two:
        assert one.port != two.port


def test_stop_is_quick_with_open_keep_alive_and_hanging_connections() -> None:
    standin = KimiStandIn().start()
    client = httpx.Client(base_url=standin.base_url, headers={"Authorization": "Bearer test-key"})
    assert client.post(PATHS["chat"], json=chat_body()).status_code == 200  # kept alive
    standin.fault(Fault.slow_first_byte(30))
    errors: list[Exception] = []

    def hang() -> None:
        try:
            client.post(PATHS["chat"], json=chat_body())
        except httpx.TransportError as exc:
            errors.append(exc)

    hanging = threading.Thread(target=hang)
    hanging.start()
    deadline = time.monotonic() + 5
    while len(standin.requests) < 2 and time.monotonic() < deadline:
        time.sleep(0.005)
    started = time.monotonic()
    standin.stop()
    assert time.monotonic() - started < 1.0
    hanging.join(timeout=5)
    assert not hanging.is_alive()
    assert len(errors) == 1  # the waiting request was cut off
    client.close()
    assert standin_threads() == []


def test_keep_alive_is_reused_across_json_and_chunked_streams(wire: Wire) -> None:
    wire.ok("chat", chat_body())
    wire.stream("messages", messages_body())
    wire.ok("responses", responses_body())
    wire.stream("chat", chat_body())
    wire.ok("messages", messages_body())
    ports = {r.client for r in wire.standin.requests}
    assert len(ports) == 1  # one connection served all five


async def test_works_with_the_async_httpx_client(kimi_standin: KimiStandIn) -> None:
    headers = {"Authorization": "Bearer test-key", "anthropic-version": "2023-06-01"}
    async with httpx.AsyncClient(base_url=kimi_standin.base_url, headers=headers) as client:
        first = await client.post(PATHS["messages"], json=messages_body("ping"))
        assert first.json()["content"][-1]["text"] == "ping"
        async with client.stream("POST", PATHS["chat"], json=chat_body(stream=True)) as response:
            text = "".join([chunk async for chunk in response.aiter_text()])
        assert text.rstrip().endswith("data: [DONE]")
        second = await client.post(PATHS["responses"], json=responses_body())
        assert second.status_code == 200
    assert len({r.client for r in kimi_standin.requests}) == 1


def test_close_delimited_sse_transport() -> None:
    with KimiStandIn(sse_transport="close") as standin:
        headers = {"Authorization": "Bearer test-key"}
        with httpx.Client(base_url=standin.base_url, headers=headers) as client:
            with client.stream("POST", PATHS["chat"], json=chat_body(stream=True)) as response:
                assert "transfer-encoding" not in response.headers
                assert response.headers["connection"] == "close"
                events = parse_sse(response.read().decode())
            assert events[-1].data == "[DONE]"
            assert client.post(PATHS["chat"], json=chat_body()).status_code == 200
        first, second = standin.requests
        assert first.client != second.client  # the stream closed its connection
    with pytest.raises(ValueError):
        KimiStandIn(sse_transport="websocket")


def test_every_request_is_recorded_with_method_path_headers_and_json(wire: Wire) -> None:
    wire.post("chat", chat_body("one"), headers={"X-Trace": "t-1"})
    wire.post("messages", messages_body("two"), key="wrong")
    wire.post("responses", b"{not json")
    first, second, third = wire.standin.requests
    assert (first.method, first.path, first.format) == ("POST", "/v1/chat/completions", "chat")
    assert first.headers["x-trace"] == "t-1"
    assert first.headers["authorization"] == "Bearer test-key"
    assert first.json == chat_body("one")
    assert json.loads(first.body) == first.json
    assert first.request_id.startswith("req_")
    assert second.format == "messages" and second.json["messages"][0]["content"] == "two"
    assert third.json is None and third.body == b"{not json"
    assert wire.standin.last_request is third


def test_responses_carry_a_request_id_header(wire: Wire) -> None:
    response = wire.post("chat", chat_body())
    assert response.headers["x-request-id"] == wire.standin.last_request.request_id


def test_unknown_paths_and_methods(wire: Wire) -> None:
    response = wire.client.post("/v1/completions", json={}, headers=wire.headers())
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    response = wire.client.get(PATHS["chat"], headers=wire.headers())
    assert response.status_code == 405
    models = wire.client.get("/v1/models", headers=wire.headers()).json()
    assert [m["id"] for m in models["data"]] == [
        "kimi-k3.1-pro",
        "kimi-k3.1-pro-highspeed",
        "kimi-k3",
    ]
    assert wire.client.get("/v1/models").status_code == 401


def test_chunked_request_bodies_are_read(wire: Wire) -> None:
    def body() -> object:
        yield json.dumps(chat_body("chunked in")).encode()

    response = wire.client.post(PATHS["chat"], content=body(), headers=wire.headers())  # type: ignore[arg-type]
    assert response.status_code == 200
    assert response.json()["choices"][0]["message"]["content"] == "chunked in"


def test_reset_forgets_everything(standin: KimiStandIn, wire: Wire) -> None:
    standin.queue("queued")
    standin.fault(Fault.server_error())
    standin.responder = lambda request: Reply(text="x")
    wire.post("chat", chat_body())
    standin.queue("left over")
    standin.fault(Fault.quota())
    standin.reset()
    assert standin.requests == [] and standin.pending_replies == 0 and standin.pending_faults == 0
    assert standin.responder is None
    with pytest.raises(LookupError):
        _ = standin.last_request
    assert wire.ok("chat", chat_body("echo"))["choices"][0]["message"]["content"] == "echo"


def test_serve_forever_signature() -> None:
    params = inspect.signature(serve_forever).parameters
    assert params["port"].default == 0 and params["api_key"].default == "test-key"


def test_command_line_runs_until_interrupted() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "kimi_ext.testing", "--port", "0", "--api-key", "cli-key"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url_line = proc.stdout.readline()
        key_line = proc.stdout.readline()
        assert url_line.startswith("Kimi stand-in listening on http://127.0.0.1:")
        assert key_line.strip() == "API key: cli-key"
        base_url = url_line.rsplit(" ", 1)[-1].strip()
        response = httpx.post(
            base_url + PATHS["chat"],
            json=chat_body("from the cli"),
            headers={"Authorization": "Bearer cli-key"},
        )
        assert response.json()["choices"][0]["message"]["content"] == "from the cli"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_main_parses_port_and_key(monkeypatch: pytest.MonkeyPatch) -> None:
    from kimi_ext.testing import __main__ as cli

    calls: list[tuple[int, str]] = []
    monkeypatch.setattr(cli, "serve_forever", lambda port, api_key: calls.append((port, api_key)))
    cli.main(["--port", "8765"])
    cli.main(["--api-key", "sk-x"])
    assert calls == [(8765, "test-key"), (0, "sk-x")]


def test_a_raising_responder_is_a_visible_500(wire: Wire, standin: KimiStandIn) -> None:
    def broken(request: object) -> Reply:
        raise RuntimeError("script bug")

    standin.responder = broken
    detail = wire.error("messages", messages_body(), 500)
    assert "script bug" in detail["message"]


def test_internal_errors_are_a_visible_500(
    wire: Wire, standin: KimiStandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*args: object) -> None:
        raise KeyError("bug")

    monkeypatch.setattr(standin, "handle", boom)
    response = wire.client.post(PATHS["chat"], json=chat_body(), headers=wire.headers())
    assert response.status_code == 500
    assert "stand-in internal error" in response.json()["error"]["message"]


def test_non_ascii_keys_do_not_crash_auth(wire: Wire) -> None:
    response = wire.client.post(
        PATHS["chat"], json=chat_body(), headers={"Authorization": "Bearer clé".encode("latin-1")}
    )
    assert response.status_code == 401


def test_a_raising_responder_logs_one_line_per_request_and_answers_a_json_500(
    wire: Wire, standin: KimiStandIn, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(request: object) -> Reply:
        raise KeyError("city")

    standin.responder = broken
    caplog.set_level(logging.INFO, logger="kimi_ext.testing")  # not the debug access log
    for fmt in ("chat", "messages", "responses"):
        body = {"chat": chat_body, "messages": messages_body, "responses": responses_body}[fmt]()
        response = wire.post(fmt, body)
        assert response.status_code == 500
        assert response.json()["error"]["message"] == (
            "stand-in: the responder raised KeyError: 'city'"
        )
    records = [
        r for r in caplog.records if r.name == "kimi_ext.testing" and r.levelno >= logging.INFO
    ]
    assert len(records) == 3, [r.getMessage() for r in records]
    for record in records:
        assert record.levelno == logging.ERROR and record.exc_info is None
        line = record.getMessage()
        assert "\n" not in line
        assert line.startswith("stand-in: the responder raised KeyError: 'city' at ")
        assert "test_standin_server.py:" in line and line.endswith("; answering 500")
