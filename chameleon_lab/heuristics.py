"""Evaluation functions for Chameleon Chess, a registry by name, and normalisation.

A heuristic is a numba-compiled function with the signature::

    heuristic(state: int64[:], out: float64[4]) -> None

It writes one score per player into ``out`` (index = player colour, 0 for players
without pawns). ``state`` is the kernel state of :mod:`chameleon_lab.games.chameleon.kernel`
and must not be changed. Searches call it at their leaves and normalise the vector
themselves where the algorithm asks for it, so a heuristic returns raw scores.

Write your own in a notebook cell and pass it wherever a heuristic name is accepted::

    from numba import njit
    from chameleon_lab.games.chameleon import kernel as K

    @njit
    def queens_count_double(state, out):
        out[:] = 0.0
        for s in range(state[K.NSLOTS]):
            if state[K.ALIVE + s]:
                out[state[K.PL + s]] += 2.0 if K.role_at(state, s) == K.QUEEN else 1.0

The four functions of the thesis (section 5, table 5.2) follow
``reference/original-semantics.md``: role points KNIGHT 1, BISHOP 2, ROOK 3, QUEEN 5.

A heuristic runs at every leaf. If it calls a compiled function that is not inlined (small
ones are; a larger helper such as :func:`_pawns_and_roles` only with
``inline="always"``), numba keeps atomic reference-count updates of the array arguments
around the call, which can cost more than the heuristic's own work (see "Speed" in
:mod:`chameleon_lab.games.chameleon.kernel`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from .games.chameleon import kernel as K
from .games.chameleon.board import ROLE_POINTS

_ROLE_POINTS = ROLE_POINTS.astype(np.float64)


@njit(cache=True)
def count_pawns(state: np.ndarray, out: np.ndarray) -> None:
    """``countPawns``: 1 per pawn."""
    for i in range(4):
        out[i] = 0.0
    for s in range(state[K.NSLOTS]):
        if state[K.ALIVE + s] != 0:
            out[state[K.PL + s]] += 1.0


@njit(cache=True, inline="always")  # inlined: see the module docstring
def _pawns_and_roles(state: np.ndarray, out: np.ndarray, per_pawn: float) -> None:
    for i in range(4):
        out[i] = 0.0
    for s in range(state[K.NSLOTS]):
        if state[K.ALIVE + s] != 0:
            out[state[K.PL + s]] += per_pawn + _ROLE_POINTS[K.role_at(state, s)]


@njit(cache=True)
def count_pawns_10_roles(state: np.ndarray, out: np.ndarray) -> None:
    """``countPawns10Roles``: per pawn 10 + its role points."""
    _pawns_and_roles(state, out, 10.0)


@njit(cache=True)
def count_pawns_100_roles(state: np.ndarray, out: np.ndarray) -> None:
    """``countPawns100Roles``: per pawn 100 + its role points (the thesis's choice)."""
    _pawns_and_roles(state, out, 100.0)


@njit(cache=True)
def count_pawns_100_moves(state: np.ndarray, out: np.ndarray) -> None:
    """``countPawns100Moves``: per pawn 100 + the number of its targets, whoever is to move."""
    for i in range(4):
        out[i] = 0.0
    for s in range(state[K.NSLOTS]):
        if state[K.ALIVE + s] != 0:
            out[state[K.PL + s]] += 100.0 + K.count_targets(state, s)


@njit(cache=True, inline="always")  # inlined into the searches' leaves: no reference counts
def normalize(v: np.ndarray) -> None:
    """Divide every entry by ``v0 + v1 + v2 + v3`` (summed in that order), in place."""
    total = v[0] + v[1] + v[2] + v[3]
    for i in range(4):
        v[i] = v[i] / total


#: Heuristics by the names of the conformance contract and the session files.
HEURISTICS: dict[str, Callable[..., None]] = {
    "pawns": count_pawns,
    "pawns10roles": count_pawns_10_roles,
    "pawns100roles": count_pawns_100_roles,
    "pawns100moves": count_pawns_100_moves,
}

_ALIASES = {
    "countpawns": "pawns",
    "countpawns10roles": "pawns10roles",
    "countpawns100roles": "pawns100roles",
    "countpawns100moves": "pawns100moves",
}


def get_heuristic(name_or_function: str | Callable[..., None]) -> Callable[..., None]:
    """A heuristic by name (``"pawns100roles"`` or ``"countPawns100Roles"``) or as given.

    A compiled function is returned unchanged; an unknown name raises ``ValueError``
    listing the valid names.
    """
    if not isinstance(name_or_function, str):
        if not hasattr(name_or_function, "py_func"):
            raise ValueError(
                f"a heuristic is a name or a numba-compiled function (@njit), got "
                f"{name_or_function!r}; see chameleon_lab.heuristics for the signature"
            )
        return name_or_function
    key = name_or_function.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in HEURISTICS:
        raise ValueError(
            f"unknown heuristic {name_or_function!r}; valid names: {', '.join(HEURISTICS)}"
        )
    return HEURISTICS[key]


def heuristic_name(function: Callable[..., None]) -> str:
    """The registry name of a heuristic, or its function name for a researcher's own."""
    for name, fn in HEURISTICS.items():
        if fn is function:
            return name
    return getattr(function, "__name__", repr(function))


def evaluate(
    state: np.ndarray,
    heuristic: str | Callable[..., None] = "pawns100roles",
    normalized: bool = False,
) -> np.ndarray:
    """The score vector of a kernel state (for notebooks; searches call heuristics directly)."""
    out = np.zeros(4)
    get_heuristic(heuristic)(state, out)
    if normalized:
        normalize(out)
    return out
