"""Evaluation functions for Chameleon Chess, registered by name.

A heuristic is a numba-compiled function with the signature::

    heuristic(state: int64[:], out: float64[4]) -> None

It writes one score per player into ``out`` (index = player colour, 0 for players
without pawns). ``state`` is the kernel state of :mod:`chameleon_lab.games.chameleon.kernel`
and must not be changed. Searches call it at their leaves and normalise the vector
themselves where the algorithm asks for it, so a heuristic returns raw scores.

Write your own in a notebook cell, pass it wherever a heuristic name is accepted or
register it by a name of its own (``HEURISTICS.register``, see
:mod:`chameleon_lab.games.heuristics`)::

    from numba import njit
    from chameleon_lab.games.chameleon import kernel as K
    from chameleon_lab.games.chameleon.heuristics import HEURISTICS

    @njit
    def queens_count_double(state, out):
        out[:] = 0.0
        for s in range(state[K.NSLOTS]):
            if state[K.ALIVE + s]:
                out[state[K.PL + s]] += 2.0 if K.role_at(state, s) == K.QUEEN else 1.0

    HEURISTICS.register("queens2", queens_count_double)

The four functions of the thesis (section 5, table 5.2) follow
``reference/original-semantics.md``: role points KNIGHT 1, BISHOP 2, ROOK 3, QUEEN 5.

Three of them have an *incremental form* (``after_move``, see
:func:`~chameleon_lab.games.heuristics.after_move_of`): the scores after a move that
removes no pawn differ from the counts the kernel keeps only by the mover's role points
(:func:`.kernel.quiet_gain`), so a search one ply above its depth limit scores most
leaves without making the move. The improved searches ran 1.5 to 2 times as fast with
them on the midgame positions of ``chameleon-lab bench depths`` (same nodes, values and
moves); ``tests/test_properties.py`` checks every answer against making the move.

A heuristic runs at every leaf. If it calls a compiled function that is not inlined (small
ones are; a larger helper such as ``_pawns_and_roles`` only with
``forceinline=True``), numba keeps atomic reference-count updates of the array arguments
around the call, which can cost more than the heuristic's own work (see "Speed" in
:mod:`chameleon_lab.games.chameleon.kernel`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from ..heuristics import HeuristicRegistry, normalize
from . import kernel as K

#: The heuristics of Chameleon Chess by the names of the conformance contract; the
#: original program's method names (``countPawns100Roles``) are accepted too.
HEURISTICS = HeuristicRegistry("chameleon", default="pawns100roles")


@njit(cache=True, forceinline=True)
def _pawns_and_roles_after(
    state: np.ndarray, move: int, out: np.ndarray, per_pawn: float, per_role: float
) -> bool:
    """The incremental form of ``per_pawn`` per pawn plus ``per_role`` times its role
    points (see :func:`~chameleon_lab.games.heuristics.after_move_of`): after a move that
    removes no pawn only the mover's role points change (:func:`.kernel.quiet_gain`).

    The forms are not cached on disk: numba's cache checks only the file a function is
    written in, so a cached form would keep an edited :func:`.kernel.quiet_gain` from a
    test that calls it directly (searches inline the source afresh either way)."""
    gain = K.quiet_gain(state, move)
    if gain == K.NOT_QUIET:
        return False
    for p in range(4):
        out[p] = per_pawn * state[K.PCOUNT + p] + per_role * state[K.ROLEPTS + p]
    out[state[K.PL + (move & 15)]] += per_role * gain
    return True


@njit(forceinline=True)  # inlined into the leaf loops; not cached: see _pawns_and_roles_after
def count_pawns_after(state: np.ndarray, move: int, out: np.ndarray) -> bool:
    """``countPawns`` after ``move``, where it removes no pawn."""
    return _pawns_and_roles_after(state, move, out, 1.0, 0.0)


@njit(forceinline=True)  # inlined into the leaf loops; not cached: see _pawns_and_roles_after
def count_pawns_10_roles_after(state: np.ndarray, move: int, out: np.ndarray) -> bool:
    """``countPawns10Roles`` after ``move``, where it removes no pawn."""
    return _pawns_and_roles_after(state, move, out, 10.0, 1.0)


@njit(forceinline=True)  # inlined into the leaf loops; not cached: see _pawns_and_roles_after
def count_pawns_100_roles_after(state: np.ndarray, move: int, out: np.ndarray) -> bool:
    """``countPawns100Roles`` after ``move``, where it removes no pawn."""
    return _pawns_and_roles_after(state, move, out, 100.0, 1.0)


@HEURISTICS.builtin("pawns", "countPawns", after_move=count_pawns_after)
@njit(cache=True)
def count_pawns(state: np.ndarray, out: np.ndarray) -> None:
    """``countPawns``: 1 per pawn."""
    for i in range(4):
        out[i] = 0.0
    for s in range(state[K.NSLOTS]):
        if state[K.ALIVE + s] != 0:
            out[state[K.PL + s]] += 1.0


@njit(cache=True, forceinline=True)  # inlined: see the module docstring
def _pawns_and_roles(state: np.ndarray, out: np.ndarray, per_pawn: float) -> None:
    """``per_pawn`` per pawn plus its role points, from the counts the kernel keeps up
    to date (``PCOUNT``, ``ROLEPTS``): the same sum as walking the pawns, without the
    walk (all terms are small integers, so the floats are exact either way)."""
    for p in range(4):
        out[p] = per_pawn * state[K.PCOUNT + p] + state[K.ROLEPTS + p]


@HEURISTICS.builtin("pawns10roles", "countPawns10Roles", after_move=count_pawns_10_roles_after)
@njit(cache=True)
def count_pawns_10_roles(state: np.ndarray, out: np.ndarray) -> None:
    """``countPawns10Roles``: per pawn 10 + its role points."""
    _pawns_and_roles(state, out, 10.0)


@HEURISTICS.builtin("pawns100roles", "countPawns100Roles", after_move=count_pawns_100_roles_after)
@njit(cache=True)
def count_pawns_100_roles(state: np.ndarray, out: np.ndarray) -> None:
    """``countPawns100Roles``: per pawn 100 + its role points (the thesis's choice)."""
    _pawns_and_roles(state, out, 100.0)


@HEURISTICS.builtin("pawns100moves", "countPawns100Moves")
@njit(cache=True)
def count_pawns_100_moves(state: np.ndarray, out: np.ndarray) -> None:
    """``countPawns100Moves``: per pawn 100 + the number of its targets, whoever is to move."""
    for i in range(4):
        out[i] = 0.0
    for s in range(state[K.NSLOTS]):
        if state[K.ALIVE + s] != 0:
            out[state[K.PL + s]] += 100.0 + K.count_targets(state, s)


def evaluate(
    state: np.ndarray,
    heuristic: str | Callable[..., None] = "pawns100roles",
    normalized: bool = False,
) -> np.ndarray:
    """The score vector of a kernel state (for notebooks; searches call heuristics directly)."""
    out = np.zeros(4)
    HEURISTICS.get(heuristic).function(state, out)
    if normalized:
        normalize(out)
    return out


#: The features of :func:`weighted_evaluator`, in the order of its weights: per player,
#: pawns, role points (as the thesis's heuristics count them), mobility (the targets of
#: every pawn, whoever is to move, as ``countPawns100Moves`` counts them) and centre
#: (per pawn 0 to 7: how near it stands to the centre of the current, shrinking board).
WEIGHTED_FEATURES = ("pawns", "roles", "mobility", "centre")


def weighted_evaluator(
    pawns: float, roles: float, mobility: float = 0.0, centre: float = 0.0
) -> Callable[..., None]:
    """A compiled heuristic scoring each player ``pawns * pawns + roles * role points +
    mobility * targets + centre * closeness to the centre`` (:data:`WEIGHTED_FEATURES`).

    The weights are compiled in as constants, so a search pays for a feature only where
    its weight is not 0: weights ``(100, 1, 0, 0)`` give exactly ``countPawns100Roles``
    (and the same speed, save the incremental form), ``(100, 0, 1, 0)`` exactly
    ``countPawns100Moves``. A pawn's closeness is ``(14 - |2r - (top + bottom)| - |2c -
    (left + right)|) / 2`` for its row ``r`` and column ``c`` within the board's current
    limits: 7 at the centre of an 8x8 board, 0 in its corners, never negative. Register
    one with :func:`chameleon_lab.games.weighted.weighted_heuristic`, which checks the
    weights and names the function by them.
    """
    wp, wr, wm, wc = float(pawns), float(roles), float(mobility), float(centre)

    @njit
    def weighted(state: np.ndarray, out: np.ndarray) -> None:
        """Weighted pawns, roles, mobility and centre (weights compiled in)."""
        for p in range(4):
            out[p] = wp * state[K.PCOUNT + p] + wr * state[K.ROLEPTS + p]
        if wm != 0.0 or wc != 0.0:
            rows = state[K.MINR] + state[K.MAXR]
            cols = state[K.MINC] + state[K.MAXC]
            for s in range(state[K.NSLOTS]):
                if state[K.ALIVE + s] != 0:
                    p = state[K.PL + s]
                    if wm != 0.0:
                        out[p] += wm * K.count_targets(state, s)
                    if wc != 0.0:
                        sq = state[K.SQ + s]
                        far = abs(2 * (sq >> 3) - rows) + abs(2 * (sq & 7) - cols)
                        out[p] += wc * (0.5 * (14 - far))

    return weighted
