"""Tests of kimi_ext._core.model (results, histories, usage)."""
