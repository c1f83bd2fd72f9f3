"""The two-player suite's driver: options, iterative deepening, aspiration windows,
budgets and the choice (the node function is :mod:`.twoplayer`'s).

:class:`SuiteOptions` holds the switches, checked (an option an algorithm does not
take, aspiration without iterative deepening, ``tt_bits`` outside its range: a
``ValueError`` naming the value and the valid choices). :func:`suite_search` searches a
position of a two-player zero-sum game:

* with ``iterative`` (default) depth 1, 2, ... in turn, each searched to its end,
  the root's moves ordered best first by the previous iteration, the budgets (time,
  nodes) checked inside the tree from the second iteration on; the best move of the
  last completed iteration is played;
* with ``aspiration=A`` each iteration after the first starts with the window
  ``(v - A, v + A)`` around the previous value and searches again with the full
  window when the value falls outside;
* without ``iterative`` one search to the depth budget.

The transposition table lives for one search (entries of other searches are ignored),
so a search never depends on what was searched before it and the same node budget
gives the same move on every machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from ..checks import finite_real
from ..games.protocol import GameOps
from . import twoplayer as TP
from .core import (
    MAX_DEPTH,
    Budget,
    RootResult,
    bind,
    check_tt_bits,
    compile_for,
    leaf_evaluator,
    ops_of,
    resident_zeros,
    resolve_game,
    root_moves,
    scratch_record,
    state_of,
    working_state,
    workspace_for,
)
from .improved import (
    C_ABORTED,
    S_EVALUATED,
    S_EXPANDED,
    S_HORIZON,
    S_TT_HITS,
    now_ns,
)
from .improved import PV_LEN as _PV_LEN
from .twoplayer import MAX_QUIESCENCE


@dataclass(frozen=True)
class SuiteOptions:
    """The switches of the two-player suite (see :mod:`.twoplayer` for each)."""

    prune: bool = True
    iterative: bool = True
    ordering: int = 0  # order statically from this remaining depth on (True: 2); 0 off
    pvs: bool = False
    aspiration: float = 0.0  # half-width of the window; 0: off
    killers: bool = False
    history: bool = False
    tt_bits: int = 0  # 0: no table
    quiescence: int = 0  # plies; 0: off

    def __post_init__(self) -> None:
        for name in ("prune", "iterative", "pvs", "killers", "history"):
            value = getattr(self, name)
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{name} must be true or false, got {value!r}")
        ordering = self.ordering
        if isinstance(ordering, (bool, np.bool_)):
            object.__setattr__(self, "ordering", 2 if ordering else 0)
        elif not isinstance(ordering, (int, np.integer)) or not 0 <= ordering <= MAX_DEPTH:
            raise ValueError(
                f"ordering is true/false or the remaining depth from which to order "
                f"(0..{MAX_DEPTH}), got {ordering!r}"
            )
        a = self.aspiration
        if not (finite_real(a) and a >= 0):
            raise ValueError(f"aspiration is a window half-width >= 0 (0: off), got {a!r}")
        if a and not self.iterative:
            raise ValueError(
                "aspiration windows centre on the previous iteration's value: they need "
                "iterative=True"
            )
        check_tt_bits(self.tt_bits)
        q = self.quiescence
        if isinstance(q, bool) or not isinstance(q, (int, np.integer)):
            raise ValueError(f"quiescence is a number of plies 0..{MAX_QUIESCENCE}, got {q!r}")
        if not 0 <= q <= MAX_QUIESCENCE:
            raise ValueError(f"quiescence is a number of plies 0..{MAX_QUIESCENCE}, got {q!r}")
        # Python's own types (numpy's bool and numbers are accepted): the compiled
        # search is typed by its arguments, and another type would compile it again
        for name, kind in _KINDS:
            value = getattr(self, name)
            if type(value) is not kind:
                object.__setattr__(self, name, kind(value))


#: Each option's type: the type of its default.
_KINDS = tuple((f.name, type(f.default)) for f in fields(SuiteOptions))


#: The option names of the suite (the ``alphabeta`` algorithm takes them all but prune).
OPTION_NAMES = tuple(f.name for f in fields(SuiteOptions) if f.name != "prune")


@dataclass
class SuiteWorkspace:
    """Scratch tables of the two-player suite; an agent keeps one to reuse the memory."""

    game: GameOps
    tt_bits: int = 0
    searches: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        check_tt_bits(self.tt_bits)
        record, views = scratch_record(TP.tables_dtype(self.game.max_moves, self.game.undo_size))
        vars(self).update(views)
        self.tables = record  # the node function takes the one-element array
        size = (1 << self.tt_bits) if self.tt_bits else 0
        self.tt_int = resident_zeros((size, TP.TT_COLUMNS), np.int64)
        self.tt_val = resident_zeros(size)
        now_ns()  # the compiled clock's first call costs ~15 ms: pay it before any budget


def suite_search(
    ops: GameOps,
    evaluate: Any,
    players: tuple[int, int],
    state: np.ndarray,
    budget: Budget,
    options: SuiteOptions,
    ws: SuiteWorkspace | None = None,
) -> RootResult:
    """Search ``state`` of a two-player zero-sum game (see the module docstring);
    ``evaluate`` is the compiled leaf evaluation, ``players`` the two player numbers."""
    if budget.depth is not None and budget.depth > MAX_DEPTH:
        raise ValueError(
            f"the two-player suite goes at most {MAX_DEPTH} plies deep, got depth={budget.depth}"
        )
    if not options.iterative and budget.depth is None:
        raise ValueError(
            "without iterative deepening a search needs a depth budget (time and node "
            "budgets stop an iteration and play the last completed one)"
        )
    ws = workspace_for(SuiteWorkspace, ops, options.tt_bits, ws)
    root = bind(TP.ab_root, ops, evaluate, siblings=TP.ROOT_SIBLINGS, _nrt=False)
    state = working_state(state)
    o = options
    setting = np.array(
        [0, o.prune, o.ordering, o.pvs, o.killers, o.history, o.quiescence, *players],
        dtype=np.int64,
    )
    compile_for(root, state, 1, 0.0, 0.0, ws.tables, ws.tt_int, ws.tt_val, 0, 0, 0, setting)
    start = time.perf_counter_ns()  # the search's own time, without compiling
    ctl = ws.ctl
    ws.searches += 1
    setting[TP.SET_STAMP] = ws.searches
    node_limit = budget.nodes or 0
    deadline = 0 if budget.time_ms is None else start + int(budget.time_ms * 1e6)
    max_depth = budget.depth or MAX_DEPTH
    depths = range(1, max_depth + 1) if o.iterative else [max_depth]
    done = None
    previous = 0.0
    researches = 0
    n = 0

    def run(depth: int, alpha: float, beta: float, mode: int) -> float:
        # with iterative deepening the first iteration always completes (no budget)
        first = o.iterative and mode == TP.NEW_SEARCH
        return root(state, depth, alpha, beta, ws.tables, ws.tt_int, ws.tt_val, mode,
                    0 if first else node_limit, 0 if first else deadline, setting)  # fmt: skip

    for i, depth in enumerate(depths):
        mode = TP.NEXT_DEPTH if i else TP.NEW_SEARCH
        horizon = ctl[S_HORIZON] if i else 0
        if o.aspiration and done is not None:
            alpha, beta = previous - o.aspiration, previous + o.aspiration
            value = run(depth, alpha, beta, mode)
            if not ctl[C_ABORTED] and (value <= alpha or value >= beta):
                researches += 1
                value = run(depth, -np.inf, np.inf, TP.AGAIN)
        else:
            value = run(depth, -np.inf, np.inf, mode)
        if i == 0:
            n = root_moves(ctl[TP.C_ROOT_N])
        if ctl[C_ABORTED]:
            break
        exact = bool(ctl[S_HORIZON] == horizon and ctl[TP.S_QNODES] == 0)
        pv = ws.pv[0, : ctl[_PV_LEN]].copy()
        best = int(ctl[TP.C_ROOT_BEST])
        if best < 0:  # a completed search always has a best root move
            raise RuntimeError(f"the search of {depth} plies ended without a best move")
        # a new array; + 0.0 makes NegaMax's -0.0 (a draw negated) a plain 0.0
        done = (depth, ws.root_scores[:n] + 0.0, best, pv, exact)
        previous = value
        if exact or depth == depths[-1] or (deadline and time.perf_counter_ns() >= deadline):
            break
    if done is None:
        raise ValueError("the budget ran out before the first iteration completed")
    depth, scores, index, pv, exact = done
    c = ctl.tolist()  # the counters as Python ints, in one call
    return RootResult(
        index=index,
        scores=scores,
        depth=float(depth),
        expanded=c[S_EXPANDED],
        evaluated=c[S_EVALUATED],
        seconds=(time.perf_counter_ns() - start) / 1e9,
        moves=ws.moves[0, :n].copy(),
        pv=pv,
        tt_hits=c[S_TT_HITS],
        exact=exact,
        counters={
            "cutoffs": c[TP.S_CUTOFFS],
            "first_move_cutoffs": c[TP.S_FIRST_CUTOFFS],
            "pvs_researches": c[TP.S_RESEARCHES],
            "aspiration_researches": researches,
            "order_evaluations": c[TP.S_ORDER_EVALS],
            "quiescence_nodes": c[TP.S_QNODES],
        },
    )


def run_suite(
    position: Any,
    algorithm: str,
    *,
    game: Any,
    budget: Budget,
    heuristic: Any,
    workspace: SuiteWorkspace | None,
    **options: Any,
) -> RootResult:
    """``negamax`` or ``alphabeta`` on ``position`` of ``game`` with ``options`` (the
    registry's driver of the two algorithms)."""
    game = resolve_game(position, game)
    info = getattr(game, "info", None)
    if info is None or info.n_players != 2 or not info.zero_sum:
        name = getattr(game, "name", game)
        players = f" with {info.n_players} players" if info is not None else ""
        raise ValueError(
            f"{algorithm} searches two-player zero-sum games; {name}{players} is not one "
            "(use maxn, maxnis, paranoid or hypermax)"
        )
    opts = SuiteOptions(prune=algorithm != "negamax", **options)
    return suite_search(
        ops_of(game),
        leaf_evaluator(game, heuristic),
        tuple(int(p) for p in info.players),
        state_of(position),
        budget,
        opts,
        workspace,
    )
