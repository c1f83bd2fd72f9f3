"""The compiled Chameleon Chess kernel: move generation, make/unmake and perft.

The whole position lives in one flat ``int64`` array (the *state*), so compiled code
passes a single argument and never allocates in its inner loops. Pawns occupy fixed
*slots* in the original program's pawn-list order; a captured pawn is only marked dead,
so the surviving pawns keep their order exactly as the original list did, and taking a
move back is a matter of marking it alive again.

State layout (offsets are module constants):

* ``BOARD + sq``      slot + 1 of the pawn on square ``sq``, 0 if empty
* ``SQ + s``          square of slot ``s`` (kept after death, for unmake)
* ``KC + s``          knight colour of slot ``s`` (its colour-to-role mapping)
* ``PL + s``          player (colour) owning slot ``s``
* ``ALIVE + s``       1 while slot ``s`` is on the board
* ``NSLOTS``          number of slots in use
* ``ROWCNT + r``, ``COLCNT + c``   pawns per row and column (incremental bounding box)
* ``PCOUNT + p``      pawns of player ``p``
* ``MINR``, ``MAXR``, ``MINC``, ``MAXC``   the limits of the shrinking board
* ``TOMOVE``          player to move
* ``ROLEPTS + p``     role points of player ``p``'s pawns (``ROLE_POINTS`` of the roles
  their fields give them), kept up to date by every move so that the thesis's
  heuristics read a player's score instead of walking the pawns at every leaf

A move is the integer ``slot | (target_square << 4)``; from the state it determines the
moving pawn, its origin and the captured pawn (if any).

Make/unmake record what they change in one row of an ``undo`` table (``UNDO_SIZE``
columns), indexed by ply, so a search keeps one table for its whole depth.

Speed: numba takes a reference to each array argument on entry (an atomic
``NRT_incref`` call) and drops it on exit (``NRT_decref``); an LLVM pass removes such
pairs, but only where it can follow the control flow. In :func:`make_move` the call to
:func:`update_limits`, the ``break`` in the turn-order loop and the undo entry written
on one branch only each kept a pair alive, and those atomic calls cost more than the
rest of the move: without them perft runs about 2.5 times as fast. Hence the helpers
inlined (``forceinline=True``, see "Inlining" in :mod:`chameleon_lab.games.specialise`),
the loop without ``break`` and the undo writes on every path. After changing
:func:`make_move`, check that ``make_move.inspect_llvm(make_move.signatures[0])`` has no
``NRT_incref`` in its first function. The searches' node functions follow the same rule
(see :mod:`chameleon_lab.thesis.nodes`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..specialise import ROOT_PLY
from .board import FIELD_COLOUR, NEXT_PLAYER, ROLE_POINTS

MAX_PAWNS = 16
#: Upper bound of legal moves in any position: at most four pawns of the mover, each
#: with at most 27 targets (a queen in the centre of the empty board).
MAX_MOVES = 128

BOARD = 0
SQ = 64
KC = SQ + MAX_PAWNS
PL = KC + MAX_PAWNS
ALIVE = PL + MAX_PAWNS
NSLOTS = ALIVE + MAX_PAWNS
ROWCNT = NSLOTS + 1
COLCNT = ROWCNT + 8
PCOUNT = COLCNT + 8
MINR = PCOUNT + 4
MAXR = MINR + 1
MINC = MINR + 2
MAXC = MINR + 3
TOMOVE = MINR + 4
ROLEPTS = TOMOVE + 1
STATE_SIZE = ROLEPTS + 4

# Columns of one undo row.
U_MOVE = 0
U_FROM = 1
U_CAPTURED = 2
U_DEADLOCKED = 3
U_LIMITS = 4
U_TOMOVE = 8
U_ROLEPTS = 9  # the mover's role points before the move (unmake restores them as they were)
UNDO_SIZE = 10

KNIGHT = 0
QUEEN = 1
BISHOP = 2
ROOK = 3

# Knight offsets in the original generation order.
KNIGHT_DR = np.array([2, 1, -2, -1, 2, 1, -2, -1], dtype=np.int64)
KNIGHT_DC = np.array([1, 2, 1, 2, -1, -2, -1, -2], dtype=np.int64)
# Rays: the four bishop rays, then the four rook rays, in the original order.
RAY_DR = np.array([1, -1, 1, -1, 1, -1, 0, 0], dtype=np.int64)
RAY_DC = np.array([1, 1, -1, -1, 0, 0, 1, -1], dtype=np.int64)
# Which rays a role walks, indexed by role: (unused for the knight), queen, bishop, rook.
RAY_FIRST = np.array([0, 0, 0, 4], dtype=np.int64)
RAY_END = np.array([0, 8, 4, 8], dtype=np.int64)

_FIELD_COLOUR = FIELD_COLOUR.copy()
_NEXT_PLAYER = NEXT_PLAYER.copy()
_ROLE_POINTS = ROLE_POINTS.copy()


def new_state() -> np.ndarray:
    """An all-zero state array (no pawns); fill it with ``add_pawn`` and friends."""
    return np.zeros(STATE_SIZE, dtype=np.int64)


def move_slot(move: int) -> int:
    """The slot of the pawn a move moves."""
    return int(move) & 15


def move_target(move: int) -> int:
    """The target square of a move."""
    return int(move) >> 4


def encode_move(slot: int, target: int) -> int:
    """The kernel's integer for moving pawn ``slot`` to square ``target``."""
    return int(slot) | (int(target) << 4)


