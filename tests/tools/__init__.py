"""Tests of kimi_ext.tools."""
