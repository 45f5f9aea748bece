"""Property: the public API, driven with odd values, raises only ``KimiError``s (or a
``TypeError`` for a keyword name it does not have), and sends nothing before a local
refusal.

Hypothesis calls what a user calls: the ``Kimi`` / ``AsyncKimi`` constructors, ``create``,
``stream``, ``parse``, ``continue_`` and ``run_tools`` of the three formats, the histories,
``tool()``, ``resume``, and the helpers (``normalize_effort``, ``web_search_echo``, the
image builders, ``usage_of``), with ``None``, wrong types, huge, negative and NaN numbers,
strings with lone surrogates and nested odd structures, against one stand-in per module.
Each call's requests are counted at the stand-in: one that ends in a local refusal
(``RequestValidationError``, ``ClientConfigError``, ``HistoryError``,
``ToolDefinitionError``...) must have sent nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import math
import reprlib
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import kimi_ext
from kimi_ext import (
    AsyncKimi,
    ChatHistory,
    ClientConfigError,
    ClientStateError,
    ContinuationUnsupportedError,
    HistoryError,
    IncompleteStreamError,
    Kimi,
    KimiError,
    MessagesHistory,
    RequestValidationError,
    ResponsesHistory,
    ToolDefinitionError,
)
from kimi_ext import images as kimi_images
from kimi_ext._core.contract import contract
from kimi_ext.formats import format_named
from kimi_ext.testing import Fault, KimiStandIn, Reply
from tests.support.client import minimal

FORMATS = ("chat", "messages", "responses")
MODEL = "kimi-k3.1-pro"
HISTORIES = {"chat": ChatHistory, "messages": MessagesHistory, "responses": ResponsesHistory}
# Refusals made before anything is sent: a call that raises one must have sent nothing.
LOCAL = (
    RequestValidationError,
    ClientConfigError,
    HistoryError,
    ToolDefinitionError,
    ContinuationUnsupportedError,
    ClientStateError,
)
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)

# --- odd values -------------------------------------------------------------------------------

LONE_SURROGATES = st.sampled_from(["\ud800", "\udfff", "a\ud83db", "\ud83d"])
odd_text = st.one_of(
    st.text(max_size=12),
    LONE_SURROGATES,
    st.sampled_from(["", " ", "\x00", "\n", "..", "../../etc/passwd", "kimi-k3", "bogus"]),
)
odd_numbers = st.sampled_from(
    [0, -1, 1, 3, 2**63, 10**100, -(10**100), 1e10, 9.3e9, 1e300, -0.0, 0.5,
     math.nan, math.inf, -math.inf, True, False]
)  # fmt: skip


class _Opaque:
    """An object of no type the API knows."""


odd_objects = st.sampled_from(
    [_Opaque(), {1, 2}, (), frozenset(), print, int, ValueError, b"", bytearray(b"x"), 1j]
)
odd_scalars = st.one_of(st.none(), odd_numbers, odd_text, st.binary(max_size=6), odd_objects)
odd_values = st.recursive(
    odd_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.tuples(inner),
        st.dictionaries(st.one_of(odd_text, st.integers(-2, 2), st.none()), inner, max_size=3),
    ),
    max_leaves=8,
)


def get_time(city: str) -> str:
    """The time in a city.

    Args:
        city: the city's name.
    """
    return f"12:00 in {city}"


@dataclasses.dataclass
class Answer:
    answer: str


ODD_TOOLS = st.one_of(
    odd_values,
    st.sampled_from([None, get_time, [None], [get_time], [get_time, get_time], "get_time",
                     [{"name": "x"}], [lambda: 1], [ValueError], [Answer], {"get_time": get_time}]),
)  # fmt: skip
ODD_SCHEMAS = st.one_of(
    odd_values,
    st.sampled_from([
        {"type": 5}, {"type": "object", "properties": 5}, {"type": "bogus"},
        {"type": "object", "properties": {"a": {"type": "string"}}}, Answer, dict, str, None,
        {"type": "object", "required": 5}, {"$ref": "#/nope"},
    ]),
)  # fmt: skip


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 4, 60, 60


def short(value: Any) -> str:
    """A value as a failure quotes it (depth and length bounded: values nest 600 deep)."""
    return _REPR.repr(value)


# --- the check --------------------------------------------------------------------------------


@contextlib.contextmanager
def checking(standin: KimiStandIn, what: str) -> Iterator[None]:
    """What the block raises may be a KimiError (a local one only if nothing was sent in
    the block), or a TypeError naming a keyword not taken; anything else fails the test.
    An allowed error is swallowed."""
    before = len(standin.requests)
    try:
        yield
    except AssertionError:
        raise  # the suite's own checks (the spec check of every sent body)
    except KimiError as exc:
        sent = len(standin.requests) - before
        if isinstance(exc, LOCAL) and sent:
            raise AssertionError(
                f"{what}: {type(exc).__name__} after {sent} request(s) sent: {exc}"
            ) from exc
    except TypeError as exc:
        if "unexpected keyword argument" not in str(exc):
            raise AssertionError(f"{what}: raw TypeError: {exc}") from exc
    except Exception as exc:
        raise AssertionError(f"{what}: raw {type(exc).__name__}: {short(str(exc))}") from exc


def check(standin: KimiStandIn, what: str, action: Callable[[], Any]) -> Any:
    """``action()`` under :func:`checking`: its value, or None when it raised."""
    with checking(standin, what):
        return action()
    return None


@pytest.fixture(scope="module")
def standin() -> Iterator[KimiStandIn]:
    with KimiStandIn() as running:
        yield running


@pytest.fixture(scope="module")
def client(standin: KimiStandIn) -> Iterator[Kimi]:
    with Kimi(api_key=standin.api_key, base_url=standin.base_url, max_retries=0) as made:
        yield made


@pytest.fixture(scope="module")
def results(client: Kimi) -> dict[str, Any]:
    """One result of each format, from the stand-in."""
    return {fmt: format_named(fmt).resource_of(client).create(**minimal(fmt)) for fmt in FORMATS}


@pytest.fixture(scope="module")
def cuts(standin: KimiStandIn, client: Kimi) -> dict[str, IncompleteStreamError]:
    """A stream cut part way, per format that resume takes (the error, partial included)."""
    return {fmt: _cut(standin, client, fmt) for fmt in ("chat", "messages")}


def _cut(standin: KimiStandIn, client: Kimi, fmt: str) -> IncompleteStreamError:
    standin.queue(Reply(text="Answer: " + "tram tiles Tagus " * 5, reasoning="R-1"))
    standin.fault(Fault.cut_stream(after=12))
    try:
        with format_named(fmt).resource_of(client).stream(**minimal(fmt)) as stream:
            for _ in stream:
                pass
    except IncompleteStreamError as exc:
        return exc
    raise AssertionError("the stream was not cut")


# --- the constructors -------------------------------------------------------------------------

CLIENT_OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "timeout": st.one_of(
        odd_values,
        st.builds(httpx.Timeout, st.one_of(st.none(), odd_numbers)),
        st.builds(lambda read: httpx.Timeout(5.0, read=read), odd_numbers),
    ),
    "max_retries": st.one_of(odd_values, st.integers(-3, 3)),
    "deadline": st.one_of(odd_values, st.floats(0.001, 1e12)),
    "default_headers": odd_values,
    "fallback_base_url": st.one_of(odd_values, st.just("http://127.0.0.1:99999")),
    "allow_insecure_http": odd_values,
    "max_body_size": odd_values,
    "limits": st.one_of(
        odd_values,
        st.builds(httpx.Limits, max_connections=st.one_of(st.none(), odd_numbers)),
        st.builds(httpx.Limits, max_keepalive_connections=odd_numbers),
        st.builds(httpx.Limits, keepalive_expiry=odd_numbers),
    ),
    "event_hooks": st.one_of(odd_values, st.just({"request": [lambda request: None]})),
    "hooks": odd_values,
    "telemetry": st.one_of(odd_values, st.just(False)),
    "http_client": st.sampled_from(["sync", "async", "closed", None, "junk"]),
    "api_key": st.one_of(odd_values, st.just("test-key \n")),
    "base_url": st.one_of(
        odd_values,
        st.sampled_from([
            "http://127.0.0.1:99999", "http://127.0.0.1:0", "ftp://127.0.0.1",
            "https://" + "a" * 64 + ".example", "http://[::1", "http://\ud800.localhost",
        ]),
    ),
}  # fmt: skip


def _http_client(kind: Any) -> Any:
    """The ``http_client=`` of a kind (an async one made in the running loop)."""
    if kind == "sync":
        return httpx.Client()
    if kind == "async":
        return httpx.AsyncClient()
    return kind


@st.composite
def constructions(draw: st.DrawFn) -> tuple[bool, dict[str, Any]]:
    """Up to three constructor options set to odd values (``http_client`` by kind)."""
    names = draw(st.lists(st.sampled_from(sorted(CLIENT_OPTIONS)), max_size=3, unique=True))
    return draw(st.booleans()), {name: draw(CLIENT_OPTIONS[name], label=name) for name in names}


@SETTINGS
@given(construction=constructions())
@example(construction=None)  # the issue's cases
def test_constructors_refuse_odd_options_by_name(standin: KimiStandIn, construction: Any) -> None:
    cases = [(False, c) for c in ISSUE_CLIENT_CASES] + [(True, c) for c in ISSUE_CLIENT_CASES]
    for is_async, options in cases if construction is None else [construction]:
        if is_async:
            asyncio.run(_aconstruct_and_call(standin, dict(options)))
        else:
            _construct_and_call(standin, dict(options))


ISSUE_CLIENT_CASES: list[dict[str, Any]] = [
    {"timeout": -1}, {"timeout": "5"}, {"max_retries": None}, {"deadline": 1e10},
    {"timeout": 1e300}, {"timeout": 10**100}, {"timeout": httpx.Timeout(10**100)},
    {"limits": httpx.Limits(max_connections=0)}, {"base_url": "http://127.0.0.1:99999"},
    {"http_client": "async"}, {"http_client": "sync"},
]  # fmt: skip


def _options(standin: KimiStandIn, options: dict[str, Any], is_async: bool) -> tuple[str, bool]:
    """Complete ``options`` in place; (what the call looks like, whether it is the
    stand-in's address, so that a call may be made)."""
    ours = "base_url" not in options
    options.setdefault("api_key", standin.api_key)
    options.setdefault("base_url", standin.base_url)
    options.setdefault("max_retries", 0)
    if isinstance(options.get("limits"), httpx.Limits):
        # A pool that took odd limits would make the call wait out the pool timeout.
        options.setdefault("timeout", httpx.Timeout(5.0, pool=0.5))
    if "http_client" in options:
        options["http_client"] = _http_client(options["http_client"])
    name = "AsyncKimi" if is_async else "Kimi"
    return f"{name}({', '.join(f'{k}={short(v)}' for k, v in options.items())})", ours


def _construct_and_call(standin: KimiStandIn, options: dict[str, Any]) -> None:
    """Make the client (nothing is sent); when it points at the stand-in, make one call."""
    closed = options.get("http_client") == "closed"
    what, ours = _options(standin, options, False)
    if closed:
        options["http_client"] = httpx.Client()
        options["http_client"].close()
    http = options.get("http_client")
    try:
        made = check(standin, what, lambda: Kimi(**options))
        if made is not None and ours:
            with made:
                check(standin, f"{what}.chat.completions.create(...)",
                      lambda: made.chat.completions.create(**minimal("chat")))  # fmt: skip
    finally:
        if isinstance(http, httpx.Client):
            http.close()
        elif isinstance(http, httpx.AsyncClient):
            asyncio.run(http.aclose())


async def _aconstruct_and_call(standin: KimiStandIn, options: dict[str, Any]) -> None:
    closed = options.get("http_client") == "closed"
    what, ours = _options(standin, options, True)
    if closed:
        options["http_client"] = httpx.AsyncClient()
        await options["http_client"].aclose()
    http = options.get("http_client")
    try:
        made = check(standin, what, lambda: AsyncKimi(**options))
        if made is not None and ours:
            with checking(standin, f"{what}.chat.completions.create(...)"):
                async with made:
                    await made.chat.completions.create(**minimal("chat"))
    finally:
        if isinstance(http, httpx.Client):
            http.close()
        elif isinstance(http, httpx.AsyncClient):
            await http.aclose()


# --- the calls --------------------------------------------------------------------------------

OPTION_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "timeout": st.one_of(odd_values, st.builds(httpx.Timeout, odd_numbers)),
    "deadline": odd_values,
    "max_retries": odd_values,
    "effort": st.one_of(odd_values, st.sampled_from(["low", "high", "max", "none", "xhigh"])),
    "extra_body": st.one_of(odd_values, st.just({"stream": True}), st.just({"n": 2})),
    "extra_headers": odd_values,
}


