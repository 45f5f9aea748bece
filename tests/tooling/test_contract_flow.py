"""Regenerate on spec change: the wrapper and the stand-in follow, with no hand edit.

Each spec is copied and changed three ways: a new top-level field, a new enum value and a
new model with its own rule; and one documented field is removed. The copy is generated into
a temporary ``kimi_raw``, and a fresh interpreter that imports kimi_raw from there shows that
kimi_ext's validation and the stand-in accept the new values, refuse a wrong one, and refuse
(client) / discard (stand-in, as the service does) the removed field.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[2]

# Per format: the request schema, the enum component to extend, the field to remove,
# and a minimal valid body.
CHANGES: dict[str, dict[str, Any]] = {
    "chat": {
        "request": "CreateChatCompletionRequest",
        "enum": ("PromptCacheTtl", "prompt_cache_options", {"ttl": "24h"}),
        "remove": "safety_identifier",
        "body": {"model": "kimi-k3.1-pro", "messages": [{"role": "user", "content": "hi"}]},
        "effort": ["reasoning_effort"],
    },
    "messages": {
        "request": "CreateMessageRequest",
        "enum": ("CacheControlTtl", "cache_control", {"type": "ephemeral", "ttl": "24h"}),
        "remove": "metadata",
        "body": {
            "model": "kimi-k3.1-pro",
            "max_tokens": 64,
            "messages": [{"role": "user", "content": "hi"}],
        },
        "effort": ["output_config", "effort"],
    },
    "responses": {
        "request": "CreateResponseRequest",
        "enum": ("PromptCacheOptionsTtl", "prompt_cache_options", {"ttl": "24h"}),
        "remove": "safety_identifier",
        "body": {"model": "kimi-k3.1-pro", "input": "hi"},
        "effort": ["reasoning", "effort"],
    },
}

PROBE = r"""
import json, sys
import kimi_raw
from kimi_ext.errors import RequestValidationError
from kimi_ext.validation import validate
from kimi_ext.testing.rules import ServiceError, check_chat, check_messages, check_responses

fmt, body, enum_field, enum_value, removed, effort_path = json.loads(sys.argv[1])
assert kimi_raw.__file__.startswith(sys.argv[2]), kimi_raw.__file__

def client(b):
    try:
        validate(fmt, b)
        return "ok"
    except RequestValidationError as e:
        return f"refused {e.field}"

def standin(b):
    try:
        if fmt == "chat":
            info = check_chat(b)
        elif fmt == "messages":
            info = check_messages(b, {"anthropic-version": "2023-06-01"}, lambda t, s: True)
        else:
            info = check_responses(b)
        return "ok " + ",".join(info.discarded)
    except ServiceError as e:
        return f"refused {e.status}"

def with_effort(b, value):
    b = json.loads(json.dumps(b))
    parent = b
    for key in effort_path[:-1]:
        parent = parent.setdefault(key, {})
    parent[effort_path[-1]] = value
    return b

out = {}
out["new field"] = [client({**body, "trace_label": "abc"}), standin({**body, "trace_label": "abc"})]
out["new field wrong"] = [client({**body, "trace_label": "far too long"}), standin({**body, "trace_label": "far too long"})]
out["new enum"] = [client({**body, enum_field: enum_value}), standin({**body, enum_field: enum_value})]
wrong = {**enum_value, "ttl": "99h"}
out["new enum wrong"] = [client({**body, enum_field: wrong}), standin({**body, enum_field: wrong})]
k4 = {**body, "model": "kimi-k4"}
out["new model"] = [client(with_effort(k4, "high")), standin(with_effort(k4, "high"))]
out["new model rule"] = [client(with_effort(k4, "low")), standin(with_effort(k4, "low"))]
removed_value = {"user_id": "u"} if removed == "metadata" else "someone"
out["removed"] = [client({**body, removed: removed_value}), standin({**body, removed: removed_value})]
print(json.dumps(out))
"""


def _change(spec_path: Path, fmt: str) -> None:
    yaml = YAML(typ="rt")
    doc = yaml.load(spec_path.read_text("utf-8"))
    change = CHANGES[fmt]
    schemas = doc["components"]["schemas"]
    request = schemas[change["request"]]
    request["properties"]["trace_label"] = {"type": "string", "maxLength": 8}
    schemas[change["enum"][0]]["enum"].append("24h")
    names = schemas[change["enum"][0]].get("x-enum-varnames")
    if names is not None:
        names.append("HOURS_24")
    doc["x-kimi-models"]["kimi-k4"] = {"efforts": ["high", "max"]}
    del request["properties"][change["remove"]]
    with spec_path.open("w", encoding="utf-8") as f:
        yaml.dump(doc, f)


@pytest.fixture(scope="module")
def changed_raw(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("contract")
    specs = tmp / "openapi"
    shutil.copytree(ROOT / "openapi", specs)
    for fmt in CHANGES:
        _change(specs / f"{fmt}.yaml", fmt)
    out = tmp / "site"
    env = dict(os.environ, OPENAPI_DIR=str(specs), VENV_BIN=str(Path(sys.executable).parent))
    subprocess.run(
        [str(ROOT / "scripts" / "generate.sh"), str(out / "kimi_raw")], check=True, env=env
    )
    return out


@pytest.mark.parametrize("fmt", list(CHANGES))
def test_wrapper_and_standin_follow_a_regenerated_spec(changed_raw: Path, fmt: str) -> None:
    change = CHANGES[fmt]
    args = [
        fmt,
        change["body"],
        change["enum"][1],
        change["enum"][2],
        change["remove"],
        change["effort"],
    ]
    env = dict(os.environ, PYTHONPATH=str(changed_raw))
    run = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args), str(changed_raw)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    assert seen["new field"] == ["ok", "ok "]
    assert seen["new field wrong"] == ["refused trace_label", "refused 400"]
    assert seen["new enum"] == ["ok", "ok "]
    assert seen["new enum wrong"][0].startswith("refused ") and "ttl" in seen["new enum wrong"][0]
    assert seen["new enum wrong"][1] == "refused 400"
    assert seen["new model"] == ["ok", "ok "]
    effort_field = ".".join(change["effort"])
    assert seen["new model rule"] == [f"refused {effort_field}", "refused 400"]
    assert seen["removed"] == [f"refused {change['remove']}", f"ok {change['remove']}"]


def test_the_committed_contract_refuses_what_the_changed_one_accepts() -> None:
    """Control: without the change, the same values are refused (the test above is not vacuous)."""
    from kimi_ext.errors import RequestValidationError
    from kimi_ext.validation import validate

    body = CHANGES["chat"]["body"]
    with pytest.raises(RequestValidationError):
        validate("chat", {**body, "trace_label": "abc"})
    with pytest.raises(RequestValidationError):
        validate("chat", {**body, "prompt_cache_options": {"ttl": "24h"}})
