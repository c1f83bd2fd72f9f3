"""The compiled kernel of Othello (and of its older form Reversi): two bitboards in one
flat ``int64`` state array.

State layout
------------
======================  ====================================================
``state[VARIANT]``      0 Othello (the standard start), 1 Reversi (empty start)
``state[BLACK]``        the squares of black's discs (player 0), a 64-bit board
``state[WHITE]``        the squares of white's discs (player 1)
``state[SIDE]``         the player to move (0 black, 1 white), also once over
======================  ====================================================

Squares and moves are numbered ``sq = row * 8 + col``: ``col`` 0 is file ``a`` and
``row`` 0 is rank ``1``, which in Othello's own orientation is the *top* row, so
``a1`` is 0, ``h1`` 7 and ``h8`` 63; bit ``sq`` of a board is that square. The
standard start is white d4 (27) and e5 (36), black d5 (35) and e4 (28); black's
first moves are d3 (19), c4 (26), f5 (37) and e6 (44). A move is a square, or
:data:`PASS` (64) when the side to move has no placement but the opponent has.

The boards are stored as ``int64`` (the sign bit is square h8) and turned into
``uint64`` on entry of every function, so shifts are logical; every constant and
shift amount is a ``uint64`` too (numba would otherwise mix ``uint64`` and ``int64``
into ``float64``).

Moves are generated with a per-direction shift-and-mask fill: for each of the 8
directions, the own discs are grown through the opponent's (a Kogge-Stone fill, see
``_fill``), and the empty squares one step beyond the opponent discs so reached are
moves. The flips of a move are the same fill started from the new disc, kept where it
ends on an own disc.

:func:`make` records the move and the flipped squares in ``undo[ply]``; since the
side to move always alternates (a pass too), :func:`unmake` needs nothing else.
In the Reversi variant the first four moves put discs on free centre squares
(d4, d5, e4, e5) without flipping; the position is in that opening while fewer than
four discs are on the board (discs are never removed).

:func:`player_of` decides the end without a stored pass counter: the game is over
when neither side has a placement (two passes in a row would follow). It costs one
or two mobility computations and allocates nothing.

The key is the Zobrist key (one fixed random number per (colour, square) plus one
for "white to move"), computed from the boards by byte-table lookups: table entry
``[i, b]`` is the XOR of the square keys of the set bits of byte ``b`` at byte
position ``i``, so 16 lookups give exactly the XOR over every disc.
"""

from __future__ import annotations

import numpy as np
from numba import njit

VARIANT = 0
BLACK = 1
WHITE = 2
SIDE = 3
#: Length of the state array.
STATE_SIZE = 4
#: The move code of a pass.
PASS = 64
#: Columns of one undo row: the move and the flipped squares.
UNDO_SIZE = 2
#: Most legal moves in one position (a bound: 60 empty squares, or one pass).
MAX_MOVES = 64

#: The variants, by their number in ``state[VARIANT]``.
VARIANTS = ("othello", "reversi")

#: The four centre squares d4, e4, d5, e5 (bits 27, 28, 35, 36).
CENTRE = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36)
START_BLACK = (1 << 28) | (1 << 35)  # e4, d5
START_WHITE = (1 << 27) | (1 << 36)  # d4, e5

_U = np.uint64
_FULL = _U(0xFFFFFFFFFFFFFFFF)
_NOT_A = _U(0xFEFEFEFEFEFEFEFE)  # every square but file a (col 0)
_NOT_H = _U(0x7F7F7F7F7F7F7F7F)  # every square but file h (col 7)
_CENTRE = _U(CENTRE)
_CORNERS = _U((1 << 0) | (1 << 7) | (1 << 56) | (1 << 63))
_ZERO = _U(0)
_ONE = _U(1)

# the 8 directions as ((x << LEFT) >> RIGHT) & MASK, the mask dropping what wrapped
# around a file edge: east +1, west -1, south +8, north -8, +9, +7, -7, -9
_LEFT = np.array([1, 0, 8, 0, 9, 7, 0, 0], dtype=np.uint64)
_RIGHT = np.array([0, 1, 0, 8, 0, 0, 7, 9], dtype=np.uint64)
_MASK = np.array(
    [
        0xFEFEFEFEFEFEFEFE,  # east: nothing lands on file a
        0x7F7F7F7F7F7F7F7F,  # west: nothing lands on file h
        0xFFFFFFFFFFFFFFFF,
        0xFFFFFFFFFFFFFFFF,
        0xFEFEFEFEFEFEFEFE,  # south-east
        0x7F7F7F7F7F7F7F7F,  # south-west
        0xFEFEFEFEFEFEFEFE,  # north-east
        0x7F7F7F7F7F7F7F7F,  # north-west
    ],
    dtype=np.uint64,
)

_RNG = np.random.default_rng(0x07E110_2024)
#: One random 64-bit number per (colour, square) ...
DISC_KEYS = _RNG.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, (2, 64), dtype=np.int64)
#: ... and one for "white is to move".
SIDE_KEY = np.int64(_RNG.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max))


