"""The test suite; its folders mirror the package (see tests/README.md)."""
