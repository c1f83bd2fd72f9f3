"""The original program's clock as a node counter: how many positions it searched in a
given time at a Chameleon Chess position.

The original's cost of a position grew with the pawns on the board (its move generation
and evaluation walk the pawns), in proportion to ``pawns + PAWN_COST_OFFSET``, as its
time-mode records show (:mod:`chameleon_lab.thesis.calibration` measures it). A node
rate is stated at the start position; :func:`original_clock_nodes` turns a time budget
into the nodes the original would have searched in it here. Any search counting
expanded plus evaluated positions can run on this clock (``node_rate=`` of
:func:`chameleon_lab.search.api.search`): the same positions on every machine.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .heuristics import count_pawns

#: the original's cost of a position was proportional to ``pawns + PAWN_COST_OFFSET``
#: (measured from its time-mode records, see :mod:`chameleon_lab.thesis.calibration`)
PAWN_COST_OFFSET = 1
#: the pawns of the start position, where a node rate is stated
START_PAWN_COUNT = 16


def pawns_on_board(state: np.ndarray) -> int:
    """The pawns on the board of a Chameleon Chess state."""
    counts = np.zeros(4)
    count_pawns(state, counts)
    return int(counts.sum())


def original_clock_nodes(state: np.ndarray, time_ms: float, node_rate: float) -> float:
    """The nodes the original program searched in ``time_ms`` at a Chameleon Chess
    position, given its ``node_rate`` (nodes per millisecond at the start position): its
    cost of a position grew in proportion to ``pawns + PAWN_COST_OFFSET``, so with fewer
    pawns it searched proportionally more nodes in the same time."""
    return time_ms * node_rate * _speed_up(pawns_on_board(state))


def original_clock_ms(nodes: ArrayLike, pawns: ArrayLike, node_rate: ArrayLike) -> np.ndarray:
    """What the original's clock read after ``nodes`` positions (expanded plus evaluated)
    searched at a position of ``pawns`` pawns, given its ``node_rate``: the inverse of
    :func:`original_clock_nodes`, so a search on the emulated clock has a time a move
    (and an overshoot of its budget) on the clock its budget was set on. Arrays
    broadcast."""
    rate = np.asarray(node_rate, dtype=float) * _speed_up(np.asarray(pawns, dtype=float))
    return np.asarray(nodes, dtype=float) / rate


def _speed_up(pawns: ArrayLike) -> ArrayLike:
    """How many times the start position's node rate the original searched at a position
    with ``pawns`` pawns."""
    return (START_PAWN_COUNT + PAWN_COST_OFFSET) / (pawns + PAWN_COST_OFFSET)
