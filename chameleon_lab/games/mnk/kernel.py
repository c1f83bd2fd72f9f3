"""The compiled kernel of the m,n,k-games (TicTacToe, Five-in-a-row): one flat ``int64``
state array, the same functions for every board size and row length.

State layout
------------
======================  ====================================================
``state[W]``            board width (files ``a``.., 1..26)
``state[H]``            board height (ranks ``1``.., 1..26)
``state[K]``            stones in a row that win (k or more win), 1..max(W, H)
``state[NSTONES]``      stones on the board (player 0 moves when it is even)
``state[WINNER]``       -1 while nobody has k in a row, else the winner (0 or 1)
``state[KEY]``          the Zobrist key, kept up to date by make/unmake
``state[BITS + p]``     player ``p``'s stones as a bitboard on small boards
                        (see below), 0 on larger ones
``state[CELLS + c]``    cell ``c``: 0 empty, 1 a stone of player 0, 2 of player 1
======================  ====================================================

Cells and moves are numbered ``c = row * W + col``: ``col`` 0 is file ``a`` (the left
edge) and ``row`` 0 is rank ``1`` (the bottom edge), so ``a1`` is 0 and on a 7 x 7
board ``g7`` is 48. A move is the number of the empty cell a stone is placed on.

:func:`make` detects a win incrementally, and a line of k or more ends the game. The
game is also over once the board is full (a draw unless the last stone won). On a
board whose padded bitboard fits a signed 64-bit word (:func:`has_bitboards`:
``(width + 1) * height <= 63``, TicTacToe and the 7 x 7 Five-in-a-row among them)
each player's stones are also kept as a bitboard, cell ``(row, col)`` on bit
``row * (width + 1) + col``: the column of padding between the rows stops a line
from wrapping around, so ``k`` stones in a row are found with ``k - 1`` shifts and
ANDs per direction, without a branch (TicTacToe's perft 2.2 times as fast). On larger
boards it counts the mover's stones on the four lines through the new stone.

The key XORs one fixed random number per (player, cell) of the stones on the board
and one more when player 1 is to move (an odd number of stones), so equal boards have
equal keys whatever the order the stones were placed in.
"""

from __future__ import annotations

import numpy as np
from numba import njit

W = 0
H = 1
K = 2
NSTONES = 3
WINNER = 4
KEY = 5
#: ``state[BITS]`` and ``state[BITS + 1]``: the two players' bitboards.
BITS = 6
#: Index of the first cell; the header fields above come before it.
CELLS = 8
HEADER = CELLS
#: Largest width and height (files are single letters a..z).
MAX_SIDE = 26
#: Columns of one undo row: the cell played and the winner field before the move.
UNDO_SIZE = 2

_RNG = np.random.default_rng(0x6D6E6B_2024)
#: One random 64-bit number per (player, cell) of the largest board ...
STONE_KEYS = _RNG.integers(
    np.iinfo(np.int64).min, np.iinfo(np.int64).max, (2, MAX_SIDE * MAX_SIDE), dtype=np.int64
)
#: ... and one for "player 1 is to move".
SIDE_KEY = np.int64(_RNG.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max))

# the four line directions as (d_col, d_row): horizontal, vertical, two diagonals
_DCOL = np.array([1, 0, 1, 1], dtype=np.int64)
_DROW = np.array([0, 1, 1, -1], dtype=np.int64)
# row and column of every cell on a board of every width: ``_ROW[width - 1, cell]``
# (int16: numba embeds global arrays in every function compiled with make inlined)
_ROW, _COL = np.divmod(
    np.arange(MAX_SIDE * MAX_SIDE, dtype=np.int16)[None, :],
    np.arange(1, MAX_SIDE + 1, dtype=np.int16)[:, None],
)


def new_state(width: int, height: int, k: int) -> np.ndarray:
    """The empty board of ``width`` x ``height`` cells, ``k`` in a row to win."""
    state = np.zeros(CELLS + width * height, dtype=np.int64)
    state[W] = width
    state[H] = height
    state[K] = k
    state[NSTONES] = 0
    state[WINNER] = -1
    state[KEY] = 0
    return state


@njit(cache=True, forceinline=True)
def has_bitboards(width: int, height: int) -> bool:
    """Whether a board keeps bitboards: its cells and one padding column per row fit
    63 bits (bit 63 stays clear, so a shift right brings in zeros)."""
    return (width + 1) * height <= 63


def bitboards_from_cells(width: int, height: int, cells: np.ndarray) -> tuple[int, int]:
    """The two players' bitboards of a board given as its cell values (0/1/2), as
    make/unmake keep them (both 0 on a board without bitboards)."""
    bits = [0, 0]
    if has_bitboards(width, height):
        for c in np.flatnonzero(cells):
            row, col = divmod(int(c), width)
            bits[int(cells[c]) - 1] |= 1 << (row * (width + 1) + col)
    return bits[0], bits[1]


