"""``help()`` and ``inspect.signature`` show each format's keyword arguments on ``create``,
``stream``, ``parse`` and ``continue_`` (sync and async), with the types derived from the
spec, while a call still refuses what it refused before."""

from __future__ import annotations

import importlib
import inspect
import pydoc
import types
import typing
from collections.abc import Iterator
from typing import Any

import pytest

from kimi_ext import AsyncKimi, Kimi, RequestValidationError
from kimi_ext.contract import contract

NOWHERE = "http://127.0.0.1:9"  # validation refuses before anything is sent
METHODS = ("create", "stream", "parse", "continue_")
NO_LIMIT = {"timeout", "deadline"}  # a call's None: no limit; left out: the client's


def _resources() -> Iterator[tuple[str, str, Any]]:
    for client in (Kimi(api_key="k", base_url=NOWHERE), AsyncKimi(api_key="k", base_url=NOWHERE)):
        kind = type(client).__name__
        for fmt, resource in (
            ("chat", client.chat.completions),
            ("messages", client.messages),
            ("responses", client.responses),
        ):
            for name in METHODS:
                if hasattr(resource, name):
                    yield f"{kind}.{fmt}.{name}", fmt, getattr(resource, name)


CASES = list(_resources())


def _expected(fmt: str) -> dict[str, tuple[Any, bool]]:
    """Each keyword of the format's params TypedDict: (annotation, required)."""
    module = importlib.import_module(f"kimi_ext.{fmt}.params")
    hints = typing.get_type_hints(getattr(module, f"{fmt.capitalize()}Params"))
    required = set(contract(fmt).data["required"])
    out = {}
    for name, hint in hints.items():
        if name in required:  # a required field's annotation drops the "not given" None
            args = [a for a in typing.get_args(hint) if a is not type(None)]
            hint = args[0] if len(args) == 1 else typing.Union[tuple(args)]  # noqa: UP007
        out[name] = (hint, name in required)
    return out


@pytest.mark.parametrize(("label", "fmt", "method"), CASES, ids=[c[0] for c in CASES])
def test_signature_lists_every_field_with_its_type(label: str, fmt: str, method: Any) -> None:
    params = inspect.signature(method).parameters
    body_fields = set(contract(fmt).data["fields"]) - {"stream"}  # stream= is create's own
    assert body_fields <= set(params), label
    for name, (hint, required) in _expected(fmt).items():
        param = params[name]
        assert param.kind is inspect.Parameter.KEYWORD_ONLY, (label, name)
        assert param.annotation == hint, (label, name, param.annotation)
        assert (param.default is inspect.Parameter.empty) == required, (label, name)
        if name in NO_LIMIT:  # None asks for no limit, so leaving it out is not None
            assert repr(param.default) == "<the client's>", (label, name)
        elif not required:
            assert param.default is None, (label, name)
    assert not any(p.kind is p.VAR_KEYWORD for p in params.values()), label


@pytest.mark.parametrize(("label", "fmt", "method"), CASES, ids=[c[0] for c in CASES])
def test_help_lists_every_field(label: str, fmt: str, method: Any) -> None:
    text = pydoc.render_doc(method, renderer=pydoc.plaintext)
    assert "**params" not in text, label
    rules = contract(fmt).data
    for name, (_, required) in _expected(fmt).items():
        marker = f"    {name} (required): " if required else f"    {name}: "
        assert marker in text, (label, name)
    # a line from the spec's description of the history field
    history = rules["extensions"]["history-field"]
    description = rules["schema"]["$defs"][rules["request"]]["properties"][history]["description"]
    assert description.split(".")[0] in " ".join(text.split()), label


def test_methods_keep_their_kind() -> None:
    sync = Kimi(api_key="k", base_url=NOWHERE)
    asyn = AsyncKimi(api_key="k", base_url=NOWHERE)
    assert inspect.iscoroutinefunction(asyn.messages.create)
    assert inspect.iscoroutinefunction(asyn.chat.completions.parse)
    assert not inspect.iscoroutinefunction(sync.messages.create)
    assert not inspect.iscoroutinefunction(asyn.responses.stream)  # returns a manager
    assert isinstance(sync.responses.create, types.MethodType)
    assert sync.responses.create.__name__ == "create"
    sync.close()


def test_an_unknown_keyword_is_still_refused() -> None:
    client = Kimi(api_key="k", base_url=NOWHERE)
    with pytest.raises(RequestValidationError, match="bogus"):
        client.chat.completions.create(model="kimi-k3.1-pro", messages=[], bogus=1)
    with pytest.raises(TypeError):
        client.messages.create({"model": "kimi-k3.1-pro"})
    client.close()


async def test_an_unknown_keyword_is_still_refused_async() -> None:
    client = AsyncKimi(api_key="k", base_url=NOWHERE)
    with pytest.raises(RequestValidationError, match="bogus"):
        await client.responses.create(model="kimi-k3.1-pro", input="hi", bogus=1)
    await client.close()


def test_run_tools_lists_the_fields_besides_its_own() -> None:
    client = Kimi(api_key="k", base_url=NOWHERE)
    params = inspect.signature(client.messages.run_tools).parameters
    assert params["tools"].default is inspect.Parameter.empty  # its own: functions to run
    assert params["max_rounds"].default == 10
    for name, (hint, required) in _expected("messages").items():
        if name != "tools":
            assert params[name].annotation == hint, name
            assert (params[name].default is inspect.Parameter.empty) == required, name
    client.close()
