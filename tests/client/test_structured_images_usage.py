"""Structured output, image helpers and normalized usage."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypedDict

import pytest
from client_helpers import OK, PATHS, minimal

import kimi_ext
from kimi_ext import Kimi, StructuredOutputError, usage_of
from kimi_ext._core.type_schema import schema_from_type
from kimi_ext.images import image_block, image_part, input_image, sniff_media_type, video_part

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 16
BMP = b"BM" + b"\x00" * 30
MP4 = b"\x00\x00\x00\x18ftypisom" + b"\x00" * 16


@dataclass
class Weather:
    """Current weather."""

    city: str
    celsius: float
    sky: Literal["clear", "cloudy"] = "clear"


class WeatherDict(TypedDict):
    city: str
    celsius: float


def reply_with(fmt: str, text: str, truncated: bool = False) -> dict[str, Any]:
    body = json.loads(json.dumps(OK[fmt]))
    if fmt == "chat":
        body["choices"][0]["message"]["content"] = text
        body["choices"][0]["finish_reason"] = "length" if truncated else "stop"
    elif fmt == "messages":
        body["content"][1]["text"] = text
        body["stop_reason"] = "max_tokens" if truncated else "end_turn"
    else:
        body["output"][0]["content"][0]["text"] = text
        body["status"] = "incomplete" if truncated else "completed"
    return body


def parse(client: Kimi, fmt: str, schema: Any) -> Any:
    resource: Any = {
        "chat": client.chat.completions,
        "messages": client.messages,
        "responses": client.responses,
    }[fmt]
    return resource.parse(schema=schema, **minimal(fmt))


def test_schema_from_dataclass_and_typeddict() -> None:
    assert schema_from_type(Weather) == {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "celsius": {"type": "number"},
            "sky": {"type": "string", "enum": ["clear", "cloudy"]},
        },
        "required": ["city", "celsius"],
        "additionalProperties": False,
        "description": "Current weather.",
    }
    assert schema_from_type(WeatherDict)["required"] == ["city", "celsius"]
    assert schema_from_type(list[int] | None) == {
        "anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]
    }
    with pytest.raises(TypeError, match="JSON Schema"):
        schema_from_type(complex)


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_parse_places_schema_and_returns_the_value(httpserver: Any, client: Kimi, fmt: str) -> None:
    httpserver.expect_request(PATHS[fmt]).respond_with_json(
        reply_with(fmt, '{"city": "Paris", "celsius": 21.5}')
    )
    out = parse(client, fmt, Weather)
    assert out.value == Weather(city="Paris", celsius=21.5)
    assert out.result.usage.output == 5 or out.result.usage.output == 4
    body = httpserver.log[0][0].get_json()
    schema = schema_from_type(Weather)
    if fmt == "chat":
        assert body["response_format"] == {
            "type": "json_schema",
            "json_schema": {"name": "Weather", "schema": schema, "strict": True},
        }
    elif fmt == "messages":
        assert body["output_config"] == {"format": {"type": "json_schema", "schema": schema}}
    else:
        assert body["text"] == {
            "format": {"type": "json_schema", "name": "Weather", "schema": schema, "strict": True}
        }


def test_parse_with_plain_json_schema(httpserver: Any, client: Kimi) -> None:
    schema = {
        "type": "object",
        "properties": {"result": {"type": "string"}},
        "required": ["result"],
    }
    httpserver.expect_request(PATHS["messages"]).respond_with_json(
        reply_with("messages", '{"result": "OK"}')
    )
    assert parse(client, "messages", schema).value == {"result": "OK"}


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_truncated_output_says_so(httpserver: Any, client: Kimi, fmt: str) -> None:
    httpserver.expect_request(PATHS[fmt]).respond_with_json(
        reply_with(fmt, '{"city": "Par', truncated=True)
    )
    with pytest.raises(StructuredOutputError, match="truncated") as info:
        parse(client, fmt, Weather)
    assert info.value.truncated is True
    assert info.value.text == '{"city": "Par'


def test_schema_mismatch_and_bad_json(httpserver: Any, client: Kimi) -> None:
    httpserver.expect_ordered_request(PATHS["chat"]).respond_with_json(
        reply_with("chat", '{"city": 3, "celsius": 1}')
    )
    httpserver.expect_ordered_request(PATHS["chat"]).respond_with_json(
        reply_with("chat", "sunny, 21C")
    )
    with pytest.raises(StructuredOutputError, match="at city") as info:
        parse(client, "chat", Weather)
    assert info.value.truncated is False
    with pytest.raises(StructuredOutputError, match="not valid JSON"):
        parse(client, "chat", Weather)


async def test_async_parse(httpserver: Any, aclient: Any) -> None:
    httpserver.expect_request(PATHS["responses"]).respond_with_json(
        reply_with("responses", '{"city": "Oslo", "celsius": -2}')
    )
    out = await aclient.responses.parse(schema=WeatherDict, **minimal("responses"))
    assert out.value == {"city": "Oslo", "celsius": -2}


def test_sniffing_and_blocks(tmp_path: Path) -> None:
    assert sniff_media_type(PNG) == "image/png"
    assert sniff_media_type(JPEG) == "image/jpeg"
    assert sniff_media_type(b"GIF89a....") == "image/gif"
    assert sniff_media_type(b"RIFF\x00\x00\x00\x00WEBPVP8 ") == "image/webp"
    assert sniff_media_type(MP4) == "video/mp4"
    path = tmp_path / "p.png"
    path.write_bytes(PNG)
    data = base64.b64encode(PNG).decode()
    assert image_block(path) == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": data},
    }
    assert image_part(PNG) == {
        "type": "image_url",
        "image_url": {"url": f"data:image/png;base64,{data}"},
    }
    assert input_image(str(path)) == {
        "type": "input_image",
        "image_url": f"data:image/png;base64,{data}",
    }
    assert video_part(MP4)["video_url"]["url"].startswith("data:video/mp4;base64,")
    assert image_part(BMP)["image_url"]["url"].startswith("data:image/bmp;base64,")


def test_image_rules_per_format(tmp_path: Path) -> None:
    with pytest.raises(kimi_ext.RequestValidationError, match="Messages images accept"):
        image_block(BMP)
    with pytest.raises(kimi_ext.RequestValidationError, match="Chat video"):
        video_part(PNG)
    with pytest.raises(kimi_ext.RequestValidationError, match="media type"):
        image_block(b"not an image")
    with pytest.raises(kimi_ext.RequestValidationError, match="cannot be read"):
        image_block(tmp_path / "missing.png")


def test_usage_is_normalized_without_double_counting() -> None:
    chat = {"choices": [], "usage": {"prompt_tokens": 100, "completion_tokens": 30, "total_tokens": 130,
            "prompt_tokens_details": {"cached_tokens": 60, "cache_write_tokens": 25},
            "completion_tokens_details": {"reasoning_tokens": 20}}}  # fmt: skip
    u = usage_of(chat)
    assert (
        u.total_input,
        u.cache_read,
        u.cache_write,
        u.uncached_input,
        u.output,
        u.reasoning,
    ) == (100, 60, 25, 15, 30, 20)
    assert u.cache_write_5m is None and u.cache_write_1h is None

    messages = {"type": "message", "content": [], "usage": {"input_tokens": 15, "cache_read_input_tokens": 60,
                "cache_creation_input_tokens": 25, "output_tokens": 30, "output_tokens_details": {"thinking_tokens": 20},
                "cache_creation": {"ephemeral_5m_input_tokens": 5, "ephemeral_1h_input_tokens": 20},
                "server_tool_use": {"web_search_requests": 2}}}  # fmt: skip
    u = usage_of(messages)
    assert (
        u.total_input,
        u.cache_read,
        u.cache_write,
        u.uncached_input,
        u.output,
        u.reasoning,
    ) == (100, 60, 25, 15, 30, 20)
    assert (u.cache_write_5m, u.cache_write_1h, u.web_search_requests) == (5, 20, 2)

    responses = {"object": "response", "output": [], "usage": {"input_tokens": 100, "output_tokens": 30,
                 "input_tokens_details": {"cached_tokens": 60, "cache_write_tokens": 25},
                 "output_tokens_details": {"reasoning_tokens": 20}}}  # fmt: skip
    u = usage_of(responses)
    assert (
        u.total_input,
        u.cache_read,
        u.cache_write,
        u.uncached_input,
        u.output,
        u.reasoning,
    ) == (100, 60, 25, 15, 30, 20)
    assert u.total == 130


def test_usage_in_first_choice_and_missing_usage() -> None:
    chat = {
        "object": "chat.completion",
        "choices": [{"index": 0, "usage": {"prompt_tokens": 7, "completion_tokens": 1}}],
    }
    assert usage_of(chat).total_input == 7
    assert usage_of({"choices": []}) == kimi_ext.Usage()
    assert usage_of(kimi_ext.ChatCompletion(chat)).total_input == 7
