"""TicTacToe and Five-in-a-row as games of the library: one kernel, two registry
entries (``get_game("tictactoe")``, ``get_game("gomoku", width=9, height=9, k=5)``)."""

from __future__ import annotations

import numpy as np

from ..protocol import WIN_LOSS, GameInfo, GameOps
from ..registry import Game, Param, numbered_by_code, register_game, whole
from . import kernel
from .heuristics import GOMOKU_HEURISTICS, TICTACTOE_HEURISTICS, score_bound
from .position import GomokuPosition, TicTacToePosition


def _players_alive(state: np.ndarray) -> np.ndarray:
    return np.array([1, 1, 0, 0], dtype=np.int64)


def _side_to_move(state: np.ndarray) -> int:
    return int(state[kernel.NSTONES] % 2)


def mnk_ops(name: str, width: int, height: int, k: int) -> GameOps:
    """The compiled functions of an m,n,k-game (the same for every board; only the
    table sizes depend on it)."""
    return GameOps(
        name,
        kernel.generate,
        kernel.make,
        kernel.unmake,
        kernel.player_of,
        max_moves=width * height,
        undo_size=kernel.UNDO_SIZE,
        players_alive=_players_alive,
        key=kernel.key,
        returns=kernel.returns,
        # a won position must outweigh every heuristic score (see score_bound)
        terminal_scale=max(1e6, 10.0 * score_bound(width, height, k)),
        side_to_move=_side_to_move,
    )


def _build_tictactoe() -> Game:
    info = GameInfo(
        name="tictactoe",
        long_name="TicTacToe",
        params={},
        players=(0, 1),
        player_names=("X", "O"),
        zero_sum=True,
        utility=WIN_LOSS,
        max_length=9,
    )
    return Game(
        info,
        mnk_ops("tictactoe", 3, 3, 3),
        TicTacToePosition,
        TICTACTOE_HEURISTICS,
        lambda: kernel.new_state(3, 3, 3),
    )


def _build_gomoku(width: int, height: int, k: int) -> Game:
    longest = max(width, height)
    if k > longest:
        raise ValueError(
            f"gomoku parameter k={k}: k larger than the board ({width} x {height}); "
            f"k must be a whole number 1..{longest}"
        )
    info = GameInfo(
        name="gomoku",
        long_name="Five-in-a-row (Fünf in einer Reihe)",
        params={"width": width, "height": height, "k": k},
        players=(0, 1),
        player_names=("black", "white"),
        zero_sum=True,
        utility=WIN_LOSS,
        max_length=width * height,
    )
    return Game(
        info,
        mnk_ops("gomoku", width, height, k),
        GomokuPosition,
        GOMOKU_HEURISTICS,
        lambda: kernel.new_state(width, height, k),
    )


def _cells(game: Game) -> int:
    return game.params["width"] * game.params["height"]


register_game(
    "tictactoe",
    "TicTacToe",
    [],
    _build_tictactoe,
    "3 x 3, X moves first, three in a row wins, a full board is a draw.",
    actions=numbered_by_code(9),  # the cell row * 3 + col, a1 = 0
)

register_game(
    "gomoku",
    "Five-in-a-row (Fünf in einer Reihe)",
    [
        Param("width", 7, whole(1, kernel.MAX_SIDE), "files of the board (a..), 1..26"),
        Param("height", 7, whole(1, kernel.MAX_SIDE), "ranks of the board (1..), 1..26"),
        Param("k", 5, whole(1, kernel.MAX_SIDE), "stones in a row that win, 1..max(width, height)"),
    ],
    _build_gomoku,
    "Free placement on a width x height board (seed 001: 7 x 7); k or more in a row in "
    "any of the four directions wins; black moves first; a full board is a draw.",
    actions=numbered_by_code(_cells),  # the cell row * width + col, a1 = 0
)
