"""The MessagesHistory: a conversation that keeps every assistant turn exactly as received
(the rules are in :mod:`kimi_ext._core.model.history`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kimi_ext._core.contract.replay import first_duplicate
from kimi_ext._core.model.history import (
    THINKING_TYPES,
    SystemHistory,
    Turn,
    as_content,
    block_refs,
    fingerprint,
    history_arguments,
    ids_changed,
    thinking_required,
    unanswered,
)
from kimi_ext._core.model.media import image_block
from kimi_ext._core.model.result import parse_arguments
from kimi_ext.errors import HistoryError
from kimi_ext.messages.result import Message

__all__ = ["MessagesHistory"]


class MessagesHistory(SystemHistory):
    """A Messages conversation; pass it as ``messages=`` and its :attr:`system` as
    ``system=``.

    The results of one assistant turn's tool calls go into one user message (``tool_result``
    blocks, ``is_error`` set for errors); text added after them joins that message.
    """

    result_type = Message

    @history_arguments
    def add_user(self, content: str | list[dict[str, Any]], *, images: Iterable[Any] = ()) -> None:
        """Append a user message: text or content blocks (``image``, ``document``...).
        ``images`` are paths or bytes turned into base64 ``image`` blocks after the text.
        Right after tool results, the content joins their user message."""
        if images:
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
            content = [*blocks, *(image_block(img) for img in images)]
        last = self._tool_result_message()
        if last is None:
            self.append({"role": "user", "content": content})
            return
        extra = [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
        message = self._items[-1]
        self._items[-1] = {**message, "content": [*message["content"], *extra]}

    def _tool_result_message(self) -> list[Any] | None:
        """The content of the last message when it is a user message after an assistant turn
        (where tool results go), else None."""
        items = self._items
        if len(items) < 2 or items[-2].get("role") != "assistant":
            return None
        last = items[-1]
        content = last.get("content")
        if last.get("role") != "user" or not isinstance(content, list):
            return None
        if not any(type(b) is dict and b.get("type") == "tool_result" for b in content):
            return None
        return content

    def _add_result(self, result: Message) -> None:
        content = [_replayable_block(b) for b in result.content]
        thinking = [b for b in content if type(b) is dict and b.get("type") in THINKING_TYPES]
        ids = tuple(b.get("id") for b in content if type(b) is dict and b.get("type") == "tool_use")
        turn = Turn(
            result.model,
            ids,
            [fingerprint(b) for b in thinking],
            [block_refs(b) for b in thinking],
        )
        self._items.append({"role": result.role or "assistant", "content": content})
        self._meta.append(turn)

    @history_arguments
    def add_tool_result(self, call_id: str, content: Any, is_error: bool = False) -> None:
        """Add a ``tool_result`` block for ``call_id`` to the user message that answers the
        last assistant turn (created on the first result)."""
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id}
        if is_error:
            block["is_error"] = True
        block["content"] = as_content(content)
        items = self._items
        if (
            len(items) < 2
            or items[-1].get("role") != "user"
            or items[-2].get("role") != "assistant"
        ):
            self.append({"role": "user", "content": [block]})
            return
        # The user message answering the last assistant turn: tool results come first, in
        # call order, before any text added by hand.
        current = _blocks(items[-1].get("content"))
        at = 0
        while (
            at < len(current)
            and type(current[at]) is dict
            and current[at].get("type") == "tool_result"
        ):
            at += 1
        items[-1] = {**items[-1], "content": [*current[:at], block, *current[at:]]}

    def _validate(self) -> None:
        items = self._items
        meta = self._meta
        pending: dict[Any, int] = {}
        for i, msg in enumerate(items):
            if type(msg) is not dict:
                raise HistoryError(i, f"is a {type(msg).__name__}, not a message object")
            role = msg.get("role")
            content = msg.get("content")
            if role == "user":
                if type(content) is list:
                    for block in content:
                        if type(block) is dict and block.get("type") == "tool_result":
                            use_id = block.get("tool_use_id")
                            if pending.pop(use_id, None) is None:
                                raise HistoryError(
                                    i,
                                    f"tool_result for id {use_id!r} matches no unanswered "
                                    "tool_use of the assistant turn before it",
                                )
                if pending:
                    unanswered(pending, f"in the next user message ({i})")
            elif role == "assistant":
                if pending:
                    unanswered(pending, f"before the next assistant turn ({i})")
                if type(content) is list:
                    self._check_assistant(i, content, meta[i], pending)
        if pending:
            unanswered(pending, "at the end of the history (add its result before sending)")

    def _check_assistant(
        self, i: int, content: list[Any], turn: Turn | None, pending: dict[Any, int]
    ) -> None:
        fingerprints = turn.thinking if turn is not None else None
        k = 0
        ids: list[Any] = []
        server_uses: dict[Any, int] = {}
        for j, block in enumerate(content):
            if type(block) is not dict:
                continue
            kind = block.get("type")
            if kind in THINKING_TYPES:
                if fingerprints is not None and turn is not None:
                    if k >= len(fingerprints):
                        raise HistoryError(
                            i, f"content[{j}]: a {kind} block that was not in the turn as received"
                        )
                    seen = turn.refs[k]
                    # Unchanged since last seen intact (the usual case): the same strings,
                    # compared inline, as thinking_matches would first.
                    if not (
                        seen is not None
                        and block.get("thinking") is seen[0]
                        and block.get("signature") is seen[1]
                        and block.get("data") is seen[2]
                    ) and not turn.thinking_matches(k, block):
                        raise HistoryError(
                            i,
                            f"content[{j}]: {kind} block changed after receipt (its "
                            "thinking/signature no longer match); send it back unchanged",
                        )
                field = "signature" if kind == "thinking" else "data"
                value = block.get(field)
                if not isinstance(value, str) or not value:
                    if fingerprints is not None and kind == "thinking":
                        # Arrived unsigned (a gateway streamed no signature_delta): it
                        # goes back as it arrived; Kimi accepts unsigned thinking.
                        k += 1
                        continue
                    if fingerprints is not None:
                        problem = (
                            f"arrived without its {field} (lost by the stream or a gateway); "
                            "it is kept, not dropped, but the service rejects it"
                        )
                    else:
                        problem = (
                            f"has no {field}; thinking blocks must come back exactly as "
                            "received (history.add(result))"
                        )
                    raise HistoryError(i, f"content[{j}]: {kind} block {problem}")
                k += 1
            elif kind == "tool_use":
                ids.append(block.get("id"))
                if isinstance(block.get("partial_json"), str):
                    raise HistoryError(
                        i,
                        f"content[{j}]: tool_use {block.get('id')!r} was cut before its input "
                        "was complete (it has only partial_json); it cannot be sent back",
                    )
            elif kind == "server_tool_use":
                server_uses[block.get("id")] = j
            elif kind == "web_search_tool_result" or (
                isinstance(kind, str) and kind.endswith("_tool_result") and kind != "tool_result"
            ):
                server_uses.pop(block.get("tool_use_id"), None)
        if fingerprints is not None and k < len(fingerprints):
            raise HistoryError(
                i,
                f"{len(fingerprints) - k} thinking block(s) received in this turn are missing; "
                "send the turn back exactly as received",
            )
        if server_uses:
            use_id, j = next(iter(server_uses.items()))
            raise HistoryError(
                i, f"content[{j}]: server_tool_use {use_id!r} without its result block"
            )
        twice = first_duplicate(ids) if len(ids) > 1 else None
        if twice is not None:
            raise HistoryError(i, f"tool_use id {twice!r} appears twice in this turn")
        if turn is not None and turn.call_ids is not None:
            if tuple(ids) != turn.call_ids:
                raise HistoryError(i, ids_changed(turn.call_ids, tuple(ids)))
        elif ids and k == 0 and thinking_required(turn.model if turn is not None else None):
            raise HistoryError(
                i,
                "thinking is enabled but this tool_use turn has no thinking block; keep the "
                "complete turn as received (history.add(result))",
            )
        for use_id in ids:
            pending[use_id] = i


def _replayable_block(block: Any) -> Any:
    """A tool_use block whose ``input`` arrived as a JSON-encoded string, with the decoded
    object (the form the service takes back); any other block as it is."""
    if type(block) is not dict or block.get("type") != "tool_use":
        return block
    value = block.get("input")
    if not isinstance(value, str) or "partial_json" in block:
        return block
    try:
        decoded = parse_arguments(value)
    except ValueError:
        return block
    return {**block, "input": decoded} if isinstance(decoded, dict) else block


def _blocks(content: Any) -> list[Any]:
    if isinstance(content, list):
        return content
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return []
