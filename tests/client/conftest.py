"""Fixtures for the client tests: a Kimi / AsyncKimi against pytest-httpserver, whose waits
between retries are recorded instead of slept (defined in tests/support/client.py)."""

from tests.support.client import aclient, client, sleeps

__all__ = ["aclient", "client", "sleeps"]
