"""Tests of kimi_ext.testing's stand-in server."""
