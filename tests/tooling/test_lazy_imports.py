"""Every arrow between kimi_ext's modules is an import the layer check sees.

Public names are imported on first use (PEP 562) from tables of module names, which
import-linter cannot read. Each such package mirrors its table in ``if TYPE_CHECKING:``
imports, which import-linter (grimp) does count, at no cost to ``import kimi_ext``. These
tests hold the two in step, name by name, and list every place that imports a module by
string: a new one must be a table mirrored the same way, or import generated ``kimi_raw``
(outside import-linter's root).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "kimi_ext"

# Package -> where its table is (a module-level dict, or lazy_attributes' argument).
TABLES = {
    "kimi_ext": "_HOMES",
    "kimi_ext.batch": "_HOMES",
    "kimi_ext.chat": "lazy_attributes",
    "kimi_ext.messages": "lazy_attributes",
    "kimi_ext.responses": "lazy_attributes",
}

# Every module that calls importlib.import_module, and why the layer check need not see it.
BY_STRING = {
    "kimi_ext/__init__.py": "its _HOMES table (mirrored), and kimi_ext.<submodule> asked by name",
    "kimi_ext/batch/__init__.py": "its _HOMES table (mirrored)",
    "kimi_ext/_core/call/lazy.py": "lazy_attributes, the tables of chat, messages, responses",
    "kimi_ext/_core/contract/__init__.py": "kimi_raw._contract (generated)",
    "kimi_ext/_core/contract/fast.py": "kimi_raw._contract.<format>_fast_<mode> (generated)",
    "kimi_ext/_core/model/result.py": "kimi_raw.<format>.models (generated)",
    "kimi_ext/_core/streaming/stream.py": "kimi_raw.<format>.models (generated)",
}


def source_of(package: str) -> ast.Module:
    path = ROOT / Path(*package.split(".")) / "__init__.py"
    return ast.parse(path.read_text("utf-8"))


def table_of(package: str) -> dict[str, str]:
    """name -> home module, as the package's lazy table says."""
    tree = source_of(package)
    where = TABLES[package]
    for node in ast.walk(tree):
        if where == "_HOMES" and isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "_HOMES" for t in targets):
                assert node.value is not None
                homes: dict[str, str] = ast.literal_eval(node.value)
                # kimi_ext.batch names its modules relative to itself.
                return {
                    name: home if home.startswith("kimi_ext") else f"{package}.{home}"
                    for name, home in homes.items()
                }
        if (
            where == "lazy_attributes"
            and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "lazy_attributes"
        ):
            by_module: dict[str, list[str]] = ast.literal_eval(node.args[1])
            return {name: module for module, names in by_module.items() for name in names}
    raise AssertionError(f"{package}: no lazy table found")


def type_checking_imports(package: str) -> dict[str, str]:
    """name -> module of the ``from module import name`` under ``if TYPE_CHECKING:``."""
    found: dict[str, str] = {}
    for node in source_of(package).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom) and stmt.module, ast.unparse(stmt)
                for alias in stmt.names:
                    found[alias.asname or alias.name] = stmt.module
    return found


@pytest.mark.parametrize("package", sorted(TABLES))
def test_each_lazy_table_is_mirrored_by_imports_the_layer_check_sees(package: str) -> None:
    table = table_of(package)
    assert table, package
    assert type_checking_imports(package) == table


@pytest.mark.parametrize("package", sorted(TABLES))
def test_each_lazy_name_loads_from_the_module_its_table_names(package: str) -> None:
    module = importlib.import_module(package)
    for name, home in table_of(package).items():
        assert getattr(module, name) is getattr(importlib.import_module(home), name), name


def test_a_table_and_its_mirror_that_disagree_are_caught() -> None:
    # The comparison itself can fail: a name added to a table only is found.
    table = table_of("kimi_ext.batch")
    table["Extra"] = "kimi_ext.batch.runner"
    assert type_checking_imports("kimi_ext.batch") != table


def test_every_import_by_string_is_known() -> None:
    calling = {
        path.relative_to(ROOT).as_posix()
        for path in PACKAGE.rglob("*.py")
        if "import_module(" in path.read_text("utf-8")
    }
    assert calling == set(BY_STRING), "a new import by string: mirror it, or list why not"
    for path in BY_STRING:
        if "kimi_raw" in BY_STRING[path]:
            # Said where it happens, so a reader does not look for it in the layers.
            text = (ROOT / path).read_text("utf-8")
            assert "kimi_raw (generated) is outside import-linter's root" in text, path
