"""Heuristics of Chinese Checkers, registered by name (``CHINESE_CHECKERS_HEURISTICS``,
default ``distance``).

Each is a numba-compiled ``evaluate(state, out)`` over the kernel state of
:mod:`.kernel`, writing one score per player into ``out[0..3]``: every player's at
least 1 (so a search may divide by their sum), 0 past the players. Nothing is
allocated: a search calls them at every leaf.

The multi-player search papers that play Chinese Checkers (Sturtevant 2003; Schadd &
Winands 2011; Nijssen & Winands 2013) evaluate a position by how far each player's
pieces still have to go to its home; the exact formulas were not available to us, so:

* ``distance``: ``1 + sum over the player's pieces of (4n - steps to the home's tip)``
  on the board of side ``n``: every piece's progress, the start tip counting 0 (no hole
  is farther than ``4n`` from a tip), the home's tip ``4n``.
* ``uniform``: 1 for every player (no knowledge).
"""

from __future__ import annotations

from numba import njit

from ..heuristics import HeuristicRegistry
from . import board as B
from . import kernel as K

#: The heuristics of Chinese Checkers.
CHINESE_CHECKERS_HEURISTICS = HeuristicRegistry("chinesecheckers", default="distance")


@CHINESE_CHECKERS_HEURISTICS.builtin("distance")
@njit(cache=True)
def distance(state, out):
    """``distance``: 1 + the player's pieces' progress towards its home's tip."""
    players = state[K.PLAYERS]
    s = state[K.SIZE] - 2
    far = 4 * state[K.SIZE]
    for p in range(4):
        out[p] = 1.0 if p < players else 0.0
    for c in range(K.NCELLS[s]):
        v = state[c]
        if v:
            out[v - 1] += float(far - K.DIST[s, K.HOME[players, v - 1], c])


@CHINESE_CHECKERS_HEURISTICS.builtin("uniform")
@njit(cache=True)
def uniform(state, out):
    """``uniform``: 1 for every player."""
    players = state[K.PLAYERS]
    for p in range(4):
        out[p] = 1.0 if p < players else 0.0


def score_bound() -> float:
    """An upper bound of every built-in score: ten pieces each ``4 * 4`` steps on."""
    return 1.0 + B.MAX_PIECES * 4.0 * B.MAX_SIZE
