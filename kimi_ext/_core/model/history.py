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
compared by identity first and hashed only when they were replaced; tool-call arguments
are parsed again only when replaced):

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
from kimi_ext._core.contract.arguments import checked, kind_of, message, parameter_rule
from kimi_ext._core.contract.text import has_lone_surrogate
from kimi_ext._core.model.budget import Anchor, Estimator, TokenCount, anchor_of, count_history
from kimi_ext._core.model.result import Result
from kimi_ext.errors import HistoryError

__all__ = ["History", "SystemHistory", "history_arguments", "thinking_required", "with_message"]

# Version 2 adds the usage the service reported for a received turn (a sixth column of its
# row); a history without any is still written as version 1, which older readers take.
_DUMP_VERSION = 2
_READABLE_VERSIONS = (1, 2)
THINKING_TYPES = frozenset({"thinking", "redacted_thinking"})
CALL_OUTPUT = {
    "function_call": "function_call_output",
    "custom_tool_call": "custom_tool_call_output",
}
OUTPUT_TYPES = frozenset(CALL_OUTPUT.values())
INPUT_ROLES = frozenset({"user", "system", "developer"})
UNSEEN = object()  # a memo miss (None is a value)


def _argument_error(parameter: str, value: Any, rule: str) -> HistoryError:
    return HistoryError(None, message(parameter, value, rule))


history_arguments = checked(_argument_error)
"""Checks a history method's arguments against its annotations (a wrong one raises
HistoryError naming the parameter, before anything changes)."""


def arguments_problem(call_id: Any) -> str:
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