def field_names(fmt: str) -> list[str]:
    return sorted(contract(fmt).fields)


@st.composite
def call_params(draw: st.DrawFn, fmt: str) -> dict[str, Any]:
    """A valid request with up to three keys set to odd values (fields, options, junk)."""
    params = minimal(fmt)
    names = st.one_of(
        st.sampled_from(field_names(fmt)), st.sampled_from(sorted(OPTION_VALUES)),
        st.sampled_from(["contnet", "stream_options", "schema", "prefix"]),
    )  # fmt: skip
    for name in draw(st.lists(names, max_size=3, unique=True)):
        value = OPTION_VALUES.get(name, odd_values)
        params[name] = draw(value, label=name)
    if draw(st.booleans()):  # an odd message inside a valid list
        history = contract(fmt).history_field
        odd = draw(st.one_of(odd_values, st.fixed_dictionaries({"role": odd_values,
                                                              "content": odd_values})))  # fmt: skip
        if isinstance(params.get(history), list):
            params[history] = [*params[history], odd]
    return params


METHODS = ("create", "create_stream", "stream", "parse", "continue_", "run_tools")


def _sync_call(resource: Any, fmt: str, method: str, params: dict[str, Any], extra: Any) -> Any:
    if method == "create":
        return resource.create(**params)
    if method == "create_stream":
        stream = resource.create(stream=True, **params)
        with contextlib.closing(stream):
            for _ in stream:
                pass
        return stream
    if method == "stream":
        with resource.stream(**params) as stream:
            for _ in stream:
                pass
            return stream.final()
    if method == "parse":
        return resource.parse(schema=extra, **params)
    if method == "continue_":
        return resource.continue_(prefix=extra, **params)
    return resource.run_tools(tools=extra, **params)


