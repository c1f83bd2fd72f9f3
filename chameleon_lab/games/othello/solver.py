"""An exact Othello endgame solver: the final disc difference with perfect play.

The value is the kernel's: the final disc difference for the player to move, the empty
squares of a finished game counted for the winner
(:func:`chameleon_lab.games.othello.kernel.returns`),
for Othello and for the Reversi variant alike (their rules differ only while fewer than
four discs lie; such positions, 61 or more empty squares away from the end, are refused).

The search follows the strong endgame solvers (Edax, and the literature it rests on):

* Positions are two ``uint64`` bitboards ``P`` (the player to move) and ``O``; a move's
  flips are computed from per-square ray masks (the nearest non-opponent square of each
  ray found by a bit scan), so no undo record is needed: the child is ``(O & ~f,
  P | f | bit)``. Popcount and bit scans are LLVM intrinsics (single instructions).
* Negamax alpha-beta, fail-soft, with principal variation search: in a window wider
  than one point the first move is searched with the full window, the others with a
  null window and again only when they fail high.
* With more than :data:`SHALLOW` empty squares: a transposition table of exact lower
  and upper bounds (sound for any window, since every value is the game's final
  value), keyed by the full boards (no collisions), two entries per bucket; the
  table's move first, then fastest-first ordering (the move leaving the opponent the
  fewest moves, corners counted twice; ties to the square with fewer empty
  neighbours); and a stability cut-off: the opponent's stable discs (a cheap sufficient
  rule: full edges and edge runs from its corners) cap the score, which answers a
  null window far above it at once (the positions where one side keeps passing).
* With :data:`SHALLOW` or fewer: no table and no move generation, the empty squares
  are tried directly, odd quadrants first (the parity heuristic), skipping squares
  with no opponent neighbour; two empties and the last empty have their own code, the
  last one only counting the flips of the mover (or of the opponent if it must pass).
* A player without a move passes; the game ends when neither has one.

The statistics match :mod:`chameleon_lab.search.solve`'s: expanded (positions whose
moves were tried), evaluated (finished positions scored, the last-empty positions
included) and table cut-offs (the stability cut-offs included).

The functions that recurse are compiled per process (numba's cache of recursive
functions crashed when loaded back: a segmentation fault on the first call), so the
first solve of a process compiles for about ten seconds; ``Solution.seconds`` is
the search alone. The tables are kept between solves and cleared before each.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from ..bits import leading_zeros as _clz
from ..bits import lowest_bit_index as _ctz
from ..bits import popcount as _popcnt
from ..solution import Solution, check_solver_tt_bits
from . import kernel as K

#: At most this many empty squares: the shallow search (no table, parity ordering).
SHALLOW = 6
#: Default transposition-table size: 2**TT_BITS entries.
TT_BITS = 20
#: The stability cut-off is tried from this alpha on (a high score to disprove).
_STABILITY_ALPHA = 8
#: Above any score (scores lie in -64..64). Typed, as the ply below: a literal argument
#: compiles a function once more (see "Literal arguments" in games.specialise).
_INF = np.int64(99)
_PLY1 = np.int64(1)

_U = np.uint64
_Z = _U(0)
_ONE = _U(1)
_INNER = _U(0x7E7E7E7E7E7E7E7E)  # files b..g
_CORNERS = _U(0x8100000000000081)
_NOT_A = _U(0xFEFEFEFEFEFEFEFE)  # every square but file a
_NOT_H = _U(0x7F7F7F7F7F7F7F7F)  # every square but file h


# ------------------------------------------------------------------ tables
def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Ray masks (four directions towards higher, four towards lower squares), the
    8-neighbourhood of every square, each square's quadrant bit, and the union of the
    quadrants whose bits a 4-bit parity word sets."""
    up = ((0, 1), (1, 0), (1, 1), (1, -1))  # +1, +8, +9, +7
    down = ((0, -1), (-1, 0), (-1, -1), (-1, 1))  # -1, -8, -9, -7
    rays_up = np.zeros((64, 4), dtype=np.uint64)
    rays_down = np.zeros((64, 4), dtype=np.uint64)
    neighbours = np.zeros(64, dtype=np.uint64)
    quadrant = np.zeros(64, dtype=np.int64)
    for sq in range(64):
        r0, c0 = divmod(sq, 8)
        for table, dirs in ((rays_up, up), (rays_down, down)):
            for d, (dr, dc) in enumerate(dirs):
                bits = 0
                r, c = r0 + dr, c0 + dc
                while 0 <= r < 8 and 0 <= c < 8:
                    bits |= 1 << (r * 8 + c)
                    r, c = r + dr, c + dc
                table[sq, d] = bits
        near = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r, c = r0 + dr, c0 + dc
                if (dr or dc) and 0 <= r < 8 and 0 <= c < 8:
                    near |= 1 << (r * 8 + c)
        neighbours[sq] = near
        quadrant[sq] = 1 << ((r0 >= 4) * 2 + (c0 >= 4))
    quad_masks = np.zeros(16, dtype=np.uint64)
    for parity in range(16):
        mask = 0
        for sq in range(64):
            if parity & quadrant[sq]:
                mask |= 1 << sq
        quad_masks[parity] = mask
    return rays_up, rays_down, neighbours, quadrant, quad_masks


