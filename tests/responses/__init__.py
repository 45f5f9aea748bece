"""Tests of kimi_ext.responses."""
