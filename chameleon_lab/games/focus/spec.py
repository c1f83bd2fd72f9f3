"""Focus as a game of the library: ``get_game("focus", players=4)`` (the short game
the multi-player papers play) or ``get_game("focus", players=2, goal="last")``
(Sackson's: the last player able to move wins)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..protocol import MAX_PLAYERS, WIN_LOSS, GameInfo, GameOps
from ..registry import Game, Param, numbered_by_code, register_game, whole
from . import kernel
from .heuristics import FOCUS_HEURISTICS, score_bound
from .position import FocusPosition

GOALS = ("short", "last")


def _players_alive(state: np.ndarray) -> np.ndarray:
    players = int(state[kernel.PLAYERS])
    return np.array([1 if p < players else 0 for p in range(MAX_PLAYERS)], dtype=np.int64)


def _side_to_move(state: np.ndarray) -> int:
    return int(state[kernel.SIDE])


def _check_players(value: Any) -> int:
    """The player count, 2, 3 or 4, or ``ValueError``."""
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if not ok or int(value) not in kernel.SHORT_GOALS:
        raise ValueError("must be 2, 3 or 4 players")
    return int(value)


def _check_goal(value: Any) -> str:
    if value not in GOALS:
        raise ValueError(
            "must be 'short' (the papers' game: captures win) or 'last' (Sackson's: the "
            "last player able to move wins)"
        )
    return str(value)


FOCUS_OPS = GameOps(
    "focus",
    kernel.generate,
    kernel.make,
    kernel.unmake,
    kernel.player_of,
    max_moves=kernel.MAX_MOVES,
    undo_size=kernel.UNDO_SIZE,
    players_alive=_players_alive,
    key=kernel.key,
    returns=kernel.returns,
    terminal_scale=max(1e6, 10.0 * score_bound()),
    side_to_move=_side_to_move,
    pass_to=kernel.pass_to,
)


def _build(players: int, goal: str, turns: int) -> Game:
    limit = turns * players
    if limit > kernel.MAX_LIMIT:
        raise ValueError(
            f"turns={turns} with {players} players is {limit} moves; a game may last at "
            f"most {kernel.MAX_LIMIT} (turns <= {kernel.MAX_LIMIT // players})"
        )
    info = GameInfo(
        name="focus",
        long_name="Focus",
        params={"players": players, "goal": goal, "turns": turns},
        players=tuple(range(players)),
        player_names=kernel.COLOURS[:players],
        zero_sum=players == 2,
        utility=WIN_LOSS,
        max_length=limit,
    )
    return Game(
        info,
        FOCUS_OPS,
        FocusPosition,
        FOCUS_HEURISTICS,
        lambda: kernel.new_state(players, limit, goal == "short"),
    )


register_game(
    "focus",
    "Focus",
    [
        Param("players", 4, _check_players, "how many play: 2, 3 or 4"),
        Param(
            "goal",
            "short",
            _check_goal,
            "'short': the papers' game, won by capturing 6 pieces (two players), 3 of "
            "each opponent or 10 (three), 2 of each or 10 (four); 'last': Sackson's, won "
            "by the last player able to move",
        ),
        Param(
            "turns",
            100,
            whole(1, kernel.MAX_LIMIT),
            "each player's most moves: after turns x players moves without a winner the "
            "game ends, the most captures winning",
        ),
    ],
    _build,
    "the 8 x 8 board without three squares in each corner; a player moves the top k "
    "pieces of a stack it tops exactly k squares along a rank or file onto any square, "
    "or enters a reserve piece anywhere; stacks above five lose their bottom pieces, "
    "the mover's own to its reserve, the others' captured; a player who cannot move is "
    "skipped.",
    actions=numbered_by_code(kernel.N_ACTIONS),  # from * 32 + direction * 8 + k; 2048 + to
)