_RAYS_UP, _RAYS_DOWN, _NEIGHBOURS, _QUADRANT, _QUAD_MASKS = _tables()


# ------------------------------------------------------------------ board primitives
@njit(cache=True, forceinline=True)
def _flips(sq, p, o):
    """The discs of ``o`` that a disc of ``p`` placed on the empty square ``sq`` flips."""
    out = _Z
    for d in range(4):
        ray = _RAYS_UP[sq, d]
        stop = ray & ~o  # the nearest of these, towards higher squares, ends the run
        first = stop & (_Z - stop)
        if first & p:
            out |= ray & (first - _ONE)
        ray = _RAYS_DOWN[sq, d]
        stop = (ray & ~o) | _ONE  # bit 0 as a sentinel when the ray is all opponent
        last = _ONE << (_U(63) - _clz(stop))
        if last & p & ray:
            out |= ray & ~(last | (last - _ONE))
    return out


@njit(cache=True, forceinline=True)
def _mobility(p, o):
    """The empty squares where ``p`` may place a disc (six-step shift fills, files b..g
    masked for the directions that would wrap around a file edge)."""
    inner = o & _INNER
    moves = _Z
    for shift, mask in ((_U(1), inner), (_U(8), o), (_U(7), inner), (_U(9), inner)):
        t = mask & (p << shift)
        t |= mask & (t << shift)
        t |= mask & (t << shift)
        t |= mask & (t << shift)
        t |= mask & (t << shift)
        t |= mask & (t << shift)
        moves |= t << shift
        t = mask & (p >> shift)
        t |= mask & (t >> shift)
        t |= mask & (t >> shift)
        t |= mask & (t >> shift)
        t |= mask & (t >> shift)
        t |= mask & (t >> shift)
        moves |= t >> shift
    return moves & ~(p | o)


@njit(cache=True, forceinline=True)
def _final(p, o):
    """The score of a finished game for ``p``: the disc difference, empties to the winner."""
    np_ = np.int64(_popcnt(p))
    no = np.int64(_popcnt(o))
    empty = 64 - np_ - no
    if np_ > no:
        return np_ - no + empty
    if np_ < no:
        return np_ - no - empty
    return np.int64(0)


@njit(cache=True, forceinline=True)
def _parity(empty):
    """The 4-bit quadrant parity word of the empty squares (bit set: odd count)."""
    parity = 0
    for q in range(4):
        if _popcnt(empty & _QUAD_MASKS[1 << q]) & _ONE:
            parity |= 1 << q
    return parity


