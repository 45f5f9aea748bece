"""Cross-cutting robustness suites: hostile servers, the fault matrix, load, property tests."""
