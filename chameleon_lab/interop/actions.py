"""Each game's moves numbered ``0..size-1``, one number per move whatever the position.

OpenSpiel (and most reinforcement-learning interfaces) name a move by an *action id*
from a fixed range, the same id for the same move in every position. Our kernels'
move codes are such numbers for most games and are used as they are; where they are
not (Chameleon Chess names the moving pawn by its slot in the pawn list, which is
renumbered after a capture; NIM's codes are sparse), a numbering is built here:

==============  ======================================  ==============================
game            action id                               how many
==============  ======================================  ==============================
``chameleon``   origin square * 64 + target square      4096
                (squares ``row * 8 + col``, row 0 the
                top: rank 8, as the kernel numbers them)
``tictactoe``,  the kernel's cell ``row * width + col``   ``width * height``
``gomoku``      (``a1`` is 0)
``connect4``    the kernel's column, 0 = column ``1``    ``width``
``othello``     the kernel's square (``a1`` 0 .. ``h8``   65
                63), ``pass`` 64
``rolit``       the kernel's square (``a1`` 0 .. ``h8``   64
                63)
``dice``        the face that comes up, minus 1           6
``nim``         the heaps' sizes at the start before     the objects at the start
                heap ``h``, plus ``k - 1`` (take ``k``    (at least 1)
                from heap ``h``)
==============  ======================================  ==============================

A game without an entry here has no numbering yet: :func:`action_space` says so, and
the bridge's tests fail for it until one is added.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from ..games.nim import kernel as nim_kernel
from ..games.registry import Game


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


def _kernel_code(offset: int = 0) -> Callable[[Any], int]:
    def number(move: Any) -> int:
        return int(move.code) - offset

    return number


def _chameleon(game: Game) -> ActionSpace:
    return ActionSpace(game, 64 * 64, lambda m: int(m.origin) * 64 + int(m.target))


def _mnk(game: Game) -> ActionSpace:
    return ActionSpace(game, game.params["width"] * game.params["height"], _kernel_code())


def _tictactoe(game: Game) -> ActionSpace:
    return ActionSpace(game, 9, _kernel_code())


def _connect4(game: Game) -> ActionSpace:
    return ActionSpace(game, game.params["width"], _kernel_code())


def _othello(game: Game) -> ActionSpace:
    return ActionSpace(game, 65, _kernel_code())


def _rolit(game: Game) -> ActionSpace:
    return ActionSpace(game, 64, _kernel_code())


def _dice(game: Game) -> ActionSpace:
    return ActionSpace(game, 6, _kernel_code(1))


def _nim(game: Game) -> ActionSpace:
    heaps = game.params["heaps"]
    first = [0, *accumulate(heaps)]  # the first id of each heap

    def number(move: Any) -> int:
        heap, take = divmod(int(move.code), nim_kernel.MOVE_BASE)
        return first[heap] + take - 1

    return ActionSpace(game, max(1, sum(heaps)), number)


_SPACES: dict[str, Callable[[Game], ActionSpace]] = {
    "chameleon": _chameleon,
    "tictactoe": _tictactoe,
    "gomoku": _mnk,
    "connect4": _connect4,
    "othello": _othello,
    "rolit": _rolit,
    "dice": _dice,
    "nim": _nim,
}


def action_space(game: Game) -> ActionSpace:
    """The action ids of ``game`` (a :class:`~chameleon_lab.games.registry.Game`);
    ``ValueError`` for a game that has no numbering yet."""
    if game.name not in _SPACES:
        raise ValueError(
            f"{game.name} has no action numbering yet: add one to chameleon_lab/interop/"
            f"actions.py (games with one: {', '.join(sorted(_SPACES))})"
        )
    return _SPACES[game.name](game)