@njit(cache=True, forceinline=True)
def _edge_stable(o, filled):
    """Discs of ``o`` that can never flip, by a cheap sufficient rule: discs on a full
    edge, and runs along an edge anchored on a corner of ``o``."""
    s = o & _CORNERS
    for edge in (_U(0xFF), _U(0xFF00000000000000), _U(0x0101010101010101), _U(0x8080808080808080)):
        if filled & edge == edge:
            s |= o & edge
    rows = o & _U(0xFF000000000000FF)
    cols = o & _U(0x8181818181818181)
    for _ in range(6):
        s |= rows & (
            ((s << _ONE) & _U(0xFEFEFEFEFEFEFEFE)) | ((s >> _ONE) & _U(0x7F7F7F7F7F7F7F7F))
        )
        s |= cols & ((s << _U(8)) | (s >> _U(8)))
    return np.int64(_popcnt(s))


# ------------------------------------------------------------------ the last empties
@njit(cache=True, _nrt=False)
def _solve1(p, o, sq, stats):
    """The exact score for ``p`` with one empty square ``sq``: count the flips."""
    stats[1] += 1
    n_p = np.int64(_popcnt(p))
    if _NEIGHBOURS[sq] & o:
        n = np.int64(_popcnt(_flips(sq, p, o)))
        if n:
            return 2 * (n_p + n + 1) - 64
    if _NEIGHBOURS[sq] & p:
        n = np.int64(_popcnt(_flips(sq, o, p)))
        if n:
            return 2 * (n_p - n) - 64
    # neither can move: 63 discs, the empty square to the winner
    return 2 * n_p - 62 if 2 * n_p > 63 else 2 * n_p - 64


@njit(cache=True, _nrt=False)
def _solve2(p, o, alpha, beta, sq1, sq2, stats):
    """The score for ``p`` with the two empty squares ``sq1`` and ``sq2`` (fail-soft)."""
    stats[0] += 1
    best = -_INF
    for k in range(2):
        sq, other = (sq1, sq2) if k == 0 else (sq2, sq1)
        if _NEIGHBOURS[sq] & o:
            f = _flips(sq, p, o)
            if f:
                v = -_solve1(o & ~f, p | f | (_ONE << _U(sq)), other, stats)
                if v > best:
                    best = v
                    if v >= beta:
                        return v
    if best > -_INF:
        return best
    # p passes: the opponent moves (a minimum for p), or the game is over
    worst = _INF
    for k in range(2):
        sq, other = (sq1, sq2) if k == 0 else (sq2, sq1)
        if _NEIGHBOURS[sq] & p:
            f = _flips(sq, o, p)
            if f:
                v = _solve1(p & ~f, o | f | (_ONE << _U(sq)), other, stats)
                if v < worst:
                    worst = v
                    if v <= alpha:
                        return v
    if worst < _INF:
        return worst
    stats[1] += 1
    return _final(p, o)


@njit(_nrt=False)
def _shallow(p, o, alpha, beta, n_empty, parity, stats):
    """Fail-soft alpha-beta for 3 to :data:`SHALLOW` empties: the empty squares tried
    directly, those of odd quadrants first; no table."""
    stats[0] += 1
    empty = ~(p | o)
    best = -_INF
    odd = _QUAD_MASKS[parity]
    for group in range(2):
        bits = empty & odd if group == 0 else empty & ~odd
        while bits:
            sq = _ctz(bits)
            bit = _ONE << sq
            bits ^= bit
            if not _NEIGHBOURS[sq] & o:
                continue
            f = _flips(sq, p, o)
            if not f:
                continue
            if n_empty == 3:
                rest = empty ^ bit
                s1 = _ctz(rest)
                s2 = _ctz(rest & (rest - _ONE))
                v = -_solve2(o & ~f, p | f | bit, -beta, -alpha, s1, s2, stats)
            else:
                v = -_shallow(
                    o & ~f, p | f | bit, -beta, -alpha, n_empty - 1, parity ^ _QUADRANT[sq], stats
                )
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        return best
    if best > -_INF:
        return best
    if _mobility(o, p):
        return -_shallow(o, p, -beta, -alpha, n_empty, parity, stats)
    stats[1] += 1
    return _final(p, o)


