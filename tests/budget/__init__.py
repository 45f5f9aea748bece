"""Tests of kimi_ext.budget."""
