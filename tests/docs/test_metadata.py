"""Package metadata a user relies on: the license, the changelog, the extras, and a
``make demo`` that installs only what the demo needs."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import kimi_ext
from tests.support.paths import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_license_file_matches_the_metadata() -> None:
    assert PYPROJECT["project"]["license"] == {"text": "MIT"}
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text


def test_changelog_starts_at_the_current_version_with_an_unreleased_section() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## (.+)$", text, re.MULTILINE)
    assert releases[0] == "Unreleased"
    assert releases[-1] == "0.1.0" == PYPROJECT["project"]["version"] == kimi_ext.__version__
    unreleased = text.split("\n## ")[1]
    for section in ("Contract and raw client", "Layout", "Streaming", "Errors"):
        assert f"\n### {section}\n" in unreleased, section


def test_pydantic_is_an_extra_not_a_dependency() -> None:
    project = PYPROJECT["project"]
    assert not any(d.startswith("pydantic") for d in project["dependencies"])
    extras = project["optional-dependencies"]
    assert [d for d in extras["pydantic"] if d.startswith("pydantic")]
    assert [d for d in extras["dev"] if d.startswith("pydantic")]  # so its tests run


def test_the_docs_site_is_built_strict_by_make_docs_and_ci() -> None:
    """`make docs` builds the site with --strict (a broken link or reference fails), from the
    docs extra, which dev holds too so that the dev venv builds it; CI runs it."""
    extras = PYPROJECT["project"]["optional-dependencies"]
    names = {re.split(r"[\[<>=]", d)[0] for d in extras["docs"]}
    assert names == {"mkdocs", "mkdocs-material", "mkdocstrings"}
    assert set(extras["docs"]) <= set(extras["dev"])
    make = (ROOT / "Makefile").read_text("utf-8")
    target = make.split("\ndocs: ", 1)[1].split("\n\n", 1)[0]
    assert "mkdocs build --strict" in target
    assert re.search(r"^make docs\b", (ROOT / ".ci" / "run").read_text("utf-8"), re.MULTILINE)
    config = (ROOT / "mkdocs.yml").read_text("utf-8")
    assert "name: material" in config and "mkdocstrings" in config
    assert "font: false" in config  # the build fetches no web fonts: it works offline


def test_make_demo_installs_only_the_package(tmp_path: Path) -> None:
    make = shutil.which("make")
    assert make is not None, "make is one of the two things a fresh clone needs"
    plan = subprocess.run(
        [make, "-n", "demo", f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    installs = [line for line in plan.splitlines() if "pip install" in line]
    assert installs, plan
    assert all(line.rstrip().endswith("-e .") for line in installs), installs
    assert "[dev]" not in plan and "kimi_ext.demo" in plan


def test_the_contributing_layout_names_every_module_of_the_package() -> None:
    """CONTRIBUTING.md's Layout section matches the tree: every top-level module and package
    of kimi_ext, and every module of the private core, is named in it."""
    guide = (ROOT / "CONTRIBUTING.md").read_text("utf-8")
    layout = guide.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    package = ROOT / "kimi_ext"
    top = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    top |= {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
    missing = sorted(name for name in top if name not in layout)
    assert not missing, missing
    core = {p.stem for p in (package / "_core").glob("*.py") if p.stem != "__init__"}
    core |= {p.name for p in (package / "_core").iterdir() if (p / "__init__.py").exists()}
    assert not sorted(name for name in core if name not in layout)


def test_every_public_name_loads_from_its_home_on_first_use() -> None:
    # kimi_ext's names load lazily (PEP 562): each one in __all__ has a home, and loading
    # the package alone imports none of the heavy modules (httpx, the client).
    import subprocess
    import sys

    import kimi_ext

    assert set(kimi_ext.__all__) == set(kimi_ext._HOMES)
    for name in kimi_ext.__all__:
        assert getattr(kimi_ext, name) is not None, name
    code = "import sys, kimi_ext; print(sorted(m for m in ('httpx', 'kimi_ext.client') if m in sys.modules))"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[]"


def test_the_batch_run_plan_keeps_its_old_name() -> None:
    # Four unrelated classes were called Plan (issue 34); the public one is RunPlan now.
    from kimi_ext.batch.plan import Plan, RunPlan

    assert Plan is RunPlan
    assert RunPlan().todo == 0
