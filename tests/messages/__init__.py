"""Tests of kimi_ext.messages."""
