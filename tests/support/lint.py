"""import-linter on the package as it is, or on a copy a test breaks on purpose (a check
that cannot fail proves nothing)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the project's contracts, on the ``kimi_ext`` under ``root``."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", str(ROOT / "pyproject.toml")],
        cwd=root, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def copy_package(tmp_path: Path) -> Path:
    """A copy of ``kimi_ext`` under ``tmp_path`` (returned), to break."""
    shutil.copytree(ROOT / "kimi_ext", tmp_path / "kimi_ext")
    return tmp_path
