"""``python -m benchmarks.validator``: kimi_ext's reference validator against ``jsonschema``.

The reference validator (``kimi_ext/_core/contract/schema.py``) runs when the generated
fast check refuses a body: it names the path, the value and the rule. The contender is
``jsonschema`` extended with the specs' ``x-kimi-*`` keywords and a tag-dispatching
``oneOf`` (:mod:`benchmarks.jsonschema_reference`). Three comparisons:

1. wording: on a corpus of bad bodies (the cases of tests/client/test_validation.py, and
   bodies drawn by the property tests' strategies, derandomized so every run draws the
   same ones), the client's error (what ``create`` raises) and the stand-in's violation
   (``Contract.check``) of each, by each validator: same path, value, rule, expected
   types and service sentence? And does each keep test_validation's promises?
2. time: the reference check of a failing 2.5 MB body (the benchmarks' 200-turn history
   with one wrong value in its middle turn), and the fast check of the valid body with
   each as the fallback for the nodes it does not inline;
3. lines of code.

Not one of the timed groups of ``python -m benchmarks``: it takes about a minute.
``--examples N`` sets how many bodies each strategy draws (default 150 per format).
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import inspect
import io
import json
import statistics
import time
import tokenize
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The corpus is the tests' own (the package ``tests``, importable from the repository root
# as ``python -m benchmarks.validator`` runs).

from kimi_ext._core.call.building import prepare  # noqa: E402
from kimi_ext._core.contract import (  # noqa: E402
    Contract,
    Violation,
    contract,
    fast,
)
from kimi_ext._core.contract import schema as ours_module  # noqa: E402
from kimi_ext._core.contract.fast import Fail  # noqa: E402
from kimi_ext.errors import RequestValidationError  # noqa: E402
from kimi_ext.formats import format_named  # noqa: E402

from . import jsonschema_reference  # noqa: E402
from .jsonschema_reference import Adapter  # noqa: E402
from .payloads import FORMATS, MODEL, history_messages  # noqa: E402


def build_fast(compiler: Any, root: str) -> Any:
    """The fast check of ``root`` bound to ``compiler``. The client loads the module ``make
    generate`` wrote (bound to its own compiler); this comparison binds the same generated
    source to either compiler, so it compiles that source here, in the benchmark only."""
    namespace: dict[str, Any] = {}
    exec(compile(fast.source(compiler, root, "build"), f"<bench {root}>", "exec"), namespace)
    return namespace["build"](
        compiler.compile, Fail, fast.has_lone_surrogate, fast._MISSING, fast._FailingDict,
        fast.ecma_pattern, fast.near_typos,
    )  # fmt: skip


Outcome = tuple[Any, ...] | None

_ADAPTERS: dict[tuple[str, Any], Any] = {}
_ORIGINAL = Contract.reference_check


def _adapter_check(self: Contract, body: Any, *, closed: Any = None) -> None:
    check = _ADAPTERS.get((self.format, closed))
    if check is None:
        adapter = Adapter(self._compiler(closed).defs)
        check = _ADAPTERS[(self.format, closed)] = adapter.ref(self.data["request"])
    check(body, ())


@contextlib.contextmanager
def using(name: str) -> Iterator[None]:
    """Every reference check (the client's and the stand-in's) by ``name``'s validator."""
    if name == "jsonschema":
        Contract.reference_check = _adapter_check  # type: ignore[method-assign]
    try:
        yield
    finally:
        Contract.reference_check = _ORIGINAL  # type: ignore[method-assign]


def client_outcome(fmt: str, body: dict[str, Any]) -> Outcome:
    """What ``create(**body)`` raises before sending (client options such as ``effort=``
    are taken out first, as the client does)."""
    try:
        prepare(format_named(fmt), body)
    except RequestValidationError as exc:
        return (exc.field, exc.value, exc.rule)
    return None


def standin_outcome(fmt: str, body: dict[str, Any]) -> Outcome:
    try:
        contract(fmt).check(body)
    except Violation as exc:
        return (exc.path, exc.value, exc.rule, exc.expected, exc.service)
    return None


def both(
    outcome: Callable[[str, dict[str, Any]], Outcome], fmt: str, body: dict[str, Any]
) -> tuple[Outcome, Outcome]:
    with using("ours"):
        ours = outcome(fmt, body)
    with using("jsonschema"):
        try:
            theirs = outcome(fmt, body)
        except Exception as exc:  # a crash is a disagreement, shown as such
            theirs = ("crash", type(exc).__name__, str(exc)[:80])
    return ours, theirs


# ------------------------------------------------------------------ the corpus


def _drawn(strategy: Any, examples: int) -> list[Any]:
    """``examples`` values of ``strategy``, the same ones on every run."""
    from hypothesis import HealthCheck, Phase, given, settings

    out: list[Any] = []

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def draw(value: Any) -> None:
        out.append(copy.deepcopy(value))

    draw()
    return out


