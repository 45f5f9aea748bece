"""Helpers shared by the tests (imported as tests.support.<name>), never collected."""
