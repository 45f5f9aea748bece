"""Tests of kimi_ext.testing's cassettes (record, replay, check, the pytest fixture)."""
