"""NIM as a game of the library: its declaration, compiled functions and registry entry
(``get_game("nim", heaps=[3, 4, 5], misere=False)``)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate
from typing import Any

import numpy as np

from ..protocol import WIN_LOSS, GameInfo, GameOps
from ..registry import Game, Param, boolean, register_game
from . import kernel


def _players_alive(state: np.ndarray) -> np.ndarray:
    return np.array([1, 1, 0, 0], dtype=np.int64)


def _check_heaps(value: Any) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)):
        raise ValueError(
            f"must be a list of 1..{kernel.MAX_HEAPS} heaps, each a whole number "
            f"0..{kernel.MAX_HEAP}, such as [3, 4, 5]"
        )
    if not 1 <= len(value) <= kernel.MAX_HEAPS:
        raise ValueError(f"must hold 1..{kernel.MAX_HEAPS} heaps, got {len(value)}")
    for i, h in enumerate(value):
        ok = isinstance(h, (int, np.integer)) and not isinstance(h, (bool, np.bool_))
        if not ok or not 0 <= h <= kernel.MAX_HEAP:
            raise ValueError(
                f"heap {i + 1} is {h!r}; each heap must be a whole number 0..{kernel.MAX_HEAP}"
            )
    return tuple(int(h) for h in value)


def _side_to_move(state: np.ndarray) -> int:
    return int(state[kernel.TURN])


def _build(heaps: tuple[int, ...], misere: bool) -> Game:
    from . import heuristics
    from .position import NimPosition

    ops = GameOps(
        "nim",
        kernel.generate,
        kernel.make,
        kernel.unmake,
        kernel.player_of,
        # heap h offers h moves; at least 1 so that move tables are never empty
        max(1, sum(heaps)),
        kernel.UNDO_SIZE,
        _players_alive,
        kernel.key,
        returns=kernel.returns,
        side_to_move=_side_to_move,
    )
    info = GameInfo(
        name="nim",
        long_name="NIM" + (" (misère)" if misere else ""),
        params={"heaps": heaps, "misere": misere},
        players=(0, 1),
        player_names=("first", "second"),
        zero_sum=True,
        utility=WIN_LOSS,
        max_length=sum(heaps),  # every move takes at least one object
    )
    return Game(
        info, ops, NimPosition, heuristics.HEURISTICS, lambda: kernel.new_state(heaps, misere)
    )


def _actions(game: Game) -> tuple[int, Callable[[Any], int]]:
    """Taking ``k`` from heap ``h`` is the objects on the heaps before ``h`` at the
    start, plus ``k - 1``: one id for each object at the start (at least one id)."""
    heaps = game.params["heaps"]
    first = [0, *accumulate(heaps)]  # the first id of each heap

    def number(move: Any) -> int:
        heap, take = divmod(int(move.code), kernel.MOVE_BASE)
        return first[heap] + take - 1

    return max(1, sum(heaps)), number


register_game(
    "nim",
    "NIM",
    [
        Param("heaps", (3, 4, 5), _check_heaps, "objects on each heap at the start (1..16 heaps)"),
        Param("misere", False, boolean, "whoever takes the last object loses (else wins)"),
    ],
    _build,
    "Players take any number of objects from one heap; the last object wins (or loses).",
    actions=_actions,
)
