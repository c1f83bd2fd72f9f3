"""Focus (``focus``): Sid Sackson's stacking game for two to four players, as the
multi-player search papers play it (Schadd & Winands 2011; Nijssen & Winands 2010,
2013).

An 8 x 8 board without the three squares of each corner (52 squares); stacks of up to
five pieces move as many squares as the pieces taken from their top; pieces pushed
off a stack's bottom are captured or go back to the mover's reserve. The short game
(default) is won by captures; Sackson's by being the last able to move. Importing the
package registers the game.
"""

from . import spec
from .position import FocusPosition

__all__ = ["FocusPosition", "spec"]
