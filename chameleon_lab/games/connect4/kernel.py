"""The compiled kernel of Connect Four: bitboards in the style of Pascal Pons's solver,
kept in one flat ``int64`` state array, the same functions for every board size.

Bitboards
---------
One bit per cell, ``height + 1`` bits per column: column ``c`` (0 is the leftmost) owns
bits ``c * (height + 1)`` (its bottom cell) to ``c * (height + 1) + height - 1`` (its top
cell), and bit ``c * (height + 1) + height`` is the column's *sentinel*, never set. The
sentinel row keeps the shifts of the win test from running from one column into the
next. Sizes are limited to ``width * (height + 1) <= 63``, so bit 63 (the sign bit) is
never used: every bitboard is a non-negative ``int64`` and right shifts are logical.

State layout
------------
======================  ====================================================
``state[W]``            board width (columns ``1``..``width``), 4..9
``state[H]``            board height (rows), 4..9
``state[POSITION]``     the stones of the player to move (Pons's ``position``)
``state[MASK]``         every stone on the board (Pons's ``mask``)
``state[NMOVES]``       stones on the board (player 0 moves when it is even)
``state[WINNER]``       -1 while nobody has four in a row, else the winner (0 or 1)
``state[BOTTOM]``       the bottom cell of every column (constant per size)
``state[BOARD]``        every playable cell, sentinels excluded (constant per size)
``state[SALT]``         a random number per board size, mixed into the key
======================  ====================================================

A move is a column index ``0..width-1`` (the notation writes it ``1``..``width``).
:func:`make` drops a stone with Pons's ``mask |= mask + bottom(col)`` after flipping
``position`` to the other player (``position ^= mask``); it records the old
``position`` and ``mask`` in ``undo[ply]``, and :func:`unmake` puts them back. The
stones of the player who has just moved are then ``position ^ mask``; four in a row
among them ends the game (tested by shifts in the four directions: 1 vertically,
``height + 1`` horizontally, ``height`` and ``height + 2`` diagonally).

Key
---
``position + mask`` is a perfect key for a given size (Pons): ``mask + bottom`` marks
the first free cell of every column, so the sum determines the mask and then the
position. The key mixes it with the size's salt by bijective steps (multiplication by
odd constants, xor-shifts), so it stays perfect for a size and its low bits, which a
transposition table indexes by, are well spread.

Returns
-------
Scored as solvers score Connect Four (Pons): a win with the winner's last stone scores
1, each of the winner's stones left unplayed one more. With ``n`` stones on the board
at the end (the winning stone included) that is ``(width * height + 2 - n) // 2`` for
the winner and its negative for the loser; 0 and 0 for a draw. With ``s`` the
winner's stones, this is ``width * height // 2 + 1 - s`` (``22 - s`` on 7 x 6) on
every board with an even number of cells; on an odd board the first player has one
stone more to play, so their win scores ``(width * height + 1) // 2 + 1 - s`` (a win
with their very last stone 1, never 0 like a draw).
"""

from __future__ import annotations

import numpy as np
from numba import njit

W = 0
H = 1
POSITION = 2
MASK = 3
NMOVES = 4
WINNER = 5
BOTTOM = 6
BOARD = 7
SALT = 8
#: Entries of the state array.
STATE_SIZE = 9
#: Smallest and largest width and height.
MIN_SIDE = 4
MAX_SIDE = 9
#: The bitboards use ``width * (height + 1)`` bits, at most this many (bit 63 stays free).
MAX_BITS = 63
#: Columns of one undo row: ``position`` and ``mask`` before the move.
UNDO_SIZE = 2

_RNG = np.random.default_rng(0xC0_4_2024)
#: One random salt per (width, height), indexed ``[width, height]``.
SALTS = _RNG.integers(
    np.iinfo(np.int64).min, np.iinfo(np.int64).max, (MAX_SIDE + 1, MAX_SIDE + 1), dtype=np.int64
)
# odd multipliers of the key's mixing steps (from splitmix64), as signed int64
_M1 = np.int64(np.uint64(0xBF58476D1CE4E5B9).astype(np.int64))
_M2 = np.int64(np.uint64(0x94D049BB133111EB).astype(np.int64))
_LOW31 = np.int64((1 << 31) - 1)
_LOW37 = np.int64((1 << 37) - 1)


def size_ok(width: int, height: int) -> bool:
    """Whether a ``width`` x ``height`` board fits the bitboards."""
    return width * (height + 1) <= MAX_BITS


