"""Property: pre-send validation raises RequestValidationError and nothing else, and lets
every valid request through unchanged (but for the documented normalization).

Random requests start from a valid one and get random top-level keys (documented fields,
client options and junk) set to random JSON values or to plausible-but-wrong values, or
removed. ``kimi_ext._core.call.building.prepare`` must either return a sendable request or raise
RequestValidationError. Valid requests must come out as they went in, except: top-level
None dropped, client options taken out, ``effort`` aliases normalized into the format's
own field, ``stream=True`` added for streams and Chat's ``stream_options`` defaulted.
"""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kimi_ext._core.call.building import prepare
from kimi_ext._core.contract import contract
from kimi_ext._core.contract.options import CLIENT_OPTIONS
from kimi_ext._core.transport.request import UNSET_TIMEOUT
from kimi_ext.errors import RequestValidationError
from kimi_ext.formats import CHAT, MESSAGES, RESPONSES
from tests.support.robustness import canonical, json_scalars, json_values
from tests.support.valid_requests import (
    VALID,
    effort_for,
    optional,
    schemas,
    texts,
    tool_names,
)

# The field sets, models and effort aliases come from the derived contract (the specs).
CHAT_FIELDS = contract("chat").fields
MESSAGES_FIELDS = contract("messages").fields
RESPONSES_FIELDS = contract("responses").fields
MODELS = contract("chat").known_models
LEVELS = contract("chat").effort.levels
ALIASES = dict(contract("chat").effort.aliases)

ENDPOINT = {"chat": CHAT, "messages": MESSAGES, "responses": RESPONSES}
FIELDS = {"chat": CHAT_FIELDS, "messages": MESSAGES_FIELDS, "responses": RESPONSES_FIELDS}
EFFORT_FIELD = {
    "chat": ("reasoning_effort",),
    "messages": ("output_config", "effort"),
    "responses": ("reasoning", "effort"),
}
SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
EFFORTS = sorted(LEVELS) + sorted(ALIASES)


@st.composite
def valid_calls(draw: st.DrawFn, fmt: str) -> tuple[dict[str, Any], bool]:
    """A valid request with client options, and the ``stream`` keyword of the call."""
    params = draw(VALID[fmt])
    path = EFFORT_FIELD[fmt]
    native = params.get(path[0])
    if len(path) == 2:
        native = native.get(path[1]) if isinstance(native, dict) else None
    if draw(st.booleans()):
        # effort= agrees with the native field when both are given.
        if native is not None:
            params["effort"] = draw(st.sampled_from([e for e in EFFORTS if ALIASES.get(e, e) == ALIASES.get(native, native)]))  # fmt: skip
        else:
            params["effort"] = draw(effort_for(params["model"]))
    if draw(st.booleans()):
        params["extra_body"] = {"x_gateway_option": draw(json_values)}
    if draw(st.booleans()):
        params["extra_headers"] = {"X-Trace": draw(st.from_regex(r"\A[a-z0-9]{1,8}\Z"))}
    draw(optional(params, "timeout", st.floats(0.1, 600)))
    draw(optional(params, "max_retries", st.integers(0, 5)))
    # Whether the call streams is the call's one decision: a body flag, when drawn, agrees.
    stream = params.get("stream")
    return params, stream if isinstance(stream, bool) else draw(st.booleans())


def expected_body(fmt: str, params: dict[str, Any], stream: bool) -> dict[str, Any]:
    """The documented normalization, spelled out."""
    body = {k: v for k, v in params.items() if v is not None and k not in CLIENT_OPTIONS}
    body = copy.deepcopy(body)
    if stream:
        body["stream"] = True
    if fmt == "chat" and body.get("stream") is True and "stream_options" not in body:
        body["stream_options"] = {"include_usage": True}
    path = EFFORT_FIELD[fmt]
    effort = params.get("effort")
    parent = body
    if len(path) == 2:  # the container appears only when there is an effort to put in it
        absent = path[0] not in body and effort is None
        parent = {} if absent else body.setdefault(path[0], {})
    level = effort if effort is not None else parent.get(path[-1])
    if level is not None:
        parent[path[-1]] = ALIASES.get(level, level)
    body.update(params.get("extra_body") or {})
    return body


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
@SETTINGS
@given(data=st.data())
def test_valid_requests_pass_through_unchanged(fmt: str, data: st.DataObject) -> None:
    params, stream = data.draw(valid_calls(fmt))
    before = copy.deepcopy(params)
    prepared = prepare(ENDPOINT[fmt], params, stream=stream)
    assert canonical(params) == canonical(before), "prepare changed the caller's arguments"
    assert canonical(prepared.body) == canonical(expected_body(fmt, params, stream))
    assert json.loads(prepared.content) == prepared.body
    assert prepared.stream is bool(prepared.body.get("stream"))
    assert prepared.max_retries == params.get("max_retries")
    assert prepared.timeout == params.get("timeout", UNSET_TIMEOUT)
    for name, value in (params.get("extra_headers") or {}).items():
        assert prepared.headers[name] == value


