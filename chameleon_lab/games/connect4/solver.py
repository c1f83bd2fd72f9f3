"""An exact Connect Four solver in the manner of Pascal Pons's (blog.gamesolver.org).

The value is the solvers' score the kernel's returns already use (positive: the side to
move wins; a win with the winner's last stone scores 1, each stone of theirs left
unplayed one more; 0 a draw), for every board :mod:`.kernel` allows
(4..9 x 4..9, ``width * (height + 1) <= 63``). On a board of ``cells`` cells with ``m``
stones down, winning with the next stone scores ``(cells + 1 - m) // 2``.

The search, as Pons describes it:

* The kernel's bitboards: ``pos`` the stones of the player to move, ``mask`` all
  stones, ``height + 1`` bits per column. A move's stone is one bit of ``(mask +
  bottom) & board``; the child is ``(pos ^ mask, mask | move)``. The cells that would
  complete four for a player come from shifted copies of their stones (no loops).
* Negamax alpha-beta, fail-soft inside the window Pons's bounds allow: a position whose
  mover cannot win at once scores at most ``(cells - 1 - m) // 2``; one whose opponent
  cannot win at once at least ``-((cells - 2 - m) // 2)``.
* Anticipation: a node never plays a move that loses at once. The opponent's winning
  cells are computed first; two playable ones lose, one playable one must be blocked,
  and no stone goes just below one. So no node's mover can win with the next stone:
  that case is decided by its parent (and at the root, before searching).
* A transposition table keyed by ``pos + mask`` (a perfect key for a board size, as
  the kernel's docstring explains), stored whole so there are no false hits, with a
  lower and an upper bound per entry (Pons keeps one of the two), one slot per key
  (Fibonacci hashing), always replaced. The table is allocated once and kept: each
  solve takes a new epoch, and entries written under another are ignored, which
  empties the table without touching it (so the module is not thread-safe).
* Moves in order of the winning cells they give the mover (more first), centre columns
  first among equals.
* The root narrows the score range with null-window searches (Pons's iterative
  narrowing, probing towards 0 and halfway to each end first).

The statistics count Pons's nodes (every call of the recursive search): ``expanded``
those that tried moves, ``evaluated`` those decided before trying any (a forced loss, a
draw by a full board, a window emptied by the bounds or by a table entry), and
``tt_hits`` the last kind.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import njit

from ..bits import popcount as _popcnt
from ..registry import Game
from ..solution import Solution, check_solver_tt_bits
from . import kernel as K

#: Default transposition-table size: 2**TT_BITS entries (8M, as in Pons's blog;
#: 16 bytes an entry, 128 MB).
TT_BITS = 23
#: Bound stored in an empty half of a table entry (beyond any score); typed, as a
#: literal would compile ``_store`` once more (``specialise``, "Literal arguments").
_NONE = np.int64(127)
#: Fibonacci hashing multiplier (2**64 / golden ratio), as a signed int64.
_GOLDEN = np.int64(0x9E3779B97F4A7C15 - (1 << 64))

# entries of the context array: board constants, table geometry, statistics, then the
# moves and their ordering scores, one row of 2 * MAX_SIDE entries per ply
_W, _H, _BOTTOM, _BOARD, _CELLS, _SHIFT, _TTMASK = 0, 1, 2, 3, 4, 5, 6
_NODES, _EVALUATED, _TT_HITS, _EPOCH = 7, 8, 9, 10
_ORDER = 11  # columns in order of preference, then (at _COLMASK) their cells
_COLMASK = _ORDER + K.MAX_SIDE
_MOVES = _COLMASK + K.MAX_SIDE
_ROW = 2 * K.MAX_SIDE
#: A table entry's second word: lower bound + _BIAS in bits 0..7, upper bound + _BIAS in
#: bits 8..15, the epoch of the solve that wrote it above.
_BIAS = 128
_EPOCH_SHIFT = 16
_EPOCH_BITS = -(1 << _EPOCH_SHIFT)


@njit(cache=True, forceinline=True, error_model="numpy")
def _shift_pairs(pos: int, s: int) -> int:
    """The cells completing four in the line direction of shift ``s`` (both ways)."""
    p = (pos << s) & (pos << (2 * s))
    r = p & (pos << (3 * s))
    r |= p & (pos >> s)
    p = (pos >> s) & (pos >> (2 * s))
    r |= p & (pos << s)
    r |= p & (pos >> (3 * s))
    return r


@njit(cache=True, forceinline=True, error_model="numpy")
def _winning_cells(pos: int, mask: int, height: int, board: int) -> int:
    """The empty cells where a stone would give the stones ``pos`` four in a row
    (playable now or not). Left shifts may carry bits past the board, even into the
    sign bit; the final ``& (board ^ mask)`` drops them all."""
    r = (pos << 1) & (pos << 2) & (pos << 3)  # vertical: three stones below
    r |= _shift_pairs(pos, height + 1)  # horizontal
    r |= _shift_pairs(pos, height)  # diagonal, down to the right
    r |= _shift_pairs(pos, height + 2)  # diagonal, up to the right
    return r & (board ^ mask)


@njit(cache=True, forceinline=True, error_model="numpy")
def _can_win_next(pos: int, mask: int, ctx: np.ndarray) -> bool:
    """Whether the mover has a playable cell completing four."""
    possible = (mask + ctx[_BOTTOM]) & ctx[_BOARD]
    return (_winning_cells(pos, mask, ctx[_H], ctx[_BOARD]) & possible) != 0


@njit(cache=True, forceinline=True, error_model="numpy")
def _store(tt, slot, key, epoch, lo, hi):
    """Record bounds ``lo <= score <= hi`` of the position ``key`` in its slot, tightening
    the bounds already there if the slot holds this position (from this solve), else
    replacing the entry."""
    word = tt[slot + 1]
    if tt[slot] == key and (word & _EPOCH_BITS) == epoch:
        lo = max(lo, (word & 255) - _BIAS)
        hi = min(hi, ((word >> 8) & 255) - _BIAS)
    tt[slot] = key
    tt[slot + 1] = epoch | (lo + _BIAS) | ((hi + _BIAS) << 8)


@njit(cache=True, error_model="numpy")
def _negamax(pos, mask, m, alpha, beta, ctx, tt):
    """The score of the position (``m`` stones down, the mover unable to win with the
    next stone) within ``alpha < beta``: exact inside the window, else a bound on the
    same side of it (fail-soft)."""
    ctx[_NODES] += 1
    height = ctx[_H]
    board = ctx[_BOARD]
    cells = ctx[_CELLS]
    possible = (mask + ctx[_BOTTOM]) & board
    opp_win = _winning_cells(pos ^ mask, mask, height, board)
    forced = possible & opp_win
    if forced != 0:
        if (forced & (forced - 1)) != 0:  # two threats to stop: the opponent wins next
            ctx[_EVALUATED] += 1
            return -((cells - m) // 2)
        possible = forced
    possible &= ~(opp_win >> 1)  # never below the opponent's winning cell
    if possible == 0:
        ctx[_EVALUATED] += 1
        return -((cells - m) // 2)
    if m >= cells - 2:  # nobody can win any more: a draw
        ctx[_EVALUATED] += 1
        return 0
    low = -((cells - 2 - m) // 2)  # the opponent cannot win with their next stone
    if alpha < low:
        alpha = low
        if alpha >= beta:
            ctx[_EVALUATED] += 1
            return alpha
    high = (cells - 1 - m) // 2  # nor can the mover with this one
    if beta > high:
        beta = high
        if alpha >= beta:
            ctx[_EVALUATED] += 1
            return beta
    key = pos + mask
    slot = 2 * (((key * _GOLDEN) >> ctx[_SHIFT]) & ctx[_TTMASK])
    epoch = ctx[_EPOCH] << _EPOCH_SHIFT
    if tt[slot] == key and (tt[slot + 1] & _EPOCH_BITS) == epoch:
        bounds = tt[slot + 1]
        lo = (bounds & 255) - _BIAS
        if alpha < lo:
            alpha = lo
            if alpha >= beta:
                ctx[_EVALUATED] += 1
                ctx[_TT_HITS] += 1
                return alpha
        hi = ((bounds >> 8) & 255) - _BIAS
        if beta > hi:
            beta = hi
            if alpha >= beta:
                ctx[_EVALUATED] += 1
                ctx[_TT_HITS] += 1
                return beta
    # order the moves: most winning cells for the mover first, centre first among equals
    row = _MOVES + m * _ROW
    n = 0
    for i in range(ctx[_W]):
        move = possible & ctx[_COLMASK + ctx[_ORDER + i]]
        if move != 0:
            score = _popcnt(_winning_cells(pos | move, mask | move, height, board))
            j = row + 2 * n
            while j > row and ctx[j - 1] < score:
                ctx[j] = ctx[j - 2]
                ctx[j + 1] = ctx[j - 1]
                j -= 2
            ctx[j] = move
            ctx[j + 1] = score
            n += 1
    child = pos ^ mask
    for k in range(n):
        v = -_negamax(child, mask | ctx[row + 2 * k], m + 1, -beta, -alpha, ctx, tt)
        if v >= beta:  # a lower bound
            _store(tt, slot, key, epoch, v, _NONE)
            return v
        if v > alpha:
            alpha = v
    _store(tt, slot, key, epoch, -_NONE, alpha)  # every move scored at most alpha
    return alpha


@njit(cache=True, forceinline=True, error_model="numpy")
def _half_towards_zero(x: int) -> int:
    """``x / 2`` rounded towards zero (C's division, as in Pons's narrowing)."""
    return x // 2 if x >= 0 else -((-x) // 2)


@njit(cache=True, error_model="numpy")
def _solve(pos, mask, m, ctx, tt):
    """The exact score of a position nobody has won yet, with ``m`` stones down."""
    cells = ctx[_CELLS]
    if _can_win_next(pos, mask, ctx):
        return (cells + 1 - m) // 2
    low = -((cells - m) // 2)
    high = (cells + 1 - m) // 2
    while low < high:
        med = low + (high - low) // 2
        if med <= 0 and _half_towards_zero(low) < med:
            med = _half_towards_zero(low)
        elif med >= 0 and _half_towards_zero(high) > med:
            med = _half_towards_zero(high)
        r = _negamax(pos, mask, m, med, med + 1, ctx, tt)
        if r <= med:
            high = r
        else:
            low = r
    return low


@njit(cache=True, error_model="numpy")
def _best_move(pos, mask, m, value, ctx, tt):
    """A column whose move keeps the score ``value`` (the table makes the null-window
    checks cheap); -1 if none has room."""
    cells = ctx[_CELLS]
    board = ctx[_BOARD]
    possible = (mask + ctx[_BOTTOM]) & board
    wins = _winning_cells(pos, mask, ctx[_H], board) & possible
    for i in range(ctx[_W]):
        col = ctx[_ORDER + i]
        move = possible & ctx[_COLMASK + col]
        if move == 0:
            continue
        if (wins & move) != 0:
            if value == (cells + 1 - m) // 2:
                return col
            continue
        child = pos ^ mask
        cmask = mask | move
        if _can_win_next(child, cmask, ctx):  # the opponent wins with the next stone
            if value == -((cells - m) // 2):
                return col
            continue
        if value == 0 and m + 1 >= cells:
            return col
        r = _negamax(child, cmask, m + 1, -value, -value + 1, ctx, tt)
        if r <= -value:
            return col
    return -1


def _context(width: int, height: int, tt_bits: int) -> np.ndarray:
    """The board constants, table geometry, zeroed statistics and move rows the
    compiled search reads and writes."""
    ctx = np.zeros(_MOVES + (width * height + 1) * _ROW, dtype=np.int64)
    ctx[_W] = width
    ctx[_H] = height
    ctx[_BOTTOM] = K.bottom_mask(width, height)
    ctx[_BOARD] = K.board_mask(width, height)
    ctx[_CELLS] = width * height
    ctx[_SHIFT] = 64 - tt_bits if tt_bits > 0 else 63
    ctx[_TTMASK] = (1 << tt_bits) - 1
    centre = (width - 1) // 2
    for i in range(width):  # the kernel's order: 4 5 3 6 2 7 1 on seven columns
        col = centre + (i + 1) // 2 if i & 1 else centre - i // 2
        ctx[_ORDER + i] = col
        ctx[_COLMASK + col] = ((1 << height) - 1) << (col * (height + 1))
    return ctx


class _Table:
    """The transposition table, kept between solves (allocating or clearing 128 MB
    costs more than most solves, and a cleared table's cold lines slow the next).
    Entry ``i`` is ``table[2 * i]``, the key, and ``table[2 * i + 1]``, its bounds and
    the epoch of the solve that wrote it. Every solve takes a new epoch and ignores
    entries of other epochs, so each solve starts from an empty table (whatever the
    board size before) and its work is its own."""

    bits = -1
    epoch = 0
    table = np.zeros(0, dtype=np.int64)

    @classmethod
    def fresh(cls, tt_bits: int) -> tuple[np.ndarray, int]:
        """A table of ``2**tt_bits`` entries and a new epoch, under which it is empty."""
        if cls.bits != tt_bits:
            cls.table = np.zeros(2 << tt_bits, dtype=np.int64)
            cls.table[0::2] = -1  # no position has a negative key
            cls.bits = tt_bits
        cls.epoch += 1
        return cls.table, cls.epoch


def release_table() -> None:
    """Free the kept transposition table (128 MB at the default size)."""
    _Table.bits = -1
    _Table.table = np.zeros(0, dtype=np.int64)


def solve_bitboards(
    width: int,
    height: int,
    pos: int,
    mask: int,
    *,
    tt_bits: int = TT_BITS,
    best_move: bool = True,
) -> tuple[int, int, np.ndarray, float]:
    """Score, best column (-1 without ``best_move``), statistics (nodes, evaluated,
    table cut-offs) and seconds of search (without compiling or allocating the table)
    of a position nobody has won yet, given by the kernel's bitboards."""
    check_solver_tt_bits(tt_bits)
    ctx = _context(width, height, tt_bits)
    m = bin(mask).count("1")
    tt, ctx[_EPOCH] = _Table.fresh(tt_bits)
    pos = np.int64(pos)
    mask = np.int64(mask)
    start = time.perf_counter()
    value = int(_solve(pos, mask, m, ctx, tt))
    move = -1
    if best_move:
        move = int(_best_move(pos, mask, m, value, ctx, tt))
    seconds = time.perf_counter() - start
    return value, move, ctx[_NODES : _TT_HITS + 1].copy(), seconds


_warm = [False]


def warm_up() -> None:
    """Compile (or load from numba's cache) the search once, on a small table of its
    own, so later timings exclude it."""
    if _warm[0]:
        return
    ctx = _context(4, 4, 4)
    tt = np.zeros(32, dtype=np.int64)
    tt[0::2] = -1
    ctx[_EPOCH] = 1
    zero = np.int64(0)
    value = _solve(zero, zero, 0, ctx, tt)
    _best_move(zero, zero, 0, value, ctx, tt)
    _warm[0] = True


def solve_state(
    game: Game, state: np.ndarray, *, tt_bits: int = TT_BITS, book: Any = None
) -> Solution:
    """The exact score of a Connect Four kernel state for the player to move, with a
    best column (0-based, -1 once the game is over). A finished position is worth the
    kernel's returns for the player whose turn it would be (as
    :mod:`chameleon_lab.search.solve` says).

    ``book``: ``None`` always searches; an opening book of the board
    (:class:`.book.OpeningBook`, or anything with its ``width``, ``height`` and
    ``best_move(position, mask)``) answers the positions it holds without searching
    (no nodes, ``from_book``). :func:`.book.solve_state` looks the shipped book up
    first; this module does not know where books come from.
    """
    check_solver_tt_bits(tt_bits)
    state = np.asarray(state, dtype=np.int64)
    width, height = int(state[K.W]), int(state[K.H])
    if book is not None and not callable(getattr(book, "best_move", None)):
        raise ValueError(f"book must be None or an OpeningBook, got {book!r}")
    if book is not None and (book.width, book.height) != (width, height):
        raise ValueError(
            f"the opening book is for {book.width} x {book.height}, "
            f"the position is {width} x {height}"
        )
    if int(K.player_of(state)) < 0:
        out = np.zeros(4)
        K.returns(state, out)
        return Solution(float(out[int(state[K.NMOVES]) % 2]), -1, 0, 1, 0, 0.0)
    pos, mask = int(state[K.POSITION]), int(state[K.MASK])
    if book is not None:
        start = time.perf_counter()
        best = book.best_move(pos, mask)
        if best is not None:
            seconds = time.perf_counter() - start
            return Solution(float(best[1]), best[0], 0, 0, 0, seconds, from_book=True)
    warm_up()
    value, move, stats, seconds = solve_bitboards(width, height, pos, mask, tt_bits=tt_bits)
    nodes, evaluated, hits = (int(x) for x in stats)
    return Solution(float(value), move, nodes - evaluated, evaluated, hits, seconds)
