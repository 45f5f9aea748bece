"""The suite's folders mirror the package, and its helpers are a package, not path edits.

``layout_problems`` reads a tests folder and the package it mirrors and lists what breaks
the map of tests/README.md: a folder that is neither a kimi_ext module or package nor one
of the suite's own folders, a folder that is not a package, a helper outside
``tests/support``, a ``sys.path`` edit, an import of a test module or conftest, a
kimi_ext package with no tests folder, a folder the README does not list. The suite as
it is has none; a copy with one of each has them all (a check that cannot fail proves
nothing).
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

from tests.support.paths import ROOT

# Folders of their own (tests/README.md says what each holds); every other folder is
# named after the kimi_ext module or package whose tests it holds.
OWN_FOLDERS = {
    "raw",  # the generated kimi_raw
    "openapi",  # the specs themselves, and the fixtures against them
    "quality",  # cross-cutting: hostile servers, fault matrix, load, property tests
    "docs",  # README examples, docstrings, metadata
    "tooling",  # generation, layers, this layout, the suite's own checks
    "bench",  # benchmarks/ smoke
    "typecheck",  # mypy on users' files
    "support",  # the shared helpers (tests.support.<name>)
    "fixtures",  # recorded payloads (no code)
}
# Python files run as scripts by a test (in a subprocess), not imported.
SCRIPTS = {"tooling/contract_probe.py"}


def _code_folders(tests: Path) -> list[Path]:
    return sorted({p.parent for p in tests.rglob("*.py") if "__pycache__" not in p.parts} - {tests})


def _mirrors(package: Path, relative: Path) -> bool:
    target = package.joinpath(*relative.parts)
    return (target / "__init__.py").is_file() or target.with_suffix(".py").is_file()


def _import_problems(path: Path, shown: str) -> list[str]:
    problems = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "path"
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
        ):
            problems.append(f"{shown}:{node.lineno}: sys.path edit (import tests.support.<name>)")
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            first, _, rest = name.partition(".")
            last = name.rsplit(".", 1)[-1]
            if first == "tests" and not (rest == "support" or rest.startswith("support.")):
                problems.append(f"{shown}:{node.lineno}: imports {name} (helpers: tests.support)")
            elif first != "tests" and (
                last == "conftest" or last.startswith("test_") or last.endswith("_helpers")
            ):
                problems.append(f"{shown}:{node.lineno}: imports {name} by a path-edit name")
    return problems


def layout_problems(tests: Path, package: Path) -> list[str]:
    """What breaks the mirror in ``tests`` (a tests folder) against ``package`` (kimi_ext)."""
    problems: list[str] = []
    readme = (tests / "README.md").read_text("utf-8") if (tests / "README.md").is_file() else ""
    folders = _code_folders(tests)
    for folder in [tests, *folders]:
        relative = folder.relative_to(tests)
        shown = f"tests/{relative.as_posix()}/" if relative.parts else "tests/"
        if not (folder / "__init__.py").is_file():
            problems.append(f"{shown}: not a package (add __init__.py)")
        if not relative.parts:
            continue
        if relative.parts[0] in OWN_FOLDERS:
            if len(relative.parts) > 1:
                problems.append(f"{shown}: {relative.parts[0]}/ holds no subfolders of code")
        elif not _mirrors(package, relative):
            problems.append(f"{shown}: no kimi_ext/{relative.as_posix()} module or package")
        if f"`{relative.as_posix()}/`" not in readme:
            problems.append(f"{shown}: not listed in tests/README.md")
    for path in sorted(tests.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        relative = path.relative_to(tests)
        shown = f"tests/{relative.as_posix()}"
        is_helper = not (
            path.name.startswith("test_") or path.name in ("conftest.py", "__init__.py")
        )
        if is_helper and relative.parts[0] != "support" and relative.as_posix() not in SCRIPTS:
            problems.append(f"{shown}: a helper outside tests/support")
        problems += _import_problems(path, shown)
    for init in sorted(package.rglob("__init__.py")):
        relative = init.parent.relative_to(package)
        if relative.parts and not (tests.joinpath(*relative.parts)).is_dir():
            problems.append(f"kimi_ext/{relative.as_posix()}/: no tests/{relative.as_posix()}/")
    return problems


def test_the_suite_mirrors_the_package() -> None:
    assert layout_problems(ROOT / "tests", ROOT / "kimi_ext") == []


def test_the_check_catches_each_break(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    shutil.copytree(ROOT / "tests", tests, ignore=shutil.ignore_patterns("__pycache__", "fixtures"))
    package = tmp_path / "kimi_ext"
    shutil.copytree(ROOT / "kimi_ext", package, ignore=shutil.ignore_patterns("__pycache__"))
    # a folder named after no module, listed in the README
    (tests / "clients").mkdir()
    (tests / "clients" / "__init__.py").write_text("")
    (tests / "clients" / "test_a.py").write_text("def test_a() -> None:\n    pass\n")
    readme = tests / "README.md"
    readme.write_text(readme.read_text("utf-8") + "\n`clients/` and `chat/extra/`\n")
    # a folder that is not a package, inside a mirrored one (and named after no module)
    (tests / "chat" / "extra").mkdir()
    (tests / "chat" / "extra" / "test_b.py").write_text("def test_b() -> None:\n    pass\n")
    # a helper beside the tests, reached through sys.path and by its bare name
    (tests / "chat" / "chat_helpers.py").write_text("X = 1\n")
    (tests / "chat" / "test_c.py").write_text(
        "import sys\nsys.path.insert(0, 'tests/chat')\nfrom chat_helpers import X\n"
        "from tests.client.test_requests import minimal\nfrom test_stream_chat import load\n"
    )
    # a new kimi_ext package with no tests folder, and a test folder missing from the README
    (package / "views").mkdir()
    (package / "views" / "__init__.py").write_text("")
    (tests / "images" / "sub").mkdir()
    (tests / "images" / "sub" / "__init__.py").write_text("")
    (tests / "images" / "sub" / "test_d.py").write_text("")

    problems = layout_problems(tests, package)

    assert sorted(problems) == sorted(
        [
            "tests/clients/: no kimi_ext/clients module or package",
            "tests/chat/extra/: not a package (add __init__.py)",
            "tests/chat/extra/: no kimi_ext/chat/extra module or package",
            "tests/images/sub/: no kimi_ext/images/sub module or package",
            "tests/images/sub/: not listed in tests/README.md",
            "tests/chat/chat_helpers.py: a helper outside tests/support",
            "tests/chat/test_c.py:2: sys.path edit (import tests.support.<name>)",
            "tests/chat/test_c.py:3: imports chat_helpers by a path-edit name",
            "tests/chat/test_c.py:4: imports tests.client.test_requests (helpers: tests.support)",
            "tests/chat/test_c.py:5: imports test_stream_chat by a path-edit name",
            "kimi_ext/views/: no tests/views/",
        ]
    )
