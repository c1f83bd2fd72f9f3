"""Chameleon Chess (Chamäleon Schach): rules, compiled kernel and notebook API."""

import numpy as np

from ..protocol import GameOps
from . import kernel
from .board import Colour, Player, Role, parse_square, square_name
from .game import ORIGINAL_MOVE_LIMIT, Game, Result
from .position import IllegalMoveError, Move, Pawn, Position
from .render import draw, draw_grid, position_svg, save_picture
from .rules import Limits, PawnSpec, all_seatings
from .zobrist import zobrist_key

__all__ = [
    "CHAMELEON_OPS",
    "ORIGINAL_MOVE_LIMIT",
    "Colour",
    "Game",
    "IllegalMoveError",
    "Limits",
    "Move",
    "Pawn",
    "PawnSpec",
    "Player",
    "Position",
    "Result",
    "Role",
    "all_seatings",
    "draw",
    "draw_grid",
    "parse_square",
    "position_svg",
    "save_picture",
    "square_name",
]


def _players_alive(state: np.ndarray) -> np.ndarray:
    return (state[kernel.PCOUNT : kernel.PCOUNT + 4] > 0).astype(np.int64)


#: The compiled functions the searches use for Chameleon Chess.
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
)
