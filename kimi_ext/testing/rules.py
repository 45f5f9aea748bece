"""The service's request rules, as the stand-in enforces them, in the service's words.

The rules themselves are the contract derived from ``openapi/<format>.yaml`` (see
:mod:`kimi_ext.contract`), the same one the client checks before sending: a rule added to a
spec and regenerated is enforced here with no hand edit. What this module adds is what only
the service does, and its wording: unknown top-level fields are discarded (as the seedrouter
document says) or, with ``strict_fields``, refused by name; an unknown model answers 404;
and the replayed history is checked (reasoning kept on Chat tool-call turns, thinking
signatures on Messages, tool results matching earlier calls). Chat and Responses name fields
like ``messages[3].tool_call_id``, Messages like ``messages.3.content.0`` (the style of each
family's real errors). Every broken rule raises :class:`ServiceError`; the server turns it
into the format's own error envelope.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Any, Literal

from kimi_ext.contract import (
    THINKING_TYPES,
    Contract,
    Violation,
    arguments_replayable,
    contract,
    first_duplicate,
    format_path,
    json_type,
)

_KIND_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "object": "an object",
    "array": "an array",
    "null": "null",
}


@dataclass(eq=False)  # compared and hashed by identity, as exceptions are
class ServiceError(Exception):
    """A request the service refuses: status, message and the error's type / code / param."""

    status: int
    message: str
    _: KW_ONLY
    error_type: str = "invalid_request_error"
    code: str | int | None = None
    param: str | None = None

    def __post_init__(self) -> None:
        super().__init__(self.message)  # str(err) is the message


@dataclass
class RequestInfo:
    """What the rest of the stand-in needs from a request that passed every rule."""

    fmt: str
    model: str
    stream: bool = False
    budget: int = 0
    stops: tuple[str, ...] = ()
    effort: str = "max"
    cache_ttl: str = ""  # always set from the request, else the spec's default
    cache_group: str = ""
    schema: Any = None
    json_mode: bool = False
    include_usage: bool = False
    logprobs: bool = False
    top_logprobs: int = 0
    include: tuple[str, ...] = ()
    has_web_search: bool = False
    # tool_choice requires a call (Chat/Responses "required", Messages "any").
    must_call_tool: bool = False
    # The tools the model may call: (name, parameters JSON Schema), in declared order.
    functions: tuple[tuple[str, Any], ...] = ()
    discarded: tuple[str, ...] = ()


Verifier = Callable[[str, str], bool]


def known_models() -> tuple[str, ...]:
    """The models the specs list (what ``GET /v1/models`` answers)."""
    return contract("chat").known_models


class Checker:
    """Error wording and field paths for one format family."""

    def __init__(self, style: Literal["openai", "anthropic"]) -> None:
        self.style = style

    def path(self, *parts: str | int) -> str:
        return format_path(parts, style="python" if self.style == "openai" else "dotted")

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

    def violation(self, exc: Violation) -> ServiceError:
        """A broken contract rule, worded as this family's service words it."""
        path = self.path(*exc.path)
        if exc.service is not None:
            # The service's own sentence, as the spec records it (x-kimi-service-error).
            try:
                text = exc.service.format(path=path, value=exc.value)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                text = ""  # a template the value does not fit: the rule's own words
            if text:
                return self.plain(text, param=path)
        if exc.rule == "is required":
            return self.missing(path)
        if exc.expected is not None:
            return self.wrong_type(path, exc.value, exc.expected)
        return self.bad(path, exc.rule)

    def wrong_type(self, path: str, value: Any, expected: tuple[str, ...]) -> ServiceError:
        """A value of the wrong JSON type, in each family's words."""
        names = " or ".join(_KIND_NAMES.get(k, k) for k in expected)
        if self.style == "anthropic":
            return ServiceError(400, f"{path}: Input should be {names}")
        return ServiceError(
            400,
            f"Invalid type for '{path}': expected {names}, but got {json_type(value)} instead.",
            param=path,
        )

    def top_level(
        self, rules: Contract, body: Mapping[str, Any], *, strict: bool
    ) -> tuple[dict[str, Any], tuple[str, ...]]:
        """The body without the unknown top-level fields, and their names.

        A field the spec calls unsupported is refused with its reason; other unknown
        fields are discarded, or refused by name when ``strict``.
        """
        unknown = rules.unknown_fields(body)
        for name in unknown:
            reason = rules.unsupported_fields.get(name)
            if reason is not None:
                raise self.plain(
                    f"{name} is not supported: {reason}", param=name, code="unsupported_parameter"
                )
            if strict:
                if self.style == "anthropic":
                    raise ServiceError(400, f"{name}: Extra inputs are not permitted")
                raise ServiceError(
                    400, f"Unrecognized request argument supplied: {name}", param=name
                )
        kept = {k: v for k, v in body.items() if k not in unknown}
        return kept, tuple(unknown)

    def model(self, rules: Contract, body: Mapping[str, Any]) -> str:
        model = body.get("model")
        if "model" not in body:
            raise self.missing("model")
        if not isinstance(model, str) or model not in rules.known_models:
            if self.style == "anthropic":
                raise ServiceError(404, f"model: {model} not found", error_type="not_found_error")
            raise ServiceError(
                404,
                f"The model {model} does not exist",
                error_type="resource_not_found_error",
                code="model_not_found",
            )
        return model

    def check(self, rules: Contract, body: Mapping[str, Any], *, schema_rules: bool = True) -> None:
        """``schema_rules=False``: the JSON Schemas the body carries are not held to
        Moonshot's schema rules (an older or laxer endpoint's behaviour)."""
        try:
            rules.check(body if schema_rules else _schemas_left_out(rules, body))
        except Violation as exc:
            raise self.violation(exc) from None


