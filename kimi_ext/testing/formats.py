"""The three wire formats: JSON bodies, SSE event sequences and error envelopes.

Shapes follow the recorded fixtures (tests/fixtures/{chat,messages,responses}): key order,
ids (``chatcmpl-``, ``msg_``, ``resp_`` / ``rs_`` / ``fc_`` / ``ws_``), Kimi-style tool-call
ids and the usage fields of each format.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kimi_ext.contract import contract
from kimi_ext.testing.caching import CacheUse
from kimi_ext.testing.faults import FaultPlan
from kimi_ext.testing.replies import PlannedCall, PlannedOutput, PlannedSearch, dump_json
from kimi_ext.testing.rules import RequestInfo, ServiceError
from kimi_ext.testing.sse import SSEEvent, split_pairs, split_text


def new_id(prefix: str, size: int = 24) -> str:
    return prefix + uuid.uuid4().hex[:size]


@dataclass
class Context:
    """Everything a renderer needs for one successful request."""

    info: RequestInfo
    body: Mapping[str, Any]
    plan: PlannedOutput
    cache: CacheUse
    faults: FaultPlan = field(default_factory=FaultPlan)
    sign: Callable[[str], str] = lambda text: ""
    created: int = 0
    chunk_chars: int = 16
    report_stop_sequence: bool = False
    with_reasoning: bool = True

    def pieces(self, text: str) -> list[str]:
        pieces = split_text(text, self.chunk_chars)
        if self.faults.has("split_surrogates"):
            return split_pairs(pieces)
        return pieces


# ================================================================================== errors


def error_body(fmt: str, err: ServiceError, request_id: str) -> dict[str, Any]:
    """The error envelope of ``fmt``."""
    if fmt == "messages":
        return {
            "type": "error",
            "error": {"type": err.error_type, "message": err.message},
            "request_id": request_id,
        }
    detail: dict[str, Any] = {"message": err.message, "type": err.error_type, "code": err.code}
    if err.param is not None:
        detail["param"] = err.param
    return {"error": detail}


def auth_error(fmt: str) -> ServiceError:
    if fmt == "messages":
        return ServiceError(
            401,
            "invalid or missing API key: send it as `Authorization: Bearer <key>`",
            error_type="authentication_error",
        )
    return ServiceError(
        401,
        "Invalid Authentication",
        error_type="invalid_authentication_error",
        code="invalid_api_key",
    )


# ==================================================================================== Chat


def _logprobs(text: str, top: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for token in split_text(text, 4):
        alternatives = [{"token": token, "logprob": -0.01, "bytes": list(token.encode())}]
        alternatives += [
            {"token": f"<alt{k}>", "logprob": -5.0 - k, "bytes": list(f"<alt{k}>".encode())}
            for k in range(1, top)
        ]
        out.append(
            {
                "token": token,
                "logprob": -0.01,
                "bytes": list(token.encode()),
                "top_logprobs": alternatives[:top],
            }
        )
    return out


class ChatFormat:
    name = "chat"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.id = new_id("chatcmpl-")

    def usage(self) -> dict[str, Any]:
        plan, cache = self.ctx.plan, self.ctx.cache
        if self.ctx.faults.has("old_cached_tokens"):  # Moonshot's older form
            return {
                "prompt_tokens": cache.input_tokens,
                "completion_tokens": plan.output_tokens,
                "total_tokens": cache.input_tokens + plan.output_tokens,
                "cached_tokens": cache.read,
            }
        return {
            "prompt_tokens": cache.input_tokens,
            "completion_tokens": plan.output_tokens,
            "total_tokens": cache.input_tokens + plan.output_tokens,
            "prompt_tokens_details": {
                "cached_tokens": cache.read,
                "cache_write_tokens": cache.write,
            },
            "completion_tokens_details": {"reasoning_tokens": plan.reasoning_tokens},
        }

    def finish_reason(self) -> str:
        return {"length": "length", "tool_calls": "tool_calls"}.get(self.ctx.plan.finish, "stop")

    @staticmethod
    def call_json(call: PlannedCall) -> dict[str, Any]:
        return {
            "id": call.id,
            "type": call.type,
            "function": {"name": call.name, "arguments": call.arguments},
        }

    def json(self) -> dict[str, Any]:
        plan = self.ctx.plan
        message: dict[str, Any] = {
            "role": "assistant",
            "content": plan.text if plan.text or not plan.tool_calls else None,
            "reasoning_content": plan.reasoning,
        }
        if plan.tool_calls:
            message["tool_calls"] = [self.call_json(c) for c in plan.tool_calls]
        logprobs = None
        if self.ctx.info.logprobs:
            logprobs = {"content": _logprobs(plan.text, self.ctx.info.top_logprobs)}
        return {
            "id": self.id,
            "object": "chat.completion",
            "created": self.ctx.created,
            "model": self.ctx.info.model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": self.finish_reason(),
                    "logprobs": logprobs,
                }
            ],
            "usage": self.usage(),
            "system_fingerprint": None,
        }

    def chunk(self, choices: list[dict[str, Any]], **extra: Any) -> SSEEvent:
        return SSEEvent.json(
            {
                "id": self.id,
                "object": "chat.completion.chunk",
                "created": self.ctx.created,
                "model": self.ctx.info.model,
                "choices": choices,
                **extra,
            }
        )

    def delta(self, delta: dict[str, Any], **extra: Any) -> SSEEvent:
        return self.chunk([{"index": 0, "delta": delta, "finish_reason": None, **extra}])

    def events(self) -> list[SSEEvent]:
        ctx, plan = self.ctx, self.ctx.plan
        faults = ctx.faults
        events = [self.delta({"role": "assistant", "content": ""})]
        if faults.has("unknown_event"):
            events.append(SSEEvent("keep-alive", comment=True))
        events += [self.delta({"reasoning_content": p}) for p in ctx.pieces(plan.reasoning)]
        for piece in ctx.pieces(plan.text):
            extra: dict[str, Any] = {}
            if ctx.info.logprobs:
                extra["logprobs"] = {"content": _logprobs(piece, ctx.info.top_logprobs)}
            events.append(self.delta({"content": piece}, **extra))
        split = faults.has("split_tool_name")
        no_index = faults.first("tool_call_without_index")
        for i, call in enumerate(plan.tool_calls):
            name = call.name
            first_name = name[: max(1, len(name) // 2)] if split and len(name) > 1 else name
            head = {
                "index": i,
                "id": call.id,
                "type": call.type,
                "function": {"name": first_name, "arguments": ""},
            }
            events.append(self.delta({"tool_calls": [head]}))
            rest: list[dict[str, Any]] = []
            if first_name != name:
                rest.append({"function": {"name": name[len(first_name) :]}})
            rest += [{"function": {"arguments": p}} for p in ctx.pieces(call.arguments)]
            for part in rest:
                if no_index is None:
                    part = {"index": i, **part}
                elif no_index.null_index:
                    part = {"index": None, **part}
                events.append(self.delta({"tool_calls": [part]}))
        finish: dict[str, Any] = {"index": 0, "delta": {}, "finish_reason": self.finish_reason()}
        if faults.has("usage_on_choice") or faults.has("old_cached_tokens"):
            finish["usage"] = self.usage()
            events.append(self.chunk([finish]))
        else:
            events.append(self.chunk([finish]))
            if ctx.info.include_usage:
                events.append(self.chunk([], usage=self.usage()))
        events.append(SSEEvent("[DONE]"))
        return events

    def error_event(self, position: int) -> SSEEvent:
        return SSEEvent.json(
            {
                "error": {
                    "message": "The engine is currently overloaded, please try again later",
                    "type": "engine_overloaded_error",
                    "code": "engine_overloaded",
                }
            }
        )


# ================================================================================ Messages


class MessagesFormat:
    name = "messages"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.id = new_id("msg_")

    def usage(self, *, output: bool = True) -> dict[str, Any]:
        plan, cache = self.ctx.plan, self.ctx.cache
        one_hour = cache.write_ttl == "1h"
        usage: dict[str, Any] = {
            "input_tokens": cache.uncached,
            "cache_creation_input_tokens": cache.write,
            "cache_read_input_tokens": cache.read,
            "cache_creation": {
                "ephemeral_5m_input_tokens": 0 if one_hour else cache.write,
                "ephemeral_1h_input_tokens": cache.write if one_hour else 0,
            },
            "output_tokens": plan.output_tokens if output else 1,
        }
        if output:
            usage["output_tokens_details"] = {"thinking_tokens": plan.reasoning_tokens}
            usage["server_tool_use"] = {"web_search_requests": 1 if plan.search else 0}
        return usage

    def stop(self) -> tuple[str, str | None]:
        plan = self.ctx.plan
        if plan.finish == "length":
            return "max_tokens", None
        if plan.finish == "tool_calls":
            return "tool_use", None
        if plan.stop_sequence is not None and self.ctx.report_stop_sequence:
            return "stop_sequence", plan.stop_sequence
        return "end_turn", None

    def unknown_block(self) -> dict[str, Any]:
        fault = self.ctx.faults.first("unknown_block")
        kind = fault.block_type if fault is not None and fault.block_type else "future_block"
        return {"type": kind, "data": "opaque data of a block type this client does not know"}

    @staticmethod
    def search_blocks(search: PlannedSearch) -> list[dict[str, Any]]:
        return [
            {
                "type": "server_tool_use",
                "id": search.id,
                "name": "web_search",
                "input": {"query": search.query},
            },
            {
                "type": "web_search_tool_result",
                "tool_use_id": search.id,
                "content": [
                    {
                        "type": "web_search_result",
                        "url": r.url,
                        "title": r.title,
                        "encrypted_content": new_id("Eo", 16),
                        "page_age": None,
                    }
                    for r in search.results
                ],
            },
        ]

    def blocks(self, *, streaming: bool = False) -> list[dict[str, Any]]:
        """The content blocks; a tool call cut mid-arguments only in a stream (there its
        block never gets its content_block_stop)."""
        ctx, plan = self.ctx, self.ctx.plan
        blocks: list[dict[str, Any]] = []
        if ctx.with_reasoning:
            thinking: dict[str, Any] = {"type": "thinking", "thinking": plan.reasoning}
            if plan.reasoning_complete:
                thinking["signature"] = ctx.sign(plan.reasoning)
            blocks.append(thinking)
        if ctx.faults.has("unknown_block"):
            blocks.append(self.unknown_block())
        if plan.search is not None:
            blocks += self.search_blocks(plan.search)
        if plan.show_text:
            blocks.append({"type": "text", "text": plan.text})
        blocks += [
            {"type": "tool_use", "id": c.id, "name": c.name, "input": c.input_object()}
            for c in plan.tool_calls
            if c.complete or streaming
        ]
        return blocks

    def json(self) -> dict[str, Any]:
        stop_reason, stop_sequence = self.stop()
        return {
            "id": self.id,
            "type": "message",
            "role": "assistant",
            "model": self.ctx.info.model,
            "content": self.blocks(),
            "stop_reason": stop_reason,
            "stop_sequence": stop_sequence,
            "usage": self.usage(),
        }

    @staticmethod
    def event(payload: dict[str, Any]) -> SSEEvent:
        return SSEEvent.json(payload, str(payload["type"]))

    def events(self) -> list[SSEEvent]:
        ctx = self.ctx
        ev = self.event
        start: dict[str, Any] = {
            "id": self.id,
            "type": "message",
            "role": "assistant",
            "model": ctx.info.model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": self.usage(output=False),
        }
        events = [ev({"type": "message_start", "message": start}), ev({"type": "ping"})]
        if ctx.faults.has("unknown_event"):
            fault = ctx.faults.first("unknown_event")
            name = (
                fault.block_type if fault is not None and fault.block_type else "message_progress"
            )
            events.append(ev({"type": name, "progress": 0.5}))
        calls = {c.id: c for c in ctx.plan.tool_calls}
        blocks = self.blocks(streaming=True)
        noted = next((b for b in blocks if b["type"] == "text"), None) or next(
            (b for b in blocks if b["type"] == "thinking"), None
        )
        for index, block in enumerate(blocks):
            kind = block["type"]

            def delta(payload: dict[str, Any], index: int = index) -> SSEEvent:
                return ev({"type": "content_block_delta", "index": index, "delta": payload})

            if kind == "thinking":
                head: dict[str, Any] = {"type": "thinking", "thinking": "", "signature": ""}
                body = [
                    delta({"type": "thinking_delta", "thinking": p})
                    for p in ctx.pieces(block["thinking"])
                ]
                if "signature" in block:
                    body.append(delta({"type": "signature_delta", "signature": block["signature"]}))
            elif kind == "text":
                head = {"type": "text", "text": ""}
                body = [delta({"type": "text_delta", "text": p}) for p in ctx.pieces(block["text"])]
            elif kind in ("tool_use", "server_tool_use"):
                head = {**block, "input": {}}
                raw = (
                    calls[block["id"]].arguments
                    if kind == "tool_use"
                    else dump_json(block["input"])
                )
                body = [delta({"type": "input_json_delta", "partial_json": ""})]
                body += [
                    delta({"type": "input_json_delta", "partial_json": p}) for p in ctx.pieces(raw)
                ]
            else:  # web_search_tool_result and unknown blocks arrive whole
                head, body = block, []
            if block is noted and ctx.faults.has("unknown_delta"):
                fault = ctx.faults.first("unknown_delta")
                name = fault.block_type if fault is not None and fault.block_type else "note_delta"
                field = name.removesuffix("_delta") or "note"
                notes = [delta({"type": name, field: p}) for p in ("un", "known")]
                body = [*body[:1], *notes, *body[1:]]
            events.append(
                ev({"type": "content_block_start", "index": index, "content_block": head})
            )
            events += body
            cut = kind == "tool_use" and not calls[block["id"]].complete
            if not cut:  # the output limit stopped a cut call before its block ended
                events.append(ev({"type": "content_block_stop", "index": index}))
        stop_reason, stop_sequence = self.stop()
        events.append(
            ev(
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop_reason, "stop_sequence": stop_sequence},
                    "usage": self.usage(),
                }
            )
        )
        events.append(ev({"type": "message_stop"}))
        return events

    def error_event(self, position: int) -> SSEEvent:
        return self.event(
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
        )


# =============================================================================== Responses


class ResponsesFormat:
    name = "responses"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.id = new_id("resp_")
        self.item_ids: dict[str, str] = {}

    def usage(self) -> dict[str, Any]:
        plan, cache = self.ctx.plan, self.ctx.cache
        return {
            "input_tokens": cache.input_tokens,
            "input_tokens_details": {
                "cached_tokens": cache.read,
                "cache_write_tokens": cache.write,
            },
            "output_tokens": plan.output_tokens,
            "output_tokens_details": {"reasoning_tokens": plan.reasoning_tokens},
            "total_tokens": cache.input_tokens + plan.output_tokens,
        }

    def response(self, status: str, output: list[dict[str, Any]], *, final: bool) -> dict[str, Any]:
        body, info = self.ctx.body, self.ctx.info
        reasoning = body.get("reasoning") if isinstance(body.get("reasoning"), Mapping) else {}
        incomplete = self.ctx.plan.truncated
        return {
            "id": self.id,
            "object": "response",
            "created_at": self.ctx.created,
            "status": status,
            "error": None,
            "incomplete_details": {"reason": "max_output_tokens"} if incomplete and final else None,
            "instructions": body.get("instructions"),
            "max_output_tokens": body.get(
                "max_output_tokens", contract("responses").defaults["max_output_tokens"]
            ),
            "model": info.model,
            "output": output,
            "parallel_tool_calls": True,
            "prompt_cache_key": body.get("prompt_cache_key"),
            "prompt_cache_options": {"mode": "implicit", "ttl": info.cache_ttl},
            "reasoning": {"effort": info.effort, "summary": (reasoning or {}).get("summary")},
            "safety_identifier": body.get("safety_identifier"),
            "temperature": 1.0,
            "text": body.get("text") or {"format": {"type": "text"}},
            "tool_choice": body.get("tool_choice", "auto"),
            "tools": body.get("tools", []),
            "top_p": 0.95,
            "metadata": {},
            "usage": self.usage() if final else None,
        }

    def items(self) -> list[dict[str, Any]]:
        ctx, plan = self.ctx, self.ctx.plan
        items: list[dict[str, Any]] = []
        reasoning: dict[str, Any] = {
            "type": "reasoning",
            "id": new_id("rs_"),
            "summary": [],
            "content": [{"type": "reasoning_text", "text": plan.reasoning}],
            "encrypted_content": None,
        }
        if not plan.reasoning_complete:
            reasoning["status"] = "incomplete"
        items.append(reasoning)
        if ctx.faults.has("unknown_block"):
            fault = ctx.faults.first("unknown_block")
            kind = fault.block_type if fault is not None and fault.block_type else "future_item"
            items.append(
                {"type": kind, "id": new_id("fi_"), "status": "completed", "data": "opaque"}
            )
        if plan.search is not None:
            search: dict[str, Any] = {
                "type": "web_search_call",
                "id": plan.search.id,
                "status": "completed",
                "action": {"type": "search", "query": plan.search.query},
            }
            if "web_search_call.action.sources" in ctx.info.include:
                search["action"]["sources"] = [
                    {"type": "url", "url": r.url} for r in plan.search.results
                ]
            if "web_search_call.results" in ctx.info.include:
                search["results"] = [
                    {"title": r.title, "url": r.url, "snippet": r.snippet}
                    for r in plan.search.results
                ]
            items.append(search)
        if plan.show_text:
            items.append(
                {
                    "type": "message",
                    "id": new_id("msg_"),
                    "status": "incomplete"
                    if plan.truncated and not plan.tool_calls
                    else "completed",
                    "role": "assistant",
                    "content": [
                        {
                            "type": "output_text",
                            "text": plan.text,
                            "annotations": [],
                            "logprobs": [],
                        }
                    ],
                }
            )
        items += [
            {
                "type": "function_call",
                "id": new_id("fc_"),
                "call_id": c.id,
                "name": c.name,
                "arguments": c.arguments,
                "status": "completed" if c.complete else "incomplete",
            }
            for c in plan.tool_calls
        ]
        return items

    def status(self) -> str:
        return "incomplete" if self.ctx.plan.truncated else "completed"

    def json(self) -> dict[str, Any]:
        return self.response(self.status(), self.items(), final=True)

    def events(self) -> list[SSEEvent]:
        ctx = self.ctx
        payloads: list[dict[str, Any]] = [
            {"type": "response.created", "response": self.response("in_progress", [], final=False)},
            {
                "type": "response.in_progress",
                "response": self.response("in_progress", [], final=False),
            },
        ]
        if ctx.faults.has("unknown_event"):
            fault = ctx.faults.first("unknown_event")
            name = (
                fault.block_type if fault is not None and fault.block_type else "response.progress"
            )
            payloads.append({"type": name, "progress": 0.5})
        items = self.items()
        for n, item in enumerate(items):
            if item["type"] == "reasoning" and ctx.faults.has("renamed_items"):
                # streamed under a temporary id, listed under the real one at the end
                streamed = {**item, "id": "rs_tmp_" + item["id"].removeprefix("rs_")}
                payloads += self.item_events(n, streamed)
            else:
                payloads += self.item_events(n, item)
        terminal = "response.incomplete" if ctx.plan.truncated else "response.completed"
        payloads.append(
            {"type": terminal, "response": self.response(self.status(), items, final=True)}
        )
        events = []
        for seq, payload in enumerate(payloads):
            payload = {"type": payload["type"], "sequence_number": seq, **payload}
            events.append(SSEEvent.json(payload, str(payload["type"])))
        return events

    def item_events(self, n: int, item: dict[str, Any]) -> list[dict[str, Any]]:
        ctx = self.ctx
        kind = item["type"]
        at = {"item_id": item["id"], "output_index": n}
        out: list[dict[str, Any]] = []
        if kind == "reasoning":
            text = item["content"][0]["text"]
            added = {**item, "content": [], "status": "in_progress"}
            part = {"type": "reasoning_text", "text": ""}
            out.append({"type": "response.output_item.added", "output_index": n, "item": added})
            out.append(
                {"type": "response.content_part.added", **at, "content_index": 0, "part": part}
            )
            out += [
                {"type": "response.reasoning_text.delta", **at, "content_index": 0, "delta": p}
                for p in ctx.pieces(text)
            ]
            out.append(
                {"type": "response.reasoning_text.done", **at, "content_index": 0, "text": text}
            )
            out.append(
                {
                    "type": "response.content_part.done",
                    **at,
                    "content_index": 0,
                    "part": item["content"][0],
                }
            )
        elif kind == "message":
            part = item["content"][0]
            text = part["text"]
            added = {**item, "status": "in_progress", "content": []}
            out.append({"type": "response.output_item.added", "output_index": n, "item": added})
            out.append(
                {
                    "type": "response.content_part.added",
                    **at,
                    "content_index": 0,
                    "part": {**part, "text": ""},
                }
            )
            out += [
                {
                    "type": "response.output_text.delta",
                    **at,
                    "content_index": 0,
                    "delta": p,
                    "logprobs": [],
                }
                for p in ctx.pieces(text)
            ]
            out.append(
                {
                    "type": "response.output_text.done",
                    **at,
                    "content_index": 0,
                    "text": text,
                    "logprobs": [],
                }
            )
            out.append(
                {"type": "response.content_part.done", **at, "content_index": 0, "part": part}
            )
        elif kind == "function_call":
            added = {**item, "arguments": "", "status": "in_progress"}
            out.append({"type": "response.output_item.added", "output_index": n, "item": added})
            out += [
                {"type": "response.function_call_arguments.delta", **at, "delta": p}
                for p in ctx.pieces(item["arguments"])
            ]
            if item["status"] == "completed":  # a call cut by the output limit is not done
                out.append(
                    {
                        "type": "response.function_call_arguments.done",
                        **at,
                        "name": item["name"],
                        "arguments": item["arguments"],
                    }
                )
        elif kind == "web_search_call":
            added = {"type": kind, "id": item["id"], "status": "in_progress"}
            out.append({"type": "response.output_item.added", "output_index": n, "item": added})
            out += [
                {"type": f"response.web_search_call.{step}", **at}
                for step in ("in_progress", "searching", "completed")
            ]
        else:
            out.append({"type": "response.output_item.added", "output_index": n, "item": item})
        out.append({"type": "response.output_item.done", "output_index": n, "item": item})
        return out

    def error_event(self, position: int) -> SSEEvent:
        return SSEEvent.json(
            {
                "type": "error",
                "sequence_number": position,
                "code": "engine_overloaded",
                "message": "The engine is currently overloaded, please try again later.",
                "param": None,
            },
            "error",
        )


Renderer = ChatFormat | MessagesFormat | ResponsesFormat
RENDERERS: dict[str, type[Renderer]] = {
    "chat": ChatFormat,
    "messages": MessagesFormat,
    "responses": ResponsesFormat,
}
