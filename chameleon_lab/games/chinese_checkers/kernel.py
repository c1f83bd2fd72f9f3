"""The compiled kernel of Chinese Checkers: the star's holes in one flat ``int64`` state
array, the board's geometry in tables (:mod:`.board`).

State layout
------------
=====================  =====================================================
``state[0..120]``      each hole's piece: 0 empty, ``p + 1`` a piece of player
                       ``p`` (holes past the board's last stay 0)
``state[SIDE]``        the player to move, also once the game is over
``state[PLAYERS]``     how many play (2, 3 or 4)
``state[SIZE]``        the board's triangle side (2, 3 or 4)
``state[PLY]``         moves played from the start (passes included)
``state[LIMIT]``       the moves after which the game ends undecided
``state[WINNER]``      the winner, -1 while nobody has won
=====================  =====================================================

The rules (the sources and our choices are on the docs' game page): player ``p`` starts
with a piece on every hole of its corner (:data:`.board.SEATS`) and plays towards the
opposite one, its home. A move takes one of the mover's pieces either one step to an
empty neighbouring hole or along a chain of one or more hops, each over an occupied
neighbouring hole (any player's piece) to the empty hole straight behind it; a chain
may stop after any hop, and a piece ends where it did not start. A piece in its home
stays there: it may move only to other holes of its home. A player without a move
passes. The game is won by the player whose home is full with at least one of its own
pieces among those filling it (so nobody can keep a player from winning by leaving
pieces in its home). After ``LIMIT`` moves without a winner the game ends and the
players are ranked by the steps their pieces still have to their home's tip
(:func:`returns`).

A move is ``from * 128 + to``; a pass is 0 (``a1`` to itself, never a move).
:func:`make` records the move and the mover in ``undo[ply]``. The key is a Zobrist key
of the pieces, the player to move and the moves played.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import board as B

SIDE = B.MAX_CELLS
PLAYERS = SIDE + 1
SIZE = SIDE + 2
PLY = SIDE + 3
LIMIT = SIDE + 4
WINNER = SIDE + 5
#: Length of the state array.
STATE_SIZE = SIDE + 6
#: Columns of one undo row: the move and the mover.
UNDO_SIZE = 2
#: The pass move's code.
PASS = 0
#: Room for the moves of one position: each of ten pieces reaches at most every other
#: hole, and generation holds a piece's hops before it drops the repeated ones.
MAX_MOVES = B.MAX_PIECES * (B.MAX_CELLS + 6)
#: The most moves a game may be given before it ends undecided.
MAX_LIMIT = 4000

_T = B.stacked()
NEIGH = _T["neigh"]
JUMP = _T["jump"]
CORNER = _T["corner"]
DIST = _T["dist"]
MEMBERS = _T["members"]
NCELLS = np.array([len(B.holes(n)) for n in B.SIZES], dtype=np.int64)
NPIECES = np.array([B.pieces(n) for n in B.SIZES], dtype=np.int64)
#: ``HOME[players, p]``: player ``p``'s home corner; ``OWNER[players, k]``: whose home
#: corner ``k`` is (-1: nobody's).
HOME = np.full((5, 4), -1, dtype=np.int64)
OWNER = np.full((5, 6), -1, dtype=np.int64)
for _n, _corners in B.SEATS.items():
    for _p, _c in enumerate(_corners):
        HOME[_n, _p] = (_c + 3) % 6
        OWNER[_n, (_c + 3) % 6] = _p

_RNG = np.random.default_rng(0x_C4_1892)
_I64 = np.iinfo(np.int64)
#: One random 64-bit number per (player, hole), per player to move, per move count.
PIECE_KEYS = _RNG.integers(_I64.min, _I64.max, (4, B.MAX_CELLS), dtype=np.int64)
SIDE_KEYS = _RNG.integers(_I64.min, _I64.max, 4, dtype=np.int64)
PLY_KEYS = _RNG.integers(_I64.min, _I64.max, MAX_LIMIT + 1, dtype=np.int64)


def new_state(players: int = 2, size: int = 4, limit: int = 400) -> np.ndarray:
    """The start: every player's corner full of its pieces, player 0 to move."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    s = size - 2
    for p, corner in enumerate(B.SEATS[players]):
        for i in range(NPIECES[s]):
            state[MEMBERS[s, corner, i]] = p + 1
    state[PLAYERS], state[SIZE], state[LIMIT], state[WINNER] = players, size, limit, -1
    return state


