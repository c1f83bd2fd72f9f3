"""Agents: a search described by plain parameters, choosing moves in any game.

An :class:`Agent` is its parameters (algorithm, heuristic, flavour, budget, normalize,
seed and a few options), so a notebook parameter or a stored record recreates it
exactly (:meth:`Agent.params`, :meth:`Agent.from_params`). :meth:`Agent.choose` returns
a :class:`Decision`: the move and what the search did.

The seed drives the only randomness an agent has: with ``random_move_probability`` p
it plays a uniformly random legal move instead of searching, with probability p (the
thesis's complexity experiment mixed random moves into MaxN-IS self-play this way).
Searches themselves are deterministic.

Example::

    agent = Agent("paranoid", time_ms=100)
    decision = agent.choose(Position.start())
    decision.move, decision.depth, decision.nodes

    Agent("maxn", game="tictactoe", depth=9).choose(get_game("tictactoe").start())

A researcher's own heuristic (a compiled ``f(state, out)``) may be passed as the
``heuristic``: it is registered with its game under its function name and recorded with
a fingerprint of its code, so an agent rebuilt from a record refuses to run with an
edited version (:meth:`Agent.from_params`).

Players of other libraries take a seat too: their parameters name a ``kind`` (such as
``{"kind": "openspiel", "bot": "mcts", ...}``), whose maker the bridge to that library
registers when it is imported (:func:`register_agent_kind`; this layer never imports a
bridge), and :func:`agent_from_params` builds either. Such an agent offers what sessions
use of ours: ``choose(position) -> Decision`` and ``params()``, its ``kind`` included.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .games.heuristics import Heuristic
from .games.registry import Game, get_game
from .search.api import (
    algorithm_budget,
    check_algorithm,
    check_bound,
    check_emulated_game,
    check_flavour,
    check_node_rate,
    improved_search,
    search,
)
from .search.core import MAX_DEPTH, RootResult, check_tt_bits
from .search.deepening import DeepWorkspace
from .search.registry import check_options, get_algorithm, get_flavour
from .search.solve import BOOKS, book_choice
from .search.suite import OPTION_NAMES

#: The two-player suite's switches (``tt_bits`` aside).
SUITE_OPTIONS = tuple(n for n in OPTION_NAMES if n != "tt_bits")
#: The options that the parameters of version 1 held beside the others: the suite's
#: switches and ``max_sum``.
V1_FIELDS = (*SUITE_OPTIONS, "max_sum")
#: The layout of :meth:`Agent.params`: 2 holds every option of the algorithm in
#: ``options``; 1 (no ``version`` key) held the suite's switches and ``max_sum`` beside
#: the other parameters. Fingerprints hash the layout of version 1
#: (:func:`fingerprint_params`), so records made before keep theirs.
PARAMS_VERSION = 2


def upgrade_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Agent parameters of any version in the layout of :data:`PARAMS_VERSION`, without
    the ``version`` key (``ValueError`` for a version this library does not know)."""
    data = dict(params)
    version = data.pop("version", 1)
    if version not in (1, PARAMS_VERSION):
        raise ValueError(
            f"agent parameters of version {version!r}; this chameleon_lab reads versions "
            f"1 and {PARAMS_VERSION} (a newer one made them?)"
        )
    if version == 1:
        lifted = {n: data.pop(n) for n in V1_FIELDS if n in data}
        lifted = {n: v for n, v in lifted.items() if v is not None}
        if lifted:
            data["options"] = {**lifted, **(data.get("options") or {})}
    return data


def fingerprint_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Resolved agent parameters (:meth:`Agent.params`) in the layout of version 1, which
    session fingerprints hash, so a session recorded before version 2 keeps its
    fingerprint and its records resume. Other libraries' agents (``kind``) as given."""
    if "kind" in params:
        return dict(params)
    data = dict(params)
    data.pop("version", None)
    options = dict(data.pop("options", None) or {})
    for name in SUITE_OPTIONS:
        if name in options:
            data[name] = options.pop(name)
    data["max_sum"] = options.pop("max_sum", None)
    if options:
        data["options"] = options
    return data


