"""mypy on users' files against the derived types."""
