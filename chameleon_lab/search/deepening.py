"""Iterative deepening for the improved flavour: budgets, root ordering, the choice.

Depth 1, 2, ... are searched in turn, each to the end before the next starts. Depth 1
always completes (so there is always a move); from depth 2 on the budgets apply inside
the tree (:func:`.improved.out_of_budget`): a time budget in milliseconds, a node budget
(expanded plus evaluated positions; independent of the machine, so the same node budget
gives the same move everywhere) and a depth budget. When a budget runs out mid-iteration
that iteration is dropped and the best move of the last completed one is played.

Each iteration searches the root's moves best-first by the previous iteration's scores;
the Paranoid transposition table lives for the whole search (not across searches, so a
search never depends on what was searched before it).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..games.protocol import GameOps
from . import improved as I
from .core import (
    MAX_DEPTH,
    TT_BITS,
    Budget,
    RootResult,
    bind,
    check_root,
    check_tt_bits,
    compile_for,
    compiled,
    game_line,
    node_head,
    resident_zeros,
    scratch_record,
    shared_workspace,
    working_state,
)
from .registry import get_algorithm


@dataclass
class DeepWorkspace:
    """Scratch tables of the improved searches; keep one per agent to reuse the memory.

    The layout of ``ictl`` and ``vals`` is described in :mod:`.improved`.
    """

    game: GameOps
    tt_bits: int = TT_BITS
    moves: np.ndarray = field(init=False)
    undo: np.ndarray = field(init=False)
    vals: np.ndarray = field(init=False)
    leaf: np.ndarray = field(init=False)
    ictl: np.ndarray = field(init=False)
    pv: np.ndarray = field(init=False)
    tables: np.void = field(init=False, repr=False)
    tt_int: np.ndarray = field(init=False)
    tt_val: np.ndarray = field(init=False)
    searches: int = field(init=False, default=0)
    #: whether the iteration being searched is the one the budget asked for (its depth;
    #: under a time or node budget every one): speculative MaxN lets the root's bound
    #: prune only there, so that the values that order the next iteration are exact
    final: bool = field(init=False, default=True)

    def __post_init__(self) -> None:
        check_tt_bits(self.tt_bits)
        record, views = scratch_record(I.tables_dtype(self.game.max_moves, self.game.undo_size))
        vars(self).update(views)
        self.tables = record[0]  # the node functions take the bare record (one pointer)
        size = (1 << self.tt_bits) if self.tt_bits else 0
        self.tt_int = resident_zeros((size, I.TT_COLUMNS), np.int64)
        self.tt_val = resident_zeros(size)
        I.now_ns()  # the compiled clock's first call costs ~15 ms: pay it before any budget


@dataclass
class DeepSearch:
    """One improved algorithm bound to a game, a heuristic and its options."""

    algorithm: str
    game: GameOps
    evaluate: object
    normalize: bool
    max_sum: float = 1.0
    #: Paranoid's and BRS's move ordering from this remaining depth on (0: generation order)
    order_depth: int = I.ORDER_DEPTH

    def _node(self) -> Any:
        """The algorithm's node function compiled for this game and heuristic."""
        algorithm = get_algorithm(self.algorithm)
        siblings = algorithm.code("siblings")
        return bind(algorithm.code("node"), self.game, self.evaluate, siblings=siblings,
                    _nrt=False)  # fmt: skip

    def _root_args(self, state: np.ndarray, depth: int, ws: DeepWorkspace) -> tuple:
        """The node function's arguments for a search of the root (ply 0) to ``depth``."""
        head = node_head(state, depth, 0, self.normalize)
        root_args = get_algorithm(self.algorithm).code("root_args")
        return root_args(self, state, ws, head, ws.tables)

    def compile(self, state: np.ndarray, ws: DeepWorkspace) -> None:
        """Compile the node function for the root call now (once per process and
        binding), so that numba's compile time (seconds) is not on the search's clock:
        counted there, it spent a first search's time budget before the tree began.
        Once compiled, the root's arguments are not built again here (Hypermax's cost
        a few microseconds a search)."""
        node = self._node()
        if not compiled(node):
            compile_for(node, *self._root_args(state, 1, ws))

    def run_root(self, state: np.ndarray, depth: int, ws: DeepWorkspace) -> None:
        """Search the root (ply 0) to ``depth``; results land in the workspace."""
        self._node()(*self._root_args(state, depth, ws))


