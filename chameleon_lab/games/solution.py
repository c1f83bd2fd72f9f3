"""What an exact solver returns, for every solver of the library.

The generic solver (:mod:`chameleon_lab.search.solve`) and the solvers written for one
game (``chameleon_lab.games.connect4.solver``, ``chameleon_lab.games.othello.solver``)
answer with a :class:`Solution`; they check their table size with
:func:`check_solver_tt_bits`. Both live in the games layer so that a game's own solver
sits with its game without importing the search layer.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Solution:
    """An exact value and what the search did to prove it."""

    value: float
    move: int  # the kernel move of a best choice (-1 at a finished position)
    expanded: int
    evaluated: int
    tt_hits: int
    seconds: float
    from_book: bool = False  # looked up in an opening book, not searched

    @property
    def nodes(self) -> int:
        """Expanded plus evaluated positions."""
        return self.expanded + self.evaluated


def check_solver_tt_bits(tt_bits: int) -> int:
    """``tt_bits`` if it is a table size the exact solvers take (a whole number in
    0..30, 2**tt_bits entries), else ``ValueError``."""
    if isinstance(tt_bits, bool) or not isinstance(tt_bits, int) or not 0 <= tt_bits <= 30:
        raise ValueError(f"tt_bits must be a whole number in 0..30, got {tt_bits!r}")
    return tt_bits
