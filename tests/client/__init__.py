"""Tests of kimi_ext.client (Kimi, AsyncKimi and their resources)."""
