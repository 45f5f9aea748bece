"""Prompt caching: reads for a known prefix, writes for a new one, per-format usage fields."""

from __future__ import annotations

from typing import Any

import pytest

from kimi_ext.testing import KimiStandIn, PromptCache, count_tokens
from kimi_ext.testing.caching import canonical
from tests.support.standin import K31, Wire, chat_body, messages_body, responses_body

SYSTEM = "You are a meticulous travel assistant. " * 8


def with_prefix(fmt: str, question: str, **extra: Any) -> dict[str, Any]:
    if fmt == "chat":
        messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]
        return chat_body(messages=messages, **extra)
    if fmt == "messages":
        return messages_body(question, system=SYSTEM, **extra)
    return responses_body(question, instructions=SYSTEM, **extra)


def cache_numbers(fmt: str, usage: dict[str, Any]) -> tuple[int, int, int]:
    """(total input, read, written) of a usage object."""
    if fmt == "chat":
        details = usage["prompt_tokens_details"]
        return usage["prompt_tokens"], details["cached_tokens"], details["cache_write_tokens"]
    if fmt == "responses":
        details = usage["input_tokens_details"]
        return usage["input_tokens"], details["cached_tokens"], details["cache_write_tokens"]
    read, write = usage["cache_read_input_tokens"], usage["cache_creation_input_tokens"]
    return usage["input_tokens"] + read + write, read, write


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_a_known_prefix_is_read_and_a_new_one_written(wire: Wire, fmt: str) -> None:
    total1, read1, write1 = cache_numbers(fmt, wire.ok(fmt, with_prefix(fmt, "Oslo?"))["usage"])
    assert read1 == 0 and write1 > 0 and total1 > write1
    total2, read2, write2 = cache_numbers(
        fmt, wire.ok(fmt, with_prefix(fmt, "And Bergen?"))["usage"]
    )
    assert (read2, write2) == (write1, 0)
    assert total2 > read2
    # another system prompt: a new prefix, written again
    other = with_prefix(fmt, "Oslo?")
    if fmt == "chat":
        other["messages"][0]["content"] = "Different."
    else:
        other["system" if fmt == "messages" else "instructions"] = "Different."
    _, read3, write3 = cache_numbers(fmt, wire.ok(fmt, other)["usage"])
    assert read3 == 0 and write3 > 0


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_no_prefix_means_no_cache_activity(wire: Wire, fmt: str) -> None:
    body = {"chat": chat_body, "messages": messages_body, "responses": responses_body}[fmt]("Hi")
    for _ in range(2):
        _, read, write = cache_numbers(fmt, wire.ok(fmt, body)["usage"])
        assert (read, write) == (0, 0)


def test_chat_totals_include_cached_tokens(wire: Wire) -> None:
    wire.ok("chat", with_prefix("chat", "a"))
    usage = wire.ok("chat", with_prefix("chat", "b"))["usage"]
    # the documented prefix: [header without absent fields, turns before the last user turn]
    prefix = count_tokens(canonical([{}, [{"role": "system", "content": SYSTEM}]]))
    assert usage["prompt_tokens_details"]["cached_tokens"] == prefix
    assert usage["prompt_tokens"] > prefix
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


def test_messages_input_tokens_exclude_cache_and_split_by_ttl(wire: Wire) -> None:
    first = wire.ok("messages", with_prefix("messages", "a"))["usage"]
    write = first["cache_creation_input_tokens"]
    assert first["cache_creation"] == {
        "ephemeral_5m_input_tokens": write,
        "ephemeral_1h_input_tokens": 0,
    }
    second = wire.ok("messages", with_prefix("messages", "b"))["usage"]
    assert second["cache_read_input_tokens"] == write
    assert second["cache_creation_input_tokens"] == 0
    assert second["input_tokens"] == first["input_tokens"]  # only the uncached part
    hour = wire.ok(
        "messages",
        with_prefix(
            "messages",
            "a",
            cache_control={"type": "ephemeral", "ttl": "1h"},
            tools=[{"name": "t", "input_schema": {"type": "object"}}],
        ),
    )["usage"]
    written = hour["cache_creation_input_tokens"]
    assert written > 0
    assert hour["cache_creation"] == {
        "ephemeral_5m_input_tokens": 0,
        "ephemeral_1h_input_tokens": written,
    }


