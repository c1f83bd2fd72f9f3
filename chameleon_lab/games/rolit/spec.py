"""Rolit as a game of the library: ``get_game("rolit")`` (four colours) or
``get_game("rolit", players="RG")`` (the seated colours)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..protocol import WIN_LOSS, GameInfo, GameOps
from ..registry import Game, Param, numbered_by_code, register_game
from . import kernel
from .heuristics import ROLIT_HEURISTICS, score_bound
from .position import RolitPosition


def _players_alive(state: np.ndarray) -> np.ndarray:
    seated = int(state[kernel.SEATED])
    return np.array([(seated >> c) & 1 for c in range(4)], dtype=np.int64)


def _side_to_move(state: np.ndarray) -> int:
    return int(state[kernel.SIDE])


def _check_players(value: Any) -> str:
    """The seated colours as letters in the order of play, or ``ValueError``."""
    shape = (
        "players is a string of two to four of the letters R, Y, G, B (red, yellow, green, "
        "blue), each once, such as 'RYGB' or 'RG'"
    )
    if isinstance(value, (list, tuple)) and all(
        isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 4 for v in value
    ):  # seat numbers, as a session's seating gives them
        value = "".join(kernel.LETTERS[v] for v in value)
    if not isinstance(value, str):
        raise ValueError(f"players {value!r} is not a string: {shape}")
    letters = value.strip().upper()
    if not 2 <= len(letters) <= 4 or set(letters) - set(kernel.LETTERS):
        raise ValueError(f"players {value!r}: {shape}")
    if len(set(letters)) != len(letters):
        raise ValueError(f"players {value!r} names a colour twice: {shape}")
    return "".join(ch for ch in kernel.LETTERS if ch in letters)


ROLIT_OPS = GameOps(
    "rolit",
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


def _build(players: str) -> Game:
    seated = tuple(kernel.LETTERS.index(ch) for ch in players)
    info = GameInfo(
        name="rolit",
        long_name="Rolit",
        params={"players": players},
        players=seated,
        player_names=kernel.COLOURS,
        zero_sum=len(seated) == 2,
        utility=WIN_LOSS,
        max_length=kernel.LENGTH,
    )
    return Game(info, ROLIT_OPS, RolitPosition, ROLIT_HEURISTICS, lambda: kernel.new_state(players))


register_game(
    "rolit",
    "Rolit",
    [
        Param(
            "players",
            "RYGB",
            _check_players,
            "the seated colours, letters of R, Y, G, B (red, yellow, green, blue; they move "
            "in that order), e.g. 'RYGB', 'RYG' or 'RG'",
        )
    ],
    _build,
    "8 x 8, one ball of each colour on the centre (red d4, yellow e4, green e5, blue d5); "
    "a capture encloses other balls as in Othello and must be played when possible, "
    "otherwise a ball goes next to any ball; the game ends on the full board; the most "
    "balls win (a shared first place is a draw).",
    seats="players",
    actions=numbered_by_code(64),  # the squares a1 = 0 .. h8 = 63
)
