"""pytest plugin: the ``kimi_standin`` and ``kimi_cassette`` fixtures.

Opt-in: installing kimi-ext adds nothing to a pytest session (no ``pytest11`` entry point).
A suite that wants the fixtures enables the plugin in its top ``conftest.py``::

    pytest_plugins = ["kimi_ext.testing.pytest_plugin"]

or on the command line, ``pytest -p kimi_ext.testing.pytest_plugin``. Then::

    def test_hello(kimi_standin):
        kimi_standin.queue("Hello!")
        client = Kimi(api_key=kimi_standin.api_key, base_url=kimi_standin.base_url,
                      fallback_base_url=None)
        ...

    def test_real_answer(kimi_cassette):       # replays cassettes/<module>/<test>.json
        client = Kimi(api_key=kimi_cassette.api_key, base_url=kimi_cassette.base_url,
                      fallback_base_url=None)
        ...

``kimi_cassette`` is a stand-in that replays the test's cassette or records it, as
``--kimi-record-mode`` says (the modes of pytest-recording):

- ``none`` (default): replay only; a missing cassette fails the test.
- ``once``: record the cassette if it does not exist, else replay only.
- ``new_episodes``: replay what matches, record the other requests into the cassette.
- ``all``: record every request again (the cassette is rewritten).

Recording forwards to ``--kimi-upstream`` (default ``KIMI_BASE_URL``, else the client's
default) with the key in ``KIMI_API_KEY``; while recording, ``kimi_cassette.api_key`` is that
key, so a test passes ``api_key=kimi_cassette.api_key`` in every mode. The cassette is
``<test dir>/cassettes/<module>/<test name>.json`` (override the ``kimi_cassette_dir``
fixture, or name a file with ``@pytest.mark.kimi_cassette("path.json")``: a relative path
is relative to the test file's folder, and recording one that does not exist warns
(:class:`~kimi_ext.testing.cassette.CassetteWarning`) naming where it records). A request that
matches no recording fails the test; ``--kimi-strict-cassettes`` (or
``@pytest.mark.kimi_cassette(strict=True)``) also fails it when an interaction went unused.
``--kimi-cassettes-used FILE`` lists each cassette a test used, for ``kimi cassettes check
--used FILE``.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kimi_ext.keys import ENV_API_KEY, ENV_BASE_URL, Secret
from kimi_ext.testing.cassette import CassetteError, CassetteWarning
from kimi_ext.testing.standin import KimiStandIn

MODES = ("none", "once", "new_episodes", "all")
# The kimi_cassette marker's keywords for KimiStandIn.replay and .record; the others are
# the stand-in's own settings.
REPLAY_OPTIONS = ("timing", "matcher", "allow_repeats")
RECORD_OPTIONS = ("scrubbers", "keep_headers")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("kimi_ext", "kimi-ext cassettes")
    group.addoption(
        "--kimi-record-mode",
        choices=MODES,
        default="none",
        help="record or replay kimi_cassette: none (replay only, the default), once, "
        "new_episodes, all",
    )
    group.addoption(
        "--kimi-upstream",
        metavar="URL",
        default=None,
        help="the service to record from (default: KIMI_BASE_URL, else the client's default)",
    )
    group.addoption(
        "--kimi-strict-cassettes",
        action="store_true",
        help="fail a test whose cassette has interactions it did not use",
    )
    group.addoption(
        "--kimi-cassettes-used",
        metavar="FILE",
        default=None,
        help="append the path of each cassette a test uses to FILE (for kimi cassettes check)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "kimi_cassette(path=None, *, strict=None, timing=None, allow_repeats=None, "
        "matcher=None, scrubbers=()): the cassette kimi_cassette uses and how",
    )


@pytest.fixture
def kimi_standin() -> Iterator[KimiStandIn]:
    """A running Kimi stand-in (key ``test-key``), stopped after the test."""
    with KimiStandIn() as standin:
        yield standin


@pytest.fixture
def kimi_cassette_dir(request: pytest.FixtureRequest) -> Path:
    """Where the test's cassette lives: ``cassettes/<module>`` beside the test file."""
    module = request.path
    return module.parent / "cassettes" / module.stem


