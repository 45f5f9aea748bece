"""Tests of the project's tooling: generation, layers, the suite's own layout and checks."""