# ------------------------------------------------------------------ the table
@njit(cache=True, forceinline=True)
def _slot(p, o, mask):
    """The first entry of the bucket of ``(p, o)`` (buckets are two entries)."""
    h = p * _U(0x9E3779B97F4A7C15) ^ o * _U(0xD6E8FEB86659FD93)
    h ^= h >> _U(29)
    return np.int64(h & mask) & ~1


@njit(cache=True, forceinline=True)
def _pack(lo, hi, move, n_empty):
    """An entry's bounds, best move (-1 none) and empties in one ``int64``."""
    return (lo + 64) | ((hi + 64) << 8) | ((move + 1) << 16) | (n_empty << 24)


# ------------------------------------------------------------------ the deep search
@njit(_nrt=False)
def _search(p, o, alpha, beta, n_empty, ply, buf, tt_p, tt_o, tt_info, stats):
    """Fail-soft principal variation search with the table and fastest-first ordering,
    for more than :data:`SHALLOW` empties. ``buf[ply]`` holds this node's moves
    (``buf[ply, 0, i]`` square, ``[1, i]`` ordering key, ``[2, i]`` flips)."""
    stats[0] += 1
    mask = _U(tt_p.shape[0] - 1)
    slot = _slot(p, o, mask)
    tt_move = -1
    for s in range(slot, slot + 2):
        if tt_p[s] == p and tt_o[s] == o:
            info = tt_info[s]
            lo = (info & 255) - 64
            hi = ((info >> 8) & 255) - 64
            if lo >= beta or hi <= alpha or lo == hi:
                stats[2] += 1
                return lo if lo >= beta or lo == hi else hi
            tt_move = ((info >> 16) & 255) - 1
    if alpha >= _STABILITY_ALPHA:  # the opponent's stable discs cap the score
        cap = 64 - 2 * _edge_stable(o, p | o)
        if cap <= alpha:
            stats[2] += 1
            return cap
    moves = _mobility(p, o)
    empty = ~(p | o)
    if not moves:
        if _mobility(o, p):
            return -_search(o, p, -beta, -alpha, n_empty, ply + 1, buf, tt_p, tt_o, tt_info, stats)
        stats[1] += 1
        return _final(p, o)
    n = 0
    while moves:
        sq = _ctz(moves)
        bit = _ONE << sq
        moves ^= bit
        f = _flips(sq, p, o)
        if np.int64(sq) == tt_move:
            key = -1
        else:
            reply = _mobility(o & ~f, p | f | bit)
            key = 4 * np.int64(_popcnt(reply) + _popcnt(reply & _CORNERS))
            key += np.int64(_popcnt(_NEIGHBOURS[sq] & empty)) >> 1  # fewer frontier holes
        buf[ply, 0, n] = np.int64(sq)
        buf[ply, 1, n] = key
        buf[ply, 2, n] = np.int64(f)
        n += 1
    alpha0 = alpha
    best = -_INF
    best_sq = -1
    for i in range(n):
        j = i
        for k in range(i + 1, n):
            if buf[ply, 1, k] < buf[ply, 1, j]:
                j = k
        sq = buf[ply, 0, j]
        f = _U(buf[ply, 2, j])
        buf[ply, 0, j] = buf[ply, 0, i]
        buf[ply, 1, j] = buf[ply, 1, i]
        buf[ply, 2, j] = buf[ply, 2, i]
        bit = _ONE << _U(sq)
        cp = o & ~f
        co = p | f | bit
        if n_empty - 1 <= SHALLOW:
            par = _parity(~(cp | co))
            if i == 0 or beta - alpha == 1:
                v = -_shallow(cp, co, -beta, -alpha, n_empty - 1, par, stats)
            else:
                v = -_shallow(cp, co, -alpha - 1, -alpha, n_empty - 1, par, stats)
                if alpha < v < beta:
                    v = -_shallow(cp, co, -beta, -alpha, n_empty - 1, par, stats)
        elif i == 0 or beta - alpha == 1:
            v = -_search(
                cp, co, -beta, -alpha, n_empty - 1, ply + 1, buf, tt_p, tt_o, tt_info, stats
            )
        else:
            v = -_search(
                cp, co, -alpha - 1, -alpha, n_empty - 1, ply + 1, buf, tt_p, tt_o, tt_info, stats
            )
            if alpha < v < beta:
                v = -_search(
                    cp, co, -beta, -alpha, n_empty - 1, ply + 1, buf, tt_p, tt_o, tt_info, stats
                )
        if v > best:
            best = v
            best_sq = sq
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    # store the bound (tightening an entry of the same position, else replacing the
    # entry of the bucket nearer the end of the game)
    lo = best if best > alpha0 else -64
    hi = best if best < beta else 64
    target = -1
    for s in range(slot, slot + 2):
        if tt_p[s] == p and tt_o[s] == o:
            info = tt_info[s]
            lo = max(lo, (info & 255) - 64)
            hi = min(hi, ((info >> 8) & 255) - 64)
            target = s
    if target < 0:
        e0 = (tt_info[slot] >> 24) & 255
        e1 = (tt_info[slot + 1] >> 24) & 255
        target = slot if e0 <= e1 else slot + 1
    tt_p[target] = p
    tt_o[target] = o
    tt_info[target] = _pack(lo, hi, best_sq, n_empty)
    return best


