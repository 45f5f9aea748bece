"""The parallel run's groups (tests/support/parallel.py): the scheduler finds from each
test's id the group its ``xdist_group`` mark names, and a test without a mark is a group of
its own."""

from __future__ import annotations

import pytest

from tests.support.parallel import RAY, group_of, ray_pages


def marked_group(item: pytest.Item) -> str | None:
    mark = item.get_closest_marker("xdist_group")
    if mark is None:
        return None
    return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))


def test_every_collected_test_has_the_group_its_mark_names(request: pytest.FixtureRequest) -> None:
    items = request.session.items
    wrong = [(i.nodeid, marked_group(i), group_of(i.nodeid)) for i in items
             if marked_group(i) != group_of(i.nodeid)]  # fmt: skip
    assert wrong == []


def test_the_groups_found_from_ids() -> None:
    assert group_of("tests/batch/test_ray.py::test_the_ray_recipe_resumes_like_kimi_batch") == RAY
    docs = "tests/docs/test_readme_examples.py::"
    assert group_of(docs + "test_python_block_runs_as_written[README.md:50]") == "README.md"
    assert group_of(docs + "test_kimi_command_block_runs[docs/cli.md:7]") == "docs/cli.md"
    assert group_of(docs + "test_the_readme_is_a_first_page_that_links_every_guide") is None
    assert group_of("tests/batch/test_faults.py::test_rpm_holds_in_every_window") is None
    for page in ray_pages():
        assert group_of(docs + f"test_python_block_runs_as_written[{page}:1]") == RAY
    assert "docs/batch.md" in ray_pages()  # the Ray Data recipe
