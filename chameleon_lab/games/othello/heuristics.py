"""Heuristics of Othello, registered by name (``OTHELLO_HEURISTICS``, default ``hard``).

Each is a numba-compiled ``evaluate(state, out)`` over the kernel state of
:mod:`.kernel`, writing one raw score per player into ``out[0]`` (black) and ``out[1]``
(white), ``out[2] = out[3] = 0``. Every score is finite and at least 1 (a base plus
terms that cannot take it below 1), so a search may divide by the sum; the searches
compare the players' scores (their difference, or each one's share of the sum).
Nothing is allocated: a search calls them at every leaf.

Seed 003 (the JReversi project) plays at three levels: *Easy* picks a random move (no
heuristic: the library's searches do that with any heuristic at depth 0, or use
``uniform``), *Medium* counts discs, *Hard* distinguishes opening, midgame and
endgame. The seed leaves Hard's weights to the code of its appendix, which we do not
have; the weights below are ours and are stated with their reasons.

* ``discs`` (Medium): ``1 + own discs``.
* ``hard`` (Hard), by phase, with ``n`` the discs on the board:

  - *opening*, ``n <= 20`` (the first 16 placements of Othello): fewer discs are
    better, to keep mobility (the seed negates Medium's count): ``65 - own discs``
    (at least 1: a player has at most 64 discs). Seed 003 also checks "whether the
    opponent can take all our discs" and penalises that heavily: here, when the side
    to move has a placement that flips every disc of the other player (a wipe-out
    on the next move; a player already without discs counts too), the threatened
    player scores 1 and the side to move gets :data:`WIPEOUT` (1000) on top, far
    more than every other term of the opening.
  - *endgame*, 10 or fewer empty squares (where the seed turns to disc counting and
    deepens its search, "sobald nur noch zehn Felder zu spielen sind"):
    ``1 + own discs``.
  - *midgame*, in between: ``100 + the sum of the square weights of own discs``
    (:data:`SQUARE_WEIGHTS`, at least -96 in total, so the score stays >= 4):

    ==========  ======  ====================================================
    square       weight  why
    ==========  ======  ====================================================
    corner          25   can never be flipped and anchors the edges
    X-square       -12   diagonal to an empty corner: hands the corner over
                         (0 once that corner is taken)
    C-square        -4   beside an empty corner on the edge: the corner is lost
                         when it is flipped (+3 like an edge square once taken)
    A-square         4   edge square two from the corner (c1, f1, a3, ...): a
                         safe first edge move (the seed: play A or B, not C)
    B-square         3   the middle edge squares (d1, e1, ...)
    sweet 16         1   c3..f6, the "Sweet Sixteen" the seed says to stay in
    other inner     -1   the ring just inside the edge outside the sweet 16,
                         the "hot" squares from which the opponent reaches edges
    ==========  ======  ====================================================

* ``mobility`` (a modern staple): ``1 + own legal placements + 10 * own corners``:
  mobility keeps options and starves the opponent into bad moves; a corner counts
  like ten moves. The search compares the two players' scores, so the difference of
  the move counts decides.
* ``uniform``: 1 for both (no knowledge).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..heuristics import HeuristicRegistry, uniform_two
from . import kernel as K

#: The heuristics of Othello.
OTHELLO_HEURISTICS = HeuristicRegistry("othello", default="hard")

_U = np.uint64
#: The opening lasts while at most this many discs are on the board.
OPENING_DISCS = 20
#: The endgame starts with at most this many empty squares.
ENDGAME_EMPTIES = 10
#: The bonus of a player whose next move can wipe the opponent out (opening).
WIPEOUT = 1000.0
#: The midgame base, larger than the most negative sum of weights (-96).
MIDGAME_BASE = 100.0
_CORNER_BONUS = 10.0


def _square_weights() -> np.ndarray:
    """The midgame weights by square, with empty corners (see the module docstring)."""
    w = np.zeros((8, 8))
    for r in range(8):
        for c in range(8):
            edge_r = r in (0, 7)
            edge_c = c in (0, 7)
            if edge_r and edge_c:
                w[r, c] = 25
            elif edge_r or edge_c:
                along = c if edge_r else r  # position along the edge
                w[r, c] = {1: -4, 6: -4, 2: 4, 5: 4, 3: 3, 4: 3}[along]
            elif r in (1, 6) and c in (1, 6):
                w[r, c] = -12
            elif 2 <= r <= 5 and 2 <= c <= 5:
                w[r, c] = 1
            else:
                w[r, c] = -1
    return w.reshape(64)


#: Midgame weight of each square ``row * 8 + col`` while its corner is empty.
SQUARE_WEIGHTS = _square_weights()
#: The weights of X- and C-squares once their corner is taken.
X_TAKEN = 0.0
C_TAKEN = 3.0

# per corner: its square, its X-square and its two C-squares
_CORNER_SQ = np.array([0, 7, 56, 63], dtype=np.int64)
_X_SQ = np.array([9, 14, 49, 54], dtype=np.int64)
_C1_SQ = np.array([1, 6, 57, 62], dtype=np.int64)
_C2_SQ = np.array([8, 15, 48, 55], dtype=np.int64)


@njit(cache=True, forceinline=True)
def _bit(x, sq):
    return (x >> _U(sq)) & _U(1)


@OTHELLO_HEURISTICS.builtin("discs", "medium")
@njit(cache=True)
def discs(state, out):
    """``discs`` (seed 003's Medium): 1 + the player's discs."""
    out[0] = 1.0 + float(K.popcount(_U(state[K.BLACK])))
    out[1] = 1.0 + float(K.popcount(_U(state[K.WHITE])))
    out[2] = 0.0
    out[3] = 0.0


@njit(cache=True, forceinline=True)  # no call: no error path
def _weighted(own, taken):
    """The midgame sum of square weights of the discs of ``own``."""
    total = 0.0
    x = own
    while x != _U(0):
        total += SQUARE_WEIGHTS[K.lowest_square(x)]
        x &= x - _U(1)
    for i in range(4):  # X- and C-squares whose corner is taken weigh as stated
        if _bit(taken, _CORNER_SQ[i]):
            if _bit(own, _X_SQ[i]):
                total += X_TAKEN - SQUARE_WEIGHTS[_X_SQ[i]]
            if _bit(own, _C1_SQ[i]):
                total += C_TAKEN - SQUARE_WEIGHTS[_C1_SQ[i]]
            if _bit(own, _C2_SQ[i]):
                total += C_TAKEN - SQUARE_WEIGHTS[_C2_SQ[i]]
    return total


@njit(cache=True, forceinline=True)  # no call: no error path
def _can_wipe_out(own, opp):
    """Whether ``own`` (to move) has a placement that flips every disc of ``opp``."""
    mob = K.mobility(own, opp)
    found = opp == _U(0)
    while mob != _U(0) and not found:
        sq = K.lowest_square(mob)
        found = K.flips(own, opp, sq) == opp
        mob &= mob - _U(1)
    return found


@OTHELLO_HEURISTICS.builtin("hard")
@njit(cache=True)
def hard(state, out):
    """``hard`` (seed 003's Hard): opening (<= 20 discs) 65 - own discs with the wipe-out
    penalty, midgame square weights + 100, endgame (<= 10 empty) 1 + own discs; the
    weights and their reasons are in the module docstring."""
    black = _U(state[K.BLACK])
    white = _U(state[K.WHITE])
    side = state[K.SIDE]
    taken = black | white
    nb = float(K.popcount(black))
    nw = float(K.popcount(white))
    n = nb + nw
    if n <= OPENING_DISCS:
        s0 = 65.0 - nb
        s1 = 65.0 - nw
        if n >= 4.0:
            if side == 0:
                if _can_wipe_out(black, white):
                    s1 = 1.0
                    s0 += WIPEOUT
            elif _can_wipe_out(white, black):
                s0 = 1.0
                s1 += WIPEOUT
    elif 64.0 - n <= ENDGAME_EMPTIES:
        s0 = 1.0 + nb
        s1 = 1.0 + nw
    else:
        s0 = MIDGAME_BASE + _weighted(black, taken)
        s1 = MIDGAME_BASE + _weighted(white, taken)
    out[0] = s0
    out[1] = s1
    out[2] = 0.0
    out[3] = 0.0


@OTHELLO_HEURISTICS.builtin("mobility")
@njit(cache=True)
def mobility(state, out):
    """``mobility``: 1 + own legal placements + 10 * own corners."""
    black = _U(state[K.BLACK])
    white = _U(state[K.WHITE])
    corners = _U((1 << 0) | (1 << 7) | (1 << 56) | (1 << 63))
    out[0] = (
        1.0
        + float(K.popcount(K.mobility(black, white)))
        + _CORNER_BONUS * float(K.popcount(black & corners))
    )
    out[1] = (
        1.0
        + float(K.popcount(K.mobility(white, black)))
        + _CORNER_BONUS * float(K.popcount(white & corners))
    )
    out[2] = 0.0
    out[3] = 0.0


OTHELLO_HEURISTICS.builtin("uniform")(uniform_two)


def score_bound() -> float:
    """An upper bound of every built-in score: the opening's 64 + :data:`WIPEOUT`."""
    return 65.0 + WIPEOUT


#: The features of :func:`weighted_evaluator`, in the order of its weights: per player,
#: discs, legal placements (mobility) and corners held.
WEIGHTED_FEATURES = ("discs", "mobility", "corners")


def weighted_evaluator(discs: float, mobility: float, corners: float = 0.0):
    """A compiled heuristic scoring each player ``1 + discs * own discs + mobility * own
    legal placements + corners * own corners`` (:data:`WEIGHTED_FEATURES`; weights
    compiled in as constants, at least 0, so every score is at least 1 as the module's
    other heuristics are). Weights ``(1, 0, 0)`` give exactly ``discs``, ``(0, 1, 10)``
    exactly ``mobility``. Register one with
    :func:`chameleon_lab.games.weighted.weighted_heuristic`.
    """
    wd, wm, wc = float(discs), float(mobility), float(corners)

    @njit
    def weighted(state, out):
        """Weighted discs, mobility and corners (weights compiled in)."""
        black = _U(state[K.BLACK])
        white = _U(state[K.WHITE])
        corner_mask = _U((1 << 0) | (1 << 7) | (1 << 56) | (1 << 63))
        s0 = 1.0
        s1 = 1.0
        if wd != 0.0:
            s0 += wd * float(K.popcount(black))
            s1 += wd * float(K.popcount(white))
        if wm != 0.0:
            s0 += wm * float(K.popcount(K.mobility(black, white)))
            s1 += wm * float(K.popcount(K.mobility(white, black)))
        if wc != 0.0:
            s0 += wc * float(K.popcount(black & corner_mask))
            s1 += wc * float(K.popcount(white & corner_mask))
        out[0] = s0
        out[1] = s1
        out[2] = 0.0
        out[3] = 0.0

    return weighted
