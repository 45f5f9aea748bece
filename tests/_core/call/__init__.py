"""Tests of kimi_ext._core.call (the Format object, request building)."""
