"""Heuristics of Connect Four (seed 004, "Funktionsweise der Viergewinnt-Computerzüge").

The seed's evaluation: "Er zählt für jeden Stein seiner Farbe, wie viele Möglichkeiten
es noch gibt, 4 in eine Reihe zu bekommen" (for each stone of its colour it counts the
ways still open to get four in a row through it): a single stone in the bottom left
corner of an otherwise empty board counts 3 (up, up-right, right). A player's *count*
``C`` is therefore the sum, over the lines of four cells holding no opponent stone, of
the player's stones in the line.

"Das Zählergebnis des Gegners [kann] anders gewichtet werden als das eigene. Die
Gewichtung wird durch die Angriffslust des Computers bestimmt": the opponent's count is
weighted by the computer's aggressiveness, five steps from "in erster Linie die Chancen
des Gegners minimieren" (first of all spoil the opponent's chances) to "fast nur eigene
Chancen ausbauen" (almost only build one's own), where "bei extremer Angriffslust
spielt die Zählung des Gegners nur lexikografisch eine Rolle" (at extreme
aggressiveness the opponent's count only breaks ties). The five weightings, as the
value ``V`` of a position for the player ``p`` whose turn it is there (``q`` the
other), with ``BIG`` = 1024 (more than any count: at most 28 stones of a player, each
in at most 16 lines):

==============  ==========================  ==================================
heuristic       ``V = out[p] - out[q]``     meaning
==============  ==========================  ==================================
``aggressive1``  ``C_p - BIG * C_q``         first of all spoil the opponent's
                                             chances; own count only breaks ties
``aggressive2``  ``C_p - 2 * C_q``           opponent's chances weigh double
``aggressive3``  ``C_p - C_q``               balanced (the same values as ``lines``)
``aggressive4``  ``2 * C_p - C_q``           own chances weigh double
``aggressive5``  ``BIG * C_p - C_q``         extreme aggressiveness: own chances,
                                             the opponent's count only breaks ties
==============  ==========================  ==================================

The steps are symmetric (weights BIG, 2, 1, 1/2, 1/BIG on the opponent's count relative
to one's own): both ends are lexicographic, as the seed describes the extreme one and as
"in erster Linie" reads for the other, and the middle three double from one to the
next. The symmetry matters for the searches: they score a leaf ``out[me] - out[other]``
for the player ``me`` to move at the leaf, negated on the way up, so a search an even
number of plies deep evaluates its leaves from the root player's view (the seed's
levels 1-3 search 2, 4 and 6 plies), while an odd depth sees them from the opponent's,
and ``aggressiveN`` there amounts to ``aggressive(6 - N)`` for the root player.
:func:`~.levels.level_params` picks the mirrored heuristic at odd depths, so the
computer always plays with the aggressiveness it drew.

The scores a heuristic writes are per player and non-negative, as the searches expect:
``out[p] = 1 + w_own * C_p`` for the player to move and ``out[q] = 1 + w_opp * C_q``
for the other (the weights of the table), so ``out[p] - out[q]`` is ``V``.

* ``lines``: the unweighted count ``out[i] = 1 + C_i`` for both players, from nobody's
  view in particular (the same values as ``aggressive3``, the default).
* ``weighted_lines``: the seed's own improvement idea, "nicht nur die Anzahl möglicher
  Viererreihen zu zählen, sondern auch zu berücksichtigen, aus wie vielen Steinen die
  Viererreihe schon besteht": a line open to a player counts 1, 4 or 16 when it holds
  1, 2 or 3 of their stones (the plain count gives it 1, 2 or 3), so a line close to
  completion outweighs several new ones; ``out[i] = 1 + sum``, balanced.

All are computed on the bitboards (shifts and population counts, no loop over cells) and
allocate nothing.
"""

from __future__ import annotations

from numba import njit

from ..heuristics import HeuristicRegistry
from . import kernel as K
from .kernel import popcount

#: The heuristics of Connect Four.
CONNECT4_HEURISTICS = HeuristicRegistry("connect4", default="aggressive3")

#: Weight making a count lexicographic: more than any count (28 stones x 16 lines).
BIG = 1024.0


