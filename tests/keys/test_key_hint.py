"""A key kept under another tool's name (``MOONSHOT_API_KEY``, the gateways' own) is named
when ``KIMI_API_KEY`` is missing, with what to do, and never shown; in the library and in
the ``kimi`` command (``kimi chat`` and ``kimi batch``)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kimi_ext import AsyncKimi, ClientConfigError, Kimi
from kimi_ext.cli import EXIT_SETUP
from kimi_ext.keys import ENV_API_KEY, OTHER_KEY_VARIABLES, missing_key_message

VALUE = "sk-moonshot-Q7vX9kR2mW4pL8nT"


def _clean(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (ENV_API_KEY, *OTHER_KEY_VARIABLES):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("other", OTHER_KEY_VARIABLES)
@pytest.mark.parametrize("make", [Kimi, AsyncKimi])
def test_a_key_under_another_name_is_named_not_shown(
    monkeypatch: pytest.MonkeyPatch, make: type[Kimi] | type[AsyncKimi], other: str
) -> None:
    _clean(monkeypatch)
    monkeypatch.setenv(other, VALUE)
    with pytest.raises(ClientConfigError) as caught:
        make(base_url="http://127.0.0.1:9")
    message = str(caught.value)
    assert f"{other} is set" in message
    assert f'export {ENV_API_KEY}="${other}"' in message and "api_key=" in message
    assert VALUE not in message and VALUE[5:13] not in message


def test_without_any_key_the_message_says_what_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    _clean(monkeypatch)
    with pytest.raises(ClientConfigError, match=f"{ENV_API_KEY} is not set") as caught:
        Kimi()
    assert not any(name in str(caught.value) for name in OTHER_KEY_VARIABLES)
    monkeypatch.setenv(ENV_API_KEY, "  ")
    with pytest.raises(ClientConfigError, match=f"{ENV_API_KEY} is set but empty"):
        asyncio.run(_make_async())
    # A blank variable of another name is not a key.
    monkeypatch.setenv("MOONSHOT_API_KEY", " ")
    assert "MOONSHOT_API_KEY" not in missing_key_message()


async def _make_async() -> None:
    AsyncKimi()


def test_several_found_are_all_named(monkeypatch: pytest.MonkeyPatch) -> None:
    _clean(monkeypatch)
    monkeypatch.setenv("SEEDROUTER_API_KEY", VALUE)
    monkeypatch.setenv("MOONSHOT_API_KEY", VALUE)
    message = missing_key_message("--api-key")
    assert "MOONSHOT_API_KEY is set (also set: SEEDROUTER_API_KEY)" in message
    assert "--api-key" in message and VALUE not in message


@pytest.mark.parametrize("command", ["chat", "batch"])
def test_the_kimi_command_names_it_too(tmp_path: Path, command: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in (ENV_API_KEY, *OTHER_KEY_VARIABLES)}
    env["MOONSHOT_API_KEY"] = VALUE
    lines = tmp_path / "in.jsonl"
    lines.write_text("")
    args = ["hi"] if command == "chat" else [str(lines), "--output", str(tmp_path / "out")]
    run = subprocess.run(
        [sys.executable, "-m", "kimi_ext.cli", command, "--base-url", "http://127.0.0.1:9", *args],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert run.returncode == EXIT_SETUP, run.stderr
    assert "MOONSHOT_API_KEY is set" in run.stderr and "--api-key" in run.stderr
    assert f'export {ENV_API_KEY}="$MOONSHOT_API_KEY"' in run.stderr
    assert VALUE not in run.stderr + run.stdout
