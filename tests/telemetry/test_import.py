"""OpenTelemetry is imported only when telemetry is on, and its absence is a clear error.

Each check runs in a fresh interpreter, so what this test session imported does not count.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kimi_ext.testing import KimiStandIn


def run(code: str, **env: str) -> str:
    import os

    environ = {k: v for k, v in os.environ.items() if not k.startswith(("KIMI_", "OTEL_"))}
    environ.update(env)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=environ
    )
    return done.stdout.strip()


CALLS = (
    "import json, sys, kimi_ext;"
    "c = kimi_ext.Kimi(api_key='test-key', base_url='{url}');"
    "c.chat.completions.create(model='kimi-k3.1-pro', messages=[{{'role': 'user', 'content': 'Hi'}}]);"
    "a = kimi_ext.AsyncKimi(api_key='test-key', base_url='{url}');"
    "print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & "
    "{{'opentelemetry', 'kimi_ext'}}) + sorted(m for m in sys.modules if m.startswith("
    "('kimi_ext.telemetry', 'kimi_ext.hooks', 'kimi_ext._core.transport.hooking')))))"
)


def test_off_nothing_of_telemetry_or_the_hooks_is_imported(kimi_standin: KimiStandIn) -> None:
    out = run(CALLS.format(url=kimi_standin.base_url))
    assert json.loads(out) == ["kimi_ext"]


@pytest.mark.parametrize("value", ["", "0", "false", "off"])
def test_the_environment_variable_unset_or_off_keeps_it_off(
    kimi_standin: KimiStandIn, value: str
) -> None:
    out = run(CALLS.format(url=kimi_standin.base_url), KIMI_TELEMETRY=value)
    assert json.loads(out) == ["kimi_ext"]


def test_the_environment_variable_turns_it_on(kimi_standin: KimiStandIn) -> None:
    code = (
        "import kimi_ext, sys;"
        f"c = kimi_ext.Kimi(api_key='test-key', base_url='{kimi_standin.base_url}');"
        "print(type(c.hooks[0]).__name__, 'opentelemetry' in sys.modules)"
    )
    assert run(code, KIMI_TELEMETRY="1") == "Telemetry True"


def test_telemetry_false_beats_the_environment_variable() -> None:
    code = (
        "import kimi_ext, sys; c = kimi_ext.Kimi(api_key='test-key', telemetry=False);"
        "print(c.hooks, 'opentelemetry' in sys.modules)"
    )
    assert run(code, KIMI_TELEMETRY="1") == "() False"


def test_without_opentelemetry_turning_it_on_is_a_clear_error() -> None:
    # A None entry in sys.modules makes `import opentelemetry` fail, as if not installed.
    code = (
        "import sys; sys.modules['opentelemetry'] = None; import kimi_ext\n"
        "c = kimi_ext.Kimi(api_key='test-key'); print('off ok', end='; ')\n"
        "try:\n"
        "    kimi_ext.Kimi(api_key='test-key', telemetry=True)\n"
        "except kimi_ext.ClientConfigError as e:\n"
        "    print(e)\n"
    )
    out = run(code)
    assert out.startswith("off ok; telemetry needs opentelemetry-api, which is not installed")
    assert out.endswith("pip install 'kimi-ext[otel]'")