@njit(cache=True)
def role_at(state: np.ndarray, slot: int) -> int:
    """Current role of a pawn: decided by the colour of the field it stands on."""
    return (_FIELD_COLOUR[state[SQ + slot]] - state[KC + slot]) & 3


@njit(cache=True, forceinline=True)
def role_points(state: np.ndarray, slot: int) -> int:
    """Role points of a pawn on its current square (also of a captured pawn, on the
    square it was taken on)."""
    return _ROLE_POINTS[(_FIELD_COLOUR[state[SQ + slot]] - state[KC + slot]) & 3]


@njit(cache=True, forceinline=True)
def _role_gain(state: np.ndarray, slot: int, origin: int, target: int) -> int:
    """Role points pawn ``slot`` gains by moving from square ``origin`` to ``target``."""
    kc = state[KC + slot]
    return (
        _ROLE_POINTS[(_FIELD_COLOUR[target] - kc) & 3]
        - _ROLE_POINTS[(_FIELD_COLOUR[origin] - kc) & 3]
    )


#: :data:`ROWCNT` and :data:`COLCNT` typed, for the line helpers' ``count``: a
#: literal int would compile each helper once more (``specialise``, "Literal arguments").
_ROWS = np.int64(ROWCNT)
#: See :data:`_ROWS`.
_COLS = np.int64(COLCNT)


@njit(cache=True, forceinline=True)
def _occupied(state: np.ndarray, count: int, low: int, high: int) -> tuple[int, int]:
    """The first and last occupied line between the limits ``low`` and ``high`` (rows:
    ``count`` = ``ROWCNT``; columns: ``COLCNT``), scanned inward: no pawn stands
    outside the limits, as :func:`~.rules.build_state` refuses such positions and moves
    stay inside."""
    while state[count + low] == 0:
        low += 1
    while state[count + high] == 0:
        high -= 1
    return low, high


#: :func:`quiet_gain` of a move that may remove a pawn.
NOT_QUIET = -1000


@njit(cache=True, forceinline=True)
def _span_after(
    state: np.ndarray, count: int, low: int, high: int, origin: int, target: int
) -> int:
    """Rows (``count`` = ``ROWCNT``) or columns (``COLCNT``) the pawns' bounding box
    spans, minus one, after a pawn moves from line ``origin`` to line ``target`` without
    capturing; ``low`` and ``high`` are the limits, which hold every pawn."""
    low, high = _occupied(state, count, low, high)
    if state[count + origin] == 1:  # the mover leaves its line empty
        if origin == low and origin != high:
            low += 1
            while state[count + low] == 0:
                low += 1
        elif origin == high and origin != low:
            high -= 1
            while state[count + high] == 0:
                high -= 1
    return max(high, target) - min(low, target)