def _byte_tables(keys: np.ndarray) -> np.ndarray:
    """``table[i, b]``: XOR of ``keys[8 * i + j]`` over the set bits ``j`` of ``b``."""
    table = np.zeros((8, 256), dtype=np.int64)
    for i in range(8):
        for b in range(256):
            k = np.int64(0)
            for j in range(8):
                if b >> j & 1:
                    k ^= keys[8 * i + j]
            table[i, b] = k
    return table


_BLACK_TABLE = _byte_tables(DISC_KEYS[0])
_WHITE_TABLE = _byte_tables(DISC_KEYS[1])


def new_state(variant: str = "othello") -> np.ndarray:
    """The start: the standard four centre discs (Othello) or the empty board (Reversi)."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[VARIANT] = VARIANTS.index(variant)
    if variant == "othello":
        state[BLACK] = START_BLACK
        state[WHITE] = START_WHITE
    state[SIDE] = 0
    return state


# ------------------------------------------------------------------ bit helpers
@njit(cache=True, forceinline=True)
def popcount(x):
    """The number of set bits of the ``uint64`` ``x`` (SWAR)."""
    x = x - ((x >> _U(1)) & _U(0x5555555555555555))
    x = (x & _U(0x3333333333333333)) + ((x >> _U(2)) & _U(0x3333333333333333))
    x = (x + (x >> _U(4))) & _U(0x0F0F0F0F0F0F0F0F)
    return (x * _U(0x0101010101010101)) >> _U(56)


@njit(cache=True, forceinline=True)
def lowest_square(x):
    """The number of the lowest set bit of the non-zero ``uint64`` ``x`` (de Bruijn)."""
    isolated = x & (_ZERO - x)
    return _DEBRUIJN_INDEX[(isolated * _DEBRUIJN) >> _U(58)]


_DEBRUIJN = _U(0x022FDD63CC95386D)
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DEBRUIJN_INDEX[((1 << _i) * 0x022FDD63CC95386D & 0xFFFFFFFFFFFFFFFF) >> 58] = _i
del _i


@njit(cache=True, forceinline=True)  # no call: no error path
def _fill(gen, opp, left, right, mask):
    """``gen`` grown through the discs of ``opp`` in one direction (shifted left by
    ``left`` then right by ``right``; ``mask`` drops what wrapped around a file edge),
    up to seven squares: a Kogge-Stone fill, three doubling steps (1, 2, 4 squares)
    instead of six single ones, whose propagator keeps only squares whose
    predecessors in the step are opponent discs too; faster than six single steps
    (``docs/benchmarks.md``, "Measurements behind the design")."""
    pro = opp & mask
    gen |= pro & ((gen << left) >> right)
    pro &= (pro << left) >> right
    gen |= pro & ((gen << (left + left)) >> (right + right))
    pro &= (pro << (left + left)) >> (right + right)
    gen |= pro & ((gen << (left * _U(4))) >> (right * _U(4)))
    return gen


@njit(cache=True, forceinline=True)  # no call: no error path
def _moves_towards(own, opp, empty, d):
    """The ``empty`` squares where ``own`` could place a disc flipping in direction
    ``d``: one step beyond a run of ``opp`` discs grown from an own disc."""
    run = _fill(own, opp, _LEFT[d], _RIGHT[d], _MASK[d]) ^ own
    return ((run << _LEFT[d]) >> _RIGHT[d]) & _MASK[d] & empty


@njit(cache=True, forceinline=True)  # no call: no error path
def mobility(own, opp):
    """The empty squares where the owner of ``own`` (``uint64``) could place a disc:
    one step beyond the opponent discs in an unbroken line from an own disc."""
    empty = ~(own | opp)
    moves = _ZERO
    for d in range(8):
        moves |= _moves_towards(own, opp, empty, d)
    return moves


@njit(cache=True, forceinline=True)  # no call: no error path
def can_move(own, opp):
    """Whether :func:`mobility` is not empty, direction by direction, stopping at the
    first direction with a move: the finished-game test that every node of a search
    makes (:func:`player_of`), which mostly answers in its first direction."""
    empty = ~(own | opp)
    for d in range(8):  # noqa: SIM110 (a plain loop: what numba compiles best)
        if _moves_towards(own, opp, empty, d):
            return True
    return False


@njit(cache=True, forceinline=True)  # no call: no error path
def flips(own, opp, sq):
    """The opponent discs a disc of ``own`` placed on square ``sq`` would flip: the
    lines of them from the new disc that end on an own disc."""
    bit = _ONE << _U(sq)
    out = _ZERO
    for d in range(8):
        run = _fill(bit, opp, _LEFT[d], _RIGHT[d], _MASK[d]) ^ bit
        if ((run << _LEFT[d]) >> _RIGHT[d]) & _MASK[d] & own:
            out |= run
    return out


# ------------------------------------------------------------------ protocol
# Every function below reads the arrays at its top and writes them unconditionally at
# its end, with only scalar code in between: numba keeps its (atomic) reference counts
# of array arguments where they are touched inside branches, which costs speed
# (tests/test_compiled_code.py checks there are none).
@njit(cache=True, forceinline=True)
def generate(state: np.ndarray, moves: np.ndarray, ply: int) -> int:
    """The legal moves into ``moves[ply]`` in square order: the placements, or the one
    move :data:`PASS` when there is none but the opponent can place; none once over."""
    black = _U(state[BLACK])
    white = _U(state[WHITE])
    side = state[SIDE]
    opening = state[VARIANT] == 1
    own = black if side == 0 else white
    opp = white if side == 0 else black
    taken = black | white
    # in the Reversi opening any free centre square is a move
    in_opening = opening and popcount(taken) < _U(4)
    mob = _CENTRE & ~taken if in_opening else mobility(own, opp)
    must_pass = mob == _ZERO and can_move(opp, own)
    n = 0
    while mob != _ZERO:
        moves[ply, n] = lowest_square(mob)
        mob &= mob - _ONE
        n += 1
    moves[ply, n] = PASS  # a move only when n is 0 (n < 64: at most 60 empty squares)
    return n + 1 if must_pass else n


@njit(cache=True, forceinline=True)
def make(state: np.ndarray, move: int, undo: np.ndarray, ply: int) -> None:
    """Play ``move`` (a square, or :data:`PASS`): place the mover's disc and flip the
    enclosed opponent discs (none in the Reversi opening); the turn passes."""
    black = _U(state[BLACK])
    white = _U(state[WHITE])
    side = state[SIDE]
    reversi = state[VARIANT] == 1
    own = black if side == 0 else white
    opp = white if side == 0 else black
    flipped = _ZERO
    placed = _ZERO
    if move != PASS:
        placed = _ONE << _U(move)
        if not (reversi and popcount(black | white) < _U(4)):
            flipped = flips(own, opp, move)
    own |= flipped | placed
    opp &= ~flipped
    undo[ply, 0] = move
    undo[ply, 1] = np.int64(flipped)
    state[BLACK] = np.int64(own if side == 0 else opp)
    state[WHITE] = np.int64(opp if side == 0 else own)
    state[SIDE] = 1 - side


@njit(cache=True, forceinline=True)
def unmake(state: np.ndarray, undo: np.ndarray, ply: int) -> None:
    """Take back the move made by :func:`make` at ``ply``."""
    move = undo[ply, 0]
    flipped = _U(undo[ply, 1])
    black = _U(state[BLACK])
    white = _U(state[WHITE])
    side = 1 - state[SIDE]  # the player who made the move
    placed = flipped
    if move != PASS:
        placed |= _ONE << _U(move)
    if side == 0:
        black &= ~placed
        white |= flipped
    else:
        white &= ~placed
        black |= flipped
    state[BLACK] = np.int64(black)
    state[WHITE] = np.int64(white)
    state[SIDE] = side


@njit(cache=True, forceinline=True)
def player_of(state: np.ndarray) -> int:
    """The player to move, or -1 once neither side can place a disc."""
    black = _U(state[BLACK])
    white = _U(state[WHITE])
    side = state[SIDE]
    reversi = state[VARIANT] == 1
    taken = black | white
    if reversi and popcount(taken) < _U(4):
        return side
    if taken == _FULL:
        return -1
    if can_move(black, white) or can_move(white, black):
        return side
    return -1


@njit(cache=True, forceinline=True)
def returns(state: np.ndarray, out: np.ndarray) -> None:
    """The final disc difference from each player's view, the empty squares counted for
    the player with more discs (standard Othello scoring); 0 for both on a tie."""
    b = np.int64(popcount(_U(state[BLACK])))
    w = np.int64(popcount(_U(state[WHITE])))
    empty = 64 - b - w
    if b > w:
        b += empty
    elif w > b:
        w += empty
    out[0] = float(b - w)
    out[1] = float(w - b)
    out[2] = 0.0
    out[3] = 0.0


@njit(cache=True, forceinline=True)
def key(state: np.ndarray) -> int:
    """The Zobrist key of the boards and the side to move (see the module docstring)."""
    black = _U(state[BLACK])
    white = _U(state[WHITE])
    k = SIDE_KEY if state[SIDE] == 1 else np.int64(0)
    for i in range(8):
        shift = _U(8 * i)
        k ^= _BLACK_TABLE[i, np.int64((black >> shift) & _U(255))]
        k ^= _WHITE_TABLE[i, np.int64((white >> shift) & _U(255))]
    return k


def key_from_scratch(black: int, white: int, side: int) -> int:
    """The key as a plain XOR over the discs (what :func:`key` computes by tables)."""
    k = np.int64(SIDE_KEY if side == 1 else 0)
    for sq in range(64):
        if black >> sq & 1:
            k ^= DISC_KEYS[0, sq]
        if white >> sq & 1:
            k ^= DISC_KEYS[1, sq]
    return int(k)


def board_bits(value: int) -> int:
    """The non-negative 64-bit form of a board stored as ``int64``."""
    return int(value) & 0xFFFFFFFFFFFFFFFF


def as_int64(bits: int) -> int:
    """A 64-bit board as the ``int64`` the state stores (h8 is the sign bit)."""
    bits &= 0xFFFFFFFFFFFFFFFF
    return bits - (1 << 64) if bits >> 63 else bits
