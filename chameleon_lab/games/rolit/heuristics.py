"""Heuristics of Rolit, registered by name (``ROLIT_HEURISTICS``, default ``positional``).

Each is a numba-compiled ``evaluate(state, out)`` over the kernel state of
:mod:`.kernel`, writing one score per colour into ``out[0..3]``: every seated colour's
at least 1 (so a search may divide by their sum), 0 for a colour nobody sits at.
Nothing is allocated: a search calls them at every leaf.

The multi-player search papers that play Rolit (Schadd & Winands 2011; Nijssen &
Winands 2013) evaluate it by the balls held, corners and mobility; their weights were
not available to us, so the weights below are ours, with their reasons:

* ``discs``: ``1 + own balls``, what decides the game at its end.
* ``positional``: ``1 + own balls + 5 * own corners + own captures``: a corner ball
  can never be turned (no line runs through it), so it is worth several ordinary
  ones; a capture available is a ball turned next move, and a colour that cannot
  capture must place without turning anything.
* ``uniform``: 1 for every seated colour (no knowledge).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..heuristics import HeuristicRegistry
from ..othello.kernel import mobility, popcount
from . import kernel as K

#: The heuristics of Rolit.
ROLIT_HEURISTICS = HeuristicRegistry("rolit", default="positional")

_U = np.uint64
#: What a corner ball adds in ``positional``.
CORNER_WEIGHT = 5.0
_CORNERS = _U((1 << 0) | (1 << 7) | (1 << 56) | (1 << 63))


@ROLIT_HEURISTICS.builtin("discs")
@njit(cache=True)
def discs(state, out):
    """``discs``: 1 + the colour's balls (0 for a colour nobody sits at)."""
    seated = state[K.SEATED]
    for c in range(4):
        out[c] = 1.0 + float(popcount(_U(state[c]))) if (seated >> c) & 1 else 0.0


@ROLIT_HEURISTICS.builtin("positional")
@njit(cache=True)
def positional(state, out):
    """``positional``: 1 + own balls + 5 * own corners + own captures available."""
    seated = state[K.SEATED]
    taken = _U(state[0]) | _U(state[1]) | _U(state[2]) | _U(state[3])
    for c in range(4):
        own = _U(state[c])
        score = 0.0
        if (seated >> c) & 1:
            score = (
                1.0
                + float(popcount(own))
                + CORNER_WEIGHT * float(popcount(own & _CORNERS))
                + float(popcount(mobility(own, taken & ~own)))
            )
        out[c] = score


@ROLIT_HEURISTICS.builtin("uniform")
@njit(cache=True)
def uniform(state, out):
    """``uniform``: 1 for every seated colour."""
    seated = state[K.SEATED]
    for c in range(4):
        out[c] = 1.0 if (seated >> c) & 1 else 0.0


def score_bound() -> float:
    """An upper bound of every built-in score: 64 balls, 4 corners, 60 captures."""
    return 1.0 + 64.0 + CORNER_WEIGHT * 4.0 + 60.0