@njit(cache=True, forceinline=True)
def generate(state: np.ndarray, moves: np.ndarray, ply: int) -> int:
    """The empty cells, in cell order, into ``moves[ply]`` (none once the game is over)."""
    if state[WINNER] >= 0:
        return 0
    n = 0
    for c in range(state[W] * state[H]):
        # without a branch: every cell is written, the count moves on past the empty
        # ones (a full row of moves has room: the count never passes the cell)
        moves[ply, n] = c
        n += state[CELLS + c] == 0
    return n


@njit(cache=True, forceinline=True)
def _bits_win(bb: int, width: int, k: int) -> bool:
    """Whether the padded bitboard ``bb`` holds ``k`` stones in a row: ``k - 1`` shifts
    and ANDs per direction (horizontal, vertical, the two diagonals), the four
    directions side by side in one loop (four independent chains: TicTacToe's
    alpha-beta from the empty board 0.47 -> 0.44 ms against one loop per direction)."""
    pad = width + 1
    across = bb
    up = bb
    diagonal = bb
    anti = bb
    for i in range(1, k):
        across &= bb >> i
        up &= bb >> (pad * i)
        diagonal &= bb >> ((pad + 1) * i)
        anti &= bb >> (width * i)
    run = across | up | diagonal | anti
    return run != 0


@njit(cache=True, forceinline=True)
def _scan_win(state: np.ndarray, stone: int, row: int, col: int, k: int) -> bool:
    """Whether the stone at (``row``, ``col``) completes ``k`` or more of ``stone`` in a
    row: the stones counted on the four lines through it."""
    width = state[W]
    height = state[H]
    # No break or return inside the loops may stay here: either keeps numba's reference
    # count of the state (an atomic call per move, see the Chameleon kernel's "Speed");
    # tests/test_compiled_code.py checks it.
    won = False
    for d in range(4):
        dc = _DCOL[d]
        dr = _DROW[d]
        run = 1
        c = col + dc
        r = row + dr
        while (
            run < k
            and 0 <= c < width
            and 0 <= r < height
            and (state[CELLS + r * width + c] == stone)
        ):
            run += 1
            c += dc
            r += dr
        c = col - dc
        r = row - dr
        while (
            run < k
            and 0 <= c < width
            and 0 <= r < height
            and (state[CELLS + r * width + c] == stone)
        ):
            run += 1
            c -= dc
            r -= dr
        won = won or run >= k
    return won


@njit(cache=True, forceinline=True)
def make(state: np.ndarray, move: int, undo: np.ndarray, ply: int) -> None:
    """Place the mover's stone on cell ``move``; a line of k or more through it wins."""
    width = state[W]
    p = state[NSTONES] & 1
    undo[ply, 0] = move
    undo[ply, 1] = state[WINNER]
    state[CELLS + move] = p + 1
    state[NSTONES] += 1
    state[KEY] ^= STONE_KEYS[p, move] ^ SIDE_KEY
    # row and column come from tables, not from ``% width`` and ``// width`` (a
    # division per move, and an exception path)
    row = _ROW[width - 1, move]
    if has_bitboards(width, state[H]):
        # the padded bit of (row, col) is row * (width + 1) + col = move + row
        bb = state[BITS + p] | (np.int64(1) << (move + row))
        state[BITS + p] = bb
        won = _bits_win(bb, width, state[K])
    else:
        won = _scan_win(state, p + 1, row, _COL[width - 1, move], state[K])
    if won:
        state[WINNER] = p


@njit(cache=True, forceinline=True)
def unmake(state: np.ndarray, undo: np.ndarray, ply: int) -> None:
    """Take back the stone placed by :func:`make` at ``ply``."""
    move = undo[ply, 0]
    p = state[CELLS + move] - 1
    width = state[W]
    if has_bitboards(width, state[H]):
        state[BITS + p] ^= np.int64(1) << (move + _ROW[width - 1, move])
    state[CELLS + move] = 0
    state[NSTONES] -= 1
    state[KEY] ^= STONE_KEYS[p, move] ^ SIDE_KEY
    state[WINNER] = undo[ply, 1]


@njit(cache=True, forceinline=True)
def player_of(state: np.ndarray) -> int:
    """Player 0 or 1 to move; -1 once someone has k in a row or the board is full."""
    if state[WINNER] >= 0 or state[NSTONES] == state[W] * state[H]:
        return -1
    return state[NSTONES] & 1


@njit(cache=True, forceinline=True)
def returns(state: np.ndarray, out: np.ndarray) -> None:
    """+1 for the player with k in a row and -1 for the other; 0 for both on a draw."""
    for i in range(4):
        out[i] = 0.0
    w = state[WINNER]
    if w >= 0:
        out[w] = 1.0
        out[1 - w] = -1.0


@njit(cache=True, forceinline=True)
def key(state: np.ndarray) -> int:
    """The Zobrist key (kept in the state by make/unmake)."""
    return state[KEY]


def key_from_scratch(cells: np.ndarray) -> int:
    """The key of a board given as its cell values (0/1/2), as make/unmake keep it."""
    k = np.int64(0)
    for c in np.flatnonzero(cells):
        k ^= STONE_KEYS[int(cells[c]) - 1, c]
    if int(np.count_nonzero(cells)) % 2 == 1:
        k ^= SIDE_KEY
    return int(k)
