"""A game being played: positions from a start, the moves between them, a move limit
and the result, for every game of the library.

The rules end a game by themselves (``Position.is_over``); a :class:`Match` may
also stop it after ``move_limit`` moves (the original Chameleon program stopped every
game after 100 moves), and then the players still in the game share a draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WINNER = "winner"
DRAW = "draw"
MOVE_LIMIT = "move_limit"


@dataclass(frozen=True)
class Result:
    """How a game ended: the players that share its best result, and why.

    ``survivors`` are the player numbers with the best returns at a finished position
    (one for a win, several for a draw), or the players still in the game when the
    move limit stopped it; ``reason`` is ``"winner"``, ``"draw"`` or ``"move_limit"``.
    """

    survivors: tuple[Any, ...]
    reason: str

    @property
    def winner(self) -> Any:
        """The single survivor of a won game; ``None`` for a draw."""
        return self.survivors[0] if self.reason == WINNER else None


def players_in_game(position: Any) -> tuple[int, ...]:
    """The players still taking part in ``position`` (Chameleon Chess: those with
    pawns; other games: all of the game's players)."""
    alive = getattr(position, "players_alive", None)
    if alive is not None:
        return tuple(alive)
    return tuple(position.game.info.players)


def final_result(position: Any) -> Result:
    """The result of a finished position: the players with the best returns."""
    returns = position.returns
    if returns is None:
        raise ValueError("the position is not over: it has no result yet")
    players = position.game.info.players
    best = max(returns[p] for p in players)
    survivors = tuple(p for p in players if returns[p] == best)
    if hasattr(position, "players_alive"):  # Chameleon Chess names players by colour
        survivors = tuple(c for c in position.players_alive if int(c) in survivors)
    return Result(survivors, WINNER if len(survivors) == 1 else DRAW)


class Match:
    """Positions from a start to now, with the moves between them and a move limit.

    :meth:`play` appends a move and returns the match, so moves chain.
    """

    def __init__(self, start: Any, *, move_limit: int | None = None) -> None:
        if move_limit is not None and (
            isinstance(move_limit, bool) or not isinstance(move_limit, int) or move_limit < 1
        ):
            raise ValueError(
                f"move_limit must be a whole number >= 1 or None (no limit), got {move_limit!r}"
            )
        self.move_limit = move_limit
        self.positions: list[Any] = [start]
        self.moves: list[Any] = []

    @property
    def position(self) -> Any:
        """The current position."""
        return self.positions[-1]

    @property
    def is_over(self) -> bool:
        """Over when the rules end the game or the move limit is reached."""
        return self.position.is_over or (
            self.move_limit is not None and len(self.moves) >= self.move_limit
        )

    @property
    def result(self) -> Result | None:
        """The result once the game is over, else ``None``."""
        if self.position.is_over:
            return final_result(self.position)
        if self.is_over:
            return Result(players_in_game(self.position), MOVE_LIMIT)
        return None

    def play(self, move: Any) -> Match:
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
        if self.is_over:
            state = "over"
        else:
            info = self.position.game.info
            state = f"{info.player_name(int(self.position.to_move))} to move"
        return f"<{type(self).__name__}: {len(self.moves)} moves, {state}>"

    def _repr_svg_(self) -> str:
        return self.position.svg()