async def _async_call(
    resource: Any, fmt: str, method: str, params: dict[str, Any], extra: Any
) -> Any:
    if method == "create":
        return await resource.create(**params)
    if method == "create_stream":
        stream = await resource.create(stream=True, **params)
        try:
            async for _ in stream:
                pass
        finally:
            await stream.close()
        return stream
    if method == "stream":
        async with resource.stream(**params) as stream:
            async for _ in stream:
                pass
            return await stream.final()
    if method == "parse":
        return await resource.parse(schema=extra, **params)
    if method == "continue_":
        return await resource.continue_(prefix=extra, **params)
    return await resource.run_tools(tools=extra, **params)


@st.composite
def calls(draw: st.DrawFn) -> tuple[str, str, dict[str, Any], Any, bool]:
    fmt = draw(st.sampled_from(FORMATS))
    methods = [m for m in METHODS if not (m == "continue_" and fmt == "responses")]
    method = draw(st.sampled_from(methods))
    params = draw(call_params(fmt))
    extra: Any = None
    if method == "parse":
        extra = draw(ODD_SCHEMAS, label="schema")
    elif method == "continue_":
        extra = draw(st.one_of(odd_values, st.just("Answer: ")), label="prefix")
    elif method == "run_tools":
        extra = draw(ODD_TOOLS, label="tools")
        if draw(st.booleans()):
            params["max_rounds"] = draw(st.one_of(odd_values, st.integers(-1, 3)))
    if draw(st.integers(0, 9)) == 0:
        params["stream"] = draw(st.sampled_from([True, 1, "yes"]))
    if draw(st.integers(0, 9)) == 0:
        params["tools"] = draw(ODD_TOOLS, label="tools param")
    # The method's own keyword is not given twice (Python's TypeError, not the API's).
    own = {"create_stream": "stream", "parse": "schema", "continue_": "prefix"}
    params.pop(own.get(method, "tools" if method == "run_tools" else ""), None)
    return fmt, method, params, extra, draw(st.booleans())


