"""The runner gates every attempt through the client's public ``event_hooks=`` option:
its limiter lets each attempt through (retries too) before any hook of the caller's own,
and sees every response."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from kimi_ext import ClientConfigError
from kimi_ext.batch import BatchRun
from kimi_ext.testing import Fault, KimiStandIn
from tests.support.batch import line


def test_every_attempt_passes_the_limiter_then_the_callers_own_hooks(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    kimi_standin.when("ask once", faults=[Fault.server_error(503)], times=1)
    seen: list[tuple[str, int]] = []
    statuses: list[int] = []
    run: BatchRun

    async def before(request: httpx.Request) -> None:
        # The limiter's hook ran first: it has counted this attempt already.
        seen.append((request.url.path, run.limiter.requests))

    async def after(response: httpx.Response) -> None:
        statuses.append(response.status_code)

    run = BatchRun(
        [line("once", "messages"), line("plain", "chat")], tmp_path / "out.jsonl",
        concurrency=1, api_key=kimi_standin.api_key, base_url=kimi_standin.base_url,
        event_hooks={"request": [before], "response": [after]},
    )  # fmt: skip
    docs = list(run)
    assert [d["error"] for d in docs] == [None, None]
    # Three attempts (the 503, its retry, the chat line), each counted before it went out.
    assert [count for _, count in seen] == [1, 2, 3]
    assert [path for path, _ in seen] == ["/v1/messages", "/v1/messages", "/v1/chat/completions"]
    assert sorted(statuses) == [200, 200, 503]
    assert run.limiter.requests == len(kimi_standin.requests) == 3


def test_bad_event_hooks_in_the_client_options_are_refused(tmp_path: Path) -> None:
    run: Any = BatchRun([line("a")], tmp_path / "out.jsonl", api_key="sk-test-0123456789",
                        base_url="http://127.0.0.1:9", event_hooks=["not", "a", "dict"])  # fmt: skip
    with pytest.raises(ClientConfigError, match="event_hooks: must be a dict, not list"):
        list(run)


@pytest.mark.parametrize(
    ("hooks", "message"),
    [
        ({"respons": []}, "unknown event 'respons'"),
        ({"request": print}, r"event_hooks\['request'\]: must be a list of functions"),
    ],
)
def test_event_hooks_the_runner_merges_with_are_still_checked(
    tmp_path: Path, hooks: dict[str, Any], message: str
) -> None:
    """The limiter's hooks are added to the caller's, never in place of them: a misspelt
    event or a value that is not a list reaches AsyncKimi, which names it."""
    run: Any = BatchRun([line("a")], tmp_path / "out.jsonl", api_key="sk-test-0123456789",
                        base_url="http://127.0.0.1:9", event_hooks=hooks)  # fmt: skip
    with pytest.raises(ClientConfigError, match=message):
        list(run)
