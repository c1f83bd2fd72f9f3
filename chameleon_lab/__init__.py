"""chameleon_lab: a research workbench for game-tree search, built first for Chameleon Chess.

The rules of Chameleon Chess live in :mod:`chameleon_lab.games.chameleon`; the most used
names are re-exported here::

    from chameleon_lab import Position
    pos = Position.start()          # four players, RED to move
    pos.legal_moves                 # [Move('a1-b3'), Move('a1-c2'), ...]
    pos.play("b1-c3")               # the next position (draws itself in Jupyter)
"""

from importlib.metadata import PackageNotFoundError, version

from .games.chameleon import Colour, Game, IllegalMoveError, Move, Player, Position, Role

try:
    __version__ = version("chameleon_lab")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = [
    "Colour",
    "Game",
    "IllegalMoveError",
    "Move",
    "Player",
    "Position",
    "Role",
    "__version__",
]
