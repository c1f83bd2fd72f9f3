"""An exact solver of the m,n,k-games (TicTacToe, Five-in-a-row) on any board.

The generic solver (:mod:`chameleon_lab.search.solve`) walks every line of play to its
end; on 5 x 4 with four in a row it had not finished after two minutes. This one knows
what an m,n,k-game is made of: its *lines*, the runs of ``k`` cells along a row, a
column or a diagonal (``k`` or more in a row win, and every such run holds a line).
It keeps, for every line, how many stones of each player lie on it, and so knows at
every node:

* **wins in one**: a line holding ``k - 1`` stones of the player to move and none of
  the other's completes with its empty cell: the position is won (value +1);
* **forced replies**: the opponent's lines with ``k - 1`` stones and none of the
  mover's each name a cell the mover must take; two different cells cannot both be
  taken (value -1), one is the only move worth searching (any other loses at once);
* **dead lines**: a line holding stones of both players can no longer be completed.
  A player without a live line cannot win, so the value is at most 0 (the mover) or
  at least 0 (the opponent), and with no live line left the game is a draw.

Around that it is alpha-beta over the values -1, 0, +1 with a transposition table
(the kernel's Zobrist key; exact, lower and upper bounds, each with its best move, in
one row of two integers per entry), the
table's move first and the other moves ordered by how many lines run through their
cell (the centre first). The values are those of the game for the player to move, as
the generic solver's (``tests/test_solve_mnk.py`` holds the two against each other on
random positions of every phase and against the values published for small boards).
"""

from __future__ import annotations

import time

import numba
import numpy as np
from numba import njit

from ..solution import Solution, check_solver_tt_bits
from . import kernel as K

EXACT, LOWER, UPPER = 0, 1, 2
_EMPTY_KEY = 0x7FFFFFFFFFFFFFF1  # no position's key is taken to be this


def lines(width: int, height: int, k: int) -> np.ndarray:
    """Every run of ``k`` cells in a row on the board, one row of cell numbers each
    (``row * width + col``): horizontal, vertical and both diagonals."""
    out = []
    for row in range(height):
        for col in range(width):
            for dcol, drow in ((1, 0), (0, 1), (1, 1), (1, -1)):
                end_col, end_row = col + dcol * (k - 1), row + drow * (k - 1)
                if 0 <= end_col < width and 0 <= end_row < height:
                    out.append([(row + drow * i) * width + col + dcol * i for i in range(k)])
    return np.array(out, dtype=np.int64).reshape(len(out), k)


def _incidence(cells: int, runs: np.ndarray) -> np.ndarray:
    """The lines through each cell, one row a cell: row ``c`` holds their number, then
    the lines (at most four directions times ``k`` positions in a line)."""
    per_cell: list[list[int]] = [[] for _ in range(cells)]
    for i, run in enumerate(runs):
        for c in run:
            per_cell[int(c)].append(i)
    through = np.zeros((cells, 1 + max((len(x) for x in per_cell), default=0)), dtype=np.int64)
    for c, x in enumerate(per_cell):
        through[c, 0] = len(x)
        through[c, 1 : 1 + len(x)] = x
    return through


#: ``sign`` of :func:`_place` putting a stone, typed (a literal would compile it once
#: more per sign: ``specialise``, "Literal arguments").
_PUT = np.int64(1)
#: ``sign`` of :func:`_place` taking a stone back.
_TAKE = np.int64(-1)


@njit(cache=True)
def _place(cell, p, board, count, live, through, sign):
    """Put (``sign`` = 1) or take back (-1) player ``p``'s stone on ``cell``, keeping
    each line's stone counts and each player's number of live lines."""
    board[cell] = (p + 1) if sign == 1 else 0
    q = 1 - p
    for j in range(1, through[cell, 0] + 1):
        line = through[cell, j]
        if sign == 1:
            if count[line, p] == 0:
                live[q] -= 1  # p's first stone on it: q can no longer complete it
            count[line, p] += 1
        else:
            count[line, p] -= 1
            if count[line, p] == 0:
                live[q] += 1


@njit(cache=True)
def _threats(p, runs, count, board, k, out):
    """The distinct empty cells that complete a line for player ``p`` into ``out``;
    their number."""
    n = 0
    for line in range(runs.shape[0]):
        if count[line, p] == k - 1 and count[line, 1 - p] == 0:
            for i in range(k):
                c = runs[line, i]
                if board[c] == 0:
                    seen = False
                    for j in range(n):
                        seen = seen or out[j] == c
                    if not seen:
                        out[n] = c
                        n += 1
    return n


