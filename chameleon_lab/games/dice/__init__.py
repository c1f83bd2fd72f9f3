"""Dice tipping (Würfelkippen, seed 001): tip a die over one of its bottom edges and add
the face that comes up to the sum; whoever reaches the target exactly wins.

The sum starts at the start face; the sum may not pass the target; a player with no
legal tip ends the game in a draw (so does a start face at or above the target). Moves
are the face that comes up, ``1``..``6``::

    >>> from chameleon_lab.games import get_game
    >>> pos = get_game("dice", target=8, start=4).start()
    >>> [str(m) for m in pos.legal_moves]
    ['1', '2']

Modules: :mod:`.kernel` (compiled rules, state layout), :mod:`.position` (notation, JSON,
picture, which states can arise), :mod:`.heuristics` (``uniform``, ``threats``),
:mod:`.spec` (registry entry).
"""

from . import spec
from .position import DicePosition

__all__ = ["DicePosition", "spec"]
