"""The game protocol: what a game declares, the compiled functions it offers the
searches, and the Python interface of its positions.

A game of the library has three faces:

* :class:`GameInfo`, its declaration (in the spirit of OpenSpiel's ``GameType`` and
  ``GameInfo``): name, parameters, the players taking part, whether it is zero-sum,
  the range of its returns and whether its rules force a pass move.
* :class:`GameOps`, numba-compiled functions over a flat ``int64`` state array, which
  every search and the generic perft are written against:

  * ``generate(state, moves, ply) -> n``: the legal moves into ``moves[ply, :n]``
    (a forced pass is one legal move; ``n > 0`` whenever the game is not over)
  * ``make(state, move, undo, ply)``: play a move, recording what to take back in
    ``undo[ply]``; ``unmake(state, undo, ply)`` takes it back
  * ``player_of(state) -> p``: the player to move (0..3), or -1 once the game is over
  * ``returns(state, out)``: at a finished position, one exact value per player into
    ``out[4]`` (win/draw/loss as +1/0/-1, or a score such as a disc difference)
  * ``key(state) -> k``: a 64-bit key, equal for equal positions (Zobrist-style;
    transposition tables use it, collisions must be negligible)
  * optional, ``pass_to(state, player) -> previous``: hand the turn to ``player`` as if
    the players between had passed, returning who was to move (so ``pass_to(state,
    previous)`` restores the position). Best-Reply Search needs it in games of more than
    two players, where one opponent replies and the turn goes back to the root player
    (:mod:`chameleon_lab.search.bestreply`); a game of two players never needs it. A
    player out of the game (eliminated, or a seat nobody takes) handed the turn must
    have no moves: it takes no part in an opponents' layer.

  A game's parameters (a board's width, a NIM game's heaps) live in its state array,
  so the compiled functions are the same for every parameter choice.
* a position class satisfying :class:`Position`: immutable positions for notebooks,
  with moves in the game's usual notation, JSON, pictures and clear errors.

A heuristic ``evaluate(state, out)`` writes one score per player into ``out[4]``
(:mod:`.heuristics`); the searches call it at their depth-limited leaves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

#: Score vectors have this many entries; players are numbered 0..3.
MAX_PLAYERS = 4

WIN_LOSS = "win/draw/loss"
SCORE = "score"


@dataclass(frozen=True)
class GameInfo:
    """What a game is, as declared by the game (fixed once its parameters are).

    ``players`` are the player numbers taking part (``(0, 1)`` for a two-player game;
    Chameleon Chess seats any two to four of its four colours), named by
    ``player_names`` (indexed by player number). ``utility`` is ``WIN_LOSS``
    (returns +1/0/-1) or ``SCORE`` (returns such as a disc difference) within
    ``[min_utility, max_utility]``. ``zero_sum``: the returns of the players taking part
    sum to zero at every end of the game. ``max_length`` bounds the plies of a game
    (searches to the end size their tables by it).
    """

    name: str
    long_name: str
    params: Mapping[str, Any]
    players: tuple[int, ...]
    player_names: tuple[str, ...]
    zero_sum: bool
    utility: str = WIN_LOSS
    min_utility: float = -1.0
    max_utility: float = 1.0
    has_pass: bool = False
    #: the most plies a game can last from its start (None: no bound is known)
    max_length: int | None = None

    @property
    def n_players(self) -> int:
        """How many players take part."""
        return len(self.players)

    def player_name(self, player: int) -> str:
        """The name of player number ``player``."""
        return self.player_names[player]


@dataclass(frozen=True)
class GameOps:
    """The compiled functions and table sizes of a game, as the searches need them.

    ``heuristic_at_terminal``: the searches score finished positions with the heuristic
    too (Chameleon Chess, as the original program did); otherwise a finished position
    is scored from its exact returns, shifted to be non-negative and scaled by
    ``terminal_scale`` so that a win outweighs every heuristic score.
    """

    name: str
    generate: Callable
    make: Callable
    unmake: Callable
    player_of: Callable
    max_moves: int
    undo_size: int
    #: Python-level: a 0/1 vector of the players still in the game at ``state``.
    players_alive: Callable
    key: Callable
    returns: Callable | None = None
    heuristic_at_terminal: bool = False
    terminal_scale: float = 1e6
    #: Python-level: whose turn it is, also once the game is over (the player who
    #: would move next); a finished position's value is given from that side.
    side_to_move: Callable | None = None
    #: compiled ``noisy(state, moves, ply) -> n``: the moves a quiescence search goes on
    #: with at the depth limit (captures in Chameleon Chess); None: the game has none.
    noisy: Callable | None = None
    #: compiled ``pass_to(state, player) -> previous``: hand the turn to ``player`` (see
    #: the module doc); None: the game cannot (Best-Reply Search then needs two players).
    pass_to: Callable | None = None


@runtime_checkable
class Position(Protocol):
    """The Python face of a position, the same for every game of the library.

    Positions are immutable: ``play`` returns the next one. Moves print in the
    game's usual notation (``str(move)``) and every method that takes a move also takes
    that notation. Bad positions and illegal moves raise ``ValueError`` saying what is
    wrong and what would be right.
    """

    @property
    def state(self) -> np.ndarray:
        """The read-only kernel state the compiled functions work on."""
        ...

    @property
    def to_move(self) -> int:
        """The number of the player to move."""
        ...

    @property
    def legal_moves(self) -> list[Any]:
        """The legal moves (``[]`` once the game is over)."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        ...

    @property
    def returns(self) -> tuple[float, ...] | None:
        """Once over, one exact value per player number (``len(info.player_names)``
        entries: Chameleon Chess gives all four colours), else None."""
        ...

    def play(self, move: Any) -> Position:
        """The position after ``move`` (a move object or its notation)."""
        ...

    def successors(self) -> list[Position]:
        """The positions after each legal move, in :attr:`legal_moves` order."""
        ...

    def perft(self, depth: int) -> int:
        """Leaves of the game tree ``depth`` plies deep (a finished game is a leaf)."""
        ...

    def parse_move(self, text: Any) -> Any:
        """The legal move meant by ``text``; ``ValueError`` naming it when illegal."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The position as a JSON-friendly dict; the class's ``from_json`` reads it."""
        ...

    def svg(self) -> str:
        """An SVG picture of the position."""
        ...

    def _repr_svg_(self) -> str: ...
