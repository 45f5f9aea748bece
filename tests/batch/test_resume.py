"""Resume: the output is the checkpoint; finished lines are never sent again, a changed line
is refused, failed ones are retried when asked, and a request re-sent after a stop carries
the idempotency key it had."""

from __future__ import annotations

import json
from pathlib import Path

from kimi_ext.batch import BatchRun, Prices, idempotency_key, job_id_for
from kimi_ext.testing import Fault, KimiStandIn
from tests.support.batch import answered, kimi_batch, line, mixed, read_jsonl, write_jsonl


def keys_by_id(standin: KimiStandIn) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for r in standin.requests:
        out.setdefault(r.last_user_text.removeprefix("ask "), set()).add(
            r.headers["idempotency-key"]
        )
    return out


def test_a_quota_error_stops_the_run_and_a_resume_finishes_it(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", mixed(30, stream_every=3))
    out = tmp_path / "out.jsonl"
    kimi_standin.when("ask id-00010", faults=[Fault.quota()], times=1)
    first = kimi_batch(kimi_standin, source, "-o", out, "--concurrency", "2")
    assert first.returncode == 13, first.stderr  # QuotaExceededError
    assert "QuotaExceededError" in first.stderr and "stopped: QuotaExceededError" in first.stdout
    written = [d["custom_id"] for d in read_jsonl(out)]
    assert "id-00010" not in written and len(written) == len(set(written))
    # It stopped at once: at most the lines in flight beside the refused one were sent.
    sent_first = len(kimi_standin.requests)
    assert sent_first <= 11 + 2
    assert len(written) >= sent_first - 2  # what was sent was written (the quota line aside)

    second = kimi_batch(kimi_standin, source, "-o", out, "--concurrency", "2", "--json")
    assert second.returncode == 0, second.stderr
    docs = read_jsonl(out)
    assert sorted(d["custom_id"] for d in docs) == [f"id-{i:05d}" for i in range(30)]
    assert all(d["error"] is None for d in docs)
    # Nothing written in the first run was sent again; the quota line was, with its key.
    resent = answered(kimi_standin)[sent_first:]
    assert not set(resent) & set(written)
    assert len(resent) == 30 - len(written)
    keys = keys_by_id(kimi_standin)
    assert keys["id-00010"] == {idempotency_key(job_id_for(out), "id-00010")}
    assert all(len(k) == 1 for k in keys.values())
    summary = json.loads(second.stdout)
    assert summary["already_done"] == len(written) and summary["succeeded"] == 30 - len(written)


def test_a_cut_last_line_is_dropped_and_its_request_sent_again(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", [line("a"), line("b", "messages"), line("c")])
    out = tmp_path / "out.jsonl"
    assert kimi_batch(kimi_standin, source, "-o", out).returncode == 0
    docs = read_jsonl(out)
    keep = [d for d in docs if d["custom_id"] != "b"]
    cut = json.dumps(next(d for d in docs if d["custom_id"] == "b"))[:40]
    out.write_text("".join(json.dumps(d) + "\n" for d in keep) + cut)
    before = len(kimi_standin.requests)
    again = kimi_batch(kimi_standin, source, "-o", out)
    assert again.returncode == 0, again.stderr
    assert answered(kimi_standin)[before:] == ["b"]
    assert sorted(d["custom_id"] for d in read_jsonl(out)) == ["a", "b", "c"]


def test_a_changed_line_is_refused_with_a_clear_message(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", [line("a"), line("b")])
    out = tmp_path / "out.jsonl"
    assert kimi_batch(kimi_standin, source, "-o", out).returncode == 0
    before = out.read_bytes()
    # Reformatted (keys reordered) is the same request; a changed text is not.
    same = {"body": line("a")["body"], "url": "/v1/chat/completions", "method": "POST",
            "custom_id": "a"}  # fmt: skip
    write_jsonl(source, [same, line("b", text="something else")])
    sent = len(kimi_standin.requests)
    run = kimi_batch(kimi_standin, source, "-o", out)
    assert run.returncode == 3
    assert "line 2 (custom_id 'b'): line: changed since its result was written" in run.stderr
    assert "line 1" not in run.stderr
    assert len(kimi_standin.requests) == sent and out.read_bytes() == before


def test_failed_lines_are_written_and_retried_only_when_asked(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", [line("a"), line("b", "responses"), line("c")])
    out = tmp_path / "out.jsonl"
    kimi_standin.when("ask b", faults=[Fault.error(400, "no thanks",
                                                   error_type="invalid_request_error")],
                      times=1)  # fmt: skip
    first = kimi_batch(kimi_standin, source, "-o", out)
    assert first.returncode == 8, first.stderr  # finished, some lines failed
    failed = {d["custom_id"]: d for d in read_jsonl(out)}["b"]
    assert failed["error"]["code"] == "invalid_request_error"
    assert failed["error"]["message"] == "no thanks"
    assert failed["response"]["status_code"] == 400
    sent = len(kimi_standin.requests)
    assert kimi_batch(kimi_standin, source, "-o", out).returncode == 0
    assert len(kimi_standin.requests) == sent  # a failed line is final unless asked
    again = kimi_batch(kimi_standin, source, "-o", out, "--retry-failed", "--json")
    assert again.returncode == 0, again.stderr
    assert answered(kimi_standin)[sent:] == ["b"]
    docs = read_jsonl(out)
    assert sorted(d["custom_id"] for d in docs) == ["a", "b", "c"]
    assert all(d["error"] is None for d in docs)
    assert json.loads(again.stdout)["retried_failed"] == 1


def test_an_output_that_cannot_be_written_is_a_setup_error(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", [line("a")])
    run = kimi_batch(kimi_standin, source, "-o", tmp_path)  # a directory
    assert run.returncode == 6 and "cannot" in run.stderr and "Traceback" not in run.stderr
    assert kimi_standin.requests == []


def test_the_summary_gives_whole_job_totals_after_any_number_of_resumes(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    lines = mixed(24, stream_every=3)
    for cid in ("id-00005", "id-00016"):  # fail in every run
        kimi_standin.when(f"ask {cid}", faults=[Fault.error(400, "no", error_type="bad")])
    prices = Prices.from_dict({"kimi-k3.1-pro": {"input": 1.0, "cached_input": 0.25,
                                                 "output": 4.0}})  # fmt: skip
    options = {"api_key": kimi_standin.api_key, "base_url": kimi_standin.base_url,
               "concurrency": 2, "prices": prices}  # fmt: skip
    whole = BatchRun(lines, tmp_path / "whole.jsonl", **options)
    for _ in whole:  # one run, uninterrupted
        pass
    out = tmp_path / "parts.jsonl"
    for stop_after in (7, 9):  # the same job stopped part way, twice, then finished
        stopped = BatchRun(lines, out, **options)
        for written, _ in enumerate(stopped, 1):
            if written == stop_after:
                break
    last = BatchRun(lines, out, **options)
    for _ in last:
        pass
    assert 16 <= last.summary.already_done < 24  # it was resumed
    assert last.summary.succeeded + last.summary.failed < 24  # and this run did only part
    single, resumed = whole.summary.to_dict()["job"], last.summary.to_dict()["job"]
    assert single["succeeded"] == 22 and single["failed"] == 2
    assert single["usage"]["requests"] == 22 and single["usage"]["output"] > 0
    assert single["cost"] > 0
    for totals in (single, resumed):
        totals["failed_ids"] = sorted(totals["failed_ids"])
    assert resumed == single  # counts, failed lines, usage per model, cost
    assert single["failed_ids"] == ["id-00005", "id-00016"]
    text = last.summary.text()
    assert "whole job: 22 succeeded, 2 failed (" in text
    assert "id-00005" in text and "id-00016" in text
    job_cost = f"cost (whole job): {single['cost']:.4f}"
    assert job_cost in text and f"this run: {last.summary.cost:.4f}" in text
    usage = single["usage"]
    assert f"usage (whole job): input {usage['input']:,} " in text
