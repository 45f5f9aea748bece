"""``kimi batch`` as users run it: Ctrl-C (finish or abandon), progress in a pipe and a
terminal, the summary with a price table, and its usage errors."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from kimi_ext.testing import KimiStandIn
from tests.support.batch import (
    CLI,
    answered,
    env_for,
    kimi_batch,
    line,
    mixed,
    read_jsonl,
    write_jsonl,
)


class Held:
    """A stand-in responder that holds every request until released (a server that is
    busy for as long as the test wants)."""

    def __init__(self, standin: KimiStandIn) -> None:
        self.release = threading.Event()
        standin.responder = self

    def __call__(self, request: object) -> None:
        assert self.release.wait(60), "never released"


def wait_until(condition: object, bound: float = 60) -> None:
    end = time.monotonic() + bound
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < end, "the event never came"
        time.sleep(0.005)


class Running:
    """``kimi batch`` in the background, stderr read as it comes."""

    def __init__(self, standin: KimiStandIn, *args: str | Path) -> None:
        self.proc = subprocess.Popen([*CLI, *map(str, args)], env=env_for(standin),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
        self.err = b""

    def stderr_has(self, text: str, bound: float = 60) -> None:
        assert self.proc.stderr is not None
        end = time.monotonic() + bound
        while text.encode() not in self.err:
            left = end - time.monotonic()
            assert left > 0, self.err
            ready, _, _ = select.select([self.proc.stderr], [], [], left)
            if ready:
                chunk = os.read(self.proc.stderr.fileno(), 65536)
                assert chunk or text.encode() in self.err, self.err
                self.err += chunk

    def finish(self) -> tuple[int, str, str]:
        out, err = self.proc.communicate(timeout=60)
        return self.proc.returncode, out.decode(), (self.err + err).decode()


@pytest.mark.parametrize("mode", ["finish", "abandon"])
def test_ctrl_c_finishes_or_abandons_the_requests_in_flight(
    kimi_standin: KimiStandIn, tmp_path: Path, mode: str
) -> None:
    held = Held(kimi_standin)
    source = write_jsonl(tmp_path / "in.jsonl", mixed(10))
    out = tmp_path / "out.jsonl"
    run = Running(kimi_standin, source, "-o", out, "--concurrency", "3", "--on-interrupt", mode,
                  "--no-progress")  # fmt: skip
    wait_until(lambda: len(kimi_standin.requests) == 3)
    run.proc.send_signal(signal.SIGINT)
    run.stderr_has(f"interrupted: {'finishing' if mode == 'finish' else 'abandoning'} the 3")
    if mode == "finish":
        held.release.set()
    code, stdout, stderr = run.finish()
    held.release.set()
    assert code == 130, stderr
    assert "Traceback" not in stderr and "stopped: interrupted" in stdout
    written = [d["custom_id"] for d in read_jsonl(out)]
    first = answered(kimi_standin)
    assert len(first) == 3  # nothing started after Ctrl-C
    assert sorted(written) == (sorted(first) if mode == "finish" else [])
    again = kimi_batch(kimi_standin, source, "-o", out)
    assert again.returncode == 0, again.stderr
    assert sorted(d["custom_id"] for d in read_jsonl(out)) == [f"id-{i:05d}" for i in range(10)]


def test_a_pipe_gets_one_progress_line_per_interval(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    held = Held(kimi_standin)
    source = write_jsonl(tmp_path / "in.jsonl", mixed(6))
    run = Running(kimi_standin, source, "-o", tmp_path / "out.jsonl", "--concurrency", "2",
                  "--progress-interval", "0.2")  # fmt: skip
    run.stderr_has("batch: 0/6 done, 0 failed, 2 in flight")
    held.release.set()
    code, stdout, stderr = run.finish()
    assert code == 0, stderr
    lines = [ln for ln in stderr.splitlines() if ln.startswith("batch: ")]
    assert all("req/min" in ln and "tok/min" in ln and "ETA" in ln for ln in lines)
    assert "\r" not in stderr and "\x1b" not in stderr  # no bar in a pipe
    assert stdout.startswith("6 succeeded, 0 failed this run")


def test_a_terminal_gets_a_progress_bar(kimi_standin: KimiStandIn, tmp_path: Path) -> None:
    held = Held(kimi_standin)
    source = write_jsonl(tmp_path / "in.jsonl", mixed(6))
    master, slave = pty.openpty()
    proc = subprocess.Popen([*CLI, str(source), "-o", str(tmp_path / "out.jsonl"),
                             "--concurrency", "2"], env=env_for(kimi_standin),
                            stdout=subprocess.PIPE, stderr=slave)  # fmt: skip
    os.close(slave)
    seen = b""

    def read_until(marker: bytes) -> None:
        nonlocal seen
        end = time.monotonic() + 60
        while marker not in seen:
            assert time.monotonic() < end, seen
            ready, _, _ = select.select([master], [], [], 1)
            if ready:
                try:
                    seen += os.read(master, 65536)
                except OSError:  # the terminal closed
                    break

    read_until(b"in flight 2")
    held.release.set()
    read_until(b"6/6")
    out, _ = proc.communicate(timeout=60)
    os.close(master)
    assert proc.returncode == 0
    text = seen.decode(errors="replace")
    assert "0/6" in text and "failed 0" in text and "req/min" in text and "tok/min" in text
    assert "\r" in text  # redrawn in place
    assert out.decode().startswith("6 succeeded")


def test_the_summary_counts_usage_and_the_cost_from_a_price_table(
    kimi_standin: KimiStandIn, tmp_path: Path
) -> None:
    lines = [line("a"), line("b", "messages"), line("c", "responses"),
             line("d", "chat", model="kimi-k3")]  # fmt: skip
    source = write_jsonl(tmp_path / "in.jsonl", lines)
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"kimi-k3.1-pro": {"input": 1.0, "cached_input": 0.25,
                                                    "output": 4.0}}))  # fmt: skip
    out = tmp_path / "out.jsonl"
    run = kimi_batch(kimi_standin, source, "-o", out, "--prices", prices, "--json")
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    pro = summary["usage_by_model"]["kimi-k3.1-pro"]
    assert pro["requests"] == 3 and summary["usage_by_model"]["kimi-k3"]["requests"] == 1
    assert pro["reasoning"] > 0 and pro["output"] >= pro["reasoning"]
    expected = ((pro["input"] - pro["cached"] - pro["cache_write"]) * 1.0 + pro["cached"] * 0.25
                + pro["cache_write"] * 1.0 + pro["output"] * 4.0) / 1e6  # fmt: skip
    assert summary["cost_by_model"] == {"kimi-k3.1-pro": pytest.approx(expected),
                                       "kimi-k3": None}  # fmt: skip
    assert summary["cost"] == pytest.approx(expected)
    total = summary["usage"]
    assert total["input"] == sum(m["input"] for m in summary["usage_by_model"].values())
    text = kimi_batch(kimi_standin, source, "-o", tmp_path / "o2.jsonl", "--prices", prices)
    assert "kimi-k3 not in the price table" in text.stdout and "reasoning" in text.stdout


def test_usage_errors_show_the_batch_usage(tmp_path: Path) -> None:
    run = kimi_batch(None, tmp_path / "in.jsonl")
    assert run.returncode == 2 and "usage: kimi batch" in run.stderr and "-o" in run.stderr
    run = kimi_batch(None, tmp_path / "in.jsonl", "-o", "x", "--concurency", "2")
    assert run.returncode == 2 and "did you mean --concurrency" in run.stderr
    bad = tmp_path / "prices.json"
    bad.write_text('{"kimi-k3.1-pro": {"input": -1, "output": 1}}')
    write_jsonl(tmp_path / "in.jsonl", [line("a")])
    run = subprocess.run([*CLI, str(tmp_path / "in.jsonl"), "-o", "x", "--prices", str(bad)],
                         env={**env_for(None), "KIMI_API_KEY": "sk-unused-here"}, capture_output=True,
                         text=True, timeout=60)  # fmt: skip
    assert run.returncode == 6 and "kimi-k3.1-pro.input=-1" in run.stderr