@njit(cache=True, forceinline=True)
def quiet_gain(state: np.ndarray, move: int) -> int:
    """The role points the mover gains by ``move`` if it removes no pawn, else
    :data:`NOT_QUIET`; without making it (for heuristics' incremental forms).

    A move removes no pawn when it captures none and the deadlock rule cannot take one.
    That rule acts only under 3x3 limits, and the limits never shrink inside the pawns'
    bounding box: a move that captures nothing and leaves the box at least four rows or
    columns wide removes no pawn, and only the mover's role points change (the player
    to move and possibly the limits change too). Other quiet moves (into a box of 3x3
    or less) answer :data:`NOT_QUIET` as well, and callers then make them.
    """
    s = move & 15
    t = move >> 4
    if state[BOARD + t] != 0:
        return NOT_QUIET
    frm = state[SQ + s]
    minr = state[MINR]
    maxr = state[MAXR]
    fr = frm >> 3
    # the common case first: pawns on both limit rows, four or more rows apart, and the
    # mover not alone on either, so the other pawns keep the box's rows
    wide = (
        maxr - minr >= 3
        and state[ROWCNT + minr] > 0
        and state[ROWCNT + maxr] > 0
        and (minr < fr < maxr or state[ROWCNT + fr] >= 2)
    )
    if (
        not wide
        and _span_after(state, _ROWS, minr, maxr, fr, t >> 3) < 3
        and _span_after(state, _COLS, state[MINC], state[MAXC], frm & 7, t & 7) < 3
    ):
        return NOT_QUIET
    return _role_gain(state, s, frm, t)


@njit(cache=True)
def players_alive(state: np.ndarray) -> int:
    """Number of players that still have pawns."""
    n = 0
    for p in range(4):
        if state[PCOUNT + p] > 0:
            n += 1
    return n


@njit(cache=True)
def is_over(state: np.ndarray) -> bool:
    """A game is over when all remaining pawns belong to one player."""
    return players_alive(state) <= 1


@njit(cache=True)
def count_targets(state: np.ndarray, s: int) -> int:
    """Number of targets pawn ``s`` has, whoever is to move (``countPawns100Moves``).

    The same walk as :func:`generate_moves`, counting instead of writing. The two are
    kept apart on purpose: sharing one routine with a write flag cost perft speed
    (``docs/benchmarks.md``, "Measurements behind the design").
    """
    p = state[PL + s]
    minr = state[MINR]
    maxr = state[MAXR]
    minc = state[MINC]
    maxc = state[MAXC]
    sq = state[SQ + s]
    r = sq >> 3
    c = sq & 7
    role = (_FIELD_COLOUR[sq] - state[KC + s]) & 3
    n = 0
    if role == KNIGHT:
        for k in range(8):
            tr = r + KNIGHT_DR[k]
            tc = c + KNIGHT_DC[k]
            if minr <= tr <= maxr and minc <= tc <= maxc:
                occ = state[BOARD + tr * 8 + tc]
                if occ == 0 or state[PL + occ - 1] != p:
                    n += 1
    else:
        for d in range(RAY_FIRST[role], RAY_END[role]):
            dr = RAY_DR[d]
            dc = RAY_DC[d]
            tr = r + dr
            tc = c + dc
            while minr <= tr <= maxr and minc <= tc <= maxc:
                occ = state[BOARD + tr * 8 + tc]
                if occ != 0:
                    if state[PL + occ - 1] != p:
                        n += 1
                    break
                n += 1
                tr += dr
                tc += dc
    return n


