"""The layers `make lint` enforces hold, and the check really catches a break.

``lint-imports`` reads ``[tool.importlinter]`` from pyproject.toml. The tests run it on the
package as it is (kept), and on a copy with one import that goes up a layer and one that
closes a cycle, written inside a function (both broken): a check that cannot fail proves
nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.lint import copy_package, lint
from tests.support.paths import ROOT


def test_the_package_keeps_its_layers_and_has_no_cycles() -> None:
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "9 kept, 0 broken" in done.stdout


def test_a_core_module_importing_the_client_breaks_the_layers(tmp_path: Path) -> None:
    root = copy_package(tmp_path)
    sending = root / "kimi_ext" / "_core" / "transport" / "sending.py"
    sending.write_text(
        sending.read_text() + "\n\ndef _late() -> object:\n    import kimi_ext.client\n\n"
        "    return kimi_ext.client\n"
    )
    done = lint(root)
    assert done.returncode != 0
    assert "kimi_ext._core is not allowed to import kimi_ext.client" in done.stdout
    assert "kimi_ext._core.transport.sending -> kimi_ext.client" in done.stdout


@pytest.mark.parametrize(
    ("importer", "imported"),
    [("kimi_ext/chat/result.py", "kimi_ext.chat.history"), ("kimi_ext/_core/streaming/sse.py", "kimi_ext._core.streaming.stream")],
)  # fmt: skip
def test_an_import_cycle_inside_a_package_is_found(
    tmp_path: Path, importer: str, imported: str
) -> None:
    root = copy_package(tmp_path)
    module = root / importer
    module.write_text(
        module.read_text() + f"\n\ndef _late() -> None:\n    import {imported}  # noqa\n"
    )
    done = lint(root)
    assert done.returncode != 0
    assert "No import cycles between the modules of any package BROKEN" in done.stdout
