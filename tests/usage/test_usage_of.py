"""kimi_ext.usage: usage_of normalizes every format's token counts without double counting."""

from __future__ import annotations

import kimi_ext
from kimi_ext import Usage, usage_of


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


def test_usage_of_anything() -> None:
    assert usage_of(None) == Usage() and usage_of([1]) == Usage()
    assert usage_of({"usage": {"prompt_tokens": 3, "completion_tokens": 2}}).total == 5
    messages = usage_of({"usage": {"input_tokens": 1, "cache_creation_input_tokens": 4}})
    assert (messages.total_input, messages.cache_write) == (5, 4)
    responses = usage_of({"usage": {"input_tokens": 1, "output_tokens": 2}})
    assert (responses.total_input, responses.output) == (1, 2)
    assert usage_of({"choices": [{"usage": {"prompt_tokens": 9}}]}).total_input == 9
