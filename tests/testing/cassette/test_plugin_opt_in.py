"""The stand-in's pytest plugin is opt-in: installing kimi-ext adds nothing to a pytest
session, and enabling the plugin (``pytest_plugins`` in a conftest, or ``-p``) gives the
``kimi_standin`` and ``kimi_cassette`` fixtures and the ``kimi_cassette`` marker.

Each case is an application's own pytest run in a subprocess, in a folder of its own (not
under this project's conftest).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # pytest runs in subprocesses (`make test-fast` leaves it out)

PLUGIN = "kimi_ext.testing.pytest_plugin"

PLAIN_TESTS = """
import sys


def test_kimi_ext_is_not_imported():
    loaded = sorted(m for m in sys.modules if m == "kimi_ext" or m.startswith("kimi_ext."))
    assert loaded == []


def test_no_standin_fixture(kimi_standin):
    pass
"""

STANDIN_TESTS = """
import pytest

from kimi_ext import Kimi


@pytest.mark.kimi_cassette("elsewhere.json", strict=True)
def test_standin(kimi_standin):
    kimi_standin.queue("Hello!")
    with Kimi(api_key=kimi_standin.api_key, base_url=kimi_standin.base_url,
              fallback_base_url=None, max_retries=0) as client:
        result = client.chat.completions.create(
            model="kimi-k3.1-pro", messages=[{"role": "user", "content": "Hi"}]
        )
    assert result.text == "Hello!"


def test_cassette(kimi_cassette):
    pass
"""


def run_pytest(where: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIMI_", "PYTEST_"))}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", *args],
        cwd=where, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_an_installed_kimi_ext_adds_nothing_to_a_pytest_session(tmp_path: Path) -> None:
    (tmp_path / "test_app.py").write_text(PLAIN_TESTS)
    done = run_pytest(tmp_path, "test_app.py")
    out = done.stdout + done.stderr
    assert "PASSED test_app.py::test_kimi_ext_is_not_imported" in out, out
    assert "fixture 'kimi_standin' not found" in out, out


@pytest.mark.parametrize("how", ["conftest", "-p"])
def test_enabling_the_plugin_gives_its_fixtures_and_marker(tmp_path: Path, how: str) -> None:
    (tmp_path / "test_app.py").write_text(STANDIN_TESTS)
    args = ["--strict-markers", "test_app.py"]
    if how == "conftest":
        (tmp_path / "conftest.py").write_text(f"pytest_plugins = [{PLUGIN!r}]\n")
    else:
        args = ["-p", PLUGIN, *args]
    done = run_pytest(tmp_path, *args)
    out = done.stdout + done.stderr
    assert "PASSED test_app.py::test_standin" in out, out
    # The plugin's kimi_cassette: no cassette recorded, and record mode none, so its setup fails
    # saying how to record one.
    assert "ERROR test_app.py::test_cassette" in out, out
    assert "--kimi-record-mode=once" in out, out
