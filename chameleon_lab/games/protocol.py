"""The protocol a game offers to the compiled searches.

A game is a set of numba-compiled functions over a flat ``int64`` state array:

* ``generate(state, moves, ply) -> n``: write the moves into ``moves[ply, :n]``
* ``make(state, move, undo, ply)``: play a move, recording what to take back in ``undo[ply]``
* ``unmake(state, undo, ply)``: take it back
* ``player_of(state) -> p``: the player to move (0..3), or -1 once the game is over
* ``key(state) -> k``: a 64-bit key, equal for positions a search may treat as equal
  (transposition tables use it; collisions must be negligible)

and a heuristic ``evaluate(state, out)`` writing one score per player into ``out[4]``.
The searches receive these functions as arguments, so numba compiles one specialised
version of each search per game and heuristic, with the calls inlined, and no search is
written twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class GameOps:
    """The compiled functions and table sizes of a game, as the searches need them."""

    name: str
    generate: Callable
    make: Callable
    unmake: Callable
    player_of: Callable
    max_moves: int
    undo_size: int
    #: Python-level: a 0/1 mask of the players still in the game at ``state``.
    players_alive: Callable
    key: Callable
