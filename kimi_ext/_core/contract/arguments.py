"""The argument types of public functions, checked in one place: against the function's own
annotations.

A public entry point that takes a value of the wrong type should say so, naming the
parameter, the value and the rule, before it does anything, rather than fail somewhere
inside with a raw ``TypeError`` or ``AttributeError``. Instead of an ``isinstance`` check
written by hand in each function, the function is decorated::

    @checked(RequestValidationError)
    def web_search_echo(source: ChatCompletion | Mapping[str, Any], *, names: Iterable[str] = ()):
        ...

    web_search_echo(None)
    # RequestValidationError: source=None: must be a ChatCompletion or a dict

``error`` is called as ``error(parameter, value, rule)`` and must return the exception to
raise (a :class:`~kimi_ext.KimiError`): :class:`~kimi_ext.RequestValidationError` fits as
it is; :func:`message` writes the usual ``parameter=value: rule`` text for the others.

What is checked, shallowly, for each annotated parameter given in the call (defaults are
not checked):

- a class: ``isinstance`` (a ``bool`` is not an ``int``; an ``int`` is a ``float``);
- ``X | Y``, ``Optional[X]``: one of them; ``Literal[...]``: one of the values, of the same
  type (``True`` is not ``1``); ``Callable[...]``: ``callable()``; ``type[X]``: a class;
- containers (``list[X]``, ``Sequence[X]``, ``Iterable[X]``, ``Mapping[K, V]``, ``dict``...):
  the container's class, and its items when the value is a list, tuple or str, or a
  dict's values (already in memory: an iterator is never consumed, so a generator is not
  checked inside). A ``str`` is not a ``Sequence`` of anything but ``str``, nor
  ``bytes`` of anything but ``int``;
- ``Any``, ``object``, a ``TypeVar``, an unannotated parameter (``self``), ``*args`` and
  ``**kwargs``: nothing.

An unknown keyword name, a missing or an extra argument is left to Python: a plain
``TypeError``, as for any function. A parameter listed in ``skip`` is not checked (for
an annotation only a type checker can read, say a name imported under ``TYPE_CHECKING``);
any other annotation this cannot check raises ``TypeError`` on the first call, so a test
that calls the function once finds it.

The annotations are read and compiled once, on the first call (never at import); a call
then costs a ``zip`` over the positional arguments, a dict look-up per keyword argument
and one ``isinstance`` per checked value (about a microsecond for a method with two
arguments).
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import os
import types
import typing
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast

__all__ = ["Rule", "checked", "kind_of", "message", "parameter_rule", "rule_for", "short"]

F = TypeVar("F", bound=Callable[..., Any])
ErrorFactory = Callable[[str, Any, str], Exception]


def short(value: Any) -> str:
    """``repr(value)``, cut to 80 characters."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the error being reported
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def message(parameter: str, value: Any, rule: str) -> str:
    """The text of an argument error: ``parameter=value: rule``."""
    return f"{parameter}={short(value)}: {rule}"


@dataclass(frozen=True, slots=True)
class Rule:
    """What a value must be: ``test(value)`` says whether it is, ``text`` says it in words
    (``"a str or None"``); ``classes`` is set when the test is one ``isinstance``."""

    test: Callable[[Any], bool]
    text: str
    classes: tuple[type, ...] | None = None


# How a class is named in a rule (the rest: "a <name>").
_NAMES: dict[Any, str] = {
    str: "a str",
    bytes: "bytes",
    int: "an int",
    float: "a number",
    bool: "a bool",
    dict: "a dict",
    list: "a list",
    tuple: "a tuple",
    set: "a set",
    frozenset: "a frozenset",
    type(None): "None",
    collections.abc.Mapping: "a dict",
    collections.abc.MutableMapping: "a dict",
    collections.abc.Sequence: "a list",
    collections.abc.MutableSequence: "a list",
    collections.abc.Iterable: "an iterable",
    collections.abc.Collection: "a collection",
    collections.abc.Set: "a set",
    collections.abc.Callable: "a callable",
    os.PathLike: "a path (os.PathLike)",
}


