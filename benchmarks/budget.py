"""``python -m benchmarks.budget``: what token counts cost and how close they are.

1. Cost: ``history.count_tokens()`` of an anchored history of 200 and of 2,000 turns (the
   last turn reported by the service, one question after it): the median of many counts,
   and the ratio of the two (1.0 means the cost does not grow with the history).
2. Accuracy: a tool session against the stand-in in each format, with the stand-in
   counting tokens by a rule the estimator does not know (its default ceil(chars/4) on the
   JSON, one token per word and punctuation mark, one per 3 UTF-8 bytes). Per turn, the
   count made before the request against the input tokens the stand-in then reports: the
   share of turns within 3% and the median error, for the anchored count, for plain
   chars/4 and for kimi-cli's rule (ASCII/4 + 1 per other character) on the request's JSON.

Not one of the timed groups of ``python -m benchmarks``: the sessions take a minute or two.
``--turns N`` sets the session length (default 300); ``--formats chat,messages``;
``--repeat N`` the counts timed per history size (default 2,000).
"""

from __future__ import annotations

import argparse
import statistics
import time

from tests.support.budget import (
    FORMATS,
    bytes_rule,
    chars4,
    kimi_cli_rule,
    long_anchored_history,
    run_session,
    words_rule,
)

RULES = {"ceil(chars/4)": None, "words": words_rule, "bytes/3": bytes_rule}
NAIVE = {"chars/4": chars4, "kimi-cli": kimi_cli_rule}


def count_cost(fmt: str, turns: int, repeat: int = 2000) -> float:
    """The median seconds of one count of an anchored ``turns``-turn history."""
    history = long_anchored_history(fmt, turns)
    history.add_user("one more question")
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        history.count_tokens()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.budget")
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--repeat", type=int, default=2000, help="counts timed per size")
    args = parser.parse_args(argv)
    formats = [f for f in args.formats.split(",") if f]
    print(f"count cost (median of {args.repeat:,} counts)")
    print("| format | 200 turns | 2,000 turns | ratio |")
    print("| --- | --- | --- | --- |")
    for fmt in formats:
        small, large = count_cost(fmt, 200, args.repeat), count_cost(fmt, 2000, args.repeat)
        print(f"| {fmt} | {small * 1e6:.0f} µs | {large * 1e6:.0f} µs | {large / small:.2f} |")
    print(
        f"\naccuracy on a {args.turns}-turn tool session (share of turns within 3%, median error)"
    )
    print("| format | stand-in rule | anchored count | chars/4 | kimi-cli |")
    print("| --- | --- | --- | --- | --- |")
    for fmt in formats:
        for name, rule in RULES.items():
            session = run_session(fmt, args.turns, rule, naive=NAIVE)
            cells = [session.counted, *(session.naive[n] for n in NAIVE)]
            shown = [
                f"{session.within(c):.1%}, {statistics.median(session.errors(c)):.2%}"
                for c in cells
            ]
            print(f"| {fmt} | {name} | " + " | ".join(shown) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
