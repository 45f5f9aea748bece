"""Tests of kimi_ext/schemas.py: the schema check and normalizer, through the public API."""
