"""The entry module: importing ``kimi_ext.cli`` (the ``kimi`` script does, and so may any
program) changes nothing in the process, not even for a while, and loads nothing heavy;
``kimi`` and ``python -m kimi_ext.cli`` both run the command; the names of the former
single-module cli still work, with a DeprecationWarning naming their new home."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import kimi_ext

# Run in a fresh interpreter: every call that changes signal handling is watched while the
# import runs (a handler swapped and put back is a change too), and the rest is compared
# before and after. The findings go to a file: stdout and stderr must stay empty.
PROBE = r"""
import json, os, signal, sys

calls = []
for name in ("signal", "siginterrupt", "set_wakeup_fd", "pthread_sigmask", "setitimer", "alarm"):
    real = getattr(signal, name)
    def watching(*args, _real=real, _name=name):
        calls.append(_name + repr(args))
        return _real(*args)
    setattr(signal, name, watching)

def state():
    return {
        "handlers": {s.name: repr(signal.getsignal(s)) for s in signal.Signals
                     if s not in (signal.SIGKILL, signal.SIGSTOP)},
        "environ": dict(os.environ),
        "cwd": os.getcwd(),
        "excepthook": repr(sys.excepthook),
        "streams": [id(sys.stdin), id(sys.stdout), id(sys.stderr)],
    }

before = state()
import kimi_ext.cli
after = state()
heavy = ["httpx", "argparse", "asyncio", "kimi_ext.client", "kimi_ext.formats", "readline"]
with open(sys.argv[1], "w") as f:
    json.dump({"calls": calls, "same": before == after,
               "changed": [k for k in before if before[k] != after[k]],
               "loaded": [m for m in heavy if m in sys.modules],
               "main": callable(kimi_ext.cli.main)}, f)
"""


def test_importing_the_cli_changes_no_process_state(tmp_path: Path) -> None:
    found = tmp_path / "found.json"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(found)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert (done.stdout, done.stderr) == ("", "")
    report = json.loads(found.read_text())
    assert report["main"]
    assert report["calls"] == []  # no handler set, even to put the old one back
    assert report["same"], report["changed"]
    # Nothing heavy either: a Ctrl-C during the import itself (before main() runs) can only
    # land in these few lines; the heavy imports run inside main(), which handles it.
    assert report["loaded"] == []


def test_the_kimi_script_and_python_m_run_the_same_command() -> None:
    script = Path(sys.executable).with_name("kimi")
    assert script.is_file(), "the kimi console script (make install) is missing"
    want = f"kimi {kimi_ext.__version__} (kimi-ext)\n"
    for command in ([sys.executable, str(script)], [sys.executable, "-m", "kimi_ext.cli"]):
        done = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stdout) == (0, want), command


def test_the_names_of_the_single_module_cli_still_work_with_a_warning() -> None:
    cli = importlib.import_module("kimi_ext.cli")
    for old, (module, new) in cli._MOVED.items():
        with pytest.warns(DeprecationWarning, match=rf"kimi_ext\.cli\.{old} is now"):
            value = getattr(cli, old)
        home = importlib.import_module(f"kimi_ext.cli.{module}")
        assert value is getattr(home, new or old), old
    with pytest.warns(DeprecationWarning):
        from kimi_ext.cli import build_parser  # as a program importing it would
    assert build_parser().parse_args(["chat", "hi"]).prompt == ["hi"]
    with pytest.raises(AttributeError, match="no_such_name"):
        cli.no_such_name  # noqa: B018
