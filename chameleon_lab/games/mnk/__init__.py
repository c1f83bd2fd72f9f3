"""m,n,k-games: TicTacToe (``tictactoe``, 3 x 3, three in a row) and Five-in-a-row
(``gomoku``, seed 001: a 7 x 7 board by default, five in a row), one compiled kernel
for both.

Stones go on any empty cell, the players alternating (X or black first); k or more in
a row horizontally, vertically or diagonally wins, a full board without one is a draw.
Moves are written ``a1`` .. (file letter from the left, rank number from the bottom).
Importing the package registers both games.
"""

from . import spec
from .position import GomokuPosition, MnkPosition, TicTacToePosition

__all__ = ["GomokuPosition", "MnkPosition", "TicTacToePosition", "spec"]
