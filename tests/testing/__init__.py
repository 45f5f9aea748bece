"""Tests of kimi_ext.testing (the stand-in and cassettes)."""
