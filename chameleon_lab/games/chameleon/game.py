"""A game: a sequence of positions under a move limit, and its result.

The rules end a game only when one player is left. The original program also stopped
every game after 100 moves and let the players still on the board share a draw; here
that is the ``move_limit`` rule of a :class:`Game` (a number, or ``None`` for no limit).
Searches know nothing of it, as in the original.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .board import Colour
from .position import Move, Position

#: The original program's draw rule: games stop after this many moves.
ORIGINAL_MOVE_LIMIT = 100


@dataclass(frozen=True)
class Result:
    """How a game ended: the survivors, the winner (if one) and why."""

    survivors: tuple[Colour, ...]
    reason: str  # "winner" or "move_limit"

    @property
    def winner(self) -> Colour | None:
        """The single survivor of a won game; ``None`` for a draw."""
        return self.survivors[0] if self.reason == "winner" else None


class Game:
    """Positions from a start to now, with the moves between them and a move limit.

    ``Game()`` seats all four players; ``Game(players="RY")`` or ``Game(start=pos)``
    start elsewhere. :meth:`play` appends a move and returns the game, so moves chain.
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
        if move_limit is not None and (
            isinstance(move_limit, bool) or not isinstance(move_limit, int) or move_limit < 1
        ):
            raise ValueError(
                f"move_limit must be a whole number >= 1 or None (no limit), got {move_limit!r}"
            )
        if start is None:
            start = Position.start(tuple(Colour) if players is None else players)
        self.move_limit = move_limit
        self.positions: list[Position] = [start]
        self.moves: list[Move] = []

    @property
    def position(self) -> Position:
        """The current position."""
        return self.positions[-1]

    @property
    def is_over(self) -> bool:
        """Over when one player is left or the move limit is reached."""
        return self.position.is_over or (
            self.move_limit is not None and len(self.moves) >= self.move_limit
        )

    @property
    def result(self) -> Result | None:
        """The result once the game is over, else ``None``."""
        if self.position.is_over:
            return Result(self.position.players_alive, "winner")
        if self.is_over:
            return Result(self.position.players_alive, "move_limit")
        return None

    def play(self, move: Move | str) -> Game:
        """Play a move in the current position; raises if the game is over or it is illegal."""
        if self.is_over and not self.position.is_over:
            raise ValueError(
                f"the game is over: the move limit of {self.move_limit} moves is reached"
            )
        legal = self.position.parse_move(move)
        self.positions.append(self.position.play(legal))
        self.moves.append(legal)
        return self

    def __len__(self) -> int:
        return len(self.moves)

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"{self.position.to_move.name} to move"
        return f"<Game: {len(self.moves)} moves, {state}>"

    def _repr_svg_(self) -> str:
        last = self.moves[-1] if self.moves else None
        return self.position.svg(last_move=last)
