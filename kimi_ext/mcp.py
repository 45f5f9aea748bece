"""The tools of an MCP server as kimi-ext tools (the optional ``kimi-ext[mcp]`` extra).

Async (``AsyncKimi``): load the tools of a session you opened; calls go to that session::

    from kimi_ext.mcp import load_tools

    async with ClientSession(read, write) as session:
        await session.initialize()
        tools = await load_tools(session)
        run = await client.messages.run_tools(model=..., messages=..., tools=tools)

Sync (``Kimi``): the session lives in a background thread with its own event loop, for
the length of a ``with`` block; ``open_session`` makes an async context manager that
yields an initialized session (it is entered in that thread)::

    from kimi_ext.mcp import tools_in_thread

    with tools_in_thread(open_session) as tools:
        run = client.messages.run_tools(model=..., messages=..., tools=tools)

Names, descriptions and input schemas come from the server (``tools/list``, every page).
Each schema is made ready for the service, and each definition is checked against the
request rules of the three formats; a tool no request may declare (a schema that cannot be
made valid, a name the service refuses) is left out with a :class:`McpToolWarning` naming
it and why (``toolset.left_out``), or, with ``on_invalid="raise"``, refused
(:class:`~kimi_ext.ToolDefinitionError` naming every such tool). One bad tool never fails
the others.

A call's result, for ``run_tools``: a single text block is sent as its text; anything else
(several blocks, images, audio, embedded resources, resource links, structured content
not already in a text block) as the result's JSON (``{"content": [...],
"structuredContent": ...}``), so nothing is lost. A result with ``isError`` is an error
result (``is_error`` on Messages, the text ``Error: McpToolError: ...`` in every format).
:func:`tool_result` gives the richer form each format can carry (images on Messages and
Responses), for a loop written by hand.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Self

from kimi_ext._core.contract import contract
from kimi_ext.errors import KimiError, RequestValidationError, ToolDefinitionError
from kimi_ext.formats import CHAT, FORMATS, MESSAGES, RESPONSES, format_named
from kimi_ext.tools import Tool, tool

if TYPE_CHECKING:
    from kimi_ext._core.call.format import Format

__all__ = [
    "McpToolError",
    "McpToolWarning",
    "McpToolset",
    "load_tools",
    "result_text",
    "tool_result",
    "tools_in_thread",
]

OnInvalid = Literal["warn", "raise"]


class McpToolError(KimiError):
    """An MCP tool answered with ``isError``, or its call failed (the session closed, the
    server refused the request). ``result`` is the result as the server sent it (its JSON,
    a dict), or None when there was none."""

    def __init__(self, message: str, result: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.result = result


class McpToolWarning(UserWarning):
    """An MCP tool was left out: its schema cannot be made valid for the service."""


class McpToolset(tuple[Tool, ...]):
    """The tools of one MCP session, ready for ``tools=`` (a tuple of
    :class:`~kimi_ext.Tool`; combine with others as ``tools=[*toolset, get_weather]``).
    ``left_out``: each tool left out, by name, with why."""

    left_out: Mapping[str, str]

    def __new__(cls, tools: Iterable[Tool] = (), left_out: Mapping[str, str] | None = None) -> Self:
        toolset = super().__new__(cls, tools)
        toolset.left_out = dict(left_out or {})
        return toolset

    @property
    def names(self) -> list[str]:
        """The names of the tools kept, in the server's order."""
        return [t.name for t in self]


# --- loading ---------------------------------------------------------------------------------


async def load_tools(
    session: Any, *, on_invalid: OnInvalid = "warn", prefix: str = ""
) -> McpToolset:
    """The tools of an initialized MCP ``session`` (an ``mcp.ClientSession``, or anything
    with its ``list_tools`` and ``call_tool``), as async kimi-ext tools: for ``AsyncKimi``
    (and ``arun_tools``), on the event loop the session runs on. For the sync client use
    :func:`tools_in_thread`. ``prefix`` is put before every name (two servers with a tool
    of the same name). The session stays yours: close it when done."""
    _check_on_invalid(on_invalid)
    listing = await _listing(session)
    loop = _running_loop()

    def make(name: str) -> Callable[..., Any]:
        async def call(**arguments: Any) -> str:
            if loop is not None and _running_loop() is not loop:
                raise McpToolError(
                    f"MCP tool {name!r} was loaded on another event loop than the one calling "
                    "it; with the sync client use kimi_ext.mcp.tools_in_thread"
                )
            return _output(name, await _call(session, name, arguments))

        return call

    return _toolset(listing, make, on_invalid, prefix, stacklevel=3)