#: Agents play Chameleon Chess unless told otherwise; its name is then left out of
#: :meth:`Agent.params`, so records made before other games existed keep their
#: fingerprints.
DEFAULT_GAME = "chameleon"


@dataclass(frozen=True)
class Decision:
    """A chosen move and what the search did to choose it.

    ``scores`` has one entry per legal move, in ``moves`` order: the root player's value
    (MaxN, MaxN-IS, Hypermax: the whole vector in ``vectors``) or the Paranoid value.
    Improved Paranoid proves only that non-chosen moves are not better: their scores are
    upper bounds. Moves a pruning search never reached are NaN.
    """

    move: Any  # the game's move object; str(move) is its notation
    depth: float  # completed depth; fractional in the thesis flavour's time mode
    expanded: int
    evaluated: int
    seconds: float
    moves: tuple[Any, ...]
    scores: np.ndarray
    vectors: np.ndarray | None
    pv: tuple[Any, ...]
    random: bool = False  # played at random (``random_move_probability``)
    exact: bool = False  # every line was searched to the end of the game
    #: further counts of the search (two-player suite: cut-offs, where, re-searches)
    counters: dict[str, int] = field(default_factory=dict)
    #: the counters a game record carries (its algorithm's ``reported``: MCTS's
    #: iterations)
    reported: tuple[str, ...] = ()

    @property
    def nodes(self) -> int:
        """Expanded plus evaluated positions."""
        return self.expanded + self.evaluated

    def record(self) -> dict[str, Any]:
        """JSON-friendly summary (scores of the moves by name, PV as text)."""
        return {
            "move": str(self.move),
            "depth": self.depth,
            "expanded": self.expanded,
            "evaluated": self.evaluated,
            "seconds": self.seconds,
            "scores": {
                str(m): (None if np.isnan(s) else float(s))
                for m, s in zip(self.moves, self.scores, strict=True)
            },
            "pv": [str(m) for m in self.pv],
            "random": self.random,
            "exact": self.exact,
            "counters": self.counters,
        }


