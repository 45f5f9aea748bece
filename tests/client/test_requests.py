"""What the client puts on the wire, and what it makes of the answer."""

from __future__ import annotations

import json
from typing import Any

import pytest

import kimi_ext
from kimi_ext import ChatCompletion, Kimi, Message, Response
from tests.support.client import KEY, OK, PATHS, acreate, create, minimal

FORMATS = ("chat", "messages", "responses")
EFFORT_FIELD = {
    "chat": lambda body: body["reasoning_effort"],
    "messages": lambda body: body["output_config"]["effort"],
    "responses": lambda body: body["reasoning"]["effort"],
}


def serve(httpserver: Any, fmt: str, body: dict[str, Any] | None = None) -> None:
    httpserver.expect_request(PATHS[fmt], method="POST").respond_with_json(body or OK[fmt])


def sent(httpserver: Any, index: int = -1) -> Any:
    return httpserver.log[index][0]


@pytest.mark.parametrize("fmt", FORMATS)
def test_minimal_request_on_the_wire(httpserver: Any, client: Kimi, fmt: str) -> None:
    serve(httpserver, fmt)
    create(client, fmt, **minimal(fmt))
    request = sent(httpserver)
    assert request.get_json() == minimal(fmt)
    assert request.headers["Authorization"] == f"Bearer {KEY}"
    assert request.headers["Content-Type"] == "application/json"
    assert request.headers["Idempotency-Key"].startswith("kimi-ext-")
    assert request.headers["User-Agent"].startswith("kimi-ext/")
    if fmt == "messages":
        assert request.headers["anthropic-version"] == "2023-06-01"
    else:
        assert "anthropic-version" not in request.headers


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("given", "wire"),
    [("low", "low"), ("high", "high"), ("max", "max"), ("medium", "high"), ("xhigh", "max"),
     ("minimal", "low"), ("none", "low")],
)  # fmt: skip
def test_effort_aliases_are_normalized(
    httpserver: Any, client: Kimi, fmt: str, given: str, wire: str
) -> None:
    serve(httpserver, fmt)
    create(client, fmt, **minimal(fmt), effort=given)
    assert EFFORT_FIELD[fmt](sent(httpserver).get_json()) == wire


@pytest.mark.parametrize(
    ("fmt", "native"),
    [
        ("chat", {"reasoning_effort": "xhigh"}),
        ("messages", {"output_config": {"effort": "xhigh"}}),
        ("responses", {"reasoning": {"effort": "xhigh"}}),
    ],
)
def test_native_effort_field_is_normalized_too(
    httpserver: Any, client: Kimi, fmt: str, native: dict[str, Any]
) -> None:
    serve(httpserver, fmt)
    params = minimal(fmt, **native)
    snapshot = json.dumps(params)
    create(client, fmt, **params)
    assert EFFORT_FIELD[fmt](sent(httpserver).get_json()) == "max"
    assert json.dumps(params) == snapshot, "the caller's dicts must not be changed"


