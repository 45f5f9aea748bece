"""Where a request is built: keyword arguments in, a validated body ready to send out.

The steps, in order: drop client-only options and top-level ``None``s, turn history objects
into wire lists, place and normalize ``effort``, rewrite the JSON Schemas the request carries
into Moonshot's rules where they break them and can be rewritten losslessly (unless the
client says ``schemas="refuse"``), validate against the documented rules
(:mod:`kimi_ext._core.contract.validation`), then merge ``extra_body`` (on purpose,
unchecked). The path, method and format headers are the format's ``route``, read from the
contract derived from its spec, so the wire stays defined by the specs in ``openapi/``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
from collections.abc import Mapping
from typing import Any

from kimi_ext._core.call.format import Format
from kimi_ext._core.contract import format_path
from kimi_ext._core.contract.effort import normalize_effort
from kimi_ext._core.contract.memo import SameObjectMemo
from kimi_ext._core.contract.options import CLIENT_OPTIONS, check_options
from kimi_ext._core.contract.text import has_lone_surrogate
from kimi_ext._core.contract.validation import validate
from kimi_ext._core.model.budget import fit_window
from kimi_ext._core.model.history import History
from kimi_ext._core.transport.request import UNSET_TIMEOUT, Prepared
from kimi_ext.errors import RequestValidationError

logger = logging.getLogger("kimi_ext")


def prepare(
    fmt: Format[Any, Any, Any],
    params: Mapping[str, Any],
    *,
    stream: bool = False,
    schemas: str = "normalize",
) -> Prepared:
    """Build and validate the request for ``fmt`` from wire-named keyword arguments.

    ``stream`` is the one decision whether the call streams (the resource's: ``create(stream=
    True)`` or ``stream()``); the Prepared carries it, and a ``stream`` in ``params`` or in
    ``extra_body`` that says otherwise is refused (:func:`check_stream`).

    ``schemas``: ``"normalize"`` rewrites a JSON Schema of the user's (tool parameters, an
    output schema) that breaks Moonshot's rules into an equivalent one that keeps them
    (logged at DEBUG); ``"refuse"`` leaves it to validation, which refuses it.

    Raises RequestValidationError (and sends nothing) when a documented rule is broken.
    """
    try:
        body = build_body(fmt, params, stream=stream, schemas=schemas)
    except (RecursionError, UnicodeEncodeError):
        # Absurdly deep input, or a lone surrogate a rule measured in UTF-8, met while
        # validating: name where it is.
        raise _json_problem({k: v for k, v in params.items() if k not in CLIENT_OPTIONS}) from None
    try:
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        # The fast encoder failed: walk the body (slowly, once) to name the value.
        raise _json_problem(body) from None
    try:
        content = text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (half of a pair, as a server once sent it): UTF-8 cannot carry
        # it, JSON's \u escapes can, so the history stays sendable exactly as received.
        content = json.dumps(body, separators=(",", ":"), allow_nan=False).encode("ascii")
    # One copy of a large body, not two: kept until return, the text made the next call
    # encode its JSON into fresh memory (~600 more page faults for 2.5 MB, measured).
    del text
    limit = fmt.contract.max_body_bytes
    if limit is not None and len(content) > limit:
        raise RequestValidationError(
            "body",
            f"<{len(content):,} bytes>",
            f"the request body may be at most {limit:,} bytes (the service's limit)",
        )
    method, path, headers = fmt.route
    headers = dict(headers)
    extra_headers = params.get("extra_headers")
    if extra_headers:
        headers.update(extra_headers)
    return Prepared(
        method=method,
        path=path,
        headers=headers,
        content=content,
        timeout=params.get("timeout", UNSET_TIMEOUT),
        max_retries=params.get("max_retries"),
        stream=stream,
        deadline=params.get("deadline", UNSET_TIMEOUT),
        # Kept for hooks only when small: a large body (a long history) is let go of now,
        # as before (holding it through the send cost page faults, see above).
        built=body if len(content) <= _KEEP_BUILT else None,
    )


# The largest body whose dict a Prepared keeps (hooks read its fields without decoding).
_KEEP_BUILT = 1 << 16

# Deeper than this, a body is refused (json and the validators recurse per level).
MAX_DEPTH = 500


def _json_problem(body: Any) -> RequestValidationError:
    """The error naming the first value of ``body`` that is not JSON: its path and type.

    Iterative, so it works on input too deep for the recursive encoder.
    """
    stack: list[tuple[Any, str, int, tuple[int, ...]]] = [(body, "", 0, ())]
    while stack:
        value, path, depth, parents = stack.pop()
        where = path.lstrip(".") or "body"
        if depth > MAX_DEPTH:
            return RequestValidationError(
                _short_path(where), type(value).__name__,
                f"is nested more than {MAX_DEPTH} levels deep; JSON this deep is refused",
            )  # fmt: skip
        if value is None or isinstance(value, bool | int):
            continue
        if isinstance(value, float):
            if not math.isfinite(value):
                return RequestValidationError(
                    where, value, f"a {type(value).__name__} NaN or Infinity is not a JSON number"
                )
            continue
        if isinstance(value, str):
            if has_lone_surrogate(value):
                return RequestValidationError(
                    where, value, "a str with a lone surrogate, which UTF-8 cannot encode"
                )
            continue
        if isinstance(value, dict | list | tuple):
            if id(value) in parents:
                return RequestValidationError(
                    where, type(value).__name__, "is circular: it contains itself"
                )
            inner = (*parents, id(value))
            if isinstance(value, dict):
                items: list[tuple[str, Any]] = []
                for key, item in value.items():
                    if isinstance(key, str):
                        if has_lone_surrogate(key):
                            return RequestValidationError(
                                f"{where}[{key!r}]", key,
                                "the key contains a lone surrogate, which UTF-8 cannot encode",
                            )  # fmt: skip
                        items.append((f"{path}.{key}", item))
                    elif key is None or isinstance(key, int | float):
                        items.append((f"{path}[{key!r}]", item))
                    else:
                        return RequestValidationError(
                            f"{where}[{key!r}]", type(key).__name__,
                            "a JSON object key must be a string",
                        )  # fmt: skip
            else:
                items = [(f"{path}[{i}]", item) for i, item in enumerate(value)]
            stack.extend((item, p, depth + 1, inner) for p, item in reversed(items))
            continue
        return RequestValidationError(
            where, type(value).__name__,
            f"a {type(value).__name__} is not a JSON value (use str, int, float, bool, None, "
            "dict or list)",
        )  # fmt: skip
    return RequestValidationError("body", type(body).__name__, "cannot be encoded as JSON")


def _short_path(path: str) -> str:
    return path if len(path) <= 120 else f"{path[:100]}...({path.count('[')} levels)"


def build_body(
    fmt: Format[Any, Any, Any],
    params: Mapping[str, Any],
    *,
    stream: bool = False,
    schemas: str = "normalize",
) -> dict[str, Any]:
    """The validated JSON body for ``params`` (see :func:`prepare`)."""
    check_options(params)
    check_stream(params, stream)
    body: dict[str, Any] = {
        k: v for k, v in params.items() if v is not None and k not in CLIENT_OPTIONS
    }
    history = body.get(fmt.history_field)
    received: frozenset[int] | None = None  # a plain list: not known
    if isinstance(history, History):
        received = _place_history(fmt, body, history)
    elif history is not None and not isinstance(history, list | str | Mapping):
        # A tuple or generator of messages; anything else is left for validation to name.
        with contextlib.suppress(TypeError):
            body[fmt.history_field] = list(history)
    if stream:
        body["stream"] = True
    if body.get("stream") is True:
        for name, value in fmt.stream_defaults.items():
            body.setdefault(name, value)
    _place_effort(fmt, body, params.get("effort"))
    if schemas == "normalize":
        for path, role in fmt.contract.schema_fields:
            body = _with_normalized(body, path, role, ())
    # The context window (kimi_ext/_core/model/budget.py): refuse an input sure to exceed
    # it, and turn an output limit of "auto" into the room left.
    fit_window(fmt.name, body, history.turn_records() if isinstance(history, History) else None)
    validate(fmt.name, body, received=received)
    extra = params.get("extra_body")
    if extra:
        body.update(extra)
    return body


def _with_normalized(node: Any, path: tuple[str, ...], role: str, where: tuple[Any, ...]) -> Any:
    """``node`` with each schema at ``path`` below it normalized; ``node`` itself when none
    changes, else a copy of each container on the way (the caller's objects are never
    changed). ``*`` in ``path``: every item of a list."""
    if not path:
        return _normalized(node, role, where) if isinstance(node, Mapping) else node
    head, rest = path[0], path[1:]
    if head == "*":
        if not isinstance(node, list):
            return node
        out: list[Any] | None = None
        for index, item in enumerate(node):
            new = _with_normalized(item, rest, role, (*where, index))
            if new is not item:
                out = out if out is not None else list(node)
                out[index] = new
        return node if out is None else out
    if not isinstance(node, Mapping) or head not in node:
        return node
    child = node[head]
    new = _with_normalized(child, rest, role, (*where, head))
    return node if new is child else {**node, head: new}


# Each schema's normalized form (the schema itself when it keeps the rules, or when it cannot
# be rewritten: validation then refuses it in the service's words), while it is unchanged.
_NORMALIZED: SameObjectMemo[Any] = SameObjectMemo()
_UNKNOWN: Any = object()


def _normalized(schema: Mapping[str, Any], role: str, where: tuple[Any, ...]) -> Any:
    found = _NORMALIZED.get(schema, role, _UNKNOWN)
    if found is _UNKNOWN:
        try:  # a value JSON cannot write (circular, a set...): validation names it
            json.dumps(schema, allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            return schema
        from kimi_ext._core.contract import mfjs  # its rules are loaded on the first schema

        try:
            new, changes = mfjs.normalize(schema, role)
        except RequestValidationError:  # validation refuses it, in the service's words
            new, changes = {}, []
        # (None, ()) for a schema sent as it is.
        found = _NORMALIZED.put(schema, role, (new, tuple(changes)) if changes else (None, ()))
    new, changes = found
    if new is None:
        return schema
    if logger.isEnabledFor(logging.DEBUG):  # on every call that sends the rewritten form
        logger.debug(
            "rewrote the JSON Schema at %s into Moonshot's rules (the same instances pass): %s",
            format_path(where), "; ".join(str(change) for change in changes),
        )  # fmt: skip
    return new


def check_stream(params: Mapping[str, Any], streams: bool) -> None:
    """Refuse a ``stream`` (given as a keyword or inside ``extra_body``) that disagrees with
    ``streams``, the caller's decision, before anything is sent.

    Whether a call streams decides what it returns (a result or a stream, as its type says),
    so it is made once, by the method called; a body flag cannot change it behind the
    caller's back (the reply would be read as the wrong kind)."""
    extra = params.get("extra_body")
    for where, holder in (("stream", params), ("extra_body.stream", extra)):
        if not isinstance(holder, Mapping) or holder.get("stream") is None:
            continue
        value = holder["stream"]
        if isinstance(value, bool) and value is streams:
            continue
        if holder is params and not isinstance(value, bool):
            continue  # not a boolean: the contract's rule for the field names it
        if streams:
            rule = (
                "this call streams (create(stream=True) or stream()); use create() "
                "without stream for one whole answer"
            )
        else:
            rule = (
                "this call does not stream: whether a call streams is chosen by the method "
                "called, not by the body; use create(stream=True) or stream() for a stream "
                "(parse(), run_tools() and continue_() never stream)"
            )
        raise RequestValidationError(where, value, rule)


