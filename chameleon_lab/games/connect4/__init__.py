"""Connect Four (``connect4``, seed 004 "Vier gewinnt"): stones dropped into the columns
of a ``width`` x ``height`` board (7 x 6 by default) fall to the lowest free cell; four
in a row horizontally, vertically or diagonally wins; a full board is a draw; red
(player 0) moves first.

Moves are column digits ``1``..``width``. The kernel keeps Pascal Pons's bitboards
(:mod:`.kernel`); returns are the solvers' score. The heuristics are the seed's count
of open lines with its five aggressiveness steps (:mod:`.heuristics`), and
:mod:`.levels` has its levels. Importing the package registers the game.
"""

from . import levels, spec
from .position import Connect4Position

__all__ = ["Connect4Position", "levels", "spec"]
