"""The cli imports public names only: the contract `make lint` checks catches a private one.

The `kimi` command is a user of the package like any other; ``[tool.importlinter]`` forbids
the package ``kimi_ext.cli`` (every module of it) any ``kimi_ext._core`` module (its own
imports; the public modules it uses import the core, of course). Checked on the package as
it is (kept) and on copies where one of its modules imports a private core module inside a
function (broken): a check that cannot fail proves nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.lint import copy_package, lint
from tests.support.paths import ROOT

CONTRACT = "The cli uses public names: it imports no kimi_ext._core module"
CLI = ROOT / "kimi_ext" / "cli"


def test_the_cli_imports_no_private_core_module() -> None:
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{CONTRACT} KEPT" in " ".join(done.stdout.split())
    # The same, read from the source: no import statement of the package names the core.
    modules = sorted(CLI.glob("*.py"))
    assert len(modules) > 5  # a package with a module per command
    imported = [
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for path in modules
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    ]
    assert "kimi_ext.keys" in imported
    # The one exception pyproject's contract names: the lazy-import helper every package's
    # deferred names go through (here, the deprecated aliases of the former single module).
    core = [name for name in imported if name and name.startswith("kimi_ext._core")]
    assert core == ["kimi_ext._core.call.lazy"]


# The entry module, a command's module and a shared one: the contract covers each.
@pytest.mark.parametrize("module", ["__init__", "chat", "output"])
def test_a_private_core_import_in_the_cli_breaks_the_contract(tmp_path: Path, module: str) -> None:
    root = copy_package(tmp_path)
    source = root / "kimi_ext" / "cli" / f"{module}.py"
    source.write_text(
        source.read_text() + "\n\ndef _late() -> object:\n"
        "    from kimi_ext._core.transport.secret import redact\n\n    return redact\n"
    )
    done = lint(root)
    assert done.returncode != 0
    assert "BROKEN" in done.stdout
    assert "kimi_ext.cli is not allowed to import kimi_ext._core" in done.stdout
    name = "kimi_ext.cli" if module == "__init__" else f"kimi_ext.cli.{module}"
    assert f"{name} -> kimi_ext._core.transport.secret" in done.stdout
