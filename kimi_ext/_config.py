"""Defaults the client starts from: addresses, timeouts, headers."""

from __future__ import annotations

import httpx

DEFAULT_BASE_URL = "https://direct.evolink.ai"
# Used automatically when the default address cannot be reached.
FALLBACK_BASE_URL = "https://api.evolink.ai"
# The seedrouter gateway: ``Kimi(base_url=kimi_ext.SEEDROUTER_BASE_URL)``.
SEEDROUTER_BASE_URL = "https://api.seedrouter.ai"

# A reasoning model at effort max can think for many minutes before the first byte of a
# non-streamed answer: connect fast, read long.
DEFAULT_TIMEOUT = httpx.Timeout(connect=10.0, read=900.0, write=120.0, pool=30.0)
DEFAULT_MAX_RETRIES = 2

ENV_API_KEY = "KIMI_API_KEY"
ENV_BASE_URL = "KIMI_BASE_URL"
