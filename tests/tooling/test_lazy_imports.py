"""Every arrow between kimi_ext's modules is an import the layer check sees.

Public names are imported on first use (PEP 562) from tables of module names, which
import-linter cannot read: one table per package (``_HOMES``: name -> module), read by the
one helper (``kimi_ext._core.call.lazy.lazy_attributes``). Each such package mirrors its
table in ``if TYPE_CHECKING:`` imports, which import-linter (grimp) and type checkers do
count, at no cost to ``import kimi_ext``. These tests hold the two in step, name by name,
and list every place that imports a module by string: a new one must be a table mirrored
the same way, or import generated ``kimi_raw`` (outside import-linter's root).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "kimi_ext"

# The packages with a lazy table (their module-level ``_HOMES``).
TABLES = [
    "kimi_ext",
    "kimi_ext.batch",
    "kimi_ext.chat",
    "kimi_ext.messages",
    "kimi_ext.responses",
    "kimi_ext.telemetry",
]
# Those whose __all__ is the table itself: type checkers read their exports from the mirror.
DERIVED = ["kimi_ext", "kimi_ext.batch"]

# Every module that calls importlib.import_module, and why the layer check need not see it.
BY_STRING = {
    "kimi_ext/_core/call/lazy.py": "lazy_attributes, the _HOMES tables (mirrored), submodules",
    "kimi_ext/_core/contract/__init__.py": "kimi_raw._contract (generated)",
    "kimi_ext/_core/contract/fast.py": "kimi_raw._contract.<format>_fast_<mode> (generated)",
    "kimi_ext/_core/model/result.py": "kimi_raw.<format>.models (generated)",
    "kimi_ext/_core/streaming/stream.py": "kimi_raw.<format>.models (generated)",
    # The format's params TypedDict, only on the first help()/signature of a method (the
    # params modules cost ~50 ms to import, so import kimi_ext never loads them).
    "kimi_ext/_keywords.py": "kimi_ext.<format>.params, when a signature is first read",
}


def source_of(package: str) -> ast.Module:
    path = ROOT / Path(*package.split(".")) / "__init__.py"
    return ast.parse(path.read_text("utf-8"))


def table_of(package: str) -> dict[str, str]:
    """name -> home module, as the package's lazy table says."""
    for node in source_of(package).body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "_HOMES" for t in targets):
                assert node.value is not None
                homes: dict[str, str] = ast.literal_eval(node.value)
                return homes
    raise AssertionError(f"{package}: no lazy table found")


def type_checking_imports(package: str, *, reexported: bool = False) -> dict[str, str]:
    """name -> module of the ``from module import name`` under ``if TYPE_CHECKING:``
    (``reexported``: only those written ``import name as name``, an explicit re-export)."""
    found: dict[str, str] = {}
    for node in source_of(package).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom) and stmt.module, ast.unparse(stmt)
                for alias in stmt.names:
                    if not reexported or alias.asname == alias.name:
                        found[alias.asname or alias.name] = stmt.module
    return found


@pytest.mark.parametrize("package", sorted(TABLES))
def test_each_lazy_table_is_mirrored_by_imports_the_layer_check_sees(package: str) -> None:
    table = table_of(package)
    assert table, package
    assert type_checking_imports(package) == table


@pytest.mark.parametrize("package", DERIVED)
def test_a_table_that_is_all_is_re_exported_for_type_checkers(package: str) -> None:
    # __all__ is computed from the table, which a type checker cannot read: under mypy
    # --strict a name is exported only as `from m import name as name`.
    module = importlib.import_module(package)
    assert module.__all__ == list(table_of(package))
    assert type_checking_imports(package, reexported=True) == table_of(package)


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


def test_there_is_one_lazy_import_mechanism() -> None:
    # Every package's __getattr__ is the one helper's: no hand-written module __getattr__.
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        own = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "__getattr__"]
        if path.name != "lazy.py":
            assert not own, path
    for package in TABLES:
        module = importlib.import_module(package)
        assert module.__getattr__.__module__ == "kimi_ext._core.call.lazy", package


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


def test_the_helper_names_the_extra_of_a_missing_dependency() -> None:
    from kimi_ext._core.call.lazy import lazy_attributes

    getattr_ = lazy_attributes(
        "kimi_ext.telemetry",
        {"Thing": "kimi_ext_absent_dependency"},
        extras={"kimi_ext_absent_dependency": "otel"},
    )
    with pytest.raises(ImportError, match=r"pip install 'kimi-ext\[otel\]'$"):
        getattr_("Thing")
    with pytest.raises(AttributeError, match="has no attribute 'Other'"):
        getattr_("Other")


def test_submodules_are_reachable_from_the_package_and_other_names_are_not() -> None:
    import kimi_ext

    assert kimi_ext.formats is importlib.import_module("kimi_ext.formats")
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        kimi_ext.no_such_name  # noqa: B018
