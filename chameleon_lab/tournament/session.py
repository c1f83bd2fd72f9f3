"""A session: named agents, a seating design, repetitions and a seed; its games as tasks.

A :class:`Session` is plain data, so a notebook parameter, a JSON or TOML file
(:func:`load_session`) or a stored record recreates it. Its :meth:`Session.tasks`
are the games, each an independent :class:`GameTask` carrying everything a worker
process needs; they are built one at a time when asked for (:class:`SessionTasks`),
so a session of a million repetitions costs no more memory than one of one. The
session's :attr:`Session.fingerprint` identifies the parameters that decide its games:
records carry it, so a rerun resumes only games of the very same session. The number
of repetitions is not among them (game ``g`` is the same game in a session of any
length), so a session run again with more repetitions plays only the new ones, and one
with fewer reads the first of the games already played.

Seeds: game ``i`` of repetition ``r`` gets the seed drawn from
``SeedSequence([seed, r, i])``, and each seat's agent a seed drawn from that one and
its seat, so a game's randomness does not depend on which worker plays it or when.
With ``opening_plies`` game ``i`` of repetition ``r`` starts from the opening drawn from
``SeedSequence([seed, r, i, OPENING_STREAM])`` (with ``openings="per_repetition"``, all
games of the repetition from ``SeedSequence([seed, r, OPENING_STREAM])``).

Openings matter because the searches are deterministic: at a fixed depth two agents
play the very same game every time they meet, so repeating a seating without
``opening_plies`` adds copies, not observations, and a confidence interval over them
is too narrow. Random openings make them different games: in the blocks design one
distinct opening a block, played by every seating of the block; in the others one a
game unless a repetition's seatings are to share one (``openings="per_repetition"``).
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..agents import DEFAULT_GAME, Agent, agent_from_params, fingerprint_params
from ..checks import whole_number
from ..games.chameleon import ORIGINAL_MOVE_LIMIT
from ..games.registry import Game, game_entry, get_game, resolve_params
from .designs import ORDERS, block_seatings, draw_seed, opening_suite, seating_game
from .seatings import Seating, check_seatings, every_seating, original_seatings

DESIGNS = ("original", "every", "fixed", "blocks")
BUDGET_KEYS = ("depth", "time_ms", "nodes")
#: agent parameters that must be booleans (or None): a string such as "false" would be
#: true in Python, so it is refused rather than read
BOOLEAN_AGENT_PARAMS = ("normalize",)
#: the largest node budget: the searches count nodes in 64-bit integers
MAX_NODES = 2**63 - 1
#: the last entry of the seed sequence of a repetition's opening (seating indices,
#: the last entry of the games' own seed sequences, stay far below it)
OPENING_STREAM = 0x6F70656E
#: How the designs other than blocks draw openings: one a game, or one a repetition.
OPENINGS = ("per_game", "per_repetition")
#: the longest random opening a session takes
MAX_OPENING_PLIES = 64


def _kind(value: Any) -> str:
    return {str: "a string", int: "a number", float: "a number", list: "a list"}.get(
        type(value), type(value).__name__
    )


def check_node_budget(value: Any, what: str = "nodes") -> None:
    """``ValueError`` unless ``value`` is None or a whole number from 1 to 2**63 - 1."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        return  # not a number at all: the agent's own check says what a budget is
    if not 1 <= value <= MAX_NODES:
        raise ValueError(
            f"{what} must be a whole number from 1 to {MAX_NODES} (the node budget must fit a "
            f"64-bit integer), got {value}"
        )


@dataclass(frozen=True)
class GameTask:
    """One game of a session: what a worker needs to play it and to write its record."""

    session: dict[str, Any]  # Session.to_dict()
    session_id: str
    game: int  # index within the session, the resume key
    repetition: int
    seating: Seating
    seed: int
    agents: dict[str, dict[str, Any]]  # resolved Agent params by name
    move_limit: int | None
    game_name: str = DEFAULT_GAME
    game_params: dict[str, Any] = field(default_factory=dict)
    #: researchers' own heuristics the agents use, by name: they travel with the task
    #: to worker processes and Dask workers, which register them before playing
    heuristics: dict[str, Any] = field(default_factory=dict, compare=False)
    #: random plies from the game's start before the agents play, drawn from
    #: ``opening_seed`` (see :func:`.designs.opening`)
    opening_plies: int = 0
    opening_seed: int = 0
    #: the opening's moves in notation where the design fixes them (a block's opening
    #: of :func:`.designs.opening_suite`); None: drawn from ``opening_seed``
    opening_moves: tuple[str, ...] | None = None

    def seat_seed(self, seat: int) -> int:
        """The seed of the agent at ``seat`` in this game."""
        return draw_seed([self.seed, seat])

    def register_heuristics(self) -> None:
        """Register the task's own heuristics with its game (where a process does not
        have them yet, or has another version under the same name)."""
        registry = get_game(self.game_name).heuristics
        for name, function in self.heuristics.items():
            if name not in registry or registry.get(name).function is not function:
                registry.register(name, function, replace=True)