@njit(cache=True, forceinline=True)
def _hops(state, moves, ply, n, s, origin):
    """Append the chain-hop destinations of the piece on ``origin`` to ``moves[ply,
    n:]``, each once, breadth first; returns the new count. The piece is off its hole
    while it hops (no hop goes over it; nothing is written to ``state``, which may be
    read-only). The moves buffer is the search's queue: entry ``k``'s hole is
    ``moves[ply, k] & 127``."""
    seen_lo = np.uint64(1) << np.uint64(origin) if origin < 64 else np.uint64(0)
    seen_hi = np.uint64(1) << np.uint64(origin - 64) if origin >= 64 else np.uint64(0)
    head = n
    cur = origin
    while True:
        for d in range(6):
            over = NEIGH[s, cur, d]
            land = JUMP[s, cur, d]
            if over < 0 or land < 0 or over == origin or state[over] == 0:
                continue
            if state[land] != 0:  # the origin too: it is occupied
                continue
            bit = np.uint64(1) << np.uint64(land & 63)
            seen = (seen_lo if land < 64 else seen_hi) & bit
            if seen:
                continue
            if land < 64:
                seen_lo |= bit
            else:
                seen_hi |= bit
            moves[ply, n] = origin * 128 + land
            n += 1
        if head == n:
            return n
        cur = moves[ply, head] & 127
        head += 1


@njit(cache=True, forceinline=True)
def _piece_moves(state, moves, ply, n, s, origin, home):
    """Append the moves of the piece on ``origin`` (steps, then hop destinations not
    reached by a step); a piece in its ``home`` corner only to holes of it."""
    stays = CORNER[s, origin] == home
    steps_lo = np.uint64(0)
    steps_hi = np.uint64(0)
    for d in range(6):
        t = NEIGH[s, origin, d]
        if t >= 0 and state[t] == 0 and (not stays or CORNER[s, t] == home):
            moves[ply, n] = origin * 128 + t
            n += 1
            if t < 64:
                steps_lo |= np.uint64(1) << np.uint64(t)
            else:
                steps_hi |= np.uint64(1) << np.uint64(t - 64)
    start = n
    end = _hops(state, moves, ply, n, s, origin)
    for k in range(start, end):  # keep the new destinations the piece may end on
        t = moves[ply, k] & 127
        bit = np.uint64(1) << np.uint64(t & 63)
        stepped = (steps_lo if t < 64 else steps_hi) & bit
        if not stepped and (not stays or CORNER[s, t] == home):
            moves[ply, n] = moves[ply, k]
            n += 1
    return n


# ------------------------------------------------------------------ protocol
@njit(cache=True, forceinline=True)
def player_of(state: np.ndarray) -> int:
    """The player to move, or -1 once somebody has won or the moves ran out."""
    over = state[WINNER] >= 0 or state[PLY] >= state[LIMIT]
    return -1 if over else state[SIDE]


@njit(cache=True, forceinline=True)
def generate(state: np.ndarray, moves: np.ndarray, ply: int) -> int:
    """The legal moves into ``moves[ply]``: hole by hole, each piece's steps then its
    hop destinations; a pass when the mover has none; none once the game is over or
    for a player not in the game (handed the turn by :func:`pass_to`)."""
    side = state[SIDE]
    if player_of(state) < 0 or side >= state[PLAYERS]:
        return 0
    s = state[SIZE] - 2
    home = HOME[state[PLAYERS], side]
    n = np.int64(0)  # typed, not a literal (see games.specialise)
    for c in range(NCELLS[s]):
        if state[c] == side + 1:
            n = _piece_moves(state, moves, ply, n, s, c, home)
    if n == 0:
        moves[ply, 0] = PASS
        n = 1
    return n


