"""``kimi batch IN.jsonl -o OUT.jsonl``: the command's options and what it does.

The ``kimi`` parser (:mod:`kimi_ext.cli`) registers the subcommand with
:func:`add_arguments` and calls :func:`run_command`; everything else is here. stdout
carries the summary (text, or one JSON document with ``--json``); the progress (a bar in
a terminal, a line a minute otherwise) and any skipped lines go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Callable
from typing import Any, TextIO

__all__ = ["DESCRIPTION", "EXIT_BAD_INPUT", "EXIT_SOME_FAILED", "add_arguments", "run_command"]

# The input has bad lines; nothing was sent (BatchInputError).
EXIT_BAD_INPUT = 3
# The run finished, but some lines failed (their output lines carry the error).
EXIT_SOME_FAILED = 8

DESCRIPTION = """\
Send every request of a batch JSONL file (OpenAI / Moonshot batch-line format, the three
endpoints mixed) and append each result to OUT as it is final. OUT is the checkpoint: run
the same command again to continue; finished lines are skipped, and each request keeps its
idempotency key across runs. Ctrl-C stops cleanly.

  kimi batch requests.jsonl -o results.jsonl --concurrency 16 --rpm 500
  kimi batch requests.jsonl -o results.jsonl --retry-failed      # send failed lines again"""


def add_arguments(
    parser: argparse.ArgumentParser,
    *,
    positive: Callable[[str], int],
    non_negative: Callable[[str], int],
    seconds: Callable[[str], float],
) -> None:
    """Add ``kimi batch``'s arguments to its subparser (the number types are the CLI's)."""
    parser.add_argument("input", metavar="IN.jsonl", help="the requests, one JSON line each")
    parser.add_argument(
        "-o", "--output", metavar="OUT.jsonl", required=True,
        help="the results, appended as they are final (also the checkpoint)",
    )  # fmt: skip
    parser.add_argument("--concurrency", type=positive, default=16, help="requests in flight")
    parser.add_argument("--rpm", type=positive, default=None, help="requests per minute at most")
    parser.add_argument(
        "--tpm", type=positive, default=None,
        help="estimated tokens per minute at most (body size / 4 + its output limit)",
    )  # fmt: skip
    parser.add_argument(
        "--max-retries", type=non_negative, default=2,
        help="retries per request (and per cut stream)",
    )  # fmt: skip
    parser.add_argument(
        "--retry-failed", action="store_true",
        help="send the lines that failed in an earlier run again",
    )  # fmt: skip
    parser.add_argument(
        "--skip-invalid", action="store_true",
        help="send the valid lines and list the bad ones, instead of refusing the file",
    )  # fmt: skip
    parser.add_argument(
        "--job-id", default=None,
        help="names the job in every idempotency key (default: from OUT's absolute path)",
    )  # fmt: skip
    parser.add_argument(
        "--prices", metavar="FILE", default=None,
        help='a JSON price table per model, per million tokens: {"MODEL": {"input": ..., '
        '"cached_input": ..., "output": ...}}',
    )  # fmt: skip
    parser.add_argument(
        "--on-interrupt", choices=("finish", "abandon"), default="finish",
        help="on Ctrl-C, finish the requests in flight (a second Ctrl-C abandons them) or "
        "abandon them at once",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--no-progress", action="store_true", help="show no progress")
    parser.add_argument(
        "--progress-interval", type=seconds, default=60.0,
        help="seconds between progress lines when stderr is not a terminal",
    )  # fmt: skip
    parser.add_argument("--timeout", type=seconds, default=900.0, help="timeout in seconds")


def run_command(
    args: argparse.Namespace,
    *,
    api_key: str,
    base_url: str | None,
    out: TextIO,
    err: TextIO | None = None,
) -> int:
    """Run ``kimi batch``; returns the exit code. An error that stopped the run (an
    exhausted quota, a rejected key) is raised after the summary is printed, for the CLI
    to turn into its exit code."""
    from kimi_ext.batch.lines import BatchInputError
    from kimi_ext.batch.progress import Progress
    from kimi_ext.batch.runner import BatchRun
    from kimi_ext.batch.summary import Prices

    err = err or sys.stderr
    prices = Prices.load(args.prices) if args.prices else None
    progress = None if args.no_progress else Progress(err, interval=args.progress_interval)
    run = BatchRun(
        args.input, args.output,
        concurrency=args.concurrency, rpm=args.rpm, tpm=args.tpm, max_retries=args.max_retries,
        retry_failed=args.retry_failed, skip_invalid=args.skip_invalid, job_id=args.job_id,
        prices=prices, on_interrupt=args.on_interrupt, progress=progress,
        api_key=api_key, base_url=base_url, timeout=args.timeout,
        allow_insecure_http=args.allow_insecure_http,
    )  # fmt: skip
    stopper: BaseException | None = None
    try:
        asyncio.run(_drive(run, err))
    except BatchInputError as exc:
        # One line per bad line (the CLI's one-line error would cut them off).
        print(f"kimi: BatchInputError: {exc.source}: {len(exc.problems)} bad line"
              f"{'s' if len(exc.problems) != 1 else ''}, nothing was sent (--skip-invalid "
              "sends the valid ones):", file=err)  # fmt: skip
        for problem in exc.problems:
            print(f"  {problem}", file=err)
        return EXIT_BAD_INPUT
    except Exception as exc:  # the run stopped early: summary first, then the error
        if run.plan is None:  # nothing ran (bad input, setup): no summary to give
            raise
        stopper = exc
    for problem in run.problems if args.skip_invalid else ():
        print(f"skipped: {problem}", file=err)
    summary = run.summary
    if args.json:
        out.write(json.dumps(summary.to_dict(), ensure_ascii=False) + "\n")
    else:
        out.write(summary.text() + "\n")
    out.flush()
    if stopper is not None:
        raise stopper
    if summary.stopped_by == "interrupted":
        return 130
    return EXIT_SOME_FAILED if summary.failed else 0


async def _drive(run: Any, err: TextIO) -> None:
    """Consume the run, with Ctrl-C (SIGINT) turned into ``run.interrupt()``."""
    loop = asyncio.get_running_loop()
    handled = False

    def interrupt() -> None:
        flying = run.stats.in_flight
        if run.on_interrupt == "finish" and run.summary.stopped_by != "interrupted":
            say = (f"interrupted: finishing the {flying} requests in flight (Ctrl-C again "
                   "abandons them); the output stays resumable")  # fmt: skip
        else:
            say = (f"interrupted: abandoning the {flying} requests in flight (not written: "
                   "the next run sends them again)")  # fmt: skip
        print(say, file=err, flush=True)
        run.interrupt()

    with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
        loop.add_signal_handler(signal.SIGINT, interrupt)
        handled = True
    try:
        async with contextlib.aclosing(run.results()) as docs:
            async for _ in docs:
                pass
    finally:
        if handled:
            loop.remove_signal_handler(signal.SIGINT)