@dataclass
class Agent:
    """A move chooser described by plain parameters; see the module docstring.

    Budgets (``depth`` plies, ``time_ms``, ``nodes``) as in :func:`.search.api.search`:
    the improved flavour takes any combination, the thesis flavour exactly one of depth
    and time. ``normalize=None`` means the thesis's setting for the algorithm and
    ``heuristic=None`` the game's default (both stored resolved). ``game`` is a game's
    registry name; the agent chooses moves in positions of that game (any parameters).
    ``heuristic_code`` is the fingerprint of a researcher's own heuristic, filled in
    from the function; given (from a record), it must match the registered function.
    """

    algorithm: str = "paranoid"
    heuristic: str | Callable | None = None
    flavour: str = "improved"
    depth: int | None = None
    time_ms: float | None = None
    nodes: int | None = None
    normalize: bool | None = None
    seed: int = 0
    random_move_probability: float = 0.0
    tt_bits: int | None = None
    game: str = DEFAULT_GAME
    heuristic_code: str | None = None
    #: play from the game's opening book where it holds the position (seed 004's idea)
    book: bool = False
    #: Monte Carlo tree search's budget (see chameleon_lab.search.mcts)
    iterations: int | None = None
    #: the algorithm's own options by name, as its registry entry declares them (the
    #: two-player suite's switches, MaxN-IS's ``max_sum``, MCTS's backup, c, solver,
    #: ...); an algorithm with a seed of its own (MCTS) takes the agent's ``seed``
    #: unless given here
    options: dict[str, Any] | None = None
    #: the original program's emulated clock: ``time_ms`` spent at this many nodes per
    #: millisecond (see :func:`chameleon_lab.search.api.check_node_rate`)
    node_rate: float | None = None
    _rng: np.random.Generator = field(init=False, repr=False, compare=False)
    _heuristic: Heuristic = field(init=False, repr=False, compare=False)
    _workspace: DeepWorkspace | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.game, Game):
            self.game = self.game.name
        get_game(self.game)  # a known game, or ValueError listing them
        check_algorithm(self.algorithm)
        check_flavour(self.flavour)
        spec = get_algorithm(self.algorithm)
        if self.flavour not in spec.flavours:
            raise ValueError(
                f"{self.algorithm} has no {self.flavour} flavour; its flavours: "
                f"{', '.join(spec.flavours)}"
            )
        self._resolve_heuristic()
        budget = algorithm_budget(
            self.algorithm, self.flavour, self.depth, self.time_ms, self.nodes, self.iterations
        )
        rate = check_node_rate(self.flavour, self.time_ms, self.node_rate, self.nodes)
        if rate is not None:
            check_emulated_game(self.game)
        self.node_rate = rate  # stored as a float, so a record stays exact
        if budget.depth is not None and budget.depth > MAX_DEPTH:
            raise ValueError(f"depth must be at most {MAX_DEPTH} plies, got {budget.depth}")
        resolved = self._resolve_options(spec)
        if self.tt_bits is None:  # stored resolved, so a record stays exact
            self.tt_bits = spec.tt_bits
        check_tt_bits(self.tt_bits)
        improved = resolved if self.flavour == "improved" else {}  # deep: the thesis's own
        runs, normalize = improved_search(self.algorithm, self.normalize, improved)
        if self.normalize is None:  # stored resolved, so a record stays exact
            self.normalize = get_algorithm(runs).normalize if normalize is None else normalize
        if not isinstance(self.normalize, (bool, np.bool_)):
            raise ValueError(f"normalize must be True, False or None, got {self.normalize!r}")
        self.normalize = bool(self.normalize)
        if self.flavour == "improved" and spec.driver is None:  # checks max_sum up front
            check_bound(runs, self.normalize, resolved.get("max_sum"))
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)):
            raise ValueError(f"seed must be a whole number, got {self.seed!r}")
        p = self.random_move_probability
        if not isinstance(p, (int, float, np.number)) or not 0.0 <= p <= 1.0:
            raise ValueError(f"random_move_probability must be in [0, 1], got {p!r}")
        if not isinstance(self.book, (bool, np.bool_)):
            raise ValueError(f"book must be True or False, got {self.book!r}")
        self.book = bool(self.book)
        if self.book and self.game not in BOOKS:
            raise ValueError(f"{self.game} has no opening book; games with one: {', '.join(BOOKS)}")
        self._workspace = None
        self.reset()

    def _resolve_options(self, spec: Any) -> dict[str, Any]:
        """The algorithm's options, checked against its entry, with their defaults (the
        return value); stored as records have always held them, so a record stays exact
        and a fingerprint stays what it was: the suite's switches resolved, ``max_sum``
        where given, the other options resolved where any of them is given."""
        if self.options is not None and not isinstance(self.options, Mapping):
            raise ValueError(f"options must be a dict of option names, got {self.options!r}")
        own = {n: v for n, v in (self.options or {}).items() if n != "max_sum" or v is not None}
        refused = get_flavour(self.flavour).refused(own)  # as search() refuses them
        if refused:
            raise ValueError(f"the {self.flavour} flavour takes no options such as {refused}")
        resolved = check_options(spec, own)  # the algorithm's, or an error
        stored = {n: resolved[n] for n in SUITE_OPTIONS if n in resolved}
        if "max_sum" in own:
            stored["max_sum"] = own["max_sum"]
        if set(own) - set(V1_FIELDS):
            stored.update({n: v for n, v in resolved.items() if n not in V1_FIELDS})
        self.options = stored or None
        return resolved

    @property
    def game_spec(self) -> Game:
        """The agent's game with its default parameters (for its heuristics registry)."""
        return get_game(self.game)

    @property
    def heuristic_entry(self) -> Heuristic:
        """The registry entry of the agent's heuristic: its function, fingerprint and
        the check a game meets before it scores it
        (:meth:`~chameleon_lab.games.heuristics.Heuristic.check_fits`)."""
        return self._heuristic

    def _resolve_heuristic(self) -> None:
        registry = self.game_spec.heuristics
        item: Heuristic = registry.get(self.heuristic)
        if not item.builtin and item.name not in registry:
            item = registry.register(item.name, item.function, fits=item.fits)
        elif not item.builtin and registry.get(item.name).function is not item.function:
            item = registry.register(item.name, item.function, replace=True, fits=item.fits)
        if item.builtin:
            if self.heuristic_code is not None:
                raise ValueError(
                    f"heuristic_code belongs to a researcher's own heuristic; "
                    f"{item.name!r} is built in"
                )
        elif self.heuristic_code is None:
            self.heuristic_code = item.fingerprint
        elif self.heuristic_code != item.fingerprint:
            raise ValueError(
                f"heuristic {item.name!r} has changed: the record was made with code "
                f"{self.heuristic_code}, the registered function is {item.fingerprint}; "
                "register the function the record was made with, or start a new run"
            )
        self.heuristic = item.name
        self._heuristic = item

    def reset(self, seed: int | None = None) -> None:
        """Restart the random stream (from ``seed`` if given, else the agent's seed)."""
        if seed is not None:
            self.seed = seed
        self._rng = np.random.default_rng(self.seed)

    @property
    def label(self) -> str:
        """A short readable name, e.g. ``paranoid/pawns100roles/improved/100ms``."""
        parts = []
        if self.depth is not None:
            parts.append(f"d{self.depth}")
        if self.time_ms is not None:
            emulated = "" if self.node_rate is None else f"@{self.node_rate:g}n/ms"
            parts.append(f"{self.time_ms:g}ms{emulated}")
        if self.nodes is not None:
            parts.append(f"{self.nodes}n")
        if self.iterations is not None:
            parts.append(f"{self.iterations}it")
        return f"{self.algorithm}/{self.heuristic}/{self.flavour}/{'+'.join(parts)}"

    def params(self) -> dict[str, Any]:
        """The agent's parameters, JSON-friendly; :meth:`from_params` recreates it.

        A researcher's own heuristic is recorded by its name and code fingerprint
        (``heuristic_code``); recreating such an agent needs it registered again.
        ``game`` and ``heuristic_code`` appear only when they are not the defaults.
        """
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}
        if out["game"] == DEFAULT_GAME:
            del out["game"]
        if out["heuristic_code"] is None:
            del out["heuristic_code"]
        if not out["book"]:  # records made before the option keep their fingerprints
            del out["book"]
        for name in ("iterations", "options", "node_rate"):  # given only where the
            if out[name] is None:  # algorithm takes them (older records keep their prints)
                del out[name]
        out["version"] = PARAMS_VERSION
        return out

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> Agent:
        """An agent from :meth:`params` of any version (unknown keys raise
        ``ValueError``); parameters without a ``version`` are read as version 1, which
        held the suite's switches and ``max_sum`` beside the other parameters."""
        data = upgrade_params(params)
        valid = [f.name for f in dataclasses.fields(cls) if f.init]
        unknown = sorted(set(data) - set(valid))
        if unknown:
            raise ValueError(
                f"unknown agent parameter(s) {', '.join(unknown)}; valid: {', '.join(valid)}"
            )
        return cls(**data)

    def choose(self, position: Any) -> Decision:
        """Choose a move in ``position`` (of the agent's game; it must not be over)."""
        game = check_playable(position, self.game)
        self._heuristic.check_fits(game)
        legal = position.legal_moves
        if not legal:
            raise ValueError("the player to move has no legal move: there is no move to choose")
        if self.random_move_probability > 0 and self._rng.random() < self.random_move_probability:
            move = legal[int(self._rng.integers(len(legal)))]
            nan = np.full(len(legal), np.nan)
            return Decision(move, 0.0, 0, 0, 0.0, tuple(legal), nan, None, (), random=True)
        if self.book:
            opening = book_choice(position)
            if opening is not None:
                return _book_decision(position, legal, *opening)
        spec = get_algorithm(self.algorithm)
        if self.flavour == "improved" and self._workspace is None:
            self._workspace = (spec.code("workspace") or DeepWorkspace)(game.ops, self.tt_bits)
        options = dict(self.options or {})
        if "seed" in spec.options:  # a search's own stream (MCTS): the agent's seed
            options = {"seed": self.seed, **options}
        result = search(
            position,
            self.algorithm,
            flavour=self.flavour,
            depth=self.depth,
            time_ms=self.time_ms,
            nodes=self.nodes,
            iterations=self.iterations,
            node_rate=self.node_rate,
            heuristic=self._heuristic.function,
            normalize=self.normalize,
            tt_bits=self.tt_bits,
            workspace=self._workspace,
            **options,
        )
        return _decision(position, result, legal, get_algorithm(self.algorithm).reported)


