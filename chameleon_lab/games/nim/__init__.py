"""NIM: two players in turn take one or more objects from one heap.

Normal play: whoever takes the last object wins; misère play (``misere=True``): whoever
takes it loses. Moves are written ``h:k`` (take ``k`` from heap ``h``, heaps numbered
from 1)::

    >>> from chameleon_lab.games import get_game
    >>> pos = get_game("nim", heaps=[3, 4, 5]).start().play("2:3")
    >>> pos.heaps
    (3, 1, 5)

Modules: :mod:`.kernel` (compiled rules, state layout), :mod:`.position` (notation, JSON,
picture), :mod:`.heuristics` (``uniform``, ``nimsum``), :mod:`.spec` (registry entry).
"""

from . import spec
from .position import NimPosition

__all__ = ["NimPosition", "spec"]
