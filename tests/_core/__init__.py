"""Tests of kimi_ext._core, room by room."""