@njit(cache=True)
def generate_moves(state: np.ndarray, moves: np.ndarray, ply: int) -> int:
    """Write the legal moves into ``moves[ply, :]`` in the original order; return their count.

    Pawn by pawn in list order; knights try their eight jumps in the fixed order, the
    sliding roles walk their rays in the fixed order, each target inside the limits.
    """
    p = state[TOMOVE]
    minr = state[MINR]
    maxr = state[MAXR]
    minc = state[MINC]
    maxc = state[MAXC]
    n = 0
    for s in range(state[NSLOTS]):
        if state[ALIVE + s] == 0 or state[PL + s] != p:
            continue
        sq = state[SQ + s]
        r = sq >> 3
        c = sq & 7
        role = (_FIELD_COLOUR[sq] - state[KC + s]) & 3
        if role == KNIGHT:
            for k in range(8):
                tr = r + KNIGHT_DR[k]
                tc = c + KNIGHT_DC[k]
                if tr < minr or tr > maxr or tc < minc or tc > maxc:
                    continue
                t = tr * 8 + tc
                occ = state[BOARD + t]
                if occ != 0 and state[PL + occ - 1] == p:
                    continue
                moves[ply, n] = s | (t << 4)
                n += 1
        else:
            for d in range(RAY_FIRST[role], RAY_END[role]):
                dr = RAY_DR[d]
                dc = RAY_DC[d]
                tr = r + dr
                tc = c + dc
                while minr <= tr <= maxr and minc <= tc <= maxc:
                    t = tr * 8 + tc
                    occ = state[BOARD + t]
                    if occ == 0:
                        moves[ply, n] = s | (t << 4)
                        n += 1
                    else:
                        if state[PL + occ - 1] != p:
                            moves[ply, n] = s | (t << 4)
                            n += 1
                        break
                    tr += dr
                    tc += dc
    return n


@njit(cache=True)
def player_of(state: np.ndarray) -> int:
    """The player to move, or -1 once the game is over (the search protocol's status)."""
    if players_alive(state) <= 1:
        return -1
    return state[TOMOVE]


@njit(cache=True)
def pass_to(state: np.ndarray, player: int) -> int:
    """Hand the turn to ``player``, as if the players between had passed; return who
    was to move (Best-Reply Search's turn change; the game's rules never pass). The
    turn is all the state keeps of the order of play, so ``pass_to(state, previous)``
    restores the position exactly."""
    previous = state[TOMOVE]
    state[TOMOVE] = player
    return previous


@njit(cache=True)
def _remove_pawn(state: np.ndarray, slot: int) -> None:
    sq = state[SQ + slot]
    state[BOARD + sq] = 0
    state[ALIVE + slot] = 0
    state[PCOUNT + state[PL + slot]] -= 1
    state[ROLEPTS + state[PL + slot]] -= role_points(state, slot)
    state[ROWCNT + (sq >> 3)] -= 1
    state[COLCNT + (sq & 7)] -= 1


@njit(cache=True)
def _restore_pawn(state: np.ndarray, slot: int) -> None:
    sq = state[SQ + slot]
    state[BOARD + sq] = slot + 1
    state[ALIVE + slot] = 1
    state[PCOUNT + state[PL + slot]] += 1
    state[ROLEPTS + state[PL + slot]] += role_points(state, slot)
    state[ROWCNT + (sq >> 3)] += 1
    state[COLCNT + (sq & 7)] += 1


@njit(cache=True, forceinline=True)  # inlined: see "Speed" at the top
def update_limits(state: np.ndarray) -> None:
    """Shrink the limits to the pawns' bounding box, grown back to at least 3x3.

    Limits that are already 3x3 stay. Otherwise the bounding box of all pawns is taken
    (``_occupied``) and, while it has fewer than three rows or columns, grown one
    field at a time in the original order (top, bottom, left, right), never beyond the
    old limits.
    """
    ominr = state[MINR]
    omaxr = state[MAXR]
    ominc = state[MINC]
    omaxc = state[MAXC]
    if omaxr - ominr == 2 and omaxc - ominc == 2:
        return
    minr, maxr = _occupied(state, _ROWS, ominr, omaxr)
    minc, maxc = _occupied(state, _COLS, ominc, omaxc)
    while maxr - minr < 2 or maxc - minc < 2:
        if maxr - minr < 2 and minr > ominr:
            minr -= 1
        if maxr - minr < 2 and maxr < omaxr:
            maxr += 1
        if maxc - minc < 2 and minc > ominc:
            minc -= 1
        if maxc - minc < 2 and maxc < omaxc:
            maxc += 1
    state[MINR] = minr
    state[MAXR] = maxr
    state[MINC] = minc
    state[MAXC] = maxc


