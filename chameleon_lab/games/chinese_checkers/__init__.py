"""Chinese Checkers (``chinesecheckers``): the race across a star of six triangles for
two, three or four players, one of the games of the multi-player search papers
(Sturtevant 2003; Schadd & Winands 2011; Nijssen & Winands 2013).

The star of 121 holes (or a smaller one) in a flat state array; a move is a piece's
step or chain of hops, written by the holes it leaves and reaches (``d1-e2``). The
first player whose home is full, with at least one of its own pieces, wins. Importing
the package registers the game.
"""

from . import spec
from .position import ChineseCheckersPosition

__all__ = ["ChineseCheckersPosition", "spec"]
