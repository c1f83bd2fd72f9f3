"""The compiled kernel of Rolit: four bitboards, one per colour, in one flat ``int64``
state array.

State layout
------------
=====================  =====================================================
``state[0..3]``        the squares of red's, yellow's, green's and blue's balls
                       (players 0..3), each a 64-bit board
``state[SIDE]``        the colour to move (0..3), also once the game is over
``state[SEATED]``      the seated colours, bit ``c`` for colour ``c``
=====================  =====================================================

Squares are numbered as in Othello's kernel
(:mod:`chameleon_lab.games.othello.kernel`, whose bit functions this one uses): ``sq =
row * 8 + col``, ``col`` 0 the file ``a``, ``row`` 0 the rank ``1`` at the top. The four
centre balls start red d4 (27), yellow e4 (28), green e5 (36) and blue d5 (35): the
colours clockwise from the top left, the order in which they move.

The rules (Goliath's Rolit, as the multi-player search papers play it; the sources
are in the docs' game page): the seated colours move in the order red, yellow,
green, blue, skipping the others. A move places a ball of the mover's colour on an
empty square. If the mover can capture, it must: a capture encloses an unbroken line
of other balls (of any colours, seated or not) between the new ball and one of the
mover's, and every ball so enclosed turns to the mover's colour. A mover who cannot
capture places the ball on any empty square next to a ball (in any of the eight
directions); so nobody ever passes. The balls of colours nobody sits at stay on the
board and can be captured like any other. The game ends when the board is full, 60
placements after the start; the most balls win (:func:`returns`).

:func:`make` records the move, the mover and the balls it took from each colour in
``undo[ply]``, so :func:`unmake` needs nothing else.

The key is the Zobrist key (one fixed random number per colour and square, one per
colour to move), by byte tables as in Othello's kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..othello.kernel import (
    _LEFT,
    _MASK,
    _RIGHT,
    _byte_tables,
    flips,
    lowest_square,
    mobility,
    popcount,
)

SIDE = 4
SEATED = 5
#: Length of the state array.
STATE_SIZE = 6
#: Columns of one undo row: the move, the mover, the balls taken from each colour.
UNDO_SIZE = 6
#: Most legal moves in one position (60 empty squares after the start).
MAX_MOVES = 60
#: Plies of every game: one placement fills each of the 60 squares empty at the start.
LENGTH = 60

#: The colours in their order of play, by player number, and their letters.
COLOURS = ("red", "yellow", "green", "blue")
LETTERS = "RYGB"
#: The start: red d4, yellow e4, green e5, blue d5 (bits 27, 28, 36, 35).
START = (1 << 27, 1 << 28, 1 << 36, 1 << 35)

_U = np.uint64
_FULL = _U(0xFFFFFFFFFFFFFFFF)
_ZERO = _U(0)
_ONE = _U(1)

_RNG = np.random.default_rng(0x0_2011_0107)
#: One random 64-bit number per (colour, square) ...
BALL_KEYS = _RNG.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, (4, 64), dtype=np.int64)
#: ... and one per colour to move.
SIDE_KEYS = _RNG.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, 4, dtype=np.int64)
_TABLES = np.stack([_byte_tables(BALL_KEYS[c]) for c in range(4)])


def new_state(seated: str = LETTERS) -> np.ndarray:
    """The start with the colours of ``seated`` (letters of ``RYGB``) at the table: the
    four centre balls, the first seated colour in the order of play to move."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    for c in range(4):
        state[c] = START[c]
    mask = sum(1 << LETTERS.index(ch) for ch in seated)
    state[SEATED] = mask
    state[SIDE] = min(LETTERS.index(ch) for ch in seated)
    return state


@njit(cache=True, forceinline=True)  # no call: no error path
def neighbours(x):
    """The squares next to those of ``x`` in any of the eight directions."""
    out = _ZERO
    for d in range(8):
        out |= ((x << _LEFT[d]) >> _RIGHT[d]) & _MASK[d]
    return out


@njit(cache=True, forceinline=True)  # no call: no error path
def placements(own, taken):
    """The moves of the owner of ``own`` with ``taken`` the occupied squares: its
    captures, or where it has none, every empty square next to a ball."""
    moves = mobility(own, taken & ~own)  # Othello's, the others' balls as the opponent
    if moves == _ZERO:
        moves = neighbours(taken) & ~taken
    return moves


@njit(cache=True, forceinline=True)  # no call: no error path
def next_seated(side, seated):
    """The seated colour after ``side`` in the order of play."""
    p = (side + 1) % 4
    while not (seated >> p) & 1:
        p = (p + 1) % 4
    return p


# ------------------------------------------------------------------ protocol
# As in Othello's kernel, every function reads the arrays at its top and writes them
# unconditionally at its end (no reference counting inside branches).
@njit(cache=True, forceinline=True)
def generate(state: np.ndarray, moves: np.ndarray, ply: int) -> int:
    """The legal moves into ``moves[ply]`` in square order; none once the board is
    full, and none for a colour nobody sits at (handed the turn by :func:`pass_to`, it
    is not in the game: Best-Reply Search's opponents' layer must not hear from it)."""
    b0 = _U(state[0])
    b1 = _U(state[1])
    b2 = _U(state[2])
    b3 = _U(state[3])
    side = state[SIDE]
    taken = b0 | b1 | b2 | b3
    own = b0 if side == 0 else b1 if side == 1 else b2 if side == 2 else b3
    out = taken == _FULL or not (state[SEATED] >> side) & 1
    mob = _ZERO if out else placements(own, taken)
    n = 0
    while mob != _ZERO:
        moves[ply, n] = lowest_square(mob)
        mob &= mob - _ONE
        n += 1
    return n


