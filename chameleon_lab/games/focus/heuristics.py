"""Heuristics of Focus, registered by name (``FOCUS_HEURISTICS``, default ``control``).

Each is a numba-compiled ``evaluate(state, out)`` over the kernel state of
:mod:`.kernel`, writing one score per player into ``out[0..3]``: every player's at
least 1 (so a search may divide by their sum), 0 past the players. Nothing is
allocated: a search calls them at every leaf.

Schadd & Winands (2011) evaluate Focus by the pieces captured and the stacks and
pieces a player controls; their weights were not available to us, so the weights
below are ours, with their reasons:

* ``material``: ``1 + captures + reserve``: captures decide the short game, and a
  reserve piece is a move that can land anywhere (a capture next turn on a tall stack).
* ``control``: ``1 + 3 * captures + 2 * reserve + stacks topped + pieces under the
  player's tops``: a stack a player tops is a move it has and a stack nobody else can
  move; the pieces under its tops are what it pushes off the bottom when it lands.
* ``uniform``: 1 for every player (no knowledge).
"""

from __future__ import annotations

from numba import njit

from ..heuristics import HeuristicRegistry
from . import kernel as K

#: The heuristics of Focus.
FOCUS_HEURISTICS = HeuristicRegistry("focus", default="control")

#: What a capture and a reserve piece add in ``control``.
CAPTURE_WEIGHT = 3.0
RESERVE_WEIGHT = 2.0


@FOCUS_HEURISTICS.builtin("material")
@njit(cache=True)
def material(state, out):
    """``material``: 1 + the player's captures + its reserve (0 past the players)."""
    players = state[K.PLAYERS]
    for p in range(4):
        score = 0.0
        if p < players:
            score = 1.0 + float(K.captured(state, p)) + float(state[K.RESERVE + p])
        out[p] = score


@FOCUS_HEURISTICS.builtin("control")
@njit(cache=True)
def control(state, out):
    """``control``: 1 + 3 captures + 2 reserve + stacks topped + pieces under them."""
    players = state[K.PLAYERS]
    for p in range(4):
        out[p] = 0.0
    for f in range(64):
        v = state[f]
        if v != 0:
            out[(v >> 3) & 3] += float(v & 7)  # the top counts as the stack, the rest
    for p in range(4):
        score = 0.0
        if p < players:
            score = (
                1.0
                + out[p]
                + CAPTURE_WEIGHT * float(K.captured(state, p))
                + RESERVE_WEIGHT * float(state[K.RESERVE + p])
            )
        out[p] = score


@FOCUS_HEURISTICS.builtin("uniform")
@njit(cache=True)
def uniform(state, out):
    """``uniform``: 1 for every player."""
    players = state[K.PLAYERS]
    for p in range(4):
        out[p] = 1.0 if p < players else 0.0


def score_bound() -> float:
    """An upper bound of every built-in score: 52 pieces on, captured or in reserve."""
    return 1.0 + 52.0 + CAPTURE_WEIGHT * 52.0 + RESERVE_WEIGHT * 52.0
