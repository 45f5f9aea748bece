"""Checks a request body against the documented rules before anything is sent.

Every failure raises :class:`~kimi_ext.errors.RequestValidationError` naming the wire field,
the value and the rule. The checks mirror the references: limits the service enforces, fixed
sampling values that gateways disagree on (some ignore, some reject: we reject clearly),
features the older ``kimi-k3`` lacks, and top-level fields a gateway would drop silently.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .errors import RequestValidationError

MODELS: tuple[str, ...] = ("kimi-k3.1-pro", "kimi-k3.1-pro-highspeed", "kimi-k3")
K3_ONLY_MAX = "kimi-k3"
MAX_OUTPUT_TOKENS = 1_048_576
MAX_STOP_SEQUENCES = 5
MAX_STOP_BYTES = 32
MAX_CHAT_TOOLS = 128
TOOL_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9\-_]{0,127}$")
CACHE_TTLS = ("5m", "1h")

CHAT_FIELDS = frozenset(
    {
        "model", "messages", "reasoning_effort", "max_completion_tokens", "max_tokens", "stream",
        "stream_options", "tools", "tool_choice", "response_format", "prediction",
        "prompt_cache_key", "prompt_cache_options", "safety_identifier", "logprobs",
        "top_logprobs", "stop", "temperature", "top_p", "n", "frequency_penalty",
        "presence_penalty",
    }
)  # fmt: skip
RESPONSES_FIELDS = frozenset(
    {
        "model", "input", "instructions", "stream", "max_output_tokens", "reasoning", "text",
        "tools", "tool_choice", "include", "prompt_cache_key", "prompt_cache_options",
        "safety_identifier",
    }
)  # fmt: skip
MESSAGES_FIELDS = frozenset(
    {
        "model", "messages", "max_tokens", "system", "stream", "stop_sequences", "tools",
        "tool_choice", "metadata", "cache_control", "output_config", "temperature", "top_p",
    }
)  # fmt: skip

# The sampling values the model is fixed at; anything else is rejected before sending.
FIXED_SAMPLING: dict[str, float] = {
    "temperature": 1,
    "top_p": 0.95,
    "n": 1,
    "frequency_penalty": 0,
    "presence_penalty": 0,
}


def fail(field: str, value: Any, rule: str) -> RequestValidationError:
    """The error for one broken rule (raise it)."""
    return RequestValidationError(field, value, rule)


# --- shared rules -----------------------------------------------------------------------


def check_known_fields(body: Mapping[str, Any], known: frozenset[str], endpoint: str) -> None:
    for name in body:
        if name not in known:
            if name == "previous_response_id" and endpoint == "responses":
                raise fail(
                    name,
                    body[name],
                    "Responses is stateless on Kimi: replay the full history in `input` "
                    "(kimi_ext.ResponsesHistory does this) instead of previous_response_id",
                )
            raise fail(
                name,
                body[name],
                f"is not a documented {endpoint} request field (gateways drop unknown fields "
                "silently); pass extra_body={...} to send it anyway",
            )


def check_model(body: Mapping[str, Any]) -> str:
    model = body.get("model")
    if model is None:
        raise fail("model", model, f"is required; one of {', '.join(MODELS)}")
    if model not in MODELS:
        raise fail("model", model, f"must be one of {', '.join(MODELS)}")
    return str(model)


def check_output_limit(body: Mapping[str, Any], field: str, *, required: bool = False) -> None:
    if field not in body:
        if required:
            raise fail(field, None, f"is required (1..{MAX_OUTPUT_TOKENS:,})")
        return
    value = body[field]
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(field, value, f"must be an integer in 1..{MAX_OUTPUT_TOKENS:,}")
    if not 1 <= value <= MAX_OUTPUT_TOKENS:
        raise fail(field, value, f"must be in 1..{MAX_OUTPUT_TOKENS:,}")


def check_stop(field: str, value: Any, *, allow_string: bool) -> None:
    seqs: list[Any]
    if isinstance(value, str) and allow_string:
        seqs = [value]
        names = [field]
    elif isinstance(value, list):
        seqs = value
        names = [f"{field}[{i}]" for i in range(len(value))]
    else:
        kind = "a string or a list of strings" if allow_string else "a list of strings"
        raise fail(field, value, f"must be {kind}")
    if len(seqs) > MAX_STOP_SEQUENCES:
        raise fail(field, value, f"at most {MAX_STOP_SEQUENCES} stop sequences (got {len(seqs)})")
    for name, seq in zip(names, seqs, strict=True):
        if not isinstance(seq, str):
            raise fail(name, seq, "must be a string")
        if not seq:
            raise fail(name, seq, "must not be empty")
        size = len(seq.encode("utf-8"))
        if size > MAX_STOP_BYTES:
            raise fail(
                name, seq, f"at most {MAX_STOP_BYTES} UTF-8 bytes per stop sequence (got {size})"
            )


def check_tool_name(field: str, name: Any) -> None:
    if not isinstance(name, str) or not TOOL_NAME.match(name):
        raise fail(field, name, "tool names must match ^[a-zA-Z_][a-zA-Z0-9-_]{0,127}$")


def check_unique_names(names: list[tuple[str, Any]]) -> None:
    seen: set[Any] = set()
    for field, name in names:
        if name in seen:
            raise fail(field, name, "tool names must be unique (the service rejects duplicates)")
        seen.add(name)


def check_cache_ttl(field: str, value: Any) -> None:
    if not isinstance(value, Mapping):
        raise fail(field, value, "must be an object")
    if "ttl" in value and value["ttl"] not in CACHE_TTLS:
        raise fail(f"{field}.ttl", value["ttl"], "must be 5m or 1h")


def check_k31_only(model: str, field: str, value: Any, feature: str) -> None:
    if model == K3_ONLY_MAX:
        raise fail(
            field, value, f"{feature} is supported only by kimi-k3.1-pro / kimi-k3.1-pro-highspeed"
        )


def check_list(field: str, value: Any, *, non_empty: bool = False) -> list[Any]:
    if not isinstance(value, list):
        raise fail(field, value, "must be a list")
    if non_empty and not value:
        raise fail(field, value, "must not be empty")
    return value


def check_object(field: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise fail(field, value, "must be an object")
    return value


def check_bool(body: Mapping[str, Any], field: str) -> None:
    if field in body and not isinstance(body[field], bool):
        raise fail(field, body[field], "must be true or false")


def check_string(body: Mapping[str, Any], field: str) -> None:
    if field in body and not isinstance(body[field], str):
        raise fail(field, body[field], "must be a string")


# --- Chat Completions ---------------------------------------------------------------------

CHAT_ROLES = ("system", "user", "assistant", "tool")


def validate_chat(body: Mapping[str, Any]) -> None:
    """Check a Chat Completions request body."""
    check_known_fields(body, CHAT_FIELDS, "chat.completions")
    model = check_model(body)
    messages = check_list("messages", body.get("messages"), non_empty=True)
    for i, message in enumerate(messages):
        msg = check_object(f"messages[{i}]", message)
        role = msg.get("role")
        if role not in CHAT_ROLES:
            raise fail(f"messages[{i}].role", role, f"must be one of {', '.join(CHAT_ROLES)}")
        if role == "tool" and not isinstance(msg.get("tool_call_id"), str):
            raise fail(
                f"messages[{i}].tool_call_id",
                msg.get("tool_call_id"),
                "a tool message needs the id of the call it answers",
            )
        if msg.get("partial") and (role != "assistant" or i != len(messages) - 1):
            raise fail(
                f"messages[{i}].partial",
                True,
                "partial mode is only for the final assistant message",
            )
    if "max_tokens" in body and "max_completion_tokens" in body:
        raise fail(
            "max_tokens",
            body["max_tokens"],
            "set max_completion_tokens or its legacy alias max_tokens, not both",
        )
    check_output_limit(body, "max_tokens")
    check_output_limit(body, "max_completion_tokens")
    for field, fixed in FIXED_SAMPLING.items():
        if field in body and (isinstance(body[field], bool) or body[field] != fixed):
            raise fail(field, body[field], f"is fixed at {fixed} for Kimi models; omit it")
    check_bool(body, "stream")
    check_bool(body, "logprobs")
    if "top_logprobs" in body:
        top = body["top_logprobs"]
        if isinstance(top, bool) or not isinstance(top, int) or not 0 <= top <= 20:
            raise fail("top_logprobs", top, "must be an integer in 0..20")
        if body.get("logprobs") is not True:
            raise fail("top_logprobs", top, "requires logprobs=true")
    if "stop" in body and body["stop"] is not None:
        check_k31_only(model, "stop", body["stop"], "stop sequences")
        check_stop("stop", body["stop"], allow_string=True)
    tools = _chat_tools(body)
    _check_tool_choice(
        body, has_tools=bool(tools), required=("required",), forced_kinds=("function",)
    )
    if "response_format" in body:
        fmt = check_object("response_format", body["response_format"])
        kind = fmt.get("type")
        if kind not in ("text", "json_object", "json_schema"):
            raise fail("response_format.type", kind, "must be text, json_object or json_schema")
        if kind == "json_schema":
            check_k31_only(model, "response_format", fmt, "structured output")
            spec = check_object("response_format.json_schema", fmt.get("json_schema"))
            if not isinstance(spec.get("name"), str) or not spec.get("name"):
                raise fail("response_format.json_schema.name", spec.get("name"), "is required")
            check_object("response_format.json_schema.schema", spec.get("schema"))
    if "prompt_cache_options" in body:
        check_k31_only(
            model, "prompt_cache_options", body["prompt_cache_options"], "cache TTL options"
        )
        check_cache_ttl("prompt_cache_options", body["prompt_cache_options"])
    check_string(body, "prompt_cache_key")
    check_string(body, "safety_identifier")
    if "prediction" in body:
        pred = check_object("prediction", body["prediction"])
        if pred.get("type") != "content":
            raise fail("prediction.type", pred.get("type"), "must be content")


def _chat_tools(body: Mapping[str, Any]) -> list[Any]:
    if "tools" not in body:
        return []
    tools = check_list("tools", body["tools"])
    if len(tools) > MAX_CHAT_TOOLS:
        raise fail("tools", f"<{len(tools)} tools>", f"at most {MAX_CHAT_TOOLS} tools")
    names: list[tuple[str, Any]] = []
    for i, tool in enumerate(tools):
        t = check_object(f"tools[{i}]", tool)
        if t.get("type") == "function":
            fn = check_object(f"tools[{i}].function", t.get("function"))
            check_tool_name(f"tools[{i}].function.name", fn.get("name"))
            names.append((f"tools[{i}].function.name", fn.get("name")))
        elif t.get("type") != "web_search" and t.get("type") != "builtin_function":
            raise fail(f"tools[{i}].type", t.get("type"), "must be function or web_search")
    check_unique_names(names)
    return tools


def _check_tool_choice(
    body: Mapping[str, Any],
    *,
    has_tools: bool,
    required: tuple[str, ...],
    forced_kinds: tuple[str, ...],
) -> None:
    if "tool_choice" not in body:
        return
    choice = body["tool_choice"]
    kind = choice.get("type") if isinstance(choice, Mapping) else choice
    if kind in required and not has_tools:
        raise fail("tool_choice", choice, f"{kind} needs at least one tool in tools")
    if kind in forced_kinds:
        raise fail(
            "tool_choice",
            choice,
            "forcing one named tool conflicts with Kimi's always-on thinking; "
            f"use {required[0]} or auto",
        )


# --- Messages --------------------------------------------------------------------------------


def validate_messages(body: Mapping[str, Any]) -> None:
    """Check a Messages request body."""
    check_known_fields(body, MESSAGES_FIELDS, "messages")
    model = check_model(body)
    check_output_limit(body, "max_tokens", required=True)
    messages = check_list("messages", body.get("messages"), non_empty=True)
    for i, message in enumerate(messages):
        msg = check_object(f"messages[{i}]", message)
        role = msg.get("role")
        if role not in ("user", "assistant"):
            raise fail(
                f"messages[{i}].role",
                role,
                "Messages accepts only user and assistant roles (put system text in system=)",
            )
        content = msg.get("content")
        if not isinstance(content, str | list):
            raise fail(f"messages[{i}].content", content, "must be a string or a list of blocks")
    for field in ("temperature", "top_p"):
        if field in body and (
            isinstance(body[field], bool) or body[field] != FIXED_SAMPLING[field]
        ):
            raise fail(
                field, body[field], f"is fixed at {FIXED_SAMPLING[field]} for Kimi models; omit it"
            )
    check_bool(body, "stream")
    if "stop_sequences" in body:
        check_k31_only(model, "stop_sequences", body["stop_sequences"], "stop sequences")
        check_stop("stop_sequences", body["stop_sequences"], allow_string=False)
    if "system" in body:
        system = body["system"]
        if not isinstance(system, str | list):
            raise fail("system", system, "must be a string or a list of text blocks")
    names: list[tuple[str, Any]] = []
    for i, tool in enumerate(check_list("tools", body["tools"]) if "tools" in body else []):
        t = check_object(f"tools[{i}]", tool)
        if t.get("type") == "web_search_20250305":
            if t.get("name") != "web_search":
                raise fail(
                    f"tools[{i}].name", t.get("name"), "the web search tool is named web_search"
                )
            uses = t.get("max_uses")
            if uses is not None and (
                isinstance(uses, bool) or not isinstance(uses, int) or uses < 1
            ):
                raise fail(f"tools[{i}].max_uses", uses, "must be an integer >= 1")
        else:
            check_tool_name(f"tools[{i}].name", t.get("name"))
            check_object(f"tools[{i}].input_schema", t.get("input_schema"))
        names.append((f"tools[{i}].name", t.get("name")))
    check_unique_names(names)
    if "tool_choice" in body:
        choice = check_object("tool_choice", body["tool_choice"])
        if choice.get("type") not in ("auto", "any", "none", "tool"):
            raise fail("tool_choice.type", choice.get("type"), "must be auto, any or none")
    _check_tool_choice(body, has_tools=bool(names), required=("any",), forced_kinds=("tool",))
    if "cache_control" in body:
        check_k31_only(model, "cache_control", body["cache_control"], "cache TTL options")
        cache = check_object("cache_control", body["cache_control"])
        if cache.get("type") != "ephemeral":
            raise fail("cache_control.type", cache.get("type"), "must be ephemeral")
        check_cache_ttl("cache_control", cache)
    if "output_config" in body:
        config = check_object("output_config", body["output_config"])
        if "format" in config:
            check_k31_only(model, "output_config.format", config["format"], "structured output")
            fmt = check_object("output_config.format", config["format"])
            if fmt.get("type") != "json_schema":
                raise fail("output_config.format.type", fmt.get("type"), "must be json_schema")
            check_object("output_config.format.schema", fmt.get("schema"))
    if "metadata" in body:
        check_object("metadata", body["metadata"])


# --- Responses -------------------------------------------------------------------------------


def validate_responses(body: Mapping[str, Any]) -> None:
    """Check a Responses request body."""
    check_known_fields(body, RESPONSES_FIELDS, "responses")
    model = check_model(body)
    if "input" not in body:
        raise fail("input", None, "is required: a string or a list of input items")
    items = body["input"]
    if isinstance(items, list):
        if not items:
            raise fail("input", items, "must not be empty")
        for i, item in enumerate(items):
            check_object(f"input[{i}]", item)
    elif not isinstance(items, str):
        raise fail("input", items, "must be a string or a list of input items")
    check_output_limit(body, "max_output_tokens")
    check_bool(body, "stream")
    check_string(body, "instructions")
    names: list[tuple[str, Any]] = []
    for i, tool in enumerate(check_list("tools", body["tools"]) if "tools" in body else []):
        t = check_object(f"tools[{i}]", tool)
        kind = t.get("type")
        if kind == "function":
            check_tool_name(f"tools[{i}].name", t.get("name"))
            names.append((f"tools[{i}].name", t.get("name")))
        elif kind == "namespace":
            for j, inner in enumerate(check_list(f"tools[{i}].tools", t.get("tools", []))):
                sub = check_object(f"tools[{i}].tools[{j}]", inner)
                check_tool_name(f"tools[{i}].tools[{j}].name", sub.get("name"))
        elif kind == "custom":
            check_tool_name(f"tools[{i}].name", t.get("name"))
            names.append((f"tools[{i}].name", t.get("name")))
        elif kind != "web_search":
            raise fail(
                f"tools[{i}].type", kind, "must be function, namespace, custom or web_search"
            )
    check_unique_names(names)
    _check_tool_choice(
        body, has_tools="tools" in body and bool(body["tools"]), required=("required",),
        forced_kinds=("function", "custom"),
    )  # fmt: skip
    if "text" in body:
        text = check_object("text", body["text"])
        fmt = text.get("format")
        if isinstance(fmt, Mapping) and fmt.get("type") == "json_schema":
            check_k31_only(model, "text.format", fmt, "structured output")
            check_object("text.format.schema", fmt.get("schema"))
    if "prompt_cache_options" in body:
        check_k31_only(
            model, "prompt_cache_options", body["prompt_cache_options"], "cache TTL options"
        )
        check_cache_ttl("prompt_cache_options", body["prompt_cache_options"])
    if "include" in body:
        allowed = ("web_search_call.results", "web_search_call.action.sources")
        for i, value in enumerate(check_list("include", body["include"])):
            if value not in allowed:
                raise fail(f"include[{i}]", value, f"must be one of {', '.join(allowed)}")
    check_string(body, "prompt_cache_key")
    check_string(body, "safety_identifier")


VALIDATORS: dict[str, Callable[[Mapping[str, Any]], None]] = {
    "chat": validate_chat,
    "messages": validate_messages,
    "responses": validate_responses,
}
