"""KimiStandIn(token_counter=...): the stand-in counts every token by the rule it is given
(input and cache tokens, output tokens, and where the output limit cuts an answer)."""

from __future__ import annotations

import math

from kimi_ext import Kimi
from kimi_ext.testing import KimiStandIn, Reply, count_tokens


def per_word(text: str) -> int:
    return len(text.split())


def test_the_default_rule_is_count_tokens() -> None:
    with KimiStandIn() as standin, Kimi(api_key=standin.api_key, base_url=standin.base_url) as c:
        standin.queue(Reply(text="one two three four five", reasoning="a b"))
        done = c.chat.completions.create(
            model="kimi-k3.1-pro", messages=[{"role": "user", "content": "Hi"}]
        )
        assert standin.token_counter is count_tokens
        assert done.usage.output == count_tokens("a b") + count_tokens("one two three four five")


def test_a_given_rule_counts_input_output_and_cuts() -> None:
    with (
        KimiStandIn(token_counter=per_word) as standin,
        Kimi(api_key=standin.api_key, base_url=standin.base_url) as c,
    ):
        text = " ".join(f"w{i}" for i in range(40))
        standin.queue(Reply(text=text, reasoning="think it over"))
        done = c.messages.create(
            model="kimi-k3.1-pro", max_tokens=1000,
            messages=[{"role": "user", "content": "a b c d e f"}],
        )  # fmt: skip
        assert done.usage.output == 3 + 40
        body = standin.last_request.json
        # The input is the rule applied to the canonical JSON of the request's turns.
        assert done.usage.total_input == max(1, per_word(
            '[{"content":"a b c d e f","role":"user"}]'
        ))  # fmt: skip
        # The output limit cuts where the rule says 10 tokens end: 3 of reasoning, 7 words.
        standin.queue(Reply(text=text, reasoning="think it over"))
        cut = c.messages.create(model="kimi-k3.1-pro", max_tokens=10, messages=body["messages"])
        assert cut.stop_reason == "max_tokens"
        assert per_word(cut.text) == 7 and cut.text.split() == text.split()[:7]
        assert cut.usage.output == 10


def test_a_rule_cuts_a_tool_call_where_it_ends() -> None:
    from kimi_ext.testing import ToolCallSpec

    def per_three_chars(text: str) -> int:
        return math.ceil(len(text) / 3)

    with (
        KimiStandIn(token_counter=per_three_chars) as standin,
        Kimi(api_key=standin.api_key, base_url=standin.base_url) as c,
    ):
        call = ToolCallSpec("lookup", {"query": "x" * 60}, id="call_1")
        standin.queue(Reply(text="", reasoning="", tool_calls=[call]))
        cut = c.chat.completions.create(
            model="kimi-k3.1-pro", max_completion_tokens=10,
            messages=[{"role": "user", "content": "look it up"}],
        )  # fmt: skip
        arguments = cut.message["tool_calls"][0]["function"]["arguments"]
        assert cut.finish_reason == "length"
        assert (
            per_three_chars("lookup" + arguments)
            <= 10
            < per_three_chars("lookup" + arguments + "x")
        )
