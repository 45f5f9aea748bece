"""The stand-in's prompt cache: deterministic cache reads and writes for usage reports.

**Prefix.** A request is split at its last user turn (the last Chat message / Messages
message / Responses input item whose role is ``user``; a string ``input`` is one user
turn). The *prefix* is everything before that turn plus the system prompt (Messages
``system``, Responses ``instructions``; on Chat system messages are part of the messages)
and the tools. The prefix is serialised as canonical JSON (sorted keys, compact) and hashed
together with the model and the cache group (``prompt_cache_key`` / ``metadata.user_id``).

**Tokens** (counted by the stand-in's rule, ``count_tokens`` unless ``token_counter=``
gives another). ``prefix_tokens = count_tokens(canonical prefix)`` (0 when there is no system
prompt, no tools and no earlier turn), ``tail_tokens = max(1, count_tokens(canonical rest))``
and the request's input tokens are their sum, so the cached part never exceeds the input.

**Reads and writes.** Every request caches its prefix. A later request reads the longest
cached prefix that ends where one of its own user turns begins (so turn N+1 of a
conversation reads what turn N wrote) and writes the remainder of its prefix with the
requested TTL (5m default, or 1h); an exact match writes nothing. A read keeps the entry's
original TTL and restarts it. Any non-empty prefix is cached (there is no minimum length).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kimi_ext.testing.replies import TokenCounter, count_tokens

_UNIT_SECONDS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def ttl_seconds(ttl: str) -> float:
    """A cache lifetime as the specs spell it (``5m``, ``1h``) in seconds; the values
    themselves come from the specs, so a new one needs no edit here."""
    return float(ttl[:-1]) * _UNIT_SECONDS[ttl[-1]]


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class CacheUse:
    """Input token accounting of one request."""

    input_tokens: int  # everything, cached parts included
    read: int = 0
    write: int = 0
    write_ttl: str = ""  # the lifetime of what was written (set by PromptCache.use)

    @property
    def uncached(self) -> int:
        return self.input_tokens - self.read - self.write


def split_turns(turns: Sequence[Any]) -> int:
    """Index of the last user turn (``len(turns)`` when there is none)."""
    for i in range(len(turns) - 1, -1, -1):
        turn = turns[i]
        if isinstance(turn, Mapping) and turn.get("role") == "user":
            return i
    return len(turns)


def conversation(fmt: str, body: Mapping[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """(header, turns) of a request that passed the rules."""
    if fmt == "chat":
        return {"tools": body.get("tools")}, list(body["messages"])
    if fmt == "messages":
        return {"system": body.get("system"), "tools": body.get("tools")}, list(body["messages"])
    items = body["input"]
    turns = [{"role": "user", "content": items}] if isinstance(items, str) else list(items)
    return {"instructions": body.get("instructions"), "tools": body.get("tools")}, turns


class PromptCache:
    """Thread-safe prefix cache with expiry."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, counter: TokenCounter = count_tokens
    ) -> None:
        self._entries: dict[str, tuple[float, str]] = {}  # hash -> (expires_at, ttl)
        self.counter = counter  # the stand-in's token rule (KimiStandIn(token_counter=...))
        self._lock = threading.Lock()
        self._clock = clock
        self.enabled = True

    def clear(self) -> None:
        """Forget every cached prefix."""
        with self._lock:
            self._entries.clear()

    def use(
        self,
        fmt: str,
        body: Mapping[str, Any],
        *,
        model: str,
        group: str,
        ttl: str,
        counter: TokenCounter | None = None,
    ) -> CacheUse:
        """Look the request's prefix up and record it: the tokens read from and written to
        the cache for ``body`` (what the usage of the answer reports), counted by
        ``counter`` (default: the cache's own)."""
        count = counter or self.counter
        header, turns = conversation(fmt, body)
        cut = split_turns(turns)
        header = {k: v for k, v in header.items() if v is not None}
        prefix_tokens = count(canonical([header, turns[:cut]])) if header or cut else 0
        total = prefix_tokens + max(1, count(canonical(turns[cut:])))
        if not self.enabled or prefix_tokens == 0:
            return CacheUse(total, write_ttl=ttl)

        def key(end: int) -> str:
            text = "\0".join((fmt, model, group, canonical([header, turns[:end]])))
            return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

        # Earlier requests cached their prefixes, which end before one of this request's
        # user turns: the longest such prefix still alive is read, the rest is written.
        ends = [cut] + [
            j for j in range(cut - 1, -1, -1)
            if isinstance(turns[j], Mapping) and turns[j].get("role") == "user"
        ]  # fmt: skip
        if header and 0 not in ends:
            ends.append(0)
        now = self._clock()
        with self._lock:
            for end in ends:
                entry = self._entries.get(key(end))
                if entry is None or entry[0] <= now:
                    continue
                self._entries[key(end)] = (now + ttl_seconds(entry[1]), entry[1])
                if end == cut:
                    return CacheUse(total, read=prefix_tokens, write_ttl=entry[1])
                read = count(canonical([header, turns[:end]])) if header or end else 0
                self._entries[key(cut)] = (now + ttl_seconds(ttl), ttl)
                return CacheUse(total, read=read, write=prefix_tokens - read, write_ttl=ttl)
            self._entries[key(cut)] = (now + ttl_seconds(ttl), ttl)
        return CacheUse(total, write=prefix_tokens, write_ttl=ttl)
