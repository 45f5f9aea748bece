"""The service's request rules, as the stand-in enforces them.

This is an independent implementation of what the Kimi endpoints reject (it deliberately
shares no code with :mod:`kimi_ext.validation`, so a client bug cannot hide behind shared
code). Every broken rule raises :class:`ServiceError`; the server turns it into the format's
own error envelope. Chat and Responses name fields like ``messages[3].tool_call_id``,
Messages like ``messages.3.content.0`` (the style of each family's real errors).

The checks, per format: top-level fields (unknown ones are rejected by name), the model
(unknown ids answer 404), types and documented ranges, effort (only low / high / max, and
only max on ``kimi-k3``), the fixed sampling values, stop sequences, tools and tool_choice,
features only the K3.1 models have, and the replayed history (reasoning kept on Chat
tool-call turns, thinking signatures on Messages, tool results matching earlier calls).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

MODELS: tuple[str, ...] = ("kimi-k3.1-pro", "kimi-k3.1-pro-highspeed", "kimi-k3")
PREVIOUS_MODEL = "kimi-k3"
EFFORTS: tuple[str, ...] = ("low", "high", "max")
MAX_OUTPUT = 1_048_576
DEFAULT_OUTPUT = 131_072
MAX_STOPS = 5
MAX_STOP_BYTES = 32
MAX_CHAT_TOOLS = 128
TOOL_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9\-_]{0,127}\Z")
TTLS: tuple[str, ...] = ("5m", "1h")
FIXED_SAMPLING: dict[str, float] = {
    "temperature": 1,
    "top_p": 0.95,
    "n": 1,
    "frequency_penalty": 0,
    "presence_penalty": 0,
}

CHAT_FIELDS: tuple[str, ...] = (
    "model", "messages", "reasoning_effort", "max_completion_tokens", "max_tokens", "stream",
    "stream_options", "tools", "tool_choice", "response_format", "prediction",
    "prompt_cache_key", "prompt_cache_options", "safety_identifier", "logprobs",
    "top_logprobs", "stop", "temperature", "top_p", "n", "frequency_penalty",
    "presence_penalty",
)  # fmt: skip
MESSAGES_FIELDS: tuple[str, ...] = (
    "model", "messages", "max_tokens", "system", "stream", "stop_sequences", "tools",
    "tool_choice", "metadata", "cache_control", "output_config", "temperature", "top_p",
)  # fmt: skip
RESPONSES_FIELDS: tuple[str, ...] = (
    "model", "input", "instructions", "stream", "max_output_tokens", "reasoning", "text",
    "tools", "tool_choice", "include", "prompt_cache_key", "prompt_cache_options",
    "safety_identifier",
)  # fmt: skip
INCLUDE_VALUES: tuple[str, ...] = ("web_search_call.results", "web_search_call.action.sources")


class ServiceError(Exception):
    """A request the service refuses: status, message and the error's type / code / param."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        error_type: str = "invalid_request_error",
        code: str | int | None = None,
        param: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.error_type = error_type
        self.code = code
        self.param = param


@dataclass
class RequestInfo:
    """What the rest of the stand-in needs from a request that passed every rule."""

    fmt: str
    model: str
    stream: bool = False
    budget: int = DEFAULT_OUTPUT
    stops: tuple[str, ...] = ()
    effort: str = "max"
    cache_ttl: str = "5m"
    cache_group: str = ""
    schema: Any = None
    json_mode: bool = False
    include_usage: bool = False
    logprobs: bool = False
    top_logprobs: int = 0
    include: tuple[str, ...] = ()
    has_web_search: bool = False


Verifier = Callable[[str, str], bool]

_KIND_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "object": "an object",
    "array": "an array",
}