# ------------------------------------------------------------------ random requests

PLAUSIBLE: dict[str, list[Any]] = {
    "model": ["kimi-k3", "kimi-k3.1-pro", "gpt-4o", ""],
    "messages": [
        [],
        [{"role": "user"}],
        [{"role": "tool", "content": "x"}],
        [{"role": "assistant", "content": "x", "partial": True}, {"role": "user", "content": "y"}],
        "Hi",
        [1],
    ],
    "input": [[], [1], [{"role": "user", "content": "x"}], ""],
    "tools": [
        [{"type": "function"}],
        [{"type": "function", "function": {"name": "1x"}}],
        [{"type": "custom", "name": ["x"]}],
        [{"type": "custom", "name": {"a": 1}}, {"type": "custom", "name": {"a": 1}}],
        [{"type": "namespace", "tools": [{"name": "ok"}, 3]}],
        [{"type": "web_search_20250305", "name": "web_search", "max_uses": 0}],
        [{"name": "a", "input_schema": {}}, {"name": "a", "input_schema": {}}],
        [{"type": "mystery"}],
        [{}] * 200,
    ],
    "tool_choice": [
        "required",
        "any",
        {"type": "function", "function": {"name": "f"}},
        {"type": "tool"},
        {"type": ["x"]},
        {"type": {"a": 1}},
        ["auto"],
    ],
    "stop": ["", "x" * 40, ["a"] * 6, [1], ["ok", ""]],
    "stop_sequences": ["x", ["a"] * 6, [None]],
    "response_format": [
        {"type": "json_schema"},
        {"type": "json_schema", "json_schema": {"name": "n"}},
        {"type": "yaml"},
    ],
    "reasoning_effort": ["medium", "none", "extreme", 3, ["low"], {"a": 1}],
    "effort": ["low", "xhigh", "bogus", None, 0, ["max"], {"level": "max"}],
    "output_config": [
        {"effort": "low"},
        {"format": {"type": "json_schema"}},
        {"effort": ["x"]},
        "max",
    ],
    "reasoning": [{"effort": "low"}, {"effort": {"a": 1}}, ["low"], "max"],
    "text": [{"format": {"type": "json_schema"}}, {"format": "x"}, "x"],
    "include": [["web_search_call.results"], ["everything"], "all"],
    "prompt_cache_options": [{"ttl": "2h"}, {"ttl": ["5m"]}, []],
    "cache_control": [{"type": "persistent"}, {"type": "ephemeral", "ttl": "24h"}],
    "max_tokens": [0, -1, 2**31, True, 1.5, "64"],
    "top_logprobs": [21, -1, True, 5],
    "extra_body": [{"x": 1}, [["a", 1]], "ab", [1, 2], 5, {"model": {"a": 1}}],
    "extra_headers": [{"X-A": "1"}, {"X-A": 1}, ["x"], "x", {"X-A": None}, {1: "x"}],
    "timeout": [1.5, "slow", -1, [1], {"read": 1}],
    "max_retries": [0, 3, -1, "2", 1.5, [1], True],
    "metadata": [{"user_id": 1}, "x"],
    "system": [3, [{"type": "text", "text": "x"}]],
    "instructions": [3, "x"],
}


# Junk that is often a container: unhashable values reach set and dict lookups.
junk = st.one_of(
    json_values,
    st.lists(json_scalars, max_size=2),
    st.dictionaries(st.text(max_size=3), json_scalars, max_size=2),
)


