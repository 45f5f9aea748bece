"""Tests of kimi_ext.tool_loop (run_tools)."""