def corpus(examples: int) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Bad (and a few valid) bodies by source: (format, body)."""
    from tests._core.contract.test_three_verdicts import drawn_bodies, plain
    from tests.client.test_validation import CASES
    from tests.support.client import minimal
    from tests.support.drawing import mutated
    from tests.support.robustness import json_values
    from tests.support.valid_requests import VALID

    cases = [(fmt, minimal(fmt, **extra)) for fmt, extra, _, _ in CASES]
    drawn: list[tuple[str, dict[str, Any]]] = []
    calls: list[tuple[str, dict[str, Any]]] = []
    for fmt in FORMATS:
        for body, _ in _drawn(drawn_bodies(fmt).flatmap(mutated), examples):
            drawn.append((fmt, body))
        valid = VALID[fmt].map(lambda p, f=fmt: plain(p, f))
        strategy = valid.flatmap(lambda b: mutated(b, json_values, removals=False))
        for body, _ in _drawn(strategy, examples):
            calls.append((fmt, body))
    return {
        "tests/client/test_validation.py cases": cases,
        "drawn from the spec, one value mutated": drawn,
        "valid calls, one value mutated": calls,
    }


def compare_wording(examples: int, verbose: bool) -> list[list[str]]:
    from tests.client.test_validation import CASES

    rows = []
    for name, bodies in corpus(examples).items():
        counts = dict.fromkeys(("bodies", "client", "standin", "path"), 0)
        for fmt, body in bodies:
            results = []
            for outcome in (client_outcome, standin_outcome):
                ours, theirs = both(outcome, fmt, body)
                results.append((ours, theirs))
                if ours != theirs and verbose:
                    print(f"{outcome.__name__} {fmt}:\n  ours   {ours}\n  theirs {theirs}")
            (c_ours, c_theirs), (s_ours, s_theirs) = results
            if c_ours is None and s_ours is None and c_theirs is None and s_theirs is None:
                continue  # valid by both: not a bad body
            counts["bodies"] += 1
            counts["client"] += c_ours == c_theirs
            counts["standin"] += s_ours == s_theirs
            counts["path"] += (c_ours or (None,))[0] == (c_theirs or (None,))[0]
        n = counts["bodies"]
        rows.append(
            [name, str(n)]
            + [
                f"{counts[k]} ({100 * counts[k] / max(n, 1):.0f}%)"
                for k in ("path", "client", "standin")
            ]
        )
    promised = {"ours": 0, "jsonschema": 0}
    from tests.support.client import minimal

    for fmt, extra, field, rule in CASES:
        for name in promised:
            with using(name):
                try:
                    prepare(format_named(fmt), minimal(fmt, **extra))
                except RequestValidationError as exc:
                    promised[name] += (
                        exc.field == field and rule in str(exc) and str(exc).startswith(f"{field}=")
                    )
                except Exception:  # a crash keeps no promise
                    continue
    rows.append(
        [
            "test_validation's promises kept (field, rule fragment, value shown)",
            str(len(CASES)),
            f"ours {promised['ours']}",
            f"jsonschema {promised['jsonschema']}",
            "",
        ]
    )
    return rows


# ------------------------------------------------------------------ time


def failing_history(fmt: str) -> dict[str, Any]:
    """The benchmarks' 200-turn, ~2.5 MB history body with one wrong value in its middle
    turn: a tool call's arguments (Chat, Responses) or input (Messages) made a number."""
    hist, extra = history_messages(fmt, 200)
    field = "input" if fmt == "responses" else "messages"
    items = json.loads(json.dumps(hist.to_wire()))
    body = {"model": MODEL, **extra, field: items}
    if fmt == "messages":
        body["max_tokens"] = 1024
    for item in items[len(items) // 2 :]:
        holders = [item, *item.get("tool_calls", ())]
        holders += [b for b in item.get("content", ()) if isinstance(b, dict)]
        holders += [h.get("function", {}) for h in holders]
        for holder in holders:
            for key in ("arguments", "input"):
                if isinstance(holder.get(key), str | dict):
                    valid = copy.deepcopy(body)
                    holder[key] = 12345
                    return {"valid": valid, "bad": body}
    raise AssertionError(f"no tool call in the {fmt} history")


def _interleaved(runs: list[Callable[[], Any]], reps: int, calls: int = 1) -> list[float]:
    """The median time of one call of each of ``runs``, measured in turns (the machine is
    shared and noisy: side by side, never one after the other)."""
    times: list[list[float]] = [[] for _ in runs]
    for _ in range(reps):
        for run, out in zip(runs, times, strict=True):
            start = time.perf_counter()
            for _ in range(calls):
                run()
            out.append((time.perf_counter() - start) / calls)
    return [statistics.median(t) for t in times]


def _refused(check: Callable[..., None], *args: Any) -> Callable[[], None]:
    def run() -> None:
        with contextlib.suppress(Fail, Violation):
            check(*args)

    return run


# Small valid requests: the fast check inlines what it can and calls the reference
# validator's compiled check for the rest (conditionals, extensions) on every request.
SMALL: dict[str, dict[str, Any]] = {
    "chat": {
        "model": MODEL,
        "messages": [{"role": "user", "content": "Hi"}],
        "tools": [
            {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
        ],
        "tool_choice": "auto",
    },
    "messages": {
        "model": MODEL,
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "Hi"}],
        "tools": [{"name": "f", "input_schema": {"type": "object"}}],
        "tool_choice": {"type": "auto"},
    },
    "responses": {
        "model": MODEL,
        "input": "Hi",
        "tools": [{"type": "function", "name": "f", "parameters": {"type": "object"}}],
        "tool_choice": "auto",
    },
}


