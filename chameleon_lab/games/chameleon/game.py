"""A game: a sequence of positions under a move limit, and its result.

The rules end a game only when one player is left. The original program also stopped
every game after 100 moves and let the players still on the board share a draw; here
that is the ``move_limit`` rule of a :class:`ChameleonMatch` (a number, or ``None`` for
no limit). ``Game`` is its old name, kept so that code written for it runs; the
registry's :class:`chameleon_lab.games.registry.Game` (a game with its parameters fixed)
is another thing.
Searches know nothing of it, as in the original.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..match import Match, Result
from .board import Colour
from .position import Position

__all__ = ["ORIGINAL_MOVE_LIMIT", "ChameleonMatch", "Game", "Result"]

#: The original program's draw rule: games stop after this many moves.
ORIGINAL_MOVE_LIMIT = 100


class ChameleonMatch(Match):
    """A :class:`~chameleon_lab.games.match.Match` of Chameleon Chess: positions from a
    start to now, the moves between them and the original's move limit.

    ``ChameleonMatch()`` seats all four players; ``ChameleonMatch(players="RY")`` or
    ``ChameleonMatch(start=pos)``
    start elsewhere. ``play`` appends a move and returns the game, so moves chain.
    """

    def __init__(
        self,
        start: Position | None = None,
        *,
        players: Iterable[int | str | Colour] | None = None,
        move_limit: int | None = ORIGINAL_MOVE_LIMIT,
    ) -> None:
        if start is not None and players is not None:
            raise ValueError("give either a start position or players, not both")
        if start is None:
            start = Position.start(tuple(Colour) if players is None else players)
        super().__init__(start, move_limit=move_limit)

    def _repr_svg_(self) -> str:
        last = self.moves[-1] if self.moves else None
        return self.position.svg(last_move=last)


#: The old name of :class:`ChameleonMatch`.
Game = ChameleonMatch
