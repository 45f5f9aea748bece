"""Valid requests for all three formats, as hypothesis strategies: every field a format
documents, drawn within its documented limits (shared by the validation property tests and
the three-verdict contract tests)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from kimi_ext._core.contract import contract

MODELS = contract("chat").known_models
LEVELS = contract("chat").effort.levels
ALIASES = dict(contract("chat").effort.aliases)
EFFORTS = sorted(LEVELS) + sorted(ALIASES)

# Non-blank: the service refuses empty (and, on Messages, blank) text.
texts = st.text(min_size=1, max_size=20).filter(lambda t: t.strip() != "")
tool_names = st.from_regex(r"\A[a-zA-Z_][a-zA-Z0-9_-]{0,20}\Z")
schemas = st.sampled_from(
    [
        {"type": "object", "properties": {}},
        {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    ]
)
stops = st.lists(
    st.text(min_size=1, max_size=8).filter(lambda s: len(s.encode()) <= 32), max_size=5
)


@st.composite
def optional(draw: st.DrawFn, params: dict[str, Any], key: str, values: Any) -> None:
    """Maybe set ``key``: to a drawn value, or to None (which means "not given")."""
    choice = draw(st.integers(0, 4))
    if choice == 0:
        params[key] = None
    elif choice >= 3:
        params[key] = draw(values)


def effort_for(model: str) -> st.SearchStrategy[str]:
    if model == "kimi-k3":
        return st.sampled_from(["max", "xhigh"])
    return st.sampled_from(EFFORTS)


@st.composite
def valid_chat(draw: st.DrawFn) -> dict[str, Any]:
    model = draw(st.sampled_from(MODELS))
    k31 = model != "kimi-k3"
    messages: list[dict[str, Any]] = [
        {"role": draw(st.sampled_from(["system", "user", "assistant"])), "content": draw(texts)}
        for _ in range(draw(st.integers(0, 3)))
    ]
    messages.append({"role": "user", "content": draw(texts)})
    if draw(st.booleans()):
        messages.append({"role": "tool", "tool_call_id": draw(texts), "content": draw(texts)})
    params: dict[str, Any] = {"model": model, "messages": messages}
    draw(optional(params, "reasoning_effort", effort_for(model)))
    draw(optional(params, draw(st.sampled_from(["max_tokens", "max_completion_tokens"])),
                  st.integers(1, 1_048_576)))  # fmt: skip
    draw(optional(params, "stream", st.booleans()))
    draw(
        optional(params, "stream_options", st.fixed_dictionaries({"include_usage": st.booleans()}))
    )
    names = draw(st.lists(tool_names, max_size=3, unique=True))
    if names:
        params["tools"] = [
            {"type": "function", "function": {"name": n, "parameters": draw(schemas)}}
            for n in names
        ]
        draw(optional(params, "tool_choice", st.sampled_from(["auto", "none", "required"])))
    formats = [{"type": "text"}, {"type": "json_object"}]
    if k31:
        formats.append({"type": "json_schema", "json_schema": {"name": "answer", "schema": {}}})
        draw(
            optional(
                params,
                "stop",
                st.one_of(texts.filter(lambda s: len(s.encode()) <= 32), stops.filter(bool)),
            )
        )
        draw(
            optional(
                params, "prompt_cache_options", st.sampled_from([{}, {"ttl": "5m"}, {"ttl": "1h"}])
            )
        )
    draw(optional(params, "response_format", st.sampled_from(formats)))
    if params.get("response_format") == {"type": "json_object"}:
        # JSON mode needs a prompt that asks for JSON (a documented rule).
        messages.insert(0, {"role": "system", "content": "Reply in JSON."})
    draw(
        optional(
            params, "prediction", st.builds(lambda t: {"type": "content", "content": t}, texts)
        )
    )
    draw(optional(params, "prompt_cache_key", texts))
    draw(optional(params, "safety_identifier", texts))
    if draw(st.booleans()):
        params["logprobs"] = True
        draw(optional(params, "top_logprobs", st.integers(0, 20)))
    else:
        draw(optional(params, "logprobs", st.just(False)))
    for field, fixed in (("temperature", 1), ("top_p", 0.95), ("n", 1),
                         ("frequency_penalty", 0), ("presence_penalty", 0)):  # fmt: skip
        draw(optional(params, field, st.just(fixed)))
    return params


@st.composite
def valid_messages(draw: st.DrawFn) -> dict[str, Any]:
    model = draw(st.sampled_from(MODELS))
    k31 = model != "kimi-k3"
    content = st.one_of(texts, st.lists(st.builds(lambda t: {"type": "text", "text": t}, texts), min_size=1, max_size=2))  # fmt: skip
    messages = [
        {"role": draw(st.sampled_from(["user", "assistant"])), "content": draw(content)}
        for _ in range(draw(st.integers(0, 3)))
    ]
    messages.append({"role": "user", "content": draw(content)})
    params: dict[str, Any] = {
        "model": model,
        "messages": messages,
        "max_tokens": draw(st.integers(1, 1_048_576)),
    }
    draw(
        optional(
            params, "system", st.one_of(texts, st.just([{"type": "text", "text": "Be brief."}]))
        )
    )
    draw(optional(params, "stream", st.booleans()))
    if k31:
        draw(optional(params, "stop_sequences", stops))
        draw(
            optional(
                params,
                "cache_control",
                st.sampled_from([{"type": "ephemeral"}, {"type": "ephemeral", "ttl": "1h"}]),
            )
        )
    names = draw(st.lists(tool_names.filter(lambda n: n != "web_search"), max_size=3, unique=True))
    tools: list[dict[str, Any]] = [{"name": n, "input_schema": draw(schemas)} for n in names]
    if draw(st.booleans()):
        tools.append(
            {
                "type": "web_search_20250305",
                "name": "web_search",
                "max_uses": draw(st.integers(1, 9)),
            }
        )
    if tools:
        params["tools"] = tools
        draw(
            optional(
                params,
                "tool_choice",
                st.sampled_from([{"type": "auto"}, {"type": "none"}, {"type": "any"}]),
            )
        )
    config: dict[str, Any] = {}
    if draw(st.booleans()):
        config["effort"] = draw(effort_for(model))
    if k31 and draw(st.booleans()):
        config["format"] = {"type": "json_schema", "schema": draw(schemas)}
    if config or draw(st.booleans()):
        params["output_config"] = config
    draw(optional(params, "metadata", st.just({"user_id": "u-1"})))
    draw(optional(params, "temperature", st.just(1)))
    draw(optional(params, "top_p", st.just(0.95)))
    return params


@st.composite
def valid_responses(draw: st.DrawFn) -> dict[str, Any]:
    model = draw(st.sampled_from(MODELS))
    k31 = model != "kimi-k3"
    items = st.lists(st.builds(lambda t: {"role": "user", "content": t}, texts), min_size=1, max_size=3)  # fmt: skip
    params: dict[str, Any] = {"model": model, "input": draw(st.one_of(texts, items))}
    draw(optional(params, "instructions", texts))
    draw(optional(params, "max_output_tokens", st.integers(1, 1_048_576)))
    draw(optional(params, "stream", st.booleans()))
    reasoning: dict[str, Any] = {}
    if draw(st.booleans()):
        reasoning["effort"] = draw(effort_for(model))
    if draw(st.booleans()):
        reasoning["summary"] = "auto"
    if reasoning or draw(st.booleans()):
        params["reasoning"] = reasoning
    text_formats = [{"format": {"type": "text"}}]
    if k31:
        text_formats.append({"format": {"type": "json_schema", "name": "a", "schema": {}}})
        draw(optional(params, "prompt_cache_options", st.sampled_from([{}, {"ttl": "1h"}])))
    draw(optional(params, "text", st.sampled_from(text_formats)))
    names = draw(st.lists(tool_names.filter(lambda n: n != "apply_patch"), max_size=3, unique=True))
    tools: list[dict[str, Any]] = [
        {"type": "function", "name": name, "parameters": draw(schemas)} for name in names
    ]
    if draw(st.booleans()):  # apply_patch is the one documented custom tool
        tools.append({"type": "custom", "name": "apply_patch", "format": {"type": "text"}})
    if draw(st.booleans()):
        tools.append({"type": "web_search"})
    if tools:
        params["tools"] = tools
        draw(
            optional(
                params,
                "tool_choice",
                st.sampled_from(["auto", "none", "required", {"type": "auto"}]),
            )
        )
    draw(optional(params, "include", st.lists(st.sampled_from(["web_search_call.results", "web_search_call.action.sources"]), max_size=2)))  # fmt: skip
    draw(optional(params, "prompt_cache_key", texts))
    draw(optional(params, "safety_identifier", texts))
    return params


VALID = {"chat": valid_chat(), "messages": valid_messages(), "responses": valid_responses()}
