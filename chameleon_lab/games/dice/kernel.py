"""The compiled kernel of dice tipping (Würfelkippen, seed 001): moves, make/unmake, the
end of the game and keys.

A die lies on the table; the sum starts at its top face. In turn the players tip the die
over one of its four bottom edges, which brings up one of the four side faces (every
face but the top and the bottom, which shows ``7 - top``), and add that face to the sum.
The sum may not exceed the target. Whoever reaches the target exactly wins; a player
with no legal tip (every side face would overshoot) ends the game in a draw.

A start face equal to or above the target is allowed: no tip is possible at the start,
so the game is a draw at once (nobody reached the target by a tip).

State layout (offsets are module constants; one flat ``int64`` array):

* ``TARGET``   the target sum (1..10000), a parameter kept in the state
* ``SUM``      the sum so far (it always includes the face on top now, so
  ``SUM >= TOP``; ``SUM == TOP`` exactly at the start, before any tip)
* ``TOP``      the face on top (1..6)
* ``TURN``     the player whose turn it is (0 or 1), kept once the game is over
* ``REACHED``  1 once a tip brought the sum to the target (the player who tipped won)

A move is the face that comes up (1..6). Make records the face it covered in
``undo[ply, 0]``. Any position has at most four legal tips (``MAX_MOVES``).

The key: a position is fixed by (sum, top, player to move) (``REACHED`` follows from
them: the target was reached by a tip iff ``SUM == TARGET`` and ``SUM > TOP``), so the key
is the injective number ``(SUM * 8 + TOP) * 2 + TURN`` multiplied by an odd 64-bit
constant (a bijection modulo 2**64, spreading the low bits for hash tables): equal
positions get equal keys, different ones different keys.
"""

from __future__ import annotations

import numpy as np
from numba import njit

TARGET = 0
SUM = 1
TOP = 2
TURN = 3
REACHED = 4
STATE_SIZE = 5

MAX_TARGET = 10_000
MAX_MOVES = 4
UNDO_SIZE = 1
#: An odd multiplier (the 64-bit golden ratio, as a signed number) for :func:`key`.
KEY_MULTIPLIER = 0x9E3779B97F4A7C15 - (1 << 64)


@njit(cache=True, forceinline=True)
def smallest_side(top: int) -> int:
    """The smallest face that can come up when ``top`` is on top (2 when 1 or 6 is)."""
    return 2 if top == 1 or top == 6 else 1


@njit(cache=True, forceinline=True)
def generate(state: np.ndarray, moves: np.ndarray, ply: int) -> int:
    """The faces that can come up without passing the target, smallest first."""
    top = state[TOP]
    room = state[TARGET] - state[SUM]
    n = 0
    for face in range(1, 7):
        if face != top and face != 7 - top and face <= room:
            moves[ply, n] = face
            n += 1
    return n


@njit(cache=True, forceinline=True)
def make(state: np.ndarray, move: int, undo: np.ndarray, ply: int) -> None:
    """Tip the die so that face ``move`` comes up and add it to the sum."""
    undo[ply, 0] = state[TOP]
    total = state[SUM] + move
    state[SUM] = total
    state[TOP] = move
    state[TURN] = 1 - state[TURN]
    state[REACHED] = 1 if total == state[TARGET] else 0


@njit(cache=True, forceinline=True)
def unmake(state: np.ndarray, undo: np.ndarray, ply: int) -> None:
    """Tip the die back (the position before a move was never a finished one)."""
    state[SUM] -= state[TOP]
    state[TOP] = undo[ply, 0]
    state[TURN] = 1 - state[TURN]
    state[REACHED] = 0


@njit(cache=True, forceinline=True)
def player_of(state: np.ndarray) -> int:
    """The player to move, or -1 once the target is reached or no tip is legal."""
    if state[REACHED] != 0 or state[SUM] + smallest_side(state[TOP]) > state[TARGET]:
        return -1
    return state[TURN]


@njit(cache=True, forceinline=True)
def returns(state: np.ndarray, out: np.ndarray) -> None:
    """At the end: +1/-1 when the player who tipped last reached the target, else 0/0."""
    if state[REACHED] != 0:
        mover = state[TURN]  # the player who did not reach the target
        out[mover] = -1.0
        out[1 - mover] = 1.0
    else:
        out[0] = 0.0
        out[1] = 0.0
    out[2] = 0.0
    out[3] = 0.0


@njit(cache=True, forceinline=True)
def key(state: np.ndarray) -> int:
    """The key ``((SUM * 8 + TOP) * 2 + TURN) * KEY_MULTIPLIER`` (see the module docstring)."""
    return ((state[SUM] * 8 + state[TOP]) * 2 + state[TURN]) * KEY_MULTIPLIER


def new_state(target: int, start: int) -> np.ndarray:
    """The start: ``start`` on top and as the sum, the first player (0) to move."""
    return build_state(target, start, start, 0)


def build_state(target: int, total: int, top: int, to_move: int) -> np.ndarray:
    """The state with sum ``total``, face ``top`` on top and ``to_move`` to play (no
    checks; ``REACHED`` set when a tip brought the sum to the target)."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[TARGET] = target
    state[SUM] = total
    state[TOP] = top
    state[TURN] = to_move
    state[REACHED] = int(total == target and total > top)
    return state
