"""kimi_ext._core.transport.sending: base URL schemes, and a body too deeply nested to parse."""

from __future__ import annotations

import httpx
import pytest

import kimi_ext
from kimi_ext._core.transport.sending import check_base_url


def test_base_url_scheme_must_be_http_or_https() -> None:
    with pytest.raises(kimi_ext.ClientConfigError, match="scheme"):
        check_base_url("ftp://api.example.com", allow_insecure_http=False)
    with pytest.raises(kimi_ext.ClientConfigError):
        kimi_ext.Kimi(api_key="k", base_url="ws://127.0.0.1:1")


def test_absurdly_deep_json_is_a_kimi_error_not_a_recursion_error() -> None:

    from kimi_ext import APIResponseError
    from kimi_ext._core.transport.sending import parse_json_body

    deep = b"[" * 200_000 + b"]" * 200_000
    response = httpx.Response(200, content=deep, request=httpx.Request("POST", "https://x"))
    try:
        parse_json_body(response, "secret")
    except APIResponseError as error:
        assert error.body.startswith("[[[")
    else:
        raise AssertionError("expected APIResponseError")