def check_history_kind(fmt: Format[Any, Any, Any], history: History) -> None:
    """Refuse a history object of another format: its turns carry what this format cannot
    (Chat ``reasoning_content`` sent to Messages would be lost), so nothing is sent."""
    if not isinstance(history, fmt.history_type):
        raise RequestValidationError(
            fmt.history_field,
            history,
            f"a {type(history).__name__} cannot be sent in the {fmt.name} format (its turns "
            f"would lose what {fmt.name} cannot carry, such as their reasoning); keep a "
            f"{fmt.history_type.__name__} for {fmt.name} calls",
        )


def _place_history(
    fmt: Format[Any, Any, Any], body: dict[str, Any], history: History
) -> frozenset[int]:
    """Put ``history`` in the body as its wire list, with the system prompt (Messages) or
    instructions (Responses) it keeps; return the positions of the items the service sent."""
    check_history_kind(fmt, history)
    name = fmt.system_field
    kept = getattr(history, name) if name is not None else None
    if name is not None and kept is not None:
        given = body.get(name)
        if given is None:
            body[name] = kept
        elif given != kept:
            raise RequestValidationError(
                name,
                given,
                f"disagrees with the {name} the {type(history).__name__} keeps "
                f"({_shown(kept)}); give one of them",
            )
    body[fmt.history_field] = history.to_wire()
    return history.received_positions()


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _place_effort(fmt: Format[Any, Any, Any], body: dict[str, Any], effort: Any) -> None:
    """Put ``effort`` in the format's own field and normalize aliases there."""
    path = fmt.effort_path
    field_name = ".".join(path)
    parent: dict[str, Any] = body
    if len(path) == 2:
        container = body.get(path[0])
        if container is None:
            if effort is None:
                return
            container = {}
        elif not isinstance(container, Mapping):
            raise RequestValidationError(path[0], container, "must be an object")
        parent = body[path[0]] = dict(container)  # copy: never mutate the caller's dict
    native = parent.get(path[-1])
    model = body.get("model")
    if effort is not None:
        level = normalize_effort(effort, model=model, field="effort", fmt=fmt.name)
        if (
            native is not None
            and normalize_effort(native, model=model, field=field_name, fmt=fmt.name) != level
        ):
            raise RequestValidationError(
                field_name, native, f"disagrees with effort={effort!r}; give one of them"
            )
        parent[path[-1]] = level
    elif native is not None:
        parent[path[-1]] = normalize_effort(native, model=model, field=field_name, fmt=fmt.name)
