"""Peak memory while a stream is accumulated, measured with tracemalloc in a child process.

    python -m benchmarks.memory ROOT SPEC_JSON     # prints one JSON object per line

``SPEC_JSON`` is a list of ``[format, contender, events, repetitions]``. For each entry
the child warms the contender up with one untraced run, then starts tracemalloc (so only
what is allocated from then on counts: the peak is above the process baseline), reads
the whole stream, and records the peak of traced memory. "The size of the final result"
is ``len(json.dumps(result.to_dict()))`` of kimi_ext's result for the same stream (the
same denominator for every contender of a format).
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

__all__ = ["measure_memory"]


def _contender(clients: Any, fmt: str, name: str, events: int) -> Any:
    from .contenders import BASELINE, KIMI_STREAM, stream_accumulation

    sdks = name not in (BASELINE, KIMI_STREAM)  # import an SDK only when it is measured
    for contender in stream_accumulation(clients, fmt, events, sdks=sdks, iterate=False):
        if contender.name == name:
            return contender
    raise KeyError(name)


def _result_size(clients: Any, fmt: str, events: int) -> int:
    from .contenders import KIMI_STREAM

    kimi = _contender(clients, fmt, KIMI_STREAM, events)
    return len(json.dumps(kimi.run().to_dict()))


def _child(root: str, spec: list[list[Any]]) -> None:
    from .contenders import Clients

    clients = Clients(root)
    sizes: dict[tuple[str, int], int] = {}
    for fmt, name, events, reps in spec:
        contender = _contender(clients, fmt, name, events)
        contender.run()  # warm up: imports, the client's connection, caches
        key = (fmt, events)
        if key not in sizes:
            sizes[key] = _result_size(clients, fmt, events)
        peaks = []
        for _ in range(reps):
            gc.collect()
            tracemalloc.start()
            result = contender.run()
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            if contender.check is not None:
                contender.check(result)
            del result
            peaks.append(peak)
        out = {"format": fmt, "contender": name, "events": events, "peaks": peaks}
        out["result_size"] = sizes[key]
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    clients.close()


def measure_memory(root: str, spec: list[list[Any]]) -> list[dict[str, Any]]:
    """Run the measurements of ``spec`` in a fresh child process."""
    repo = Path(__file__).resolve().parent.parent
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(repo), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.memory", root, json.dumps(spec)],
        capture_output=True,
        text=True,
        cwd=repo,
        env=env,
        timeout=900,
    )
    if done.returncode != 0:
        raise RuntimeError(f"memory measurement failed:\n{done.stderr[-4000:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


if __name__ == "__main__":
    _child(sys.argv[1], json.loads(sys.argv[2]))
