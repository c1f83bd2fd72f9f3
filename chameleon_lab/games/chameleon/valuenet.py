"""Chameleon Chess as a value network reads it: the inputs and the compiled forward pass.

Colours are counted from the player to move along the turn order (red, blue, yellow,
green, red, ...): slot 0 the mover, slot 1 the colour that follows it, and so on, four
slots whichever colours are seated. A network has ``4 * 4 * 64`` inputs, one per slot,
role and square: input ``(slot * 4 + role) * 64 + square`` is 1 where a pawn of that
slot's colour stands on ``square`` (``row * 8 + col``) in ``role`` (knight 0, queen 1,
bishop 2, rook 3, as the field gives it). Slots relative to the mover make one network
serve every player and every seating of two to four players (a seated colour that has
lost, or one not seated, simply has no pawns); the role is an input because it, not
the pawn, decides what a pawn threatens. The shrinking board needs no inputs of its
own: its limits are the pawns' bounding box.

It has four outputs, one per slot: the slot's expected share of the final result (1
for the winner, shared among the players still on the board when the move limit stops
the game, 0 for the others and for colours not seated), as
:mod:`chameleon_lab.analysis.valuenet` trains it. The compiled function writes ``out[c]
= 1 + SCALE * share`` for each colour ``c`` with pawns (``share`` clipped to ``[0,
1]``) and 0 for a colour without (as the game's other heuristics score a player who
has lost): never negative, summing to at most ``4 + 4 * SCALE``, as every multi-player
search needs.

The forward pass does not build the input vector: it walks the pawns once and adds each
pawn's row of first-layer weights (its input's weights to every hidden unit, stored
together) into the hidden sums, which start at the biases; then the activations and,
per slot, one dot product with that slot's output weights (stored together too). The
sums are taken in the order the former hidden-unit-by-hidden-unit pass took them, so
the outputs are the same to the last bit, at a third of the time (docs/benchmarks.md,
"Learned evaluations"). The hidden sums are an array on the stack
(``stack_floats`` of :mod:`chameleon_lab.stack_arrays`): the searches may not allocate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numba import njit

from ...stack_arrays import stack_floats
from . import kernel as K
from .board import NEXT_PLAYER

#: Turn-order slots (colours counted from the player to move).
SLOTS = 4
#: Roles a pawn can have (knight, queen, bishop, rook).
ROLES = 4
#: Squares of the board.
SQUARES = 64
#: Inputs of every Chameleon Chess network.
INPUTS = SLOTS * ROLES * SQUARES


def _cycle_rank() -> np.ndarray:
    """Each colour's place in the turn order counted from red."""
    rank, c = np.zeros(SLOTS, dtype=np.int64), 0
    for k in range(SLOTS):
        rank[c] = k
        c = int(NEXT_PLAYER[c])
    return rank


#: ``RANK[c]``: colour ``c``'s place in the turn order (red 0, blue 1, yellow 2, green 3).
RANK = _cycle_rank()
#: ``BY_RANK[k]``: the colour at place ``k`` of the turn order.
BY_RANK = np.argsort(RANK)


def slot(colour: int, mover: int) -> int:
    """The slot of ``colour`` seen from the player ``mover`` to move."""
    return int((RANK[colour] - RANK[mover]) % SLOTS)


def inputs(state: np.ndarray) -> np.ndarray:
    """A position as the network sees it (see the module docstring)."""
    mover = int(state[K.TOMOVE])
    x = np.zeros(INPUTS)
    for s in range(int(state[K.NSLOTS])):
        if state[K.ALIVE + s]:
            k = slot(int(state[K.PL + s]), mover)
            x[(k * ROLES + int(K.role_at(state, s))) * SQUARES + int(state[K.SQ + s])] = 1.0
    return x


def shares(returns: Sequence[float], state: np.ndarray, seated: Sequence[int]) -> np.ndarray:
    """Each slot's share of a finished game's ``returns`` (by colour, ``seated`` the
    colours of the game), slots counted from the player to move in ``state``: the best
    return among the seated colours is split among those that reach it; the others,
    and colours not seated, get 0."""
    mover = int(state[K.TOMOVE])
    best = max(float(returns[c]) for c in seated)
    winners = [int(c) for c in seated if float(returns[c]) == best]
    out = np.zeros(SLOTS)
    for c in winners:
        out[slot(c, mover)] = 1.0 / len(winners)
    return out


def forward(
    w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, relu: bool, scale: float
) -> Callable:
    """The compiled ``evaluate(state, out)`` of a network with first layer ``w1``
    (inputs, hidden), ``b1``, output layer ``w2`` (hidden, slots) and ``b2`` (see the
    module docstring)."""
    if w1.shape[0] != INPUTS or w2.shape != (w1.shape[1], SLOTS) or b2.shape != (SLOTS,):
        raise ValueError(f"the arrays do not fit: w1 {w1.shape}, w2 {w2.shape}, b2 {b2.shape}")
    rows = np.ascontiguousarray(w1)  # (inputs, hidden): an input's weights together
    cols = np.ascontiguousarray(w2.T)  # (slots, hidden): a slot's output weights together
    b1, b2 = np.array(b1), np.array(b2)
    rank, by_rank = RANK.copy(), BY_RANK.copy()
    hidden = b1.shape[0]

    @njit
    def value_net(state, out):
        """A value network for Chameleon Chess (one hidden layer; its arrays compiled in)."""
        first = rank[state[K.TOMOVE]]
        z = stack_floats(hidden)  # the searches may not allocate: on the stack
        for j in range(hidden):
            z[j] = b1[j]
        for s in range(state[K.NSLOTS]):
            if state[K.ALIVE + s] != 0:
                k = (rank[state[K.PL + s]] - first) % SLOTS
                row = rows[(k * ROLES + K.role_at(state, s)) * SQUARES + state[K.SQ + s]]
                for j in range(hidden):
                    z[j] += row[j]
        for j in range(hidden):
            z[j] = max(z[j], 0.0) if relu else np.tanh(z[j])
        for k in range(SLOTS):
            c = by_rank[(first + k) % SLOTS]
            if state[K.PCOUNT + c] > 0:
                y = 0.0
                for j in range(hidden):
                    y += z[j] * cols[k, j]
                out[c] = 1.0 + scale * min(max(y + b2[k], 0.0), 1.0)
            else:
                out[c] = 0.0

    return value_net
