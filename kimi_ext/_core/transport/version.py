"""The package version, in its own module so the core can read it without importing
``kimi_ext`` itself (that import would run the whole package's ``__init__``)."""

__version__ = "0.1.0"
