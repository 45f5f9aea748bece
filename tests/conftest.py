"""Suite-wide fixtures: the offline stand-in (the shipped pytest plugin, enabled), and a check
that every request body the suite sends through the kimi_ext client is valid for its
spec under a standard JSON Schema 2020-12 validator (not the client's own)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.parallel import group_of, scheduler

# The standard validators built straight from openapi/*.yaml (tests/support/spec.py).
from tests.support.spec import request_component, request_validator, spec

# The stand-in's plugin (the kimi_standin and kimi_cassette fixtures, --kimi-record-mode...),
# enabled as an application's suite enables it: installing kimi-ext does not.
pytest_plugins = ["kimi_ext.testing.pytest_plugin"]

# A suite started in the background by a shell without job control (`make test &` in a
# script, nohup) inherits SIGINT ignored, and so would every process it starts: the tests
# that send Ctrl-C to `kimi` or the stand-in would wait in vain. They test the default
# disposition, so the suite restores it (a process started with it ignored, on purpose, is
# tested by test_an_ignored_sigint_stays_ignored).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Ray starts its worker processes at a lower priority (nice 15) than the process that
# starts it. Beside the suite's other parallel workers (pytest-xdist), which keep the CPUs
# busy, they then barely run: the Ray tests took ten times as long. The suite's Ray
# clusters (tests/batch/test_ray.py, docs/batch.md) run their workers at its own priority.
os.environ.setdefault("RAY_worker_niceness", "0")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a parallel worker, the tests marked slow (and the rest of their group) go first:
    they then overlap with the many short ones instead of running alone at the end. Each
    worker collects the same order, as xdist requires; a run without workers keeps the
    files' order."""
    if not hasattr(config, "workerinput"):
        return
    slow = {group_of(i.nodeid) or i.nodeid for i in items if i.get_closest_marker("slow")}
    items.sort(key=lambda i: (group_of(i.nodeid) or i.nodeid) not in slow)  # stable


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist (`make test` runs in parallel)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup``: the suite's groups (tests/support/parallel.py says why)."""
    return scheduler(config, log) if config.getvalue("dist") == "loadgroup" else None


@pytest.fixture(autouse=True, scope="session")
def every_sent_body_is_valid_for_its_spec() -> Iterator[None]:
    """Wrap the client's request building: a body it would send must pass the spec.

    ``extra_body=`` sends fields on purpose, unchecked: a call that uses it to replace a
    documented field is not checked, one that only adds fields is checked without them.
    """
    import kimi_ext.client as client_module

    original = client_module.prepare

    def checked(endpoint: Any, params: Any, *, stream: bool = False, **options: Any) -> Any:
        prepared = original(endpoint, params, stream=stream, **options)
        extra = dict(params.get("extra_body") or {})
        fmt = endpoint.name
        validator = request_validator(fmt)
        documented = spec(fmt)["components"]["schemas"][request_component(fmt)]["properties"]
        if not any(key in documented for key in extra):
            body = {k: v for k, v in prepared.body.items() if k not in extra}
            # What a history object received goes back as it came, outside the request
            # schema (a block type it does not list); only what the user wrote is checked.
            history = params.get(endpoint.history_field)
            received = getattr(history, "received_positions", None)
            if received is not None and isinstance(body.get(endpoint.history_field), list):
                skip = received()
                items = body[endpoint.history_field]
                kept = [item for i, item in enumerate(items) if i not in skip]
                body[endpoint.history_field] = kept or items
            errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
            if errors:
                shown = [f"{list(e.absolute_path)}: {e.message[:160]}" for e in errors[:3]]
                raise AssertionError(f"kimi_ext would send a {fmt} body its spec refuses: {shown}")
        return prepared

    client_module.prepare = checked
    try:
        yield
    finally:
        client_module.prepare = original
