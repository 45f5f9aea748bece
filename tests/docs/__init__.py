"""The README's examples, docstrings and package metadata."""
