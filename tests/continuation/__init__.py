"""Tests of kimi_ext.continuation."""
