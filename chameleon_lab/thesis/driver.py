"""The original program's root driver: depth mode, time mode, root data and the choice.

Given a position, the driver scores each successor with the algorithm and picks the
first successor with the best score (a later one wins only when strictly better).
Every algorithm keeps *root data* passed into each root child's search and updated
after it; the *next-depth hook* resets it (``reference/original-semantics.md``).

Depth mode D searches every successor with remaining depth D-1. Time mode first scores
every successor at remaining depth 0, then deepens one root successor at a time,
reading the clock only between root successors, and chooses from a score array that
mixes depths; it reports the fractional depth ``d + cursor / n``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..games.protocol import GameOps
from ..search.api import check_algorithm, check_budget, check_node_rate, emulated_nodes
from ..search.core import (
    GameLike,
    RootResult,
    bind,
    check_root,
    leaf_evaluator,
    node_head,
    resolve_game,
    state_of,
    working_state,
)
from ..search.deepening import Budget
from ..search.registry import Flavour, get_algorithm, register_flavour
from . import nodes as T

#: The time mode's depth ceiling in the original program.
MAX_TIME_DEPTH = 100


@dataclass
class Workspace:
    """Per-ply scratch tables of one search, allocated once (nothing is allocated below)."""

    moves: np.ndarray
    undo: np.ndarray
    vals: np.ndarray
    alphas: np.ndarray
    frames: np.ndarray
    fframes: np.ndarray
    stats: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    #: the heuristic's output row at the leaves (see :mod:`.nodes`)
    leaf: np.ndarray = field(default_factory=lambda: np.zeros(4))

    @property
    def tables(self) -> tuple[np.ndarray, ...]:
        """The tables as the node functions of :mod:`.nodes` take them, in one tuple."""
        return (self.moves, self.undo, self.vals, self.alphas, self.leaf, self.stats,
                self.frames, self.fframes)  # fmt: skip

    @classmethod
    def for_depth(cls, game: GameOps, depth: int) -> Workspace:
        plies = depth + 3
        return cls(
            np.zeros((plies, game.max_moves), dtype=np.int64),
            np.zeros((plies, game.undo_size), dtype=np.int64),
            np.zeros((plies, 4)),
            np.zeros((plies, 4)),
            np.zeros((plies, T.FRAME_COLUMNS), dtype=np.int64),
            np.zeros((plies, 3)),
        )


class RootAlgorithm:
    """One algorithm as the driver sees it: root data, child search, next-depth hook."""

    scalar = False
    #: the node-function template of :mod:`.nodes`, compiled per game and heuristic
    template: Any = None

    def __init__(self, game: GameOps, evaluate, state: np.ndarray, normalize: bool) -> None:
        self.game = game
        self.evaluate = evaluate
        self.normalize = normalize
        self.node = bind(type(self).template, game, evaluate)
        self.root_player = int(game.player_of(state))
        self.next_depth()

    def next_depth(self) -> None:
        """Reset the root data (called before the first pass and at every new depth)."""

    def search_child(self, state: np.ndarray, depth: int, ws: Workspace) -> np.ndarray | float:
        """Score the root successor now on ``state`` with ``depth`` plies left."""
        raise NotImplementedError

    def better(self, a, b) -> bool:
        """Whether score ``a`` is strictly better than ``b`` for the root player."""
        return a[self.root_player] > b[self.root_player]

    def _head(self, state: np.ndarray, depth: int) -> tuple:
        """The arguments every node function starts with, for a root child (ply 1)."""
        return node_head(state, depth, 1, self.normalize)


class MaxN(RootAlgorithm):
    """MaxN: no root data."""

    template = T.maxn_node

    def search_child(self, state, depth, ws):
        self.node(*self._head(state, depth), ws.tables)
        return ws.vals[1].copy()


class MaxNIS(RootAlgorithm):
    """MaxN-IS: root data ``bestScore`` bounds each root child's shallow pruning."""

    template = T.maxnis_node

    def __init__(
        self, game, evaluate, state, normalize, max_sum: float = 1.0, deep: bool = False
    ) -> None:
        self.max_sum = max_sum
        self.deep = deep
        super().__init__(game, evaluate, state, normalize)

    def next_depth(self) -> None:
        self.best_score = 0.0

    def search_child(self, state, depth, ws):
        deep_bound = self.best_score if self.deep else -1.0
        self.node(
            *self._head(state, depth),
            self.best_score,
            self.max_sum,
            deep_bound,
            ws.tables,
        )
        value = ws.vals[1].copy()
        if value[self.root_player] > self.best_score:
            self.best_score = float(value[self.root_player])
        return value


