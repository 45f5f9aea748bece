"""The stand-in imports public names only: the contract `make lint` checks catches a private
one.

``kimi_ext.testing`` plays the service from outside the client; ``[tool.importlinter]``
forbids it any ``kimi_ext._core`` module (its own imports: it reads the contract through
:mod:`kimi_ext.contract`, keys through :mod:`kimi_ext.keys`). Checked on the package as it
is (kept) and on a copy whose stand-in imports a private core module inside a function
(broken): a check that cannot fail proves nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.lint import copy_package, lint
from tests.support.paths import ROOT

CONTRACT = "The stand-in uses public names: kimi_ext.testing imports no kimi_ext._core module"


def test_the_stand_in_imports_no_private_core_module() -> None:
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{CONTRACT} KEPT" in " ".join(done.stdout.split())
    # The same, read from the source: no import statement under kimi_ext/testing names the core.
    imported = [
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for source in sorted((ROOT / "kimi_ext" / "testing").glob("*.py"))
        for node in ast.walk(ast.parse(source.read_text("utf-8")))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    ]
    assert "kimi_ext.contract" in imported
    assert not [name for name in imported if name and name.startswith("kimi_ext._core")]


def test_a_private_core_import_in_the_stand_in_breaks_the_contract(tmp_path: Path) -> None:
    root = copy_package(tmp_path)
    rules = root / "kimi_ext" / "testing" / "rules.py"
    rules.write_text(
        rules.read_text() + "\n\ndef _late() -> object:\n"
        "    from kimi_ext._core.contract.replay import first_duplicate\n\n"
        "    return first_duplicate\n"
    )
    done = lint(root)
    assert done.returncode != 0
    assert f"{CONTRACT} BROKEN" in " ".join(done.stdout.split())
    assert "kimi_ext.testing is not allowed to import kimi_ext._core" in done.stdout
    assert "kimi_ext.testing.rules -> kimi_ext._core.contract.replay" in done.stdout
