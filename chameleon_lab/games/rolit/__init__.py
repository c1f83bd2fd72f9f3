"""Rolit (``rolit``): Othello for two to four colours, as the multi-player search
papers play it (Schadd & Winands 2011; Nijssen & Winands 2013).

8 x 8 bitboards, one per colour; moves are squares in Othello's orientation (rank 1 at
the top); a capture must be played when there is one, otherwise a ball goes next to
any ball, so nobody passes and every game lasts 60 placements. The most balls win.
Importing the package registers the game.
"""

from . import spec
from .position import RolitPosition

__all__ = ["RolitPosition", "spec"]
