"""The ``kimi_cassette`` fixture and its record modes, in a pytest run of its own (the
plugin enabled with ``-p``, as an application's suite may enable it), against an upstream
stand-in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kimi_ext.testing import KimiStandIn
from tests.support.cassettes import UPSTREAM_KEY

pytestmark = pytest.mark.slow  # pytest runs in subprocesses (`make test-fast` leaves it out)

PLUGIN = "kimi_ext.testing.pytest_plugin"
# The fixture wraps its stand-in with replay() and record(): the deprecated constructor
# keywords would warn, made an error here.
NO_DEPRECATED = ("-W", f"error::DeprecationWarning:{PLUGIN}")

APP_TESTS = """
from kimi_ext import Kimi


def ask(standin, text):
    with Kimi(api_key=standin.api_key, base_url=standin.base_url, fallback_base_url=None,
              max_retries=0) as client:
        return client.chat.completions.create(
            model="kimi-k3.1-pro", messages=[{"role": "user", "content": text}]
        ).text


def test_weather(kimi_cassette):
    assert ask(kimi_cassette, "Weather in Oslo?") == "Weather in Oslo?"
"""

SECOND_CALL = """
    assert ask(kimi_cassette, "And in Rome?") == "And in Rome?"
"""


def run_pytest(
    where: Path, *args: str, key: str | None = UPSTREAM_KEY
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIMI_", "PYTEST_"))}
    if key is not None:
        env["KIMI_API_KEY"] = key
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", PLUGIN, *NO_DEPRECATED, "test_app.py", *args],
        cwd=where, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


@pytest.fixture
def app(tmp_path: Path) -> Path:
    (tmp_path / "test_app.py").write_text(APP_TESTS)
    return tmp_path


def cassette_of(app: Path) -> Path:
    return app / "cassettes" / "test_app" / "test_weather.json"


def prompts(path: Path) -> list[str]:
    document = json.loads(path.read_text())
    return [i["request"]["json"]["messages"][0]["content"] for i in document["interactions"]]


def test_the_record_modes(app: Path, upstream: KimiStandIn) -> None:
    url = ["--kimi-upstream", upstream.base_url]

    # none (the default): a missing cassette fails, saying how to record it.
    run = run_pytest(app)
    assert run.returncode == 1
    assert f"no cassette at {cassette_of(app)} (record mode none)" in run.stdout
    assert "--kimi-record-mode=once" in run.stdout
    assert not upstream.requests

    # once: records the missing cassette (the real key goes upstream, not into the file).
    run = run_pytest(app, "--kimi-record-mode=once", *url)
    assert run.returncode == 0, run.stdout
    assert len(upstream.requests) == 1
    assert upstream.requests[0].headers["authorization"] == f"Bearer {UPSTREAM_KEY}"
    assert prompts(cassette_of(app)) == ["Weather in Oslo?"]
    assert UPSTREAM_KEY[:8] not in cassette_of(app).read_text()

    # none and once replay it, with no key and no upstream.
    upstream.stop()
    for mode in ("none", "once"):
        run = run_pytest(app, f"--kimi-record-mode={mode}", key=None)
        assert run.returncode == 0, run.stdout
    upstream.start()  # on a new port
    upstream.reset()
    url = ["--kimi-upstream", upstream.base_url]

    # A new request: none fails naming the closest recording; new_episodes records it.
    (app / "test_app.py").write_text(APP_TESTS + SECOND_CALL)
    run = run_pytest(app, key=None)
    assert run.returncode == 1
    assert "the closest is" in run.stdout and "messages[0].content" in run.stdout
    run = run_pytest(app, "--kimi-record-mode=new_episodes", *url)
    assert run.returncode == 0, run.stdout
    assert len(upstream.requests) == 1  # only the new one
    assert prompts(cassette_of(app)) == ["Weather in Oslo?", "And in Rome?"]
    assert run_pytest(app, key=None).returncode == 0

    # all: everything recorded again, the file rewritten.
    run = run_pytest(app, "--kimi-record-mode=all", *url)
    assert run.returncode == 0, run.stdout
    assert len(upstream.requests) == 3
    assert prompts(cassette_of(app)) == ["Weather in Oslo?", "And in Rome?"]


def test_recording_without_a_key_fails_clearly(app: Path, upstream: KimiStandIn) -> None:
    run = run_pytest(app, "--kimi-record-mode=once", "--kimi-upstream", upstream.base_url, key=None)
    assert run.returncode == 1
    assert "needs the real key in KIMI_API_KEY" in run.stdout
    assert not upstream.requests


def test_strict_cassettes_and_the_used_list(app: Path, upstream: KimiStandIn) -> None:
    (app / "test_app.py").write_text(APP_TESTS + SECOND_CALL)
    run = run_pytest(app, "--kimi-record-mode=once", "--kimi-upstream", upstream.base_url)
    assert run.returncode == 0, run.stdout
    (app / "test_app.py").write_text(APP_TESTS)  # the test no longer asks about Rome
    assert run_pytest(app, key=None).returncode == 0
    run = run_pytest(app, "--kimi-strict-cassettes", key=None)
    assert run.returncode == 1
    assert "unused: " in run.stdout and "test_weather.json #1" in run.stdout

    used = app / "used.txt"
    orphan = app / "cassettes" / "test_app" / "test_gone.json"
    orphan.write_text(cassette_of(app).read_text())
    assert run_pytest(app, "--kimi-cassettes-used", str(used), key=None).returncode == 0
    check = subprocess.run(
        [str(Path(sys.executable).parent / "kimi"), "cassettes", "check", str(app / "cassettes"),
         "--used", str(used)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert check.returncode == 9
    assert check.stdout.strip() == f"{orphan}: no test used it"


def test_a_marker_names_the_cassette_and_its_options(app: Path, upstream: KimiStandIn) -> None:
    (app / "test_app.py").write_text(
        APP_TESTS.replace(
            "def test_weather",
            '@__import__("pytest").mark.kimi_cassette("shared/weather.json", allow_repeats=True)\n'
            "def test_weather",
        )
        + SECOND_CALL.replace("And in Rome?", "Weather in Oslo?")
    )
    run = run_pytest(app, "--kimi-record-mode=once", "--kimi-upstream", upstream.base_url)
    assert run.returncode == 0, run.stdout
    assert prompts(app / "shared" / "weather.json") == ["Weather in Oslo?", "Weather in Oslo?"]
    assert run_pytest(app, key=None).returncode == 0


def test_a_marker_path_that_does_not_exist_warns_where_it_records(
    app: Path, upstream: KimiStandIn
) -> None:
    # The suite in a subfolder, run from its parent: the marker path is relative to the test
    # file's folder, not to where pytest runs.
    suite = app / "suite"
    suite.mkdir()
    (suite / "test_app.py").write_text(
        APP_TESTS.replace(
            "def test_weather",
            '@__import__("pytest").mark.kimi_cassette("cassetes/weather.json")\ndef test_weather',
        )
    )
    (app / "test_app.py").unlink()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIMI_", "PYTEST_"))}
    env["KIMI_API_KEY"] = UPSTREAM_KEY

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", PLUGIN, *NO_DEPRECATED,
             "suite/test_app.py", "--kimi-record-mode=once", "--kimi-upstream",
             upstream.base_url, *args],
            cwd=app, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    where = suite / "cassetes" / "weather.json"
    # Warnings made errors (as a strict suite may): nothing is recorded, nothing sent.
    strict = run("-W", "error::kimi_ext.testing.CassetteWarning")
    assert strict.returncode == 1
    assert "CassetteWarning" in strict.stdout and str(where) in strict.stdout
    assert not where.exists() and not upstream.requests

    recorded = run()
    assert recorded.returncode == 0, recorded.stdout
    assert "CassetteWarning: kimi_cassette('cassetes/weather.json'): no cassette there; " \
        f"recording a new one at {where} (a relative marker path is relative to the test " \
        f"file's folder, {suite})" in recorded.stdout  # fmt: skip
    assert where.exists() and len(upstream.requests) == 1

    again = run()  # it exists now: replayed, nothing to warn about
    assert again.returncode == 0, again.stdout
    assert "CassetteWarning" not in again.stdout and len(upstream.requests) == 1
