"""``final()``, the one name for a stream's whole result, as a user's type checker sees it:
mypy --strict on a user file that reads it from every format's stream, sync and async, and
from a resumed stream; each gives that format's result type."""

from __future__ import annotations

from pathlib import Path

from tests.support.mypy_run import strict_errors

SOURCE = """\
from typing import assert_type
from kimi_ext import AsyncKimi, ChatCompletion, Kimi, Message, Response
from kimi_ext.continuation import AsyncResumedMessageStream, ResumedChatStream

client = Kimi(api_key="sk-test")
aclient = AsyncKimi(api_key="sk-test")

with client.messages.stream(model="kimi-k3.1-pro", max_tokens=64, messages=[
    {"role": "user", "content": "hi"}
]) as m:
    assert_type(m.final(), Message)
    assert_type(m.get_final_message(), Message)
with client.chat.completions.stream(model="kimi-k3.1-pro", messages=[
    {"role": "user", "content": "hi"}
]) as c:
    assert_type(c.final(), ChatCompletion)
with client.responses.stream(model="kimi-k3.1-pro", input="hi") as r:
    assert_type(r.final(), Response)
    assert_type(r.get_final_response(), Response)


def resumed(chat: ResumedChatStream) -> None:
    assert_type(chat.final(), ChatCompletion)
    assert_type(chat.get_final_completion(), ChatCompletion)


async def main(more: AsyncResumedMessageStream) -> None:
    assert_type(await more.final(), Message)
    async with aclient.responses.stream(model="kimi-k3.1-pro", input="hi") as ar:
        assert_type(await ar.final(), Response)
    stream = await aclient.messages.create(
        model="kimi-k3.1-pro", max_tokens=64, messages=[{"role": "user", "content": "hi"}],
        stream=True,
    )
    assert_type(await stream.final(), Message)
"""


def test_final_gives_each_formats_result_type(tmp_path: Path) -> None:
    # Before: streams had no final() (each format its own name), so this was refused.
    assert strict_errors(tmp_path, {"user_final": SOURCE}) == {"user_final": []}