def _schemas_left_out(rules: Contract, body: Mapping[str, Any]) -> Mapping[str, Any]:
    """``body`` with each JSON Schema it carries (the spec's ``x-kimi-mfjs`` fields) the
    plainest schema the rules take (``{"type": "object"}``), for checking the rest: the
    caller's body is not changed."""
    for path, _ in rules.schema_fields:
        body = _emptied(body, path)
    return body


def _emptied(node: Any, path: tuple[str, ...]) -> Any:
    if not path:
        return {"type": "object"} if isinstance(node, Mapping) else node
    head, rest = path[0], path[1:]
    if head == "*":
        return [_emptied(item, rest) for item in node] if isinstance(node, list) else node
    if not isinstance(node, Mapping) or head not in node:
        return node
    return {**node, head: _emptied(node[head], rest)}


def _start(
    fmt: str,
    style: Literal["openai", "anthropic"],
    body: Mapping[str, Any],
    strict: bool,
    schema_rules: bool = True,
) -> tuple[Checker, Contract, dict[str, Any], RequestInfo]:
    chk = Checker(style)
    rules = contract(fmt)
    kept, discarded = chk.top_level(rules, body, strict=strict)
    if "model" not in kept:
        raise chk.missing("model")
    chk.check(rules, kept, schema_rules=schema_rules)
    model = chk.model(rules, kept)
    info = RequestInfo(fmt, model, discarded=discarded)
    effort: Any = kept
    for key in rules.effort.path:
        effort = effort.get(key) if isinstance(effort, Mapping) else None
    info.effort = rules.level(effort, model, ()) if effort is not None else rules.effort.default
    info.stream = kept.get("stream") is True
    return chk, rules, kept, info


def _web_search(tools: Any, kinds: tuple[str, ...]) -> bool:
    return any(isinstance(t, Mapping) and t.get("type") in kinds for t in tools or ())


def _cache_ttl(rules: Contract, body: Mapping[str, Any], field: str) -> str:
    """The cache lifetime asked for in ``field``, else the spec's default."""
    asked = (body.get(field) or {}).get("ttl")
    return str(asked if asked is not None else rules.default_at(field, "ttl"))