@njit(_nrt=False)
def _value(p, o, alpha, beta, n_empty, ply, buf, tt_p, tt_o, tt_info, stats):
    """The score of any position by the search suited to its number of empties."""
    empty = ~(p | o)
    if n_empty == 0:
        stats[1] += 1
        return _final(p, o)
    if n_empty == 1:
        return _solve1(p, o, _ctz(empty), stats)
    if n_empty == 2:
        return _solve2(p, o, alpha, beta, _ctz(empty), _ctz(empty & (empty - _ONE)), stats)
    if n_empty <= SHALLOW:
        return _shallow(p, o, alpha, beta, n_empty, _parity(empty), stats)
    return _search(p, o, alpha, beta, n_empty, ply, buf, tt_p, tt_o, tt_info, stats)


@njit(_nrt=False)
def _root(p, o, buf, tt_p, tt_o, tt_info, stats, result):
    """Solve ``(p, o)``: ``result[0]`` the exact score, ``result[1]`` a best move
    (a square, 64 for a pass, -1 when the game is over)."""
    n_empty = 64 - np.int64(_popcnt(p | o))
    ply1 = _PLY1  # the children's ply, typed
    moves = _mobility(p, o)
    if not moves:
        if _mobility(o, p):
            result[0] = -_value(o, p, -_INF, _INF, n_empty, ply1, buf, tt_p, tt_o, tt_info, stats)
            result[1] = 64
        else:
            stats[1] += 1
            result[0] = _final(p, o)
            result[1] = -1
        return
    stats[0] += 1
    n = 0
    while moves:  # fastest first
        sq = _ctz(moves)
        bit = _ONE << sq
        moves ^= bit
        f = _flips(sq, p, o)
        reply = _mobility(o & ~f, p | f | bit)
        buf[0, 0, n] = np.int64(sq)
        buf[0, 1, n] = np.int64(_popcnt(reply) + _popcnt(reply & _CORNERS))
        buf[0, 2, n] = np.int64(f)
        n += 1
    alpha = -_INF
    best = -_INF
    best_sq = -1
    for i in range(n):
        j = i
        for k in range(i + 1, n):
            if buf[0, 1, k] < buf[0, 1, j]:
                j = k
        sq = buf[0, 0, j]
        f = _U(buf[0, 2, j])
        buf[0, 0, j] = buf[0, 0, i]
        buf[0, 1, j] = buf[0, 1, i]
        buf[0, 2, j] = buf[0, 2, i]
        cp = o & ~f
        co = p | f | (_ONE << _U(sq))
        if i == 0:
            v = -_value(cp, co, -_INF, _INF, n_empty - 1, ply1, buf, tt_p, tt_o, tt_info, stats)
        else:
            v = -_value(
                cp, co, -alpha - 1, -alpha, n_empty - 1, ply1, buf, tt_p, tt_o, tt_info, stats
            )
            if v > alpha:
                v = -_value(
                    cp, co, -_INF, -alpha, n_empty - 1, ply1, buf, tt_p, tt_o, tt_info, stats
                )
        if v > best:
            best = v
            best_sq = sq
            alpha = v
    result[0] = best
    result[1] = best_sq


