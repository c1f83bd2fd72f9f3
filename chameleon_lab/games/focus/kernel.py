"""The compiled kernel of Focus: the 52 squares' stacks, the reserves and the captures
in one flat ``int64`` state array.

State layout
------------
=====================  =====================================================
``state[0..63]``       each square's stack: 0 empty, else ``height | colours << 3``
                       with the pieces' colours two bits each from the *top*
                       (bits 3-4 the top piece's owner); the 12 corner squares
                       off the board stay 0
``state[RESERVE+p]``   player ``p``'s own pieces in hand
``state[CAPT+4p+q]``   the pieces of player ``q`` that ``p`` has captured
``state[CONTROL+p]``   the stacks ``p``'s pieces top (kept by make and unmake)
``state[SIDE]``        the player to move, also once the game is over
``state[PLAYERS]``     how many play (2, 3 or 4)
``state[PLY]``         moves played from the start
``state[LIMIT]``       the moves after which the game ends undecided
``state[WINNER]``      the winner, -1 while nobody has won
``state[GOAL_EACH]``   the short game's goal: captures from each opponent that win
``state[GOAL_TOTAL]``  ... or captures in all that win (both 0: Sackson's game)
=====================  =====================================================

Squares are numbered ``row * 8 + col`` as on the library's other 8 x 8 boards
(:mod:`chameleon_lab.games.square_board`): ``col`` 0 the file ``a``, ``row`` 0 the
rank ``1`` at the top. The three squares of each corner are not on the board.

The rules (Sackson's Focus; the sources and our choices are on the docs' game page): a
player moves the top ``k`` pieces (1 <= ``k`` <= the stack's height) of a stack it
tops exactly ``k`` squares up, down, left or right, over anything between, onto an
empty square or another stack, on top of it; or it enters one piece from its reserve
on any square, empty or not. A stack of more than five loses its bottom pieces down to
five: the mover's own go to its reserve, the others' are captured by it. A player who
can do neither (tops no stack, holds no reserve) is skipped; the game ends when the
mover leaves nobody else able to move (the mover wins) or, in the short game the
multi-player papers play, when the mover's captures reach the goal. After ``LIMIT``
moves without a winner the most captures win (:func:`returns`).

A move is ``from * 32 + direction * 8 + k`` (directions 0 up, 1 right, 2 down, 3
left) or ``RESERVE_MOVE + to`` for a reserve piece entered on ``to``. :func:`make`
records in ``undo[ply]`` the move, the mover, the two squares before it, the mover's
reserve and captures and the winner, so :func:`unmake` needs nothing else. The key is
a Zobrist key of every piece by square and place in its stack, the reserves, the
captures, the player to move and the moves played.
"""

from __future__ import annotations

import numpy as np
from numba import njit

RESERVE = 64
CAPT = RESERVE + 4
CONTROL = CAPT + 16
SIDE = CONTROL + 4
PLAYERS = SIDE + 1
PLY = SIDE + 2
LIMIT = SIDE + 3
WINNER = SIDE + 4
GOAL_EACH = SIDE + 5
GOAL_TOTAL = SIDE + 6
#: Length of the state array.
STATE_SIZE = SIDE + 7
#: Columns of one undo row (see the module doc).
UNDO_SIZE = 10
#: The code of the first reserve entry (``RESERVE_MOVE + to``); codes below it move stacks.
RESERVE_MOVE = 2048
#: How many codes there are: every stack move and every reserve entry.
N_ACTIONS = RESERVE_MOVE + 64
#: The tallest stack.
MAX_HEIGHT = 5
#: Room for the moves of one position: at most four directions for each of the at most
#: 52 pieces on the board (a stack of height h offers k = 1..h), and 52 reserve entries.
MAX_MOVES = 4 * 52 + 52
#: The most moves a game may be given before it ends undecided.
MAX_LIMIT = 4000

#: The players' colours by number, and their letters.
COLOURS = ("red", "green", "yellow", "blue")
LETTERS = "RGYB"
#: The short game's goals by player count (each opponent, in all); Nijssen & Winands's
#: description of the version the multi-player papers play (docs' game page).
SHORT_GOALS = {2: (6, 6), 3: (3, 10), 4: (2, 10)}