def _stops(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


# ======================================================================== Chat Completions


def check_chat(
    body: Mapping[str, Any], *, strict: bool = False, schema_rules: bool = True
) -> RequestInfo:
    """Every rule of ``POST /v1/chat/completions``."""
    chk, rules, body, info = _start("chat", "openai", body, strict, schema_rules)
    messages = body["messages"]
    info.budget = (
        body.get("max_completion_tokens")
        or body.get("max_tokens")
        or rules.defaults["max_completion_tokens"]
    )
    info.include_usage = (body.get("stream_options") or {}).get("include_usage") is True
    declared = [m.get("tools") for m in messages if m.get("role") == "system" and "tools" in m]
    info.has_web_search = any(
        _web_search(tools, ("web_search",)) for tools in [body.get("tools"), *declared]
    )
    info.must_call_tool = body.get("tool_choice") == "required"
    info.functions = tuple(
        (t["function"]["name"], t["function"].get("parameters"))
        for tools in [body.get("tools"), *declared]
        for t in tools or ()
        if t.get("type") == "function"
    )
    fmt = body.get("response_format")
    if fmt is not None:
        if fmt["type"] == "json_schema":
            info.schema = fmt["json_schema"]["schema"]
        info.json_mode = fmt["type"] == "json_object"
    info.cache_group = body.get("prompt_cache_key") or ""
    info.cache_ttl = _cache_ttl(rules, body, "prompt_cache_options")
    info.logprobs = body.get("logprobs") is True
    info.top_logprobs = int(body.get("top_logprobs") or 0)
    info.stops = _stops(body.get("stop"))
    _chat_history(chk, messages, info.model)
    return info


def _no_duplicate_ids(chk: Checker, ids: Sequence[Any]) -> None:
    twice = first_duplicate(ids)
    if twice is not None:
        raise chk.plain(f"tool call id {twice} is duplicated")


def _reasoning_missing(chk: Checker, index: int) -> ServiceError:
    """The service's refusal of an assistant tool-call turn replayed without its reasoning
    (the same sentence on Chat and on Messages, where the turn lacks a thinking block)."""
    return chk.plain(
        "thinking is enabled but reasoning_content is missing in assistant tool call message "
        f"at index {index}"
    )


def _chat_history(chk: Checker, messages: list[Any], model: str) -> None:
    thinking = contract("chat").thinking_required(model)
    seen: set[str] = set()
    for i, message in enumerate(messages):
        role = message.get("role")
        if role == "assistant" and message.get("tool_calls"):
            if thinking and message.get("reasoning_content") is None:
                raise _reasoning_missing(chk, i)
            ids = [call["id"] for call in message["tool_calls"]]
            _no_duplicate_ids(chk, ids)
            for j, call in enumerate(message["tool_calls"]):
                function = call.get("function")
                arguments = function.get("arguments") if isinstance(function, dict) else None
                if not arguments_replayable(arguments):
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


def check_messages(
    body: Mapping[str, Any],
    headers: Mapping[str, str],
    verify: Verifier,
    *,
    strict: bool = False,
    schema_rules: bool = True,
) -> RequestInfo:
    """Every rule of ``POST /v1/messages``; ``verify(thinking, signature)`` checks a
    thinking block's signature."""
    for name in contract("messages").required_headers:
        if not headers.get(name):
            raise ServiceError(400, f"{name}: header is required")
    chk, rules, body, info = _start("messages", "anthropic", body, strict, schema_rules)
    messages = body["messages"]
    info.budget = body["max_tokens"]
    info.stops = _stops(body.get("stop_sequences"))
    info.has_web_search = _web_search(body.get("tools"), ("web_search_20250305",))
    info.must_call_tool = (body.get("tool_choice") or {}).get("type") == "any"
    info.functions = tuple(
        (t["name"], t.get("input_schema"))
        for t in body.get("tools") or ()
        if t.get("type", "custom") == "custom"
    )
    info.cache_group = (body.get("metadata") or {}).get("user_id") or ""
    info.cache_ttl = _cache_ttl(rules, body, "cache_control")
    fmt = (body.get("output_config") or {}).get("format")
    if fmt is not None:
        info.schema = fmt["schema"]
    _anthropic_history(chk, messages, verify, contract("messages").thinking_required(info.model))
    return info


def _anthropic_history(chk: Checker, messages: list[Any], verify: Verifier, thinking: bool) -> None:
    seen: set[str] = set()
    for i, message in enumerate(messages):
        content = message["content"]
        if isinstance(content, str):
            continue
        uses = [b["id"] for b in content if b["type"] == "tool_use"]
        if (
            thinking
            and uses
            and message.get("role") == "assistant"
            and not any(b["type"] in THINKING_TYPES for b in content)
        ):
            raise _reasoning_missing(chk, i)
        _no_duplicate_ids(chk, uses)
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


def check_responses(
    body: Mapping[str, Any], *, strict: bool = False, schema_rules: bool = True
) -> RequestInfo:
    """Every rule of ``POST /v1/responses``."""
    chk, rules, body, info = _start("responses", "openai", body, strict, schema_rules)
    items = body["input"]
    info.budget = body.get("max_output_tokens") or rules.defaults["max_output_tokens"]
    fmt = (body.get("text") or {}).get("format")
    if fmt is not None and fmt.get("type") == "json_schema":
        info.schema = fmt["schema"]
    info.has_web_search = _web_search(body.get("tools"), ("web_search",))
    choice = body.get("tool_choice")
    info.must_call_tool = choice == "required" or (
        isinstance(choice, Mapping) and choice.get("type") == "required"
    )
    info.functions = tuple(
        (t["name"], t.get("parameters"))
        for t in body.get("tools") or ()
        if t.get("type") == "function"
    )
    info.include = tuple(body.get("include") or ())
    info.cache_group = body.get("prompt_cache_key") or ""
    info.cache_ttl = _cache_ttl(rules, body, "prompt_cache_options")
    if isinstance(items, list):
        _responses_history(chk, items)
    return info


def _responses_history(chk: Checker, items: list[Any]) -> None:
    pending: list[tuple[str, str]] = []  # (kind, call_id), in order
    for i, item in enumerate(items):
        kind = item.get("type")
        if kind == "function_call" and not arguments_replayable(item["arguments"]):
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
