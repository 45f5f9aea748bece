"""Tests of kimi_ext.demo."""
