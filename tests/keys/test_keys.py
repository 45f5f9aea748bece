"""``kimi_ext.keys``: the public names for the key in your own code (the cli uses them)."""

from __future__ import annotations

import doctest

import pytest

import kimi_ext.keys
from kimi_ext import ClientConfigError, Kimi
from kimi_ext.keys import ENV_API_KEY, ENV_BASE_URL, is_loopback, redact


def test_the_module_examples_hold() -> None:
    outcome = doctest.testmod(kimi_ext.keys)
    assert outcome.attempted >= 4 and outcome.failed == 0


def test_the_client_reads_the_variables_these_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_API_KEY, "sk-from-env-0123456789")
    monkeypatch.setenv(ENV_BASE_URL, "http://127.0.0.1:9")
    with Kimi() as client:
        assert client.api_key == "sk-from-env-0123456789"
        assert client.base_url == "http://127.0.0.1:9"
    monkeypatch.delenv(ENV_API_KEY)
    with pytest.raises(ClientConfigError, match=ENV_API_KEY):
        Kimi()


def test_redact_and_is_loopback() -> None:
    assert redact("no key here", "sk-abc") == "no key here"
    assert redact("a sk-abc b sk-abc", "sk-abc") == "a <redacted> b <redacted>"
    assert redact("text", None) == "text"
    assert is_loopback("localhost") and is_loopback("::1") and is_loopback("[::1]")
    assert not is_loopback("10.0.0.1") and not is_loopback("example.com")