# ------------------------------------------------------------------ the Python side
_TABLES: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _tables_for(tt_bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cleared tables of ``2**tt_bits`` entries (at least one bucket), kept between
    solves: clearing touches every page before the clock starts, where fresh zeroed
    memory would fault page by page inside the timed search."""
    size = 1 << max(tt_bits, 1)
    if size not in _TABLES:
        _TABLES.clear()  # keep one size only
        _TABLES[size] = (
            np.empty(size, dtype=np.uint64),
            np.empty(size, dtype=np.uint64),
            np.empty(size, dtype=np.int64),
        )
    tables = _TABLES[size]
    for table in tables:
        table.fill(0)
    return tables


_COMPILED = False
#: Rows of the move buffer: a placement or a pass per ply, at most two plies per empty.
_MAX_PLY = 130


def _compile() -> None:
    """Compile (or load from numba's cache) before anything is timed."""
    global _COMPILED
    if not _COMPILED:
        # eight empties on rank 1, the opponent on rank 2, the mover below
        solve_boards(0xFFFFFFFFFFFF0000, 0xFF00, tt_bits=4, _warm=True)
        _COMPILED = True


def solve_boards(
    own: int, opp: int, *, tt_bits: int = TT_BITS, _warm: bool = False
) -> tuple[int, int, np.ndarray, float]:
    """Solve the position with discs ``own`` (the player to move) and ``opp`` (64-bit
    boards, bit ``row * 8 + col``): (score for the player to move, best move, stats
    [expanded, evaluated, table cut-offs], seconds of search)."""
    if own & opp:
        raise ValueError("the two boards share a square")
    if not _warm:
        _compile()
    buf = np.zeros((_MAX_PLY, 3, 64), dtype=np.int64)
    tt_p, tt_o, tt_info = _tables_for(tt_bits)
    stats = np.zeros(3, dtype=np.int64)
    result = np.zeros(2, dtype=np.int64)
    start = time.perf_counter()
    _root(_U(own), _U(opp), buf, tt_p, tt_o, tt_info, stats, result)
    seconds = time.perf_counter() - start
    return int(result[0]), int(result[1]), stats, seconds


def solve_state(game, state: np.ndarray, *, tt_bits: int = TT_BITS) -> Solution:
    """The exact value of an Othello (or Reversi) kernel state for the player to move,
    with a best move (a square, ``PASS``, or -1 once over).

    ``ValueError`` for a position still in the Reversi opening (fewer than four discs):
    the endgame solver does not play the opening's placements, and such a position is
    61 or more empty squares from the end, far beyond exact search.
    """
    check_solver_tt_bits(tt_bits)
    state = np.asarray(state, dtype=np.int64)
    black = K.board_bits(state[K.BLACK])
    white = K.board_bits(state[K.WHITE])
    if bin(black | white).count("1") < 4:
        raise ValueError(
            "the position is in the reversi opening (fewer than 4 discs): the othello "
            "endgame solver starts once the four centre discs lie"
        )
    side = int(state[K.SIDE])
    own, opp = (black, white) if side == 0 else (white, black)
    value, move, stats, seconds = solve_boards(own, opp, tt_bits=tt_bits)
    return Solution(float(value), move, int(stats[0]), int(stats[1]), int(stats[2]), seconds)
