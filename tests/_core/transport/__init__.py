"""Tests of kimi_ext._core.transport (sending, requests, redaction)."""