def _is_kind(value: Any, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "object":
        return isinstance(value, Mapping)
    if kind == "array":
        return isinstance(value, list)
    raise AssertionError(kind)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


class Checker:
    """Error wording and field paths for one format family."""

    def __init__(self, style: Literal["openai", "anthropic"]) -> None:
        self.style = style

    def path(self, *parts: str | int) -> str:
        out = ""
        for part in parts:
            if isinstance(part, int):
                out += f"[{part}]" if self.style == "openai" else f".{part}"
            else:
                out += part if not out else f".{part}"
        return out

    def bad(self, path: str, problem: str, *, code: str | None = None) -> ServiceError:
        if self.style == "anthropic":
            return ServiceError(400, f"{path}: {problem}")
        return ServiceError(400, f"Invalid '{path}': {problem}", code=code, param=path)

    def plain(
        self, message: str, *, param: str | None = None, code: str | None = None
    ) -> ServiceError:
        """An error whose wording is the service's own sentence."""
        return ServiceError(
            400, message, code=code, param=param if self.style == "openai" else None
        )

    def missing(self, path: str) -> ServiceError:
        if self.style == "anthropic":
            return ServiceError(400, f"{path}: Field required")
        return ServiceError(400, f"Missing required parameter: '{path}'.", param=path)

    def kind(self, value: Any, kind: str, path: str) -> Any:
        if not _is_kind(value, kind):
            if self.style == "anthropic":
                raise ServiceError(400, f"{path}: Input should be {_KIND_NAMES[kind]}")
            raise ServiceError(
                400,
                f"Invalid type for '{path}': expected {_KIND_NAMES[kind]}, but got "
                f"{_json_type(value)} instead.",
                param=path,
            )
        return value

    def field(
        self, obj: Mapping[str, Any], key: str, kind: str, path: str, *, required: bool = False
    ) -> Any:
        if key not in obj:
            if required:
                raise self.missing(path)
            return None
        return self.kind(obj[key], kind, path)

    def choice(self, value: Any, allowed: Sequence[str], path: str) -> str:
        if not isinstance(value, str) or value not in allowed:
            listed = ", ".join(f"'{a}'" for a in allowed)
            if self.style == "anthropic":
                raise ServiceError(400, f"{path}: Input should be one of {listed}")
            raise ServiceError(
                400,
                f"Invalid value for '{path}': {value!r}. Supported values are: {listed}.",
                param=path,
            )
        return value

    def unknown_fields(self, body: Mapping[str, Any], known: Sequence[str]) -> None:
        for name in body:
            if name not in known:
                if self.style == "anthropic":
                    raise ServiceError(400, f"{name}: Extra inputs are not permitted")
                raise ServiceError(
                    400,
                    f"Unrecognized request argument supplied: {name}",
                    param=name,
                )

    def model(self, body: Mapping[str, Any]) -> str:
        model = self.field(body, "model", "string", "model", required=True)
        if model not in MODELS:
            if self.style == "anthropic":
                raise ServiceError(404, f"model: {model} not found", error_type="not_found_error")
            raise ServiceError(
                404,
                f"The model {model} does not exist",
                error_type="resource_not_found_error",
                code="model_not_found",
            )
        return str(model)

    def output_limit(
        self, body: Mapping[str, Any], key: str, *, required: bool = False
    ) -> int | None:
        if key not in body:
            if required:
                raise self.missing(key)
            return None
        value = body[key]
        if not _is_kind(value, "integer") or not 1 <= value <= MAX_OUTPUT:
            raise self.bad(key, f"must be an integer between 1 and {MAX_OUTPUT}")
        return int(value)

    def effort(self, value: Any, path: str, model: str) -> str:
        if value is None:
            return "max"
        if not isinstance(value, str) or value not in EFFORTS:
            raise self.plain(
                f"invalid {path}: {value!r} is not supported, use one of low, high, max",
                param=path,
            )
        if model == PREVIOUS_MODEL and value != "max":
            raise self.plain(
                f"invalid {path}: only max is allowed for model {PREVIOUS_MODEL}", param=path
            )
        return value

    def fixed_sampling(self, body: Mapping[str, Any], names: Sequence[str]) -> None:
        for name in names:
            if name not in body:
                continue
            value = body[name]
            fixed = FIXED_SAMPLING[name]
            if not _is_kind(value, "number") or value != fixed:
                shown = int(fixed) if fixed == int(fixed) else fixed
                raise self.plain(
                    f"invalid {name}: only {shown} is allowed for this model", param=name
                )

    def k31_only(self, model: str, path: str, feature: str) -> None:
        if model == PREVIOUS_MODEL:
            raise self.plain(
                f"{feature} ({path}) is not supported by model {PREVIOUS_MODEL}; use "
                "kimi-k3.1-pro or kimi-k3.1-pro-highspeed",
                param=path,
            )

    def stops(self, value: Any, path: str, *, allow_string: bool) -> tuple[str, ...]:
        if isinstance(value, str) and allow_string:
            seqs: list[Any] = [value]
        elif isinstance(value, list):
            seqs = value
        else:
            raise self.bad(
                path,
                "must be a string or an array of strings"
                if allow_string
                else "must be an array of strings",
            )
        if len(seqs) > MAX_STOPS:
            raise self.bad(path, f"at most {MAX_STOPS} stop sequences are allowed, got {len(seqs)}")
        for i, seq in enumerate(seqs):
            where = path if isinstance(value, str) else self.path(path, i)
            self.kind(seq, "string", where)
            if not seq:
                raise self.bad(where, "a stop sequence must not be empty")
            size = len(seq.encode("utf-8"))
            if size > MAX_STOP_BYTES:
                raise self.bad(
                    where,
                    f"each stop sequence may be at most {MAX_STOP_BYTES} bytes (UTF-8), got {size}",
                )
        return tuple(seqs)

    def tool_name(self, name: Any, path: str) -> str:
        self.kind(name, "string", path)
        if not TOOL_NAME.match(name):
            raise self.bad(
                path, f"function name {name!r} must match ^[a-zA-Z_][a-zA-Z0-9-_]{{0,127}}$"
            )
        return str(name)

    def unique(self, names: Sequence[str]) -> None:
        seen: set[str] = set()
        for name in names:
            if name in seen:
                raise self.plain(f"function name {name} is duplicated", param="tools")
            seen.add(name)

    def schema_types(self, schema: Any, where: str = "") -> None:
        """Moonshot rejects a property schema that does not say its type.

        ``where`` is the dotted path of ``schema`` inside the tool's parameters, ending in a
        dot (``""`` for the root, ``"properties.a.items."`` further down).
        """
        if not isinstance(schema, Mapping):
            return
        props = schema.get("properties")
        if isinstance(props, Mapping):
            for name, sub in props.items():
                at = f"{where}properties.{name}"
                if isinstance(sub, Mapping) and not any(
                    k in sub for k in ("type", "anyOf", "oneOf", "allOf", "$ref")
                ):
                    raise self.plain(f"At path '{at}': type is not defined", param="tools")
                self.schema_types(sub, f"{at}.")
        items = schema.get("items")
        if isinstance(items, Mapping):
            self.schema_types(items, f"{where}items.")

    def cache_options(self, value: Any, path: str) -> str:
        self.kind(value, "object", path)
        if "mode" in value:
            self.choice(value["mode"], ("implicit",), self.path(path, "mode"))
        if "ttl" in value:
            return self.choice(value["ttl"], TTLS, self.path(path, "ttl"))
        return "5m"


def text_parts(value: Any, chk: Checker, path: str, *, allowed: Sequence[str] = ("text",)) -> None:
    """A content value: a string or a list of typed parts."""
    if isinstance(value, str):
        return
    chk.kind(value, "array", path)
    for j, part in enumerate(value):
        where = chk.path(path, j)
        chk.kind(part, "object", where)
        kind = chk.choice(part.get("type"), allowed, chk.path(where, "type"))
        if kind in ("text", "input_text", "output_text"):
            chk.field(part, "text", "string", chk.path(where, "text"), required=True)
        elif kind in ("image_url", "video_url"):
            inner = chk.field(part, kind, "object", chk.path(where, kind), required=True)
            chk.field(inner, "url", "string", chk.path(where, kind, "url"), required=True)
        elif kind == "refusal":
            chk.field(part, "refusal", "string", chk.path(where, "refusal"), required=True)


# ======================================================================== Chat Completions


def check_chat(body: Mapping[str, Any]) -> RequestInfo:
    """Every rule of ``POST /v1/chat/completions``."""
    chk = Checker("openai")
    chk.unknown_fields(body, CHAT_FIELDS)
    model = chk.model(body)
    info = RequestInfo("chat", model)
    messages = chk.field(body, "messages", "array", "messages", required=True)
    if not messages:
        raise chk.bad("messages", "must contain at least one message")
    tool_names: list[str] = []
    has_tools = False
    for i, message in enumerate(messages):
        declared = _chat_message(chk, message, i, last=i == len(messages) - 1)
        if declared is not None:
            has_tools = True
            tool_names.extend(declared[0])
            info.has_web_search |= declared[1]
    info.effort = chk.effort(body.get("reasoning_effort"), "reasoning_effort", model)
    limit = chk.output_limit(body, "max_tokens")
    limit2 = chk.output_limit(body, "max_completion_tokens")
    info.budget = limit2 or limit or DEFAULT_OUTPUT
    chk.fixed_sampling(body, tuple(FIXED_SAMPLING))
    info.stream = bool(chk.field(body, "stream", "boolean", "stream"))
    options = chk.field(body, "stream_options", "object", "stream_options")
    if options is not None:
        info.include_usage = bool(
            chk.field(options, "include_usage", "boolean", "stream_options.include_usage")
        )
    if "tools" in body:
        tools = chk.kind(body["tools"], "array", "tools")
        if len(tools) > MAX_CHAT_TOOLS:
            raise chk.bad("tools", f"at most {MAX_CHAT_TOOLS} tools are allowed, got {len(tools)}")
        names, search = _chat_tools(chk, tools, "tools")
        tool_names.extend(names)
        info.has_web_search |= search
        has_tools = has_tools or bool(tools)
    chk.unique(tool_names)
    if "tool_choice" in body:
        _chat_tool_choice(chk, body["tool_choice"], has_tools)
    if "response_format" in body:
        fmt = chk.kind(body["response_format"], "object", "response_format")
        kind = chk.choice(
            fmt.get("type"), ("text", "json_object", "json_schema"), "response_format.type"
        )
        if kind == "json_schema":
            chk.k31_only(model, "response_format", "structured output")
            spec = chk.field(
                fmt, "json_schema", "object", "response_format.json_schema", required=True
            )
            chk.field(spec, "name", "string", "response_format.json_schema.name", required=True)
            info.schema = chk.field(
                spec, "schema", "object", "response_format.json_schema.schema", required=True
            )
            chk.field(spec, "strict", "boolean", "response_format.json_schema.strict")
        info.json_mode = kind == "json_object"
    if "prediction" in body:
        pred = chk.kind(body["prediction"], "object", "prediction")
        chk.choice(pred.get("type"), ("content",), "prediction.type")
        if "content" not in pred:
            raise chk.missing("prediction.content")
        text_parts(pred["content"], chk, "prediction.content")
    info.cache_group = chk.field(body, "prompt_cache_key", "string", "prompt_cache_key") or ""
    if "prompt_cache_options" in body:
        chk.k31_only(model, "prompt_cache_options", "cache TTL options")
        info.cache_ttl = chk.cache_options(body["prompt_cache_options"], "prompt_cache_options")
    chk.field(body, "safety_identifier", "string", "safety_identifier")
    info.logprobs = bool(chk.field(body, "logprobs", "boolean", "logprobs"))
    if "top_logprobs" in body:
        top = body["top_logprobs"]
        if not _is_kind(top, "integer") or not 0 <= top <= 20:
            raise chk.bad("top_logprobs", "must be an integer between 0 and 20")
        if not info.logprobs:
            raise chk.bad("top_logprobs", "requires logprobs to be true")
        info.top_logprobs = int(top)
    if body.get("stop") is not None:
        chk.k31_only(model, "stop", "stop sequences")
        info.stops = chk.stops(body["stop"], "stop", allow_string=True)
    _chat_history(chk, messages, model)
    return info


def _chat_message(
    chk: Checker, message: Any, i: int, *, last: bool
) -> tuple[list[str], bool] | None:
    where = chk.path("messages", i)
    chk.kind(message, "object", where)
    role = chk.choice(
        message.get("role"), ("system", "user", "assistant", "tool"), chk.path(where, "role")
    )
    content_path = chk.path(where, "content")
    if message.get("partial") is not None:
        chk.kind(message["partial"], "boolean", chk.path(where, "partial"))
        if message["partial"] and (role != "assistant" or not last):
            raise chk.bad(
                chk.path(where, "partial"), "only the final assistant message may be partial"
            )
    if role == "system":
        if "tools" in message and "content" not in message:
            tools = chk.kind(message["tools"], "array", chk.path(where, "tools"))
            return _chat_tools(chk, tools, chk.path(where, "tools"))
        if "content" not in message:
            raise chk.missing(content_path)
        text_parts(message["content"], chk, content_path)
    elif role == "user":
        if "content" not in message:
            raise chk.missing(content_path)
        text_parts(
            message["content"], chk, content_path, allowed=("text", "image_url", "video_url")
        )
    elif role == "assistant":
        calls = message.get("tool_calls")
        if calls is not None:
            chk.kind(calls, "array", chk.path(where, "tool_calls"))
            for k, call in enumerate(calls):
                at = chk.path(where, "tool_calls", k)
                chk.kind(call, "object", at)
                chk.field(call, "id", "string", chk.path(at, "id"), required=True)
                chk.field(call, "type", "string", chk.path(at, "type"), required=True)
                fn = chk.field(call, "function", "object", chk.path(at, "function"), required=True)
                chk.field(fn, "name", "string", chk.path(at, "function", "name"), required=True)
                chk.field(
                    fn, "arguments", "string", chk.path(at, "function", "arguments"), required=True
                )
        content = message.get("content")
        if content is None:
            if not calls:
                raise chk.missing(content_path)
        else:
            text_parts(content, chk, content_path)
        if message.get("reasoning_content") is not None:
            chk.kind(message["reasoning_content"], "string", chk.path(where, "reasoning_content"))
    else:  # tool
        chk.field(message, "tool_call_id", "string", chk.path(where, "tool_call_id"), required=True)
        if "content" not in message:
            raise chk.missing(content_path)
        text_parts(message["content"], chk, content_path)
    return None


def _chat_tools(chk: Checker, tools: list[Any], path: str) -> tuple[list[str], bool]:
    names: list[str] = []
    search = False
    for i, tool in enumerate(tools):
        where = chk.path(path, i)
        chk.kind(tool, "object", where)
        kind = chk.choice(
            tool.get("type"),
            ("function", "web_search", "builtin_function"),
            chk.path(where, "type"),
        )
        if kind == "function":
            fn = chk.field(tool, "function", "object", chk.path(where, "function"), required=True)
            names.append(chk.tool_name(fn.get("name"), chk.path(where, "function", "name")))
            chk.field(fn, "description", "string", chk.path(where, "function", "description"))
            params = chk.field(
                fn, "parameters", "object", chk.path(where, "function", "parameters")
            )
            chk.field(fn, "strict", "boolean", chk.path(where, "function", "strict"))
            chk.schema_types(params)
        else:
            search = True
    return names, search


def _chat_tool_choice(chk: Checker, choice: Any, has_tools: bool) -> None:
    if isinstance(choice, str):
        chk.choice(choice, ("auto", "none", "required"), "tool_choice")
        if choice == "required" and not has_tools:
            raise chk.plain(
                "tool_choice 'required' requires at least one tool in tools", param="tool_choice"
            )
        return
    chk.kind(choice, "object", "tool_choice")
    chk.choice(choice.get("type"), ("function",), "tool_choice.type")
    fn = chk.field(choice, "function", "object", "tool_choice.function", required=True)
    chk.field(fn, "name", "string", "tool_choice.function.name", required=True)
    raise chk.plain(
        "tool_choice 'specified' is incompatible with thinking enabled", param="tool_choice"
    )


def _replayable_json(arguments: Any) -> bool:
    """Replayed tool-call arguments must be valid JSON (strict: raw control characters in
    strings are refused); an empty string stands for no arguments."""
    if not isinstance(arguments, str) or not arguments.strip():
        return True
    try:
        json.loads(arguments)
    except ValueError:
        return False
    return True


def _no_duplicate_ids(chk: Checker, ids: Sequence[Any]) -> None:
    seen: set[Any] = set()
    for call_id in ids:
        if call_id in seen:
            raise chk.plain(f"tool call id {call_id} is duplicated")
        seen.add(call_id)


def _chat_history(chk: Checker, messages: list[Any], model: str) -> None:
    seen: set[str] = set()
    for i, message in enumerate(messages):
        role = message.get("role")
        if role == "assistant" and message.get("tool_calls"):
            if model != PREVIOUS_MODEL and message.get("reasoning_content") is None:
                raise chk.plain(
                    "thinking is enabled but reasoning_content is missing in assistant tool "
                    f"call message at index {i}"
                )
            ids = [call["id"] for call in message["tool_calls"]]
            _no_duplicate_ids(chk, ids)
            for j, call in enumerate(message["tool_calls"]):
                function = call.get("function")
                arguments = function.get("arguments") if isinstance(function, dict) else None
                if not _replayable_json(arguments):
                    raise chk.plain(
                        f"Invalid request: the arguments of tool call {call['id']} are not "
                        "valid JSON",
                        param=chk.path("messages", i, "tool_calls", j, "function", "arguments"),
                    )
            seen.update(ids)
        elif role == "tool":
            call_id = message["tool_call_id"]
            if call_id not in seen:
                raise chk.plain(
                    f"tool_call_id {call_id} is not found",
                    param=chk.path("messages", i, "tool_call_id"),
                    code="tool_call_id_not_found",
                )


# ================================================================================ Messages

USER_BLOCKS: tuple[str, ...] = ("text", "image", "tool_result")
ASSISTANT_BLOCKS: tuple[str, ...] = (
    "text", "thinking", "redacted_thinking", "tool_use", "server_tool_use",
    "web_search_tool_result",
)  # fmt: skip


def check_messages(
    body: Mapping[str, Any], headers: Mapping[str, str], verify: Verifier
) -> RequestInfo:
    """Every rule of ``POST /v1/messages``; ``verify(thinking, signature)`` checks a
    thinking block's signature."""
    chk = Checker("anthropic")
    if not headers.get("anthropic-version"):
        raise ServiceError(400, "anthropic-version: header is required")
    chk.unknown_fields(body, MESSAGES_FIELDS)
    model = chk.model(body)
    info = RequestInfo("messages", model)
    info.budget = chk.output_limit(body, "max_tokens", required=True) or 0
    messages = chk.field(body, "messages", "array", "messages", required=True)
    if not messages:
        raise chk.bad("messages", "List should have at least 1 item after validation, not 0")
    for i, message in enumerate(messages):
        _anthropic_message(chk, message, i)
    if "system" in body:
        system = body["system"]
        if not isinstance(system, str):
            text_parts(chk.kind(system, "array", "system"), chk, "system")
    info.stream = bool(chk.field(body, "stream", "boolean", "stream"))
    chk.fixed_sampling(body, ("temperature", "top_p"))
    if "stop_sequences" in body:
        chk.k31_only(model, "stop_sequences", "stop sequences")
        info.stops = chk.stops(body["stop_sequences"], "stop_sequences", allow_string=False)
    names: list[str] = []
    for i, tool in enumerate(chk.field(body, "tools", "array", "tools") or []):
        where = chk.path("tools", i)
        chk.kind(tool, "object", where)
        if tool.get("type") == "web_search_20250305":
            chk.choice(tool.get("name"), ("web_search",), chk.path(where, "name"))
            uses = tool.get("max_uses")
            if uses is not None and (not _is_kind(uses, "integer") or uses < 1):
                raise chk.bad(
                    chk.path(where, "max_uses"), "Input should be greater than or equal to 1"
                )
            info.has_web_search = True
            continue
        if "type" in tool:
            chk.choice(tool["type"], ("custom", "web_search_20250305"), chk.path(where, "type"))
        names.append(chk.tool_name(tool.get("name"), chk.path(where, "name")))
        schema = chk.field(
            tool, "input_schema", "object", chk.path(where, "input_schema"), required=True
        )
        chk.field(tool, "description", "string", chk.path(where, "description"))
        chk.schema_types(schema)
    chk.unique(names)
    if "tool_choice" in body:
        choice = chk.kind(body["tool_choice"], "object", "tool_choice")
        kind = chk.choice(choice.get("type"), ("auto", "any", "none"), "tool_choice.type")
        if kind == "any" and not (names or info.has_web_search):
            raise chk.bad("tool_choice", "tool_choice any requires at least one tool in tools")
    if "metadata" in body:
        meta = chk.kind(body["metadata"], "object", "metadata")
        info.cache_group = chk.field(meta, "user_id", "string", "metadata.user_id") or ""
    if "cache_control" in body:
        chk.k31_only(model, "cache_control", "cache TTL options")
        cache = chk.kind(body["cache_control"], "object", "cache_control")
        chk.choice(cache.get("type"), ("ephemeral",), "cache_control.type")
        if "ttl" in cache:
            info.cache_ttl = chk.choice(cache["ttl"], TTLS, "cache_control.ttl")
    if "output_config" in body:
        config = chk.kind(body["output_config"], "object", "output_config")
        info.effort = chk.effort(config.get("effort"), "output_config.effort", model)
        if "format" in config:
            chk.k31_only(model, "output_config.format", "structured output")
            fmt = chk.kind(config["format"], "object", "output_config.format")
            chk.choice(fmt.get("type"), ("json_schema",), "output_config.format.type")
            info.schema = chk.field(
                fmt, "schema", "object", "output_config.format.schema", required=True
            )
    elif model == PREVIOUS_MODEL:
        info.effort = "max"
    _anthropic_history(chk, messages, verify)
    return info


def _anthropic_message(chk: Checker, message: Any, i: int) -> None:
    where = chk.path("messages", i)
    chk.kind(message, "object", where)
    role = chk.choice(message.get("role"), ("user", "assistant"), chk.path(where, "role"))
    if "content" not in message:
        raise chk.missing(chk.path(where, "content"))
    content = message["content"]
    if isinstance(content, str):
        return
    chk.kind(content, "array", chk.path(where, "content"))
    allowed = USER_BLOCKS if role == "user" else ASSISTANT_BLOCKS
    for j, block in enumerate(content):
        at = chk.path(where, "content", j)
        chk.kind(block, "object", at)
        kind = block.get("type")
        if kind not in USER_BLOCKS + ASSISTANT_BLOCKS:
            raise chk.bad(chk.path(at, "type"), f"unknown content block type {kind!r}")
        if kind not in allowed:
            raise chk.bad(at, f"{kind} blocks are not allowed in {role} messages")
        if kind == "text":
            chk.field(block, "text", "string", chk.path(at, "text"), required=True)
        elif kind == "image":
            source = chk.field(block, "source", "object", chk.path(at, "source"), required=True)
            stype = chk.choice(
                source.get("type"), ("base64", "url"), chk.path(at, "source", "type")
            )
            if stype == "base64":
                chk.choice(
                    source.get("media_type"),
                    ("image/jpeg", "image/png", "image/gif", "image/webp"),
                    chk.path(at, "source", "media_type"),
                )
                chk.field(source, "data", "string", chk.path(at, "source", "data"), required=True)
            else:
                chk.field(source, "url", "string", chk.path(at, "source", "url"), required=True)
        elif kind == "thinking":
            chk.field(block, "thinking", "string", chk.path(at, "thinking"), required=True)
        elif kind in ("tool_use", "server_tool_use"):
            chk.field(block, "id", "string", chk.path(at, "id"), required=True)
            chk.field(block, "name", "string", chk.path(at, "name"), required=True)
            chk.field(block, "input", "object", chk.path(at, "input"), required=True)
        elif kind in ("tool_result", "web_search_tool_result"):
            chk.field(block, "tool_use_id", "string", chk.path(at, "tool_use_id"), required=True)
            if "content" not in block and kind == "web_search_tool_result":
                raise chk.missing(chk.path(at, "content"))
            if kind == "tool_result" and "content" in block:
                text_parts(
                    block["content"], chk, chk.path(at, "content"), allowed=("text", "image")
                )


def _anthropic_history(chk: Checker, messages: list[Any], verify: Verifier) -> None:
    seen: set[str] = set()
    for i, message in enumerate(messages):
        content = message["content"]
        if isinstance(content, str):
            continue
        _no_duplicate_ids(chk, [b["id"] for b in content if b["type"] == "tool_use"])
        for j, block in enumerate(content):
            at = chk.path("messages", i, "content", j)
            kind = block["type"]
            if kind == "thinking":
                # Kimi accepts a thinking block without a signature (some gateways stream
                # none); a signature that is there must match the thinking.
                signature = block.get("signature")
                if signature is None or signature == "":
                    continue
                if not isinstance(signature, str) or not verify(block["thinking"], signature):
                    raise ServiceError(400, f"{at}: Invalid `signature` in `thinking` block")
            elif kind == "tool_use":
                seen.add(block["id"])
            elif kind == "tool_result" and block["tool_use_id"] not in seen:
                raise ServiceError(
                    400,
                    f"{at}.tool_use_id: tool_call_id {block['tool_use_id']} is not found",
                )


# =============================================================================== Responses

ITEM_TYPES: tuple[str, ...] = (
    "message", "reasoning", "function_call", "function_call_output", "custom_tool_call",
    "custom_tool_call_output", "web_search_call",
)  # fmt: skip


def check_responses(body: Mapping[str, Any]) -> RequestInfo:
    """Every rule of ``POST /v1/responses``."""
    chk = Checker("openai")
    if "previous_response_id" in body:
        raise chk.plain(
            "previous_response_id is not supported: this endpoint is stateless, send the "
            "whole conversation in input",
            param="previous_response_id",
            code="unsupported_parameter",
        )
    chk.unknown_fields(body, RESPONSES_FIELDS)
    model = chk.model(body)
    info = RequestInfo("responses", model)
    if "input" not in body:
        raise chk.missing("input")
    items = body["input"]
    if not isinstance(items, str):
        chk.kind(items, "array", "input")
        if not items:
            raise chk.bad("input", "must contain at least one item")
        for i, item in enumerate(items):
            _response_item(chk, item, i)
    chk.field(body, "instructions", "string", "instructions")
    info.stream = bool(chk.field(body, "stream", "boolean", "stream"))
    info.budget = chk.output_limit(body, "max_output_tokens") or DEFAULT_OUTPUT
    if "reasoning" in body:
        reasoning = chk.kind(body["reasoning"], "object", "reasoning")
        info.effort = chk.effort(reasoning.get("effort"), "reasoning.effort", model)
        if "summary" in reasoning:
            chk.choice(reasoning["summary"], ("auto", "concise", "detailed"), "reasoning.summary")
    if "text" in body:
        text = chk.kind(body["text"], "object", "text")
        if "format" in text:
            fmt = chk.kind(text["format"], "object", "text.format")
            kind = chk.choice(fmt.get("type"), ("text", "json_schema"), "text.format.type")
            if kind == "json_schema":
                chk.k31_only(model, "text.format", "structured output")
                info.schema = chk.field(
                    fmt, "schema", "object", "text.format.schema", required=True
                )
                chk.field(fmt, "name", "string", "text.format.name")
                chk.field(fmt, "strict", "boolean", "text.format.strict")
    names: list[str] = []
    tools = chk.field(body, "tools", "array", "tools") or []
    for i, tool in enumerate(tools):
        where = chk.path("tools", i)
        chk.kind(tool, "object", where)
        kind = chk.choice(
            tool.get("type"),
            ("function", "namespace", "custom", "web_search"),
            chk.path(where, "type"),
        )
        if kind == "function":
            names.append(chk.tool_name(tool.get("name"), chk.path(where, "name")))
            params = chk.field(tool, "parameters", "object", chk.path(where, "parameters"))
            chk.schema_types(params)
        elif kind == "namespace":
            chk.field(tool, "name", "string", chk.path(where, "name"), required=True)
            inner = chk.field(tool, "tools", "array", chk.path(where, "tools"), required=True)
            for j, sub in enumerate(inner):
                at = chk.path(where, "tools", j)
                chk.kind(sub, "object", at)
                chk.choice(sub.get("type"), ("function",), chk.path(at, "type"))
                chk.tool_name(sub.get("name"), chk.path(at, "name"))
                chk.schema_types(chk.field(sub, "parameters", "object", chk.path(at, "parameters")))
        elif kind == "custom":
            names.append(chk.tool_name(tool.get("name"), chk.path(where, "name")))
            chk.field(tool, "format", "object", chk.path(where, "format"))
        else:
            info.has_web_search = True
    chk.unique(names)
    if "tool_choice" in body:
        choice = body["tool_choice"]
        if isinstance(choice, str):
            kind = chk.choice(choice, ("auto", "none", "required"), "tool_choice")
        else:
            chk.kind(choice, "object", "tool_choice")
            kind = chk.choice(
                choice.get("type"),
                ("auto", "none", "required", "function", "custom", "web_search"),
                "tool_choice.type",
            )
        if kind == "required" and not tools:
            raise chk.plain(
                "tool_choice 'required' requires at least one tool in tools", param="tool_choice"
            )
        if kind in ("function", "custom"):
            raise chk.plain(
                "tool_choice 'specified' is incompatible with thinking enabled",
                param="tool_choice",
            )
    if "include" in body:
        values = chk.kind(body["include"], "array", "include")
        info.include = tuple(
            chk.choice(v, INCLUDE_VALUES, chk.path("include", i)) for i, v in enumerate(values)
        )
    info.cache_group = chk.field(body, "prompt_cache_key", "string", "prompt_cache_key") or ""
    if "prompt_cache_options" in body:
        chk.k31_only(model, "prompt_cache_options", "cache TTL options")
        info.cache_ttl = chk.cache_options(body["prompt_cache_options"], "prompt_cache_options")
    chk.field(body, "safety_identifier", "string", "safety_identifier")
    if isinstance(items, list):
        _responses_history(chk, items)
    return info


def _response_item(chk: Checker, item: Any, i: int) -> None:
    where = chk.path("input", i)
    chk.kind(item, "object", where)
    kind = item.get("type", "message" if "role" in item else None)
    kind = chk.choice(kind, ITEM_TYPES, chk.path(where, "type"))
    if kind == "message":
        chk.choice(
            item.get("role"), ("user", "system", "developer", "assistant"), chk.path(where, "role")
        )
        if "content" not in item:
            raise chk.missing(chk.path(where, "content"))
        text_parts(
            item["content"],
            chk,
            chk.path(where, "content"),
            allowed=("input_text", "input_image", "output_text", "refusal"),
        )
    elif kind in ("function_call", "custom_tool_call"):
        chk.field(item, "call_id", "string", chk.path(where, "call_id"), required=True)
        chk.field(item, "name", "string", chk.path(where, "name"), required=True)
        key = "arguments" if kind == "function_call" else "input"
        chk.field(item, key, "string", chk.path(where, key), required=True)
    elif kind in ("function_call_output", "custom_tool_call_output"):
        chk.field(item, "call_id", "string", chk.path(where, "call_id"), required=True)
        if "output" not in item:
            raise chk.missing(chk.path(where, "output"))
        text_parts(
            item["output"], chk, chk.path(where, "output"), allowed=("input_text", "input_image")
        )


def _responses_history(chk: Checker, items: list[Any]) -> None:
    pending: list[tuple[str, str]] = []  # (kind, call_id), in order
    for i, item in enumerate(items):
        kind = item.get("type")
        if kind == "function_call" and not _replayable_json(item["arguments"]):
            raise chk.plain(
                f"Invalid request: the arguments of function call {item['call_id']} are not "
                "valid JSON",
                param=chk.path("input", i, "arguments"),
            )
        if kind in ("function_call", "custom_tool_call"):
            pending.append((kind, item["call_id"]))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            wanted = kind.removesuffix("_output")
            match = next((p for p in pending if p == (wanted, item["call_id"])), None)
            if match is None:
                label = "function call" if wanted == "function_call" else "custom tool call"
                raise chk.plain(
                    f"No tool call found for {label} output with call_id {item['call_id']}.",
                    param="input",
                )
            pending.remove(match)
    if pending:
        kind, call_id = pending[0]
        label = "function call" if kind == "function_call" else "custom tool call"
        raise chk.plain(f"No tool output found for {label} {call_id}.", param="input")