ISSUE_CALLS: list[tuple[str, str, dict[str, Any], Any, bool]] = [
    ("chat", "create", minimal("chat", extra_body={"stream": True}), None, False),
    ("messages", "parse", minimal("messages", stream=True), Answer, False),
    ("chat", "run_tools", minimal("chat", stream=True), [get_time], False),
    ("chat", "continue_", minimal("chat", stream=True), "Answer: ", False),
    ("chat", "create", minimal("chat", deadline=1e10), None, False),
    ("messages", "create", minimal("messages", timeout=1e300), None, True),
    ("responses", "create", minimal("responses", timeout=httpx.Timeout(10**100)), None, False),
    ("chat", "parse", minimal("chat"), {"type": 5}, False),
    ("responses", "parse", minimal("responses"), {"type": "object", "properties": 5}, True),
    ("messages", "parse", minimal("messages", output_config=True), Answer, False),
    ("chat", "create", minimal("chat", tools=[None]), None, False),
    ("chat", "run_tools", minimal("chat"), None, False),
    ("chat", "run_tools", minimal("chat"), get_time, False),
    ("messages", "run_tools", minimal("messages", max_rounds="3"), [get_time], False),
    ("chat", "continue_", minimal("chat"), None, False),
    ("messages", "continue_", minimal("messages"), 5, False),
]


