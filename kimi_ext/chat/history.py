"""The ChatHistory: a conversation that keeps every assistant turn exactly as received
(the rules are in :mod:`kimi_ext._core.model.history`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kimi_ext._core.contract.replay import arguments_replayable, first_duplicate
from kimi_ext._core.model.history import (
    UNSEEN,
    SystemHistory,
    Turn,
    arguments_problem,
    as_content,
    call_id_of,
    history_arguments,
    ids_changed,
    thinking_required,
    unanswered,
)
from kimi_ext._core.model.media import image_part
from kimi_ext._core.model.result import replayable_arguments
from kimi_ext.chat.result import ChatCompletion
from kimi_ext.chat.web_search import web_search_echo
from kimi_ext.errors import HistoryError

__all__ = ["ChatHistory"]


class ChatHistory(SystemHistory):
    """A Chat Completions conversation; pass it as ``messages=``.

    ``ChatHistory(system="...")`` starts with a system message. Tool results are
    ``role: tool`` messages carrying the call's ``tool_call_id`` (Chat has no error flag: an
    error travels as the text of the result).
    """

    result_type = ChatCompletion

    def _opening(self, system: str | list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        # Chat's system prompt is the conversation's first message.
        return [] if system is None else [{"role": "system", "content": system}]

    @history_arguments
    def add_user(
        self,
        content: str | list[dict[str, Any]],
        *,
        images: Iterable[Any] = (),
        name: str | None = None,
    ) -> None:
        """Append a user message: text or content parts (``image_url``, ``video_url``...).
        ``images`` are paths or bytes turned into ``image_url`` parts after the text."""
        if images:
            parts = [{"type": "text", "text": content}] if isinstance(content, str) else content
            content = [*parts, *(image_part(img) for img in images)]
        message: dict[str, Any] = {"role": "user", "content": content}
        if name is not None:
            message["name"] = name
        self.append(message)

    def _add_result(self, result: ChatCompletion) -> None:
        message = result.message
        if not message:
            raise HistoryError(len(self._items), "the result has no message to add")
        msg = dict(message)
        if "role" not in msg:
            msg = {"role": "assistant", **msg}
        calls = msg.get("tool_calls")
        if calls and msg.get("content") in (None, ""):
            # Leave out null or "" content rather than sending "" (rejected as empty text).
            msg.pop("content", None)
        if isinstance(calls, list):
            fixed = [_replayable_call(c) for c in calls]
            if any(a is not b for a, b in zip(fixed, calls, strict=True)):
                msg["tool_calls"] = fixed
        ids = tuple(call_id_of(c) for c in calls) if isinstance(calls, list) else ()
        self._items.append(msg)
        self._meta.append(Turn(result.model, ids))

    @history_arguments
    def add_tool_result(self, call_id: str, content: Any, is_error: bool = False) -> None:
        """Append the result of tool call ``call_id`` (text, content parts, or a value that is
        sent as JSON). ``is_error`` has no wire field on Chat: put the error in ``content``."""
        message: dict[str, Any] = {"role": "tool", "tool_call_id": call_id}
        name = self._call_name(call_id)
        if name is not None:
            message["name"] = name
        message["content"] = as_content(content)
        self.append(message)

    def _call_name(self, call_id: str) -> str | None:
        for msg in reversed(self._items):
            if msg.get("role") == "assistant" and isinstance(msg.get("tool_calls"), list):
                for call in msg["tool_calls"]:
                    if isinstance(call, dict) and call.get("id") == call_id:
                        fn = call.get("function")
                        name = fn.get("name") if isinstance(fn, dict) else None
                        return name if isinstance(name, str) else None
                return None
        return None

    @history_arguments
    def add_web_search_results(
        self, result: ChatCompletion | None = None, *, names: Iterable[str] = ()
    ) -> int:
        """Answer the builtin ``$web_search`` calls of ``result`` (default: the last
        assistant turn) the documented way: each call's ``function.arguments`` goes back
        unchanged as the content of a tool message with the same ``tool_call_id``. Calls
        named in ``names`` are treated as web search too. Returns how many were answered."""
        echoes = web_search_echo(result if result is not None else self, names=names)
        for echo in echoes:
            self.append(echo)
        return len(echoes)

    def _validate(self) -> None:
        items = self._items
        meta = self._meta
        pending: dict[Any, int] = {}
        known = self._replayable
        replayable: dict[int, Any] = {}
        for i, msg in enumerate(items):
            if type(msg) is not dict:
                raise HistoryError(i, f"is a {type(msg).__name__}, not a message object")
            role = msg.get("role")
            if role == "tool":
                call_id = msg.get("tool_call_id")
                if pending.pop(call_id, None) is None:
                    raise HistoryError(
                        i,
                        f"tool result for id {call_id!r} matches no unanswered tool call of "
                        "the assistant turn before it (ids must be sent back exactly as received)",
                    )
                continue
            if pending:
                unanswered(pending, f"before message {i} ({role})")
            if role == "assistant":
                calls = msg.get("tool_calls")
                if not calls:
                    continue
                if not isinstance(calls, list):
                    raise HistoryError(i, "tool_calls must be a list")
                turn = meta[i]
                if not isinstance(msg.get("reasoning_content"), str) and thinking_required(
                    turn.model if turn is not None else None
                ):
                    raise HistoryError(
                        i,
                        "thinking is enabled but reasoning_content is missing in this "
                        "assistant tool call message: keep the complete turn as received "
                        "(history.add(result)); it cannot be replaced by placeholder text",
                    )
                ids = tuple([c.get("id") if isinstance(c, dict) else None for c in calls])
                if turn is not None and turn.call_ids is not None and ids != turn.call_ids:
                    raise HistoryError(i, ids_changed(turn.call_ids, ids))
                twice = first_duplicate(ids) if len(ids) > 1 else None
                if twice is not None:
                    raise HistoryError(i, f"tool call id {twice!r} appears twice in this turn")
                for call in calls:
                    fn = call.get("function") if isinstance(call, dict) else None
                    if isinstance(fn, dict):
                        arguments = fn.get("arguments")
                        if known.get(
                            id(arguments), UNSEEN
                        ) is not arguments and not arguments_replayable(arguments):
                            raise HistoryError(i, arguments_problem(call_id_of(call)))
                        replayable[id(arguments)] = arguments
                for call_id in ids:
                    pending[call_id] = i
        # Only what is in the history now is remembered (a replaced string is let go).
        self._replayable = replayable
        if pending:
            unanswered(pending, "at the end of the history (add its result before sending)")


def _replayable_call(call: Any) -> Any:
    """A Chat tool call whose arguments can be sent back (a copy only when they change)."""
    fn = call.get("function") if isinstance(call, dict) else None
    if not isinstance(fn, dict):
        return call
    arguments = fn.get("arguments")
    if not isinstance(arguments, str):
        return call
    fixed = replayable_arguments(arguments)
    if fixed is None or fixed is arguments:
        return call
    return {**call, "function": {**fn, "arguments": fixed}}
