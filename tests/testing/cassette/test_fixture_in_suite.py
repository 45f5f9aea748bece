"""The suite's own use of ``kimi_cassette``: a cassette committed beside this file
(cassettes/test_fixture_in_suite/<test>.json, recorded once from a stand-in playing the
service with ``--kimi-record-mode=once``) replays with no upstream and no key."""

from __future__ import annotations

from kimi_ext.testing import KimiStandIn
from tests.support.cassettes import ask, call, client_for


def test_a_committed_cassette_replays(kimi_cassette: KimiStandIn) -> None:
    if not kimi_cassette.recording:  # the suite runs in record mode none
        assert kimi_cassette.replaying and kimi_cassette.api_key == "test-key"
    with client_for(kimi_cassette.base_url, kimi_cassette.api_key) as client:
        seen = call(client, "messages", True, **ask("messages", "Name a fjord."))
    assert seen.result["content"][1]["text"] == "Name a fjord."
    assert seen.events[0][0] == "message_start"
    assert not kimi_cassette.unused_interactions()
