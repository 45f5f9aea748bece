"""Tests of kimi_ext.structured (structured output)."""