def bottom_mask(width: int, height: int) -> int:
    """The bottom cell of every column."""
    return sum(1 << (c * (height + 1)) for c in range(width))


def board_mask(width: int, height: int) -> int:
    """Every playable cell (the sentinel row excluded)."""
    return bottom_mask(width, height) * ((1 << height) - 1)


def new_state(width: int, height: int) -> np.ndarray:
    """The empty ``width`` x ``height`` board, player 0 to move."""
    if not size_ok(width, height):
        raise ValueError(f"a {width} x {height} board does not fit the 63-bit bitboards")
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[W] = width
    state[H] = height
    state[WINNER] = -1
    state[BOTTOM] = bottom_mask(width, height)
    state[BOARD] = board_mask(width, height)
    state[SALT] = SALTS[width, height]
    return state


@njit(cache=True, forceinline=True)
def alignment(pos: int, height: int) -> bool:
    """Whether the stones ``pos`` hold four in a row (Pons's shifts, no loop)."""
    s = height + 1  # horizontal
    m = pos & (pos >> s)
    found = (m & (m >> (2 * s))) != 0
    s = height  # diagonal down-right
    m = pos & (pos >> s)
    found = found or (m & (m >> (2 * s))) != 0
    s = height + 2  # diagonal up-right
    m = pos & (pos >> s)
    found = found or (m & (m >> (2 * s))) != 0
    m = pos & (pos >> 1)  # vertical
    found = found or (m & (m >> 2)) != 0
    return found


@njit(cache=True, forceinline=True)
def generate(state: np.ndarray, moves: np.ndarray, ply: int) -> int:
    """The columns with room, centre first (for 7 columns: 4 5 3 6 2 7 1 in the
    notation), into ``moves[ply]``; none once the game is over."""
    if state[WINNER] >= 0:
        return 0
    width = state[W]
    height = state[H]
    mask = state[MASK]
    centre = (width - 1) >> 1
    n = 0
    for i in range(width):
        col = centre + ((i + 1) >> 1) if i & 1 else centre - (i >> 1)
        top = 1 << (col * (height + 1) + height - 1)
        if (mask & top) == 0:
            moves[ply, n] = col
            n += 1
    return n


@njit(cache=True, forceinline=True)
def make(state: np.ndarray, move: int, undo: np.ndarray, ply: int) -> None:
    """Drop the mover's stone into column ``move``; four in a row ends the game."""
    height = state[H]
    position = state[POSITION]
    mask = state[MASK]
    undo[ply, 0] = position
    undo[ply, 1] = mask
    position ^= mask  # now the other player's stones: the next mover's
    mask |= mask + (1 << (move * (height + 1)))
    state[POSITION] = position
    state[MASK] = mask
    state[NMOVES] += 1
    if alignment(position ^ mask, height):
        state[WINNER] = (state[NMOVES] - 1) & 1


@njit(cache=True, forceinline=True)
def unmake(state: np.ndarray, undo: np.ndarray, ply: int) -> None:
    """Take back the stone dropped by :func:`make` at ``ply``."""
    state[POSITION] = undo[ply, 0]
    state[MASK] = undo[ply, 1]
    state[NMOVES] -= 1
    state[WINNER] = -1


@njit(cache=True, forceinline=True)
def player_of(state: np.ndarray) -> int:
    """Player 0 or 1 to move; -1 once someone has four in a row or the board is full."""
    if state[WINNER] >= 0 or state[NMOVES] == state[W] * state[H]:
        return -1
    return state[NMOVES] & 1


@njit(cache=True, forceinline=True)
def returns(state: np.ndarray, out: np.ndarray) -> None:
    """The solver score (see the module doc): ``(W * H + 2 - n) // 2`` for the winner,
    its negative for the loser, 0 for both on a draw."""
    for i in range(4):
        out[i] = 0.0
    w = state[WINNER]
    if w >= 0:
        score = (state[W] * state[H] + 2 - state[NMOVES]) >> 1
        out[w] = float(score)
        out[1 - w] = -float(score)


@njit(cache=True, forceinline=True)
def key(state: np.ndarray) -> int:
    """A perfect key for the board size: ``position + mask`` mixed with the size's salt
    by bijective steps (see the module doc)."""
    k = (state[POSITION] + state[MASK]) ^ state[SALT]
    k = k * _M1
    k ^= (k >> 33) & _LOW31
    k = k * _M2
    k ^= (k >> 27) & _LOW37
    return k


@njit(cache=True, forceinline=True)
def popcount(x: int) -> int:
    """Set bits of a non-negative ``int64`` (SWAR, no loop)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56
