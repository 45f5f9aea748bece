"""Rules about a replayed conversation that no schema can state, written once for the
client's history checks and the stand-in (which answers them in the service's words)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any


def arguments_replayable(arguments: Any) -> bool:
    """Whether tool-call arguments can be sent back: the service refuses replayed arguments
    that are not valid JSON (strictly: raw control characters inside strings too). A value
    that is not a string, or is blank, stands for no arguments and passes."""
    if not isinstance(arguments, str) or not arguments.strip():
        return True
    try:
        json.loads(arguments)
    except ValueError:
        return False
    return True


def first_duplicate(ids: Iterable[Any]) -> Any:
    """The first tool-call id that appears twice in one turn (None when all differ): the
    service refuses a turn that repeats one."""
    seen: set[Any] = set()
    for call_id in ids:
        if call_id in seen:
            return call_id
        seen.add(call_id)
    return None
