"""Deterministic payloads: the bytes the server sends and the histories clients send.

Everything is built from a fixed seed, so the server process and the benchmark process
build the same thing independently. The shapes follow the recorded Kimi fixtures under
``tests/fixtures`` (compact JSON, Kimi's ids, ``reasoning_content`` on Chat, thinking
blocks with signatures on Messages, ``reasoning_text`` on Responses).

Scenario keys (the path segment the server routes on) are ``<format>.<kind>.<size>``:

* ``chat.small.0``: a small JSON reply (the fixture ``response_text.json``);
* ``chat.stream.N``: an SSE stream of about N events (reasoning, then text, then one tool
  call whose arguments arrive in fragments), token-sized fragments of English text;
* ``chat.big.B``: a stream whose visible text arrives in one event of B bytes.

The same for ``messages`` and ``responses``.
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

__all__ = [
    "FORMATS",
    "MODEL",
    "Expected",
    "build_body",
    "expected",
    "history_messages",
    "small_reply",
    "stream_bytes",
]

FORMATS = ("chat", "messages", "responses")
MODEL = "kimi-k3.1-pro"
SEED = 20260101
FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"

_dumps = functools.partial(json.dumps, separators=(",", ":"))

# Token-sized pieces of English, with the punctuation, quotes, newlines and occasional
# accented letters that real output has. Mean length about 5 characters.
_TEXT = (
    "the model request stream token reply answer reason because first second then check "
    "value result error retry server client history turn tool call function argument "
    "weather city file path line number list object string field index event delta "
    "usage cache prompt output input message block thinking signature content system "
    "user assistant response status complete partial buffer decode encode parse json "
    "we need to look at this so it is not a an of in on for with by from and or but"
)
_WORDS = _TEXT.split()
_PIECES = (
    [" " + w for w in _WORDS]
    + [w[: len(w) // 2] for w in _WORDS if len(w) > 5]
    + [w[len(w) // 2 :] for w in _WORDS if len(w) > 5]
    + [",", ".", ":", ";", " (", ")", ".\n\n", "\n- ", ' "', '"', " café", " naïve", " 42", " 3.1"]
)


def fragments(count: int, seed: int) -> list[str]:
    """``count`` token-like fragments of text (deterministic for a seed)."""
    rng = random.Random(seed)
    return rng.choices(_PIECES, k=count)


def text_of_size(size: int, seed: int) -> str:
    """ASCII-heavy text of about ``size`` UTF-8 bytes."""
    out: list[str] = []
    total = 0
    rng = random.Random(seed)
    while total < size:
        piece = rng.choice(_PIECES)
        out.append(piece)
        total += len(piece.encode())
    return "".join(out)


# Events a stream has besides its fragments (start, stop, usage, done events...).
_OVERHEAD = {"chat": 4, "messages": 11, "responses": 16}


def _split(fmt: str, n: int) -> tuple[int, int, int]:
    """How n events divide into reasoning, text and tool-argument fragments."""
    args = max(1, n // 10)
    text = max(1, (n * 3) // 10)
    reasoning = max(1, n - args - text - _OVERHEAD[fmt])
    return reasoning, text, args


class Expected:
    """What a correct client must rebuild from a stream."""

    def __init__(self, reasoning: str, text: str, arguments: str, events: int) -> None:
        self.reasoning = reasoning
        self.text = text
        self.arguments = arguments
        self.events = events


def _arguments(count: int, seed: int) -> list[str]:
    """Tool-call argument fragments that join into one valid JSON object."""
    body = "".join(fragments(max(1, count - 2), seed + 7)).replace("\\", "/")
    text = json.dumps({"path": "notes/summary.md", "content": body})
    # Cut the JSON text into `count` pieces of about equal size.
    step = max(1, len(text) // count)
    pieces = [text[i : i + step] for i in range(0, step * (count - 1), step)]
    pieces.append(text[step * (count - 1) :])
    return pieces


@functools.cache
def _stream_parts(fmt: str, n: int) -> tuple[list[str], list[str], list[str]]:
    r, t, a = _split(fmt, n)
    return fragments(r, SEED), fragments(t, SEED + 1), _arguments(a, SEED + 2)


def expected(fmt: str, kind: str, size: int) -> Expected:
    """The reasoning, text and tool arguments a stream scenario carries."""
    body = stream_bytes(fmt, kind, size)
    count = body.count(b"\ndata: ") + body.startswith(b"data: ")
    if kind == "big":
        return Expected("", text_of_size(size, SEED + 3), "", count)
    reasoning, text, args = _stream_parts(fmt, size)
    return Expected("".join(reasoning), "".join(text), "".join(args), count)


# --- small replies -----------------------------------------------------------------------


def _fixture(fmt: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / fmt / name).read_text())
    return data


@functools.cache
def small_reply(fmt: str) -> bytes:
    """The small JSON reply of a non-streaming call (the recorded fixture)."""
    return _dumps(_fixture(fmt, "response_text.json")).encode()


# --- streams ------------------------------------------------------------------------------


def _sse(events: list[tuple[str | None, str]]) -> bytes:
    out = []
    for name, data in events:
        if name is not None:
            out.append(f"event: {name}\ndata: {data}\n\n")
        else:
            out.append(f"data: {data}\n\n")
    return "".join(out).encode()


def _chat(reasoning: list[str], text: list[str], args: list[str]) -> bytes:
    head = (
        '{"id":"chatcmpl-5d0a8e3c1f7b4e29a6c4b8d0","object":"chat.completion.chunk",'
        '"created":1792915500,"model":"kimi-k3.1-pro","choices":[{"index":0,"delta":'
    )
    tail = ',"finish_reason":null}]}'
    ev: list[tuple[str | None, str]] = [(None, head + '{"role":"assistant","content":null}' + tail)]
    ev += [(None, head + '{"reasoning_content":' + _dumps(p) + "}" + tail) for p in reasoning]
    ev += [(None, head + '{"content":' + _dumps(p) + "}" + tail) for p in text]
    if args:
        first = {
            "tool_calls": [
                {
                    "index": 0,
                    "id": "functions.write_file:0",
                    "type": "function",
                    "function": {"name": "write_file", "arguments": args[0]},
                }
            ]
        }
        ev.append((None, head + _dumps(first) + tail))
        ev += [
            (
                None,
                head
                + '{"tool_calls":[{"index":0,"function":{"arguments":'
                + _dumps(p)
                + "}}]}"
                + tail,
            )
            for p in args[1:]
        ]
    finish = "tool_calls" if args else "stop"
    ev.append((None, head + '{},"finish_reason":"' + finish + '"}]}'))
    usage = {
        "prompt_tokens": 412,
        "completion_tokens": len(reasoning) + len(text) + len(args),
        "total_tokens": 412 + len(reasoning) + len(text) + len(args),
        "prompt_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 412},
        "completion_tokens_details": {"reasoning_tokens": len(reasoning)},
    }
    ev.append(
        (None, head[: head.index('"choices"')] + '"choices":[],"usage":' + _dumps(usage) + "}")
    )
    ev.append((None, "[DONE]"))
    return _sse(ev)


def _messages(reasoning: list[str], text: list[str], args: list[str]) -> bytes:
    start = {
        "type": "message_start",
        "message": {
            "id": "msg_2a0d5f3b94c86e7f1b8c9d0e",
            "type": "message",
            "role": "assistant",
            "model": MODEL,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {
                "input_tokens": 214,
                "cache_creation_input_tokens": 1536,
                "cache_read_input_tokens": 0,
                "cache_creation": {
                    "ephemeral_5m_input_tokens": 1536,
                    "ephemeral_1h_input_tokens": 0,
                },
                "output_tokens": 1,
            },
        },
    }
    ev: list[tuple[str | None, str]] = [("message_start", _dumps(start))]
    ev.append(("ping", '{"type":"ping"}'))
    index = 0

    def block(kind: str, body: dict[str, Any], deltas: list[str], dtype: str, field: str) -> None:
        nonlocal index
        ev.append(
            (
                "content_block_start",
                _dumps({"type": "content_block_start", "index": index, "content_block": body}),
            )
        )
        prefix = (
            f'{{"type":"content_block_delta","index":{index},"delta":{{"type":"{dtype}","{field}":'
        )
        ev.extend(("content_block_delta", prefix + _dumps(p) + "}}") for p in deltas)
        if kind == "thinking":
            sig = {"type": "signature_delta", "signature": "ErUBCkYIBRgCKkB9pQ2rS4tU6vW8xY0z=="}
            ev.append(
                (
                    "content_block_delta",
                    _dumps({"type": "content_block_delta", "index": index, "delta": sig}),
                )
            )
        ev.append(("content_block_stop", f'{{"type":"content_block_stop","index":{index}}}'))
        index += 1

    if reasoning:
        block(
            "thinking",
            {"type": "thinking", "thinking": "", "signature": ""},
            reasoning,
            "thinking_delta",
            "thinking",
        )
    if text:
        block("text", {"type": "text", "text": ""}, text, "text_delta", "text")
    if args:
        tool = {
            "type": "tool_use",
            "id": "functions.write_file:0",
            "name": "write_file",
            "input": {},
        }
        block("tool_use", tool, args, "input_json_delta", "partial_json")
    delta = {
        "type": "message_delta",
        "delta": {"stop_reason": "tool_use" if args else "end_turn", "stop_sequence": None},
        "usage": {"output_tokens": len(reasoning) + len(text) + len(args)},
    }
    ev.append(("message_delta", _dumps(delta)))
    ev.append(("message_stop", '{"type":"message_stop"}'))
    return _sse(ev)


def _responses(reasoning: list[str], text: list[str], args: list[str]) -> bytes:
    seq = 0
    ev: list[tuple[str | None, str]] = []

    def add(kind: str, body: dict[str, Any] | str) -> None:
        nonlocal seq
        if isinstance(body, dict):
            data = _dumps({"type": kind, "sequence_number": seq, **body})
        else:
            data = f'{{"type":"{kind}","sequence_number":{seq},{body}'
        ev.append((kind, data))
        seq += 1

    base: dict[str, Any] = {
        "id": "resp_1b2c3d4e5f60718293a4b5c6",
        "object": "response",
        "created_at": 1792915200,
        "status": "in_progress",
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": 131072,
        "model": MODEL,
        "output": [],
        "parallel_tool_calls": True,
        "reasoning": {"effort": "high", "summary": None},
        "temperature": 1.0,
        "text": {"format": {"type": "text"}},
        "tool_choice": "auto",
        "tools": [],
        "top_p": 0.95,
        "metadata": {},
        "usage": None,
    }
    add("response.created", {"response": base})
    add("response.in_progress", {"response": base})
    output: list[dict[str, Any]] = []
    index = 0

    def deltas(kind: str, item_id: str, pieces: list[str], content_index: bool) -> None:
        where = f'"item_id":"{item_id}","output_index":{index},'
        if content_index:
            where += '"content_index":0,'
        for p in pieces:
            add(kind, where + '"delta":' + _dumps(p) + "}")

    if reasoning:
        rid = "rs_1b2c3d4e5f60718293a4b5c7"
        full = "".join(reasoning)
        item = {
            "type": "reasoning",
            "id": rid,
            "summary": [],
            "content": [],
            "encrypted_content": None,
            "status": "in_progress",
        }
        add("response.output_item.added", {"output_index": index, "item": item})
        add(
            "response.content_part.added",
            {
                "item_id": rid,
                "output_index": index,
                "content_index": 0,
                "part": {"type": "reasoning_text", "text": ""},
            },
        )
        deltas("response.reasoning_text.delta", rid, reasoning, True)
        add(
            "response.reasoning_text.done",
            {"item_id": rid, "output_index": index, "content_index": 0, "text": full},
        )
        part = {"type": "reasoning_text", "text": full}
        add(
            "response.content_part.done",
            {"item_id": rid, "output_index": index, "content_index": 0, "part": part},
        )
        done = {
            "type": "reasoning",
            "id": rid,
            "summary": [],
            "content": [part],
            "encrypted_content": None,
        }
        add("response.output_item.done", {"output_index": index, "item": done})
        output.append(done)
        index += 1
    if text:
        mid = "msg_1b2c3d4e5f60718293a4b5d0"
        full = "".join(text)
        item = {
            "type": "message",
            "id": mid,
            "status": "in_progress",
            "role": "assistant",
            "content": [],
        }
        add("response.output_item.added", {"output_index": index, "item": item})
        empty = {"type": "output_text", "text": "", "annotations": [], "logprobs": []}
        add(
            "response.content_part.added",
            {"item_id": mid, "output_index": index, "content_index": 0, "part": empty},
        )
        deltas("response.output_text.delta", mid, text, True)
        add(
            "response.output_text.done",
            {
                "item_id": mid,
                "output_index": index,
                "content_index": 0,
                "text": full,
                "logprobs": [],
            },
        )
        part = {"type": "output_text", "text": full, "annotations": [], "logprobs": []}
        add(
            "response.content_part.done",
            {"item_id": mid, "output_index": index, "content_index": 0, "part": part},
        )
        done = {
            "type": "message",
            "id": mid,
            "status": "completed",
            "role": "assistant",
            "content": [part],
        }
        add("response.output_item.done", {"output_index": index, "item": done})
        output.append(done)
        index += 1
    if args:
        fid = "fc_1b2c3d4e5f60718293a4b5c8"
        full = "".join(args)
        item = {
            "type": "function_call",
            "id": fid,
            "call_id": "functions.write_file:0",
            "name": "write_file",
            "arguments": "",
            "status": "in_progress",
        }
        add("response.output_item.added", {"output_index": index, "item": item})
        deltas("response.function_call_arguments.delta", fid, args, False)
        add(
            "response.function_call_arguments.done",
            {"item_id": fid, "output_index": index, "name": "write_file", "arguments": full},
        )
        done = {**item, "arguments": full, "status": "completed"}
        add("response.output_item.done", {"output_index": index, "item": done})
        output.append(done)
    final = {
        **base,
        "status": "completed",
        "output": output,
        "usage": {
            "input_tokens": 402,
            "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 402},
            "output_tokens": len(reasoning) + len(text) + len(args),
            "output_tokens_details": {"reasoning_tokens": len(reasoning)},
            "total_tokens": 402 + len(reasoning) + len(text) + len(args),
        },
    }
    add("response.completed", {"response": final})
    return _sse(ev)


_BUILDERS = {"chat": _chat, "messages": _messages, "responses": _responses}


@functools.cache
def stream_bytes(fmt: str, kind: str, size: int) -> bytes:
    """The SSE body of a stream scenario."""
    if kind == "big":
        return _BUILDERS[fmt]([], [text_of_size(size, SEED + 3)], [])
    reasoning, text, args = _stream_parts(fmt, size)
    return _BUILDERS[fmt](reasoning, text, args)


def build_body(key: str) -> tuple[str, bytes, bool]:
    """``(content type, body, chunked)`` for a scenario key (see the module docstring)."""
    fmt, kind, size = key.split(".")
    if fmt not in _BUILDERS:
        raise KeyError(f"unknown format in scenario {key!r}")
    if kind == "small":
        return "application/json", small_reply(fmt), False
    if kind in ("stream", "big"):
        return "text/event-stream; charset=utf-8", stream_bytes(fmt, kind, int(size)), True
    raise KeyError(f"unknown scenario {key!r}")


# --- histories ----------------------------------------------------------------------------

SYSTEM = "You are a careful coding agent. " + text_of_size(2000, SEED + 10)


def _call_args(rng: random.Random, k: int) -> str:
    return json.dumps(
        {"path": f"src/module_{k}.py", "start": rng.randint(1, 400), "end": rng.randint(401, 900)}
    )


@functools.cache
def history_turns(turns: int, scale: int = 1250) -> list[dict[str, Any]]:
    """A format-neutral script of ``turns`` assistant turns: their reasoning, text and tool
    calls (with results), and the user messages between them. About 12.5 * scale bytes of
    text per turn (the default scale: ~2.5 MB for 200 turns)."""
    rng = random.Random(SEED + 20)
    script: list[dict[str, Any]] = []
    call = 0
    for t in range(turns):
        user = text_of_size(3 * scale // 10, SEED + 1000 + t) if t % 4 == 0 else None
        final = t % 4 == 3 and t != turns - 1
        calls = []
        if not final:
            for _ in range(1 + (t % 2)):
                calls.append(
                    {
                        "id": f"functions.read_file:{call}",
                        "name": "read_file",
                        "arguments": _call_args(rng, call),
                        "result": text_of_size(7 * scale // 2, SEED + 5000 + call),
                    }
                )
                call += 1
        script.append(
            {
                "user": user,
                "reasoning": text_of_size(6 * scale, SEED + 3000 + t),
                "text": text_of_size(scale // 2, SEED + 4000 + t) if final else "",
                "calls": calls,
            }
        )
    return script


def history_messages(fmt: str, turns: int, scale: int = 1250) -> tuple[Any, dict[str, Any]]:
    """``(history object, extra request fields)`` for a format, built the way an
    application builds it: ``add()`` of each reply and ``add_tool_result`` for each call.
    ``history.to_wire()`` is the plain list."""
    import kimi_ext
    from kimi_ext import ChatCompletion, Message, Response

    script = history_turns(turns, scale)
    if fmt == "chat":
        chat = kimi_ext.ChatHistory(system=SYSTEM)
        for n, turn in enumerate(script):
            if turn["user"]:
                chat.add_user(turn["user"])
            message: dict[str, Any] = {
                "role": "assistant",
                "content": turn["text"] or None,
                "reasoning_content": turn["reasoning"],
            }
            if turn["calls"]:
                message["tool_calls"] = [
                    {
                        "id": c["id"],
                        "type": "function",
                        "function": {"name": c["name"], "arguments": c["arguments"]},
                    }
                    for c in turn["calls"]
                ]
            reply = {
                "id": f"chatcmpl-{n}",
                "object": "chat.completion",
                "model": MODEL,
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            }
            chat.add(ChatCompletion(reply))
            for c in turn["calls"]:
                chat.add_tool_result(c["id"], c["result"])
        return chat, {}
    if fmt == "messages":
        msgs = kimi_ext.MessagesHistory(system=SYSTEM)
        for n, turn in enumerate(script):
            if turn["user"]:
                msgs.add_user(turn["user"])
            content: list[dict[str, Any]] = [
                {
                    "type": "thinking",
                    "thinking": turn["reasoning"],
                    "signature": f"EqQBCkYIBRgC{n:06d}==",
                }
            ]
            if turn["text"]:
                content.append({"type": "text", "text": turn["text"]})
            content += [
                {
                    "type": "tool_use",
                    "id": c["id"],
                    "name": c["name"],
                    "input": json.loads(c["arguments"]),
                }
                for c in turn["calls"]
            ]
            reply = {
                "id": f"msg_{n}",
                "type": "message",
                "role": "assistant",
                "model": MODEL,
                "content": content,
                "stop_reason": "tool_use" if turn["calls"] else "end_turn",
            }
            msgs.add(Message(reply))
            for c in turn["calls"]:
                msgs.add_tool_result(c["id"], c["result"])
        return msgs, {"system": SYSTEM}
    resp = kimi_ext.ResponsesHistory(instructions=SYSTEM)
    for n, turn in enumerate(script):
        if turn["user"]:
            resp.add_user(turn["user"])
        output: list[dict[str, Any]] = [
            {
                "type": "reasoning",
                "id": f"rs_{n}",
                "summary": [],
                "content": [{"type": "reasoning_text", "text": turn["reasoning"]}],
            }
        ]
        if turn["text"]:
            output.append(
                {
                    "type": "message",
                    "id": f"msg_{n}",
                    "status": "completed",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": turn["text"], "annotations": []}],
                }
            )
        output += [
            {
                "type": "function_call",
                "id": f"fc_{c['id']}",
                "call_id": c["id"],
                "name": c["name"],
                "arguments": c["arguments"],
                "status": "completed",
            }
            for c in turn["calls"]
        ]
        reply = {
            "id": f"resp_{n}",
            "object": "response",
            "model": MODEL,
            "status": "completed",
            "output": output,
        }
        resp.add(Response(reply))
        for c in turn["calls"]:
            resp.add_tool_result(c["id"], c["result"])
    return resp, {"instructions": SYSTEM}
