"""Search efficiency of the multi-player algorithms on fixed positions by game phase.

The functions behind notebook ``08_search_efficiency`` and ``chameleon-lab bench
depths``. Self-play medians of the completed depth (the thesis's table 6.8) mix
positions: each algorithm meets the positions its own games lead to. Here every
algorithm searches the very same positions, drawn per game phase by seeded random
play, so nodes, times and depths compare fairly:

* :func:`nodes_per_depth`: nodes, seconds and the effective branching factor
  N(d) / N(d - 1) per algorithm, normalisation setting, phase and depth;
* :func:`pruning`: how many nodes MaxN-IS, speculative MaxN and Hypermax (and
  Paranoid) save against MaxN at the same depth, with and without normalisation;
* :func:`depth_at_budget`: the depth completed within a time budget.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from ..agents import Agent
from ..games.chameleon import Position
from ..search import api
from ..search.api import search
from ..search.registry import get_algorithm

#: ChameleonMatch phases by the pawns on the board (four-player games), as notebook 05 uses them.
PHASES = {"opening (13-16)": (13, 16), "middle (9-12)": (9, 12), "late (5-8)": (5, 8)}


def phase_positions(per_phase: int = 4, seed: int = 7) -> dict[str, list[Position]]:
    """Fixed four-player positions per game phase (by pawns left), reached by seeded
    random play with all four players still in the game: the same on every machine."""
    from random import Random

    from ..games.chameleon import ChameleonMatch

    rng = Random(seed)
    out: dict[str, list[Position]] = {name: [] for name in PHASES}
    while any(len(v) < per_phase for v in out.values()):
        game = ChameleonMatch(move_limit=None)
        for _ in range(rng.randint(0, 120)):
            if game.is_over:
                break
            game.play(rng.choice(game.position.legal_moves))
        pos = game.position
        if pos.is_over or len(pos.players_alive) < 4:
            continue
        for name, (low, high) in PHASES.items():
            if low <= len(pos.pawns) <= high and len(out[name]) < per_phase:
                out[name].append(pos)
    return out


def _phases(positions: Mapping[str, Sequence[Position]]) -> list[tuple[str, int, Position]]:
    return [(phase, i, pos) for phase, group in positions.items() for i, pos in enumerate(group)]


def nodes_per_depth(
    positions: Mapping[str, Sequence[Position]],
    depths: Sequence[int],
    algorithms: Sequence[str] | None = None,
    normalize: Sequence[bool | None] = (None,),
    heuristic: str = "pawns100roles",
) -> pd.DataFrame:
    """One row per algorithm, normalisation (``None``: the thesis's setting), phase,
    position and depth: nodes (expanded + evaluated), Paranoid's evaluations for move
    ordering (not nodes), seconds; improved flavour."""
    rows = []
    for algorithm in algorithms or api.MULTIPLAYER:
        for norm in normalize:
            options: dict[str, Any] = {"heuristic": heuristic}
            if norm is not None:
                options["normalize"] = norm
            if "max_sum" in get_algorithm(algorithm).options and norm is False:
                continue  # needs a bound on the scores' sum, which only normalising gives
            search(positions[next(iter(positions))][0], algorithm, depth=1, **options)
            for phase, i, pos in _phases(positions):
                for depth in depths:
                    result = search(pos, algorithm, depth=depth, **options)
                    rows.append(
                        {
                            "algorithm": algorithm,
                            "normalize": "default" if norm is None else str(norm),
                            "phase": phase,
                            "position": i,
                            "depth": depth,
                            "nodes": result.nodes,
                            # Paranoid's move ordering: evaluations that are not nodes
                            "order_evaluations": result.counters.get("order_evaluations", 0),
                            "seconds": result.seconds,
                        }
                    )
    return pd.DataFrame(rows)


def branching(per_position: pd.DataFrame) -> pd.DataFrame:
    """Mean nodes and seconds per (algorithm, normalisation, phase, depth), and the
    effective branching factor N(d) / N(d - 1) of the mean node counts."""
    keys = ["algorithm", "normalize", "phase"]
    out = (
        per_position.groupby([*keys, "depth"], observed=True)[["nodes", "seconds"]]
        .mean()
        .reset_index()
        .sort_values([*keys, "depth"])
    )
    out["ebf"] = out.groupby(keys, observed=True)["nodes"].transform(lambda n: n / n.shift())
    return out.reset_index(drop=True)


def pruning(per_position: pd.DataFrame) -> pd.DataFrame:
    """Nodes of each algorithm and setting as a share of MaxN's at the same depth on the
    same positions (1.0: nothing pruned), per phase and depth."""
    keys = ["phase", "position", "depth"]
    maxn = per_position[per_position["algorithm"] == "maxn"].groupby(keys)["nodes"].first()
    df = per_position.join(maxn.rename("maxn_nodes"), on=keys)
    df["share_of_maxn"] = df["nodes"] / df["maxn_nodes"]
    return (
        df.groupby(["algorithm", "normalize", "phase", "depth"], observed=True)["share_of_maxn"]
        .mean()
        .reset_index()
    )


def depth_at_budget(
    positions: Mapping[str, Sequence[Position]],
    budgets_ms: Sequence[float],
    algorithms: Sequence[str] | None = None,
) -> pd.DataFrame:
    """One row per algorithm, phase, position and budget: the depth the improved
    search completed within the budget (iterative deepening, clock checked in the tree)."""
    rows = []
    first = positions[next(iter(positions))][0]
    for algorithm in algorithms or api.MULTIPLAYER:
        Agent(algorithm, depth=1).choose(first)  # compile outside the clock
        for budget in budgets_ms:
            agent = Agent(algorithm, time_ms=float(budget))
            for phase, i, pos in _phases(positions):
                decision = agent.choose(pos)
                rows.append(
                    {
                        "algorithm": algorithm,
                        "phase": phase,
                        "position": i,
                        "budget_ms": budget,
                        "depth": decision.depth,
                    }
                )
    return pd.DataFrame(rows)


def depth_quartiles(depths: pd.DataFrame) -> pd.DataFrame:
    """Median and quartiles of the completed depth per algorithm, phase and budget."""
    g = depths.groupby(["algorithm", "phase", "budget_ms"], observed=True, sort=False)["depth"]
    out = g.quantile([0.25, 0.5, 0.75]).unstack().reset_index()
    return out.rename(columns={0.25: "q1", 0.5: "median", 0.75: "q3"})