def _run_call(standin: KimiStandIn, client: Kimi, case: tuple[Any, ...]) -> None:
    fmt, method, params, extra, is_async = case
    what = f"{'async ' if is_async else ''}{fmt} {method}({short(params)}, {short(extra)})"
    if not is_async:
        resource = format_named(fmt).resource_of(client)
        check(standin, what, lambda: _sync_call(resource, fmt, method, params, extra))
        return

    async def run() -> None:
        async with AsyncKimi(
            api_key=standin.api_key, base_url=standin.base_url, max_retries=0
        ) as aclient:
            resource = format_named(fmt).resource_of(aclient)
            await _async_call(resource, fmt, method, params, extra)

    check(standin, what, lambda: asyncio.run(run()))


@SETTINGS
@given(case=calls())
@example(case=None)
def test_calls_raise_only_kimi_errors(standin: KimiStandIn, client: Kimi, case: Any) -> None:
    for one in ISSUE_CALLS if case is None else [case]:
        _run_call(standin, client, one)


# --- histories --------------------------------------------------------------------------------

HISTORY_OPS = ("init", "append", "extend", "add", "add_user", "add_tool_result", "validate",
               "dumps", "loads", "send")  # fmt: skip


@st.composite
def history_programs(draw: st.DrawFn) -> tuple[str, list[tuple[str, Any]]]:
    fmt = draw(st.sampled_from(FORMATS))
    ops = []
    for op in draw(st.lists(st.sampled_from(HISTORY_OPS), min_size=1, max_size=5)):
        if op == "add":
            arg: Any = draw(st.one_of(st.sampled_from(FORMATS), odd_values))
        elif op == "add_tool_result":
            arg = (draw(st.one_of(odd_values, st.just("call_1"))), draw(odd_values))
        elif op == "loads":
            arg = draw(st.one_of(odd_values, st.sampled_from(DAMAGED_SAVES)))
        elif op == "add_user":
            arg = (draw(odd_values), draw(st.one_of(st.just(()), odd_values)))
        else:
            arg = draw(odd_values)
        ops.append((op, arg))
    return fmt, ops


DAMAGED_SAVES = [
    '{"kimi_ext":"ChatHistory","version":1,"items":[{}],"turns":[[0,1e400,null,null,null]]}',
    '{"kimi_ext":"ChatHistory","version":1,"items":[{}],"turns":[[0,1,null,null,null]]}',
    '{"kimi_ext":"MessagesHistory","version":1,"items":5,"turns":[]}',
    '{"kimi_ext":"ResponsesHistory","version":99}', "[", "", "\ud800",
]  # fmt: skip

ISSUE_HISTORY_PROGRAMS: list[tuple[str, list[tuple[str, Any]]]] = [
    ("chat", [("init", None)]),
    ("chat", [("append", None)]),
    ("messages", [("extend", None)]),
    ("chat", [("add", "messages")]),
    ("chat", [("add_tool_result", ("call_1", _Opaque()))]),
    (
        "chat",
        [("add_user", ("q", ())), ("add_tool_result", ("call_1", "r")), ("add_user", (None, ()))],
    ),
    ("chat", [("append", {"role": "user", "content": "x", "extra": {1, 2}}), ("dumps", None)]),
    (
        "chat",
        [
            (
                "append",
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": ["unhashable"],
                            "type": "function",
                            "function": {"name": "f", "arguments": "{}"},
                        }
                    ],
                },
            ),
            ("validate", None),
        ],
    ),
    ("chat", [("loads", DAMAGED_SAVES[0])]),
]