def test_effort_merges_with_other_output_config(httpserver: Any, client: Kimi) -> None:
    serve(httpserver, "messages")
    schema = {"type": "object", "properties": {"r": {"type": "string"}}}
    fmt = {"type": "json_schema", "schema": schema}
    create(
        client, "messages", **minimal("messages", output_config={"format": fmt}), effort="medium"
    )
    assert sent(httpserver).get_json()["output_config"] == {"format": fmt, "effort": "high"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_kimi_k3_accepts_only_max(httpserver: Any, client: Kimi, fmt: str) -> None:
    serve(httpserver, fmt)
    with pytest.raises(kimi_ext.RequestValidationError, match="kimi-k3"):
        create(client, fmt, **minimal(fmt, model="kimi-k3"), effort="high")
    assert httpserver.log == []
    create(client, fmt, **minimal(fmt, model="kimi-k3"), effort="xhigh")
    assert EFFORT_FIELD[fmt](sent(httpserver).get_json()) == "max"


def test_effort_and_native_field_must_agree(httpserver: Any, client: Kimi) -> None:
    with pytest.raises(kimi_ext.RequestValidationError, match="reasoning_effort"):
        create(client, "chat", **minimal("chat", reasoning_effort="low"), effort="max")
    create_ok = minimal("chat", reasoning_effort="medium")
    serve(httpserver, "chat")
    create(client, "chat", **create_ok, effort="high")  # same level after aliases
    assert sent(httpserver).get_json()["reasoning_effort"] == "high"


def test_none_values_are_left_out_and_extra_body_is_merged(httpserver: Any, client: Kimi) -> None:
    serve(httpserver, "chat")
    create(client, "chat", **minimal("chat", stop=None, tools=None), extra_body={"x_trace": 1})
    assert sent(httpserver).get_json() == {**minimal("chat"), "x_trace": 1}


def test_tuple_of_messages_is_sent_as_a_list(httpserver: Any, client: Kimi) -> None:
    serve(httpserver, "chat")
    msgs = ({"role": "user", "content": "a"},)
    create(client, "chat", model="kimi-k3.1-pro", messages=msgs)
    assert sent(httpserver).get_json()["messages"] == [{"role": "user", "content": "a"}]


def test_unicode_is_sent_as_utf8(httpserver: Any, client: Kimi) -> None:
    serve(httpserver, "chat")
    create(client, "chat", model="kimi-k3.1-pro", messages=[{"role": "user", "content": "你好 ✓"}])
    request = sent(httpserver)
    assert "你好 ✓".encode() in request.get_data()
    assert request.get_json()["messages"][0]["content"] == "你好 ✓"


def test_extra_headers_and_default_headers(httpserver: Any) -> None:
    serve(httpserver, "chat")
    with Kimi(api_key=KEY, base_url=httpserver.url_for(""), default_headers={"X-App": "a"}) as c:
        c.chat.completions.create(**minimal("chat"), extra_headers={"X-Call": "b"})
    request = sent(httpserver)
    assert request.headers["X-App"] == "a"
    assert request.headers["X-Call"] == "b"


def test_chat_result_accessors(httpserver: Any, client: Kimi) -> None:
    body = dict(OK["chat"], brand_new_field={"kept": True})
    httpserver.expect_request(PATHS["chat"]).respond_with_json(
        body, headers={"x-request-id": "rq-7"}
    )
    result = create(client, "chat", **minimal("chat"))
    assert isinstance(result, ChatCompletion)
    assert result.to_dict() == body
    assert result.text == "OK"
    assert result.reasoning == "think"
    assert result.finish_reason == "stop"
    assert result.tool_calls == []
    assert result.request_id == "rq-7"
    assert result.headers["x-request-id"] == "rq-7"
    assert result.usage.total_input == 10 and result.usage.output == 5
    assert result.parsed.to_dict() == body


def test_messages_result_accessors(httpserver: Any, client: Kimi) -> None:
    serve(httpserver, "messages")
    result = create(client, "messages", **minimal("messages"))
    assert isinstance(result, Message)
    assert (result.text, result.reasoning, result.stop_reason) == ("OK", "hm", "end_turn")
    assert result.parsed.to_dict() == OK["messages"]


def test_responses_result_accessors(httpserver: Any, client: Kimi) -> None:
    serve(httpserver, "responses")
    result = create(client, "responses", **minimal("responses"))
    assert isinstance(result, Response)
    assert (result.text, result.status) == ("OK", "completed")
    assert result.parsed.to_dict() == OK["responses"]


def test_tool_calls_are_typed_in_every_format(httpserver: Any, client: Kimi) -> None:
    chat = json.loads(json.dumps(OK["chat"]))
    chat["choices"][0]["message"]["tool_calls"] = [
        {"id": "functions.get_weather:0", "type": "function",
         "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}
    ]  # fmt: skip
    serve(httpserver, "chat", chat)
    (call,) = create(client, "chat", **minimal("chat")).tool_calls
    assert (call.id, call.name, call.input) == (
        "functions.get_weather:0",
        "get_weather",
        {"city": "Paris"},
    )


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_client_sends_the_same_wire(httpserver: Any, aclient: Any, fmt: str) -> None:
    serve(httpserver, fmt)
    result = await acreate(aclient, fmt, **minimal(fmt), effort="medium")
    assert result.text == "OK"
    body = sent(httpserver).get_json()
    assert EFFORT_FIELD[fmt](body) == "high"
    assert sent(httpserver).headers["Authorization"] == f"Bearer {KEY}"


async def test_async_client_context_manager(httpserver: Any) -> None:
    serve(httpserver, "chat")
    async with kimi_ext.AsyncKimi(api_key=KEY, base_url=httpserver.url_for("")) as c:
        assert (await c.chat.completions.create(**minimal("chat"))).text == "OK"


@pytest.mark.parametrize("fmt", FORMATS)
def test_sent_bodies_conform_to_the_generated_request_model(
    httpserver: Any, client: Kimi, fmt: str
) -> None:
    """The wire body round-trips through kimi_raw's request model: specs define the wire."""
    import importlib

    names = {
        "chat": ("kimi_raw.chat.models", "CreateChatCompletionRequest"),
        "messages": ("kimi_raw.messages.models", "CreateMessageRequest"),
        "responses": ("kimi_raw.responses.models", "CreateResponseRequest"),
    }
    serve(httpserver, fmt)
    create(client, fmt, **minimal(fmt), effort="minimal")
    body = sent(httpserver).get_json()
    module, name = names[fmt]
    model = getattr(importlib.import_module(module), name)
    assert model.from_dict(body).to_dict() == body