class Paranoid(RootAlgorithm):
    """Paranoid: root data ``alpha``, raised after every root child."""

    scalar = True
    template = T.paranoid_node

    def next_depth(self) -> None:
        self.alpha = -T.INFINITY

    def search_child(self, state, depth, ws):
        value = self.node(
            *self._head(state, depth),
            self.root_player,
            self.alpha,
            T.INFINITY,
            ws.tables,
        )
        self.alpha = max(self.alpha, value)
        return float(value)

    def better(self, a, b) -> bool:
        return a > b


class Hypermax(RootAlgorithm):
    """Hypermax: root data the alpha vector (-infinity for the root's players, 0 else)."""

    template = T.hypermax_node

    def __init__(self, game, evaluate, state, normalize, players: np.ndarray) -> None:
        self.players = np.asarray(players, dtype=np.int64)
        self.n_players = float(self.players.sum())
        super().__init__(game, evaluate, state, normalize)

    def next_depth(self) -> None:
        self.alpha = np.where(self.players == 1, -T.INFINITY, 0.0)

    def search_child(self, state, depth, ws):
        ws.alphas[1, :] = self.alpha
        self.node(
            *self._head(state, depth),
            self.players,
            self.n_players,
            ws.tables,
        )
        value = ws.vals[1].copy()
        rp = self.root_player
        if self.alpha[rp] < value[rp]:
            self.alpha[rp] = value[rp]
        return value


def _choose(algo: RootAlgorithm, scores: list) -> int:
    best = 0
    for i in range(1, len(scores)):
        if algo.better(scores[i], scores[best]):
            best = i
    return best


def _root_moves(game: GameOps, state: np.ndarray, ws: Workspace) -> int:
    n = check_root(game, state, ws.moves)
    ws.stats[0] += 1  # the root is expanded by the driver
    return n


def _full_pass(algo: RootAlgorithm, state: np.ndarray, ws: Workspace, n: int, depth: int) -> list:
    """Score every root successor with ``depth`` plies left, in generation order."""
    g = algo.game
    scores = []
    for i in range(n):
        g.make(state, ws.moves[0, i], ws.undo, 0)
        scores.append(algo.search_child(state, depth, ws))
        g.unmake(state, ws.undo, 0)
    return scores


def _result(
    algo: RootAlgorithm, scores: list, depth: float, ws: Workspace, n: int, seconds: float
) -> RootResult:
    return RootResult(
        _choose(algo, scores),
        np.array(scores),
        depth,
        int(ws.stats[0]),
        int(ws.stats[1]),
        seconds,
        ws.moves[0, :n].copy(),
    )


def run_depth(algo: RootAlgorithm, state: np.ndarray, depth: int) -> RootResult:
    """Depth mode D: every successor searched with D-1 plies left; reported depth D."""
    state = working_state(state)
    ws = Workspace.for_depth(algo.game, depth)
    start = time.perf_counter()
    n = _root_moves(algo.game, state, ws)
    scores = _full_pass(algo, state, ws, n, depth - 1)
    return _result(algo, scores, float(depth), ws, n, time.perf_counter() - start)


