"""Agents: a search described by plain parameters, choosing moves in Chameleon Chess.

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
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .games.chameleon import CHAMELEON_OPS, Move, Position
from .heuristics import get_heuristic, heuristic_name
from .search.api import (
    DEFAULT_NORMALIZE,
    check_algorithm,
    check_budget,
    check_flavour,
    search,
)
from .search.deepening import TT_BITS, DeepWorkspace
from .search.root import RootResult


@dataclass(frozen=True)
class Decision:
    """A chosen move and what the search did to choose it.

    ``scores`` has one entry per legal move, in ``moves`` order: the root player's value
    (MaxN, MaxN-IS, Hypermax: the whole vector in ``vectors``) or the Paranoid value.
    Improved Paranoid proves only that non-chosen moves are not better: their scores are
    upper bounds. Moves a pruning search never reached are NaN.
    """

    move: Move
    depth: float  # completed depth; fractional in the thesis flavour's time mode
    expanded: int
    evaluated: int
    seconds: float
    moves: tuple[Move, ...]
    scores: np.ndarray
    vectors: np.ndarray | None
    pv: tuple[Move, ...]
    random: bool = False  # played at random (``random_move_probability``)
    exact: bool = False  # every line was searched to the end of the game

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
        }


@dataclass
class Agent:
    """A move chooser described by plain parameters; see the module docstring.

    Budgets (``depth`` plies, ``time_ms``, ``nodes``) as in :func:`.search.api.search`:
    the improved flavour takes any combination, the thesis flavour exactly one of depth
    and time. ``normalize=None`` means the thesis's setting for the algorithm (stored
    resolved).
    """

    algorithm: str = "paranoid"
    heuristic: str | Callable = "pawns100roles"
    flavour: str = "improved"
    depth: int | None = None
    time_ms: float | None = None
    nodes: int | None = None
    normalize: bool | None = None
    seed: int = 0
    random_move_probability: float = 0.0
    max_sum: float | None = None
    tt_bits: int = TT_BITS
    _rng: np.random.Generator = field(init=False, repr=False, compare=False)
    _workspace: DeepWorkspace | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_algorithm(self.algorithm)
        check_flavour(self.flavour)
        get_heuristic(self.heuristic)
        check_budget(self.flavour, self.depth, self.time_ms, self.nodes)
        if self.normalize is None:  # stored resolved, so a record stays exact
            self.normalize = DEFAULT_NORMALIZE[self.algorithm]
        if not isinstance(self.normalize, (bool, np.bool_)):
            raise ValueError(f"normalize must be True, False or None, got {self.normalize!r}")
        self.normalize = bool(self.normalize)
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)):
            raise ValueError(f"seed must be a whole number, got {self.seed!r}")
        p = self.random_move_probability
        if not isinstance(p, (int, float, np.number)) or not 0.0 <= p <= 1.0:
            raise ValueError(f"random_move_probability must be in [0, 1], got {p!r}")
        self._workspace = None
        self.reset()

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
            parts.append(f"{self.time_ms:g}ms")
        if self.nodes is not None:
            parts.append(f"{self.nodes}n")
        name = heuristic_name(get_heuristic(self.heuristic))
        return f"{self.algorithm}/{name}/{self.flavour}/{'+'.join(parts)}"

    def params(self) -> dict[str, Any]:
        """The agent's parameters, JSON-friendly; :meth:`from_params` recreates it.

        A researcher's own heuristic is recorded by its function name; recreating such
        an agent needs the function passed again.
        """
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}
        out["heuristic"] = heuristic_name(get_heuristic(self.heuristic))
        return out

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> Agent:
        """An agent from :meth:`params` (unknown keys raise ``ValueError``)."""
        valid = [f.name for f in dataclasses.fields(cls) if f.init]
        unknown = sorted(set(params) - set(valid))
        if unknown:
            raise ValueError(
                f"unknown agent parameter(s) {', '.join(unknown)}; valid: {', '.join(valid)}"
            )
        return cls(**params)

    def choose(self, position: Position) -> Decision:
        """Choose a move in ``position`` (which must not be over)."""
        if not isinstance(position, Position):
            raise TypeError(f"choose needs a Position, got {type(position).__name__}")
        if position.is_over:
            raise ValueError("the position is already over: there is no move to choose")
        legal = position.legal_moves
        if not legal:
            raise ValueError("the player to move has no legal move: there is no move to choose")
        if self.random_move_probability > 0 and self._rng.random() < self.random_move_probability:
            move = legal[int(self._rng.integers(len(legal)))]
            nan = np.full(len(legal), np.nan)
            return Decision(move, 0.0, 0, 0, 0.0, tuple(legal), nan, None, (), random=True)
        if self.flavour == "improved" and self._workspace is None:
            self._workspace = DeepWorkspace(CHAMELEON_OPS, self.tt_bits)
        result = search(
            position,
            self.algorithm,
            flavour=self.flavour,
            depth=self.depth,
            time_ms=self.time_ms,
            nodes=self.nodes,
            heuristic=self.heuristic,
            normalize=self.normalize,
            max_sum=self.max_sum,
            tt_bits=self.tt_bits,
            workspace=self._workspace,
        )
        return _decision(position, result, legal)


def _decision(position: Position, result: RootResult, legal: list[Move]) -> Decision:
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
    )
