"""chameleon_lab: a research workbench for game-tree search, built first for Chameleon Chess.

The rules of Chameleon Chess live in :mod:`chameleon_lab.games.chameleon`; the most used
names are re-exported here::

    from chameleon_lab import Position
    pos = Position.start()          # four players, RED to move
    pos.legal_moves                 # [Move('a1-b3'), Move('a1-c2'), ...]
    pos.play("b1-c3")               # the next position (draws itself in Jupyter)

Every other game is found by name: ``get_game("gomoku", width=9, height=9).start()``.
"""

# compiled_cache first: it points numba's disk cache at the folder of these sources
# before any module compiles (see its docstring); thesis registers the thesis flavour
# of the searches
from . import compiled_cache, thesis  # noqa: F401
from .games import get_game
from .games.chameleon import (
    ChameleonMatch,
    Colour,
    Game,
    IllegalMoveError,
    Move,
    Player,
    Position,
    Role,
)
from .version import __version__

__all__ = [
    "ChameleonMatch",
    "Colour",
    "Game",
    "IllegalMoveError",
    "Move",
    "Player",
    "Position",
    "Role",
    "__version__",
    "get_game",
    "thesis",
]