def _order(scores: np.ndarray, previous: np.ndarray) -> np.ndarray:
    """Root order for the next iteration: best score first, ties in the previous order;
    moves not searched (NaN, cut by pruning) after all searched ones."""
    keyed = np.where(np.isnan(scores[previous]), -np.inf, scores[previous])
    return previous[np.argsort(-keyed, kind="stable")]


def iterative_deepening(
    search: DeepSearch,
    state: np.ndarray,
    budget: Budget,
    ws: DeepWorkspace | None = None,
) -> RootResult:
    """Search ``state`` by iterative deepening within ``budget``; see the module doc."""
    if budget.depth is not None and budget.depth > MAX_DEPTH:
        raise ValueError(
            f"the improved searches go at most {MAX_DEPTH} plies deep, got {budget.depth}"
        )
    g = search.game
    spec = get_algorithm(search.algorithm)
    if ws is None:
        ws = shared_workspace(DeepWorkspace, g, TT_BITS)
    state = working_state(state)
    n = check_root(g, state, ws.moves)
    if spec.passes_turns and g.pass_to is None and int(np.sum(g.players_alive(state))) > 2:
        raise ValueError(
            f"{spec.title} hands the turn to one opponent out of order, which {g.name} "
            "cannot (its GameOps have no pass_to) with more than two players: use brsplus, "
            "which keeps the turn order"
        )
    search.compile(state, ws)
    start = time.perf_counter_ns()  # the search's own time, without compiling
    column = 0 if spec.scalar else int(g.player_of(state))
    ws.searches += 1
    ictl, roots = ws.ictl, ws.vals[I.ROOT_ROW : I.ROOT_ROW + n]
    ictl[:] = 0
    ictl[I.C_STAMP] = ws.searches
    order = np.arange(n)
    max_depth = budget.depth or MAX_DEPTH
    deadline = 0 if budget.time_ms is None else start + int(budget.time_ms * 1e6)
    done = None
    for depth in range(1, max_depth + 1):
        if depth == 2:  # depth 1 always completes; the budgets apply from depth 2 on
            ictl[I.C_NODE_LIMIT] = budget.nodes or 0
            ictl[I.C_DEADLINE] = deadline
            ictl[I.C_NEXT_CHECK] = 0
        horizon = ictl[I.S_HORIZON]
        ictl[I.ROOT_ORDER : I.ROOT_ORDER + n] = order
        roots[:] = np.nan
        ws.final = budget.depth is None or depth == max_depth
        search.run_root(state, depth, ws)
        if ictl[I.C_ABORTED]:
            break
        scores = roots[:, column].copy()
        exact = bool(ictl[I.S_HORIZON] == horizon)
        done = (
            depth,
            scores if spec.scalar else roots.copy(),
            int(np.flatnonzero(ws.moves[0, :n] == ws.pv[0, 0])[0]),
            ws.pv[0, : ictl[I.PV_LEN]].copy(),
            exact,
        )
        if exact or (deadline and time.perf_counter_ns() >= deadline):
            break
        order = _order(scores, order)
    depth, scores, index, pv, exact = done
    if spec.passes_turns:
        pv = game_line(g, state, pv)
    return RootResult(
        index=index,
        scores=scores,
        depth=float(depth),
        expanded=int(ictl[I.S_EXPANDED]),
        evaluated=int(ictl[I.S_EVALUATED]),
        seconds=(time.perf_counter_ns() - start) / 1e9,
        moves=ws.moves[0, :n].copy(),
        pv=pv,
        tt_hits=int(ictl[I.S_TT_HITS]),
        exact=exact,
        counters=({"order_evaluations": int(ictl[I.S_ORDER_EVALS])} if spec.scalar else {}),
    )