def _name(cls: type) -> str:
    name = _NAMES.get(cls)
    if name is not None:
        return name
    word = cls.__name__
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def kind_of(value: Any) -> str:
    """What ``value`` is, in the words of a rule: ``"an object"``, ``"a dict"``."""
    return _name(type(value))


def _join(texts: list[str]) -> str:
    unique = list(dict.fromkeys(texts))
    return unique[0] if len(unique) == 1 else ", ".join(unique[:-1]) + " or " + unique[-1]


def _class_rule(classes: tuple[type, ...]) -> Rule:
    """One isinstance over ``classes``; a bool passes only when ``bool`` is named (an int
    field given True is a mistake), an int wherever ``float`` is (as for type checkers)."""
    text = _join([_name(c) for c in classes])
    wanted = classes + ((int,) if float in classes and int not in classes else ())
    # The verdict per class of value, found once: isinstance against an abstract class
    # (Mapping, Iterable) is slow, and the same few classes come every time.
    verdicts: dict[type, bool] = {
        bool: bool in classes or (int not in wanted and isinstance(True, wanted))
    }

    def test(value: Any) -> bool:
        kind = value.__class__
        verdict = verdicts.get(kind)
        if verdict is None:
            verdict = verdicts[kind] = isinstance(value, wanted)
        return verdict

    return Rule(test, text, classes)


_SEQUENCES = frozenset(
    {
        list,
        tuple,
        set,
        frozenset,
        collections.abc.Sequence,
        collections.abc.MutableSequence,
        collections.abc.Iterable,
        collections.abc.Collection,
        collections.abc.Set,
    }
)
_MAPPINGS = frozenset({dict, collections.abc.Mapping, collections.abc.MutableMapping})


def _container_rule(origin: type, args: tuple[Any, ...]) -> Rule:
    outer = _class_rule((origin,))
    outer_test = outer.test
    if origin in _MAPPINGS and len(args) == 2:
        # The values only: a key that is not a str is rare, and JSON writes it as one.
        values = rule_for(args[1])
        if values is None:
            return outer
        value_test = values.test

        def mapping_test(value: Any) -> bool:
            if not outer_test(value):
                return False
            if type(value) is not dict:
                return True  # a custom mapping is not walked
            return all(value_test(v) for v in value.values())

        return Rule(mapping_test, f"{outer.text} (each value {values.text})")
    if origin in _SEQUENCES and args and not (origin is tuple and args[-1] is not Ellipsis):
        items = rule_for(args[0])
        if items is None:
            return outer
        item_test = items.test
        strings_ok = item_test("")
        ints_ok = item_test(0)

        def sequence_test(value: Any) -> bool:
            if not outer_test(value):
                return False
            kind = type(value)
            if kind is str:
                return strings_ok or not value  # its items are str
            if kind is bytes or kind is bytearray:
                return ints_ok or not value  # its items are int
            if kind is list or kind is tuple:
                return all(item_test(item) for item in value)
            return True  # an iterator or a custom collection: not consumed

        return Rule(sequence_test, f"{outer.text} (each item {items.text})")
    return outer


def rule_for(annotation: Any) -> Rule | None:
    """The rule of a (resolved) annotation; None when anything goes (``Any``, ``object``,
    a ``TypeVar``). Raises TypeError for an annotation it cannot check."""
    if annotation is Any or annotation is object or isinstance(annotation, TypeVar):
        return None
    if annotation is None or annotation is type(None):
        return _class_rule((type(None),))
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return rule_for(args[0])
    if origin is typing.Union or origin is types.UnionType:
        rules = [rule_for(a) for a in args]
        if any(r is None for r in rules):
            return None
        checked = cast(list[Rule], rules)
        if all(r.classes is not None for r in checked):
            return _class_rule(tuple(c for r in checked for c in r.classes or ()))
        tests = tuple(r.test for r in checked)

        def union_test(value: Any) -> bool:
            return any(test(value) for test in tests)

        return Rule(union_test, _join([r.text for r in checked]))
    if origin is typing.Literal:
        allowed = frozenset((type(a), a) for a in args)

        def literal_test(value: Any) -> bool:
            try:
                return (type(value), value) in allowed
            except TypeError:  # unhashable: not one of the values
                return False

        return Rule(literal_test, "one of " + ", ".join(repr(a) for a in args))
    if annotation is collections.abc.Callable or origin is collections.abc.Callable:
        return Rule(callable, "a callable")
    if annotation is type or origin is type:
        return _class_rule((type,))
    if isinstance(origin, type):
        return _container_rule(origin, args)
    supertype = getattr(annotation, "__supertype__", None)  # a NewType
    if supertype is not None:
        return rule_for(supertype)
    if typing.is_typeddict(annotation):
        return _class_rule((dict,))
    if isinstance(annotation, type):
        if getattr(annotation, "_is_protocol", False) and not getattr(
            annotation, "_is_runtime_protocol", False
        ):
            raise TypeError(f"cannot check a value against the protocol {annotation!r}")
        return _class_rule((annotation,))
    raise TypeError(f"cannot check a value against {annotation!r}")


