"""The one place a public function's arguments are type-checked: the ``checked`` decorator
of :mod:`kimi_ext._core.contract.arguments` (issue 30)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pytest

from kimi_ext._core.contract.arguments import checked, kind_of, parameter_rule, rule_for
from kimi_ext.errors import KimiError, RequestValidationError

if TYPE_CHECKING:
    from decimal import Decimal


@checked(RequestValidationError)
def sample(
    text: str | None,
    count: int = 1,
    *,
    ratio: float = 1.0,
    flag: bool = False,
    mode: Literal["a", "b", 1] = "a",
    parts: list[dict[str, Any]] | None = None,
    names: Iterable[str] = (),
    table: Mapping[str, int] | None = None,
    rows: Sequence[Mapping[str, Any]] = (),
    hook: Callable[..., Any] | None = None,
    anything: Any = None,
    path: str | os.PathLike[str] | None = None,
    kind: type | None = None,
    **extra: Any,
) -> str:
    return "ran"


def refused(call: Callable[[], Any]) -> RequestValidationError:
    with pytest.raises(RequestValidationError) as info:
        call()
    return info.value


def test_good_arguments_pass_through_unchanged() -> None:
    assert sample("x") == "ran"
    assert sample(None, 3, ratio=2, flag=True, mode=1, parts=[{"a": 1}], names=iter(["a"])) == "ran"
    assert sample("x", table={"a": 1}, rows=[{"k": 1}], hook=print, anything=object()) == "ran"
    assert sample("x", path=Path("p"), kind=int, unknown_but_collected=object()) == "ran"


@pytest.mark.parametrize(
    ("call", "field", "rule"),
    [
        (lambda: sample(5), "text", "must be a str or None"),
        (lambda: sample("x", "3"), "count", "must be an int"),
        (lambda: sample("x", count="3"), "count", "must be an int"),
        # A bool is an int to Python, never to a caller: True given for a count is a mistake.
        (lambda: sample("x", True), "count", "must be an int"),
        (lambda: sample("x", ratio="1"), "ratio", "must be a number"),
        (lambda: sample("x", ratio=True), "ratio", "must be a number"),
        (lambda: sample("x", flag=1), "flag", "must be a bool"),
        (lambda: sample("x", mode="c"), "mode", "must be one of 'a', 'b', 1"),
        (lambda: sample("x", mode=True), "mode", "must be one of 'a', 'b', 1"),
        (lambda: sample("x", mode=[1]), "mode", "must be one of"),
        (lambda: sample("x", parts=[{"a": 1}, 5]), "parts", "(each item a dict)"),
        (lambda: sample("x", parts=({"a": 1},)), "parts", "must be a list"),
        (lambda: sample("x", names=5), "names", "must be an iterable"),
        (lambda: sample("x", names=[1]), "names", "each item a str"),
        (lambda: sample("x", table={"a": "1"}), "table", "each value an int"),
        # A str is a Sequence of str only.
        (lambda: sample("x", rows="abc"), "rows", "must be a list (each item a dict)"),
        # And bytes a Sequence of int only (web_search_echo(b"\x00") raised AttributeError).
        (lambda: sample("x", rows=b"\x00"), "rows", "must be a list (each item a dict)"),
        (lambda: sample("x", hook=5), "hook", "must be a callable or None"),
        (lambda: sample("x", path=5), "path", "must be a str, a path (os.PathLike) or None"),
        (lambda: sample("x", kind=5), "kind", "must be a type or None"),
    ],
)
def test_a_wrong_argument_names_the_parameter_the_value_and_the_rule(
    call: Callable[[], Any], field: str, rule: str
) -> None:
    error = refused(call)
    assert isinstance(error, KimiError)
    assert error.field == field
    assert rule in error.rule
    assert str(error).startswith(f"{field}=")


def test_an_unknown_keyword_or_a_missing_argument_stays_python_s_type_error() -> None:
    @checked(RequestValidationError)
    def strict(a: int, *, b: str = "") -> None: ...

    with pytest.raises(TypeError) as info:
        strict(1, nope=2)  # type: ignore[call-arg]
    assert not isinstance(info.value, KimiError)
    assert "nope" in str(info.value)
    with pytest.raises(TypeError) as missing:
        strict()  # type: ignore[call-arg]
    assert not isinstance(missing.value, KimiError)
    with pytest.raises(TypeError) as extra:
        strict(1, 2)  # type: ignore[misc]
    assert not isinstance(extra.value, KimiError)


def test_the_function_does_not_run_when_an_argument_is_refused() -> None:
    ran: list[int] = []

    @checked(RequestValidationError)
    def side_effect(n: int) -> None:
        ran.append(n)

    refused(lambda: side_effect("1"))  # type: ignore[arg-type]
    assert ran == []
    side_effect(1)
    assert ran == [1]


def test_methods_and_async_functions() -> None:
    class Box:
        @checked(RequestValidationError)
        def put(self, item: str) -> str:
            return item

        @classmethod
        @checked(RequestValidationError)
        def make(cls, size: int) -> int:
            return size

    assert Box().put("a") == "a" and Box.make(2) == 2
    assert refused(lambda: Box().put(1)).field == "item"  # type: ignore[arg-type]
    assert refused(lambda: Box.make("2")).field == "size"  # type: ignore[arg-type]

    @checked(RequestValidationError)
    async def fetch(n: int) -> int:
        return n

    assert asyncio.iscoroutinefunction(fetch)
    assert asyncio.run(fetch(2)) == 2
    with pytest.raises(RequestValidationError, match="n='2': must be an int"):
        asyncio.run(fetch("2"))  # type: ignore[arg-type]


def test_an_annotation_only_a_type_checker_sees_must_be_skipped_by_name() -> None:
    @checked(RequestValidationError)
    def unseen(amount: Decimal) -> None: ...

    # Found by the first call (a test), never silently unchecked.
    with pytest.raises(TypeError, match=r"skip=\('amount',\)"):
        unseen(1)  # type: ignore[arg-type]

    @checked(RequestValidationError, skip=("amount",))
    def skipped(amount: Decimal, n: int) -> None: ...

    skipped(object(), 1)  # type: ignore[arg-type]
    assert refused(lambda: skipped(object(), "1")).field == "n"  # type: ignore[arg-type]


def test_the_annotations_are_read_once_on_the_first_call_not_at_import() -> None:
    @checked(RequestValidationError)
    def later(x: NotYetDefined) -> None: ...  # type: ignore[name-defined]  # noqa: F821

    globals()["NotYetDefined"] = int  # defined after the decorator ran
    try:
        later(1)
        assert refused(lambda: later("1")).rule == "must be an int"
    finally:
        del globals()["NotYetDefined"]


def test_rules_in_words() -> None:
    rule = rule_for(str | list[dict[str, Any]] | None)
    assert rule is not None and rule.text == "a str, a list (each item a dict) or None"
    assert rule_for(Any) is None and rule_for(object) is None
    assert kind_of(object()) == "an object" and kind_of([]) == "a list"
    found = parameter_rule(sample, "text")
    assert found is not None and found.test(None) and not found.test(5)
    with pytest.raises(TypeError):
        rule_for("NotResolved")
