"""Tests of kimi_ext.images."""