@dataclass(frozen=True)
class Session:
    """Agents by name, a game, a seating design, a default budget, repetitions, seed,
    move limit.

    * ``agents``: name -> :class:`~chameleon_lab.agents.Agent` parameters (for example
      ``{"algorithm": "paranoid", "flavour": "thesis"}``); they play ``game``.
    * ``game`` and ``game_params``: the game by its registry name and its parameters
      (Chameleon Chess takes none here: each seating says which colours play).
    * ``design``: ``"original"`` (the original Chameleon program's seatings,
      :func:`.original_seatings`), ``"every"`` (every seating of ``players`` seats,
      :func:`.every_seating`; other games seat all their players), ``"fixed"``
      (the given ``seatings``, e.g. ``["maxn,paranoid,_,_"]``, one entry per seat) or
      ``"blocks"`` (:func:`.designs.block_seatings`: each repetition is a block, one
      opening of a suite of distinct openings, :func:`.designs.opening_suite`, played
      with seatings that give every agent every seat and every pair of agents a
      meeting equally often; ``players`` seats a game, in Chameleon Chess the first
      ``players`` colours; ``orders`` ``"all"`` or ``"williams"``).
    * ``budget``: ``depth``/``time_ms``/``nodes`` for agents that give none themselves.
    * ``repetitions``: every seating is played this often, each game with its own seed.
    * ``opening_plies``: every game starts after this many uniformly random plies from
      the game's start (see the module docstring: without them deterministic agents
      repeat their games); an opening that ends the game is drawn again. 0 (default):
      the game's start. The blocks design draws one opening a block from a suite of
      distinct ones; the other designs one a game (``openings="per_game"``, the
      default) or, asked for, one a repetition shared by all its seatings
      (``"per_repetition"``: paired games, as a seating and its mirror).
    """

    name: str
    agents: Mapping[str, Mapping[str, Any]]
    design: str = "original"
    players: int | None = None
    seatings: Sequence[Any] | None = None
    budget: Mapping[str, Any] = field(default_factory=dict)
    repetitions: int = 1
    seed: int = 0
    move_limit: int | None = ORIGINAL_MOVE_LIMIT
    red_occupied: bool = False
    game: str = DEFAULT_GAME
    game_params: Mapping[str, Any] = field(default_factory=dict)
    opening_plies: int = 0
    orders: str = "all"
    openings: str = "per_game"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"a session needs a non-empty name, got {self.name!r}")
        if isinstance(self.game, Game):
            object.__setattr__(self, "game", self.game.name)
        if not isinstance(self.game_params, Mapping):
            raise ValueError(f"game_params must be a mapping, got {self.game_params!r}")
        seats = game_entry(self.game).seats
        # the resolved defaults it stores (dataclasses.replace hands them back) are its own
        default = resolve_params(self.game, {}).get(seats)
        if seats is not None and self.game_params.get(seats, default) != default:
            raise ValueError(
                f"{game_entry(self.game).long_name} takes no {seats} in a session's "
                "game_params: each seating says which colours play"
            )
        # a known game and valid parameters, stored resolved (defaults filled in)
        object.__setattr__(self, "game_params", resolve_params(self.game, self.game_params))
        if not isinstance(self.agents, Mapping) or not self.agents:
            raise ValueError("a session needs agents: a mapping of name -> agent parameters")
        if self.design not in DESIGNS:
            raise ValueError(f"unknown design {self.design!r}; valid designs: {', '.join(DESIGNS)}")
        unknown = sorted(set(self.budget) - set(BUDGET_KEYS))
        if unknown:
            raise ValueError(
                f"unknown budget key(s) {', '.join(unknown)}; valid: {', '.join(BUDGET_KEYS)}"
            )
        for name in ("repetitions", "seed"):  # numpy's integers stored as Python's
            object.__setattr__(self, name, whole_number(name, getattr(self, name), 0))
        if self.repetitions < 1:
            raise ValueError(f"repetitions must be >= 1, got {self.repetitions}")
        op = self.opening_plies
        if isinstance(op, bool) or not isinstance(op, int) or not 0 <= op <= MAX_OPENING_PLIES:
            raise ValueError(
                f"opening_plies must be a whole number 0..{MAX_OPENING_PLIES} (random plies "
                f"before the agents play; 0: the game's start), got {op!r}"
            )
        if self.design == "blocks" and op < 1:
            raise ValueError(
                "the 'blocks' design plays each block from its own opening: give "
                f"opening_plies >= 1 (random plies before the agents play), got {op!r}"
            )
        if self.orders not in ORDERS:
            raise ValueError(f"unknown orders {self.orders!r}; valid: {', '.join(ORDERS)}")
        if self.openings not in OPENINGS:
            raise ValueError(
                f"unknown openings {self.openings!r}; valid: {', '.join(OPENINGS)} (a game's "
                "own opening, or one for all the seatings of a repetition, paired games)"
            )
        object.__setattr__(
            self, "move_limit", whole_number("move_limit", self.move_limit, none=True)
        )
        if not isinstance(self.red_occupied, (bool, np.bool_)):
            raise ValueError(
                f"red_occupied must be true or false (a boolean), got {self.red_occupied!r} "
                f"({_kind(self.red_occupied)}); write true or false without quotes"
            )
        object.__setattr__(self, "red_occupied", bool(self.red_occupied))
        check_node_budget(self.budget.get("nodes") if isinstance(self.budget, Mapping) else None)
        object.__setattr__(
            self, "agents", {str(k): self._named_heuristic(dict(v)) for k, v in self.agents.items()}
        )
        for name, params in self.agents.items():
            if params.get("game", self.game) != self.game:
                raise ValueError(
                    f"agent {name!r} plays {params['game']!r} but the session plays {self.game!r}"
                )
        object.__setattr__(self, "budget", dict(self.budget))
        self.resolved_agents()  # every agent must build
        self.seating_list()  # and the design must be possible

    def _named_heuristic(self, params: dict[str, Any]) -> dict[str, Any]:
        """Agent parameters with a heuristic given as a function replaced by its name and
        code fingerprint (the function is registered with the game by the agent)."""
        heuristic = params.get("heuristic")
        if heuristic is None or isinstance(heuristic, str):
            return params
        agent = Agent(heuristic=heuristic, depth=1, game=self.game)
        return {**params, "heuristic": agent.heuristic, "heuristic_code": agent.heuristic_code}

    def own_heuristics(self) -> dict[str, Any]:
        """The researchers' own heuristics of the session's agents, by name, as
        registered in this process (what :meth:`tasks` hands to the workers)."""
        registry = get_game(self.game).heuristics
        return {
            params["heuristic"]: registry.get(params["heuristic"]).function
            for params in self.resolved_agents().values()
            if params.get("heuristic_code")
        }

    # ------------------------------------------------------------------ derived
    def resolved_agents(self) -> dict[str, dict[str, Any]]:
        """Each agent's full parameters (session budget filled in), checked by building it."""
        out = {}
        played = self.played_games()
        for name, params in self.agents.items():
            merged = dict(params)
            own = merged.get("kind") is None  # other libraries' agents have budgets of their own
            if own and not any(merged.get(k) is not None for k in BUDGET_KEYS):
                merged.update(self.budget)
            if self.game != DEFAULT_GAME:
                merged["game"] = self.game
            for key in BOOLEAN_AGENT_PARAMS:
                value = merged.get(key)
                if value is not None and not isinstance(value, (bool, np.bool_)):
                    raise ValueError(
                        f"agent {name!r}: {key} must be true, false or null/None (a boolean), "
                        f"got {value!r} ({_kind(value)}); write true or false without quotes"
                    )
            check_node_budget(merged.get("nodes"), f"agent {name!r}: nodes")
            try:
                agent = agent_from_params(merged)
                if isinstance(agent, Agent):  # its heuristic can score the session's boards
                    for game in played:
                        agent.heuristic_entry.check_fits(game)
                out[name] = agent.params()
            except (TypeError, ValueError) as exc:
                raise ValueError(f"agent {name!r}: {exc}") from None
        return out

    def game_spec(self) -> Game:
        """The session's game with its parameters (Chameleon Chess: all four colours)."""
        return get_game(self.game, **self.game_params)

    def played_games(self) -> list[Game]:
        """The games the session plays: where the game seats a choice of its colours
        (Chameleon Chess, Rolit), one per set of colours its seatings occupy; else the
        session's game."""
        if game_entry(self.game).seats is None:
            return [self.game_spec()]
        games: dict[str, Game] = {}
        for seating in self.seating_list():
            game = seating_game(self.game, self.game_params, seating)
            games.setdefault(json.dumps(game.params, sort_keys=True), game)
        return list(games.values())

    @property
    def seat_names(self) -> tuple[str, ...]:
        """The names of the game's seats, in seat order."""
        return self.game_spec().info.player_names

    def seating_list(self) -> list[Seating]:
        """The seatings of one repetition, in game order."""
        names = list(self.agents)
        seats = self.seat_names
        partial = game_entry(self.game).seats is not None  # seats a choice of its seats
        if self.design == "original":
            if self.game != DEFAULT_GAME:
                raise ValueError(
                    "the original design is the original Chameleon program's; "
                    f"{self.game} takes 'every' or 'fixed'"
                )
            if self.seatings is not None or self.players is not None:
                raise ValueError("the original design takes no seatings or players")
            return original_seatings(names)
        if self.design == "blocks":
            if self.seatings is not None:
                raise ValueError("the 'blocks' design makes its own seatings: give none")
            players = self.players if partial else (self.players or len(seats))
            if not partial and players != len(seats):
                raise ValueError(
                    f"{self.game} seats all its {len(seats)} players; players={players!r}"
                )
            if players is None:
                raise ValueError("the 'blocks' design needs players (2, 3 or 4 seats a game)")
            return block_seatings(names, players, len(seats), orders=self.orders)
        if self.design == "every":
            players = self.players
            if not partial:
                if players not in (None, len(seats)):
                    raise ValueError(
                        f"{self.game} seats all its {len(seats)} players; players={players!r}"
                    )
                players = len(seats)
            if players is None:
                raise ValueError("the 'every' design needs players (2, 3 or 4 seats a game)")
            return every_seating(names, players, red_occupied=self.red_occupied, seats=len(seats))
        if self.seatings is None:
            example = ",".join(["maxn", "paranoid", *["_"] * (len(seats) - 2)])
            raise ValueError(f"the 'fixed' design needs seatings, e.g. [{example!r}]")
        return check_seatings(self.seatings, names, seats, every_seat=not partial)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-friendly parameters; :meth:`from_dict` recreates the session.

        ``game`` and ``game_params`` appear only for games other than Chameleon Chess,
        ``opening_plies`` only when not 0, ``orders`` only in the blocks design, so
        sessions made before they existed keep their fingerprints.
        """
        out = asdict(self)
        if not self.opening_plies:
            del out["opening_plies"]
        if self.design != "blocks":
            del out["orders"]
        if self.design == "blocks" or not self.opening_plies or self.openings != "per_game":
            del out["openings"]  # a repetition's opening: the fingerprint it always had
        if out["seatings"] is not None:
            out["seatings"] = [list(s) for s in self.seating_list()]
        if self.game == DEFAULT_GAME:
            del out["game"], out["game_params"]
        else:
            out["game_params"] = {
                k: list(v) if isinstance(v, tuple) else v for k, v in self.game_params.items()
            }
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Session:
        """A session from :meth:`to_dict` output or a parsed session file."""
        valid = [f for f in cls.__dataclass_fields__]
        unknown = sorted(set(data) - set(valid))
        if unknown:
            raise ValueError(
                f"unknown session key(s) {', '.join(unknown)}; valid: {', '.join(valid)}"
            )
        return cls(**data)

    def _hash(self, *, repetitions: bool) -> str:
        data = self.to_dict()
        data["agents"] = {n: fingerprint_params(p) for n, p in self.resolved_agents().items()}
        if not repetitions:
            del data["repetitions"]
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def fingerprint(self) -> str:
        """A short hash of the resolved parameters but ``repetitions``: sessions that play
        the same games have equal fingerprints.

        Game ``g`` is seating ``g % S`` of repetition ``g // S`` with seeds drawn from
        the seed, the repetition and the seating alone, so it is the same game however
        many repetitions the session has: records of a session with more or fewer
        repetitions are records of this one (:func:`.runner.session_records` takes those
        of its own games).
        """
        return self._hash(repetitions=False)

    @property
    def legacy_fingerprint(self) -> str:
        """The fingerprint as it was made before it left ``repetitions`` out (records
        written then carry it): resuming takes their games as this session's if the
        repetitions are the same."""
        return self._hash(repetitions=True)

    @property
    def record_ids(self) -> tuple[str, str]:
        """The ``session_id`` values of this session's records: its
        :attr:`fingerprint`, then its :attr:`legacy_fingerprint`."""
        return self.fingerprint, self.legacy_fingerprint

    def records_file(self, folder: str | Path) -> Path:
        """``folder/NAME-FINGERPRINT.jsonl``: a records file of this session's own, so a
        rerun with the same parameters resumes it (with more repetitions it plays only
        the new ones) while a run with other ones (the full batch after the quick one,
        a new heuristic version) starts a file of its own instead of being refused for
        mixing two experiments in one.

        A file named by the :attr:`legacy_fingerprint` (written before the fingerprint
        left the repetitions out) is taken instead when the new name holds none yet, so
        its games are not played again.
        """
        path = Path(folder) / f"{self.name}-{self.fingerprint}.jsonl"
        legacy = path.with_name(f"{self.name}-{self.legacy_fingerprint}.jsonl")
        return legacy if legacy.exists() and not path.exists() else path

    def tasks(self) -> SessionTasks:
        """Every game of the session: repetitions times seatings, numbered from 0.

        A sequence built lazily: ``len``, indexing (``tasks[-1]``) and iteration build
        only the games asked for, so memory does not grow with the repetitions.
        """
        return SessionTasks(self)

    def __len__(self) -> int:
        return self.repetitions * len(self.seating_list())


class SessionTasks(Sequence[GameTask]):
    """The games of a session as a sequence whose tasks are built when asked for.

    Game ``g`` is seating ``g % S`` of repetition ``g // S`` (``S`` seatings a
    repetition). What every task shares (the session's parameters, fingerprint,
    resolved agents and own heuristics) is computed once; a task itself is built on
    each access, so holding this object costs the same for 1 or 10**6 repetitions.
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        self.seatings: list[Seating] = session.seating_list()
        self._agents = session.resolved_agents()
        self._data = session.to_dict()
        self._sid = session.fingerprint
        self._own = session.own_heuristics()
        self._repetitions = session.repetitions
        self._openings: list[tuple[str, ...]] | None = None
        if session.design == "blocks":
            start = seating_game(session.game, session.game_params, self.seatings[0]).start()
            self._openings = opening_suite(
                start, session.opening_plies, session.repetitions, session.seed
            )

    def __len__(self) -> int:
        return self._repetitions * len(self.seatings)

    def _task(self, game: int) -> GameTask:
        rep, i = divmod(game, len(self.seatings))
        seating = self.seatings[i]
        used = {n: self._agents[n] for n in dict.fromkeys(s for s in seating if s)}
        return GameTask(
            self._data,
            self._sid,
            game,
            rep,
            seating,
            draw_seed([self.session.seed, rep, i]),
            used,
            self.session.move_limit,
            self.session.game,
            dict(self.session.game_params),
            {
                name: function
                for name, function in self._own.items()
                if any(params.get("heuristic") == name for params in used.values())
            },
            self.session.opening_plies,
            draw_seed(
                [self.session.seed, rep, OPENING_STREAM]
                if self.session.openings == "per_repetition"
                else [self.session.seed, rep, i, OPENING_STREAM]
            ),
            None if self._openings is None else self._openings[rep],
        )

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self._task(g) for g in range(*index.indices(len(self)))]
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"game indices are whole numbers or slices, not {index!r}")
        game = int(index) + len(self) if index < 0 else int(index)
        if not 0 <= game < len(self):
            raise IndexError(f"game {index} of a session of {len(self)} games")
        return self._task(game)

    def __iter__(self) -> Iterator[GameTask]:
        for game in range(len(self)):
            yield self._task(game)

    def first_repetition(self) -> list[GameTask]:
        """The games of repetition 0: one of every seating (for compiling ahead)."""
        return self[: len(self.seatings)]

    def __repr__(self) -> str:
        return (
            f"<SessionTasks of {self.session.name!r}: {len(self)} games, "
            f"{self._repetitions} x {len(self.seatings)} seatings>"
        )


def load_session(path: str | Path) -> Session:
    """A session from a JSON or TOML file (keys as :class:`Session`'s fields).

    Raises ``ValueError`` naming the file when it cannot be read or does not fit.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read session file {path}: {exc.strerror}") from None
    try:
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        kind = "TOML" if path.suffix == ".toml" else "JSON"
        raise ValueError(f"session file {path} is not valid {kind}: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"session file {path} must hold one object of session parameters")
    try:
        return Session.from_dict(data)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"session file {path}: {exc}") from None