def junk_or(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(good, junk)


names_or_junk = junk_or(tool_names)
near_tools = st.lists(
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(
                ["function", "custom", "namespace", "web_search", "web_search_20250305", "x"]
            ),
            "name": st.one_of(names_or_junk, st.just("web_search")),
        },
        optional={
            "function": st.fixed_dictionaries(
                {}, optional={"name": names_or_junk, "parameters": junk_or(schemas)}
            ),
            "input_schema": junk_or(schemas),
            "parameters": junk_or(schemas),
            "max_uses": json_values,
            "tools": st.lists(
                st.fixed_dictionaries({}, optional={"name": names_or_junk, "type": json_values})
                | json_values,
                max_size=2,
            ),
        },
    )
    | json_values,
    max_size=3,
)
near_messages = st.lists(
    st.fixed_dictionaries(
        {"role": st.sampled_from(["user", "assistant", "system", "tool", "developer"])},
        optional={
            "content": junk_or(texts),
            "tool_call_id": junk_or(texts),
            "partial": json_values,
        },
    )
    | json_values,
    max_size=3,
)
near_choice = st.one_of(
    st.sampled_from(["auto", "none", "required", "any", "function", "custom"]),
    st.fixed_dictionaries(
        {
            "type": st.one_of(
                st.sampled_from(["auto", "none", "any", "tool", "required", "function", "custom"]),
                json_values,
            )
        },
        optional={"name": names_or_junk},
    ),
    json_values,
)
near_effort_holder = st.fixed_dictionaries(
    {},
    optional={
        "effort": st.one_of(st.sampled_from(EFFORTS), json_values),
        "format": st.fixed_dictionaries(
            {"type": st.sampled_from(["json_schema", "text", "x"])},
            optional={"schema": junk_or(schemas), "name": json_values},
        )
        | json_values,
        "summary": json_values,
    },
)
NEAR: dict[str, st.SearchStrategy[Any]] = {
    "tools": near_tools,
    "messages": near_messages,
    "input": st.one_of(texts, near_messages),
    "tool_choice": near_choice,
    "output_config": near_effort_holder,
    "reasoning": near_effort_holder,
    "text": near_effort_holder,
    "response_format": near_effort_holder,
    "stop": st.one_of(texts, st.lists(junk_or(texts), max_size=6)),
    "stop_sequences": st.lists(junk_or(texts), max_size=6),
}


@st.composite
def random_requests(draw: st.DrawFn, fmt: str) -> tuple[dict[str, Any], bool]:
    params, stream = draw(valid_calls(fmt))
    keys = sorted(FIELDS[fmt] | CLIENT_OPTIONS | set(PLAUSIBLE))
    for _ in range(draw(st.integers(1, 4))):
        key = draw(st.one_of(st.sampled_from(sorted(PLAUSIBLE)), st.sampled_from(keys), st.text(max_size=10)))  # fmt: skip
        action = draw(st.integers(0, 5))
        if action == 0:
            params.pop(key, None)
        elif action <= 2 and key in NEAR:
            params[key] = draw(NEAR[key])
        elif action <= 3 and key in PLAUSIBLE:
            params[key] = copy.deepcopy(draw(st.sampled_from(PLAUSIBLE[key])))
        else:
            params[key] = draw(json_values)
    return params, stream


NESTED = [
    (fmt, key)
    for fmt in ("chat", "messages", "responses")
    for key in sorted(NEAR)
    if key in FIELDS[fmt]
]


@pytest.mark.parametrize(("fmt", "key"), NESTED)
@settings(SETTINGS, max_examples=50)
@given(data=st.data())
def test_random_nested_values_raise_only_request_validation_error(
    fmt: str, key: str, data: st.DataObject
) -> None:
    """Each field with structure gets near-valid values: right shapes, random insides."""
    params, stream = data.draw(valid_calls(fmt))
    params[key] = data.draw(NEAR[key], label=key)
    before = copy.deepcopy(params)
    try:
        sendable(prepare(ENDPOINT[fmt], params, stream=stream))
    except RequestValidationError as exc:
        assert isinstance(exc.field, str) and exc.rule
    assert canonical(params) == canonical(before)


def sendable(prepared: Any) -> None:
    """What the sender needs of a prepared request holds (else it would fail mid-call)."""
    assert json.loads(prepared.content) == prepared.body
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in prepared.headers.items())
    retries = prepared.max_retries
    assert retries is None or (type(retries) is int and retries >= 0), retries
    timeout = prepared.timeout
    if timeout is not UNSET_TIMEOUT:
        httpx.Timeout(timeout)  # type: ignore[arg-type]
        assert timeout is None or isinstance(timeout, httpx.Timeout) or timeout >= 0


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
@SETTINGS
@given(data=st.data())
def test_random_requests_raise_only_request_validation_error(fmt: str, data: st.DataObject) -> None:
    params, stream = data.draw(random_requests(fmt))
    before = copy.deepcopy(params)
    try:
        prepared = prepare(ENDPOINT[fmt], params, stream=stream)
    except RequestValidationError as exc:
        assert isinstance(exc.field, str) and exc.rule
        str(exc)  # the message renders for any value
    else:
        sendable(prepared)
    assert canonical(params) == canonical(before), "prepare changed the caller's arguments"


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
@SETTINGS
@given(params=st.dictionaries(st.text(max_size=12), json_values, max_size=6), stream=st.booleans())
def test_junk_dictionaries_raise_only_request_validation_error(
    fmt: str, params: dict[str, Any], stream: bool
) -> None:
    with contextlib.suppress(RequestValidationError):
        sendable(prepare(ENDPOINT[fmt], params, stream=stream))
