"""The generation pipeline: deterministic, and a spec change touches only its own package."""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

FORMATS = ("chat", "messages", "responses")


def generate(out: Path, specs: Path) -> None:
    env = dict(os.environ, OPENAPI_DIR=str(specs), VENV_BIN=str(Path(sys.executable).parent))
    subprocess.run([str(ROOT / "scripts" / "generate.sh"), str(out)], check=True, env=env)


def differing(a: Path, b: Path) -> bool:
    cmp = filecmp.dircmp(a, b, ignore=["__pycache__"])
    stack = [cmp]
    while stack:
        c = stack.pop()
        if c.left_only or c.right_only or c.diff_files or c.funny_files:
            return True
        stack.extend(c.subdirs.values())
    return False


@pytest.mark.slow  # runs the generator twice
def test_a_spec_change_regenerates_only_that_format(tmp_path: Path) -> None:
    specs = tmp_path / "openapi"
    shutil.copytree(ROOT / "openapi", specs)
    chat = specs / "chat.yaml"
    text = chat.read_text()
    marker = "  title: "
    assert marker in text
    chat.write_text(text.replace(marker, marker + "Changed ", 1))
    generate(tmp_path / "after", specs)
    committed = ROOT / "generated" / "kimi_raw"
    assert differing(committed / "chat", tmp_path / "after" / "chat")
    for fmt in ("messages", "responses"):
        assert not differing(committed / fmt, tmp_path / "after" / fmt), fmt


def test_generated_packages_import_side_by_side() -> None:
    import kimi_raw.chat.models as chat
    import kimi_raw.messages.models as messages
    import kimi_raw.responses.models as responses

    assert chat.ChatCompletion is not None
    assert messages.MessageResponse is not None
    assert responses.ResponseObject is not None
    for fmt in FORMATS:
        assert (ROOT / "generated" / "kimi_raw" / fmt / "__init__.py").exists()
    assert (ROOT / "generated" / "kimi_raw" / "py.typed").exists()