@pytest.fixture
def kimi_cassette(request: pytest.FixtureRequest, kimi_cassette_dir: Path) -> Iterator[KimiStandIn]:
    """A stand-in replaying (or recording) the test's cassette (see the module docstring)."""
    config = request.config
    marker = request.node.get_closest_marker("kimi_cassette")
    options: dict[str, Any] = dict(marker.kwargs) if marker is not None else {}
    named = marker.args[0] if marker is not None and marker.args else None
    path = (
        Path(named) if named is not None else kimi_cassette_dir / f"{_safe(request.node.name)}.json"
    )
    if not path.is_absolute() and named is not None:
        path = request.path.parent / path
    mode = config.getoption("kimi_record_mode", default="none")
    strict = options.pop("strict", None)
    if strict is None:
        strict = bool(config.getoption("kimi_strict_cassettes", default=False))
    exists = path.exists()
    if mode == "none" and not exists:
        pytest.fail(
            f"no cassette at {path} (record mode none): record it once with "
            "--kimi-record-mode=once and KIMI_API_KEY set",
            pytrace=False,
        )
    record = mode in ("all", "new_episodes") or (mode == "once" and not exists)
    replay = exists and mode != "all"
    # The marker's options: how to replay, how to record, and the server's own settings.
    settings: dict[str, Any] = {k: v for k, v in options.items() if v is not None}
    replaying = {k: settings.pop(k) for k in REPLAY_OPTIONS if k in settings}
    recording = {k: settings.pop(k) for k in RECORD_OPTIONS if k in settings}
    if "record_headers" in settings:  # its name as a KimiStandIn keyword, before 0.2
        recording["keep_headers"] = settings.pop("record_headers")
    key = Secret("test-key")  # held so that no traceback's locals show the real key
    upstream = None
    if record:
        key = Secret(os.environ.get(ENV_API_KEY, "").strip())
        if not key.get():
            pytest.fail(
                f"recording {path} (record mode {mode}) needs the real key in {ENV_API_KEY}",
                pytrace=False,
            )
        upstream = config.getoption("kimi_upstream", default=None) or _default_upstream()
        if named is not None and not exists:
            # Most often a mistyped or misplaced path: say where the new cassette goes.
            warnings.warn(
                CassetteWarning(
                    f"kimi_cassette({str(named)!r}): no cassette there; recording a new one "
                    f"at {path} (a relative marker path is relative to the test file's "
                    f"folder, {request.path.parent})"
                ),
                stacklevel=1,
            )
        if mode == "all":
            path.unlink(missing_ok=True)
    used = config.getoption("kimi_cassettes_used", default=None)
    if used:
        with open(used, "a", encoding="utf-8") as log:
            log.write(f"{path.resolve()}\n")
    try:
        standin = KimiStandIn(api_key=key.get(), **settings)
        if replay:
            standin.replay(path, **replaying)
        if upstream is not None:
            standin.record(path, upstream, **recording)
    except CassetteError as exc:
        pytest.fail(str(exc), pytrace=False)
    with standin:
        yield standin
    problems = standin.mismatches
    if strict:
        problems += [f"unused: {i.describe()}" for i in standin.unused_interactions()]
    if problems:
        pytest.fail("cassette replay: " + "; ".join(problems), pytrace=False)


def _safe(name: str) -> str:
    """A test name (with its parameters) as a file name."""
    return re.sub(r"[^A-Za-z0-9_.\-\[\]]+", "_", name)


def _default_upstream() -> str:
    from kimi_ext import DEFAULT_BASE_URL

    return os.environ.get(ENV_BASE_URL) or DEFAULT_BASE_URL