def compare_time(reps: int) -> tuple[list[list[str]], list[list[str]]]:
    failing, valid_rows = [], []
    for fmt in FORMATS:
        bodies = failing_history(fmt)
        bad, valid = bodies["bad"], bodies["valid"]
        rules = contract(fmt)
        root = rules.data["request"]
        ours_compiler = rules._compiler("lenient")
        adapter = Adapter(ours_compiler.defs)
        ours, theirs = ours_compiler.ref(root), adapter.ref(root)
        found = []
        for check in (ours, theirs):
            try:
                check(bad, ())
            except Violation as exc:
                found.append(exc.path)
        t_ours, t_theirs = _interleaved([_refused(ours, bad, ()), _refused(theirs, bad, ())], reps)
        where = "same path" if found[0] == found[1] else f"paths differ: {found}"
        size = len(json.dumps(bad).encode()) / 1e6
        failing.append(
            [
                f"{fmt} ({size:.1f} MB, {where})",
                f"{t_ours * 1e3:.1f} ms",
                f"{t_theirs * 1e3:.1f} ms",
                f"{t_theirs / t_ours:.0f}x",
            ]
        )
        fast_ours = build_fast(ours_compiler, root)
        fast_theirs = build_fast(adapter, root)  # type: ignore[arg-type]
        for name, body, calls in (("small, with a tool", SMALL[fmt], 300), ("200 turns", valid, 1)):
            f_ours, f_theirs = _interleaved(
                [_refused(fast_ours, body), _refused(fast_theirs, body)], reps, calls
            )
            valid_rows.append(
                [
                    f"{fmt}, {name}",
                    f"{f_ours * 1e6:.0f} us",
                    f"{f_theirs * 1e6:.0f} us",
                    f"{f_theirs / f_ours:.1f}x",
                ]
            )
    return failing, valid_rows


# ------------------------------------------------------------------ lines


def code_lines(source: str) -> int:
    """Lines holding code: not blank, not only a comment, not a docstring."""
    lines: set[int] = set()
    previous = tokenize.INDENT
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.STRING and previous in (
            tokenize.INDENT,
            tokenize.NEWLINE,
            tokenize.DEDENT,
        ):
            previous = token.type
            continue  # a docstring
        if token.type not in (
            tokenize.COMMENT,
            tokenize.NL,
            tokenize.NEWLINE,
            tokenize.INDENT,
            tokenize.DEDENT,
            tokenize.ENDMARKER,
        ):
            lines.update(range(token.start[0], token.end[0] + 1))
        if token.type not in (tokenize.NL, tokenize.COMMENT):
            previous = token.type
    return len(lines)


def compare_lines() -> list[list[str]]:
    ours = inspect.getsource(ours_module)
    adapter = inspect.getsource(jsonschema_reference)
    # What the adapter still takes from schema.py (it would move with it).
    kept = "\n".join(
        inspect.getsource(obj)
        for obj in (
            ours_module.Violation,
            ours_module.json_type,
            ours_module.ecma_pattern,
        )
    )
    kept_types = inspect.getsource(ours_module).split("_FAST_TYPES")[1].split("def json_type")[0]
    kept = kept + "\n_FAST_TYPES" + kept_types
    return [
        [
            "kimi_ext/_core/contract/schema.py (ours)",
            str(len(ours.splitlines())),
            str(code_lines(ours)),
        ],
        [
            "benchmarks/jsonschema_reference.py + what it keeps of schema.py "
            "(Violation, json_type, ecma_pattern)",
            str(len(adapter.splitlines()) + len(kept.splitlines())),
            str(code_lines(adapter) + code_lines(kept)),
        ],
    ]


def markdown(header: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.validator", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--examples", type=int, default=150, help="bodies drawn per strategy and format"
    )
    parser.add_argument("--reps", type=int, default=9, help="timed repetitions")
    parser.add_argument("--verbose", action="store_true", help="print every disagreement")
    args = parser.parse_args(argv)
    print("## Wording: bad bodies on which both give the same error\n")
    header = [
        "corpus",
        "bad bodies",
        "same path (client)",
        "same client error",
        "same stand-in violation",
    ]
    print(markdown(header, compare_wording(args.examples, args.verbose)))
    failing, valid = compare_time(args.reps)
    print("\n## Time: the reference check of a failing 200-turn history (one bad value)\n")
    print(markdown(["format", "ours", "jsonschema", "jsonschema / ours"], failing))
    print("\n## Time: the fast check of a valid body, with each as its fallback\n")
    print(markdown(["body", "ours", "jsonschema", "jsonschema / ours"], valid))
    print("\n## Lines\n")
    print(markdown(["validator", "lines", "code lines"], compare_lines()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
