"""Smoke tests of benchmarks/ (the goals themselves are measured by make bench)."""
