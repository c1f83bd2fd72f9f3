"""Analysis of game records: the thesis's tables, statistics and ratings."""

from .summary import aggregate, session_summary

__all__ = ["aggregate", "session_summary"]