_ROWS = np.arange(64) // 8
_COLS = np.arange(64) % 8
#: Whether a square is on the board: all but the three of each corner (those at most
#: one step from the corner square, counting along rows and columns).
ON_BOARD = np.minimum(_ROWS, 7 - _ROWS) + np.minimum(_COLS, 7 - _COLS) >= 2
#: The board's squares in square order.
SQUARES = np.flatnonzero(ON_BOARD).astype(np.int64)
_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left


def _destinations() -> np.ndarray:
    """``DEST[sq, d, k]``: the square ``k`` steps from ``sq`` in direction ``d``, -1
    when that is off the board (past an edge or on a removed corner square)."""
    out = np.full((64, 4, MAX_HEIGHT + 1), -1, dtype=np.int64)
    for sq in SQUARES:
        r, c = divmod(int(sq), 8)
        for d, (dr, dc) in enumerate(_STEPS):
            for k in range(1, MAX_HEIGHT + 1):
                rr, cc = r + k * dr, c + k * dc
                if 0 <= rr < 8 and 0 <= cc < 8 and ON_BOARD[rr * 8 + cc]:
                    out[sq, d, k] = rr * 8 + cc
    return out


DEST = _destinations()

_RNG = np.random.default_rng(0x_F0C05_1963)
_I64 = np.iinfo(np.int64)
#: One random number per (square, place from the stack's bottom, colour) ...
PIECE_KEYS = _RNG.integers(_I64.min, _I64.max, (64, MAX_HEIGHT, 4), dtype=np.int64)
#: ... per (player, pieces in reserve), per (capturer, captured, count), per player to
#: move and per move count.
RESERVE_KEYS = _RNG.integers(_I64.min, _I64.max, (4, 64), dtype=np.int64)
CAPT_KEYS = _RNG.integers(_I64.min, _I64.max, (4, 4, 64), dtype=np.int64)
SIDE_KEYS = _RNG.integers(_I64.min, _I64.max, 4, dtype=np.int64)
PLY_KEYS = _RNG.integers(_I64.min, _I64.max, MAX_LIMIT + 1, dtype=np.int64)


