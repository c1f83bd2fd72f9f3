"""Games by name: ``get_game(name, **params)``.

Each game's sub-package registers itself (:func:`register_game`) with its parameters,
their defaults and checks, and a builder that returns a :class:`Game`: the declared
:class:`~.protocol.GameInfo`, the compiled :class:`~.protocol.GameOps`, the position
class and the game's heuristics. Unknown names and parameters are refused with the
valid choices; nothing is guessed.

    >>> from chameleon_lab.games import get_game
    >>> game = get_game("gomoku", width=9, height=9)
    >>> pos = game.start()
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..registries import Registry
from .heuristics import HeuristicRegistry
from .protocol import GameInfo, GameOps

#: The library's own games by the package that registers each, imported on first use
#: of the game (a run that plays one game loads no other).
BUILTIN_GAMES: Registry[str] = Registry(
    __name__,
    {
        "chameleon": "chameleon_lab.games.chameleon",
        "tictactoe": "chameleon_lab.games.mnk",
        "gomoku": "chameleon_lab.games.mnk",
        "nim": "chameleon_lab.games.nim",
        "dice": "chameleon_lab.games.dice",
        "othello": "chameleon_lab.games.othello",
        "connect4": "chameleon_lab.games.connect4",
        "rolit": "chameleon_lab.games.rolit",
        "chinesecheckers": "chameleon_lab.games.chinese_checkers",
        "focus": "chameleon_lab.games.focus",
    },
    code=lambda package: [package],
)


@dataclass(frozen=True)
class Param:
    """One parameter of a game: its default, a check and what it means.

    ``check(value)`` returns the value in its canonical form (for example a list of
    heaps as a tuple) or raises ``ValueError`` saying what would be right.
    """

    name: str
    default: Any
    check: Callable[[Any], Any]
    doc: str


@dataclass(frozen=True)
class Game:
    """A game with its parameters fixed: what it is, its compiled functions, its
    positions and its heuristics."""

    info: GameInfo
    ops: GameOps
    position_class: type
    heuristics: HeuristicRegistry
    start_state: Callable[[], np.ndarray]

    @property
    def name(self) -> str:
        """The registry name."""
        return self.info.name

    @property
    def params(self) -> dict[str, Any]:
        """The resolved parameters (every one, defaults included)."""
        return dict(self.info.params)

    def start(self) -> Any:
        """The start position."""
        return self.position_class.from_state(self, self.start_state())

    def from_moves(self, moves: Sequence[Any]) -> Any:
        """The position after ``moves`` (notation or move objects) from the start."""
        pos = self.start()
        for i, move in enumerate(moves):
            try:
                pos = pos.play(move)
            except ValueError as exc:
                raise type(exc)(f"move {i + 1} ({move!r}): {exc}") from None
        return pos

    def from_json(self, obj: Mapping[str, Any]) -> Any:
        """A position from the output of its ``to_json``."""
        return self.position_class.from_json(obj)

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.info.params.items())
        return f"get_game({self.name!r}{', ' if params else ''}{params})"


# A game's action numbering (``chameleon_lab.interop.actions``): for a built game, how
# many action ids there are and the id of a move object of its positions, the same id
# for the same move in every position.
Numbering = Callable[[Game], tuple[int, Callable[[Any], int]]]


def numbered_by_code(size: int | Callable[[Game], int], offset: int = 0) -> Numbering:
    """The numbering of a game whose kernel's move codes are action ids already (less
    ``offset``): ``size`` ids, fixed or of the built game (a board's width)."""

    def number(move: Any) -> int:
        return int(move.code) - offset

    def numbering(game: Game) -> tuple[int, Callable[[Any], int]]:
        return (size(game) if callable(size) else size), number

    return numbering


@dataclass(frozen=True)
class GameEntry:
    """A registered game: name, description, parameters and builder."""

    name: str
    long_name: str
    params: tuple[Param, ...]
    build: Callable[..., Game]
    doc: str
    #: the parameter naming the seats a game occupies, which a session's seating sets
    #: (Chameleon Chess's and Rolit's ``players``); None: a game seats all its players
    seats: str | None = None
    #: its moves numbered for the OpenSpiel bridge and learning code (a function of the
    #: built game giving the number of ids and a move's id); None: not numbered yet
    actions: Numbering | None = None


_GAMES: dict[str, GameEntry] = {}
_LOADED: dict[tuple, Game] = {}


def register_game(
    name: str,
    long_name: str,
    params: Sequence[Param],
    build: Callable[..., Game],
    doc: str = "",
    seats: str | None = None,
    actions: Numbering | None = None,
) -> None:
    """Register a game (called by the game's sub-package when it is imported); ``seats``
    names the parameter a session's seating sets (:attr:`GameEntry.seats`), ``actions``
    numbers its moves (:attr:`GameEntry.actions`)."""
    _GAMES[name] = GameEntry(name, long_name, tuple(params), build, doc, seats, actions)


def _load_builtins() -> None:
    for module in dict.fromkeys(BUILTIN_GAMES.values()):
        importlib.import_module(module)


def game_names() -> list[str]:
    """The names of the registered games."""
    _load_builtins()
    return sorted(_GAMES)


def game_entry(name: str) -> GameEntry:
    """The registry entry of ``name``; ``ValueError`` listing the games if unknown."""
    if isinstance(name, str) and name in BUILTIN_GAMES and name not in _GAMES:
        importlib.import_module(BUILTIN_GAMES[name])
    if not isinstance(name, str) or name not in _GAMES:
        _load_builtins()  # to list them all
        raise ValueError(f"unknown game {name!r}; valid games: {', '.join(sorted(_GAMES))}")
    return _GAMES[name]


def resolve_params(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter of game ``name``: the given ones checked, the rest defaulted."""
    entry = game_entry(name)
    valid = {p.name: p for p in entry.params}
    unknown = sorted(set(params) - set(valid))
    if unknown:
        choices = ", ".join(valid) if valid else "none"
        raise ValueError(
            f"{name} has no parameter {', '.join(map(repr, unknown))}; its parameters: {choices}"
        )
    out = {}
    for p in entry.params:
        value = params.get(p.name, p.default)
        try:
            out[p.name] = p.check(value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} parameter {p.name}={value!r}: {exc}") from None
    return out


def _freeze(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def get_game(name: str, **params: Any) -> Game:
    """The game ``name`` with ``params`` (defaults for the others); see the module doc."""
    if isinstance(name, Game):
        if params:
            raise ValueError("a Game already has its parameters; pass the name to change them")
        return name
    resolved = resolve_params(name, params)
    key = (name, tuple((k, _freeze(v)) for k, v in resolved.items()))
    if key not in _LOADED:
        _LOADED[key] = game_entry(name).build(**resolved)
    return _LOADED[key]


def describe_games() -> str:
    """A table of the games and their parameters (for ``--help`` texts and notebooks)."""
    lines = []
    for name in game_names():
        entry = _GAMES[name]
        params = ", ".join(f"{p.name}={p.default!r}" for p in entry.params) or "no parameters"
        lines.append(f"{name:10} {entry.long_name} ({params})")
    return "\n".join(lines)


# ------------------------------------------------------------------ parameter checks
def whole(low: int, high: int | None = None) -> Callable[[Any], int]:
    """A check for a whole number in ``low..high``."""

    def check(value: Any) -> int:
        ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
        if not ok or value < low or (high is not None and value > high):
            span = f"{low}..{high}" if high is not None else f">= {low}"
            raise ValueError(f"must be a whole number {span}")
        return int(value)

    return check


def boolean(value: Any) -> bool:
    """A check for ``True`` or ``False`` (not a string or number that looks like one)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError("must be true or false")
    return bool(value)
