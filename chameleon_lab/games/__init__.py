"""The games of the library, found by name
(:func:`~chameleon_lab.games.registry.get_game`), and their protocol.

Each game is a sub-package (``chameleon``, ``mnk`` for TicTacToe and Five-in-a-row,
``nim``, ``dice``) with its compiled kernel, position class, picture and heuristics; see
:mod:`.protocol` for what a game offers and :mod:`.registry` for how one is added.
"""

from .protocol import GameInfo, GameOps, Position
from .registry import Game, describe_games, game_names, get_game

__all__ = ["Game", "GameInfo", "GameOps", "Position", "describe_games", "game_names", "get_game"]