@njit(cache=True, forceinline=True)
def _has_won(state, corner, owner):
    """Whether ``corner`` (``owner``'s home) is full with at least one of its pieces."""
    s = state[SIZE] - 2
    own = False
    for i in range(NPIECES[s]):
        v = state[MEMBERS[s, corner, i]]
        if v == 0:
            return False
        own = own or v == owner + 1
    return own


@njit(cache=True, forceinline=True)
def make(state: np.ndarray, move: int, undo: np.ndarray, ply: int) -> None:
    """Play ``move`` (a piece from one hole to another, or a pass); the next player
    moves. A move filling a home decides the game (see the module doc)."""
    side = state[SIDE]
    undo[ply, 0] = move
    undo[ply, 1] = side
    if move != PASS:
        f = move >> 7
        t = move & 127
        state[t] = state[f]
        state[f] = 0
        corner = CORNER[state[SIZE] - 2, t]
        owner = OWNER[state[PLAYERS], corner] if corner >= 0 else -1
        if owner >= 0 and _has_won(state, corner, owner):
            state[WINNER] = owner
    state[PLY] += 1
    state[SIDE] = (side + 1) % state[PLAYERS]


@njit(cache=True, forceinline=True)
def unmake(state: np.ndarray, undo: np.ndarray, ply: int) -> None:
    """Take back the move made by :func:`make` at ``ply``."""
    move = undo[ply, 0]
    if move != PASS:
        f = move >> 7
        t = move & 127
        state[f] = state[t]
        state[t] = 0
    state[WINNER] = -1  # a move is made only while nobody has won
    state[PLY] -= 1
    state[SIDE] = undo[ply, 1]


@njit(cache=True, forceinline=True)
def pass_to(state: np.ndarray, player: int) -> int:
    """Hand the turn to ``player`` (Best-Reply Search); returns who was to move."""
    previous = state[SIDE]
    state[SIDE] = player
    return previous


@njit(cache=True, forceinline=True)
def remaining(state: np.ndarray, player: int) -> int:
    """The steps ``player``'s pieces are from its home's tip, summed."""
    s = state[SIZE] - 2
    home = HOME[state[PLAYERS], player]
    total = 0
    for c in range(NCELLS[s]):
        if state[c] == player + 1:
            total += DIST[s, home, c]
    return total


@njit(cache=True, forceinline=True)
def returns(state: np.ndarray, out: np.ndarray) -> None:
    """At the end: +1 for the winner and -1 for every other player; after the last
    move without a winner, +1 for the player whose pieces have the fewest steps left
    to their home's tip, 0 for each of several sharing the fewest, -1 for the others.
    Entries past the players are 0."""
    players = state[PLAYERS]
    for p in range(4):
        out[p] = 0.0
    winner = state[WINNER]
    if winner >= 0:
        for p in range(players):
            out[p] = 1.0 if p == winner else -1.0
        return
    best = 1 << 30
    for p in range(players):  # each player's steps left, counted once
        out[p] = remaining(state, p)
        best = min(best, out[p])
    leaders = 0
    for p in range(players):
        leaders += out[p] == best
    for p in range(players):
        if out[p] == best:
            out[p] = 1.0 if leaders == 1 else 0.0
        else:
            out[p] = -1.0


@njit(cache=True, forceinline=True)
def key(state: np.ndarray) -> int:
    """The Zobrist key of the pieces, the player to move and the moves played."""
    k = SIDE_KEYS[state[SIDE]] ^ PLY_KEYS[min(state[PLY], MAX_LIMIT)]
    for c in range(NCELLS[state[SIZE] - 2]):
        v = state[c]
        if v:
            k ^= PIECE_KEYS[v - 1, c]
    return k