@njit(cache=True)
def _node(p, alpha, beta, key, empty, board, count, live, lines_, tt, moves, stats):
    """The value of the position for player ``p`` to move, within ``(alpha, beta)``
    (fail-soft); ``empty`` cells are left and nobody has won yet.

    ``board``, ``count`` (each line's stones per player) and ``live`` (each player's
    lines still open) are changed by each move and restored; ``lines_`` holds the
    board's fixed ``(runs, through, order)`` (:func:`_tables`); ``tt`` the table, one
    row ``(key, move << 4 | (value + 1) << 2 | bound)`` an entry; ``moves`` a row of
    cells per node, the row numbered by ``empty``; ``stats`` the counts of expanded,
    evaluated and table-answered nodes."""
    if empty == 0:
        stats[1] += 1
        return 0.0
    runs, through, order = lines_
    k = runs.shape[1]
    q = 1 - p
    row = moves[empty]
    if _threats(p, runs, count, board, k, row) > 0:
        stats[1] += 1
        return 1.0
    forced = _threats(q, runs, count, board, k, row)
    if forced >= 2:
        stats[1] += 1
        return -1.0
    if live[p] == 0 and live[q] == 0:
        stats[1] += 1
        return 0.0
    if live[p] == 0 and beta > 0.0:
        beta = 0.0  # the mover cannot win
    if live[q] == 0 and alpha < 0.0:
        alpha = 0.0  # nor can the opponent
    if alpha >= beta:
        stats[1] += 1
        return alpha
    slot = key & (tt.shape[0] - 1)
    first = -1
    if tt[slot, 0] == key:
        flag = tt[slot, 1] & 3
        v = float(((tt[slot, 1] >> 2) & 3) - 1)
        if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
            stats[2] += 1
            return v
        first = tt[slot, 1] >> 4
    stats[0] += 1
    n = 0
    if forced == 1:
        n = 1  # row[0] holds the one cell that stops the opponent
    else:
        if first >= 0 and board[first] == 0:
            row[0] = first
            n = 1
        for i in range(order.shape[0]):
            c = order[i]
            if board[c] == 0 and c != first:
                row[n] = c
                n += 1
    a0 = alpha
    best = -2.0
    best_move = row[0]
    for i in range(n):
        c = row[i]
        _place(c, p, board, count, live, through, _PUT)
        child = key ^ K.STONE_KEYS[p, c] ^ K.SIDE_KEY
        v = -_node(q, -beta, -alpha, child, empty - 1, board, count, live, lines_, tt, moves, stats)
        _place(c, p, board, count, live, through, _TAKE)
        if v > best:
            best = v
            best_move = c
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    flag = EXACT
    if best <= a0:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    tt[slot, 0] = key
    tt[slot, 1] = (best_move << 4) | ((int(best) + 1) << 2) | flag
    return best


def _tables(state: np.ndarray, tt_bits: int) -> tuple:
    """:func:`_node`'s arguments after ``empty`` for the board of ``state``: the
    position (board, each line's stone counts, each player's live lines), the lines
    (their cells, the lines through each cell, the cells in search order), an empty
    table of ``2**tt_bits`` entries, the rows of moves and the counters."""
    width, height, k = int(state[K.W]), int(state[K.H]), int(state[K.K])
    cells = width * height
    runs = lines(width, height, k)
    through = _incidence(cells, runs)
    board = np.array(state[K.CELLS : K.CELLS + cells], dtype=np.int64)
    count = np.zeros((runs.shape[0], 2), dtype=np.int64)
    for p in (0, 1):
        count[:, p] = (board[runs] == p + 1).sum(axis=1) if runs.size else 0
    live = np.array([int((count[:, 1 - p] == 0).sum()) for p in (0, 1)], dtype=np.int64)
    # most lines first; among equals the cell nearer the centre, then the lower number
    row, col = np.divmod(np.arange(cells), width)
    centre = np.abs(2 * row - (height - 1)) + np.abs(2 * col - (width - 1))
    order = np.lexsort((np.arange(cells), centre, -through[:, 0])).astype(np.int64)
    tt = np.zeros((1 << tt_bits, 2), dtype=np.int64)
    tt[:, 0] = _EMPTY_KEY
    moves = np.zeros((cells + 1, cells), dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    return board, count, live, (runs, through, order), tt, moves, stats


def solve_state(game, state: np.ndarray, tt_bits: int = 20) -> Solution:
    """The exact value of ``state`` for the player to move (+1 win, 0 draw, -1 loss) and
    a best move; at a finished position its returns for the player whose turn it
    would be."""
    check_solver_tt_bits(tt_bits)
    state = np.asarray(state, dtype=np.int64)
    p = int(K.player_of(state))
    if p < 0:
        out = np.zeros(4)
        K.returns(state, out)
        return Solution(float(out[int(state[K.NSTONES]) & 1]), -1, 0, 1, 0, 0.0)
    tables = _tables(state, tt_bits)
    empty = int((tables[0] == 0).sum())
    key = int(state[K.KEY])
    args = (p, -1.0, 1.0, key, empty, *tables)
    _node.compile(tuple(numba.typeof(a) for a in args))  # not timed: the search alone is
    begin = time.perf_counter()
    value = _node(*args)
    move = _root_move(value, p, key, empty, tables)  # timed and counted with the search
    seconds = time.perf_counter() - begin
    value = float(value) + 0.0  # -0.0 (a negated draw) as 0.0
    stats = tables[-1]
    return Solution(value, move, int(stats[0]), int(stats[1]), int(stats[2]), seconds)


def _root_move(value, p, key, empty, tables):
    """A root move of player ``p`` that keeps ``value``: the table's where it holds one,
    else the first cell whose child has the value ``-value`` (each child solved with the
    same table). ``tables`` are :func:`_node`'s arguments after ``empty``."""
    board, count, live, (runs, through, order), tt, _, _ = tables
    k = runs.shape[1]
    slot = key & (tt.shape[0] - 1)
    # the root's entry: exact, a lower bound of +1 (its move wins) or an upper bound of
    # -1 (every move loses)
    if tt[slot, 0] == key and ((tt[slot, 1] >> 2) & 3) - 1 == value:
        c = int(tt[slot, 1] >> 4)
        if board[c] == 0:
            return c
    for c in order:
        if board[c] != 0:
            continue
        _place(c, p, board, count, live, through, _PUT)
        won = bool((count[:, p] == k).any())
        if won:
            child = -1.0
        elif empty == 1:
            child = 0.0
        else:
            child_key = key ^ K.STONE_KEYS[p, c] ^ K.SIDE_KEY
            child = _node(1 - p, -1.0, 1.0, child_key, empty - 1, *tables)
        _place(c, p, board, count, live, through, _TAKE)
        if -child == value:
            return int(c)
    raise AssertionError("no root move keeps the solved value")  # pragma: no cover