@contextmanager
def tools_in_thread(
    open_session: Callable[[], AbstractAsyncContextManager[Any]],
    *,
    on_invalid: OnInvalid = "warn",
    prefix: str = "",
) -> Iterator[McpToolset]:
    """For the sync client: run an MCP session in a background thread with its own event
    loop, for the length of the ``with`` block, and yield its tools (plain functions, which
    wait for the session's answer). ``open_session()`` returns an async context manager that
    yields an initialized session; it is called and entered in that thread, and exited
    (closing the session) when the block ends, before the thread stops. The tools also work
    on ``AsyncKimi`` (each call waits in a worker thread). A tool called after the block
    ended gives an error result."""
    _check_on_invalid(on_invalid)
    from anyio.from_thread import start_blocking_portal  # the mcp package depends on anyio

    # The session is left (closed) before the portal's event loop and thread stop.
    with start_blocking_portal() as portal, ExitStack() as stack:
        try:
            manager = portal.call(open_session)
            session = stack.enter_context(portal.wrap_async_context_manager(manager))
        except Exception as exc:
            raise McpToolError(
                f"opening the MCP session failed: {type(exc).__name__}: {exc}"
            ) from exc

        def make(name: str) -> Callable[..., Any]:
            def call(**arguments: Any) -> str:
                try:
                    result = portal.call(_call, session, name, arguments)
                except RuntimeError as exc:  # the portal has stopped
                    raise McpToolError(
                        f"MCP tool {name!r} was called after its tools_in_thread block "
                        f"ended ({exc})"
                    ) from None
                return _output(name, result)

            return call

        try:
            listing = portal.call(_listing, session)
            # The warning names the caller's with-line (through contextmanager's __enter__).
            yield _toolset(listing, make, on_invalid, prefix, stacklevel=4)
        finally:
            # The session closes as on a clean exit, whatever ended the block: an exception
            # (the caller's, or a refused tool's) goes on as it is, not into the session's
            # task groups.
            try:
                stack.close()
            except Exception as exc:
                raise McpToolError(
                    f"closing the MCP session failed: {type(exc).__name__}: {exc}"
                ) from exc


def _check_on_invalid(on_invalid: Any) -> None:
    if on_invalid not in ("warn", "raise"):
        raise ToolDefinitionError(f"on_invalid must be 'warn' or 'raise', not {on_invalid!r}")


def _running_loop() -> Any:
    import asyncio

    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # another async library (trio): not checked
        return None


def _wire(value: Any) -> dict[str, Any]:
    """An MCP result as its JSON (the protocol's camelCase names), from the SDK's model."""
    if isinstance(value, Mapping):
        return dict(value)
    dumped: dict[str, Any] = value.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


async def _list_page(session: Any, cursor: str | None) -> dict[str, Any]:
    import inspect

    if cursor is None:
        return _wire(await session.list_tools())
    if "params" in inspect.signature(session.list_tools).parameters:  # mcp.ClientSession
        from mcp.types import PaginatedRequestParams

        return _wire(await session.list_tools(params=PaginatedRequestParams(cursor=cursor)))
    return _wire(await session.list_tools(cursor=cursor))  # mcp.Client, older ClientSessions


async def _listing(session: Any) -> list[dict[str, Any]]:
    """Every tool of the server, following ``nextCursor`` to the last page."""
    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    seen: set[str] = set()
    while True:
        try:
            page = await _list_page(session, cursor)
        except Exception as exc:
            raise McpToolError(
                f"listing the MCP tools failed: {type(exc).__name__}: {exc}"
            ) from exc
        tools.extend(dict(t) for t in page.get("tools") or () if isinstance(t, Mapping))
        cursor = page.get("nextCursor")
        if not cursor:
            return tools
        if cursor in seen:
            raise McpToolError(f"the MCP server's tools/list repeats the cursor {cursor!r}")
        seen.add(cursor)


def _normalized(schema: Any) -> dict[str, Any]:
    """The input schema as sent: rewritten losslessly into the form Moonshot's schema rules
    accept (:func:`kimi_ext.schemas.normalize_schema`); SchemaRejectedError (a ValueError
    with ``.issues``) for one that has no such form."""
    from kimi_ext.schemas import normalize_schema

    if not isinstance(schema, Mapping):
        raise ToolDefinitionError(f"its inputSchema is {type(schema).__name__}, not an object")
    return normalize_schema(schema, role="tool-parameters").schema


