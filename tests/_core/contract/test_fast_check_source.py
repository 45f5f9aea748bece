"""The generated fast check leaves out type checks that a neighbouring line already implies
(issue 12 item 6: ~10% of the check of a 200-turn Messages history, 0.445 -> 0.39 ms), and
still refuses every wrong type at the places where one was left out. The source is written by
`make generate` into kimi_raw/_contract/<format>_fast_<mode>.py (issue 34), not compiled at run time."""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

import pytest

import kimi_ext._core.contract.fast as fast
from kimi_ext._core.contract import contract
from kimi_ext._core.contract.schema import Violation

MODEL = "kimi-k3.1-pro"
IMPLIED = re.compile(
    r"( *)(?:if|elif) type\((\w+)\) in (\(\w+,\)):\n\1    if type\(\2\) not in \3:"
)
BEFORE_FIXED = re.compile(
    r"( *)if type\((\w+)\) not in \(str,\): raise Fail\n\1if type\(\2\) is not str or \2 not in"
)


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_no_type_check_is_repeated_where_it_is_implied(fmt: str) -> None:
    # The source `make generate` wrote, which the client imports (nothing is compiled at
    # run time), and the generator's output now: they are the same.
    module = importlib.import_module(f"kimi_raw._contract.{fmt}_fast_strict")
    source = inspect.getsource(module)
    c = contract(fmt)
    assert fast.source(c._compiler("strict"), c.data["request"], "build") in source
    assert "pass" in source
    assert IMPLIED.search(source) is None
    assert BEFORE_FIXED.search(source) is None


def test_the_client_compiles_no_source_at_run_time() -> None:
    text = inspect.getsource(fast)
    assert "exec(" not in text
    assert "compile(source" not in text


def test_lines_are_kept_unless_implied() -> None:
    lines = [
        "    if type(p1) in (str,):",
        "        if type(p1) not in (str,): raise Fail",
        "    elif type(p1) in (list,):",
        "        if type(p1) not in (list,): raise Fail",
        "        if type(p1) not in (dict,): raise Fail",  # not implied: kept
        "    if type(p2) not in (str,): raise Fail",
        "    if type(p2) is not str or p2 not in _k1: raise Fail",
        "    if type(p3) not in (str,): raise Fail",  # a different variable follows: kept
        "    if type(p2) is not str or p2 not in _k1: raise Fail",
        "    if type(p4) in (str,):",
        "            if type(p4) not in (str,): raise Fail",  # not directly inside: kept
    ]
    out = fast._without_implied_checks(lines)
    assert out == [
        lines[0], "        pass", lines[2], "        pass", lines[4],
        "    pass", lines[6], lines[7], lines[8], lines[9], lines[10],
    ]  # fmt: skip


WRONG = {
    "chat": [
        {"model": MODEL, "messages": [{"role": 5, "content": "hi"}]},
        {"model": MODEL, "messages": [{"role": "user", "content": 5}]},
        {"model": MODEL, "messages": [{"role": "tool", "tool_call_id": "c", "content": 5}]},
        {"model": MODEL, "messages": [{"role": "assistant", "content": 5}]},
    ],
    "messages": [
        {"model": MODEL, "max_tokens": 9, "messages": [{"role": 5, "content": "hi"}]},
        {"model": MODEL, "max_tokens": 9, "messages": [{"role": "user", "content": 5}]},
        {
            "model": MODEL,
            "max_tokens": 9,
            "messages": [{"role": "user", "content": [{"type": 5, "text": "hi"}]}],
        },
        {
            "model": MODEL,
            "max_tokens": 9,
            "messages": [
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "t", "content": 5}],
                }
            ],
        },
    ],
    "responses": [
        {"model": MODEL, "input": [{"role": 5, "content": "hi"}]},
        {"model": MODEL, "input": [{"role": "user", "content": 5}]},
        {"model": MODEL, "input": [{"type": "function_call_output", "call_id": "c", "output": 5}]},
    ],
}


@pytest.mark.parametrize(("fmt", "body"), [(f, b) for f, bs in WRONG.items() for b in bs])
def test_wrong_types_still_fail_the_fast_check(fmt: str, body: dict[str, Any]) -> None:
    c = contract(fmt)
    assert c.fast_check(body) is False
    with pytest.raises(Violation):
        c.reference_check(body)
