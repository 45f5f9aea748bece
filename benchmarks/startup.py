"""Import plus client construction, each in a fresh interpreter.

Every round starts one ``python -c`` process per contender (in a rotated order) and times
it from spawn to exit. ``python -c pass`` measures the interpreter's own startup, which
is subtracted for the startup-free ratio. The children run with a private bytecode
cache (``PYTHONPYCACHEPREFIX``) that the warm-up rounds fill, and with
``PYTHONDONTWRITEBYTECODE`` removed, so every library is loaded from bytecode the way an
installed package is (this machine sets PYTHONDONTWRITEBYTECODE, which would otherwise
make kimi_ext, installed editable, compile its sources on every import while the
pip-installed libraries load bytecode).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

__all__ = ["STARTUP", "measure_startup"]

STARTUP = {
    "python -c pass": "pass",
    "import httpx; httpx.Client()": "import httpx; httpx.Client()",
    "import kimi_ext; Kimi()": "import kimi_ext; kimi_ext.Kimi(api_key='k')",
    "import openai; OpenAI()": "import openai; openai.OpenAI(api_key='k')",
    "import anthropic; Anthropic()": "import anthropic; anthropic.Anthropic(api_key='k')",
}


def measure_startup(names: list[str], *, rounds: int, warmup: int = 2) -> dict[str, list[float]]:
    """Wall-clock seconds per run for each named snippet of :data:`STARTUP`."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("KIMI_API_KEY", None)
    times: dict[str, list[float]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory(prefix="kimi-bench-pyc-") as cache:
        env["PYTHONPYCACHEPREFIX"] = cache
        for index in range(warmup + rounds):
            for k in range(len(names)):
                name = names[(k + index) % len(names)]
                start = time.perf_counter()
                subprocess.run([sys.executable, "-c", STARTUP[name]], env=env, check=True)
                elapsed = time.perf_counter() - start
                if index >= warmup:
                    times[name].append(elapsed)
    return times