def start_layout(players: int) -> dict[int, int]:
    """The start: each square's one piece, by player, for ``players`` 2, 3 or 4.

    Two players: Sackson's 18 pieces each on the central 6 x 6, in pairs along the
    ranks alternating by file pair and by rank (red b2 c2, green d2 e2, red f2 g2;
    green b3 c3, ...). Four players: 13 each on all 52 squares, the
    board's quarter-turn taking each player's pieces to the next player's (our layout:
    the papers' figure was not available). Three players: the four-player start
    without the fourth colour's 13 pieces.
    """
    if players == 2:
        return {r * 8 + c: ((c - 1) // 2 + r - 1) % 2 for r in range(1, 7) for c in range(1, 7)}
    out = {}
    for sq in SQUARES:
        r, c = divmod(int(sq), 8)
        quarter = 0
        while not (r <= 3 and c <= 3):  # turn the square into the top-left quarter
            r, c = c, 7 - r
            quarter += 1
        colour = (quarter + (r + c) % 2 * 2 + (r // 2 + c // 2) % 2) % 4
        out[int(sq)] = colour
    if players == 3:
        out = {sq: p for sq, p in out.items() if p != 3}
    return out


def new_state(players: int = 2, limit: int = 400, short: bool = True) -> np.ndarray:
    """The start for ``players`` with at most ``limit`` moves: one piece on each square
    of :func:`start_layout`, empty reserves, player 0 to move; ``short`` sets the short
    game's capture goals (:data:`SHORT_GOALS`), otherwise the last player able to move
    wins."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    for sq, p in start_layout(players).items():
        state[sq] = 1 | (p << 3)
        state[CONTROL + p] += 1
    state[PLAYERS] = players
    state[LIMIT] = limit
    state[WINNER] = -1
    each, total = SHORT_GOALS[players] if short else (0, 0)
    state[GOAL_EACH] = each
    state[GOAL_TOTAL] = total
    return state


# ------------------------------------------------------------------ helpers
#: +1 and -1 typed, for :func:`_count`'s ``delta`` (a literal would compile it once
#: more per sign: ``specialise``, "Literal arguments").
_GAIN = np.int64(1)
#: See :data:`_GAIN`.
_LOSE = np.int64(-1)


@njit(cache=True, forceinline=True)
def _count(state, v, delta):
    """Add ``delta`` to the control count of the player topping the stack ``v``."""
    if v != 0:
        state[CONTROL + ((v >> 3) & 3)] += delta


@njit(cache=True, forceinline=True)
def can_move(state, p):
    """Whether ``p`` has a move: it tops a stack (every square has a neighbour on the
    board) or holds a reserve piece."""
    return state[CONTROL + p] > 0 or state[RESERVE + p] > 0


@njit(cache=True, forceinline=True)
def reached_goal(state, p):
    """Whether ``p``'s captures reach the short game's goal (never in Sackson's)."""
    each = state[GOAL_EACH]
    if each == 0:
        return False
    total = 0
    least = 1 << 30
    for q in range(state[PLAYERS]):
        if q != p:
            n = state[CAPT + 4 * p + q]
            total += n
            least = min(least, n)
    return least >= each or total >= state[GOAL_TOTAL]


@njit(cache=True, forceinline=True)
def _land(state, side, t, moved, k):
    """Put the ``k`` pieces ``moved`` (colours from the top) on square ``t``; pieces
    pushed below the fifth go to ``side``'s reserve or its captures."""
    w = state[t]
    _count(state, w, _LOSE)
    height = k + (w & 7)
    colours = moved | ((w >> 3) << (2 * k))
    for i in range(MAX_HEIGHT, height):
        c = (colours >> (2 * i)) & 3
        if c == side:
            state[RESERVE + side] += 1
        else:
            state[CAPT + 4 * side + c] += 1
    if height > MAX_HEIGHT:
        colours &= (1 << (2 * MAX_HEIGHT)) - 1
        height = MAX_HEIGHT
    state[t] = height | (colours << 3)
    _count(state, state[t], _GAIN)


@njit(cache=True, forceinline=True)
def target(move):
    """The square ``move`` lands on: a stack move's destination, a reserve entry's
    square."""
    if move >= RESERVE_MOVE:
        return move - RESERVE_MOVE
    return DEST[move >> 5, (move >> 3) & 3, move & 7]


# ------------------------------------------------------------------ protocol
@njit(cache=True, forceinline=True)
def player_of(state: np.ndarray) -> int:
    """The player to move, or -1 once somebody has won or the moves ran out."""
    over = state[WINNER] >= 0 or state[PLY] >= state[LIMIT]
    return -1 if over else state[SIDE]


@njit(cache=True, forceinline=True)
def generate(state: np.ndarray, moves: np.ndarray, ply: int) -> int:
    """The legal moves into ``moves[ply]``: square by square, each stack the mover tops
    by direction and pieces moved, then the reserve entries; none once the game is
    over or for a player who cannot move (skipped in play, or handed the turn by
    :func:`pass_to`)."""
    side = state[SIDE]
    if player_of(state) < 0 or side >= state[PLAYERS]:
        return 0
    n = 0
    if state[CONTROL + side] > 0:
        for f in range(64):
            v = state[f]
            if v != 0 and ((v >> 3) & 3) == side:
                for d in range(4):
                    for k in range(1, (v & 7) + 1):
                        if DEST[f, d, k] >= 0:
                            moves[ply, n] = f * 32 + d * 8 + k
                            n += 1
    if state[RESERVE + side] > 0:
        for i in range(SQUARES.shape[0]):
            moves[ply, n] = RESERVE_MOVE + SQUARES[i]
            n += 1
    return n


@njit(cache=True, forceinline=True)
def make(state: np.ndarray, move: int, undo: np.ndarray, ply: int) -> None:
    """Play ``move``; the next player able to move moves. A move leaving nobody else
    able to move, or reaching the short game's goal, wins (see the module doc)."""
    side = state[SIDE]
    undo[ply, 0] = move
    undo[ply, 1] = side
    undo[ply, 4] = state[RESERVE + side]
    for q in range(4):
        undo[ply, 5 + q] = state[CAPT + 4 * side + q]
    undo[ply, 9] = state[WINNER]
    t = target(move)
    if move >= RESERVE_MOVE:
        moved = side
        k = 1
        state[RESERVE + side] -= 1
    else:
        f = move >> 5
        k = move & 7
        v = state[f]
        undo[ply, 2] = v
        moved = (v >> 3) & ((1 << (2 * k)) - 1)
        _count(state, v, _LOSE)
        rest = (v & 7) - k
        state[f] = 0 if rest == 0 else rest | ((v >> (3 + 2 * k)) << 3)
        _count(state, state[f], _GAIN)
    undo[ply, 3] = state[t]
    _land(state, side, t, moved, k)
    players = state[PLAYERS]
    nxt = (side + 1) % players
    while nxt != side and not can_move(state, nxt):
        nxt = (nxt + 1) % players
    if nxt == side or reached_goal(state, side):
        state[WINNER] = side
    state[SIDE] = nxt
    state[PLY] += 1


@njit(cache=True, forceinline=True)
def unmake(state: np.ndarray, undo: np.ndarray, ply: int) -> None:
    """Take back the move made by :func:`make` at ``ply``."""
    move = undo[ply, 0]
    side = undo[ply, 1]
    t = target(move)
    if move < RESERVE_MOVE:
        f = move >> 5
        _count(state, state[f], _LOSE)
        state[f] = undo[ply, 2]
        _count(state, state[f], _GAIN)
    _count(state, state[t], _LOSE)
    state[t] = undo[ply, 3]
    _count(state, state[t], _GAIN)
    state[RESERVE + side] = undo[ply, 4]
    for q in range(4):
        state[CAPT + 4 * side + q] = undo[ply, 5 + q]
    state[WINNER] = undo[ply, 9]
    state[SIDE] = side
    state[PLY] -= 1


@njit(cache=True, forceinline=True)
def pass_to(state: np.ndarray, player: int) -> int:
    """Hand the turn to ``player`` (Best-Reply Search); returns who was to move. A
    player who cannot move has no moves there (:func:`generate`)."""
    previous = state[SIDE]
    state[SIDE] = player
    return previous


@njit(cache=True, forceinline=True)
def captured(state: np.ndarray, p: int) -> int:
    """The pieces ``p`` has captured, all opponents together."""
    total = 0
    for q in range(4):
        if q != p:
            total += state[CAPT + 4 * p + q]
    return total


@njit(cache=True, forceinline=True)
def returns(state: np.ndarray, out: np.ndarray) -> None:
    """At the end: +1 for the winner and -1 for every other player; after the last
    move without a winner, +1 for the player with the most captures, 0 for each of
    several sharing the most, -1 for the others. Entries past the players are 0."""
    players = state[PLAYERS]
    for p in range(4):
        out[p] = 0.0
    winner = state[WINNER]
    if winner >= 0:
        for p in range(players):
            out[p] = 1.0 if p == winner else -1.0
        return
    best = -1
    for p in range(players):
        best = max(best, captured(state, p))
    leaders = 0
    for p in range(players):
        leaders += captured(state, p) == best
    for p in range(players):
        if captured(state, p) == best:
            out[p] = 1.0 if leaders == 1 else 0.0
        else:
            out[p] = -1.0


@njit(cache=True, forceinline=True)
def key(state: np.ndarray) -> int:
    """The Zobrist key of the pieces, reserves, captures, player to move and moves
    played (see the module doc)."""
    k = SIDE_KEYS[state[SIDE]] ^ PLY_KEYS[min(state[PLY], MAX_LIMIT)]
    for f in range(64):
        v = state[f]
        height = v & 7
        for i in range(height):  # i from the top; keyed by place from the bottom
            k ^= PIECE_KEYS[f, height - 1 - i, (v >> (3 + 2 * i)) & 3]
    for p in range(4):
        k ^= RESERVE_KEYS[p, min(state[RESERVE + p], 63)]
        for q in range(4):
            k ^= CAPT_KEYS[p, q, min(state[CAPT + 4 * p + q], 63)]
    return k
