"""The three levels of seed 003's JReversi, as agent parameters (no agents imported).

The seed's program offers Easy, Medium and Hard, each over alpha-beta, and leaves the
depths to its appendix. We state ours:

* **easy**: a random legal move (the seed: "wählt zufällig einen der möglichen
  Züge"); an agent whose every move is random, ``random_move_probability=1``.
* **medium**: the disc difference (heuristic ``discs``) searched 3 plies by
  alpha-beta with move ordering: deep enough to see a reply and our answer to it.
* **hard**: the phase heuristic ``hard`` (opening, midgame square weights, endgame
  disc count; see :mod:`.heuristics`) by iterative deepening with ordering and a
  transposition table, within a budget of 200,000 nodes a move rather than a fixed
  depth (the plies it completes in the midgame are in ``docs/games/othello.md``), and
  as the board fills the same budget reaches further, so that with ten or
  fewer empty squares (the heuristic's endgame) it searches to the end of the game: the
  seed's "deeper search in the endgame" without a second depth to tune. A node budget,
  unlike a time budget, gives the same moves on every machine.
"""

from __future__ import annotations

from typing import Any

#: The levels and their agent parameters (``chameleon_lab.agents.Agent(**params)``).
LEVELS: dict[str, dict[str, Any]] = {
    "easy": {
        "algorithm": "alphabeta",
        "game": "othello",
        "depth": 1,
        "heuristic": "discs",
        "random_move_probability": 1.0,
    },
    "medium": {
        "algorithm": "alphabeta",
        "game": "othello",
        "depth": 3,
        "heuristic": "discs",
        "options": {"ordering": True},
    },
    "hard": {
        "algorithm": "alphabeta",
        "game": "othello",
        "depth": 60,
        "nodes": 200_000,
        "heuristic": "hard",
        "options": {"ordering": True, "iterative": True},
        "tt_bits": 18,
    },
}


def level_params(level: str) -> dict[str, Any]:
    """Agent parameters of seed 003's ``level`` (``easy``, ``medium`` or ``hard``); the
    same for both variants (a session's ``game_params`` choose Reversi's empty start)."""
    if not isinstance(level, str) or level.lower() not in LEVELS:
        raise ValueError(f"unknown Reversi level {level!r}; valid levels: {', '.join(LEVELS)}")
    return dict(LEVELS[level.lower()])
