"""Othello as a game of the library: ``get_game("othello")`` (the standard start) or
``get_game("othello", variant="reversi")`` (seed 003: the empty board, the first four
discs placed on the centre)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..protocol import SCORE, GameInfo, GameOps
from ..registry import Game, Param, numbered_by_code, register_game
from . import kernel
from .heuristics import OTHELLO_HEURISTICS, score_bound
from .position import OthelloPosition


def _players_alive(state: np.ndarray) -> np.ndarray:
    return np.array([1, 1, 0, 0], dtype=np.int64)


def _side_to_move(state: np.ndarray) -> int:
    return int(state[kernel.SIDE])


def _variant(value: Any) -> str:
    if not isinstance(value, str) or value not in kernel.VARIANTS:
        raise ValueError(f"unknown variant; valid variants: {', '.join(kernel.VARIANTS)}")
    return value


def othello_ops() -> GameOps:
    """The compiled functions of Othello (the same for both variants)."""
    return GameOps(
        "othello",
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
    )


def max_length(variant: str) -> int:
    """The most plies of a game: every placement fills an empty square (60 after the
    Othello start, 64 in Reversi), and a pass is only legal when the opponent then has
    a placement, so no two passes follow each other and no pass ends the game: each pass
    is followed by a placement after the opening, at most 60 passes. Hence 120 plies in
    Othello and 124 in Reversi (loose: real games rarely pass more than a few times)."""
    return 120 if variant == "othello" else 124


def _build(variant: str) -> Game:
    info = GameInfo(
        name="othello",
        long_name="Othello" if variant == "othello" else "Reversi (Othello rules, empty start)",
        params={"variant": variant},
        players=(0, 1),
        player_names=("black", "white"),
        zero_sum=True,
        utility=SCORE,
        min_utility=-64.0,
        max_utility=64.0,
        has_pass=True,
        max_length=max_length(variant),
    )
    return Game(
        info, othello_ops(), OthelloPosition, OTHELLO_HEURISTICS, lambda: kernel.new_state(variant)
    )


register_game(
    "othello",
    "Othello",
    [
        Param(
            "variant",
            "othello",
            _variant,
            "othello (the standard start: white d4 e5, black d5 e4) or reversi (seed 003: "
            "an empty board whose first four discs go on the centre squares, black first)",
        )
    ],
    _build,
    "8 x 8, black moves first; a move must flip; a player without a move passes; the game "
    "ends when neither can move; the final disc difference, empty squares to the winner.",
    actions=numbered_by_code(65),  # the squares a1 = 0 .. h8 = 63, pass 64
)
