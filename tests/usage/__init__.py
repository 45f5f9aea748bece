"""Tests of kimi_ext.usage."""