@njit(cache=True, forceinline=True)  # inlined, and no ``break``: see "Speed" at the top
def _next_player(state: np.ndarray, p: int) -> int:
    """The next player after ``p`` in turn order who still has pawns (``p`` if none)."""
    q = _NEXT_PLAYER[p]
    while q != p and state[PCOUNT + q] <= 0:
        q = _NEXT_PLAYER[q]
    return q


@njit(cache=True)
def make_move(state: np.ndarray, move: int, undo: np.ndarray, ply: int) -> None:
    """Play ``move`` in place, recording in ``undo[ply]`` what :func:`unmake_move` needs.

    Order as in the original program: move (capturing), update the limits, apply the
    deadlock rule, choose the next player.
    """
    s = move & 15
    t = move >> 4
    frm = state[SQ + s]
    undo[ply, U_MOVE] = move
    undo[ply, U_FROM] = frm
    undo[ply, U_LIMITS] = state[MINR]
    undo[ply, U_LIMITS + 1] = state[MAXR]
    undo[ply, U_LIMITS + 2] = state[MINC]
    undo[ply, U_LIMITS + 3] = state[MAXC]
    undo[ply, U_TOMOVE] = state[TOMOVE]
    occ = state[BOARD + t]
    if occ != 0:
        undo[ply, U_CAPTURED] = occ - 1
        _remove_pawn(state, occ - 1)
    else:
        undo[ply, U_CAPTURED] = -1
    state[BOARD + frm] = 0
    state[ROWCNT + (frm >> 3)] -= 1
    state[COLCNT + (frm & 7)] -= 1
    mover = state[PL + s]
    undo[ply, U_ROLEPTS] = state[ROLEPTS + mover]
    state[ROLEPTS + mover] += _role_gain(state, s, frm, t)
    state[BOARD + t] = s + 1
    state[SQ + s] = t
    state[ROWCNT + (t >> 3)] += 1
    state[COLCNT + (t & 7)] += 1
    update_limits(state)
    dead = -1  # the undo row is written once below, on every path (see "Speed")
    if state[MAXR] - state[MINR] == 2 and state[MAXC] - state[MINC] == 2:
        centre = (state[MINR] + 1) * 8 + state[MINC] + 1
        occ = state[BOARD + centre]
        if occ != 0 and role_at(state, occ - 1) == KNIGHT and players_alive(state) >= 2:
            dead = occ - 1
            _remove_pawn(state, dead)
    undo[ply, U_DEADLOCKED] = dead
    state[TOMOVE] = _next_player(state, state[TOMOVE])


@njit(cache=True)
def unmake_move(state: np.ndarray, undo: np.ndarray, ply: int) -> None:
    """Take back the move recorded in ``undo[ply]``, restoring the state exactly."""
    move = undo[ply, U_MOVE]
    s = move & 15
    t = move >> 4
    frm = undo[ply, U_FROM]
    dead = undo[ply, U_DEADLOCKED]
    if dead >= 0:
        _restore_pawn(state, dead)
    state[BOARD + t] = 0
    state[ROWCNT + (t >> 3)] -= 1
    state[COLCNT + (t & 7)] -= 1
    state[BOARD + frm] = s + 1
    state[SQ + s] = frm
    state[ROWCNT + (frm >> 3)] += 1
    state[COLCNT + (frm & 7)] += 1
    cap = undo[ply, U_CAPTURED]
    if cap >= 0:
        _restore_pawn(state, cap)
    state[ROLEPTS + state[PL + s]] = undo[ply, U_ROLEPTS]  # also undoes a deadlocked own pawn
    state[MINR] = undo[ply, U_LIMITS]
    state[MAXR] = undo[ply, U_LIMITS + 1]
    state[MINC] = undo[ply, U_LIMITS + 2]
    state[MAXC] = undo[ply, U_LIMITS + 3]
    state[TOMOVE] = undo[ply, U_TOMOVE]


