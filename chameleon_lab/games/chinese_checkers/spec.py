"""Chinese Checkers as a game of the library: ``get_game("chinesecheckers", players=3)``
(the standard star of 121 holes) or ``get_game("chinesecheckers", players=2, size=3)``
(a smaller star)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..protocol import MAX_PLAYERS, WIN_LOSS, GameInfo, GameOps
from ..registry import Game, Param, numbered_by_code, register_game, whole
from . import board as B
from . import kernel
from .heuristics import CHINESE_CHECKERS_HEURISTICS, score_bound
from .position import ChineseCheckersPosition


def _players_alive(state: np.ndarray) -> np.ndarray:
    players = int(state[kernel.PLAYERS])
    return np.array([1 if p < players else 0 for p in range(MAX_PLAYERS)], dtype=np.int64)


def _side_to_move(state: np.ndarray) -> int:
    return int(state[kernel.SIDE])


def _check_players(value: Any) -> int:
    """The player count, 2, 3 or 4, or ``ValueError`` (six would need more than the
    protocol's four score entries)."""
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if not ok or int(value) not in B.SEATS:
        raise ValueError(
            "must be 2, 3 or 4 players (two face each other, three take every other "
            "corner, four two facing pairs; six are not offered: the library's score "
            f"vectors have {MAX_PLAYERS} entries)"
        )
    return int(value)


def _check_size(value: Any) -> int:
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if not ok or int(value) not in B.SIZES:
        raise ValueError(
            "must be the star's triangle side 2, 3 or 4 (37, 73 or 121 holes; 3, 6 or 10 "
            "pieces a player)"
        )
    return int(value)


CHINESE_CHECKERS_OPS = GameOps(
    "chinesecheckers",
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


def _build(players: int, size: int, turns: int) -> Game:
    limit = turns * players
    if limit > kernel.MAX_LIMIT:
        raise ValueError(
            f"turns={turns} with {players} players is {limit} moves; a game may last at "
            f"most {kernel.MAX_LIMIT} (turns <= {kernel.MAX_LIMIT // players})"
        )
    info = GameInfo(
        name="chinesecheckers",
        long_name="Chinese Checkers",
        params={"players": players, "size": size, "turns": turns},
        players=tuple(range(players)),
        player_names=tuple(B.CORNER_NAMES[c] for c in B.SEATS[players]),
        zero_sum=players == 2,
        utility=WIN_LOSS,
        has_pass=True,
        max_length=limit,
    )
    return Game(
        info,
        CHINESE_CHECKERS_OPS,
        ChineseCheckersPosition,
        CHINESE_CHECKERS_HEURISTICS,
        lambda: kernel.new_state(players, size, limit),
    )


def _action_count(game: Game) -> int:
    return 128 * len(B.holes(game.params["size"]))


register_game(
    "chinesecheckers",
    "Chinese Checkers",
    [
        Param("players", 3, _check_players, "how many play: 2, 3 or 4"),
        Param(
            "size",
            4,
            _check_size,
            "the star's triangle side: 4 the standard board (121 holes, 10 pieces a "
            "player), 3 (73, 6) or 2 (37, 3)",
        ),
        Param(
            "turns",
            100,
            whole(1, kernel.MAX_LIMIT),
            "each player's most moves: after turns x players moves without a winner the "
            "game ends, ranked by the steps the pieces have left",
        ),
    ],
    _build,
    "the star of six triangles around a hexagon; each player's pieces start in one "
    "triangle and race to the opposite one by steps and chains of hops over any piece; "
    "a piece at home stays there; the first player whose home is full, with at least "
    "one of its own pieces among those filling it, wins.",
    actions=numbered_by_code(_action_count),  # from * 128 + to; a pass 0
)
