"""Chameleon Chess (Chamäleon Schach): rules, compiled kernel and notebook API."""

from .board import Colour, Player, Role, parse_square, square_name
from .game import ORIGINAL_MOVE_LIMIT, ChameleonMatch, Game, Result
from .position import IllegalMoveError, Move, Pawn, Position
from .render import draw, draw_grid, position_svg, save_picture
from .rules import Limits, PawnSpec, all_seatings
from .spec import CHAMELEON_OPS

__all__ = [
    "CHAMELEON_OPS",
    "ORIGINAL_MOVE_LIMIT",
    "ChameleonMatch",
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
