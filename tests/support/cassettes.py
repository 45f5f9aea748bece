"""Helpers for the cassette tests: a client call in each format, streamed or not, giving
the result and the events the application sees."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kimi_ext import Kimi

# The "real" key the application holds while recording (the upstream stand-in takes it);
# '/', '+' and '=' make its URL-encoded and base64 forms differ from the raw one.
UPSTREAM_KEY = "sk-live/Q7tXv93+LmPz4RkW2bN8cYd5=HfJ0sGa6E"
MODEL = "kimi-k3.1-pro"
FORMATS = ("chat", "messages", "responses")


def ask(fmt: str, text: str) -> dict[str, Any]:
    """The keyword arguments of one user turn in ``fmt``."""
    if fmt == "chat":
        return {"model": MODEL, "messages": [{"role": "user", "content": text}]}
    if fmt == "messages":
        return {"model": MODEL, "max_tokens": 512, "messages": [{"role": "user", "content": text}]}
    return {"model": MODEL, "input": text}


def endpoint(client: Kimi, fmt: str) -> Any:
    return {
        "chat": client.chat.completions,
        "messages": client.messages,
        "responses": client.responses,
    }[fmt]


FINAL: dict[str, Callable[[Any], Any]] = {
    "chat": lambda s: s.get_final_completion(),
    "messages": lambda s: s.get_final_message(),
    "responses": lambda s: s.get_final_response(),
}


@dataclass
class Seen:
    """What the application saw of one call."""

    result: dict[str, Any]
    events: list[tuple[str, Any]]
    request_id: str | None


def call(client: Kimi, fmt: str, stream: bool, **kwargs: Any) -> Seen:
    """One call; for a stream, every event's type and data, then the final result."""
    api = endpoint(client, fmt)
    if not stream:
        result = api.create(**kwargs)
        return Seen(result.to_dict(), [], result.request_id)
    with api.stream(**kwargs) as events:
        seen = [(event.type, event.data) for event in events]
        result = FINAL[fmt](events)
    return Seen(result.to_dict(), seen, result.request_id)


def client_for(base_url: str, key: str, **options: Any) -> Kimi:
    options.setdefault("max_retries", 0)
    return Kimi(api_key=key, base_url=base_url, fallback_base_url=None, **options)
