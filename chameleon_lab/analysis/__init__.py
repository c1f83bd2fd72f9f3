"""Analysis of game records: the thesis's tables, statistics and ratings."""

from .summary import aggregate, distinct_games, session_summary

__all__ = ["aggregate", "distinct_games", "session_summary"]
