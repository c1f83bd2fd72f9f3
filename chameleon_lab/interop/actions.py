"""Each game's moves numbered ``0..size-1``, one number per move whatever the position.

OpenSpiel (and most reinforcement-learning interfaces) name a move by an *action id*
from a fixed range, the same id for the same move in every position. Our kernels'
move codes are such numbers for most games and are used as they are; where they are
not (Chameleon Chess names the moving pawn by its slot in the pawn list, which is
renumbered after a capture; NIM's codes are sparse), the game builds one:

=====================  ======================================  ==============================
game                   action id                               how many
=====================  ======================================  ==============================
``chameleon``          origin square * 64 + target square      4096
                       (squares ``row * 8 + col``, row 0 the
                       top: rank 8, as the kernel numbers them)
``tictactoe``,         the kernel's cell ``row * width + col``   ``width * height``
``gomoku``             (``a1`` is 0)
``connect4``           the kernel's column, 0 = column ``1``    ``width``
``othello``            the kernel's square (``a1`` 0 .. ``h8``   65
                       63), ``pass`` 64
``rolit``              the kernel's square (``a1`` 0 .. ``h8``   64
                       63)
``chinesecheckers``    the kernel's move, from-hole * 128 +    128 * the holes (121 on the
                       to-hole (holes in reading order from    standard star)
                       the top), ``pass`` 0
``focus``              from-square * 32 + direction * 8 +       2112
                       pieces moved (0 up, 1 right, 2 down,
                       3 left); a reserve entry 2048 + square
``dice``               the face that comes up, minus 1           6
``nim``                the heaps' sizes at the start before     the objects at the start
                       heap ``h``, plus ``k - 1`` (take ``k``    (at least 1)
                       from heap ``h``)
=====================  ======================================  ==============================

Each game declares its numbering where it registers (``register_game(...,
actions=...)``, ``Numbering`` in :mod:`chameleon_lab.games.registry`); a game without one has
none yet: :func:`action_space` says so, and the bridge's tests fail for it until one is
added.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..games.registry import Game, game_entry, game_names


@dataclass(frozen=True)
class ActionSpace:
    """The action ids of one game with its parameters fixed (see the module doc)."""

    game: Game
    #: how many ids there are: every legal move's id is in ``0..size-1``
    size: int
    #: the id of a move object of a position of :attr:`game`
    number: Callable[[Any], int]

    def action(self, move: Any) -> int:
        """The id of ``move`` (a move object of a position of the game)."""
        return self.number(move)

    def legal(self, position: Any) -> dict[int, Any]:
        """The legal moves of ``position`` by their ids, in ascending order of id."""
        return dict(sorted((self.number(m), m) for m in position.legal_moves))

    def move(self, position: Any, action: int) -> Any:
        """The legal move of ``position`` with id ``action``; ``ValueError`` naming the
        legal ids when there is none."""
        legal = self.legal(position)
        if action not in legal:
            raise ValueError(f"action {action} is not legal here; legal actions: {sorted(legal)}")
        return legal[action]


def action_space(game: Game) -> ActionSpace:
    """The action ids of ``game`` (a :class:`~chameleon_lab.games.registry.Game`), as its
    registry entry numbers them; ``ValueError`` for a game that has no numbering yet."""
    numbering = game_entry(game.name).actions
    if numbering is None:
        numbered = [n for n in game_names() if game_entry(n).actions is not None]
        raise ValueError(
            f"{game.name} has no action numbering yet: pass actions= to its register_game "
            f"(chameleon_lab.games.registry.numbered_by_code where its move codes are ids "
            f"already; games with one: {', '.join(numbered)})"
        )
    size, number = numbering(game)
    return ActionSpace(game, size, number)
