"""Every public name of kimi_ext and kimi_ext.testing has a docstring, and so do the methods
and properties of the public classes, the clients' resources and the streams they return."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import pydoc
from typing import Any

import pytest

import kimi_ext
import kimi_ext.testing
from kimi_ext import AsyncKimi, Kimi


def documented(obj: Any) -> bool:
    # inspect.getdoc inherits: an override of a documented method is documented.
    return bool((inspect.getdoc(obj) or "").strip())


def undocumented_members(cls: type) -> list[str]:
    """Public methods and properties that kimi_ext defines on ``cls`` (or its bases) and
    that have no docstring."""
    missing = []
    for name in dir(cls):
        if name.startswith("_"):
            continue
        owner = next((k for k in cls.__mro__ if name in vars(k)), None)
        if owner is None or not owner.__module__.startswith("kimi_ext"):
            continue  # inherited from object, Exception, Generic...
        raw = inspect.getattr_static(cls, name)
        if isinstance(raw, staticmethod | classmethod):
            raw = raw.__func__
        if isinstance(raw, property):
            target: Any = raw
        elif inspect.isfunction(raw) or inspect.ismethoddescriptor(raw):  # also @keywords
            target = getattr(cls, name)
        else:
            continue  # data attributes and constants
        if not documented(target):
            missing.append(f"{cls.__module__}.{cls.__qualname__}.{name}")
    return missing


def public_names() -> list[tuple[str, Any]]:
    return [
        (f"{module.__name__}.{name}", getattr(module, name))
        for module in (kimi_ext, kimi_ext.testing)
        for name in module.__all__
        if not name.isupper() and name != "__version__"  # constants are data
    ]


@pytest.mark.parametrize(("qualname", "obj"), public_names(), ids=[n for n, _ in public_names()])
def test_public_name_has_a_docstring(qualname: str, obj: Any) -> None:
    assert documented(obj), f"{qualname} has no docstring"
    if inspect.isclass(obj):
        assert undocumented_members(obj) == []


def resource_classes() -> list[type]:
    sync = Kimi(api_key="k", base_url="http://127.0.0.1:9")
    asyn = AsyncKimi(api_key="k", base_url="http://127.0.0.1:9")
    found: list[type] = []
    for client in (sync, asyn):
        found += [type(client.chat), type(client.chat.completions), type(client.messages),
                  type(client.responses)]  # fmt: skip
    sync.close()
    return found


def test_resources_and_their_methods_are_documented() -> None:
    classes = resource_classes()
    assert len(set(classes)) == 8
    for cls in classes:
        assert documented(cls), cls
        assert undocumented_members(cls) == []
    for cls in classes:
        for method in ("create", "stream", "parse", "run_tools"):
            if hasattr(cls, method):
                assert documented(getattr(cls, method)), f"{cls.__name__}.{method}"


@pytest.mark.parametrize(
    ("module", "names"),
    [
        ("kimi_ext.chat.stream", ["ChatCompletionStream", "AsyncChatCompletionStream"]),
        ("kimi_ext.messages.stream", ["MessageStream", "AsyncMessageStream"]),
        ("kimi_ext.responses.stream", ["ResponseStream", "AsyncResponseStream"]),
        ("kimi_ext._core.streaming.stream", ["StreamManager", "AsyncStreamManager"]),
        ("kimi_ext.structured", ["Structured"]),
    ],
)
def test_what_the_resources_return_is_documented(module: str, names: list[str]) -> None:
    mod = importlib.import_module(module)
    for name in names:
        cls = getattr(mod, name)
        assert documented(cls), name
        assert undocumented_members(cls) == []


def test_every_module_has_a_docstring() -> None:
    missing = [
        info.name
        for info in pkgutil.walk_packages(kimi_ext.__path__, "kimi_ext.")
        if not (importlib.import_module(info.name).__doc__ or "").strip()
    ]
    assert missing == []


def test_help_on_the_client_is_useful() -> None:
    text = pydoc.render_doc(Kimi, renderer=pydoc.plaintext)
    for needed in ("KIMI_API_KEY", "client.chat.completions", "client.messages",
                   "client.responses", "fallback_base_url", "close"):  # fmt: skip
        assert needed in text, needed
