"""One token-usage shape for all three formats.

The formats count input differently (see the reference usage table): Chat and Responses
report a total that already includes cache reads and writes; Messages reports three
disjoint counts whose sum is the total. :func:`usage_of` applies the right rule so cache
tokens are never counted twice::

    u = kimi_ext.usage_of(result)
    print(u.total_input, u.cache_read, u.cache_write, u.uncached_input, u.output, u.reasoning)
"""

from __future__ import annotations

from typing import Any

from kimi_ext._core.model.result import Result
from kimi_ext._core.model.usage import Usage
from kimi_ext.formats import guess_format

__all__ = ["Usage", "usage_of"]


def usage_of(result: Any) -> Usage:
    """Normalized :class:`Usage` of a result of any format (a result object or its dict).

    Returns an all-zero Usage when the result carries no usage (for example a stream cut
    before its final usage arrived).
    """
    if isinstance(result, Result):
        return result.usage
    data = result.to_dict() if hasattr(result, "to_dict") else result
    if not isinstance(data, dict):
        return Usage()
    view: Result = guess_format(data).result_type(data)
    return view.usage
