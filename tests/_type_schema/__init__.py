"""Tests of kimi_ext._type_schema."""
