"""Heuristics of the m,n,k-games, registered by name per game.

Each is a numba-compiled ``evaluate(state, out)`` over the kernel state of
:mod:`.kernel`, writing one raw score per player into ``out[0]`` and ``out[1]``
(``out[2] = out[3] = 0``). Every score is at least 1 (a base of 1 plus non-negative
terms), so a search may divide by the sum. They make one pass over the board and
allocate nothing: a search calls them at every leaf. They read the cells at the
kernel's ``CELLS`` offset, which numba compiles in as a constant: its disk cache is
invalidated only by a change of this file, so a change of the kernel's layout must
come with one here (the bitboard fields moved ``CELLS`` from 6 to 8).

TicTacToe (:data:`TICTACTOE_HEURISTICS`, default ``lines``):

* ``lines``: the classic count of lines still open to a player.

Five-in-a-row (:data:`GOMOKU_HEURISTICS`, default ``open_rows``), the three evaluation
functions of seed 001's pupils' groups:

* ``rows``: "Anzahl der Fünfer-, Vierer-, Dreier- und Zweierreihen" (the numbers of
  rows of five, four, three and two),
* ``space``: "Anzahl der freien Felder, die um die eigenen Steine gelegen sind" (the
  free cells around the player's own stones),
* ``open_rows``: "eigene Reihen mit freien Lücken stärker als abgeschlossene eigene
  Reihen" (own rows with free room beside them weigh more than closed ones).

A *run* below is a maximal line of a player's stones in one of the four directions
(horizontal, vertical, the two diagonals); a single stone is a run of length 1 in
each direction.
"""

from __future__ import annotations

from numba import njit

from ..heuristics import HeuristicRegistry
from . import kernel as K

#: The heuristics of TicTacToe.
TICTACTOE_HEURISTICS = HeuristicRegistry("tictactoe", default="lines")
#: The heuristics of Five-in-a-row (gomoku).
GOMOKU_HEURISTICS = HeuristicRegistry("gomoku", default="open_rows")

# the four directions as (d_col, d_row), written out so the loops stay allocation-free
_DC = (1, 0, 1, 1)
_DR = (0, 1, 1, -1)


@TICTACTOE_HEURISTICS.builtin("lines")
@njit(cache=True)
def open_lines(state, out):
    """``lines``: 1 + the sum over the lines of k cells (on 3 x 3 the 8 rows, columns
    and diagonals) that hold no opponent mark of (1 + the player's own marks in it).

    An empty line counts 1 for both players, a line with one own mark 2, with two own
    marks 3: a player's chances of completing a line grow with the lines still open
    to them and with how far each is filled.
    """
    width = state[K.W]
    height = state[K.H]
    k = state[K.K]
    s0 = 1.0
    s1 = 1.0
    for d in range(4):
        dc = _DC[d]
        dr = _DR[d]
        for row in range(height):
            end_row = row + (k - 1) * dr
            if end_row < 0 or end_row >= height:
                continue
            for col in range(width - (k - 1) * dc):
                own0 = 0
                own1 = 0
                for i in range(k):
                    v = state[K.CELLS + (row + i * dr) * width + col + i * dc]
                    if v == 1:
                        own0 += 1
                    elif v == 2:
                        own1 += 1
                if own1 == 0:
                    s0 += 1.0 + own0
                if own0 == 0:
                    s1 += 1.0 + own1
    out[0] = s0
    out[1] = s1
    out[2] = 0.0
    out[3] = 0.0


@njit(cache=True, forceinline=True)  # inlined: allocation-free and no call per run
def _run_at(state, width, height, row, col, d):
    """The run of the stone at (row, col) in direction ``d`` if it starts there, as
    ``length * 4 + open_ends`` (an end is open when the cell beyond it is on the board
    and empty); -1 when the cell is empty or the run starts further back."""
    v = state[K.CELLS + row * width + col]
    if v == 0:
        return -1
    dc = _DC[d]
    dr = _DR[d]
    pc = col - dc
    pr = row - dr
    ends = 0
    if 0 <= pc < width and 0 <= pr < height:
        before = state[K.CELLS + pr * width + pc]
        if before == v:
            return -1  # not the start of its run
        if before == 0:
            ends += 1
    n = 1
    c = col + dc
    r = row + dr
    while 0 <= c < width and 0 <= r < height:
        after = state[K.CELLS + r * width + c]
        if after != v:
            if after == 0:
                ends += 1
            break
        n += 1
        c += dc
        r += dr
    return n * 4 + ends


