"""One token-usage shape for all three formats (each format's result fills it in).

The formats count input differently (see the reference usage table): Chat and Responses
report a total that already includes cache reads and writes; Messages reports three
disjoint counts whose sum is the total. Each result class applies its own rule, so cache
tokens are never counted twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Usage", "int_at"]


@dataclass(frozen=True)
class Usage:
    """Normalized token usage of one call.

    ``total_input`` includes cached tokens; ``uncached_input`` is what remains after
    ``cache_read`` and ``cache_write``. ``output`` includes ``reasoning``.
    ``cache_write_5m`` / ``cache_write_1h`` are None where the format does not split writes.
    """

    total_input: int = 0
    cache_read: int = 0
    cache_write: int = 0
    cache_write_5m: int | None = None
    cache_write_1h: int | None = None
    output: int = 0
    reasoning: int = 0
    web_search_requests: int | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def uncached_input(self) -> int:
        """Input tokens neither read from nor written to the prompt cache."""
        return self.total_input - self.cache_read - self.cache_write

    @property
    def total(self) -> int:
        """All input plus all output tokens."""
        return self.total_input + self.output


def int_at(obj: Any, *path: str) -> int | None:
    """The integer at ``path`` inside ``obj`` (None when absent or not an integer)."""
    for key in path:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj if isinstance(obj, int) and not isinstance(obj, bool) else None