def _deepen(
    algo: RootAlgorithm, state: np.ndarray, go_on: Callable[[int, int, int, Workspace], bool]
) -> tuple[list, float, Workspace, int]:
    """The time mode's loop: score every successor at remaining depth 0, then deepen one
    root successor at a time while ``go_on(d, cursor, n, ws)`` holds (asked only between
    root successors, where the original read its clock; ``n`` root successors). Returns
    the scores, the reported depth ``d + cursor / n``, the workspace and ``n``."""
    g = algo.game
    ws = Workspace.for_depth(g, MAX_TIME_DEPTH)
    n = _root_moves(g, state, ws)
    scores = _full_pass(algo, state, ws, n, 0)
    algo.next_depth()
    d, cursor = 1, 0
    while d < MAX_TIME_DEPTH and go_on(d, cursor, n, ws):
        g.make(state, ws.moves[0, cursor], ws.undo, 0)
        scores[cursor] = algo.search_child(state, d, ws)
        g.unmake(state, ws.undo, 0)
        cursor += 1
        if cursor == n:
            cursor = 0
            d += 1
            algo.next_depth()
    return scores, d + cursor / n, ws, n


def run_time(
    algo: RootAlgorithm, state: np.ndarray, budget_ms: float, clock=time.perf_counter
) -> RootResult:
    """Time mode T ms, as the original: the clock is read only between root successors."""
    state = working_state(state)
    start = clock()
    scores, depth, ws, n = _deepen(
        algo, state, lambda d, cursor, n, ws: (clock() - start) * 1000.0 < budget_ms
    )
    return _result(algo, scores, depth, ws, n, clock() - start)


def run_nodes(algo: RootAlgorithm, state: np.ndarray, budget_nodes: float) -> RootResult:
    """Time mode with the clock replaced by a node counter: the original's loop, going on
    while fewer than ``budget_nodes`` positions (expanded plus evaluated) are searched.
    With ``budget_nodes = T x`` the original's nodes per millisecond this is the time
    mode at the original's speed on any machine, and the same on every run."""
    state = working_state(state)
    start = time.perf_counter()
    scores, depth, ws, n = _deepen(
        algo, state, lambda d, cursor, n, ws: ws.stats[0] + ws.stats[1] < budget_nodes
    )
    return _result(algo, scores, depth, ws, n, time.perf_counter() - start)


def stop_point(depth: float, successors: int) -> tuple[int, int]:
    """Where a time-mode search that reported ``depth`` stopped: ``(d, cursor)`` with
    ``depth == d + cursor / successors`` (``cursor`` root successors searched at depth
    ``d + 1``, the others at ``d``), or ``ValueError`` when no such point exists."""
    if successors < 1:
        raise ValueError(f"a position with {successors} moves has no time-mode search")
    if not isinstance(depth, (int, float, np.number)) or not 1 <= depth <= MAX_TIME_DEPTH:
        raise ValueError(f"a time-mode depth is a number from 1 to {MAX_TIME_DEPTH}, got {depth!r}")
    d = int(np.floor(depth + 1e-9))
    cursor = round((depth - d) * successors)
    if cursor == successors:
        d, cursor = d + 1, 0
    if abs(d + cursor / successors - depth) > 1e-9 or (d == MAX_TIME_DEPTH and cursor):
        raise ValueError(
            f"depth {depth!r} is not d + k/{successors} for the position's {successors} "
            "moves: the original reports whole depths plus the share of root moves "
            "searched one ply deeper"
        )
    return d, cursor


def run_to(algo: RootAlgorithm, state: np.ndarray, depth: float) -> RootResult:
    """Time mode stopped where a recorded search stopped: at the reported ``depth``
    (:func:`stop_point`), whatever the clock; replays a time-mode move exactly."""
    state = working_state(state)
    start = time.perf_counter()
    scores, reached, ws, n = _deepen(
        algo, state, lambda d, cursor, n, ws: (d, cursor) != stop_point(depth, n)
    )
    return _result(algo, scores, reached, ws, n, time.perf_counter() - start)


#: The original's root algorithms by the registry's names.
ROOT_CLASSES: dict[str, type[RootAlgorithm]] = {
    "maxn": MaxN,
    "maxnis": MaxNIS,
    "paranoid": Paranoid,
    "hypermax": Hypermax,
}