def _why(exc: Exception) -> str:
    issues = getattr(exc, "issues", None)
    if isinstance(issues, Sequence) and not isinstance(issues, str) and issues:
        return "; ".join(str(getattr(issue, "message", issue)) for issue in issues)
    return str(exc)


def _toolset(
    listing: Sequence[Mapping[str, Any]],
    make: Callable[[str], Callable[..., Any]],
    on_invalid: OnInvalid,
    prefix: str,
    stacklevel: int,
) -> McpToolset:
    kept: list[Tool] = []
    left_out: dict[str, str] = {}
    for entry in listing:
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            left_out[repr(name)] = "it has no name"
            continue
        description = entry.get("description") or entry.get("title") or ""
        try:
            kept.append(
                tool(
                    make(name),
                    name=prefix + name,
                    description=str(description),
                    schema=_normalized(entry.get("inputSchema")),
                )
            )
        except (KimiError, ValueError, TypeError) as exc:
            left_out[name] = _why(exc).removeprefix(f"tool {prefix + name!r}: ")
    for problem_name, why in _unsendable(kept).items():
        left_out[problem_name.removeprefix(prefix)] = why
    kept = [t for t in kept if t.name.removeprefix(prefix) not in left_out]
    if left_out and on_invalid == "raise":
        raise ToolDefinitionError(
            "MCP tools whose schema cannot be made valid: "
            + "; ".join(f"{name!r}: {why}" for name, why in left_out.items())
        )
    for name, why in left_out.items():
        warnings.warn(f"MCP tool {name!r} left out: {why}", McpToolWarning, stacklevel=stacklevel)
    return McpToolset(kept, left_out)


def _probe(fmt: Format[Any, Any, Any], definitions: list[dict[str, Any]]) -> dict[str, Any]:
    """The smallest request of ``fmt`` declaring ``definitions`` (one user turn)."""
    history = fmt.history_type()
    history.add_user("probe")
    rules = contract(fmt.name)
    return {
        "model": (rules.known_models or ("model",))[0],
        fmt.history_field: history.to_wire(),
        fmt.output_limit_field: 1,
        "tools": definitions,
    }


def _refusal(
    fmt: Format[Any, Any, Any], definitions: list[dict[str, Any]]
) -> tuple[int, str] | None:
    """(index of the first refused definition, the rule it breaks) when ``fmt``'s request
    rules refuse one of ``definitions``, else None."""
    from kimi_ext._core.contract.validation import validate

    try:
        validate(fmt.name, _probe(fmt, definitions))
    except RequestValidationError as exc:
        found = re.match(r"tools\[(\d+)\]\.?", exc.field)
        if found is None:  # not the tools' fault: the probe is not checked here
            return None
        return int(
            found.group(1)
        ), f"{fmt.name}: {exc.field[found.end() :] or 'the tool'}: {exc.rule}"
    return None


def _unsendable(tools: Sequence[Tool]) -> dict[str, str]:
    """The tools a request would be refused for, in any format, by name, with why: the
    request rules (a name the service refuses, a property without a type...) are checked
    here, so that one such tool does not fail every call."""
    bad: dict[str, str] = {}
    for fmt in FORMATS:
        pending = [t for t in tools if t.name not in bad]
        while pending:
            refused = _refusal(fmt, [t.definition(fmt) for t in pending])
            if refused is None:
                break
            index, why = refused
            bad[pending[index].name] = why
            del pending[index]
    return bad


# --- calling -----------------------------------------------------------------------------------


