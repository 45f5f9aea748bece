"""Conversation histories that keep every assistant turn exactly as it was received.

The most common failure when calling Kimi through a generic client is a multi-turn
conversation that dropped or rewrote part of an assistant turn: the service then answers
``thinking is enabled but reasoning_content is missing in assistant tool call message at
index N``, or rejects a thinking block whose signature no longer matches. A history object
makes that loss impossible to miss: it stores each assistant turn as received, remembers
which model produced it, and :meth:`validate` (run on every send) names the message and
the problem before anything goes on the wire. Nothing is ever patched with placeholder
text.

    history = kimi_ext.ChatHistory(system="You are terse.")
    history.add_user("Weather in Paris?")
    reply = client.chat.completions.create(model="kimi-k3.1-pro", messages=history, tools=tools)
    history.add(reply)                       # reasoning_content and tool_calls, as received
    for call in reply.tool_calls:
        history.add_tool_result(call.id, get_weather(**call.input))
    reply = client.chat.completions.create(model="kimi-k3.1-pro", messages=history, tools=tools)

    text = history.dumps()                   # save ...
    history = kimi_ext.ChatHistory.loads(text)   # ... and resume: the same wire JSON

The three classes share one interface: ``add_user``, ``add``, ``add_tool_result``,
``append`` (a raw wire message you built), ``validate``, ``to_wire``, ``dumps`` /
``loads``, ``len()``, iteration, indexing and slicing (a slice is a history of the same
kind). Messages keeps its system prompt in :attr:`MessagesHistory.system` and Responses
its instructions in :attr:`ResponsesHistory.instructions`: pass them as ``system=`` /
``instructions=`` (``run_tools`` does it for you).

Validation rules, checked in one pass over the messages (cheap: thinking blocks are
compared by identity first and hashed only when they were replaced):

* Chat: an assistant tool-call message needs ``reasoning_content`` (an empty string is
  fine and is sent as is) unless the turn came from ``kimi-k3``, which may reply without
  thinking. Raw turns added with :meth:`append` follow the rules of ``model=`` (default:
  the strict kimi-k3.1 rules).
* Messages: each thinking block must come back unchanged (a fingerprint of its thinking and
  signature is taken at :meth:`add`). A block that arrived without a signature (a gateway
  that streamed no ``signature_delta``) is sent back as it arrived, unsigned: Kimi accepts
  it. A thinking block added by hand (no fingerprint) must carry its signature; a
  hand-written kimi-k3.1 tool-use turn must contain its thinking. A ``tool_use`` block cut
  by ``max_tokens`` (it keeps its text under ``partial_json``) cannot be sent back.
* Tool-call arguments must be valid JSON (the service refuses anything else replayed). At
  :meth:`add`, arguments that are invalid only because of raw control characters inside
  their strings (Kimi has sent literal newlines and tabs) are stored with those characters
  escaped (``\\n``, ``\\t``, ``\\u0001``), every other character unchanged; the
  result's ``to_dict()`` keeps the text as received. A Messages ``tool_use`` whose
  ``input`` arrived as a JSON-encoded string is stored with the decoded object. Any other
  invalid arguments (a call cut by the output limit) are refused by :meth:`validate`.
* A tool-call id may appear only once in one assistant turn.
* Every tool call needs its result before the next user or assistant turn (and before the
  history is sent), every result must answer a call of the turn before it, and tool-call
  ids must still be the ids received.
* Responses: every ``function_call`` / ``custom_tool_call`` needs its
  ``function_call_output`` / ``custom_tool_call_output``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Self, overload

from kimi_ext._core.contract import contract
from kimi_ext._core.replay import arguments_replayable, first_duplicate
from kimi_ext._core.text import has_lone_surrogate
from kimi_ext.errors import HistoryError
from kimi_ext.results import (
    ChatCompletion,
    Message,
    Response,
    Result,
    parse_arguments,
    replayable_arguments,
)

__all__ = [
    "ChatHistory",
    "History",
    "MessagesHistory",
    "ResponsesHistory",
    "thinking_required",
]

_DUMP_VERSION = 1
_THINKING_TYPES = frozenset({"thinking", "redacted_thinking"})
_CALL_OUTPUT = {
    "function_call": "function_call_output",
    "custom_tool_call": "custom_tool_call_output",
}
_OUTPUT_TYPES = frozenset(_CALL_OUTPUT.values())
_INPUT_ROLES = frozenset({"user", "system", "developer"})


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


def _arguments_problem(call_id: Any) -> str:
    return (
        f"tool call {call_id!r}: its arguments are not valid JSON (was it cut by the "
        "output limit?); the service refuses it replayed"
    )


def thinking_required(model: str | None) -> bool:
    """Whether turns of ``model`` always carry reasoning (True for unknown models).

    ``kimi-k3`` may answer without any thinking; the kimi-k3.1 models always think. Which
    models may is the spec's (``thinking-optional`` in ``x-kimi-models``).
    """
    return contract("chat").thinking_required(model)


def _fingerprint(block: Mapping[str, Any]) -> str:
    """A hash of what makes a thinking block valid: its type, thinking, signature, data."""
    key = json.dumps(
        [block.get("type"), block.get("thinking"), block.get("signature"), block.get("data")]
    )
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _refs(block: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    return (block.get("thinking"), block.get("signature"), block.get("data"))


class _Turn:
    """What is remembered about an assistant turn: its model, and (for received turns) the
    tool-call ids and thinking-block fingerprints as they arrived."""

    __slots__ = ("call_ids", "model", "refs", "thinking")

    def __init__(
        self,
        model: str | None,
        call_ids: tuple[Any, ...] | None = None,
        thinking: list[str] | None = None,
        refs: list[tuple[Any, Any, Any] | None] | None = None,
    ) -> None:
        self.model = model
        self.call_ids = call_ids
        self.thinking = thinking
        # The strings of each thinking block when last seen intact: an unchanged block is
        # recognized by identity, without hashing.
        self.refs: list[tuple[Any, Any, Any] | None] = (
            refs if refs is not None else [None] * len(thinking or ())
        )

    @property
    def received(self) -> bool:
        return self.call_ids is not None

    def thinking_matches(self, k: int, block: Mapping[str, Any]) -> bool:
        assert self.thinking is not None
        current = _refs(block)
        seen = self.refs[k]
        if seen is not None and all(a is b for a, b in zip(current, seen, strict=True)):
            return True
        if _fingerprint(block) != self.thinking[k]:
            return False
        self.refs[k] = current
        return True

    def dump(self, start: int, count: int) -> list[Any]:
        ids = list(self.call_ids) if self.call_ids is not None else None
        return [start, count, self.model, ids, self.thinking]

    @classmethod
    def load(cls, row: Sequence[Any]) -> tuple[int, int, _Turn]:
        start, count, model, ids, thinking = row
        turn = cls(model, tuple(ids) if ids is not None else None, thinking)
        return int(start), int(count), turn


def _as_content(value: Any) -> Any:
    """A tool result or message content: text and lists of parts as given, else JSON."""
    if isinstance(value, str | list):
        return value
    return json.dumps(value, ensure_ascii=False)


class History(Sequence[dict[str, Any]]):
    """What the three histories share (use :class:`ChatHistory`, :class:`MessagesHistory`
    or :class:`ResponsesHistory`)."""

    format: ClassVar[str] = ""
    result_type: ClassVar[type[Result]] = Result
    _extra_fields: ClassVar[tuple[str, ...]] = ()

    def __init__(self, items: Iterable[Mapping[str, Any]] = ()) -> None:
        self._items: list[dict[str, Any]] = []
        self._meta: list[_Turn | None] = []
        for item in items:
            self.append(item)

    # --- sequence protocol ------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> Self: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | Self:
        """A message as stored (changes to its thinking or tool-call ids are detected), or
        for a slice a history of the same kind keeping what was recorded per turn."""
        if isinstance(index, slice):
            out = self._empty_like()
            out._items = self._items[index]
            out._meta = self._meta[index]
            return out
        return self._items[index]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self._items)

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, History)
            and other._items == self._items
            and all(getattr(other, f) == getattr(self, f) for f in self._extra_fields)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self._items)} {self._noun()})"

    def _noun(self) -> str:
        return "messages"

    def _empty_like(self) -> Self:
        out = type(self).__new__(type(self))
        History.__init__(out)
        for name in self._extra_fields:
            setattr(out, name, getattr(self, name))
        return out

    def model_of(self, index: int) -> str | None:
        """The model that produced the assistant turn at ``index`` (None when unknown, e.g.
        a message added with :meth:`append` without ``model=``)."""
        turn = self._meta[index]
        return turn.model if turn is not None else None

    def copy(self) -> Self:
        """A shallow copy: new list of messages, the same message objects."""
        return self[:]

    # --- adding -----------------------------------------------------------------------

    def append(self, message: Mapping[str, Any], *, model: str | None = None) -> None:
        """Append a raw wire message (or Responses input item) as you built it.

        Nothing is recorded about how it was received, so a thinking block in it must carry
        its signature. ``model`` names the model that produced a raw assistant turn (its
        rules apply; default: the strict kimi-k3.1 rules).
        """
        if not isinstance(message, Mapping):
            raise TypeError(f"a message must be a dict, not {type(message).__name__}")
        self._items.append(message if isinstance(message, dict) else dict(message))
        self._meta.append(_Turn(model) if model is not None else None)

    def extend(self, messages: Iterable[Mapping[str, Any]]) -> None:
        """Append several raw messages (see :meth:`append`)."""
        for message in messages:
            self.append(message)

    def add(self, result: Result) -> None:
        """Append the complete assistant turn of ``result`` (a ``create()`` result or a
        stream's final result) exactly as received, and record the model that produced it."""
        if not isinstance(result, self.result_type):
            raise TypeError(
                f"{type(self).__name__}.add() takes a {self.result_type.__name__} "
                f"(got {type(result).__name__}); use append() for a raw message"
            )
        self._add_result(result)

    def _add_result(self, result: Any) -> None:
        raise NotImplementedError

    def add_user(self, content: str | list[dict[str, Any]], *, images: Iterable[Any] = ()) -> None:
        raise NotImplementedError

    def add_tool_result(self, call_id: str, content: Any, is_error: bool = False) -> None:
        raise NotImplementedError

    # --- sending ----------------------------------------------------------------------

    def validate(self) -> None:
        """Raise :class:`~kimi_ext.HistoryError` naming the first message that would be
        rejected (see the module docstring for the rules)."""
        raise NotImplementedError

    def to_wire(self) -> list[dict[str, Any]]:
        """Validate, then return the list to send (the stored messages, not copies)."""
        self.validate()
        return list(self._items)

    # --- saving -----------------------------------------------------------------------

    def dumps(self) -> str:
        """The history as JSON text; :meth:`loads` restores it exactly (the same wire JSON,
        and what was recorded about each received turn). A lone surrogate (sent so by the
        server) is written as a JSON ``\\u`` escape, so the text can always be saved."""
        turns: list[list[Any]] = []
        meta = self._meta
        i = 0
        while i < len(meta):
            turn = meta[i]
            j = i + 1
            while j < len(meta) and meta[j] is turn:
                j += 1
            if turn is not None:
                turns.append(turn.dump(i, j - i))
            i = j
        doc: dict[str, Any] = {"kimi_ext": type(self).__name__, "version": _DUMP_VERSION}
        for name in self._extra_fields:
            doc[name] = getattr(self, name)
        doc["items"] = self._items
        doc["turns"] = turns
        text = json.dumps(doc, ensure_ascii=False)
        if not text.isascii() and has_lone_surrogate(text):
            text = json.dumps(doc)  # ASCII: a lone surrogate cannot be written as UTF-8
        return text

    @classmethod
    def loads(cls, text: str | bytes) -> Self:
        """Restore a history saved with :meth:`dumps`.

        Raises :class:`~kimi_ext.HistoryError` (``index`` None) saying what is wrong when
        the text is not such a save, or is damaged.
        """
        name = cls.__name__
        try:
            doc = json.loads(text)
        except (ValueError, TypeError, RecursionError) as exc:
            raise HistoryError(None, f"not a saved {name}: not JSON ({exc})") from None
        if not isinstance(doc, dict) or doc.get("kimi_ext") != name:
            kind = doc.get("kimi_ext") if isinstance(doc, dict) else None
            raise HistoryError(None, f"not a saved {name} (found {kind!r})")
        if doc.get("version") != _DUMP_VERSION:
            raise HistoryError(None, f"unsupported {name} dump version {doc.get('version')!r}")
        items, turns = doc.get("items"), doc.get("turns")
        if not isinstance(items, list) or not all(isinstance(m, dict) for m in items):
            raise HistoryError(None, f"damaged {name}: 'items' must be a list of objects")
        if not isinstance(turns, list):
            raise HistoryError(None, f"damaged {name}: 'turns' must be a list")
        out = cls.__new__(cls)
        History.__init__(out)
        for field in cls._extra_fields:
            setattr(out, field, doc.get(field))
        out._items = list(items)
        out._meta = [None] * len(out._items)
        for k, row in enumerate(turns):
            try:
                start, count, turn = _Turn.load(row)
                if not (start >= 0 and count > 0 and start + count <= len(items)):
                    raise ValueError("its messages are outside the history")
                ids, thinking = turn.call_ids, turn.thinking
                if ids is not None and not all(isinstance(t, str | int) for t in ids):
                    raise ValueError("tool-call ids must be strings")
                if thinking is not None and not (
                    isinstance(thinking, list) and all(isinstance(t, str) for t in thinking)
                ):
                    raise ValueError("thinking fingerprints must be a list of strings")
            except (ValueError, TypeError, KeyError, IndexError) as exc:
                raise HistoryError(None, f"damaged {name}: turns[{k}]: {exc}") from None
            out._meta[start : start + count] = [turn] * count
        return out


# --- Chat Completions ---------------------------------------------------------------------


class ChatHistory(History):
    """A Chat Completions conversation; pass it as ``messages=``.

    ``ChatHistory(system="...")`` starts with a system message. Tool results are
    ``role: tool`` messages carrying the call's ``tool_call_id`` (Chat has no error flag: an
    error travels as the text of the result).
    """

    format = "chat"
    result_type = ChatCompletion
    _extra_fields = ("system",)

    def __init__(
        self,
        messages: Iterable[Mapping[str, Any]] = (),
        *,
        system: str | list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__()
        self.system = system
        if system is not None:
            self.append({"role": "system", "content": system})
        self.extend(messages)

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
            from kimi_ext.images import image_part

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
        ids = tuple(_call_id(c) for c in calls) if isinstance(calls, list) else ()
        self._items.append(msg)
        self._meta.append(_Turn(result.model, ids))

    def add_tool_result(self, call_id: str, content: Any, is_error: bool = False) -> None:
        """Append the result of tool call ``call_id`` (text, content parts, or a value that is
        sent as JSON). ``is_error`` has no wire field on Chat: put the error in ``content``."""
        message: dict[str, Any] = {"role": "tool", "tool_call_id": call_id}
        name = self._call_name(call_id)
        if name is not None:
            message["name"] = name
        message["content"] = _as_content(content)
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

    def add_web_search_results(
        self, result: ChatCompletion | None = None, *, names: Iterable[str] = ()
    ) -> int:
        """Answer the builtin ``$web_search`` calls of ``result`` (default: the last
        assistant turn) the documented way: each call's ``function.arguments`` goes back
        unchanged as the content of a tool message with the same ``tool_call_id``. Calls
        named in ``names`` are treated as web search too. Returns how many were answered."""
        from kimi_ext.tools import web_search_echo

        echoes = web_search_echo(result if result is not None else self, names=names)
        for echo in echoes:
            self.append(echo)
        return len(echoes)

    def validate(self) -> None:
        items = self._items
        meta = self._meta
        pending: dict[Any, int] = {}
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
                _unanswered(pending, f"before message {i} ({role})")
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
                ids = tuple(_call_id(c) for c in calls)
                if turn is not None and turn.call_ids is not None and ids != turn.call_ids:
                    raise HistoryError(i, _ids_changed(turn.call_ids, ids))
                twice = first_duplicate(ids)
                if twice is not None:
                    raise HistoryError(i, f"tool call id {twice!r} appears twice in this turn")
                for call in calls:
                    fn = call.get("function") if isinstance(call, dict) else None
                    if isinstance(fn, dict) and not arguments_replayable(fn.get("arguments")):
                        raise HistoryError(i, _arguments_problem(_call_id(call)))
                for call_id in ids:
                    pending[call_id] = i
        if pending:
            _unanswered(pending, "at the end of the history (add its result before sending)")


def _call_id(call: Any) -> Any:
    return call.get("id") if isinstance(call, dict) else None


def _unanswered(pending: Mapping[Any, int], where: str) -> None:
    call_id, index = next(iter(pending.items()))
    raise HistoryError(index, f"tool call {call_id!r} has no result {where}")


def _ids_changed(received: tuple[Any, ...], now: tuple[Any, ...]) -> str:
    return (
        f"tool call ids were changed after receipt ({list(received)!r} -> {list(now)!r}); "
        "send them back exactly as received"
    )


# --- Messages -------------------------------------------------------------------------------


class MessagesHistory(History):
    """A Messages conversation; pass it as ``messages=`` and its :attr:`system` as
    ``system=``.

    The results of one assistant turn's tool calls go into one user message (``tool_result``
    blocks, ``is_error`` set for errors); text added after them joins that message.
    """

    format = "messages"
    result_type = Message
    _extra_fields = ("system",)

    def __init__(
        self,
        messages: Iterable[Mapping[str, Any]] = (),
        *,
        system: str | list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(messages)
        self.system = system

    def add_user(self, content: str | list[dict[str, Any]], *, images: Iterable[Any] = ()) -> None:
        """Append a user message: text or content blocks (``image``, ``document``...).
        ``images`` are paths or bytes turned into base64 ``image`` blocks after the text.
        Right after tool results, the content joins their user message."""
        if images:
            from kimi_ext.images import image_block

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
        thinking = [b for b in content if type(b) is dict and b.get("type") in _THINKING_TYPES]
        ids = tuple(b.get("id") for b in content if type(b) is dict and b.get("type") == "tool_use")
        turn = _Turn(
            result.model,
            ids,
            [_fingerprint(b) for b in thinking],
            [_refs(b) for b in thinking],
        )
        self._items.append({"role": result.role or "assistant", "content": content})
        self._meta.append(turn)

    def add_tool_result(self, call_id: str, content: Any, is_error: bool = False) -> None:
        """Add a ``tool_result`` block for ``call_id`` to the user message that answers the
        last assistant turn (created on the first result)."""
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id}
        if is_error:
            block["is_error"] = True
        block["content"] = _as_content(content)
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

    def validate(self) -> None:
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
                    _unanswered(pending, f"in the next user message ({i})")
            elif role == "assistant":
                if pending:
                    _unanswered(pending, f"before the next assistant turn ({i})")
                if type(content) is list:
                    self._check_assistant(i, content, meta[i], pending)
        if pending:
            _unanswered(pending, "at the end of the history (add its result before sending)")

    def _check_assistant(
        self, i: int, content: list[Any], turn: _Turn | None, pending: dict[Any, int]
    ) -> None:
        fingerprints = turn.thinking if turn is not None else None
        k = 0
        ids: list[Any] = []
        server_uses: dict[Any, int] = {}
        for j, block in enumerate(content):
            if type(block) is not dict:
                continue
            kind = block.get("type")
            if kind in _THINKING_TYPES:
                if fingerprints is not None and turn is not None:
                    if k >= len(fingerprints):
                        raise HistoryError(
                            i, f"content[{j}]: a {kind} block that was not in the turn as received"
                        )
                    if not turn.thinking_matches(k, block):
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
        twice = first_duplicate(ids)
        if twice is not None:
            raise HistoryError(i, f"tool_use id {twice!r} appears twice in this turn")
        if turn is not None and turn.call_ids is not None:
            if tuple(ids) != turn.call_ids:
                raise HistoryError(i, _ids_changed(turn.call_ids, tuple(ids)))
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


# --- Responses ------------------------------------------------------------------------------


class ResponsesHistory(History):
    """A Responses conversation (the endpoint is stateless: the whole history is replayed);
    pass it as ``input=`` and its :attr:`instructions` as ``instructions=``.

    Every output item of a response is kept verbatim (reasoning, message, function_call,
    web_search_call and any other type).
    """

    format = "responses"
    result_type = Response
    _extra_fields = ("instructions",)

    def __init__(
        self, items: Iterable[Mapping[str, Any]] = (), *, instructions: str | None = None
    ) -> None:
        super().__init__(items)
        self.instructions = instructions

    def _noun(self) -> str:
        return "items"

    def add_user(self, content: str | list[dict[str, Any]], *, images: Iterable[Any] = ()) -> None:
        """Append a user message: text or input parts (``input_text``, ``input_image``...).
        ``images`` are paths or bytes turned into ``input_image`` parts after the text."""
        if images:
            from kimi_ext.images import input_image

            parts = (
                [{"type": "input_text", "text": content}] if isinstance(content, str) else content
            )
            content = [*parts, *(input_image(img) for img in images)]
        self.append({"role": "user", "content": content})

    def _add_result(self, result: Response) -> None:
        output = [_replayable_item(item) for item in result.output if type(item) is dict]
        ids = tuple(item.get("call_id") for item in output if item.get("type") in _CALL_OUTPUT)
        turn = _Turn(result.model, ids)
        self._items.extend(output)
        self._meta.extend([turn] * len(output))

    def add_tool_result(self, call_id: str, content: Any, is_error: bool = False) -> None:
        """Append the ``function_call_output`` (``custom_tool_call_output`` for a custom tool
        call) for ``call_id``. ``is_error`` has no wire field: put the error in ``content``."""
        kind = "function_call_output"
        for item in reversed(self._items):
            if item.get("call_id") == call_id and item.get("type") in _CALL_OUTPUT:
                kind = _CALL_OUTPUT[item["type"]]
                break
        self.append({"type": kind, "call_id": call_id, "output": _as_content(content)})

    def validate(self) -> None:
        items = self._items
        meta = self._meta
        pending: dict[Any, tuple[int, str]] = {}
        group: _Turn | None = None
        group_ids: list[Any] = []
        for i, item in enumerate(items):
            if type(item) is not dict:
                raise HistoryError(i, f"is a {type(item).__name__}, not an input item")
            turn = meta[i]
            if turn is not group:
                if group is not None:
                    _check_group(i - 1, group, group_ids)
                if turn is not None and turn.received and pending:
                    # A new response while calls of the previous one are unanswered.
                    call_id, (index, _) = next(iter(pending.items()))
                    raise HistoryError(
                        index, f"function call {call_id!r} has no output before item {i}"
                    )
                group, group_ids = turn, []
            kind = item.get("type")
            if kind in _CALL_OUTPUT:
                call_id = item.get("call_id")
                if kind == "function_call" and not arguments_replayable(item.get("arguments")):
                    raise HistoryError(i, _arguments_problem(call_id))
                group_ids.append(call_id)
                pending[call_id] = (i, _CALL_OUTPUT[kind])
            elif kind in _OUTPUT_TYPES:
                call_id = item.get("call_id")
                found = pending.pop(call_id, None)
                if found is None:
                    raise HistoryError(
                        i,
                        f"{kind} for call id {call_id!r} matches no unanswered call before it "
                        "(ids must be sent back exactly as received)",
                    )
                if found[1] != kind:
                    raise HistoryError(
                        i, f"call {call_id!r} (item {found[0]}) needs a {found[1]}, not a {kind}"
                    )
            elif (
                (kind is None or kind == "message") and item.get("role") in _INPUT_ROLES and pending
            ):
                call_id, (index, _) = next(iter(pending.items()))
                raise HistoryError(
                    index, f"function call {call_id!r} has no output before item {i}"
                )
        if group is not None:
            _check_group(len(items) - 1, group, group_ids)
        if pending:
            call_id, (index, _) = next(iter(pending.items()))
            raise HistoryError(
                index,
                f"No tool output found for function call {call_id!r}: add its output "
                "(history.add_tool_result) before sending",
            )


def _replayable_item(item: dict[str, Any]) -> dict[str, Any]:
    """A function_call item whose arguments can be sent back (a copy only when they change)."""
    arguments = item.get("arguments")
    if item.get("type") != "function_call" or not isinstance(arguments, str):
        return item
    fixed = replayable_arguments(arguments)
    return item if fixed is None or fixed is arguments else {**item, "arguments": fixed}


def _check_group(last: int, turn: _Turn, ids: list[Any]) -> None:
    if turn.call_ids is not None and tuple(ids) != turn.call_ids:
        raise HistoryError(last, _ids_changed(turn.call_ids, tuple(ids)))
