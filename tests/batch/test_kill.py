"""kill -9 at random points, again and again, then a resume: every custom_id is in the
output exactly once, no line is torn, and the stand-in saw no request beyond those in
flight at each kill (no faults here, so no retries)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

from kimi_ext.batch import fingerprint, idempotency_key, job_id_for
from kimi_ext.testing import Fault, KimiStandIn
from tests.support.batch import CLI, env_for, mixed, read_jsonl, write_jsonl

LINES = 300
CONCURRENCY = 4
KILLS = 6


def whole_lines(path: Path) -> list[dict]:
    """The lines of the output as a kill left it: every complete line parses (a cut last
    line, which the resume drops, is not counted)."""
    if not path.exists():
        return []
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    return [json.loads(raw) for raw in complete.splitlines()]


def open_connections(standin: KimiStandIn) -> int:
    server = standin._server  # the stand-in's own bookkeeping of its live connections
    assert server is not None
    with server.lock:
        return len(server.connections)


def wait_for(condition: object, proc: subprocess.Popen[str], bound: float = 60.0) -> bool:
    """Poll ``condition`` until it holds (True) or the process ends and it still does not
    (False)."""
    end = time.monotonic() + bound
    while time.monotonic() < end:
        if condition():  # type: ignore[operator]
            return True
        if proc.poll() is not None and proc.returncode != -signal.SIGKILL:
            return False
        time.sleep(0.002)
    raise AssertionError("neither the event nor the end of the run came")


def test_repeated_sigkill_then_resume_loses_nothing_and_pays_for_nothing_twice(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    seed = int.from_bytes(os.urandom(4), "little")
    rnd = random.Random(seed)
    lines = mixed(LINES, stream_every=3)
    source = write_jsonl(tmp_path / "in.jsonl", lines)
    out = tmp_path / "out.jsonl"
    # Every answer takes a little while, so requests are in flight at each kill.
    kimi_standin.when(lambda r: True, faults=[Fault.slow_first_byte(0.02)])
    command = [*CLI, str(source), "-o", str(out), "--concurrency", str(CONCURRENCY),
               "--no-progress"]  # fmt: skip
    # A request is known by its idempotency key: one cut by the kill in the middle of its
    # body still has its headers.
    job = job_id_for(out)
    owner = {idempotency_key(job, ln["custom_id"]): ln["custom_id"] for ln in lines}

    def sent_since(base: int) -> list[str]:
        return [owner[r.headers["idempotency-key"]] for r in kimi_standin.requests[base:]]

    unanswered: list[set[str]] = []
    kills = 0
    while kills < KILLS:
        base = len(kimi_standin.requests)
        written_before = len(whole_lines(out))
        proc = subprocess.Popen(command, env=env_for(kimi_standin), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)  # fmt: skip
        step = rnd.randint(1, 30)
        if kills % 2 == 0:  # some requests into the run, likely mid-flight
            target = base + step
            hit = wait_for(lambda: len(kimi_standin.requests) >= target, proc)  # noqa: B023
        else:  # just after an output line was written
            target = written_before + step
            hit = wait_for(lambda: len(whole_lines(out)) >= target, proc)  # noqa: B023
        assert hit, f"seed {seed}: the run ended before kill {kills + 1}: {proc.communicate()}"
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        assert proc.returncode == -signal.SIGKILL
        # What the dead process had sent is all recorded once the stand-in has seen its
        # connections close (so none of it is taken for the next run's).
        wait_for(lambda: not open_connections(kimi_standin), proc)
        kills += 1
        sent = sent_since(base)
        assert len(sent) == len(set(sent)), f"seed {seed}: a line was sent twice in one run"
        on_disk = {d["custom_id"] for d in whole_lines(out)}
        lost = set(sent) - on_disk
        # What was sent and not written was in flight at the kill: at most one per worker.
        assert len(lost) <= CONCURRENCY, (seed, kills, lost, [
            (r.headers["idempotency-key"], r.body[:80]) for r in kimi_standin.requests[base:]
            if owner[r.headers["idempotency-key"]] in lost])  # fmt: skip
        unanswered.append(lost)

    final = subprocess.run(command, env=env_for(kimi_standin), capture_output=True, text=True,
                           timeout=120)  # fmt: skip
    assert final.returncode == 0, (seed, final.stderr)

    docs = read_jsonl(out)  # line by line: every line whole, the file ends with a newline
    ids = [d["custom_id"] for d in docs]
    assert sorted(ids) == sorted(ln["custom_id"] for ln in lines), f"seed {seed}"
    assert len(ids) == len(set(ids)) == LINES
    by_id = {ln["custom_id"]: ln for ln in lines}
    for doc in docs:
        source_line = by_id[doc["custom_id"]]
        assert doc["error"] is None and doc["response"]["status_code"] == 200
        assert doc["id"] == "batch_req_" + fingerprint(
            doc["custom_id"], source_line["url"], source_line["body"]
        )
        assert f"ask {doc['custom_id']}" in json.dumps(doc["response"]["body"])
    # Each line was sent once, plus once more after each kill that caught it in flight;
    # every send of a line carried the same idempotency key.
    counts: dict[str, int] = {}
    for cid in sent_since(0):
        counts[cid] = counts.get(cid, 0) + 1
    for cid in by_id:
        expected = 1 + sum(cid in lost for lost in unanswered)
        assert counts.get(cid) == expected, (seed, cid, counts.get(cid), expected)
    assert len(kimi_standin.requests) == LINES + sum(len(lost) for lost in unanswered)