def _history_op(
    standin: KimiStandIn, client: Kimi, results: dict[str, Any], fmt: str, state: dict[str, Any],
    op: str, arg: Any,
) -> None:  # fmt: skip
    kind = HISTORIES[fmt]
    history = state["history"]
    if op == "init":
        made = check(standin, f"{kind.__name__}({short(arg)})", lambda: kind(arg))
        if made is not None:
            state["history"] = made
        return
    what = f"{kind.__name__}.{op}({short(arg)})"
    if op == "append":
        check(standin, what, lambda: history.append(arg))
    elif op == "extend":
        check(standin, what, lambda: history.extend(arg))
    elif op == "add":
        result = results[arg] if isinstance(arg, str) and arg in results else arg
        check(standin, what, lambda: history.add(result))
    elif op == "add_user":
        check(standin, what, lambda: history.add_user(arg[0], images=arg[1]))
    elif op == "add_tool_result":
        check(standin, what, lambda: history.add_tool_result(arg[0], arg[1]))
    elif op == "validate":
        check(standin, what, history.validate)
    elif op == "dumps":
        check(standin, what, history.dumps)
    elif op == "loads":
        check(standin, what, lambda: kind.loads(arg))
    else:  # send it
        params = minimal(fmt)
        params[contract(fmt).history_field] = history
        resource = format_named(fmt).resource_of(client)
        check(standin, f"{fmt} create(history after ops)", lambda: resource.create(**params))


@SETTINGS
@given(program=history_programs())
@example(program=None)
def test_histories_raise_only_kimi_errors(
    standin: KimiStandIn, client: Kimi, results: dict[str, Any], program: Any
) -> None:
    for fmt, ops in ISSUE_HISTORY_PROGRAMS if program is None else [program]:
        state = {"history": HISTORIES[fmt]()}
        for op, arg in ops:
            _history_op(standin, client, results, fmt, state, op, arg)


# --- tool(), resume and the helpers -----------------------------------------------------------


class _Failure(Exception):
    pass


HELPERS = ("tool", "resume", "normalize_effort", "web_search_echo", "image", "usage_of")


@st.composite
def helper_calls(draw: st.DrawFn) -> tuple[str, Any]:
    helper = draw(st.sampled_from(HELPERS))
    if helper == "tool":
        fn = draw(st.one_of(odd_values, st.sampled_from([get_time, _Failure, Answer, print])))
        keywords = draw(st.fixed_dictionaries({}, optional={
            "name": odd_values, "description": odd_values, "schema": ODD_SCHEMAS,
            "custom": odd_values, "format": odd_values,
        }))  # fmt: skip
        return helper, (fn, keywords, draw(st.sampled_from([None, *FORMATS])))
    if helper == "resume":
        return helper, (
            draw(st.sampled_from(["sync", "async", None, "junk"])),
            draw(st.one_of(st.sampled_from(["chat", "messages", "result"]), odd_values)),
            draw(st.fixed_dictionaries({}, optional={
                "messages": st.one_of(odd_values, st.just("valid")), "stream": odd_values,
                "max_tokens": odd_values, "model": odd_values,
            })),
        )  # fmt: skip
    if helper == "normalize_effort":
        return helper, (
            draw(st.one_of(odd_values, st.sampled_from(["low", "max", "medium"]))),
            draw(st.one_of(odd_values, st.sampled_from([MODEL, "kimi-k3"]))),
            draw(st.one_of(odd_values, st.sampled_from([*FORMATS, "bogus", "../chat"]))),
        )
    if helper == "image":
        builder = draw(st.sampled_from(["image_block", "image_part", "input_image", "video_part"]))
        return helper, (builder, draw(st.one_of(odd_values, st.just(b"\x89PNG\r\n\x1a\n"))),
                        draw(st.one_of(st.none(), odd_values)))  # fmt: skip
    return helper, draw(odd_values)


