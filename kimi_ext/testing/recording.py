"""What the stand-in records of each request, and the request facts rules match on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

PATHS: dict[str, str] = {
    "/v1/chat/completions": "chat",
    "/v1/messages": "messages",
    "/v1/responses": "responses",
}


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the stand-in received it."""

    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: bytes
    json: Any  # the parsed body, or None when it is not JSON
    request_id: str = ""
    received_at: float = 0.0
    client: tuple[str, int] = ("", 0)  # the peer address (same port = same connection)
    # Unknown top-level fields the stand-in discarded, as the service does.
    discarded: list[str] = field(default_factory=list)
    # Recording: the headers as sent, key included, for the upstream (``headers`` then has
    # the credentials redacted, so no repr of a request shows the real key).
    forwarded: dict[str, str] | None = field(default=None, repr=False, compare=False)

    @property
    def format(self) -> str | None:
        """``chat``, ``messages``, ``responses`` or None (another path)."""
        return PATHS.get(self.path)

    @property
    def last_user_text(self) -> str:
        """The text of the last user turn that has text ("" when there is none)."""
        fmt = self.format
        if fmt is None or not isinstance(self.json, dict):
            return ""
        try:
            return last_user_text(fmt, self.json)
        except (KeyError, TypeError, AttributeError):
            return ""  # a body the rules refuse

    @property
    def ends_with_tool_result(self) -> bool:
        """Whether the history ends with tool results: a Chat ``tool`` message, a Messages
        user turn with a ``tool_result`` block, a Responses ``*_call_output`` item."""
        body = self.json if isinstance(self.json, dict) else {}
        turns = body.get("input" if self.format == "responses" else "messages")
        if not isinstance(turns, list) or not turns or not isinstance(turns[-1], dict):
            return False
        last = turns[-1]
        if self.format == "chat":
            return last.get("role") == "tool"
        if self.format == "messages":
            content = last.get("content")
            return (
                last.get("role") == "user"
                and isinstance(content, list)
                and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
            )
        return self.format == "responses" and str(last.get("type")).endswith("_call_output")


def last_user_text(fmt: str, body: Mapping[str, Any]) -> str:
    """The text of the last user turn (what the default reply echoes)."""
    if fmt == "responses":
        items = body["input"]
        if isinstance(items, str):
            return items
        turns: list[Any] = list(items)
    else:
        turns = list(body["messages"])
    for turn in reversed(turns):
        if turn.get("role") != "user":
            continue
        content = turn.get("content")
        if isinstance(content, str):
            return content
        texts = [
            p.get("text", "")
            for p in content
            if isinstance(p, Mapping) and p.get("type") in ("text", "input_text")
        ]
        if texts:
            return "\n".join(texts)
    return ""
