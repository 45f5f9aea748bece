"""Kimi as it really streams (issue 13): the quirks of real streams, in bytes written here.

Each test feeds the stream classes (or a client talking to a loopback server) the exact
bytes of one quirk and checks that nothing is lost, invented or delayed.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import kimi_ext
from kimi_ext import (
    AsyncKimi,
    ChatCompletion,
    ChatHistory,
    InvalidToolCallError,
    Kimi,
    Message,
    MessagesHistory,
    Response,
    ResponsesHistory,
)
from kimi_ext._core.call.building import prepare
from kimi_ext._core.streaming.stream import DRAIN_GRACE
from kimi_ext._core.transport import wire_errors
from kimi_ext.formats import CHAT
from tests.support.streams import SECRET, open_sync


def sse(*events: Any, done: bool = False) -> bytes:
    """An SSE body: each event a dict (``data:`` only) or (name, dict)."""
    out = []
    for event in events:
        if isinstance(event, tuple):
            name, data = event
            out.append(f"event: {name}\ndata: {json.dumps(data)}\n\n")
        else:
            out.append(f"data: {json.dumps(event)}\n\n")
    if done:
        out.append("data: [DONE]\n\n")
    return "".join(out).encode()


def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish, **extra}
    return {"id": "c1", "object": "chat.completion.chunk", "model": "kimi-k3.1-pro",
            "choices": [choice]}  # fmt: skip


def msg_events(*blocks: Any, stop_reason: str = "end_turn") -> list[tuple[str, Any]]:
    """message_start, the given block events, message_delta and message_stop."""
    start = {"type": "message_start", "message": {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "kimi-k3.1-pro",
        "content": [], "stop_reason": None, "usage": {"input_tokens": 5, "output_tokens": 1}}}  # fmt: skip
    tail = [
        {"type": "message_delta", "delta": {"stop_reason": stop_reason}, "usage": {"output_tokens": 9}},
        {"type": "message_stop"},
    ]  # fmt: skip
    return [(e["type"], e) for e in [start, *blocks, *tail]]


def block_start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def block_delta(index: int, delta: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": delta}


def block_stop(index: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": index}


def final(fmt: str, body: bytes) -> Any:
    stream = open_sync(fmt, [body])
    return getattr(stream, {"chat": "get_final_completion", "messages": "get_final_message",
                            "responses": "get_final_response"}[fmt])()  # fmt: skip


# ----------------------------------------------------------- 1. Responses: renamed items


def responses_body(streamed_id: str, completed_output: list[Any] | None) -> bytes:
    reasoning = {"type": "reasoning", "id": streamed_id, "summary": [], "content": []}
    message = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
               "content": [{"type": "output_text", "text": "Hi.", "annotations": []}]}  # fmt: skip
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": "r1", "status": "in_progress", "output": []}},
        {"type": "response.output_item.added", "output_index": 0, "item": reasoning},
        {"type": "response.reasoning_text.delta", "output_index": 0, "item_id": streamed_id,
         "content_index": 0, "delta": "Think."},
        {"type": "response.output_item.done", "output_index": 0, "item": {
            **reasoning, "content": [{"type": "reasoning_text", "text": "Think."}]}},
        {"type": "response.output_item.added", "output_index": 1, "item": {**message, "content": []}},
        {"type": "response.output_text.delta", "output_index": 1, "item_id": "msg_1",
         "content_index": 0, "delta": "Hi."},
        {"type": "response.output_item.done", "output_index": 1, "item": message},
    ]  # fmt: skip
    completed: dict[str, Any] = {"id": "r1", "status": "completed", "model": "kimi-k3.1-pro",
                                 "usage": {"input_tokens": 3, "output_tokens": 2}}  # fmt: skip
    if completed_output is not None:
        completed["output"] = completed_output
    events.append({"type": "response.completed", "response": completed})
    return sse(*[(e["type"], e) for e in events])


RENAMED = {"type": "reasoning", "id": "rs_1", "summary": [],
           "content": [{"type": "reasoning_text", "text": "Think."}]}  # fmt: skip
MESSAGE = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
           "content": [{"type": "output_text", "text": "Hi.", "annotations": []}]}  # fmt: skip


def test_responses_renamed_item_is_not_kept_twice() -> None:
    response = final("responses", responses_body("rs_tmp_1", [RENAMED, MESSAGE]))
    assert response.output == [RENAMED, MESSAGE]  # the terminal output, as it came
    history = ResponsesHistory()
    history.add_user("hi")
    history.add(response)
    assert [item.get("id") for item in history.to_wire()] == [None, "rs_1", "msg_1"]


@pytest.mark.parametrize("output", [None, []])
def test_responses_missing_or_empty_terminal_output_is_filled_from_the_stream(
    output: list[Any] | None,
) -> None:
    response = final("responses", responses_body("rs_tmp_1", output))
    assert [item["id"] for item in response.output] == ["rs_tmp_1", "msg_1"]
    assert response.text == "Hi." and response.reasoning == "Think."


# ---------------------------------------------------- 2. control characters in arguments

RAW_ARGS = '{"path": "a.txt", "text": "line one\nline\ttwo"}'  # literal LF and TAB
ESCAPED_ARGS = '{"path": "a.txt", "text": "line one\\nline\\ttwo"}'
DECODED = {"path": "a.txt", "text": "line one\nline\ttwo"}


def chat_call_body(arguments: list[str], finish: str = "tool_calls", done: bool = True) -> bytes:
    head = {"index": 0, "id": "functions.write:0", "type": "function",
            "function": {"name": "write", "arguments": ""}}  # fmt: skip
    events = [chunk({"role": "assistant", "reasoning_content": "Write it."}),
              chunk({"tool_calls": [head]})]  # fmt: skip
    events += [
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": a}}]}) for a in arguments
    ]
    events.append(chunk({}, finish))
    return sse(*events, done=done)


def test_chat_arguments_with_raw_control_characters_decode_and_replay_escaped() -> None:
    completion = final("chat", chat_call_body([RAW_ARGS[:20], RAW_ARGS[20:]]))
    call = completion.tool_calls[0]
    assert call.arguments == RAW_ARGS  # kept as received
    assert call.input == DECODED and not call.truncated
    history = ChatHistory()
    history.add_user("write")
    history.add(completion)
    history.add_tool_result(call.id, "ok")
    sent = history.to_wire()[1]["tool_calls"][0]["function"]["arguments"]
    assert sent == ESCAPED_ARGS  # only the control characters changed
    assert json.loads(sent) == DECODED
    body = prepare(CHAT, {"model": "kimi-k3.1-pro", "messages": history}).content
    assert json.loads(body)["messages"][1]["tool_calls"][0]["function"]["arguments"] == sent
    assert (
        completion.to_dict()["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
        == RAW_ARGS
    )  # the result itself is untouched


def test_messages_and_responses_arguments_with_raw_control_characters() -> None:
    body = sse(*msg_events(
        block_start(0, {"type": "tool_use", "id": "functions.write:0", "name": "write", "input": {}}),
        block_delta(0, {"type": "input_json_delta", "partial_json": RAW_ARGS[:25]}),
        block_delta(0, {"type": "input_json_delta", "partial_json": RAW_ARGS[25:]}),
        block_stop(0),
        stop_reason="tool_use",
    ))  # fmt: skip
    message = final("messages", body)
    assert message.content[0]["input"] == DECODED and "partial_json" not in message.content[0]
    assert message.tool_calls[0].input == DECODED
    item = {"type": "function_call", "id": "fc_1", "call_id": "functions.write:0",
            "name": "write", "arguments": RAW_ARGS, "status": "completed"}  # fmt: skip
    response = Response({"status": "completed", "output": [item]})
    assert response.tool_calls[0].input == DECODED
    history = ResponsesHistory()
    history.add_user("write")
    history.add(response)
    history.add_tool_result("functions.write:0", "ok")
    assert history.to_wire()[1]["arguments"] == ESCAPED_ARGS


def test_arguments_that_are_not_json_for_another_reason_raise_a_clear_error() -> None:
    completion = final("chat", chat_call_body(['{"path": "a.txt",, }']))
    call = completion.tool_calls[0]
    assert not call.truncated and not call.usable
    with pytest.raises(InvalidToolCallError, match="not valid JSON") as info:
        _ = call.input
    assert isinstance(info.value, ValueError) and info.value.arguments == '{"path": "a.txt",, }'


# -------------------------------------------------- 3. a tool call cut by the output limit

CUT = '{"path": "a.txt", "text": "the be'


def test_messages_tool_use_cut_at_max_tokens_is_marked_and_never_looks_valid() -> None:
    body = sse(*msg_events(
        block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        block_delta(0, {"type": "thinking_delta", "thinking": "Write it."}),
        block_delta(0, {"type": "signature_delta", "signature": "EsSig"}),
        block_stop(0),
        block_start(1, {"type": "tool_use", "id": "functions.write:0", "name": "write", "input": {}}),
        block_delta(1, {"type": "input_json_delta", "partial_json": CUT[:10]}),
        block_delta(1, {"type": "input_json_delta", "partial_json": CUT[10:]}),
        stop_reason="max_tokens",
    ))  # fmt: skip
    message = final("messages", body)
    assert message.content[1]["partial_json"] == CUT  # the partial text is kept
    call = message.tool_calls[0]
    assert call.truncated and not call.usable and call.arguments == CUT
    with pytest.raises(InvalidToolCallError, match="cut by the output limit") as info:
        _ = call.input
    assert info.value.truncated and info.value.arguments == CUT
    history = MessagesHistory()
    history.add_user("write")
    history.add(message)
    history.add_tool_result(call.id, "?")
    with pytest.raises(kimi_ext.HistoryError, match="cut before its input was complete"):
        history.validate()


def test_messages_tool_use_cut_before_any_input_is_still_truncated() -> None:
    body = sse(*msg_events(
        block_start(0, {"type": "tool_use", "id": "functions.write:0", "name": "write", "input": {}}),
        stop_reason="max_tokens",
    ))  # fmt: skip
    call = final("messages", body).tool_calls[0]
    assert call.truncated and call.arguments == ""
    with pytest.raises(InvalidToolCallError):
        _ = call.input


def test_messages_last_tool_use_at_max_tokens_is_not_trusted() -> None:
    use = {"type": "tool_use", "id": "functions.f:0", "name": "f", "input": {}}
    cut = Message({"role": "assistant", "content": [dict(use)], "stop_reason": "max_tokens"})
    assert cut.tool_calls[0].truncated  # still being written when the limit hit
    with pytest.raises(InvalidToolCallError):
        _ = cut.tool_calls[0].input
    text_after = Message({"role": "assistant", "stop_reason": "max_tokens",
                          "content": [dict(use), {"type": "text", "text": "and th"}]})  # fmt: skip
    assert not text_after.tool_calls[0].truncated  # the call ended before the text began
    done = Message({"role": "assistant", "content": [dict(use)], "stop_reason": "tool_use"})
    assert not done.tool_calls[0].truncated and done.tool_calls[0].input == {}


def test_chat_call_cut_at_length_and_responses_incomplete_call() -> None:
    completion = final("chat", chat_call_body([CUT], finish="length"))
    call = completion.tool_calls[0]
    assert call.truncated and call.arguments == CUT
    with pytest.raises(InvalidToolCallError, match="cut by the output limit"):
        _ = call.input
    empty = final("chat", chat_call_body([], finish="length")).tool_calls[0]
    assert empty.truncated  # not one character of arguments: not a call with no arguments
    whole = final("chat", chat_call_body(['{"path": "a.txt"}'], finish="length")).tool_calls[0]
    assert not whole.truncated and whole.input == {"path": "a.txt"}
    item = {"type": "function_call", "call_id": "functions.write:0", "name": "write",
            "arguments": CUT, "status": "incomplete"}  # fmt: skip
    response = Response({"status": "incomplete", "output": [item]})
    assert response.tool_calls[0].truncated
    with pytest.raises(InvalidToolCallError):
        _ = response.tool_calls[0].input
    history = ChatHistory()
    history.add_user("write")
    history.add(completion)
    history.add_tool_result(call.id, "?")
    with pytest.raises(kimi_ext.HistoryError, match="not valid JSON"):
        history.validate()


# ---------------------------------------------------------- 4. the older usage form


def test_chat_top_level_cached_tokens_on_the_choice() -> None:
    usage = {"prompt_tokens": 100, "completion_tokens": 5, "total_tokens": 105, "cached_tokens": 64}
    body = sse(chunk({"content": "Hi"}), chunk({}, "stop", usage=usage), done=True)
    completion = final("chat", body)
    assert completion.usage.cache_read == 64 and completion.usage.total_input == 100
    assert kimi_ext.usage_of(completion).cache_read == 64
    both = {**usage, "prompt_tokens_details": {"cached_tokens": 32}}
    assert (
        ChatCompletion({"choices": [], "usage": both}).usage.cache_read == 32
    )  # the new form wins


# --------------------------------------------------------------- 5. unknown delta types


def test_unknown_delta_types_inside_a_known_block_are_merged() -> None:
    body = sse(*msg_events(
        block_start(0, {"type": "text", "text": ""}),
        block_delta(0, {"type": "text_delta", "text": "Hello"}),
        block_delta(0, {"type": "note_delta", "note": "un", "marks": [1]}),
        block_delta(0, {"type": "note_delta", "note": "known", "marks": [2]}),
        block_delta(0, {"type": "level_delta", "level": {"n": 1}}),
        block_delta(0, {"type": "level_delta", "level": {"n": 2}}),
        block_stop(0),
    ))  # fmt: skip
    block = final("messages", body).content[0]
    assert block == {"type": "text", "text": "Hello", "note": "unknown", "marks": [1, 2],
                     "level": {"n": 2}}  # fmt: skip


# ----------------------------------------------------------- 6. refusal-only Chat stream


def test_refusal_only_chat_stream_gives_null_content() -> None:
    body = sse(chunk({"role": "assistant", "content": ""}), chunk({"refusal": "I can't "}),
               chunk({"refusal": "help."}), chunk({}, "stop"), done=True)  # fmt: skip
    message = final("chat", body).message
    assert message["content"] is None and message["refusal"] == "I can't help."
    plain = final(
        "chat", sse(chunk({"role": "assistant", "content": ""}), chunk({}, "stop"), done=True)
    )
    assert plain.message["content"] == ""  # no refusal, no calls: the text, even empty


# ---------------------------------------------------------------------- 7. request ids


def test_x_trace_id_is_the_request_id_when_x_request_id_is_absent() -> None:
    response = httpx.Response(200, headers={"x-trace-id": "trace-7"})
    assert ChatCompletion({}, response).request_id == "trace-7"
    both = httpx.Response(200, headers={"x-trace-id": "trace-7", "x-request-id": "req-1"})
    assert ChatCompletion({}, both).request_id == "req-1"
    error = wire_errors.status_error_from_event(
        {"error": {"message": "boom", "type": "server_error"}},
        response=httpx.Response(500, headers={"x-trace-id": "trace-8"}),
        secret=SECRET,
    )
    assert error.request_id == "trace-8"


# --------------------------------------------------------------- 8. string tool input


def test_messages_tool_input_sent_as_a_json_string_decodes_to_an_object() -> None:
    block = {"type": "tool_use", "id": "functions.f:0", "name": "f", "input": '{"city": "Oslo"}'}
    message = Message({"role": "assistant", "content": [block], "stop_reason": "tool_use"})
    call = message.tool_calls[0]
    assert call.input == {"city": "Oslo"} and call.arguments == '{"city": "Oslo"}'
    history2 = MessagesHistory()
    history2.add_user("q")
    history2.add(Message({**message.to_dict(), "model": "kimi-k3"}))
    assert history2[1]["content"][0]["input"] == {"city": "Oslo"}  # replayed as an object


# ---------------------------------------------------------- 9. split surrogate pairs


def test_surrogate_pairs_split_across_deltas_are_joined() -> None:
    # each UTF-16 half escaped on its own, in two deltas (json.dumps writes \ud83d itself)
    body = (
        b'data: {"choices":[{"index":0,"delta":{"content":"Hi \\ud83d"}}]}\n\n'
        b'data: {"choices":[{"index":0,"delta":{"content":"\\ude00!"}}]}\n\n'
        b'data: {"choices":[{"index":0,"delta":{"reasoning_content":"\\ud83d"}}]}\n\n'
        b'data: {"choices":[{"index":0,"delta":{"reasoning_content":"\\ude80"}}]}\n\n'
        b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    )
    completion = final("chat", body)
    assert completion.text == "Hi \U0001f600!" and completion.reasoning == "\U0001f680"
    messages = (
        b'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,'
        b'"delta":{"type":"text_delta","text":"\\ud83d"}}\n\n'
        b'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,'
        b'"delta":{"type":"text_delta","text":"\\ude00"}}\n\n'
        b'event: message_stop\ndata: {"type":"message_stop"}\n\n'
    )
    assert final("messages", messages).text == "\U0001f600"


SPLIT = (
    b'data: {"choices":[{"index":0,"delta":{"reasoning_content":"a\\ud83d"}}]}\n\n'
    b'data: {"choices":[{"index":0,"delta":{"reasoning_content":"\\ude80b"}}]}\n\n'
    b'data: {"choices":[{"index":0,"delta":{"content":"Hi \\ud83d"}}]}\n\n'
    b'data: {"choices":[{"index":0,"delta":{"content":"\\ude00!"}}]}\n\n'
    b'data: {"choices":[{"index":0,"delta":{"content":" \\ud83d"}}]}\n\n'
    b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
)


def test_text_stream_and_fragments_deliver_whole_characters() -> None:
    texts = list(open_sync("chat", [SPLIT]).text_stream)
    assert texts == ["Hi ", "\U0001f600!", " ", "\ud83d"]  # the lone last half comes at the end
    assert all(t.encode("utf-8") for t in texts[:-1])  # printable as they come
    fragments = list(open_sync("chat", [SPLIT]).fragments)
    assert fragments == [("reasoning", "a"), ("reasoning", "\U0001f680b"), ("text", "Hi "),
                         ("text", "\U0001f600!"), ("text", " "), ("text", "\ud83d")]  # fmt: skip


async def test_async_text_stream_delivers_whole_characters() -> None:
    from tests.support.streams import ASYNC, bare_response

    stream = ASYNC["chat"](bare_response([SPLIT]), secret=SECRET)
    assert [t async for t in stream.text_stream] == ["Hi ", "\U0001f600!", " ", "\ud83d"]
    stream = ASYNC["chat"](bare_response([SPLIT]), secret=SECRET)
    kinds = [f async for f in stream.fragments]
    assert kinds[:2] == [("reasoning", "a"), ("reasoning", "\U0001f680b")]
    assert kinds[-1] == ("text", "\ud83d")


def test_a_lone_surrogate_keeps_the_history_sendable_and_saveable() -> None:
    body = (
        b'data: {"choices":[{"index":0,"delta":{"reasoning_content":"r\\ud83d"}}]}\n\n'
        b'data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\n\n'
        b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    )
    completion = final("chat", body)
    assert completion.reasoning == "r\ud83d"  # kept as the server sent it
    history = ChatHistory()
    history.add_user("hi")
    history.add(completion)
    history.add_user("more")
    content = prepare(CHAT, {"model": "kimi-k3.1-pro", "messages": history}).content
    assert b'"r\\ud83d"' in content  # a JSON escape: valid JSON, valid UTF-8
    assert json.loads(content)["messages"][1]["reasoning_content"] == "r\ud83d"
    text = history.dumps()
    text.encode("utf-8")  # saveable
    assert ChatHistory.loads(text) == history


# ------------------------------------------------ 10. hand-over at the terminal event


class HeldOpenServer:
    """A loopback HTTP server that answers one request per connection with ``body`` (a
    chunked SSE body whose end is never sent) and then keeps the connection open, silently
    or writing keep-alive comments, until the test ends."""

    def __init__(self, body: bytes, *, keep_alive: bool = False) -> None:
        self.body = body
        self.keep_alive = keep_alive
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _serve(self) -> None:
        self.sock.settimeout(0.1)
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(65536)
            head, _, rest = data.partition(b"\r\n\r\n")
            length = next(
                int(line.split(b":")[1]) for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            )  # fmt: skip
            while len(rest) < length:
                rest += conn.recv(65536)
            conn.sendall(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                b"transfer-encoding: chunked\r\nx-trace-id: trace-held\r\n\r\n"
                + b"%x\r\n%s\r\n"
                % (len(self.body), self.body)
            )
            while not self.stop.wait(0.05):
                if self.keep_alive:
                    try:
                        conn.sendall(b"d\r\n: keep-alive\n\r\n")
                    except OSError:
                        return

    def close(self) -> None:
        self.stop.set()
        self.sock.close()
        self.thread.join(timeout=5)


HELD = {
    "chat": sse(chunk({"content": "Done."}), chunk({}, "stop"),
                {"choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 1}}, done=True),
    "messages": sse(*msg_events(block_start(0, {"type": "text", "text": ""}),
                                block_delta(0, {"type": "text_delta", "text": "Done."}),
                                block_stop(0))),
    "responses": sse(("response.completed", {"type": "response.completed", "response": {
        "id": "r", "status": "completed", "output": [MESSAGE | {"content": [
            {"type": "output_text", "text": "Done.", "annotations": []}]}]}})),
}  # fmt: skip
PARAMS = {
    "chat": {"messages": [{"role": "user", "content": "hi"}]},
    "messages": {"max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]},
    "responses": {"input": "hi"},
}


@pytest.fixture(params=[False, True], ids=["silent", "keep-alive"])
def held(request: pytest.FixtureRequest) -> Iterator[tuple[bool, dict[str, HeldOpenServer]]]:
    servers = {fmt: HeldOpenServer(body, keep_alive=request.param) for fmt, body in HELD.items()}
    yield request.param, servers
    for server in servers.values():
        server.close()


def resource(client: Any, fmt: str) -> Any:
    return {"chat": client.chat.completions, "messages": client.messages,
            "responses": client.responses}[fmt]  # fmt: skip


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_result_is_handed_over_at_the_terminal_event(
    fmt: str, held: tuple[bool, dict[str, HeldOpenServer]]
) -> None:
    server = held[1][fmt]
    timeout = httpx.Timeout(30.0)
    with Kimi(api_key="k", base_url=server.url, fallback_base_url=None, max_retries=0,
              timeout=timeout) as client:  # fmt: skip
        started = time.monotonic()
        with resource(client, fmt).stream(model="kimi-k3.1-pro", **PARAMS[fmt]) as stream:
            result = stream.get_final_completion() if fmt == "chat" else (
                stream.get_final_message() if fmt == "messages" else stream.get_final_response()
            )  # fmt: skip
            assert stream.response.is_closed
        elapsed = time.monotonic() - started
    assert result.text == "Done." and result.request_id == "trace-held"
    assert elapsed < DRAIN_GRACE + 2.0  # not the 30 s read timeout


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
async def test_async_result_is_handed_over_at_the_terminal_event(
    fmt: str, held: tuple[bool, dict[str, HeldOpenServer]]
) -> None:
    server = held[1][fmt]
    client = AsyncKimi(api_key="k", base_url=server.url, fallback_base_url=None,
                       max_retries=0, timeout=httpx.Timeout(30.0))  # fmt: skip
    try:
        started = time.monotonic()
        async with resource(client, fmt).stream(model="kimi-k3.1-pro", **PARAMS[fmt]) as stream:
            events = [event async for event in stream]
            assert stream.response.is_closed
        elapsed = time.monotonic() - started
    finally:
        await client.close()
    assert events and elapsed < DRAIN_GRACE + 2.0


def test_a_body_that_ends_after_the_terminal_event_keeps_the_connection_pooled() -> None:
    from kimi_ext.testing import KimiStandIn

    with KimiStandIn() as standin, httpx.Client() as http:
        client = Kimi(api_key=standin.api_key, base_url=standin.base_url,
                      fallback_base_url=None, http_client=http)  # fmt: skip
        for _ in range(3):
            with client.chat.completions.stream(model="kimi-k3.1-pro", **PARAMS["chat"]) as s:
                s.get_final_completion()
        ports = {request.client[1] for request in standin.requests}
    assert len(ports) == 1  # one connection, reused


# ------------------------------------------------------------ 11. Chat without [DONE]


def test_chat_stream_ending_after_finish_reason_without_done_is_flagged() -> None:
    body = sse(chunk({"content": "Hi"}), chunk({}, "stop"))
    completion = final("chat", body)
    assert completion.text == "Hi" and completion.done_missing
    assert completion.to_dict()["usage"] is None  # the usage chunk never came: said, not hidden
    complete = final("chat", sse(chunk({"content": "Hi"}), chunk({}, "stop"), done=True))
    assert not complete.done_missing
    assert not ChatCompletion({"choices": []}).done_missing  # create() results
    with pytest.raises(kimi_ext.IncompleteStreamError):  # no finish_reason: cut
        final("chat", sse(chunk({"content": "Hi"})))


def test_chat_stream_ending_cleanly_with_a_choice_unfinished_is_incomplete() -> None:
    two = chunk({"content": "Hi"})
    two["choices"].append({"index": 1, "delta": {"content": "Yo"}, "finish_reason": None})
    # n=2: choice 0 finished, choice 1 never did: the body ended early, not after the answer.
    with pytest.raises(kimi_ext.IncompleteStreamError) as info:
        final("chat", sse(two, chunk({}, "stop")))
    assert info.value.partial.text == "Hi"
    done = chunk({}, "stop")
    done["choices"].append({"index": 1, "delta": {}, "finish_reason": "length"})
    both = final("chat", sse(two, done))
    assert both.done_missing and [c["finish_reason"] for c in both.choices] == ["stop", "length"]


@pytest.mark.parametrize(
    ("fmt", "broken"), [("chat", True), ("messages", True), ("messages", False)]
)
def test_a_stream_cut_after_the_answer_finished_is_incomplete(fmt: str, broken: bool) -> None:
    """A broken connection is never taken for the end: the client cannot tell what else was
    coming (Chat's usage chunk...); nor is a Messages body ending before message_stop. The
    partial holds the finished answer, which resume() returns as it is, without a request
    (tests/continuation/test_continuation.py)."""
    if fmt == "chat":
        body = sse(chunk({"content": "Hi"}), chunk({}, "stop"))
    else:
        events = msg_events(
            block_start(0, {"type": "text", "text": ""}),
            block_delta(0, {"type": "text_delta", "text": "Hi"}),
            block_stop(0),
        )
        body = sse(*events[:-1])
    error = httpx.RemoteProtocolError("incomplete chunked read") if broken else None
    stream = open_sync(fmt, [body], error)
    with pytest.raises(kimi_ext.IncompleteStreamError) as info:
        list(stream)
    partial = info.value.partial
    assert partial.text == "Hi"
    assert (partial.finish_reason if fmt == "chat" else partial.stop_reason) is not None


# ----------------------------------------------------------- 12. unsigned thinking


def test_thinking_streamed_without_signature_goes_back_as_it_arrived() -> None:
    body = sse(*msg_events(
        block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        block_delta(0, {"type": "thinking_delta", "thinking": "Call it."}),
        block_stop(0),
        block_start(1, {"type": "tool_use", "id": "functions.f:0", "name": "f", "input": {}}),
        block_delta(1, {"type": "input_json_delta", "partial_json": "{}"}),
        block_stop(1),
        stop_reason="tool_use",
    ))  # fmt: skip
    message = final("messages", body)
    thinking = message.content[0]
    assert thinking == {"type": "thinking", "thinking": "Call it.", "signature": ""}
    history = MessagesHistory()
    history.add_user("q")
    history.add(message)
    history.add_tool_result("functions.f:0", "r")
    assert history.to_wire()[1]["content"][0] == thinking  # unchanged, not refused
    history[1]["content"][0] = {**thinking, "thinking": "Changed."}
    with pytest.raises(kimi_ext.HistoryError, match="changed after receipt"):
        history.validate()