@njit(cache=True, forceinline=True)
def _line_counts(own: int, opp: int, board: int, height: int, pairs: bool, triples: bool):
    """Over the lines of four cells free of ``opp``: the ``own`` stones in them, and
    (where asked: the callers' constants fold the other counts away) the pairs and
    the triples of ``own`` stones in one line, counted with bitwise ands of the
    line's shifts; ``(stones, pairs, triples)``."""
    free = board & ~opp
    n1 = 0
    n2 = 0
    n3 = 0
    for d in range(4):
        s = 1 if d == 0 else height + d - 1  # vertical, diagonal down, horizontal, diag up
        a = free & (free >> s) & (free >> (2 * s)) & (free >> (3 * s))  # line starts
        o0 = a & own
        o1 = a & (own >> s)
        o2 = a & (own >> (2 * s))
        o3 = a & (own >> (3 * s))
        n1 += popcount(o0) + popcount(o1) + popcount(o2) + popcount(o3)
        if pairs:
            n2 += (
                popcount(o0 & o1)
                + popcount(o0 & o2)
                + popcount(o0 & o3)
                + popcount(o1 & o2)
                + popcount(o1 & o3)
                + popcount(o2 & o3)
            )
        if triples:
            n3 += (
                popcount(o0 & o1 & o2)
                + popcount(o0 & o1 & o3)
                + popcount(o0 & o2 & o3)
                + popcount(o1 & o2 & o3)
            )
    return n1, n2, n3


@njit(cache=True, forceinline=True)
def _count(own: int, opp: int, board: int, height: int) -> int:
    """``C``: over the lines of four cells free of ``opp``, the ``own`` stones in them."""
    return _line_counts(own, opp, board, height, False, False)[0]


@njit(cache=True, forceinline=True)
def _weighted(own: int, opp: int, board: int, height: int) -> int:
    """Over the lines free of ``opp``: 1, 4, 16 (44 for four) for 1, 2, 3 own stones.

    A line with ``k`` own stones counts ``k + 2 * C(k, 2) + 7 * C(k, 3)``: the stones,
    pairs and triples of own stones in it."""
    stones, pairs, triples = _line_counts(own, opp, board, height, True, True)
    return stones + 2 * pairs + 7 * triples


@njit(cache=True, forceinline=True)
def _weigh(state, out, w_own: float, w_opp: float) -> None:
    """``out[p] = 1 + w_own * C_p`` for the player ``p`` to move, ``out[q] = 1 +
    w_opp * C_q`` for the other (see the module doc)."""
    height = state[K.H]
    board = state[K.BOARD]
    mover = state[K.POSITION]
    other = mover ^ state[K.MASK]
    p = state[K.NMOVES] & 1
    out[p] = 1.0 + w_own * _count(mover, other, board, height)
    out[1 - p] = 1.0 + w_opp * _count(other, mover, board, height)
    out[2] = 0.0
    out[3] = 0.0


@CONNECT4_HEURISTICS.builtin("aggressive1")
@njit(cache=True)
def aggressive1(state, out):
    """``aggressive1``: ``V = C_p - 1024 * C_q`` for the player p to move: first of all
    spoil the opponent's chances ("in erster Linie die Chancen des Gegners minimieren");
    one's own count only breaks ties. Scores ``out[p] = 1 + C_p``, ``out[q] = 1 + 1024 *
    C_q`` (see the module doc for the five steps and odd search depths)."""
    _weigh(state, out, 1.0, BIG)


@CONNECT4_HEURISTICS.builtin("aggressive2")
@njit(cache=True)
def aggressive2(state, out):
    """``aggressive2``: ``V = C_p - 2 * C_q``: the opponent's chances weigh double one's
    own. Scores ``out[p] = 1 + C_p``, ``out[q] = 1 + 2 * C_q``."""
    _weigh(state, out, 1.0, 2.0)


@CONNECT4_HEURISTICS.builtin("aggressive3")
@njit(cache=True)
def aggressive3(state, out):
    """``aggressive3`` (the default): ``V = C_p - C_q``: own and opponent's chances
    weigh alike (the values of ``lines``). Scores ``out[i] = 1 + C_i``."""
    _weigh(state, out, 1.0, 1.0)