@njit(cache=True)
def perft(state: np.ndarray, depth: int) -> tuple[int, int]:
    """Count the leaves ``depth`` plies deep and the positions generated on the way.

    A finished game is a leaf at its own depth (``perft(p, 0) == 1`` and the perft of a
    finished position is 1). Every move is made and taken back, the last ply included.
    Iterative with an explicit stack: measured faster than recursion in numba. The
    state is restored on return.
    """
    if depth <= 0 or is_over(state):
        return 1, 0
    moves = np.empty((depth, MAX_MOVES), dtype=np.int64)
    count = np.empty(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    undo = np.empty((depth, UNDO_SIZE), dtype=np.int64)
    leaves = 0
    generated = 0
    ply = np.int64(0)  # typed, not a literal (see games.specialise)
    count[0] = generate_moves(state, moves, ROOT_PLY)
    last = depth - 1
    while ply >= 0:
        i = index[ply]
        if i < count[ply]:
            index[ply] = i + 1
            make_move(state, moves[ply, i], undo, ply)
            generated += 1
            # Only a removed pawn (captured or deadlocked) can end the game.
            if ply == last or (
                (undo[ply, U_CAPTURED] >= 0 or undo[ply, U_DEADLOCKED] >= 0)
                and players_alive(state) <= 1
            ):
                leaves += 1
                unmake_move(state, undo, ply)
            else:
                ply += 1
                index[ply] = 0
                count[ply] = generate_moves(state, moves, ply)
        else:
            ply -= 1
            if ply >= 0:
                unmake_move(state, undo, ply)
    return leaves, generated


@njit(cache=True)
def legal_moves(state: np.ndarray) -> np.ndarray:
    """The legal moves of a state as a fresh array (for Python callers, not hot loops)."""
    buf = np.empty((1, MAX_MOVES), dtype=np.int64)
    n = generate_moves(state, buf, ROOT_PLY)
    return buf[0, :n].copy()


@njit(cache=True)
def successor_states(state: np.ndarray) -> np.ndarray:
    """All successor states, one per row, in the original generation order."""
    state = state.copy()
    buf = np.empty((1, MAX_MOVES), dtype=np.int64)
    n = generate_moves(state, buf, ROOT_PLY)
    out = np.empty((n, state.shape[0]), dtype=np.int64)
    undo = np.empty((1, UNDO_SIZE), dtype=np.int64)
    for i in range(n):
        make_move(state, buf[0, i], undo, ROOT_PLY)
        out[i, :] = state
        unmake_move(state, undo, ROOT_PLY)
    return out


@njit(cache=True)
def played(state: np.ndarray, move: int) -> np.ndarray:
    """A copy of ``state`` with ``move`` played (the move must be legal)."""
    out = state.copy()
    undo = np.empty((1, UNDO_SIZE), dtype=np.int64)
    make_move(out, move, undo, ROOT_PLY)
    return out


@njit(cache=True)
def recount(state: np.ndarray) -> None:
    """Rebuild the board and the derived counters from the pawn slots."""
    for i in range(64):
        state[BOARD + i] = 0
    for i in range(8):
        state[ROWCNT + i] = 0
        state[COLCNT + i] = 0
    for p in range(4):
        state[PCOUNT + p] = 0
        state[ROLEPTS + p] = 0
    for s in range(state[NSLOTS]):
        if state[ALIVE + s] != 0:
            _restore_pawn(state, s)


@njit(cache=True)
def canonical(state: np.ndarray) -> np.ndarray:
    """A copy with the dead slots dropped and the living ones renumbered in order.

    Two states of the same position (same pawns in the same list order, same limits and
    player to move) are equal arrays after this, whatever their history of captures.
    """
    out = np.zeros_like(state)
    n = 0
    for s in range(state[NSLOTS]):
        if state[ALIVE + s] != 0:
            out[SQ + n] = state[SQ + s]
            out[KC + n] = state[KC + s]
            out[PL + n] = state[PL + s]
            out[ALIVE + n] = 1
            n += 1
    out[NSLOTS] = n
    out[MINR] = state[MINR]
    out[MAXR] = state[MAXR]
    out[MINC] = state[MINC]
    out[MAXC] = state[MAXC]
    out[TOMOVE] = state[TOMOVE]
    recount(out)
    return out
