"""Heuristics for NIM, registered by name (``uniform``, the default, and ``nimsum``).

A heuristic writes one raw score per player into ``out[0]``, ``out[1]`` (``out[2]`` and
``out[3]`` are 0); both scores are finite and at least 1, so a search may divide by
their sum. ``state`` is the kernel state of :mod:`chameleon_lab.games.nim.kernel`.

* ``uniform`` knows nothing: 1 for both players, so a depth-limited search decides by
  what it finds before its depth runs out (won and lost ends of the game) and nothing
  else. It is the default, so that searches on NIM show what search alone achieves.
* ``nimsum`` is the complete theory (Bouton 1901): it tells won from lost positions
  exactly, so even a depth-1 search plays perfectly with it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..heuristics import HeuristicRegistry, uniform_two
from . import kernel as K

#: The heuristics of NIM by name.
HEURISTICS = HeuristicRegistry("nim", default="uniform")


#: No knowledge: 1 for both players (the search decides by search alone).
uniform = HEURISTICS.builtin("uniform")(uniform_two)


@njit(cache=True, forceinline=True)
def mover_wins(state: np.ndarray) -> bool:
    """Whether the player to move wins with perfect play (Bouton's theory).

    Normal play: the player to move wins iff the XOR (nim-sum) of the heaps is non-zero.
    Misère play: the same, except when every heap holds at most one object; then the
    player to move wins iff the number of non-empty heaps is even.
    """
    nimsum = 0
    big = 0
    ones = 0
    for h in range(state[K.NHEAPS]):
        size = state[K.HEAPS + h]
        nimsum ^= size
        if size > 1:
            big += 1
        elif size == 1:
            ones += 1
    if state[K.MISERE] != 0 and big == 0:
        return ones % 2 == 0
    return nimsum != 0


@HEURISTICS.builtin("nimsum", "bouton")
@njit(cache=True)
def nimsum(state: np.ndarray, out: np.ndarray) -> None:
    """Bouton's theory: 2 for the player who wins with perfect play, 1 for the other.

    The player to move wins iff the XOR of the heaps is non-zero (normal play); in
    misère play the same holds unless every heap holds at most one object, when the
    player to move wins iff an even number of heaps is non-empty. Exact at every
    position, including a finished one (normal play: the player to move there has
    lost; misère play: has won).
    """
    mover = state[K.TURN]
    if mover_wins(state):
        out[mover] = 2.0
        out[1 - mover] = 1.0
    else:
        out[mover] = 1.0
        out[1 - mover] = 2.0
    out[2] = 0.0
    out[3] = 0.0
