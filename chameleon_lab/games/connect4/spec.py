"""Connect Four as a game of the library: ``get_game("connect4", width=7, height=6)``."""

from __future__ import annotations

import numpy as np

from ..protocol import SCORE, GameInfo, GameOps
from ..registry import Game, Param, numbered_by_code, register_game, whole
from . import kernel
from .heuristics import CONNECT4_HEURISTICS, score_bound
from .position import Connect4Position


def _players_alive(state: np.ndarray) -> np.ndarray:
    return np.array([1, 1, 0, 0], dtype=np.int64)


def _side_to_move(state: np.ndarray) -> int:
    return int(state[kernel.NMOVES] % 2)


def max_score(width: int, height: int) -> int:
    """The best score a win can have: the first player's fourth stone wins, with
    ``(width * height + 1) // 2`` stones to play (see :mod:`.kernel`, Returns)."""
    return (width * height + 1) // 2 + 1 - 4


def connect4_ops(width: int, height: int) -> GameOps:
    """The compiled functions of Connect Four (the same for every board; only the table
    sizes depend on it)."""
    return GameOps(
        "connect4",
        kernel.generate,
        kernel.make,
        kernel.unmake,
        kernel.player_of,
        max_moves=width,
        undo_size=kernel.UNDO_SIZE,
        players_alive=_players_alive,
        key=kernel.key,
        returns=kernel.returns,
        # a finished position is worth 2 * score * scale >= 2 * scale to the winner,
        # more than any difference of heuristic scores (each below score_bound)
        terminal_scale=max(1e6, score_bound(width, height)),
        side_to_move=_side_to_move,
    )


def _build(width: int, height: int) -> Game:
    if not kernel.size_ok(width, height):
        raise ValueError(
            f"connect4 parameters width={width}, height={height}: width * (height + 1) = "
            f"{width * (height + 1)}, but must be at most {kernel.MAX_BITS} (a 64-bit "
            "bitboard with a sentinel row per column must fit); width and height are "
            f"whole numbers {kernel.MIN_SIDE}..{kernel.MAX_SIDE}"
        )
    best = max_score(width, height)
    info = GameInfo(
        name="connect4",
        long_name="Connect Four (Vier gewinnt)",
        params={"width": width, "height": height},
        players=(0, 1),
        player_names=("red", "yellow"),
        zero_sum=True,
        utility=SCORE,
        min_utility=-float(best),
        max_utility=float(best),
        max_length=width * height,
    )
    return Game(
        info,
        connect4_ops(width, height),
        Connect4Position,
        CONNECT4_HEURISTICS,
        lambda: kernel.new_state(width, height),
    )


_SIDES = f"{kernel.MIN_SIDE}..{kernel.MAX_SIDE}, width * (height + 1) <= {kernel.MAX_BITS}"

register_game(
    "connect4",
    "Connect Four (Vier gewinnt)",
    [
        Param(
            "width",
            7,
            whole(kernel.MIN_SIDE, kernel.MAX_SIDE),
            f"columns, {_SIDES}",
        ),
        Param(
            "height",
            6,
            whole(kernel.MIN_SIDE, kernel.MAX_SIDE),
            f"rows, {_SIDES}",
        ),
    ],
    _build,
    "Stones dropped into columns 1..width fall to the lowest free cell; four in a row "
    "(horizontal, vertical, diagonal) wins; a full board is a draw; red (player 0) "
    "moves first. Returns are the solvers' score: the winner's stones left unplayed + 1.",
    actions=numbered_by_code(lambda game: game.params["width"]),  # column 1 is 0
)
