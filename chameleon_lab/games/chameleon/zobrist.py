"""Zobrist keys of Chameleon Chess positions, for transposition tables.

A position's value to a search depends on where each living pawn stands, on the limits
of the shrinking board and on the player to move; its key XORs one fixed random
64-bit number per (slot, square), per (limit, value) and per player to move. The
pawns' players and knight colours are fixed per slot, so they need no number of their
own. The tables come from a fixed seed, so keys are the same in every process and on
every machine (the searches stay reproducible).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import kernel as K

_RNG = np.random.default_rng(0x5C4A3E1E0)
PAWN_KEYS = _RNG.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, (K.MAX_PAWNS, 64))
LIMIT_KEYS = _RNG.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, (4, 8))
MOVER_KEYS = _RNG.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, 4)


@njit(cache=True)
def zobrist_key(state: np.ndarray) -> int:
    """The 64-bit key of ``state`` (computed from scratch; 16 slots at most)."""
    key = MOVER_KEYS[state[K.TOMOVE]]
    for s in range(state[K.NSLOTS]):
        if state[K.ALIVE + s]:
            key ^= PAWN_KEYS[s, state[K.SQ + s]]
    for i in range(4):
        key ^= LIMIT_KEYS[i, state[K.MINR + i]]
    return key