ISSUE_HELPER_CALLS: list[tuple[str, Any]] = [
    ("tool", (get_time, {"custom": True}, "chat")),
    ("tool", (get_time, {"schema": "x"}, None)),
    ("tool", (get_time, {"schema": {"type": "bogus"}}, "messages")),
    ("tool", (_Failure, {}, None)),
    ("resume", ("sync", "chat", {})),
    ("resume", (None, "messages", {"messages": "valid"})),
    ("normalize_effort", ("low", MODEL, "bogus")),
    ("normalize_effort", ("low", MODEL, "../chat")),
    ("web_search_echo", None),
    ("image", ("image_block", 5, None)),
    ("image", ("image_block", "\ud800", None)),
]


def _deep(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


ISSUE_HELPER_CALLS.append(("tool", (get_time, {"schema": _deep(600)}, "responses")))


def _run_helper(
    standin: KimiStandIn, client: Kimi, cuts: dict[str, Any], results: dict[str, Any],
    helper: str, arg: Any,
) -> None:  # fmt: skip
    if helper == "tool":
        fn, keywords, fmt = arg
        what = f"tool({short(fn)}, **{short(keywords)})"
        made = check(standin, what, lambda: kimi_ext.tool(fn, **keywords))
        if made is not None and fmt is not None:  # then declared in a call
            resource = format_named(fmt).resource_of(client)
            check(standin, f"{fmt} create(tools=[{what}])",
                  lambda: resource.create(**minimal(fmt, tools=[made])))  # fmt: skip
    elif helper == "normalize_effort":
        value, model, fmt = arg
        check(standin, f"normalize_effort({short(value)}, model={short(model)}, fmt={short(fmt)})",
              lambda: kimi_ext.normalize_effort(value, model=model, fmt=fmt))  # fmt: skip
    elif helper == "web_search_echo":
        check(standin, f"web_search_echo({short(arg)})", lambda: kimi_ext.web_search_echo(arg))
    elif helper == "usage_of":
        check(standin, f"usage_of({short(arg)})", lambda: kimi_ext.usage_of(arg))
    elif helper == "image":
        builder, source, media_type = arg
        build = getattr(kimi_images, builder)
        check(standin, f"images.{builder}({short(source)}, {short(media_type)})",
              lambda: build(source, media_type))  # fmt: skip
    else:
        _run_resume(standin, client, cuts, results, *arg)


def _run_resume(
    standin: KimiStandIn, client: Kimi, cuts: dict[str, Any], results: dict[str, Any],
    who: Any, cut: Any, params: dict[str, Any],
) -> None:  # fmt: skip
    named = cut if isinstance(cut, str) else None  # a format's cut, a result, or odd
    fmt = named if named in cuts else "chat"
    error = cuts[named] if named in cuts else results["chat"] if named == "result" else cut
    params = dict(params)
    if params.get("messages") == "valid":
        params["messages"] = minimal(fmt)["messages"]
    if fmt == "messages":
        params.setdefault("max_tokens", 64)
    what = f"resume({short(who)}, {short(cut)}, **{short(params)})"
    if who == "async":

        async def run() -> None:
            async with AsyncKimi(
                api_key=standin.api_key, base_url=standin.base_url, max_retries=0
            ) as aclient:
                out = kimi_ext.resume(aclient, error, **params)
                if hasattr(out, "__aenter__"):
                    async with out as stream:
                        async for _ in stream:
                            pass
                elif asyncio.iscoroutine(out) or isinstance(out, asyncio.Future):
                    await out

        check(standin, what, lambda: asyncio.run(run()))
        return
    target = client if who == "sync" else who

    def run_sync() -> None:
        out = kimi_ext.resume(target, error, **params)
        if hasattr(out, "__enter__"):
            with out as stream:
                for _ in stream:
                    pass

    check(standin, what, run_sync)


@SETTINGS
@given(call=helper_calls())
@example(call=None)
def test_helpers_raise_only_kimi_errors(
    standin: KimiStandIn, client: Kimi, cuts: dict[str, Any], results: dict[str, Any], call: Any
) -> None:
    for helper, arg in ISSUE_HELPER_CALLS if call is None else [call]:
        _run_helper(standin, client, cuts, results, helper, arg)
