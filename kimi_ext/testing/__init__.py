"""An offline stand-in for the Kimi API, for tests without a key or a network.

::

    from kimi_ext.testing import Fault, KimiStandIn, Reply, ToolCallSpec

    with KimiStandIn() as standin:
        standin.queue(Reply(text="Hi", tool_calls=[ToolCallSpec("get_weather", {"city": "Oslo"})]))
        standin.fault(Fault.rate_limit(retry_after=0.01))
        standin.when("Oslo", "Sunny.")   # any request whose last user text contains "Oslo"
        ...  # point a client at standin.base_url with standin.api_key

Cassettes record real exchanges once and replay them: they wrap the stand-in::

    KimiStandIn().record("cassettes/trip.json", upstream="https://direct.evolink.ai")
    KimiStandIn().replay("cassettes/trip.json", strict=True)

pytest users get the ``kimi_standin`` and ``kimi_cassette`` fixtures by enabling
:mod:`kimi_ext.testing.pytest_plugin` (``pytest_plugins = ["kimi_ext.testing.pytest_plugin"]``
in a conftest, or ``pytest -p kimi_ext.testing.pytest_plugin``).
``python -m kimi_ext.testing --port 8765`` runs one in the foreground (:func:`serve` runs a
stand-in you made, cassettes and all).
"""

from __future__ import annotations

from kimi_ext.testing.caching import PromptCache
from kimi_ext.testing.cassette import Cassette, CassetteError, CassetteWarning
from kimi_ext.testing.faults import Fault
from kimi_ext.testing.matching import DEFAULT_IGNORE, Matcher
from kimi_ext.testing.recording import RecordedRequest
from kimi_ext.testing.replies import (
    Reply,
    SearchResult,
    ToolCallSpec,
    WebSearchSpec,
    count_tokens,
)
from kimi_ext.testing.rules import ServiceError
from kimi_ext.testing.script import Match, Rule, ScriptError
from kimi_ext.testing.standin import KimiStandIn, StandInError, serve, serve_forever

__all__ = [
    "DEFAULT_IGNORE",
    "Cassette",
    "CassetteError",
    "CassetteWarning",
    "Fault",
    "KimiStandIn",
    "Match",
    "Matcher",
    "PromptCache",
    "RecordedRequest",
    "Reply",
    "Rule",
    "ScriptError",
    "SearchResult",
    "ServiceError",
    "StandInError",
    "ToolCallSpec",
    "WebSearchSpec",
    "count_tokens",
    "serve",
    "serve_forever",
]