def root_algorithm(
    algorithm: str,
    state: np.ndarray,
    *,
    game: GameLike = None,
    heuristic: str | Callable | None = None,
    normalize: bool | None = None,
    max_sum: float = 1.0,
    deep: bool = False,
) -> RootAlgorithm:
    """The thesis-flavour root algorithm object for a state (see the module doc)."""
    algorithm = check_algorithm(algorithm)
    if "thesis" not in get_algorithm(algorithm).flavours or algorithm not in ROOT_CLASSES:
        raise ValueError(
            f"{algorithm} has no thesis flavour; the thesis's algorithms: {', '.join(ROOT_CLASSES)}"
        )
    if normalize is None:
        normalize = get_algorithm(algorithm).normalize
    game = resolve_game(None, game)
    evaluate = leaf_evaluator(game, heuristic)
    ops = game if isinstance(game, GameOps) else game.ops
    root_class = ROOT_CLASSES[algorithm]
    if root_class is MaxNIS:
        return MaxNIS(ops, evaluate, state, normalize, max_sum=max_sum, deep=deep)
    if root_class is Hypermax:
        return Hypermax(ops, evaluate, state, normalize, ops.players_alive(state))
    return root_class(ops, evaluate, state, normalize)


def thesis_search(
    position: Any,
    algorithm: str,
    *,
    depth: int | None = None,
    time_ms: float | None = None,
    heuristic: str | Callable | None = None,
    normalize: bool | None = None,
    game: GameLike = None,
    node_rate: float | None = None,
    **options: Any,
) -> RootResult:
    """Search like the original program, in depth mode or time mode (one of the two).

    With ``node_rate`` the time mode's clock is a node counter at the original program's
    speed (Chameleon Chess only): the search goes on while fewer positions are searched
    than the original searched in ``time_ms`` there (:func:`run_nodes`,
    :func:`~chameleon_lab.games.chameleon.clock.original_clock_nodes`).
    ``options`` go to :func:`root_algorithm` (``max_sum``, ``deep`` for teaching trees).
    """
    budget = check_budget("thesis", depth, time_ms)
    check_node_rate("thesis", time_ms, node_rate)
    state = state_of(position)
    algo = root_algorithm(
        algorithm,
        state,
        game=resolve_game(position, game),
        heuristic=heuristic,
        normalize=normalize,
        **options,
    )
    if depth is not None:
        return run_depth(algo, state, int(depth))
    if node_rate is not None:  # a whole budget: counts below it are those below its ceiling
        nodes = emulated_nodes(state, algo.game, float(budget.time_ms), node_rate)
        return run_nodes(algo, state, nodes)
    return run_time(algo, state, float(budget.time_ms))


def _check_budget(depth: int | None, time_ms: float | None, nodes: int | None) -> None:
    if nodes is not None or (depth is None) == (time_ms is None):
        raise ValueError(
            "the thesis flavour takes exactly one budget, depth=D (plies) or time_ms=T: "
            "the original program had no node budget (the improved flavour has one)"
        )


#: The options of the algorithms the thesis flavour takes (MaxN-IS's); it refuses
#: the others (the improved flavour's, such as the mended Hypermax).
THESIS_OPTIONS = ("max_sum", "deep")


def _run(
    position: Any,
    algorithm: str,
    *,
    budget: Budget,
    heuristic: str | Callable | None,
    normalize: bool | None,
    game: GameLike,
    tt_bits: int,
    workspace: Any,
    node_rate: float | None = None,
    **options: Any,
) -> RootResult:
    """The thesis flavour as :func:`chameleon_lab.search.api.search` runs it."""
    other = THESIS.refused(options)
    if other:
        raise ValueError(f"the thesis flavour takes no options such as {other}")
    if workspace is not None:
        raise ValueError("a workspace belongs to the improved flavour; the thesis flavour has none")
    given = {name: value for name, value in options.items() if value is not None}
    return thesis_search(
        position,
        algorithm,
        depth=budget.depth,
        time_ms=budget.time_ms,
        heuristic=heuristic,
        normalize=normalize,
        game=game,
        node_rate=node_rate,
        **given,
    )


THESIS = Flavour(
    "thesis",
    "the original program's driver: depth mode or time mode, bit for bit",
    _check_budget,
    _run,
    own_clock=True,
    options=THESIS_OPTIONS,
)
register_flavour(THESIS)
