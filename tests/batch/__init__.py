"""Tests of kimi_ext.batch."""
