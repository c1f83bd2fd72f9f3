"""The library's games as OpenSpiel games: parameters, types, states.

Each game ``NAME`` of the registry is registered with OpenSpiel as
``chameleon_lab_NAME`` (:func:`register_games`); ``pyspiel.load_game`` then builds a
:class:`LabGame`, whose states (:class:`LabState`) hold one of our immutable positions
and play through our compiled kernels.

Parameters are the game's own, under the same names, with OpenSpiel's types (whole
numbers, booleans, text): a list, such as NIM's heaps, is written with semicolons
(``heaps=3;4;5``). Chameleon Chess takes ``players`` (2, 3 or 4: RED, GREEN, YELLOW, BLUE
cut to that many, as the original program seats two and three agents) or ``colours``
(any seating, such as ``RY``, with ``players`` giving its size), and ``move_limit``: its
rules set no bound on a game's length, so the bridge ends it after that many plies (the
original program's 100 by default), when the players still in the game share what is
left (see :func:`chameleon_truncated`). A parameter the game does not take, or a value
it refuses, is an error naming the parameter and the valid choices; nothing is guessed.

Types are the games' own: sequential, deterministic (dice tipping too: the player
chooses the face that comes up), perfect information, terminal rewards; zero-sum for the
two-player games, constant-sum for Chameleon Chess with three or four players (one
survivor with +1, the others -1). Action ids are :mod:`.actions`'. States give an
observation string (the position) and an information-state string (the actions so far);
no tensors.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..games.chameleon import ORIGINAL_MOVE_LIMIT
from ..games.registry import Game, game_entry, game_names, get_game
from ._pyspiel import pyspiel
from .actions import ActionSpace, action_space

#: OpenSpiel's short name of a game of ours is this prefix and its registry name.
PREFIX = "chameleon_lab_"
#: Chameleon Chess's colours in seat order, cut to ``players`` when no colours are given.
COLOURS = "RGYB"

_GT = pyspiel.GameType
_SCALARS = (bool, int, float, str)


# ----------------------------------------------------------------------- parameters
@dataclass(frozen=True)
class Translation:
    """How one game of ours appears in OpenSpiel: its parameter specification (name ->
    default, of OpenSpiel's types), how a full set of those becomes our parameters, the
    bridge's own move limit (games whose rules set no bound), and the returns' sum."""

    name: str
    spec: dict[str, Any]
    ours: Callable[[Mapping[str, Any]], dict[str, Any]]
    has_move_limit: bool
    #: the sum of the returns at every end of a game (None: they have no fixed sum)
    utility_sum: Callable[[Game], float | None]
    #: the returns per player when the move limit ends a game (has_move_limit only)
    truncated: Callable[[Any, Game], list[float]] | None = None

    @property
    def short_name(self) -> str:
        """OpenSpiel's name of the game."""
        return PREFIX + self.name

    def resolve(self, params: Mapping[str, Any] | None) -> tuple[dict[str, Any], Game, int | None]:
        """The full OpenSpiel parameters, our game and the move limit for ``params``;
        ``ValueError`` naming a parameter the game does not take (and the ones it does)
        or a value it refuses."""
        given = dict(params or {})
        unknown = sorted(set(given) - set(self.spec))
        if unknown:
            raise ValueError(
                f"{self.short_name} has no parameter {', '.join(map(repr, unknown))}; "
                f"its parameters: {', '.join(self.spec) or 'none'}"
            )
        full = {**self.spec, **given}
        for name, value in full.items():
            default = self.spec[name]
            ok = type(value) is type(default) or (isinstance(default, float) and type(value) is int)
            if not ok:
                raise ValueError(
                    f"{self.short_name} parameter {name}={value!r}: must be "
                    f"{_kind(default)}, like its default {default!r}"
                )
        limit = full.get("move_limit") if self.has_move_limit else None
        if limit is not None and limit < 1:
            raise ValueError(
                f"{self.short_name} parameter move_limit={limit}: must be a whole number >= 1 "
                "(plies after which the game ends)"
            )
        ours = self.ours(full)
        return full, get_game(self.name, **ours), limit


def _kind(default: Any) -> str:
    return {bool: "true or false", int: "a whole number", float: "a number", str: "text"}[
        type(default)
    ]


def _list_text(values: Any) -> str:
    return ";".join(str(v) for v in values)


def _parse_list(game: str, name: str, text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(";")] if text.strip() else []
    except ValueError:
        raise ValueError(
            f"{PREFIX}{game} parameter {name}={text!r}: a list is whole numbers separated "
            "by semicolons, such as 3;4;5"
        ) from None


def _zero_sum_draw(position: Any, game: Game) -> list[float]:
    return [0.0] * len(game.info.players)


def _zero_or_none(game: Game) -> float | None:
    return 0.0 if game.info.zero_sum else None


def generic_translation(name: str) -> Translation:
    """The translation of a game whose parameters are numbers, booleans, text or lists
    of whole numbers (every game but Chameleon Chess)."""
    spec: dict[str, Any] = {}
    lists = set()
    for p in game_entry(name).params:
        default = p.default
        if isinstance(default, (tuple, list)):
            spec[p.name] = _list_text(default)
            lists.add(p.name)
        elif isinstance(default, _SCALARS):
            spec[p.name] = default
        else:
            raise TypeError(
                f"{name} parameter {p.name} has a default of type {type(default).__name__}, "
                "which the OpenSpiel bridge cannot pass; extend openspiel_games.py"
            )
    unbounded = get_game(name).info.max_length is None
    if unbounded:
        if not get_game(name).info.zero_sum:
            raise TypeError(
                f"{name} sets no bound on a game's length and is not zero-sum: the bridge "
                "needs a rule for the returns at its move limit (see chameleon_translation)"
            )
        spec["move_limit"] = ORIGINAL_MOVE_LIMIT

    def ours(full: Mapping[str, Any]) -> dict[str, Any]:
        out = {}
        for key in game_entry(name).params:
            value = full[key.name]
            out[key.name] = _parse_list(name, key.name, value) if key.name in lists else value
        return out

    return Translation(
        name, spec, ours, unbounded, _zero_or_none, _zero_sum_draw if unbounded else None
    )


def chameleon_truncated(position: Any, game: Game) -> list[float]:
    """Returns when the move limit ends a Chameleon Chess game: -1 for every seated
    player without pawns; the ``k`` still in the game share the rest, ``(2 - k) / k``
    each, so the returns add up to ``2 - n`` as at every end by the rules (one survivor
    +1, the other ``n - 1`` players -1); with two players that is a draw, 0 and 0."""
    alive = {int(c) for c in position.players_alive}
    k = sum(1 for p in game.info.players if p in alive)
    share = (2 - k) / k
    return [share if p in alive else -1.0 for p in game.info.players]


def chameleon_translation() -> Translation:
    """Chameleon Chess: ``players`` (2..4) or ``colours``, and ``move_limit``."""
    spec = {"players": 4, "colours": "", "move_limit": ORIGINAL_MOVE_LIMIT}

    def ours(full: Mapping[str, Any]) -> dict[str, Any]:
        n, colours = full["players"], full["colours"]
        if not 2 <= n <= 4:
            raise ValueError(
                f"chameleon_lab_chameleon parameter players={n}: must be 2, 3 or 4 "
                "(or give the seating as colours, such as colours=RY with players=2)"
            )
        if not colours:
            return {"players": COLOURS[:n]}
        seated = get_game("chameleon", players=colours).info.players
        if len(seated) != n:
            raise ValueError(
                f"chameleon_lab_chameleon parameters colours={colours!r} and players={n}: the "
                f"colours seat {len(seated)} players; give players={len(seated)} with them"
            )
        return {"players": colours}

    def utility_sum(game: Game) -> float:
        return 2.0 - len(game.info.players)  # one +1, every other seated player -1

    return Translation("chameleon", spec, ours, True, utility_sum, chameleon_truncated)


def translation(name: str) -> Translation:
    """How game ``name`` of ours appears in OpenSpiel."""
    return chameleon_translation() if name == "chameleon" else generic_translation(name)


def openspiel_params(game: Game, move_limit: int | None = None) -> dict[str, Any]:
    """The OpenSpiel parameters of one of our games with its parameters (and, for a game
    without a bound on its length, the move limit; default the bridge's)."""
    if game.name == "chameleon":
        colours = game.params["players"]
        out: dict[str, Any] = {"players": len(colours), "colours": colours}
    else:
        spec = translation(game.name).spec
        out = {
            k: _list_text(v) if isinstance(v, (tuple, list)) else v for k, v in game.params.items()
        }
        if "move_limit" not in spec:
            if move_limit is not None:
                raise ValueError(
                    f"{game.name} ends by its rules (at most {game.info.max_length} plies): "
                    "it takes no move_limit"
                )
            return out
    if move_limit is not None:
        out["move_limit"] = move_limit
    return out


# ---------------------------------------------------------------------- game types
def _utility(total: float | None) -> Any:
    if total is None:
        return _GT.Utility.GENERAL_SUM
    return _GT.Utility.ZERO_SUM if total == 0 else _GT.Utility.CONSTANT_SUM


def game_type(t: Translation, game: Game) -> Any:
    """OpenSpiel's ``GameType`` of ``game`` (the utility depends on the parameters:
    Chameleon Chess is zero-sum with two players, constant-sum with more)."""
    players = [len(game.info.players)]
    if t.name == "chameleon":
        players = [2, 4]
    return pyspiel.GameType(
        short_name=t.short_name,
        long_name=f"{game_entry(t.name).long_name} (chameleon_lab)",
        dynamics=_GT.Dynamics.SEQUENTIAL,
        chance_mode=_GT.ChanceMode.DETERMINISTIC,
        information=_GT.Information.PERFECT_INFORMATION,
        utility=_utility(t.utility_sum(game)),
        reward_model=_GT.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=t.spec,
    )


def game_info(t: Translation, game: Game, space: ActionSpace, move_limit: int | None) -> Any:
    """OpenSpiel's ``GameInfo`` of ``game``: actions, players, utilities, longest game."""
    info = game.info
    length = info.max_length if move_limit is None else move_limit
    return pyspiel.GameInfo(
        num_distinct_actions=space.size,
        max_chance_outcomes=0,
        num_players=len(info.players),
        min_utility=float(info.min_utility),
        max_utility=float(info.max_utility),
        utility_sum=t.utility_sum(game),
        max_game_length=int(length),
    )


# ------------------------------------------------------------------ games and states
class LabGame(pyspiel.Game):
    """One of our games, with its parameters fixed, as an OpenSpiel game.

    Each game has a subclass of its own (:func:`game_class`) naming its
    :attr:`translation`; ``lab_game`` is our
    :class:`~chameleon_lab.games.registry.Game`, ``space`` its action ids,
    ``move_limit`` the bridge's limit (None where the rules end every game). OpenSpiel
    player ``i`` is our player ``lab_game.info.players[i]`` (Chameleon Chess: the ``i``-th
    seated colour).
    """

    #: how the game's parameters, returns and type appear in OpenSpiel
    translation: Translation

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        translation = self.translation
        full, game, limit = translation.resolve(params)
        space = action_space(game)
        # pybind11 sets the instance up in the base __init__: attributes come after it
        super().__init__(
            game_type(translation, game), game_info(translation, game, space, limit), full
        )
        self.lab_game = game
        self.space = space
        self.move_limit = limit
        self.seat_of = {p: i for i, p in enumerate(game.info.players)}

    def __reduce__(self) -> tuple:
        # pickled as its OpenSpiel name with parameters, made again through the registry
        # (pyspiel's own pickling would skip __init__, and the per-game class has no
        # module-level name to be found by)
        return pyspiel.load_game, (str(self),)

    def __deepcopy__(self, memo: dict) -> LabGame:
        # a game never changes: a state's copy (OpenSpiel clones states by deepcopy)
        # shares it, keeping its Python attributes, which a pickled copy would lose
        return self

    def new_initial_state(self) -> LabState:
        """The start position."""
        return LabState(self, self.lab_game.start())

    def state_at(self, position: Any, plies: int = 0) -> LabState:
        """A state at ``position`` (of this game), ``plies`` plies into the game (what
        the move limit counts); its history is empty."""
        return LabState(self, position, plies)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """Strings only: the position, or with perfect recall the actions so far."""
        if params:
            raise ValueError(f"{self.translation.short_name} observers take no parameters")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(recall)


class LabState(pyspiel.State):
    """A state of a :class:`LabGame`: our position and the plies played."""

    def __init__(self, game: LabGame, position: Any, plies: int = 0) -> None:
        super().__init__(game)
        self._now = _Now(position, plies)

    @property
    def _lab(self) -> LabGame:
        # asked of OpenSpiel each time rather than kept: a state's attributes are
        # pickled to serialise it, and a game read back from a pickle has lost its own
        return self.get_game()

    @property
    def position(self) -> Any:
        """Our position (immutable)."""
        return self._now.position

    @property
    def plies(self) -> int:
        """Plies played to reach this state (what the move limit counts)."""
        return self._now.plies

    def _moves(self) -> dict[int, Any]:
        now = self._now
        if now.legal is None:
            now.legal = {} if self.is_terminal() else self._lab.space.legal(now.position)
        return now.legal

    def current_player(self) -> int:
        """The OpenSpiel player to move, or ``PlayerId.TERMINAL``."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self._lab.seat_of[int(self._now.position.to_move)]

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._moves())

    def _apply_action(self, action: int) -> None:
        move = self._moves().get(action)
        if move is None:
            raise ValueError(f"action {action} is not legal here; legal: {list(self._moves())}")
        self._now = _Now(self._now.position.play(move), self._now.plies + 1)

    def _action_to_string(self, player: int, action: int) -> str:
        move = self._moves().get(action)
        return str(move) if move is not None else f"action {action}"

    def is_terminal(self) -> bool:
        """Over by the rules, or by the bridge's move limit."""
        limit = self._lab.move_limit
        return self._now.position.is_over or (limit is not None and self._now.plies >= limit)

    def returns(self) -> list[float]:
        """Each player's return: our game's at its end, the translation's at the move
        limit, 0 while the game goes on."""
        players = self._lab.lab_game.info.players
        if not self.is_terminal():
            return [0.0] * len(players)
        position = self._now.position
        if position.is_over:
            ours = position.returns
            return [float(ours[p]) for p in players]
        return self._lab.translation.truncated(position, self._lab.lab_game)

    def __str__(self) -> str:
        text = json.dumps(self._now.position.to_json(), sort_keys=True)
        if self._lab.move_limit is not None:
            text += f" ply {self._now.plies}"
        return text


class _Now:
    """Where a state is: an immutable position, the plies to it and its legal moves by
    action id (filled when first asked for). OpenSpiel clones a Python state by deep
    copies of its attributes; this is never changed once its moves are known, so a copy
    shares it (deep copies of positions would copy their games too)."""

    __slots__ = ("legal", "plies", "position")

    def __init__(self, position: Any, plies: int) -> None:
        self.position = position
        self.plies = plies
        self.legal: dict[int, Any] | None = None

    def __deepcopy__(self, memo: dict) -> _Now:
        return self

    def __reduce__(self) -> tuple:
        return _restore, (self.position.to_json(), self.plies)


def _restore(position: Mapping[str, Any], plies: int) -> _Now:
    """A :class:`_Now` from its pickled form (OpenSpiel serialises Python states so)."""
    game = get_game(position["game"], **position.get("params", {}))
    return _Now(game.from_json(position), plies)


class _Observer:
    """OpenSpiel's Python observer interface with strings only (no tensor)."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: LabState, player: int) -> None:
        """Nothing to write: the bridge provides no tensors."""

    def string_from(self, state: LabState, player: int) -> str:
        """The position, or with perfect recall the actions from the start as well."""
        if self.perfect_recall:
            return " ".join(str(a) for a in state.history()) + " | " + str(state)
        return str(state)


def register_games() -> list[str]:
    """Register every game of the library with OpenSpiel (those not yet registered);
    return the short names of all of them."""
    registered = set(pyspiel.registered_names())
    names = []
    for name in game_names():
        t = translation(name)
        if t.short_name not in registered:
            pyspiel.register_game(game_type(t, get_game(name)), game_class(t))
        names.append(t.short_name)
    return names


def game_class(t: Translation) -> type[LabGame]:
    """The :class:`LabGame` subclass of one game, which OpenSpiel calls with the
    parameters to make the game.

    A class rather than a closure: OpenSpiel's registry keeps what it is given until
    after the interpreter has finished, and a function released then (its last
    reference) crashes the process on exit, while a class is never released.
    """
    title = "".join(part.title() for part in t.name.split("_"))
    return type(f"LabGame{title}", (LabGame,), {"translation": t, "__module__": __name__})
