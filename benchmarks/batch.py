"""The ``batch`` group: ``kimi batch``'s runner against what its settings allow and against a
bare loop, each run in a child process of its own (its CPU time and peak RSS are its own).

    python -m benchmarks.batch MODE SPEC_JSON     # a child: prints one JSON object

Four ratios, measured in one run:

* throughput: with the server answering after a fixed latency L, N lines at concurrency C
  take at least ceil(N / C) * L; the ratio is the time from the first request sent to the
  last result written over that (goal <= 1/0.95: at least 95 % of the throughput the
  concurrency allows). The checks of the whole file and the client's start-up come once,
  before the first request; the row shows the total too;
* CPU per request: the runner's process CPU time over that of a bare asyncio + httpx loop
  with a semaphore that writes the same JSONL, same lines, same server (goal <= 1.2);
* peak memory: the child's peak RSS (VmHWM) for a 10x larger file over the smaller one's
  (goal <= 1.1: memory does not grow with the input);
* rate limit: with ``rpm=R`` on a scaled-down window, the most requests sent within any
  window over R (goal <= 1.0).
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["batch_rows"]

KEY = "bench-key-not-secret"
SCENARIO = "chat.small.0"


def _lines(path: Path, n: int) -> Path:
    with path.open("w") as f:
        for i in range(n):
            body = {
                "model": "kimi-k3.1-pro",
                "messages": [
                    {"role": "user", "content": f"Question number {i}: one word for snow?"}
                ],
            }
            f.write(json.dumps({"custom_id": f"req-{i:07d}", "method": "POST",
                                "url": "/v1/chat/completions", "body": body}) + "\n")  # fmt: skip
    return path


# --- the children -------------------------------------------------------------------------


async def _runner(spec: dict[str, Any]) -> dict[str, Any]:
    from kimi_ext.batch.runner import BatchRun

    run = BatchRun(spec["input"], spec["output"], concurrency=spec["concurrency"],
                   rpm=spec.get("rpm"), rate_window=spec.get("window", 60.0),
                   api_key=KEY, base_url=spec["base"])  # fmt: skip
    sends: list[float] = []
    if spec.get("record_sends"):
        # Not in the memory runs: a float per request would be the harness's growth.
        acquire = run.limiter.acquire

        async def recorded() -> None:  # when each request leaves, as the limiter lets it
            await acquire()
            sends.append(time.perf_counter())

        run.limiter.acquire = recorded  # type: ignore[method-assign]
    count = 0
    async for _ in run.results():
        count += 1
    return {"count": count, "sends": sends, "end": time.perf_counter()}


async def _bare(spec: dict[str, Any]) -> dict[str, Any]:
    """What people write: a semaphore, httpx, json, one line appended per result."""
    import httpx

    limit = spec["concurrency"]
    slots = asyncio.Semaphore(limit)
    fd = os.open(spec["output"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    headers = {"Authorization": f"Bearer {KEY}"}
    count = 0
    tasks: set[asyncio.Task[None]] = set()
    limits = httpx.Limits(max_connections=limit, max_keepalive_connections=limit)
    async with httpx.AsyncClient(limits=limits, timeout=60) as http:

        async def one(doc: dict[str, Any]) -> None:
            nonlocal count
            try:
                r = await http.post(spec["base"] + doc["url"], json=doc["body"], headers=headers)
                out = {"id": f"batch_req_{doc['custom_id']}", "custom_id": doc["custom_id"],
                       "response": {"status_code": r.status_code,
                                    "request_id": r.headers.get("x-request-id"),
                                    "body": r.json()}, "error": None}  # fmt: skip
                os.write(fd, (json.dumps(out, ensure_ascii=False) + "\n").encode())
                count += 1
            finally:
                slots.release()

        with open(spec["input"], "rb") as f:
            for raw in f:
                doc = json.loads(raw)
                await slots.acquire()
                task = asyncio.create_task(one(doc))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
        while tasks:
            await asyncio.wait(set(tasks))
    os.close(fd)
    return {"count": count, "sends": []}


def _child(mode: str, spec: dict[str, Any]) -> None:
    import httpx  # noqa: F401 - imported before the clock starts, by both contenders

    if mode == "runner":
        import kimi_ext.batch.runner  # noqa: F401
    work = _runner if mode == "runner" else _bare
    wall, cpu = time.perf_counter(), time.process_time()
    result = asyncio.run(work(spec))
    result["seconds"] = time.perf_counter() - wall
    result["cpu"] = time.process_time() - cpu
    result["peak_kib"] = _peak_rss_kib()
    print(json.dumps(result))


def _peak_rss_kib() -> int:
    """This process's peak resident set (VmHWM: ru_maxrss would include the parent's at
    fork, which exec does not reset)."""
    with open("/proc/self/status") as status:
        for text in status:
            if text.startswith("VmHWM:"):
                return int(text.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _run_child(mode: str, spec: dict[str, Any]) -> dict[str, Any]:
    repo = Path(__file__).resolve().parent.parent
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(repo), env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, "-m", "benchmarks.batch", mode, json.dumps(spec)],
                          capture_output=True, text=True, cwd=repo, env=env,
                          timeout=600, check=False)  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"batch bench child {mode} failed: {done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if result["count"] != spec["expect"]:
        raise RuntimeError(f"{mode}: {result['count']} results, expected {spec['expect']}")
    return result


# --- the group ----------------------------------------------------------------------------


def batch_rows(config: Any, root: str, log: Any) -> list[Any]:
    """The group's rows (see the module docstring)."""
    from . import GOALS
    from .runner import Row, spread

    rows: list[Row] = []
    reps = config.batch_reps
    base = f"{root}/s/{SCENARIO}"
    with tempfile.TemporaryDirectory(prefix="kimi-batch-bench-") as tmp:
        where = Path(tmp)

        def spec(n: int, name: str, **extra: Any) -> dict[str, Any]:
            out = where / f"{name}.out.jsonl"
            out.unlink(missing_ok=True)  # each repetition starts from an empty output
            return {"input": str(where / f"in-{n}.jsonl"), "output": str(out), "expect": n,
                    **extra}  # fmt: skip

        sizes = {config.batch_latency[0], config.batch_cpu_lines, *config.batch_memory_lines,
                 config.batch_rpm[2]}  # fmt: skip
        for n in sizes:
            _lines(where / f"in-{n}.jsonl", n)

        n, conc, latency_ms = config.batch_latency
        log(f"batch throughput: {n} lines, concurrency {conc}, {latency_ms} ms latency")
        ideal = math.ceil(n / conc) * latency_ms / 1000
        took, total = [], []
        for _ in range(reps):
            result = _run_child("runner", spec(n, "latency", concurrency=conc,
                                               base=f"{base}/delay-{latency_ms}",
                                               record_sends=True))  # fmt: skip
            # Throughput: from the first request sent to the last result written. Reading
            # and checking the file and building the client come before, once per run
            # (shown beside it).
            took.append(result["end"] - result["sends"][0])
            total.append(result["seconds"])
        rows.append(Row(f"batch: {n} lines at {latency_ms} ms latency", "chat", "kimi batch",
                        f"{min(took):.2f} s sending (ideal {ideal:.2f} s; "
                        f"{min(total):.2f} s with the checks and start-up)",
                        spread([t / ideal for t in took]), "time / ideal",
                        GOALS["batch_throughput"]))  # fmt: skip

        n = config.batch_cpu_lines
        log(f"batch CPU per request: {n} lines, runner vs bare asyncio + httpx loop")
        runner_cpu, bare_cpu = [], []
        for _ in range(reps):  # interleaved, so noise hits both alike
            runner_cpu.append(_run_child("runner", spec(n, "cpu", concurrency=16,
                                                        base=base))["cpu"])  # fmt: skip
            bare_cpu.append(_run_child("bare", spec(n, "cpu-bare", concurrency=16,
                                                    base=base))["cpu"])  # fmt: skip
        per = [c / n * 1e6 for c in runner_cpu]
        rows.append(Row(f"batch: CPU per request, {n} lines", "chat", "kimi batch",
                        f"{min(per):.0f} us / request", spread(
                            [r / b for r, b in zip(runner_cpu, bare_cpu, strict=True)]),
                        "vs bare loop", GOALS["batch_cpu"]))  # fmt: skip
        rows.append(Row(f"batch: CPU per request, {n} lines", "chat", "bare asyncio+httpx",
                        f"{min(bare_cpu) / n * 1e6:.0f} us / request", None, ""))  # fmt: skip

        small, large = config.batch_memory_lines
        log(f"batch peak memory: {small:,} vs {large:,} lines")
        peaks: dict[int, list[int]] = {small: [], large: []}
        for _ in range(reps):
            for size in (small, large):
                result = _run_child("runner", spec(size, f"mem-{size}", concurrency=32,
                                                   base=base))  # fmt: skip
                peaks[size].append(result["peak_kib"])
        ratios = [b / a for a, b in zip(peaks[small], peaks[large], strict=True)]
        rows.append(Row(f"batch: peak RSS, {large:,} vs {small:,} lines", "chat", "kimi batch",
                        f"{min(peaks[large]) / 1024:.1f} MiB vs "
                        f"{min(peaks[small]) / 1024:.1f} MiB", spread(ratios),
                        "peak / smaller peak", GOALS["batch_memory"]))  # fmt: skip

        rpm, window, n = config.batch_rpm
        log(f"batch rpm: {n} lines at rpm={rpm} per {window:g} s window")
        most = []
        for _ in range(reps):
            sends = _run_child("runner", spec(n, "rpm", concurrency=16, base=base, rpm=rpm,
                                              window=window, record_sends=True))["sends"]  # fmt: skip
            most.append(max(sum(1 for u in sends[i:] if u < t + window)
                            for i, t in enumerate(sends)))  # fmt: skip
        rows.append(Row(f"batch: --rpm {rpm} per {window:g} s window, {n} lines", "chat",
                        "kimi batch", f"at most {max(most)} in a window",
                        spread([m / rpm for m in most]), "most in a window / rpm",
                        GOALS["batch_rpm"]))  # fmt: skip
    return rows


if __name__ == "__main__":
    _child(sys.argv[1], json.loads(sys.argv[2]))
