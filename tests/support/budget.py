"""Token-count helpers: one request or result per format, and a long tool session against
the stand-in for token-count accuracy (tests/budget and ``python -m benchmarks.budget``).

Each turn the model (scripted, from a seeded generator) reasons, then either calls one or
two tools or answers; the tool results and the next user message go into a history object.
Before every request, the count the client makes offline is recorded next to the input
tokens the stand-in then reports, and so are two rules that need no history: plain chars/4
and kimi-cli's rule (ASCII characters / 4, plus one per other character) over the
request's JSON.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kimi_ext import (
    ChatCompletion,
    ChatHistory,
    Kimi,
    Message,
    MessagesHistory,
    Response,
    ResponsesHistory,
)
from kimi_ext.testing import KimiStandIn, Reply, ToolCallSpec

MODEL = "kimi-k3.1-pro"


# --- one request or result per format (tests/budget) ---

FORMATS = ("chat", "messages", "responses")


def resource(client: Any, fmt: str) -> Any:
    return {"chat": lambda: client.chat.completions, "messages": lambda: client.messages,
            "responses": lambda: client.responses}[fmt]()  # fmt: skip


def new_history(fmt: str) -> Any:
    if fmt == "chat":
        return ChatHistory(system="Be brief.")
    if fmt == "messages":
        return MessagesHistory(system="Be brief.")
    return ResponsesHistory(instructions="Be brief.")


def request(fmt: str, history: Any, **extra: Any) -> dict[str, Any]:
    field_name = "input" if fmt == "responses" else "messages"
    params: dict[str, Any] = {"model": MODEL, field_name: history, **extra}
    if fmt == "messages":
        params.setdefault("max_tokens", 1024)
    return params


def result_of(fmt: str, text: str, input_tokens: int, output_tokens: int) -> Any:
    """A result as the service sends it, with its usage (no request needed)."""
    if fmt == "chat":
        return ChatCompletion({
            "id": "c", "object": "chat.completion", "model": MODEL, "created": 0,
            "choices": [{"index": 0, "finish_reason": "stop", "message": {
                "role": "assistant", "content": text, "reasoning_content": "thinking"}}],
            "usage": {"prompt_tokens": input_tokens, "completion_tokens": output_tokens,
                      "total_tokens": input_tokens + output_tokens},
        })  # fmt: skip
    if fmt == "messages":
        return Message({
            "id": "m", "type": "message", "role": "assistant", "model": MODEL,
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
        })  # fmt: skip
    return Response({
        "id": "r", "object": "response", "model": MODEL, "status": "completed",
        "output": [{"type": "message", "id": "msg", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]}],
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens,
                  "total_tokens": input_tokens + output_tokens},
    })  # fmt: skip


WORDS = [
    "the",
    "weather",
    "route",
    "train",
    "ticket",
    "price",
    "museum",
    "river",
    "bridge",
    "harbour",
    "market",
    "station",
    "north",
    "south",
    "morning",
    "evening",
    "quickly",
    "because",
    "however",
    "result",
    "value",
    "count",
    "table",
]
CJK = "里斯本天气火车票价博物馆河流桥梁港口市场车站北南早晚"
TOOLS = {
    "messages": [
        {
            "name": "lookup",
            "description": "Look a fact up.",
            "input_schema": {
                "type": "object",
                "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
                "required": ["query"],
            },
        }
    ],
    "chat": [
        {
            "type": "function",
            "function": {
                "name": "lookup",
                "description": "Look a fact up.",
                "parameters": {
                    "type": "object",
                    "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
                    "required": ["query"],
                },
            },
        }
    ],
    "responses": [
        {
            "type": "function",
            "name": "lookup",
            "description": "Look a fact up.",
            "parameters": {
                "type": "object",
                "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
                "required": ["query"],
            },
        }
    ],
}


def long_anchored_history(fmt: str, turns: int, *, per_turn: int = 60, start: int = 50) -> Any:
    """A history of ``turns`` rounds, each turn with the usage a service would report."""
    history = new_history(fmt)
    reported = start
    for i in range(turns):
        history.add_user(f"question {i}: " + "word " * 10)
        history.add(result_of(fmt, f"answer {i}: " + "text " * 8, reported, 20))
        reported += per_turn
    return history


def words_rule(text: str) -> int:
    """A rule no estimator here knows: one token per word and per punctuation mark."""
    return len(re.findall(r"\w+|[^\w\s]", text))


def bytes_rule(text: str) -> int:
    """Another: one token per three UTF-8 bytes."""
    return math.ceil(len(text.encode("utf-8", "surrogatepass")) / 3)


def chars4(text: str) -> int:
    """Plain chars/4."""
    return math.ceil(len(text) / 4)


def kimi_cli_rule(text: str) -> int:
    """kimi-cli's estimate: ASCII characters / 4, plus one per other character."""
    ascii_chars = len(text.encode("ascii", "ignore"))
    return ascii_chars // 4 + (len(text) - ascii_chars)


