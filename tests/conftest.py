"""Suite-wide fixtures: the offline stand-in (also shipped as a pytest plugin)."""

from kimi_ext.testing.pytest_plugin import kimi_standin

__all__ = ["kimi_standin"]
