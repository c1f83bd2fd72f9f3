"""Heuristics for dice tipping, registered by name (``uniform``, the default, and
``threats``).

A heuristic writes one raw score per player into ``out[0]``, ``out[1]`` (``out[2]`` and
``out[3]`` are 0); both scores are finite and at least 1, so a search may divide by
their sum. ``state`` is the kernel state of :mod:`chameleon_lab.games.dice.kernel`.

* ``uniform`` knows nothing: 1 for both players, so a depth-limited search decides by
  what it finds before its depth runs out and nothing else.
* ``threats`` looks two tips ahead: can the player to move reach the target with one
  tip, or does every tip hand the opponent such a one-tip win? Both facts are exact, so
  it never misjudges a position it is sure about, and it is level otherwise.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..heuristics import HeuristicRegistry, uniform_two
from . import kernel as K

#: The heuristics of dice tipping by name.
HEURISTICS = HeuristicRegistry("dice", default="uniform")


#: No knowledge: 1 for both players (the search decides by search alone).
uniform = HEURISTICS.builtin("uniform")(uniform_two)


@njit(cache=True, forceinline=True)
def can_come_up(face: int, top: int) -> bool:
    """Whether a tip can bring ``face`` up when ``top`` is on top (``face`` in 1..6)."""
    return 1 <= face <= 6 and face != top and face != 7 - top


@njit(cache=True, forceinline=True)
def threat(state: np.ndarray) -> int:
    """+1 if the player to move reaches the target with one tip, -1 if every legal tip
    lets the opponent reach it with one tip, 0 otherwise (also at the end of the game)."""
    if K.player_of(state) < 0:
        return 0
    top = state[K.TOP]
    room = state[K.TARGET] - state[K.SUM]
    if can_come_up(room, top):
        return 1
    for face in range(1, 7):
        if can_come_up(face, top) and face < room and not can_come_up(room - face, face):
            return 0  # this tip leaves the opponent no immediate win
    return -1  # there is a legal tip (the game is not over) and each one loses at once


@HEURISTICS.builtin("threats")
@njit(cache=True)
def threats(state: np.ndarray, out: np.ndarray) -> None:
    """One-tip threats, looked at two tips deep.

    3 for the player to move and 1 for the opponent when the player to move can tip the
    sum exactly onto the target (``target - sum`` is one of the four side faces); 1 and
    3 when every legal tip leaves the opponent such a winning tip; 2 for both otherwise
    (and at a finished position, which the searches score from its returns). The two
    sure cases are won and lost positions, so a search with this heuristic sees each
    win two plies earlier than with ``uniform``.
    """
    t = threat(state)
    mover = state[K.TURN]
    out[mover] = 2.0 + t
    out[1 - mover] = 2.0 - t
    out[2] = 0.0
    out[3] = 0.0
