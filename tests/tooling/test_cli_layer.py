"""The cli imports public names only: the contract `make lint` checks catches a private one.

The `kimi` command is a user of the package like any other; ``[tool.importlinter]`` forbids
it any ``kimi_ext._core`` module (its own imports; the public modules it uses import the
core, of course). Checked on the package as it is (kept) and on a copy whose cli imports a
private core module inside a function (broken): a check that cannot fail proves nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.lint import copy_package, lint
from tests.support.paths import ROOT

CONTRACT = "The cli uses public names: it imports no kimi_ext._core module"


def test_the_cli_imports_no_private_core_module() -> None:
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{CONTRACT} KEPT" in " ".join(done.stdout.split())
    # The same, read from the source: no import statement of cli.py names the core.
    tree = ast.parse((ROOT / "kimi_ext" / "cli.py").read_text("utf-8"))
    imported = [
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    ]
    assert "kimi_ext.keys" in imported
    assert not [name for name in imported if name and name.startswith("kimi_ext._core")]


def test_a_private_core_import_in_the_cli_breaks_the_contract(tmp_path: Path) -> None:
    root = copy_package(tmp_path)
    cli = root / "kimi_ext" / "cli.py"
    cli.write_text(
        cli.read_text() + "\n\ndef _late() -> object:\n"
        "    from kimi_ext._core.transport.secret import redact\n\n    return redact\n"
    )
    done = lint(root)
    assert done.returncode != 0
    assert "BROKEN" in done.stdout
    assert "kimi_ext.cli is not allowed to import kimi_ext._core" in done.stdout
    assert "kimi_ext.cli -> kimi_ext._core.transport.secret" in done.stdout