@GOMOKU_HEURISTICS.builtin("rows")
@njit(cache=True)
def rows(state, out):
    """``rows``: 1 + the sum over the player's runs of 2 or more stones of
    ``10 ** (L - 2)``, with ``L`` the run's length capped at k.

    With k = 5: a two counts 1, a three 10, a four 100, a five (or longer) 1000, so a
    longer row outweighs every plausible number of shorter ones. Open or blocked ends
    do not matter (that is ``open_rows``).
    """
    width = state[K.W]
    height = state[K.H]
    k = state[K.K]
    s0 = 1.0
    s1 = 1.0
    for row in range(height):
        for col in range(width):
            for d in range(4):
                run = _run_at(state, width, height, row, col, d)
                if run < 0:
                    continue
                n = run >> 2
                if n >= 2:
                    if n > k >= 2:
                        n = k
                    w = 10.0 ** (n - 2)
                    if state[K.CELLS + row * width + col] == 1:
                        s0 += w
                    else:
                        s1 += w
    out[0] = s0
    out[1] = s1
    out[2] = 0.0
    out[3] = 0.0


@GOMOKU_HEURISTICS.builtin("space")
@njit(cache=True)
def space(state, out):
    """``space``: 1 + the number of empty cells among the 8 neighbours of the player's
    stones, each empty cell counted once however many own stones touch it.

    Free room next to one's stones is where rows can still grow (and a measure of how
    little the opponent has hemmed them in).
    """
    width = state[K.W]
    height = state[K.H]
    s0 = 1.0
    s1 = 1.0
    for row in range(height):
        for col in range(width):
            if state[K.CELLS + row * width + col] != 0:
                continue
            near0 = False
            near1 = False
            for r in range(max(row - 1, 0), min(row + 2, height)):
                for c in range(max(col - 1, 0), min(col + 2, width)):
                    v = state[K.CELLS + r * width + c]
                    if v == 1:
                        near0 = True
                    elif v == 2:
                        near1 = True
            if near0:
                s0 += 1.0
            if near1:
                s1 += 1.0
    out[0] = s0
    out[1] = s1
    out[2] = 0.0
    out[3] = 0.0


@GOMOKU_HEURISTICS.builtin("open_rows")
@njit(cache=True)
def open_rows(state, out):
    """``open_rows``: 1 + the sum over the player's runs of a weight by length ``L``
    and by the run's open ends (the cell just beyond each end is on the board and
    empty):

    * ``L < k``, open at both ends: ``10 ** L``; open at one end: ``10 ** (L - 1)``;
      blocked at both ends (by opponent stones or the edge): 0;
    * ``L >= k`` (a winning row): ``10 ** k`` whatever its ends.

    With k = 5: open four 10000, closed four and open three 1000, closed three and
    open two 100, closed two and open single stone 10, closed single 1, so an open
    row counts like a closed row one stone longer, and rows that cannot grow count
    nothing. Single stones count too, which brings in the free room around one's
    stones (the ``space`` idea) at a small weight.
    """
    width = state[K.W]
    height = state[K.H]
    k = state[K.K]
    s0 = 1.0
    s1 = 1.0
    for row in range(height):
        for col in range(width):
            for d in range(4):
                run = _run_at(state, width, height, row, col, d)
                if run < 0:
                    continue
                n = run >> 2
                ends = run & 3
                if n >= k:
                    w = 10.0**k
                elif ends == 2:
                    w = 10.0**n
                elif ends == 1:
                    w = 10.0 ** (n - 1)
                else:
                    w = 0.0
                if state[K.CELLS + row * width + col] == 1:
                    s0 += w
                else:
                    s1 += w
    out[0] = s0
    out[1] = s1
    out[2] = 0.0
    out[3] = 0.0


def score_bound(width: int, height: int, k: int) -> float:
    """An upper bound of every built-in score above at a position nobody has won yet:
    at most ``4 * width * height`` runs, each weighing at most ``10 ** (k - 1)``."""
    return 1.0 + 4.0 * width * height * 10.0 ** max(k - 1, 1)
