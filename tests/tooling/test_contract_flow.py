"""The design's first use: edit a spec, run the generator, and the wrapper and the stand-in
follow with no hand edit.

A copy of each spec gets a new top-level field, a new enum value and a new model with its
own effort rule, and loses one field; ``scripts/generate.sh`` regenerates ``kimi_raw``
(with its derived contract) into a temporary folder. ``contract_probe.py`` then runs in a
fresh interpreter against that package, and again against the committed one, sending the
same probes through the kimi_ext client to a strict stand-in.
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

from tests.support.paths import ROOT

# The generator and fresh interpreters (`make test-fast` leaves it out); in parallel runs
# in one worker, which regenerates once (tests/support/parallel.py).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("tests/tooling/test_contract_flow.py")]

FORMATS = ("chat", "messages", "responses")
REQUEST = {
    "chat": "CreateChatCompletionRequest",
    "messages": "CreateMessageRequest",
    "responses": "CreateResponseRequest",
}
REMOVED = {"chat": "safety_identifier", "messages": "metadata", "responses": "safety_identifier"}
PATH = {
    "chat": "prompt_cache_options.mode",
    "messages": "messages[0].content[0].source.media_type",
    "responses": "prompt_cache_options.mode",
}
EFFORT_PATH = {
    "chat": "reasoning_effort",
    "messages": "output_config.effort",
    "responses": "reasoning.effort",
}


def _enum_of(fmt: str, schemas: Any) -> Any:
    if fmt == "chat":
        return schemas["PromptCacheMode"]
    if fmt == "messages":
        return schemas["Base64ImageSource"]["properties"]["media_type"]
    return schemas["PromptCacheOptions"]["properties"]["mode"]


def edit(spec: Path, fmt: str) -> None:
    yaml = YAML(typ="rt")
    data = yaml.load(spec.read_text(encoding="utf-8"))
    schemas = data["components"]["schemas"]
    props = schemas[REQUEST[fmt]]["properties"]
    props["new_flag"] = {"type": "boolean", "description": "A field the service just added."}
    del props[REMOVED[fmt]]
    enum = _enum_of(fmt, schemas)
    new = {"chat": "explicit", "messages": "image/bmp", "responses": "explicit"}[fmt]
    enum["enum"].append(new)
    if "x-enum-varnames" in enum:
        enum["x-enum-varnames"].append(new.upper())
    data["x-kimi-models"]["kimi-k4"] = {"efforts": ["high", "max"]}
    with spec.open("w", encoding="utf-8") as f:
        yaml.dump(data, f)


def probe(pythonpath: Path | None) -> dict[str, Any]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("contract_probe.py"))],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=pythonpath or ROOT,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("contract")
    specs = tmp / "openapi"
    shutil.copytree(ROOT / "openapi", specs)
    for fmt in FORMATS:
        edit(specs / f"{fmt}.yaml", fmt)
    out = tmp / "site"
    env = dict(os.environ, OPENAPI_DIR=str(specs), VENV_BIN=str(Path(sys.executable).parent))
    subprocess.run(
        [str(ROOT / "scripts" / "generate.sh"), str(out / "kimi_raw")],
        check=True,
        env=env,
        capture_output=True,
    )
    return probe(out)


@pytest.fixture(scope="module")
def committed() -> dict[str, Any]:
    return probe(None)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_new_field_is_accepted_and_typed(
    regenerated: dict[str, Any], committed: dict[str, Any], fmt: str
) -> None:
    new = regenerated[fmt]["new_field"]
    assert (new["client"], new["standin"]) == ("ok", "ok")
    assert new["received"]["new_flag"] is True
    wrong = regenerated[fmt]["new_field_wrong_type"]
    assert wrong["client"] == "new_flag='yes': must be true or false" and not wrong["sent"]
    assert wrong["standin"] in (
        "Invalid type for 'new_flag': expected a boolean, but got string instead.",
        "new_flag: Input should be a boolean",
    )
    # Before the edit both refuse the field by name (the stand-in is strict here).
    before = committed[fmt]["new_field"]
    assert "is not a documented" in before["client"] and not before["sent"]
    assert "new_flag" in before["standin"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_new_enum_value_is_accepted(
    regenerated: dict[str, Any], committed: dict[str, Any], fmt: str
) -> None:
    assert regenerated[fmt]["new_enum_value"]["client"] == "ok"
    assert regenerated[fmt]["new_enum_value"]["standin"] == "ok"
    wrong = regenerated[fmt]["wrong_enum_value"]
    assert wrong["client"].startswith(f"{PATH[fmt]}='nonsense': must be ") and not wrong["sent"]
    new = {"chat": "explicit", "messages": "image/bmp", "responses": "explicit"}[fmt]
    assert wrong["client"].endswith(new)  # the new value is listed as allowed
    assert wrong["standin"].endswith(new) and "nonsense" not in wrong["standin"]
    before = committed[fmt]["new_enum_value"]
    assert before["client"].startswith(f"{PATH[fmt]}=") and before["standin"] != "ok"


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_new_model_and_its_rule_are_followed(
    regenerated: dict[str, Any], committed: dict[str, Any], fmt: str
) -> None:
    assert "kimi-k4" in regenerated["models"] and "kimi-k4" not in committed["models"]
    allowed = regenerated[fmt]["new_model_allowed_effort"]
    assert (allowed["client"], allowed["standin"]) == ("ok", "ok")
    refused = regenerated[fmt]["new_model_refused_effort"]
    assert refused["client"] == (
        f"{EFFORT_PATH[fmt]}='low': model kimi-k4 accepts only effort high, max "
        "(got low after aliases)"
    )
    assert not refused["sent"]
    assert (
        refused["standin"]
        == f"invalid {EFFORT_PATH[fmt]}: only high, max is allowed for model kimi-k4"
    )
    # Before the edit kimi-k4 is an unknown model: sent with the generic rules, and the
    # stand-in (like the service) answers 404.
    before = committed[fmt]["new_model_refused_effort"]
    assert before["client"] == "ok" and before["standin"].startswith("404")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_removed_field_is_refused(
    regenerated: dict[str, Any], committed: dict[str, Any], fmt: str
) -> None:
    field = REMOVED[fmt]
    removed = regenerated[fmt]["removed_field"]
    assert removed["client"].startswith(f"{field}=") and "is not a documented" in removed["client"]
    assert not removed["sent"]
    assert field in removed["standin"] and removed["standin"] != "ok"
    before = committed[fmt]["removed_field"]
    assert (before["client"], before["standin"]) == ("ok", "ok")
