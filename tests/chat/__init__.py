"""Tests of kimi_ext.chat."""
