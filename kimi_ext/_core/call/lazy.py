"""The one way kimi_ext's packages put imports off until first use (PEP 562).

``import kimi_ext`` loads no client, no httpx; a format package does not load its stream
modules (the whole streaming machinery) or its params TypedDicts (the derived type module);
``kimi_ext.batch`` does not load the runner, nor ``kimi_ext.telemetry`` opentelemetry. Each
such package writes one table, ``name -> module``, passes it to :func:`lazy_attributes`, and
mirrors it in ``if TYPE_CHECKING:`` imports for type checkers and the layer check
(tests/tooling/test_lazy_imports.py holds the two in step).
"""

from __future__ import annotations

import importlib
import sys
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["lazy_attributes"]


def lazy_attributes(
    package: str,
    homes: Mapping[str, str],
    *,
    submodules: bool = False,
    extras: Mapping[str, str] | None = None,
    moved: Mapping[str, tuple[str, str]] | None = None,
) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports a name from its module
    (``homes``: name -> module) when it is first asked for, and keeps it in the package.

    ``submodules``: any other name is tried as a submodule (``kimi_ext.formats``), as
    ``import kimi_ext`` made them reachable. ``extras``: module -> the pip extra that
    installs what it needs; a failed import of such a module says which extra to install.
    ``moved``: old name -> (its module now, its name there), deprecated aliases kept for a
    release: each use warns (``DeprecationWarning``) and is not kept in the package.
    """

    def __getattr__(name: str) -> Any:
        module = homes.get(name)
        if module is None and moved and name in moved:
            now, new_name = moved[name]
            warnings.warn(
                f"{package}.{name} is now {now}.{new_name}", DeprecationWarning, stacklevel=2
            )
            return getattr(importlib.import_module(now), new_name)
        if module is None:
            if submodules:
                try:
                    return importlib.import_module(f"{package}.{name}")
                except ModuleNotFoundError as exc:
                    if exc.name != f"{package}.{name}":
                        raise
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        try:
            home = importlib.import_module(module)
        except ImportError as exc:
            extra = (extras or {}).get(module)
            if extra is None:
                raise
            raise ImportError(
                f"{package}.{name} needs what the extra {extra!r} installs ({exc}); "
                f"pip install 'kimi-ext[{extra}]'"
            ) from exc
        value = getattr(home, name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
