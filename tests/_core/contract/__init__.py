"""Tests of kimi_ext._core.contract (the specs' rules as derived)."""
