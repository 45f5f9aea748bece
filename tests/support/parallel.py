"""Which tests run together in one worker when the suite runs in parallel (`make test`:
pytest-xdist, ``--dist loadgroup``).

The blocks of one documentation page share a namespace and a folder, so they run in one
worker, in order (a block in another worker would run the page's earlier blocks again).
The Ray tests, and a page that starts Ray, run in one worker too: one local Ray cluster
at a time. The tests that share an expensive module-scoped fixture (``SHARED_SETUP``) are
a group each, so that it is made once, not once in each worker. Every other test is a
group of its own.

The tests say so with ``xdist_group`` marks, but pytest-xdist 3.8 cannot read them under
pytest 9.2: it puts the group into the test's id by setting ``item._nodeid``, which pytest
9.2 no longer reads (a node's id is ``Node._id`` now), so every test stays a group of its
own. The scheduler below finds each test's group from its id instead, by the same rules
as the marks; ``tests/tooling/test_parallel_groups.py`` keeps the two in step.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from tests.support.paths import ROOT

RAY = "ray"
DOCS_TESTS = "tests/docs/test_readme_examples.py"
RAY_TESTS = "tests/batch/test_ray.py"
# A docs block's test: its id is the page and the line of its opening fence.
_BLOCK = re.compile(r"test_\w+\[(?P<page>[^\[\]]+):\d+\]")
_IMPORTS_RAY = re.compile(r"^import ray$", re.MULTILINE)
# A module, or a test of a module with all its cases: what their shared fixture makes.
SHARED_SETUP = {
    "tests/tooling/test_contract_flow.py": "specs edited, kimi_raw regenerated, probes run",
    "tests/typecheck/test_result_views.py": "mypy --strict over every case file",
    "tests/typecheck/test_derived_types.py": "mypy --strict over every case file",
    "tests/quality/test_hostile.py::test_a_decompression_bomb_is_capped": "1 GiB gzipped",
}


@cache
def ray_pages() -> frozenset[str]:
    """The documentation pages (relative to the repository root) whose code starts Ray."""
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").rglob("*.md")]
    return frozenset(
        p.relative_to(ROOT).as_posix() for p in pages if _IMPORTS_RAY.search(p.read_text())
    )


def page_group(page: str) -> str:
    """The group of a documentation page's blocks (``page`` relative to the root)."""
    return RAY if page in ray_pages() else page


def group_of(nodeid: str) -> str | None:
    """The group of the test ``nodeid``, or None for a test that is a group of its own."""
    path, _, name = nodeid.partition("::")
    if path == RAY_TESTS:
        return RAY
    if path == DOCS_TESTS and (block := _BLOCK.fullmatch(name)):
        return page_group(block["page"])
    for shared in SHARED_SETUP:
        if nodeid.startswith((shared + "::", shared + "[")):
            return shared
    return None


def scheduler(config: Any, log: Any) -> Any:
    """xdist's loadgroup scheduler, with each test's group found by :func:`group_of`."""
    from xdist.scheduler import LoadGroupScheduling

    class Grouped(LoadGroupScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid) or super()._split_scope(nodeid)

    return Grouped(config, log)
