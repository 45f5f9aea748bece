"""Tests of the generated kimi_raw clients."""
