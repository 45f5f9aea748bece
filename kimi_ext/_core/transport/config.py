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

# Reasoning streams last minutes and batch jobs open many at once: httpx's default pool of
# 100 connections would make the 101st call wait for a free one (and time out). Change it
# with ``Kimi(limits=httpx.Limits(...))``.
DEFAULT_LIMITS = httpx.Limits(max_connections=1000, max_keepalive_connections=100)

# The most a success body (decompressed) or a single SSE line may hold, in bytes:
# ``Kimi(max_body_size=...)``. It guards against decompression bombs, not real answers.
DEFAULT_MAX_BODY_SIZE = 64 * 1024 * 1024
# How much of an error body is read; the rest is dropped (the message says so).
MAX_ERROR_BODY = 1024 * 1024
