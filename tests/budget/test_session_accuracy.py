"""kimi_ext.budget on a long tool session: the anchored count is within 3% of the input
tokens the stand-in then reports, on 95% of turns, whatever rule the stand-in counts by
(rules the estimator does not know: a word-and-punctuation rule and one per 3 UTF-8 bytes).

The error of plain chars/4 and of kimi-cli's rule on the same sessions is printed by
``python -m benchmarks.budget``; here it only has to be worse than the anchored count."""

from __future__ import annotations

import pytest

from tests.support.budget import bytes_rule, chars4, kimi_cli_rule, run_session, words_rule


@pytest.mark.parametrize("rule", [words_rule, bytes_rule], ids=["words", "bytes3"])
def test_300_turns_counted_within_3_percent_on_95_percent_of_turns(rule: object) -> None:
    session = run_session(
        "chat",
        300,
        rule,
        naive={"chars/4": chars4, "kimi-cli": kimi_cli_rule},  # type: ignore[arg-type]
    )
    assert len(session.reported) == 300
    assert session.within(session.counted) >= 0.95
    for counts in session.naive.values():
        assert session.within(counts) < session.within(session.counted)


@pytest.mark.parametrize("fmt", ["messages", "responses"])
def test_the_other_formats_count_as_well(fmt: str) -> None:
    session = run_session(fmt, 150, words_rule)
    assert session.within(session.counted) >= 0.95
