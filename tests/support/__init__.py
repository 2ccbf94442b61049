"""Helpers shared by the tests (no test imports another test file)."""