@njit(cache=True, forceinline=True)
def make(state: np.ndarray, move: int, undo: np.ndarray, ply: int) -> None:
    """Place the mover's ball on ``move`` and turn the balls it encloses; the next
    seated colour moves."""
    b0 = _U(state[0])
    b1 = _U(state[1])
    b2 = _U(state[2])
    b3 = _U(state[3])
    side = state[SIDE]
    seated = state[SEATED]
    taken = b0 | b1 | b2 | b3
    own = b0 if side == 0 else b1 if side == 1 else b2 if side == 2 else b3
    turned = flips(own, taken & ~own, move)
    placed = turned | (_ONE << _U(move))
    undo[ply, 0] = move
    undo[ply, 1] = side
    undo[ply, 2] = np.int64(b0 & turned)
    undo[ply, 3] = np.int64(b1 & turned)
    undo[ply, 4] = np.int64(b2 & turned)
    undo[ply, 5] = np.int64(b3 & turned)
    state[0] = np.int64(b0 | placed if side == 0 else b0 & ~turned)
    state[1] = np.int64(b1 | placed if side == 1 else b1 & ~turned)
    state[2] = np.int64(b2 | placed if side == 2 else b2 & ~turned)
    state[3] = np.int64(b3 | placed if side == 3 else b3 & ~turned)
    state[SIDE] = next_seated(side, seated)


@njit(cache=True, forceinline=True)
def unmake(state: np.ndarray, undo: np.ndarray, ply: int) -> None:
    """Take back the move made by :func:`make` at ``ply``."""
    move = undo[ply, 0]
    side = undo[ply, 1]
    t0 = _U(undo[ply, 2])
    t1 = _U(undo[ply, 3])
    t2 = _U(undo[ply, 4])
    t3 = _U(undo[ply, 5])
    placed = t0 | t1 | t2 | t3 | (_ONE << _U(move))
    b0 = _U(state[0])
    b1 = _U(state[1])
    b2 = _U(state[2])
    b3 = _U(state[3])
    state[0] = np.int64(b0 & ~placed if side == 0 else b0 | t0)
    state[1] = np.int64(b1 & ~placed if side == 1 else b1 | t1)
    state[2] = np.int64(b2 & ~placed if side == 2 else b2 | t2)
    state[3] = np.int64(b3 & ~placed if side == 3 else b3 | t3)
    state[SIDE] = side


@njit(cache=True, forceinline=True)
def player_of(state: np.ndarray) -> int:
    """The colour to move, or -1 once the board is full (before, there is always a
    move: a capture, or an empty square next to a ball)."""
    taken = _U(state[0]) | _U(state[1]) | _U(state[2]) | _U(state[3])
    side = state[SIDE]
    return -1 if taken == _FULL else side


@njit(cache=True, forceinline=True)
def pass_to(state: np.ndarray, player: int) -> int:
    """Hand the turn to ``player`` (Best-Reply Search); returns who was to move. A
    colour nobody sits at may be handed it and then has no moves (:func:`generate`)."""
    previous = state[SIDE]
    state[SIDE] = player
    return previous


@njit(cache=True, forceinline=True)
def returns(state: np.ndarray, out: np.ndarray) -> None:
    """At the end: +1 for the seated colour with the most balls, 0 for each of several
    sharing the most, -1 for every other seated colour; 0 for colours nobody sits at."""
    seated = state[SEATED]
    best = -1
    for c in range(4):
        if (seated >> c) & 1:
            best = max(best, np.int64(popcount(_U(state[c]))))
    leaders = 0
    for c in range(4):
        if (seated >> c) & 1 and np.int64(popcount(_U(state[c]))) == best:
            leaders += 1
    for c in range(4):
        if not (seated >> c) & 1:
            out[c] = 0.0
        elif np.int64(popcount(_U(state[c]))) == best:
            out[c] = 1.0 if leaders == 1 else 0.0
        else:
            out[c] = -1.0


@njit(cache=True, forceinline=True)
def key(state: np.ndarray) -> int:
    """The Zobrist key of the boards and the colour to move (see the module doc)."""
    k = SIDE_KEYS[state[SIDE]]
    for c in range(4):
        board = _U(state[c])
        for i in range(8):
            k ^= _TABLES[c, i, np.int64((board >> _U(8 * i)) & _U(255))]
    return k


def key_from_scratch(boards: tuple[int, int, int, int], side: int) -> int:
    """The key as a plain XOR over the balls (what :func:`key` computes by tables)."""
    k = np.int64(SIDE_KEYS[side])
    for c, board in enumerate(boards):
        for sq in range(64):
            if board >> sq & 1:
                k ^= BALL_KEYS[c, sq]
    return int(k)