def fingerprint(block: Mapping[str, Any]) -> str:
    """A hash of what makes a thinking block valid: its type, thinking, signature, data."""
    key = json.dumps(
        [block.get("type"), block.get("thinking"), block.get("signature"), block.get("data")]
    )
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def block_refs(block: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    return (block.get("thinking"), block.get("signature"), block.get("data"))


class Turn:
    """What is remembered about an assistant turn: its model, and (for received turns) the
    tool-call ids and thinking-block fingerprints as they arrived, and the usage the service
    reported for it (its :class:`~kimi_ext._core.model.budget.Anchor`, which token counts
    start from)."""

    __slots__ = ("anchor", "call_ids", "model", "refs", "thinking")

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
        self.anchor: Anchor | None = None
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
        current = block_refs(block)
        seen = self.refs[k]
        if seen is not None and all(a is b for a, b in zip(current, seen, strict=True)):
            return True
        if fingerprint(block) != self.thinking[k]:
            return False
        self.refs[k] = current
        return True

    def dump(self, start: int, count: int) -> list[Any]:
        """The turn's row in a save. The reported usage is written only where it still
        applies: at the position the turn was received at (not in a slice from the middle)."""
        ids = list(self.call_ids) if self.call_ids is not None else None
        row = [start, count, self.model, ids, self.thinking]
        anchor = self.anchor
        if anchor is not None and anchor.at == start:
            row.append([anchor.input_tokens, anchor.output_tokens])
        return row

    @classmethod
    def load(cls, row: Any) -> tuple[int, int, Turn]:
        """(start, count, turn) of a row :meth:`dump` wrote; ValueError saying what is
        wrong with any other."""
        if not isinstance(row, list) or len(row) not in (5, 6):
            raise ValueError("must be a list [start, count, model, call ids, thinking(, usage)]")
        start, count, model, ids, thinking = row[:5]
        usage = row[5] if len(row) == 6 else None
        if type(start) is not int or type(count) is not int:
            raise ValueError(f"start and count must be integers, not {start!r} and {count!r}")
        if model is not None and not isinstance(model, str):
            raise ValueError(f"the model must be a string or null, not {model!r}")
        if ids is not None and not (
            isinstance(ids, list) and all(isinstance(t, _ID_TYPES) for t in ids)
        ):
            raise ValueError("tool-call ids must be a list of strings")
        if thinking is not None and not (
            isinstance(thinking, list) and all(isinstance(t, str) for t in thinking)
        ):
            raise ValueError("thinking fingerprints must be a list of strings")
        turn = cls(model, tuple(ids) if ids is not None else None, thinking)
        if usage is not None:
            if not (
                isinstance(usage, list)
                and len(usage) == 2
                and all(type(n) is int and n >= 0 for n in usage)
            ):
                raise ValueError(f"the usage must be [input tokens, output tokens], not {usage!r}")
            turn.anchor = Anchor(start, usage[0], usage[1])
        return start, count, turn


# What a received tool-call id may be in a save (the service's are strings; a gateway's
# odd scalar is kept as received, so that it can be saved too).
_ID_TYPES = (str, int, float, type(None))


def as_content(value: Any) -> Any:
    """A tool result or message content: text and lists of parts as given, else JSON
    (HistoryError for a value JSON cannot write: nothing is added)."""
    if isinstance(value, str | list):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        found = _first_non_json(value, "content") or ("content", value)
        raise HistoryError(None, _unsaveable(*found, verb="sent")) from None


def _unsaveable(where: str, value: Any, verb: str = "saved") -> str:
    return (
        f"{where} is {kind_of(value)}, which cannot be {verb} as JSON (JSON takes "
        "dicts, lists, str, numbers, bool and None, with no value inside itself)"
    )


def _first_non_json(value: Any, where: str) -> tuple[str, Any] | None:
    """(path, value) of the first value in ``value`` that JSON cannot write (also one that
    contains itself), or None."""
    stack: list[tuple[str, Any, frozenset[int]]] = [(where, value, frozenset())]
    while stack:
        path, node, inside = stack.pop()
        if node is None or isinstance(node, str | int | float):
            continue
        if not isinstance(node, dict | list | tuple) or id(node) in inside:
            return path, node
        inside = inside | {id(node)}
        if isinstance(node, dict):
            for key, item in reversed(node.items()):
                if not (key is None or isinstance(key, str | int | float)):
                    return f"{path} key {key!r}", key
                stack.append((f"{path}[{key!r}]" if path else str(key), item, inside))
        else:
            stack.extend(
                (f"{path}[{k}]", item, inside) for k, item in reversed(list(enumerate(node)))
            )
    return None


class History(Sequence[dict[str, Any]]):
    """What the three histories share (use :class:`ChatHistory`, :class:`MessagesHistory`
    or :class:`ResponsesHistory`)."""

    result_type: ClassVar[type[Result]] = Result
    _extra_fields: ClassVar[tuple[str, ...]] = ()

    @history_arguments
    def __init__(self, items: Iterable[Mapping[str, Any]] = ()) -> None:
        self._items: list[dict[str, Any]] = []
        self._meta: list[Turn | None] = []
        # Tool-call arguments found replayable by the last validate(), by id: the memo holds
        # each object, so `memo.get(id(a)) is a` means this very (immutable) string was
        # checked; a replaced one (h[3]["tool_calls"][0]["function"]["arguments"] = ...)
        # is a new object and is parsed again. Saves a json.loads per call per send.
        self._replayable: dict[int, Any] = {}
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

    @history_arguments
    def model_of(self, index: int) -> str | None:
        """The model that produced the assistant turn at ``index`` (None when unknown, e.g.
        a message added with :meth:`append` without ``model=``)."""
        turn = self._meta[index]
        return turn.model if turn is not None else None

    def copy(self) -> Self:
        """A shallow copy: new list of messages, the same message objects."""
        return self[:]

    # --- adding -----------------------------------------------------------------------

    @history_arguments
    def append(self, message: Mapping[str, Any], *, model: str | None = None) -> None:
        """Append a raw wire message (or Responses input item) as you built it.

        Nothing is recorded about how it was received, so a thinking block in it must carry
        its signature. ``model`` names the model that produced a raw assistant turn (its
        rules apply; default: the strict kimi-k3.1 rules).
        """
        self._items.append(message if isinstance(message, dict) else dict(message))
        self._meta.append(Turn(model) if model is not None else None)

    @history_arguments
    def extend(self, messages: Iterable[Mapping[str, Any]]) -> None:
        """Append several raw messages (see :meth:`append`). All are checked first: when
        one is not a dict, none is added."""
        items = messages if isinstance(messages, list | tuple) else list(messages)
        for k, item in enumerate(items):  # a list or tuple was checked by the decorator
            if not isinstance(item, Mapping):
                raise HistoryError(None, message(f"messages[{k}]", item, "must be a dict"))
        for item in items:
            self.append(item)

    def add(self, result: Result) -> None:
        """Append the complete assistant turn of ``result`` (a ``create()`` result or a
        stream's final result) exactly as received, and record the model that produced it."""
        if not isinstance(result, self.result_type):
            wanted = self.result_type
            given = (
                f"a {type(result).__name__} (a {result.format} result)"
                if isinstance(result, Result)
                else f"a {type(result).__name__}"
            )
            raise HistoryError(
                None,
                f"{type(self).__name__}.add() takes a {wanted.__name__} (a {wanted.format} "
                f"result), not {given}; use append() for a raw message",
            )
        start = len(self._items)
        self._add_result(result)
        # The usage the service reported for this turn: token counts start from it.
        turn = self._meta[start] if len(self._meta) > start else None
        if turn is not None:
            turn.anchor = anchor_of(result.usage, start)

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
        try:
            self._validate()
        except TypeError:  # an id that cannot be looked up: a list or a dict, say
            raise _unusable_id(self._items) from None

    def _validate(self) -> None:
        """The format's rules (validate() turns a TypeError of an odd id into HistoryError)."""
        raise NotImplementedError

    def to_wire(self) -> list[dict[str, Any]]:
        """Validate, then return the list to send (the stored messages, not copies)."""
        self.validate()
        return list(self._items)

    def turn_records(self) -> Sequence[Turn | None]:
        """Per message, what was recorded about the turn it belongs to (None for a message
        you wrote): read by token counts, which start from the usage a turn reported."""
        return self._meta

    def received_positions(self) -> frozenset[int]:
        """The positions of the items the service sent (added with :meth:`add`). They go
        back exactly as received: the request contract does not hold them to the shapes a
        user may write (a block type the request schema does not list is sent back)."""
        return frozenset(
            i for i, turn in enumerate(self._meta) if turn is not None and turn.received
        )

    # --- counting ---------------------------------------------------------------------

    @history_arguments
    def count_tokens(
        self,
        *,
        tools: Sequence[Mapping[str, Any]] | None = None,
        estimator: Estimator | None = None,
    ) -> TokenCount:
        """The input tokens of the next request sending this history (with ``tools``, the
        tool definitions as the format spells them), counted offline.

        The count starts from the usage the service reported for the last turn received
        with :meth:`add` (exact), and estimates only the messages after it, at a ratio
        learned from this conversation's reported usage (see :mod:`kimi_ext.budget`). It
        assumes the system prompt and tools are those of the request that turn answered.
        The work grows with the messages added since that turn, not with the history.
        """
        rules = contract(self.result_type.format)
        header: list[Any] = []
        kept = getattr(self, rules.system_field, None) if rules.system_field else None
        if kept is not None:  # Messages' system, Responses' instructions (Chat's is a message)
            header.append({rules.system_field: kept})
        if tools:
            header.append({"tools": list(tools)})
        return count_history(
            self._items,
            self._meta,
            header=header,
            estimator=estimator,
            window=rules.context_window,
        )

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
        version = _DUMP_VERSION if any(len(row) == 6 for row in turns) else 1
        doc: dict[str, Any] = {"kimi_ext": type(self).__name__, "version": version}
        for name in self._extra_fields:
            doc[name] = getattr(self, name)
        doc["items"] = self._items
        doc["turns"] = turns
        try:
            text = json.dumps(doc, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            raise self._save_error() from None
        if not text.isascii() and has_lone_surrogate(text):
            text = json.dumps(doc)  # ASCII: a lone surrogate cannot be written as UTF-8
        return text

    def _save_error(self) -> HistoryError:
        """The error naming the first value of the history that JSON cannot write."""
        for index, item in enumerate(self._items):
            found = _first_non_json(item, "")
            if found is not None:
                return HistoryError(index, _unsaveable(found[0] or "it", found[1]))
        for name in self._extra_fields:
            found = _first_non_json(getattr(self, name), name)
            if found is not None:
                return HistoryError(None, _unsaveable(*found))
        return HistoryError(None, "cannot be saved as JSON")  # not reached: one was found

    @classmethod
    def loads(cls, text: str | bytes) -> Self:
        """Restore a history saved with :meth:`dumps`.

        Keys that :meth:`dumps` does not write are ignored: a program may keep its own
        beside the history (the ``kimi`` command's ``--save`` files keep its settings under
        ``"cli"``, and this reads them as they are).

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
        if type(doc.get("version")) is not int or doc.get("version") not in _READABLE_VERSIONS:
            raise HistoryError(None, f"unsupported {name} dump version {doc.get('version')!r}")
        items, turns = doc.get("items"), doc.get("turns")
        if not isinstance(items, list) or not all(isinstance(m, dict) for m in items):
            raise HistoryError(None, f"damaged {name}: 'items' must be a list of objects")
        if not isinstance(turns, list):
            raise HistoryError(None, f"damaged {name}: 'turns' must be a list")
        out = cls.__new__(cls)
        History.__init__(out)
        for field in cls._extra_fields:
            # The rule of the constructor's parameter of that name (system=, instructions=).
            value = doc.get(field)
            rule = parameter_rule(cls.__init__, field)
            if rule is not None and not rule.test(value):
                raise HistoryError(
                    None, f"damaged {name}: {message(field, value, 'must be ' + rule.text)}"
                )
            setattr(out, field, value)
        out._items = list(items)
        out._meta = [None] * len(out._items)
        for k, row in enumerate(turns):
            try:
                start, count, turn = Turn.load(row)
                if not (start >= 0 and count > 0 and start + count <= len(items)):
                    raise ValueError("its messages are outside the history")
            except ValueError as exc:
                raise HistoryError(None, f"damaged {name}: turns[{k}]: {exc}") from None
            out._meta[start : start + count] = [turn] * count
        return out


# Where the formats keep a tool call's id and its result's reference to it.
_ID_KEYS = frozenset({"id", "call_id", "tool_call_id", "tool_use_id"})


def _unusable_id(items: list[dict[str, Any]]) -> HistoryError:
    """The error naming the first id in ``items`` that cannot be looked up (unhashable)."""
    for index, item in enumerate(items):
        stack: list[Any] = [item]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                for key, value in node.items():
                    if key in _ID_KEYS and getattr(value, "__hash__", None) is None:
                        return HistoryError(
                            index,
                            f"{message(key, value, 'a tool-call id must be a string')}, sent "
                            "back exactly as received",
                        )
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    return HistoryError(None, "a tool-call id cannot be used: ids must be strings")


def call_id_of(call: Any) -> Any:
    return call.get("id") if isinstance(call, dict) else None


def unanswered(pending: Mapping[Any, int], where: str) -> None:
    call_id, index = next(iter(pending.items()))
    raise HistoryError(index, f"tool call {call_id!r} has no result {where}")


def ids_changed(received: tuple[Any, ...], now: tuple[Any, ...]) -> str:
    return (
        f"tool call ids were changed after receipt ({list(received)!r} -> {list(now)!r}); "
        "send them back exactly as received"
    )


def with_message(messages: Any, message: dict[str, Any] | None) -> Any:
    """``messages`` with ``message`` appended (when given), as a new object: a history object
    stays one (a copy, so what it recorded about received turns still holds), any other
    sequence becomes a new list."""
    if messages is None:
        raise TypeError("messages= is required")
    if isinstance(messages, History):
        out: Any = messages.copy()
    else:
        out = list(messages)
    if message is not None:
        out.append(message)
    return out


class SystemHistory(History):
    """A history that keeps a system prompt, ``system=`` (the base of ChatHistory and
    MessagesHistory; Responses calls it ``instructions``)."""

    _extra_fields: ClassVar[tuple[str, ...]] = ("system",)

    @history_arguments
    def __init__(
        self,
        messages: Iterable[Mapping[str, Any]] = (),
        *,
        system: str | list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(self._opening(system))
        self.system = system
        self.extend(messages)

    def _opening(self, system: str | list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        """The messages a history with this system prompt starts with (none here: the
        prompt travels in a field of its own)."""
        return []
