"""Tests of kimi_ext.cli (the kimi command)."""
