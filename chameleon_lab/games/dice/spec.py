"""Dice tipping as a game of the library: its declaration, compiled functions and
registry entry (``get_game("dice", target=8, start=4)``)."""

from __future__ import annotations

import numpy as np

from ..protocol import WIN_LOSS, GameInfo, GameOps
from ..registry import Game, Param, numbered_by_code, register_game, whole
from . import kernel


def _players_alive(state: np.ndarray) -> np.ndarray:
    return np.array([1, 1, 0, 0], dtype=np.int64)


#: The compiled functions the searches use for dice tipping (every target and start).
DICE_OPS = GameOps(
    "dice",
    kernel.generate,
    kernel.make,
    kernel.unmake,
    kernel.player_of,
    kernel.MAX_MOVES,
    kernel.UNDO_SIZE,
    _players_alive,
    kernel.key,
    returns=kernel.returns,
    side_to_move=lambda state: int(state[kernel.TURN]),
)


def _build(target: int, start: int) -> Game:
    from . import heuristics
    from .position import DicePosition

    info = GameInfo(
        name="dice",
        long_name="Dice tipping (Würfelkippen)",
        params={"target": target, "start": start},
        players=(0, 1),
        player_names=("first", "second"),
        zero_sum=True,
        utility=WIN_LOSS,
        max_length=max(0, target - start),  # every tip adds at least one
    )
    return Game(
        info, DICE_OPS, DicePosition, heuristics.HEURISTICS, lambda: kernel.new_state(target, start)
    )


register_game(
    "dice",
    "Dice tipping (Würfelkippen)",
    [
        Param("target", 8, whole(1, kernel.MAX_TARGET), "the sum to reach exactly"),
        Param("start", 4, whole(1, 6), "the face on top at the start (the first sum)"),
    ],
    _build,
    "Tip a die over an edge and add the face that comes up; reach the target exactly to win.",
    actions=numbered_by_code(6, offset=1),  # the face that comes up, minus 1
)