@dataclass(frozen=True, slots=True)
class _CompiledRules:
    """A function's compiled rules: by position (None: not checked) and by name."""

    positional: tuple[tuple[str, Rule] | None, ...]
    named: Mapping[str, tuple[str, Rule]]


def _resolve(fn: Callable[..., Any], name: str, annotation: Any) -> Any:
    if not isinstance(annotation, str):
        return annotation
    try:
        # The module's own names, as a type checker reads them.
        return eval(annotation, getattr(inspect.unwrap(fn), "__globals__", {}), {})
    except NameError as exc:
        raise TypeError(
            f"{fn.__qualname__}: the annotation of {name!r} ({annotation}) names something "
            f"only a type checker sees ({exc}); give skip=({name!r},)"
        ) from None


def _plan(fn: Callable[..., Any], skip: Collection[str]) -> _CompiledRules:
    positional: list[tuple[str, Rule] | None] = []
    named: dict[str, tuple[str, Rule]] = {}
    for param in inspect.signature(fn).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        entry: tuple[str, Rule] | None = None
        if param.name not in skip and param.annotation is not param.empty:
            rule = rule_for(_resolve(fn, param.name, param.annotation))
            if rule is not None:
                entry = (param.name, rule)
        if param.kind is not param.KEYWORD_ONLY:
            positional.append(entry)
        if entry is not None and param.kind is not param.POSITIONAL_ONLY:
            named[param.name] = entry
    while positional and positional[-1] is None:
        positional.pop()
    return _CompiledRules(tuple(positional), named)


def parameter_rule(fn: Callable[..., Any], name: str) -> Rule | None:
    """The rule of ``fn``'s parameter ``name`` (None when anything goes), for a value that
    comes another way than as an argument (a saved history's system prompt, say)."""
    annotation = inspect.signature(fn).parameters[name].annotation
    if annotation is inspect.Parameter.empty:
        return None
    return rule_for(_resolve(fn, name, annotation))


def checked(error: ErrorFactory, *, skip: Collection[str] = ()) -> Callable[[F], F]:
    """Decorate a function so each argument given is checked against its annotation first;
    a wrong one raises ``error(parameter, value, "must be ...")`` and the function does not
    run. Works for methods (decorate under ``classmethod``) and ``async def`` functions
    (the check runs when the coroutine starts)."""

    def decorate(fn: F) -> F:
        plans: list[_CompiledRules] = []

        def check(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
            if not plans:
                plans.append(_plan(fn, skip))
            plan = plans[0]
            # Extra positional arguments are Python's to refuse (a TypeError, below).
            for entry, value in zip(plan.positional, args, strict=False):
                if entry is not None and not entry[1].test(value):
                    raise error(entry[0], value, "must be " + entry[1].text)
            if kwargs:
                named = plan.named
                for name, value in kwargs.items():
                    found = named.get(name)  # an unknown name: Python's TypeError, below
                    if found is not None and not found[1].test(value):
                        raise error(name, value, "must be " + found[1].text)

        if inspect.iscoroutinefunction(fn):

            async def run_async(*args: Any, **kwargs: Any) -> Any:
                check(args, kwargs)
                return await fn(*args, **kwargs)

            wrapper: Callable[..., Any] = run_async
        else:

            def run(*args: Any, **kwargs: Any) -> Any:
                check(args, kwargs)
                return fn(*args, **kwargs)

            wrapper = run
        return cast(F, functools.update_wrapper(wrapper, fn))

    return decorate