async def _call(session: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    try:
        result = await session.call_tool(name, arguments)
    except Exception as exc:  # the session closed, the server refused the request...
        raise McpToolError(f"the MCP call of {name!r} failed: {type(exc).__name__}: {exc}") from exc
    return _wire(result)


def _output(name: str, result: Mapping[str, Any]) -> str:
    text = result_text(result)
    if result.get("isError"):
        raise McpToolError(text, result)
    return text


# --- results -----------------------------------------------------------------------------------


_RESULT_KEYS = ("content", "structuredContent")


def _blocks(result: Mapping[str, Any]) -> list[Any]:
    content = result.get("content")
    return list(content) if isinstance(content, list) else []


def _structured_shown(result: Mapping[str, Any]) -> bool:
    """True when the structured content is absent, or a text block already holds it (the
    MCP spec asks servers to send it serialized in a text block too)."""
    if "structuredContent" not in result:
        return True
    for block in _blocks(result):
        if isinstance(block, Mapping) and block.get("type") == "text":
            try:
                if json.loads(block.get("text", "")) == result["structuredContent"]:
                    return True
            except (TypeError, ValueError):
                continue
    return False


def _plain_text(block: Any) -> str | None:
    """The text of a text block that carries nothing else (no annotations, no _meta)."""
    if (
        isinstance(block, Mapping)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
        and set(block) <= {"type", "text"}
    ):
        return str(block["text"])
    return None


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def result_text(result: Any) -> str:
    """An MCP ``CallToolResult`` (the SDK's object or its JSON) as one text, losing
    nothing: the text of a lone text block (with the structured content, when that text
    holds it), else the JSON of ``content`` and ``structuredContent``. ``isError`` and the
    protocol's ``_meta`` are not part of it."""
    wire = _wire(result)
    blocks = _blocks(wire)
    if len(blocks) == 1 and _structured_shown(wire):
        text = _plain_text(blocks[0])
        if text is not None:
            return text
    return _json({k: wire[k] for k in _RESULT_KEYS if k in wire})


@dataclass(frozen=True)
class _Shape:
    """What one format's tool result carries: its text part, its image part (None: no
    images), the image media types it takes, and whether it has an error flag."""

    text: Callable[[str], dict[str, Any]]
    image: Callable[[str, str], dict[str, Any]] | None
    media_types: Callable[[], tuple[str, ...]]
    error_flag: bool
    blank_text: bool = True


def _shapes() -> dict[Any, _Shape]:
    return {
        CHAT: _Shape(lambda t: {"type": "text", "text": t}, None, tuple, error_flag=False),
        MESSAGES: _Shape(
            lambda t: {"type": "text", "text": t},
            lambda kind, data: {
                "type": "image",
                "source": {"type": "base64", "media_type": kind, "data": data},
            },
            lambda: contract("messages").media_types("Base64ImageSource", "media_type"),
            error_flag=True,
            blank_text=False,  # a blank text block is refused
        ),
        RESPONSES: _Shape(
            lambda t: {"type": "input_text", "text": t},
            lambda kind, data: {"type": "input_image", "image_url": f"data:{kind};base64,{data}"},
            lambda: contract("responses").media_types("InputImagePart", "image_url"),
            error_flag=False,
        ),
    }


def tool_result(
    result: Any, fmt: Format[Any, Any, Any] | str
) -> tuple[str | list[dict[str, Any]], bool]:
    """``(content, is_error)`` of an MCP ``CallToolResult`` for ``fmt``'s tool result, for
    ``history.add_tool_result(call_id, content, is_error)``. Each text block is a text part
    and each image the format takes is an image part (Messages and Responses; Chat tool
    messages carry text only); every other block (audio, embedded resources, resource
    links, an image of another type or in Chat, a text block with annotations) is a text
    part holding its JSON, and so is structured content that no text block holds. A lone
    text part is sent as a string. On a format without an error flag (Chat, Responses) an
    error result's text starts with ``Error:``."""
    shape = _shapes()[format_named(fmt)]
    wire = _wire(result)
    parts: list[dict[str, Any]] = []
    media: tuple[str, ...] | None = None
    for block in _blocks(wire):
        text = _plain_text(block)
        if text is not None and (shape.blank_text or text.strip()):
            parts.append(shape.text(text))
            continue
        if shape.image is not None and isinstance(block, Mapping) and block.get("type") == "image":
            media = shape.media_types() if media is None else media
            kind, data = block.get("mimeType"), block.get("data")
            if (
                kind in media
                and isinstance(data, str)
                and set(block) <= {"type", "data", "mimeType"}
            ):
                parts.append(shape.image(str(kind), data))
                continue
        parts.append(shape.text(_json(block)))
    if not _structured_shown(wire):
        parts.append(shape.text(_json({"structuredContent": wire["structuredContent"]})))
    is_error = bool(wire.get("isError"))
    if is_error and not shape.error_flag:
        parts.insert(0, shape.text("Error:"))
    if not parts:
        return "", is_error
    if len(parts) == 1 and "text" in parts[0]:
        return str(parts[0]["text"]), is_error
    if is_error and not shape.error_flag and len(parts) == 2 and "text" in parts[1]:
        return f"Error: {parts[1]['text']}", is_error
    return parts, is_error
