"""Tests of kimi_ext.formats."""
