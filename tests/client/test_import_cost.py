"""What ``import kimi_ext`` + ``Kimi()`` leaves out: the heavy modules an app may never use.

Import time is a benchmark goal (``make bench``); this test pins the design that keeps it
low, without timing anything: each module below is imported only when first needed.
"""

from __future__ import annotations

import json
import subprocess
import sys

LAZY = [
    "asyncio",  # only AsyncKimi and async tools need it
    "jsonschema",  # only parse() with a schema
    "docstring_parser",  # only a tool made from a function
    "kimi_raw.chat.models",  # only StreamEvent.parsed and raw users
    "kimi_raw.messages.models",
    "kimi_raw.responses.models",
    "kimi_ext.testing",  # the stand-in
    "kimi_ext.cli",
]


def test_import_and_construction_leave_the_heavy_modules_out() -> None:
    code = (
        "import json, sys, kimi_ext; kimi_ext.Kimi(api_key='sk-test');"
        f"print(json.dumps([m for m in {LAZY!r} if m in sys.modules]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []


def test_async_client_imports_asyncio_when_made() -> None:
    code = (
        "import sys, kimi_ext; kimi_ext.AsyncKimi(api_key='sk-test');"
        "print('asyncio' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"
