"""A small MCP server for the kimi_ext.mcp tests, on the mcp package's low-level ``Server``
(so the tests choose the schemas and results exactly): its tools answer with text, an
image, an embedded resource, structured content and an error, and ``tools/list`` pages
two tools at a time. ``BROKEN`` adds two tools no request may declare (a schema that is no valid JSON Schema,
a name the service refuses).

In process: ``async with in_memory(server()) as session`` (the mcp package's in-process
client, its own test transport). As a subprocess over stdio:
``python -m tests.support.mcp_server [--broken]`` from the repository root
(:func:`stdio_parameters`).
"""

from __future__ import annotations

import base64
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import mcp_types as types
from mcp import Client, ClientSession, StdioServerParameters, stdio_client
from mcp.server.lowlevel import Server

from tests.support.paths import ROOT

# A 1x1 PNG (the bytes a tool sends; the tests compare what comes out with them).
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
PNG_B64 = base64.b64encode(PNG).decode()
WEATHER = {"city": "Oslo", "temp": 21.5}
README = "# Notes\nTwo lines."

CITY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "City name."}},
    "required": ["city"],
    "additionalProperties": False,
}
EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}
ADD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
    "additionalProperties": False,
}
# "strng" is no JSON Schema type: no normalizer can make this valid.
BROKEN_SCHEMA: dict[str, Any] = {"type": "object", "properties": {"x": {"type": "strng"}}}

TOOLS: list[types.Tool] = [
    types.Tool(name="add", description="Add two integers.", input_schema=ADD_SCHEMA),
    types.Tool(name="picture", description="A tiny picture.", input_schema=EMPTY_SCHEMA),
    types.Tool(name="readme", description="The notes, as a resource.", input_schema=EMPTY_SCHEMA),
    types.Tool(name="weather", description="Weather for a city.", input_schema=CITY_SCHEMA),
    types.Tool(name="fail", description="Always fails.", input_schema=EMPTY_SCHEMA),
]
# Left out: a schema no normalizer can make valid, and a name the service refuses (a dot).
BROKEN = [
    types.Tool(name="broken", description="Has a bad schema.", input_schema=BROKEN_SCHEMA),
    types.Tool(name="files.read", description="A dotted name.", input_schema=EMPTY_SCHEMA),
]
# Shapes Moonshot's validator refuses as written, as MCP servers list them (issue 31's
# reports); each has a lossless rewrite, so every one is kept and callable.
REPORTED = [
    types.Tool(name="type_beside_anyof", description="Type beside anyOf.", input_schema={
        "type": "object",
        "properties": {"unit": {"type": "string", "anyOf": [{"enum": ["c"]}, {"enum": ["f"]}]}},
    }),
    types.Tool(name="ref_with_type", description="A $ref with a sibling type.", input_schema={
        "type": "object",
        "$defs": {"City": {"type": "string"}},
        "properties": {"city": {"$ref": "#/$defs/City", "type": "string"}},
    }),
    types.Tool(name="boolean_subschema", description="A boolean subschema.", input_schema={
        "type": "object", "properties": {"anything": True},
    }),
    types.Tool(name="required_undefined", description="Requires what it does not define.",
               input_schema={"type": "object", "properties": {}, "required": ["note"]}),
    types.Tool(name="tuple_items_false", description="A tuple.", input_schema={
        "type": "object",
        "properties": {"pair": {"type": "array", "prefixItems": [{"type": "integer"},
                                                                 {"type": "string"}],
                                "items": False}},
    }),
    types.Tool(name="mixed_enum", description="An enum of two types.", input_schema={
        "type": "object",
        "properties": {"mode": {"type": ["string", "integer"], "enum": ["auto", 0]}},
    }),
]  # fmt: skip
PAGE = 2


def result(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
    """What each tool answers."""
    if name == "add":
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=str(arguments["a"] + arguments["b"]))]
        )
    if name == "picture":
        return types.CallToolResult(
            content=[types.ImageContent(type="image", data=PNG_B64, mime_type="image/png")]
        )
    if name == "readme":
        return types.CallToolResult(
            content=[
                types.TextContent(type="text", text="Here are the notes:"),
                types.EmbeddedResource(
                    type="resource",
                    resource=types.TextResourceContents(
                        uri="file:///notes.md", mime_type="text/markdown", text=README
                    ),
                ),
            ]
        )
    if name == "weather":
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=f"{arguments['city']}: 21.5 C")],
            structured_content=WEATHER,
        )
    if name in {t.name for t in REPORTED}:
        return types.CallToolResult(content=[types.TextContent(type="text", text="ok")])
    if name == "fail":
        return types.CallToolResult(
            content=[types.TextContent(type="text", text="the sensor is offline")], is_error=True
        )
    raise ValueError(f"unknown tool {name}")


def server(*, broken: bool = False, reported: bool = False) -> Server[Any]:
    tools = [*TOOLS[:2], BROKEN[0], *TOOLS[2:4], BROKEN[1], *TOOLS[4:]] if broken else list(TOOLS)
    if reported:
        tools += REPORTED

    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        start = int(params.cursor) if params is not None and params.cursor else 0
        end = start + PAGE
        return types.ListToolsResult(
            tools=tools[start:end], next_cursor=str(end) if end < len(tools) else None
        )

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return result(params.name, dict(params.arguments or {}))

    return Server("kimi-ext-tests", on_list_tools=list_tools, on_call_tool=call_tool)


@asynccontextmanager
async def in_memory(srv: Server[Any]) -> AsyncIterator[ClientSession]:
    """An initialized ``ClientSession`` on ``srv``, in process."""
    async with Client(srv) as client:
        yield client.session


def stdio_parameters(*, broken: bool = False) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "tests.support.mcp_server", *(["--broken"] if broken else [])],
        cwd=str(ROOT),
    )


@asynccontextmanager
async def over_stdio(*, broken: bool = False) -> AsyncIterator[ClientSession]:
    """An initialized ``ClientSession`` on this server run as a subprocess over stdio."""
    async with (
        stdio_client(stdio_parameters(broken=broken)) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def _serve_stdio(broken: bool) -> None:
    from mcp.server.stdio import stdio_server

    srv = server(broken=broken)
    async with stdio_server() as (read, write):
        await srv.run(read, write, srv.create_initialization_options())


if __name__ == "__main__":
    import anyio

    anyio.run(_serve_stdio, "--broken" in sys.argv[1:])