def check_playable(position: Any, game: str) -> Game:
    """The game of ``position``, after checking that it is a position of the game named
    ``game`` and not over: what an agent of that game can choose a move in
    (``TypeError`` or ``ValueError`` saying what is wrong and what would be right)."""
    of = getattr(position, "game", None)
    if not isinstance(of, Game):
        raise TypeError(f"choose needs a position of a game, got {type(position).__name__}")
    if of.name != game:
        raise ValueError(
            f"this agent plays {game}; the position is {of.name} "
            f"(make the agent with game={of.name!r})"
        )
    if position.is_over:
        raise ValueError("the position is already over: there is no move to choose")
    return of


#: Makers of other libraries' agents by kind, ``kind -> make(params)``: filled by the
#: bridges when they are imported (``chameleon_lab.interop.openspiel``: ``openspiel``).
AGENT_KINDS: dict[str, Callable[[Mapping[str, Any]], Any]] = {}


def register_agent_kind(kind: str, make: Callable[[Mapping[str, Any]], Any]) -> None:
    """Let agents whose parameters say ``"kind": kind`` be made by ``make(params)``."""
    AGENT_KINDS[kind] = make


def agent_from_params(params: Mapping[str, Any]) -> Any:
    """An agent from its parameters: an :class:`Agent`, or one of another library where
    they name a ``kind`` (``ValueError`` naming the kinds known when it is not one)."""
    kind = params.get("kind")
    if kind is None:
        return Agent.from_params(params)
    if kind not in AGENT_KINDS:
        known = ", ".join(sorted(AGENT_KINDS)) or "none"
        raise ValueError(
            f"unknown agent kind {kind!r}; kinds known in this process: {known} (a bridge "
            "registers its kind when imported: chameleon_lab.interop.openspiel for openspiel)"
        )
    return AGENT_KINDS[kind](params)


def _book_decision(
    position: Any, legal: list[Any], code: int, scores: dict[int, int], seconds: float
) -> Decision:
    """The book's move (kernel code ``code``) with the book's score of every move."""
    move = next(m for m in legal if m.code == code)
    values = np.array([scores.get(m.code, np.nan) for m in legal], dtype=float)
    return Decision(
        move,
        0.0,
        0,
        0,
        seconds,
        tuple(legal),
        values,
        None,
        (move,),
        exact=True,
        counters={"book": 1},
    )


def _decision(
    position: Any, result: RootResult, legal: list[Any], reported: tuple[str, ...] = ()
) -> Decision:
    scores = np.asarray(result.scores, dtype=float)
    vectors = None
    if scores.ndim == 2:
        vectors = scores
        scores = scores[:, int(position.to_move)]
    return Decision(
        move=legal[result.index],
        depth=result.depth,
        expanded=result.expanded,
        evaluated=result.evaluated,
        seconds=result.seconds,
        moves=tuple(legal),
        scores=scores,
        vectors=vectors,
        pv=tuple(position.decode_line(result.pv)),
        exact=result.exact,
        counters=dict(result.counters),
        reported=reported,
    )