def _sentence(rng: random.Random, n: int) -> str:
    parts = []
    for _ in range(n):
        if rng.random() < 0.08:
            parts.append("".join(rng.choice(CJK) for _ in range(rng.randint(2, 6))))
        else:
            parts.append(rng.choice(WORDS))
    return " ".join(parts) + "."


@dataclass
class Session:
    """Per turn: the client's count, what the stand-in reported, and the naive rules."""

    counted: list[int] = field(default_factory=list)
    reported: list[int] = field(default_factory=list)
    naive: dict[str, list[int]] = field(default_factory=dict)

    def errors(self, counts: list[int]) -> list[float]:
        return [abs(c - r) / r for c, r in zip(counts, self.reported, strict=True)]

    def within(self, counts: list[int], share: float = 0.03) -> float:
        """The share of turns whose count is within ``share`` of the reported input."""
        errors = self.errors(counts)
        return sum(e <= share for e in errors) / len(errors)


def _body_text(fmt: str, params: dict[str, Any], history: Any) -> str:
    """The request's input as JSON text (what the naive rules count)."""
    body = {k: v for k, v in params.items() if k in ("system", "tools", "instructions")}
    body["history"] = list(history)
    system = getattr(history, "system", None) or getattr(history, "instructions", None)
    if system is not None:
        body["system"] = system
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


def run_session(
    fmt: str,
    turns: int,
    rule: Callable[[str], int] | None = None,
    *,
    seed: int = 7,
    naive: dict[str, Callable[[str], int]] | None = None,
) -> Session:
    """Run ``turns`` requests of a tool session in format ``fmt`` against a stand-in that
    counts tokens by ``rule``; return the counts made before each request."""
    rng = random.Random(seed)
    out = Session(naive={name: [] for name in naive or {}})
    with KimiStandIn(token_counter=rule) as standin:
        client = Kimi(api_key=standin.api_key, base_url=standin.base_url)
        history: Any
        params: dict[str, Any] = {"model": MODEL, "tools": TOOLS[fmt]}
        if fmt == "messages":
            history = MessagesHistory(system="You are a careful travel assistant.")
            resource: Any = client.messages
            params["max_tokens"] = 4096
        elif fmt == "chat":
            history = ChatHistory(system="You are a careful travel assistant.")
            resource = client.chat.completions
        else:
            history = ResponsesHistory(instructions="You are a careful travel assistant.")
            resource = client.responses
        field_name = "input" if fmt == "responses" else "messages"
        history.add_user(_sentence(rng, rng.randint(5, 40)))
        for _ in range(turns):
            calls = []
            if rng.random() < 0.7:
                for k in range(rng.randint(1, 2)):
                    arguments = {"query": _sentence(rng, rng.randint(2, 10))}
                    if rng.random() < 0.5:
                        arguments["limit"] = rng.randint(1, 50)
                    calls.append(
                        ToolCallSpec("lookup", arguments, id=f"call_{rng.random():.12f}_{k}")
                    )
            reply = Reply(
                text="" if calls and rng.random() < 0.6 else _sentence(rng, rng.randint(3, 25)),
                reasoning=_sentence(rng, rng.randint(3, 40)),
                tool_calls=calls,
            )
            standin.queue(reply)
            request = {**params, field_name: history}
            count = resource.count_tokens(**request)
            for name, naive_rule in (naive or {}).items():
                out.naive[name].append(naive_rule(_body_text(fmt, params, history)))
            result = resource.create(**request)
            out.counted.append(count.input_tokens)
            out.reported.append(result.usage.total_input)
            history.add(result)
            for call in result.tool_calls:
                size = rng.choice((5, 10, 20, 40))
                history.add_tool_result(
                    call.id, {"rows": [_sentence(rng, 6) for _ in range(size // 5 or 1)]}
                )
            if not result.tool_calls or rng.random() < 0.2:
                history.add_user(_sentence(rng, rng.randint(3, 30)))
        client.close()
    return out
