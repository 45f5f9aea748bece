"""Tests of kimi_ext._core.streaming (SSE decoding, the shared stream classes)."""
