"""Chameleon Chess as a game of the library: its declaration, compiled functions and
registry entry (``get_game("chameleon", players="RGYB")``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from ..protocol import WIN_LOSS, GameInfo, GameOps
from ..registry import Game, Param, register_game
from . import kernel
from .board import Colour
from .rules import parse_players, start_state
from .zobrist import zobrist_key


def _players_alive(state: np.ndarray) -> np.ndarray:
    return (state[kernel.PCOUNT : kernel.PCOUNT + 4] > 0).astype(np.int64)


@njit(cache=True)
def chameleon_returns(state: np.ndarray, out: np.ndarray) -> None:
    """At the end (one player left): +1 for the survivor, -1 for every other colour."""
    for p in range(4):
        out[p] = 1.0 if state[kernel.PCOUNT + p] > 0 else -1.0


@njit(cache=True)
def generate_captures(state: np.ndarray, moves: np.ndarray, ply: int) -> int:
    """The capturing moves, in generation order (the noisy moves of a quiescence search)."""
    n = kernel.generate_moves(state, moves, ply)
    k = 0
    for i in range(n):
        m = moves[ply, i]
        if state[kernel.BOARD + (m >> 4)] != 0:  # the target square (see kernel)
            moves[ply, k] = m
            k += 1
    return k


#: The compiled functions the searches use for Chameleon Chess (every seating).
CHAMELEON_OPS = GameOps(
    "chameleon",
    kernel.generate_moves,
    kernel.make_move,
    kernel.unmake_move,
    kernel.player_of,
    kernel.MAX_MOVES,
    kernel.UNDO_SIZE,
    _players_alive,
    zobrist_key,
    returns=chameleon_returns,
    heuristic_at_terminal=True,  # as the original program scored its leaves
    side_to_move=lambda state: int(state[kernel.TOMOVE]),
    noisy=generate_captures,
    pass_to=kernel.pass_to,
)


def _check_players(value: Any) -> str:
    if isinstance(value, str):
        value = value.replace(",", "").replace(" ", "")
        items: Any = list(value) if len(value) <= 4 else [value]
    else:
        items = value
    try:
        seated = parse_players(items)
    except TypeError:
        raise ValueError("must be two to four colours such as 'RGYB' or ['RED', 'BLUE']") from None
    return "".join(c.name[0] for c in seated)


def _build(players: str) -> Game:
    from . import heuristics
    from .position import Position

    seated = tuple(int(Colour[name]) for name in (_full(ch) for ch in players))
    info = GameInfo(
        name="chameleon",
        long_name="Chameleon Chess (Chamäleon Schach)",
        params={"players": players},
        players=seated,
        player_names=tuple(c.name for c in Colour),
        zero_sum=len(seated) == 2,
        utility=WIN_LOSS,
    )
    return Game(info, CHAMELEON_OPS, Position, heuristics.HEURISTICS, lambda: start_state(players))


def _full(letter: str) -> str:
    return next(c.name for c in Colour if c.name[0] == letter)


def _actions(game: Game) -> tuple[int, Callable[[Any], int]]:
    """A move is its origin square * 64 + its target square (squares ``row * 8 + col``,
    row 0 the top, rank 8, as the kernel numbers them): the kernel's move code names
    the pawn by its slot, which a capture renumbers."""
    return 64 * 64, lambda move: int(move.origin) * 64 + int(move.target)


register_game(
    "chameleon",
    "Chameleon Chess (Chamäleon Schach)",
    [Param("players", "RGYB", _check_players, "the seated colours, e.g. 'RG' or 'RGYB'")],
    _build,
    "Two to four players on a shrinking 8x8 board; a pawn's role depends on its field.",
    seats="players",
    actions=_actions,
)