@CONNECT4_HEURISTICS.builtin("aggressive4")
@njit(cache=True)
def aggressive4(state, out):
    """``aggressive4``: ``V = 2 * C_p - C_q``: one's own chances weigh double the
    opponent's. Scores ``out[p] = 1 + 2 * C_p``, ``out[q] = 1 + C_q``."""
    _weigh(state, out, 2.0, 1.0)


@CONNECT4_HEURISTICS.builtin("aggressive5")
@njit(cache=True)
def aggressive5(state, out):
    """``aggressive5``: ``V = 1024 * C_p - C_q``: extreme aggressiveness, "fast nur
    eigene Chancen ausbauen"; the opponent's count only breaks ties ("nur
    lexikografisch"). Scores ``out[p] = 1 + 1024 * C_p``, ``out[q] = 1 + C_q``."""
    _weigh(state, out, BIG, 1.0)


#: ``lines``: the seed's plain count, ``out[i] = 1 + C_i`` for both players: over the
#: lines of four still open to player i (no opponent stone in them), i's stones in them;
#: a lone corner stone counts 3. The same values as ``aggressive3``: the same function.
lines = CONNECT4_HEURISTICS.builtin("lines")(aggressive3)


@CONNECT4_HEURISTICS.builtin("weighted_lines")
@njit(cache=True)
def weighted_lines(state, out):
    """``weighted_lines``: the seed's improvement idea, lines weighted by the stones
    already in them: 1 + the sum over the lines open to player i of 1, 4 or 16 for 1, 2
    or 3 of i's stones in the line (``lines`` counts 1, 2 or 3)."""
    height = state[K.H]
    board = state[K.BOARD]
    mover = state[K.POSITION]
    other = mover ^ state[K.MASK]
    p = state[K.NMOVES] & 1
    out[p] = 1.0 + _weighted(mover, other, board, height)
    out[1 - p] = 1.0 + _weighted(other, mover, board, height)
    out[2] = 0.0
    out[3] = 0.0


def score_bound(width: int, height: int) -> float:
    """An upper bound of every built-in score above: ``1 + BIG * 44 * lines`` (a line
    weighs at most 4 in the counts and 44 in ``weighted_lines``; BIG >= 1)."""
    n_lines = 4 * width * height  # at most four lines start at a cell
    return 1.0 + BIG * 44.0 * n_lines


#: The features of :func:`weighted_evaluator`, in the order of its weights: per player,
#: over the lines of four still open to it (no opponent stone in them), its stones in
#: them (the seed's count ``C``), the pairs and the triples of its stones in one line.
WEIGHTED_FEATURES = ("stones", "pairs", "triples")


@njit(cache=True, forceinline=True)
def _features(own: int, opp: int, board: int, height: int, ws: float, wp: float, wt: float):
    """``ws * stones + wp * pairs + wt * triples`` over the lines free of ``opp`` (a
    weight 0 skips its counts, which the constants of the caller fold away)."""
    stones, pairs, triples = _line_counts(own, opp, board, height, wp != 0.0, wt != 0.0)
    return ws * stones + wp * pairs + wt * triples


def weighted_evaluator(stones: float, pairs: float = 0.0, triples: float = 0.0):
    """A compiled heuristic scoring each player ``1 + stones * its stones in open lines +
    pairs * pairs + triples * triples of its stones in one open line``
    (:data:`WEIGHTED_FEATURES`; weights compiled in, at least 0). Weights ``(1, 0, 0)``
    give exactly ``lines`` (``aggressive3``), ``(1, 2, 7)`` exactly ``weighted_lines``
    (a line of 1, 2, 3 stones counts 1, 4, 16). Register one with
    :func:`chameleon_lab.games.weighted.weighted_heuristic`.
    """
    ws, wp, wt = float(stones), float(pairs), float(triples)

    @njit
    def weighted(state, out):
        """Weighted stones, pairs and triples in open lines (weights compiled in)."""
        height = state[K.H]
        board = state[K.BOARD]
        mover = state[K.POSITION]
        other = mover ^ state[K.MASK]
        p = state[K.NMOVES] & 1
        out[p] = 1.0 + _features(mover, other, board, height, ws, wp, wt)
        out[1 - p] = 1.0 + _features(other, mover, board, height, ws, wp, wt)
        out[2] = 0.0
        out[3] = 0.0

    return weighted
