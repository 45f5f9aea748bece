"""``python -m benchmarks`` (``make bench``): kimi_ext against bare httpx and the big SDKs.

python -m benchmarks                # the full run (~4 minutes on 2 cores), writes RESULTS.md
python -m benchmarks --quick        # a fast smoke run (about a minute), prints only
python -m benchmarks --only stream,memory --output /tmp/r.md
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from . import CONFIGS, GROUPS, run_benchmarks
from .report import table, write_results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.split("\n")[0]
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="small sizes, few repetitions")
    mode.add_argument("--smoke", action="store_true", help="tiny sizes: only proves the code runs")
    parser.add_argument(
        "--only", default="", help=f"comma-separated groups to run (of: {', '.join(GROUPS)})"
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        help="where to write the results (default: benchmarks/RESULTS.md for a full run of all "
        "groups; other runs only print unless given)",
    )
    args = parser.parse_args(argv)
    config = CONFIGS["quick" if args.quick else "smoke" if args.smoke else "full"]
    only = [g.strip() for g in args.only.split(",") if g.strip()] or list(GROUPS)
    unknown = set(only) - set(GROUPS)
    if unknown:
        parser.error(f"unknown group(s): {', '.join(sorted(unknown))}")
    output = args.output
    if output is None and config.name == "full" and only == list(GROUPS):
        output = Path(__file__).resolve().parent / "RESULTS.md"

    started = time.perf_counter()
    rows, notes = run_benchmarks(config, groups=only, log=lambda text: print(text, file=sys.stderr))
    seconds = time.perf_counter() - started
    print(table(rows))
    missed = [row for row in rows if row.met is False]
    print(f"\n{len(rows)} rows in {seconds:.0f} s; goals missed: {len(missed)}")
    if config.name != "full":
        print(
            f"({config.name} run: the goals are set for the full sizes; with these sizes and "
            "repetitions the figures are only indicative, e.g. fixed buffers dominate memory)"
        )
    for row in missed:
        assert row.ratio is not None
        print(
            f"  MISSED {row.bench} / {row.fmt} / {row.contender}: {row.ratio.median:.2f} > {row.goal:g}"
        )
    if output is not None:
        write_results(output, rows, config=config.describe(), seconds=seconds, notes=notes)
        print(f"written to {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
