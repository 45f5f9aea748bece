"""Input lines: the batch-line format for the three endpoints, and every bad line refused
up front (one message per line, nothing sent) unless the user asks to skip them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kimi_ext.batch import BatchInputError, run_batch
from kimi_ext.testing import KimiStandIn
from tests.support.batch import answered, kimi_batch, line, mixed, read_jsonl, write_jsonl


def test_three_endpoints_mixed_in_one_file_give_batch_output_lines(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", mixed(9, stream_every=2))
    out = tmp_path / "out.jsonl"
    run = kimi_batch(kimi_standin, source, "-o", out, "--concurrency", "3")
    assert run.returncode == 0, run.stderr
    docs = {d["custom_id"]: d for d in read_jsonl(out)}
    assert sorted(docs) == [f"id-{i:05d}" for i in range(9)]
    paths = {r.path for r in kimi_standin.requests}
    assert paths == {"/v1/chat/completions", "/v1/messages", "/v1/responses"}
    for cid, doc in docs.items():
        assert set(doc) == {"id", "custom_id", "response", "error"}
        assert doc["error"] is None and doc["id"].startswith("batch_req_")
        response = doc["response"]
        assert set(response) == {"status_code", "request_id", "body"}
        assert response["status_code"] == 200 and response["request_id"].startswith("req_")
        body = response["body"]
        # The final object of each format, streamed or not, with the answer in it.
        assert f"ask {cid}" in json.dumps(body)
        assert "usage" in body
    # Streamed lines went as streams, and were written as the final object.
    streamed = [r for r in kimi_standin.requests if r.json.get("stream") is True]
    assert len(streamed) == 5
    chat0 = docs["id-00000"]["response"]["body"]
    assert chat0["object"] == "chat.completion" and chat0["choices"][0]["message"]["content"]
    assert "ids 9" not in run.stdout and "9 succeeded" in run.stdout


def test_bad_lines_are_refused_up_front_one_message_each(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    lines: list[dict | str] = [
        line("ok-1"),
        line("bad-effort", "chat", reasoning_effort="extreme"),  # a spec rule
        {"custom_id": "bad-url", "method": "POST", "url": "/v1/embeddings", "body": {}},
        line("ok-1", "messages"),  # duplicate custom_id
        "{not json",
        line("ok-2", "messages", max_tokens=0),  # a spec rule, in Messages
        {**line("bad-method"), "method": "GET"},
        {**line("typo"), "bodyy": {}},
    ]
    source = write_jsonl(tmp_path / "in.jsonl", lines)
    out = tmp_path / "out.jsonl"
    run = kimi_batch(kimi_standin, source, "-o", out)
    assert run.returncode == 3, run.stderr
    assert kimi_standin.requests == []  # nothing was sent
    assert not out.exists() or out.read_text() == ""
    errors = [ln.strip() for ln in run.stderr.splitlines() if ln.strip().startswith("line ")]
    assert len(errors) == 7, run.stderr
    by_line = {int(e.split()[1].rstrip(":")): e for e in errors}
    assert "custom_id 'bad-effort'" in by_line[2] and "body.reasoning_effort" in by_line[2]
    assert "extreme" in by_line[2]
    assert "url" in by_line[3] and "/v1/embeddings" in by_line[3]
    assert "custom_id 'ok-1'" in by_line[4] and "first on line 1" in by_line[4]
    assert "is not JSON" in by_line[5]
    assert "body.max_tokens" in by_line[6]
    assert "method" in by_line[7] and "'GET'" in by_line[7]
    assert "bodyy" in by_line[8]


def test_skip_invalid_sends_the_valid_lines_and_lists_the_others(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    lines = [line("a"), line("b", reasoning_effort="extreme"), line("c", "responses"), line("a")]
    source = write_jsonl(tmp_path / "in.jsonl", lines)
    out = tmp_path / "out.jsonl"
    run = kimi_batch(kimi_standin, source, "-o", out, "--skip-invalid", "--json")
    assert run.returncode == 0, run.stderr
    assert sorted(answered(kimi_standin)) == ["a", "c"]
    assert [d["custom_id"] for d in read_jsonl(out)].count("a") == 1
    skipped = [ln for ln in run.stderr.splitlines() if ln.startswith("skipped: ")]
    assert len(skipped) == 2 and "line 2" in skipped[0] and "line 4" in skipped[1]
    summary = json.loads(run.stdout)
    assert summary["invalid_skipped"] == 2 and summary["succeeded"] == 2


def test_the_python_api_refuses_the_same_way(kimi_standin: KimiStandIn, tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", [line("x"), line("y", "messages", max_tokens=-1)])
    with pytest.raises(BatchInputError) as caught:
        list(run_batch(source, tmp_path / "out.jsonl", api_key=kimi_standin.api_key,
                       base_url=kimi_standin.base_url))  # fmt: skip
    (problem,) = caught.value.problems
    assert (problem.line, problem.custom_id, problem.path) == (2, "y", "body.max_tokens")
    assert kimi_standin.requests == []


def test_lines_may_be_given_in_memory_and_full_urls_are_taken_by_path(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    given = [line("m1"), {**line("m2", "responses"), "url": "https://api.example/v1/responses"}]
    docs = list(run_batch(given, tmp_path / "out.jsonl", api_key=kimi_standin.api_key,
                          base_url=kimi_standin.base_url))  # fmt: skip
    assert sorted(d["custom_id"] for d in docs) == ["m1", "m2"]
    assert sorted(read_jsonl(tmp_path / "out.jsonl"), key=lambda d: d["custom_id"]) == sorted(
        docs, key=lambda d: d["custom_id"]
    )


def test_every_repeated_custom_id_is_found_among_many_lines() -> None:
    # The repeats are looked for a part of the hashes at a time: each must still be found,
    # whichever part its hash falls in, and a custom_id used three times is named twice.
    from kimi_ext.batch.checkpoint import Checkpoint
    from kimi_ext.batch.lines import LineSource
    from kimi_ext.batch.plan import make_plan

    lines = [line(f"id-{i}") for i in range(3000)]
    lines += [line("id-7"), line("id-1500"), line("id-2999"), line("id-7")]
    with pytest.raises(BatchInputError) as caught:
        make_plan(LineSource(lines), Checkpoint(), skip_invalid=False)
    named = [(p.line, p.custom_id) for p in caught.value.problems]
    assert named == [(3001, "id-7"), (3002, "id-1500"), (3003, "id-2999"), (3004, "id-7")]


@pytest.mark.parametrize("fmt", ["chat", "messages", "responses"])
def test_an_undocumented_field_gets_advice_a_batch_file_can_follow(
    kimi_standin: KimiStandIn, tmp_path: Path, fmt: str
) -> None:
    # A call would be told to pass extra_body=, which a JSONL line has no way to say.
    lines = [line("ok"), line("typo", fmt, streem=True)]
    with pytest.raises(BatchInputError) as caught:
        list(run_batch(lines, tmp_path / "out.jsonl", api_key=kimi_standin.api_key,
                       base_url=kimi_standin.base_url))  # fmt: skip
    [problem] = caught.value.problems
    assert (problem.line, problem.custom_id, problem.path) == (2, "typo", "body.streem")
    assert "extra_body" not in str(caught.value)
    assert "did you mean 'stream'?" in problem.rule
    assert "correct or remove it in the line's body" in problem.rule
    assert kimi_standin.requests == []
