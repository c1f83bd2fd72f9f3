"""The compiled NIM kernel: move generation, make/unmake, the end of the game and keys.

The whole position lives in one flat ``int64`` array (the *state*); the parameters
(how many heaps, normal or misère play) sit in its header, so the compiled functions
are the same for every parameter choice.

State layout (offsets are module constants):

* ``NHEAPS``   the number of heaps (1..16)
* ``MISERE``   1 for misère play (whoever takes the last object loses), 0 for normal play
* ``TURN``     the player whose turn it is (0 or 1); kept once the game is over, when it
  names the player who would move next (the one who did not take the last object)
* ``LEFT``     the objects left on all heaps together (0: the game is over)
* ``HEAPS + i`` the objects on heap ``i`` (heap ``i + 1`` in the notation), ``i < NHEAPS``

A move is the integer ``heap_index * MOVE_BASE + k``: take ``k >= 1`` objects from heap
``heap_index`` (0-based; ``MOVE_BASE`` = 1024 > the largest heap, 1000). Make records the
move in ``undo[ply, 0]``, so one undo column is enough.

The end: the game is over when every heap is empty. In normal play the player who took
the last object wins, in misère play that player loses. Stated through the player to
move at the end (``TURN``), this also covers a game whose heaps are all empty from the
start: in normal play the player to move, who cannot move, loses; in misère play that
player wins (the usual convention of combinatorial game theory).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

NHEAPS = 0
MISERE = 1
TURN = 2
LEFT = 3
HEAPS = 4
HEADER = HEAPS

MAX_HEAPS = 16
MAX_HEAP = 1000
#: A move is ``heap_index * MOVE_BASE + k``.
MOVE_BASE = 1024  # = 1 << 10
UNDO_SIZE = 1

_RNG = np.random.default_rng(0x4E1A_0001)
#: Zobrist numbers: one per (heap index, heap size) and one per player to move.
HEAP_KEYS = _RNG.integers(
    np.iinfo(np.int64).min, np.iinfo(np.int64).max, (MAX_HEAPS, MAX_HEAP + 1), dtype=np.int64
)
TURN_KEYS = _RNG.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, 2, dtype=np.int64)


@njit(cache=True, forceinline=True)
def generate(state: np.ndarray, moves: np.ndarray, ply: int) -> int:
    """The legal moves into ``moves[ply, :n]``: heap 1 first, taking 1, 2, ... objects."""
    n = 0
    for h in range(state[NHEAPS]):
        base = h * MOVE_BASE
        for k in range(1, state[HEAPS + h] + 1):
            moves[ply, n] = base + k
            n += 1
    return n


@njit(cache=True, forceinline=True)
def make(state: np.ndarray, move: int, undo: np.ndarray, ply: int) -> None:
    """Take ``move & 1023`` objects from heap ``move >> 10``; the turn passes."""
    k = move & (MOVE_BASE - 1)
    state[HEAPS + (move >> 10)] -= k
    state[LEFT] -= k
    state[TURN] = 1 - state[TURN]
    undo[ply, 0] = move


@njit(cache=True, forceinline=True)
def unmake(state: np.ndarray, undo: np.ndarray, ply: int) -> None:
    """Put back the objects the move of ``undo[ply]`` took."""
    move = undo[ply, 0]
    k = move & (MOVE_BASE - 1)
    state[HEAPS + (move >> 10)] += k
    state[LEFT] += k
    state[TURN] = 1 - state[TURN]


@njit(cache=True, forceinline=True)
def player_of(state: np.ndarray) -> int:
    """The player to move, or -1 once every heap is empty."""
    if state[LEFT] == 0:
        return -1
    return state[TURN]


@njit(cache=True, forceinline=True)
def returns(state: np.ndarray, out: np.ndarray) -> None:
    """At the end: +1 to the winner, -1 to the loser (see the module docstring)."""
    mover = state[TURN]
    # normal play: the player to move at the end did not take the last object and loses
    mover_value = 1.0 if state[MISERE] != 0 else -1.0
    out[mover] = mover_value
    out[1 - mover] = -mover_value
    out[2] = 0.0
    out[3] = 0.0


@njit(cache=True, forceinline=True)
def key(state: np.ndarray) -> int:
    """The Zobrist key: XOR of one number per (heap, size) and one for the player to move."""
    k = TURN_KEYS[state[TURN]]
    for h in range(state[NHEAPS]):
        k ^= HEAP_KEYS[h, state[HEAPS + h]]
    return k


def new_state(heaps: Sequence[int], misere: bool, to_move: int = 0) -> np.ndarray:
    """The state with ``heaps`` on the table and ``to_move`` to play (no checks)."""
    heaps = [int(h) for h in heaps]
    state = np.zeros(HEADER + len(heaps), dtype=np.int64)
    state[NHEAPS] = len(heaps)
    state[MISERE] = int(bool(misere))
    state[TURN] = int(to_move)
    state[LEFT] = sum(heaps)
    state[HEAPS : HEAPS + len(heaps)] = heaps
    return state
