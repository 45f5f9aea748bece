"""CallInfo.fields(): several top-level fields of the body as sent, read at once, each as
CallInfo.field() reads it (strings redacted, None when absent), in a small body (kept as
built) and in one too large to keep (decoded from the bytes sent)."""

from __future__ import annotations

from typing import Any

from kimi_ext import Kimi
from kimi_ext.hooks import CallInfo, Hook
from kimi_ext.testing import KimiStandIn

MODEL = "kimi-k3.1-pro"
NAMES = ("model", "max_tokens", "stop", "temperature", "messages", "absent")


class Fields(Hook):
    def __init__(self) -> None:
        self.seen: list[tuple[list[Any], list[Any]]] = []

    def on_call_start(self, call: CallInfo) -> None:
        self.seen.append((call.fields(*NAMES), [call.field(name) for name in NAMES]))


def _fields_of(standin: KimiStandIn, body: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    hook = Fields()
    with Kimi(api_key=standin.api_key, base_url=standin.base_url, hooks=[hook]) as client:
        client.chat.completions.create(**body)
    (seen,) = hook.seen
    return seen


def test_fields_read_as_field_does_with_the_key_redacted(kimi_standin: KimiStandIn) -> None:
    key = kimi_standin.api_key
    messages = [{"role": "user", "content": "Hi"}]
    body = {"model": MODEL, "messages": messages, "max_tokens": 50, "stop": f"end {key}",
            "temperature": 1}  # fmt: skip
    fields, one_by_one = _fields_of(kimi_standin, body)
    assert fields == one_by_one
    assert fields == [MODEL, 50, "end <redacted>", 1, messages, None]


def test_fields_of_a_body_too_large_to_keep_are_read_from_the_bytes_sent(
    kimi_standin: KimiStandIn,
) -> None:
    key = kimi_standin.api_key
    # Long enough that the built dict is let go of: fields come from the decoded bytes.
    messages = [{"role": "user", "content": "x" * 300_000}]
    body = {"model": MODEL, "messages": messages, "stop": [f"a {key}"]}
    fields, one_by_one = _fields_of(kimi_standin, body)
    assert fields == one_by_one
    assert fields[:4] == [MODEL, None, ["a <redacted>"], None]
    assert fields[5] is None
