"""The ResponsesHistory: a conversation that keeps every assistant turn exactly as received
(the rules are in :mod:`kimi_ext._core.model.history`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kimi_ext._core.contract.replay import arguments_replayable
from kimi_ext._core.model.history import (
    CALL_OUTPUT,
    INPUT_ROLES,
    OUTPUT_TYPES,
    UNSEEN,
    History,
    Turn,
    arguments_problem,
    as_content,
    history_arguments,
    ids_changed,
)
from kimi_ext._core.model.media import input_image
from kimi_ext._core.model.result import replayable_arguments
from kimi_ext.errors import HistoryError
from kimi_ext.responses.result import Response

__all__ = ["ResponsesHistory"]


class ResponsesHistory(History):
    """A Responses conversation (the endpoint is stateless: the whole history is replayed);
    pass it as ``input=`` and its :attr:`instructions` as ``instructions=``.

    Every output item of a response is kept verbatim (reasoning, message, function_call,
    web_search_call and any other type).
    """

    result_type = Response
    _extra_fields = ("instructions",)

    @history_arguments
    def __init__(
        self, items: Iterable[Mapping[str, Any]] = (), *, instructions: str | None = None
    ) -> None:
        super().__init__(items)
        self.instructions = instructions

    def _noun(self) -> str:
        return "items"

    @history_arguments
    def add_user(self, content: str | list[dict[str, Any]], *, images: Iterable[Any] = ()) -> None:
        """Append a user message: text or input parts (``input_text``, ``input_image``...).
        ``images`` are paths or bytes turned into ``input_image`` parts after the text."""
        if images:
            parts = (
                [{"type": "input_text", "text": content}] if isinstance(content, str) else content
            )
            content = [*parts, *(input_image(img) for img in images)]
        self.append({"role": "user", "content": content})

    def _add_result(self, result: Response) -> None:
        received: list[Any] = result.output  # the items as received, read as plain dicts
        output = [_replayable_item(item) for item in received if type(item) is dict]
        ids = tuple(item.get("call_id") for item in output if item.get("type") in CALL_OUTPUT)
        turn = Turn(result.model, ids)
        self._items.extend(output)
        self._meta.extend([turn] * len(output))

    @history_arguments
    def add_tool_result(self, call_id: str, content: Any, is_error: bool = False) -> None:
        """Append the ``function_call_output`` (``custom_tool_call_output`` for a custom tool
        call) for ``call_id``. ``is_error`` has no wire field: put the error in ``content``."""
        kind = "function_call_output"
        for item in reversed(self._items):
            if item.get("call_id") == call_id and item.get("type") in CALL_OUTPUT:
                kind = CALL_OUTPUT[item["type"]]
                break
        self.append({"type": kind, "call_id": call_id, "output": as_content(content)})

    def _validate(self) -> None:
        items = self._items
        meta = self._meta
        pending: dict[Any, tuple[int, str]] = {}
        group: Turn | None = None
        group_ids: list[Any] = []
        known = self._replayable
        replayable: dict[int, Any] = {}
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
            if kind in CALL_OUTPUT:
                call_id = item.get("call_id")
                if kind == "function_call":
                    arguments = item.get("arguments")
                    if known.get(
                        id(arguments), UNSEEN
                    ) is not arguments and not arguments_replayable(arguments):
                        raise HistoryError(i, arguments_problem(call_id))
                    replayable[id(arguments)] = arguments
                group_ids.append(call_id)
                pending[call_id] = (i, CALL_OUTPUT[kind])
            elif kind in OUTPUT_TYPES:
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
                (kind is None or kind == "message") and item.get("role") in INPUT_ROLES and pending
            ):
                call_id, (index, _) = next(iter(pending.items()))
                raise HistoryError(
                    index, f"function call {call_id!r} has no output before item {i}"
                )
        if group is not None:
            _check_group(len(items) - 1, group, group_ids)
        self._replayable = replayable
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


def _check_group(last: int, turn: Turn, ids: list[Any]) -> None:
    if turn.call_ids is not None and tuple(ids) != turn.call_ids:
        raise HistoryError(last, ids_changed(turn.call_ids, tuple(ids)))
