"""What kimi_ext spells out for editors (type hints) matches the derived contract, and the
spec's media-type lists agree with its patterns. Runtime behaviour never reads the hints:
these tests only keep them from drifting."""

from __future__ import annotations

import typing

import pytest

from kimi_ext._core.contract import contract
from kimi_ext._core.contract.effort import Effort
from kimi_ext._core.contract.options import CLIENT_OPTIONS
from kimi_ext._core.contract.schema import ecma_pattern
from kimi_ext.chat.params import ChatParams
from kimi_ext.messages.params import MessagesParams
from kimi_ext.responses.params import ResponsesParams
from tests.support.spec import spec

PARAMS = {"chat": ChatParams, "messages": MessagesParams, "responses": ResponsesParams}


@pytest.mark.parametrize("fmt", list(PARAMS))
def test_the_typed_keyword_arguments_are_the_spec_fields_and_the_call_options(fmt: str) -> None:
    """The derivation (scripts/derive_types.py) gives every body field but ``stream`` (the
    client's own argument), all optional; the call options come on top, none shadowed."""
    params = PARAMS[fmt]
    assert params.__required_keys__ == frozenset()
    keys = set(params.__optional_keys__)
    assert keys - CLIENT_OPTIONS == set(contract(fmt).fields) - {"stream"}
    assert keys >= CLIENT_OPTIONS
    assert not CLIENT_OPTIONS & set(contract(fmt).fields)


@pytest.mark.parametrize("fmt", list(PARAMS))
def test_the_effort_hint_lists_the_levels_and_aliases(fmt: str) -> None:
    rules = contract(fmt).effort
    assert set(typing.get_args(Effort)) == set(rules.levels) | set(rules.aliases)


MEDIA = [
    ("chat", "ImageUrl", "url", "image/tiff"),
    ("chat", "VideoUrl", "url", "video/x-matroska"),
    ("responses", "InputImagePart", "image_url", "image/tiff"),
]


@pytest.mark.parametrize(("fmt", "component", "field", "refused"), MEDIA)
def test_media_type_lists_agree_with_the_patterns(
    fmt: str, component: str, field: str, refused: str
) -> None:
    node = spec(fmt)["components"]["schemas"][component]["properties"][field]
    regex = ecma_pattern(node["pattern"])
    listed = contract(fmt).media_types(component, field)
    assert listed
    for kind in listed:
        assert regex.search(f"data:{kind};base64,AAAA"), kind
    assert regex.search("ms://file-1")
    assert not regex.search(f"data:{refused};base64,AAAA")
    assert not regex.search("https://example.com/a.png")


def test_messages_media_types_are_the_enum() -> None:
    node = spec("messages")["components"]["schemas"]["Base64ImageSource"]["properties"][
        "media_type"
    ]
    assert contract("messages").media_types("Base64ImageSource", "media_type") == tuple(
        node["enum"]
    )


def test_every_client_option_is_typed() -> None:
    """Each option ``prepare`` takes out of the body is a key of the typed keyword arguments."""
    from kimi_ext._core.contract.options import CallOptions

    assert set(typing.get_type_hints(CallOptions)) == set(CLIENT_OPTIONS)


@pytest.mark.parametrize(
    ("fmt", "component"),
    [
        ("chat", "PromptCacheTtl"),
        ("messages", "CacheControlTtl"),
        ("responses", "PromptCacheOptionsTtl"),
    ],
)
def test_the_stand_in_knows_the_lifetime_of_every_listed_ttl(fmt: str, component: str) -> None:
    from kimi_ext.testing.caching import ttl_seconds

    listed = spec(fmt)["components"]["schemas"][component]["enum"]
    assert {t: ttl_seconds(t) for t in listed} == {"5m": 300.0, "1h": 3600.0}
    field = "cache_control" if fmt == "messages" else "prompt_cache_options"
    assert (
        contract(fmt).default_at(field, "ttl")
        == spec(fmt)["components"]["schemas"][component]["default"]
    )
