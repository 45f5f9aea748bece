"""kimi_ext.mcp: an MCP server's tools as kimi-ext tools, against the test server of
tests/support/mcp_server.py in process (the mcp package's own in-process client) and as a
subprocess over stdio, in the three formats, with the sync and the async client.

The stand-in checks every request (tool definitions and replayed tool results included)
against the specs, so a definition or a result a format cannot carry fails the test.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import subprocess
import sys
import threading
import warnings
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from kimi_ext import AsyncKimi, Kimi, ToolDefinitionError, ToolRun
from kimi_ext.formats import format_named
from kimi_ext.mcp import (
    McpToolError,
    McpToolset,
    McpToolWarning,
    load_tools,
    result_text,
    tool_result,
    tools_in_thread,
)
from kimi_ext.testing import KimiStandIn, Reply, ToolCallSpec
from tests.support.history import (
    MODEL,
    aclient,
    client,
    standin,
    standin_server,
    tool_results,
)
from tests.support.mcp_server import (
    PNG_B64,
    README,
    REPORTED,
    TOOLS,
    WEATHER,
    in_memory,
    over_stdio,
    server,
)
from tests.support.paths import ROOT

_ = (aclient, client, standin, standin_server)  # fixtures

FORMATS = ("chat", "messages", "responses")
MODES = ("sync", "async")
FIELD = {"chat": "messages", "messages": "messages", "responses": "input"}
NAMES = [t.name for t in TOOLS]
ARGS: dict[str, dict[str, Any]] = {
    "add": {"a": 2, "b": 3},
    "picture": {},
    "readme": {},
    "weather": {"city": "Oslo"},
    "fail": {},
}


def resource(c: Any, fmt: str) -> Any:
    return {"chat": c.chat.completions, "messages": c.messages, "responses": c.responses}[fmt]


def request(fmt: str, **extra: Any) -> dict[str, Any]:
    params: dict[str, Any] = {"model": MODEL, FIELD[fmt]: [{"role": "user", "content": "Go"}]}
    if fmt == "messages":
        params["max_tokens"] = 4000
    params.update(extra)
    return params


def definitions(fmt: str, body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """name -> (description, parameters) of the function tools a request declared."""
    out: dict[str, dict[str, Any]] = {}
    for item in body["tools"]:
        fn = item.get("function", item)
        schema = fn.get("parameters", fn.get("input_schema"))
        out[fn["name"]] = {"description": fn.get("description", ""), "parameters": schema}
    return out


def every_tool_then(text: str) -> list[Reply]:
    return [
        Reply(tool_calls=[ToolCallSpec(name, ARGS[name]) for name in NAMES]),
        Reply(text=text),
    ]


# --- loading ------------------------------------------------------------------------------------


async def test_names_descriptions_and_schemas_come_from_every_page_of_the_listing() -> None:
    async with in_memory(server()) as session:
        listed = await session.list_tools()
        assert listed.next_cursor is not None  # the server pages: the listing must follow it
        toolset = await load_tools(session)
    assert isinstance(toolset, McpToolset)
    assert toolset.names == NAMES and len(toolset) == len(TOOLS) and not toolset.left_out
    for made, original in zip(toolset, TOOLS, strict=True):
        assert made.name == original.name
        assert made.description == original.description
        # The test server's schemas are already in the service's dialect: sent unchanged.
        assert made.parameters == original.input_schema
        assert made.is_async


async def test_a_prefix_goes_before_every_name_and_calls_use_the_servers_name() -> None:
    async with in_memory(server()) as session:
        toolset = await load_tools(session, prefix="notes_")
        assert toolset.names == [f"notes_{n}" for n in NAMES]
        assert await toolset[0].fn(a=4, b=5) == "9"


@pytest.mark.parametrize("opener", ["in_memory", "stdio"])
async def test_a_tool_no_request_may_declare_is_left_out_with_a_warning(opener: str) -> None:
    open_session = (
        in_memory(server(broken=True)) if opener == "in_memory" else over_stdio(broken=True)
    )
    async with open_session as session:
        with pytest.warns(McpToolWarning) as seen:
            toolset = await load_tools(session)
        assert toolset.names == NAMES  # every other tool is kept, in order
        assert list(toolset.left_out) == ["broken", "files.read"]
        # Why, in the words of the check that refused it.
        # in the service's words (which do not repeat the value)
        assert toolset.left_out["broken"] == "At path 'properties.x': invalid type"
        assert toolset.left_out["files.read"] == (
            "chat: function.name: must match ^[a-zA-Z_][a-zA-Z0-9-_]{0,127}$"
        )
        assert [str(w.message) for w in seen] == [
            f"MCP tool {name!r} left out: {why}" for name, why in toolset.left_out.items()
        ]
        assert {w.filename for w in seen} == {__file__}  # the line that loaded them
        assert await toolset[0].fn(a=1, b=1) == "2"


def test_tools_in_thread_leaves_out_the_same_tools_warning_at_the_with_line() -> None:
    with (
        pytest.warns(McpToolWarning) as seen,
        tools_in_thread(lambda: in_memory(server(broken=True))) as toolset,
    ):
        assert toolset.names == NAMES and list(toolset.left_out) == ["broken", "files.read"]
        assert toolset[0](a=2, b=2) == "4"
    assert len(seen) == 2 and {w.filename for w in seen} == {__file__}


async def test_on_invalid_raise_refuses_naming_every_such_tool() -> None:
    async with in_memory(server(broken=True)) as session:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # refused, not warned
            with pytest.raises(ToolDefinitionError) as refused:
                await load_tools(session, on_invalid="raise")
        assert "'broken': At path 'properties.x': invalid type" in str(refused.value)
        assert "'files.read': chat: function.name: must match" in str(refused.value)
        with pytest.raises(ToolDefinitionError, match="on_invalid must be 'warn' or 'raise'"):
            await load_tools(session, on_invalid="drop")  # type: ignore[arg-type]


def test_tools_in_thread_refuses_the_same_and_closes() -> None:
    before = set(threading.enumerate())
    with (
        pytest.raises(ToolDefinitionError, match=r"'broken': .*'files.read': "),
        tools_in_thread(lambda: in_memory(server(broken=True)), on_invalid="raise"),
    ):
        pytest.fail("refused: the block does not run")
    assert not set(threading.enumerate()) - before


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fmt", FORMATS)
async def test_run_tools_works_with_the_tools_kept_from_a_server_with_bad_ones(
    mode: str, fmt: str, client: Kimi, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    standin.queue(*every_tool_then("Fine without the bad ones."))
    with pytest.warns(McpToolWarning):
        async with toolset_for(mode, lambda: in_memory(server(broken=True))) as toolset:
            result = await run(mode, client, aclient, fmt, toolset)
    assert result.text == "Fine without the bad ones."
    assert list(definitions(fmt, standin.requests[-1].json)) == NAMES
    check_results(fmt, result)


@pytest.mark.parametrize("fmt", FORMATS)
async def test_the_reported_bad_shapes_are_rewritten_and_a_tool_loop_gets_no_400(
    fmt: str, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    """Schemas Moonshot refuses as written (type beside anyOf, a $ref with a sibling type,
    a boolean subschema, required naming an undefined property, a tuple with items:
    false, an enum of two types), from an MCP server, in a run_tools loop against the
    stand-in, which refuses them as the service does: none is left out, no request is
    refused."""
    names = [t.name for t in REPORTED]
    standin.queue(Reply(tool_calls=[ToolCallSpec(n, {}) for n in names]), Reply(text="Done."))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing left out
        async with in_memory(server(reported=True)) as session:
            toolset = await load_tools(session)
            result = await resource(aclient, fmt).run_tools(tools=toolset, **request(fmt))
    assert not toolset.left_out and set(names) <= set(toolset.names)
    assert result.text == "Done."
    assert len(standin.requests) == 2  # both turns accepted: no 400 on the way
    sent = definitions(fmt, standin.requests[0].json)
    assert set(names) <= set(sent)


def test_importing_kimi_ext_does_not_import_mcp() -> None:
    code = (
        "import sys, kimi_ext, kimi_ext.tools, kimi_ext.tool_loop\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'anyio'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


# --- definitions in every format ----------------------------------------------------------------


@pytest.mark.parametrize("call", ["create", "stream"])
@pytest.mark.parametrize("fmt", FORMATS)
async def test_the_tools_are_declared_in_every_format(
    fmt: str, call: str, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    standin.queue(Reply(text="ok"))
    async with in_memory(server()) as session:
        toolset = await load_tools(session)
        res = resource(aclient, fmt)
        if call == "create":
            result = await res.create(tools=toolset, **request(fmt))
        else:
            async with res.stream(tools=toolset, **request(fmt)) as stream:
                result = await stream.final()
    assert result.text == "ok"
    declared = definitions(fmt, standin.last_request.json)
    assert list(declared) == NAMES
    for original in TOOLS:
        assert declared[original.name] == {
            "description": original.description,
            "parameters": original.input_schema,
        }


# --- run_tools ----------------------------------------------------------------------------------


@asynccontextmanager
async def toolset_for(mode: str, opener: Callable[[], Any]) -> AsyncIterator[Any]:
    """For "async": the tools loaded on this event loop. For "sync": the session is opened
    in the background thread of tools_in_thread (entered and left from a worker thread,
    as the sync client's caller would)."""
    if mode == "async":
        async with opener() as session:
            yield await load_tools(session)
        return
    manager = tools_in_thread(opener)
    toolset = await asyncio.to_thread(manager.__enter__)
    try:
        yield toolset
    finally:
        await asyncio.to_thread(manager.__exit__, None, None, None)


async def run(
    mode: str, c: Kimi, ac: AsyncKimi, fmt: str, toolset: Any, **params: Any
) -> ToolRun[Any, Any]:
    if mode == "sync":
        return await asyncio.to_thread(
            lambda: resource(c, fmt).run_tools(tools=toolset, **request(fmt, **params))
        )
    result: ToolRun[Any, Any] = await resource(ac, fmt).run_tools(
        tools=toolset, **request(fmt, **params)
    )
    return result


def check_results(fmt: str, run_result: ToolRun[Any, Any]) -> None:
    """Each tool's result, as run_tools put it in the history."""
    results = tool_results(fmt, run_result.history)
    assert len(results) == len(NAMES)
    by_name = dict(zip(NAMES, results, strict=True))
    # A lone text block: its text.
    assert by_name["add"][1:] == ("5", False)
    # An image: the result's JSON, the image's bytes kept.
    picture = json.loads(by_name["picture"][1])
    assert picture == {"content": [{"type": "image", "data": PNG_B64, "mimeType": "image/png"}]}
    # Text and an embedded resource: both blocks, as JSON.
    readme = json.loads(by_name["readme"][1])
    assert readme["content"][1]["resource"]["text"] == README
    assert readme["content"][0] == {"type": "text", "text": "Here are the notes:"}
    # Structured content that no text block holds: kept beside the text.
    weather = json.loads(by_name["weather"][1])
    assert weather == {
        "content": [{"type": "text", "text": "Oslo: 21.5 C"}],
        "structuredContent": WEATHER,
    }
    # isError: an error result (the flag where the format has one).
    _, content, flagged = by_name["fail"]
    assert content == "Error: McpToolError: the sensor is offline"
    assert flagged == (fmt == "messages")
    assert not any(flag for name, (_, _, flag) in by_name.items() if name != "fail")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fmt", FORMATS)
async def test_run_tools_calls_the_mcp_session_in_process(
    mode: str, fmt: str, client: Kimi, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    standin.queue(*every_tool_then("All done."))
    async with toolset_for(mode, lambda: in_memory(server())) as toolset:
        result = await run(mode, client, aclient, fmt, toolset)
    assert result.rounds == 2 and result.text == "All done."
    check_results(fmt, result)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fmt", FORMATS)
async def test_run_tools_calls_a_stdio_server_subprocess(
    mode: str, fmt: str, client: Kimi, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    standin.queue(*every_tool_then("Done over stdio."))
    async with toolset_for(mode, over_stdio) as toolset:
        result = await run(mode, client, aclient, fmt, toolset)
    assert result.text == "Done over stdio."
    check_results(fmt, result)


async def test_mcp_tools_mix_with_python_tools(aclient: AsyncKimi, standin: KimiStandIn) -> None:
    def shout(text: str) -> str:
        """Upper case."""
        return text.upper()

    standin.queue(
        Reply(
            tool_calls=[
                ToolCallSpec("add", {"a": 1, "b": 2}),
                ToolCallSpec("shout", {"text": "hi"}),
            ]
        ),
        Reply(text="3 HI"),
    )
    async with in_memory(server()) as session:
        toolset = await load_tools(session)
        result = await aclient.messages.run_tools(tools=[*toolset, shout], **request("messages"))
    assert [c for _, c, _ in tool_results("messages", result.history)] == ["3", "HI"]


def test_the_thread_and_the_session_end_with_the_block() -> None:
    before = set(threading.enumerate())
    with tools_in_thread(lambda: in_memory(server())) as toolset:
        started = set(threading.enumerate()) - before
        assert started  # the session's event loop thread
        assert toolset[0](a=20, b=22) == "42"
    assert not [t for t in started if t.is_alive()]
    assert not set(threading.enumerate()) - before
    with pytest.raises(McpToolError, match="after its tools_in_thread block ended"):
        toolset[0](a=1, b=1)


async def test_thread_tools_also_run_on_the_async_client(
    aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    standin.queue(*every_tool_then("Threaded."))
    async with toolset_for("sync", lambda: in_memory(server())) as toolset:
        assert not any(t.is_async for t in toolset)
        result = await aclient.responses.run_tools(tools=toolset, **request("responses"))
    assert result.text == "Threaded."
    check_results("responses", result)


def test_a_session_that_cannot_open_is_a_kimi_error_and_leaves_no_thread() -> None:
    @asynccontextmanager
    async def refused() -> AsyncIterator[Any]:
        raise ConnectionRefusedError("no server here")
        yield

    before = set(threading.enumerate())
    with (
        pytest.raises(McpToolError, match="opening the MCP session failed: ConnectionRefused"),
        tools_in_thread(refused),
    ):
        pass
    assert not set(threading.enumerate()) - before


def test_an_error_in_the_block_closes_the_session_and_passes_through() -> None:
    closed: list[bool] = []

    @asynccontextmanager
    async def tracked() -> AsyncIterator[Any]:
        async with in_memory(server()) as session:
            try:
                yield session
            finally:
                closed.append(True)

    before = set(threading.enumerate())
    with pytest.raises(KeyError, match="mine"), tools_in_thread(tracked) as toolset:
        assert toolset[0](a=1, b=1) == "2"
        raise KeyError("mine")
    assert closed == [True]
    assert not set(threading.enumerate()) - before


def children_running(marker: str) -> list[int]:
    """The pids of this process's children whose command line holds ``marker`` (Linux)."""
    me, found = os.getpid(), []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, ValueError, IndexError):
            continue  # ended while we looked
        if ppid == me and marker in cmdline:
            found.append(int(stat.parent.name))
    return found


def test_the_stdio_subprocess_and_the_thread_end_with_the_block() -> None:
    before = set(threading.enumerate())
    with tools_in_thread(over_stdio) as toolset:
        started = set(threading.enumerate()) - before
        assert toolset[0](a=1, b=2) == "3"
        assert len(children_running("tests.support.mcp_server")) == 1
    assert children_running("tests.support.mcp_server") == []
    assert started and not [t for t in started if t.is_alive()]
    assert not set(threading.enumerate()) - before


def test_async_tools_on_the_sync_client_give_an_error_result_naming_the_fix(
    client: Kimi, standin: KimiStandIn
) -> None:
    standin.queue(Reply(tool_calls=[ToolCallSpec("add", {"a": 1, "b": 2})]), Reply(text="ok"))

    async def load() -> McpToolset:
        async with in_memory(server()) as session:
            toolset = await load_tools(session)
            # The session's loop is busy here; a sync run_tools runs the async tool in an
            # event loop of its own, which cannot reach this session.
            holder.append(toolset)
            await asyncio.to_thread(
                lambda: holder.append(
                    client.messages.run_tools(tools=toolset, **request("messages"))
                )
            )
            return toolset

    holder: list[Any] = []
    asyncio.run(load())
    run_result = holder[1]
    [(_, content, flagged)] = tool_results("messages", run_result.history)
    assert flagged and "tools_in_thread" in content and "another event loop" in content


async def test_a_failed_call_is_an_error_result_not_an_escape() -> None:
    async with in_memory(server()) as session:
        toolset = await load_tools(session)
    # The session is closed now: the call fails, as a KimiError the loop reports.
    with pytest.raises(McpToolError, match="the MCP call of 'add' failed"):
        await toolset[0].fn(a=1, b=2)


# --- results in each format ---------------------------------------------------------------------


async def results() -> dict[str, Any]:
    async with in_memory(server()) as session:
        return {name: await session.call_tool(name, ARGS[name]) for name in NAMES}


async def test_result_text_is_the_text_or_the_whole_result_as_json() -> None:
    got = await results()
    assert result_text(got["add"]) == "5"
    assert json.loads(result_text(got["weather"]))["structuredContent"] == WEATHER
    as_json = got["picture"].model_dump(mode="json", by_alias=True, exclude_none=True)
    assert result_text(as_json) == result_text(got["picture"])  # the JSON works as well


@pytest.mark.parametrize("fmt", FORMATS)
async def test_tool_result_maps_each_block_to_what_the_format_carries(
    fmt: str, aclient: AsyncKimi, standin: KimiStandIn
) -> None:
    got = await results()
    mapped = {name: tool_result(got[name], fmt) for name in NAMES}
    text = {"chat": "text", "messages": "text", "responses": "input_text"}[fmt]

    assert mapped["add"] == ("5", False)
    picture, _ = mapped["picture"]
    if fmt == "messages":
        assert picture == [
            {
                "type": "image",
                "source": {"type": "base64", "media_type": "image/png", "data": PNG_B64},
            }
        ]
    elif fmt == "responses":
        assert picture == [{"type": "input_image", "image_url": f"data:image/png;base64,{PNG_B64}"}]
    else:  # Chat tool messages carry text only: the image block as JSON
        assert json.loads(picture)["data"] == PNG_B64
    readme, _ = mapped["readme"]
    assert readme[0] == {"type": text, "text": "Here are the notes:"}
    assert json.loads(readme[1]["text"])["resource"]["text"] == README
    weather, _ = mapped["weather"]
    assert weather[0] == {"type": text, "text": "Oslo: 21.5 C"}
    assert json.loads(weather[1]["text"]) == {"structuredContent": WEATHER}
    fail, is_error = mapped["fail"]
    assert is_error
    assert fail == (
        "the sensor is offline" if fmt == "messages" else "Error: the sensor is offline"
    )

    # Every mapped result is accepted by the format's history and by the service's rules.
    standin.queue(Reply(tool_calls=[ToolCallSpec(n, ARGS[n]) for n in NAMES]), Reply(text="seen"))
    async with in_memory(server()) as session:
        toolset = await load_tools(session)
    res = resource(aclient, fmt)
    first = await res.create(tools=toolset, **request(fmt))
    history = format_named(fmt).history_type()
    history.extend(request(fmt)[FIELD[fmt]])
    history.add(first)
    for call, name in zip(first.tool_calls, NAMES, strict=True):
        history.add_tool_result(call.id, *mapped[name])
    final = await res.create(tools=toolset, **request(fmt, **{FIELD[fmt]: history}))
    assert final.text == "seen"
    sent = tool_results(fmt, standin.last_request.json[FIELD[fmt]])
    assert [content for _, content, _ in sent] == [mapped[n][0] for n in NAMES]


def test_structured_content_held_by_a_text_block_is_not_repeated() -> None:
    structured = {"city": "Oslo", "temp": 21.5}
    result = {
        "content": [{"type": "text", "text": json.dumps(structured, indent=2)}],
        "structuredContent": structured,
        "isError": False,
    }
    assert result_text(result) == json.dumps(structured, indent=2)
    for fmt in FORMATS:
        assert tool_result(result, fmt) == (json.dumps(structured, indent=2), False)


def test_an_image_a_format_does_not_take_is_kept_as_json() -> None:
    tiff = {
        "type": "image",
        "data": base64.b64encode(b"II*\x00").decode(),
        "mimeType": "image/tiff",
    }
    for fmt in FORMATS:
        content, _ = tool_result({"content": [tiff]}, fmt)
        assert json.loads(content) == tiff
