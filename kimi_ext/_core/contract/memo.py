"""Results remembered per object while the object stays as it was: what lets a call with
255 tools check each tool's schema once, not on every call.

A result is kept under the object's ``id()`` with a deep copy of the object taken when it
was computed; it is used again only while the object still equals that copy (a C-speed
``==``, far cheaper than the check it saves). A schema changed in place is checked again;
a new object with the same content may reuse the result, which is the same for equal
content. (``==`` holds 1 and True, or 1 and 1.0, equal: a schema changed in place from one
to the other between two calls keeps its first verdict.)
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from typing import Any, Generic, TypeVar

__all__ = ["SameObjectMemo"]

V = TypeVar("V")

_MISSING: Any = object()


class SameObjectMemo(Generic[V]):
    """Up to ``size`` results by (object identity, key), least recently used first out."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._entries: OrderedDict[tuple[int, Any], tuple[Any, V]] = OrderedDict()

    def get(self, obj: Any, key: Any, default: Any = _MISSING) -> Any:
        """The result for ``obj`` (unchanged since it was put) and ``key``, else ``default``."""
        entry = self._entries.get((id(obj), key))
        if entry is None:
            return default
        snapshot, value = entry
        try:
            same = snapshot == obj
        except RecursionError:
            same = False
        if not same:
            return default
        self._entries.move_to_end((id(obj), key))
        return value

    def put(self, obj: Any, key: Any, value: V) -> V:
        """Remember ``value`` for ``obj`` as it is now (a deep copy of it is kept)."""
        self._entries[(id(obj), key)] = (copy.deepcopy(obj), value)
        if len(self._entries) > self._size:
            self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        self._entries.clear()
