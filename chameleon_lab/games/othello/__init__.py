"""Othello (``othello``) and its Reversi variant (``variant="reversi"``, seed 003).

8 x 8 bitboards; moves are squares in Othello's own orientation (rank 1 at the top,
black's first moves d3, c4, f5, e6) or ``pass``; the returns are the final disc
difference with the empty squares going to the winner. Importing the package
registers the game.
"""

from . import spec
from .position import OthelloPosition

__all__ = ["OthelloPosition", "spec"]
