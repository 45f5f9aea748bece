"""Tests of kimi_ext.telemetry."""
