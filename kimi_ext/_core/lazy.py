"""Imports put off until first use: the stream modules pull in the whole streaming
machinery, which an application that never streams should not pay for at import time."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["lazy_attributes"]


def lazy_attributes(package: str, module: str, names: Iterable[str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` (PEP 562) for ``package`` that imports ``names`` from
    ``module`` when one is first asked for."""
    lazy = frozenset(names)

    def __getattr__(name: str) -> Any:
        if name in lazy:
            return getattr(importlib.import_module(module), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