def test_streams_report_cache_usage_too(wire: Wire) -> None:
    wire.ok("messages", with_prefix("messages", "a"))
    stream = wire.stream("messages", with_prefix("messages", "b"))
    start = stream.payloads()[0]["message"]["usage"]
    assert start["cache_read_input_tokens"] > 0 and start["output_tokens"] == 1
    assert (
        stream.payloads()[-2]["usage"]["cache_read_input_tokens"]
        == start["cache_read_input_tokens"]
    )
    wire.ok("chat", with_prefix("chat", "a"))
    chat = wire.stream("chat", with_prefix("chat", "b", stream_options={"include_usage": True}))
    assert chat.payloads()[-1]["usage"]["prompt_tokens_details"]["cached_tokens"] > 0


def test_the_prefix_is_everything_before_the_last_user_turn(wire: Wire) -> None:
    turn1 = chat_body(
        messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Q1"}]
    )
    _, read1, write1 = cache_numbers("chat", wire.ok("chat", turn1)["usage"])
    assert (read1, write1 > 0) == (0, True)  # the system prompt is the first prefix
    history = [*turn1["messages"], {"role": "assistant", "content": "A1"}]
    turn2 = chat_body(messages=[*history, {"role": "user", "content": "Q2"}])
    _, read, write = cache_numbers("chat", wire.ok("chat", turn2)["usage"])
    # The next turn reads what the first wrote and writes only Q1 + A1.
    assert read == write1 and write > 0
    retry = chat_body(messages=[*history, {"role": "user", "content": "Q2, rephrased"}])
    assert cache_numbers("chat", wire.ok("chat", retry)["usage"])[1:] == (read + write, 0)


def test_a_conversation_reads_the_longest_cached_prefix(wire: Wire) -> None:
    body = with_prefix("messages", "Q1")
    first = wire.ok("messages", body)["usage"]
    messages = [*body["messages"], {"role": "assistant", "content": "A1"}]
    body2 = {**body, "messages": [*messages, {"role": "user", "content": "Q2"}]}
    second = wire.ok("messages", body2)["usage"]
    assert second["cache_read_input_tokens"] == first["cache_creation_input_tokens"]
    assert second["cache_creation_input_tokens"] > 0
    other_model = {**body2, "model": "kimi-k3.1-pro-highspeed"}
    third = wire.ok("messages", other_model)["usage"]
    assert third["cache_read_input_tokens"] == 0  # caches are per model


def test_cache_key_model_and_tools_separate_prefixes(wire: Wire) -> None:
    wire.ok("chat", with_prefix("chat", "a", prompt_cache_key="one"))
    assert (
        cache_numbers(
            "chat", wire.ok("chat", with_prefix("chat", "b", prompt_cache_key="two"))["usage"]
        )[1]
        == 0
    )
    assert (
        cache_numbers(
            "chat", wire.ok("chat", with_prefix("chat", "b", prompt_cache_key="one"))["usage"]
        )[1]
        > 0
    )
    assert (
        cache_numbers(
            "chat",
            wire.ok("chat", with_prefix("chat", "b", model="kimi-k3.1-pro-highspeed"))["usage"],
        )[1]
        == 0
    )
    tools = [{"type": "function", "function": {"name": "f"}}]
    assert (
        cache_numbers("chat", wire.ok("chat", with_prefix("chat", "b", tools=tools))["usage"])[1]
        == 0
    )


def test_caching_can_be_switched_off() -> None:
    import httpx

    with KimiStandIn(caching=False) as standin:
        url = standin.base_url + "/v1/chat/completions"
        for _ in range(2):
            usage = httpx.post(
                url, json=with_prefix("chat", "a"), headers={"Authorization": "Bearer test-key"}
            ).json()["usage"]
            assert usage["prompt_tokens_details"] == {"cached_tokens": 0, "cache_write_tokens": 0}


def test_entries_expire_and_keep_their_original_ttl() -> None:
    now = [0.0]
    cache = PromptCache(clock=lambda: now[0])
    body = {
        "model": K31,
        "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "x"}],
    }

    def use(ttl: str = "5m") -> Any:
        return cache.use("chat", body, model=K31, group="", ttl=ttl)

    first = use("1h")
    assert first.write > 0 and first.write_ttl == "1h"
    now[0] = 3000.0
    again = use("5m")  # read: the entry keeps its 1h lifetime (and restarts it)
    assert (again.read, again.write, again.write_ttl) == (first.write, 0, "1h")
    now[0] = 3000.0 + 3599
    assert use().read > 0
    now[0] += 3601
    expired = use()
    assert (expired.read, expired.write, expired.write_ttl) == (0, first.write, "5m")
    cache.clear()
    assert use().read == 0
