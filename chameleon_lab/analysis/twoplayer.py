"""The studies of notebook 06: seed 001's ladder of two-player search enhancements.

* :func:`enhancement_ladder`: for each setting (each adds one switch to the one
  before), nodes, cut-offs (and how many the first move made), table hits, ordering
  evaluations and time per depth on fixed positions; :func:`branching` turns it into
  the effective branching factor ``N(d) / N(d - 1)``.
* :func:`depth_in_time`: the depth each setting completes within a time budget (the
  seed's claim: alpha-beta with ordering took Five-in-a-row from 4 to up to 7 plies).
* :func:`pvs_study`: principal-variation search with poor (generation order) and good
  (static ordering and a table) move ordering: the seed found PVS did not pay off with
  its ordering.
* :func:`game_tree` and :func:`draw_game_tree`: a small game's complete tree with the
  exact value of every position (seed 001, figures 1 and 6: dice tipping, target 8
  from face 4).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..games.registry import get_game
from ..search.api import search
from ..search.solve import solve

#: Seed 001's ladder: each setting adds one switch to the one before.
LADDER: dict[str, dict[str, Any]] = {
    "negamax": {"algorithm": "negamax"},
    "alpha-beta": {"algorithm": "alphabeta"},
    "+ ordering": {"algorithm": "alphabeta", "ordering": True},
    "+ pvs": {"algorithm": "alphabeta", "ordering": True, "pvs": True},
    "+ killers": {"algorithm": "alphabeta", "ordering": True, "pvs": True, "killers": True},
    "+ history": {
        "algorithm": "alphabeta",
        "ordering": True,
        "pvs": True,
        "killers": True,
        "history": True,
    },
    "+ tt": {
        "algorithm": "alphabeta",
        "ordering": True,
        "pvs": True,
        "killers": True,
        "history": True,
        "tt_bits": 18,
    },
}


def sample_lines(
    game: str, params: Mapping[str, Any], count: int, seed: int, plies: tuple[int, int] = (2, 8)
) -> list[tuple[Any, list[Any]]]:
    """Positions reached by seeded random play (not finished), each with the moves that
    lead there from the start; the same on every machine."""
    spec = get_game(game, **params)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos, moves = spec.start(), []
        for _ in range(rng.randint(*plies)):
            if pos.is_over:
                break
            moves.append(rng.choice(pos.legal_moves))
            pos = pos.play(moves[-1])
        if not pos.is_over:
            out.append((pos, moves))
    return out


def sample_positions(
    game: str, params: Mapping[str, Any], count: int, seed: int, plies: tuple[int, int] = (2, 8)
) -> list[Any]:
    """The positions of :func:`sample_lines`."""
    return [pos for pos, _ in sample_lines(game, params, count, seed, plies)]


def _split(setting: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    options = dict(setting)
    return options.pop("algorithm"), options


def enhancement_ladder(
    positions: Sequence[Any],
    depths: Sequence[int],
    settings: Mapping[str, Mapping[str, Any]] = LADDER,
) -> pd.DataFrame:
    """One row per setting, depth and position: the search's counts at that fixed depth
    (one search per depth, no iterative deepening, so the counts are the depth's own)."""
    rows = []
    for label, setting in settings.items():
        algorithm, options = _split(setting)
        search(positions[0], algorithm, depth=1, iterative=False, **options)  # compile
        for depth in depths:
            for i, pos in enumerate(positions):
                r = search(pos, algorithm, depth=depth, iterative=False, **options)
                rows.append(
                    {
                        "setting": label,
                        "depth": depth,
                        "position": i,
                        "nodes": r.nodes,
                        "expanded": r.expanded,
                        "evaluated": r.evaluated,
                        "tt_hits": r.tt_hits,
                        "seconds": r.seconds,
                        "value": float(r.scores[r.index]),
                        **r.counters,
                    }
                )
    df = pd.DataFrame(rows)
    df["setting"] = pd.Categorical(df["setting"], categories=list(settings), ordered=True)
    return df


def branching(ladder: pd.DataFrame) -> pd.DataFrame:
    """Per setting and depth: nodes, cut-offs and time summed over the positions, the
    share of cut-offs made by the first move, and the effective branching factor
    ``N(d) / N(d - 1)``."""
    g = ladder.groupby(["setting", "depth"], observed=True)
    out = g[["nodes", "cutoffs", "first_move_cutoffs", "tt_hits", "seconds"]].sum()
    out["first_move_share"] = out["first_move_cutoffs"] / out["cutoffs"].where(out["cutoffs"] > 0)
    out["ebf"] = out.groupby(level="setting", observed=True)["nodes"].transform(
        lambda s: s / s.shift(1)
    )
    out["nodes_per_second"] = out["nodes"] / out["seconds"]
    return out.reset_index()


def depth_in_time(
    positions: Sequence[Any],
    budgets_ms: Sequence[float],
    settings: Mapping[str, Mapping[str, Any]] = LADDER,
) -> pd.DataFrame:
    """The depth each setting completes by iterative deepening within each budget."""
    rows = []
    for label, setting in settings.items():
        algorithm, options = _split(setting)
        search(positions[0], algorithm, depth=1, **options)  # compile outside the budget
        for budget in budgets_ms:
            for i, pos in enumerate(positions):
                r = search(pos, algorithm, time_ms=float(budget), **options)
                rows.append(
                    {
                        "setting": label,
                        "budget_ms": float(budget),
                        "position": i,
                        "depth": r.depth,
                        "nodes": r.nodes,
                    }
                )
    df = pd.DataFrame(rows)
    df["setting"] = pd.Categorical(df["setting"], categories=list(settings), ordered=True)
    return df


def pvs_study(positions: Sequence[Any], depth: int) -> pd.DataFrame:
    """Nodes of alpha-beta with and without PVS under poor and good move ordering."""
    orderings = {
        "poor (generation order)": {},
        "good (static ordering, table)": {"ordering": True, "tt_bits": 18},
    }
    rows = []
    for ordering, options in orderings.items():
        for pvs in (False, True):
            nodes = researches = 0
            for pos in positions:
                r = search(pos, "alphabeta", depth=depth, iterative=False, pvs=pvs, **options)
                nodes += r.nodes
                researches += r.counters["pvs_researches"]
            rows.append(
                {"ordering": ordering, "pvs": pvs, "nodes": nodes, "pvs_researches": researches}
            )
    df = pd.DataFrame(rows)
    base = df[~df["pvs"]].set_index("ordering")["nodes"]
    df["change"] = df["nodes"] / df["ordering"].map(base) - 1.0
    return df


# --------------------------------------------------------------------- game trees
@dataclass
class TreeNode:
    """A position of a drawn game tree: the move into it, its label and exact value."""

    move: str
    label: str
    value: float  # for the player to move there (at a finished position: whose turn)
    over: bool
    children: list[TreeNode] = field(default_factory=list)


def game_tree(position: Any, label: Any = str, max_nodes: int = 500) -> TreeNode:
    """The complete game tree below ``position``, each node with its exact value
    (:func:`~chameleon_lab.search.solve.solve`); ``label(position)`` names a node."""
    count = 0

    def build(pos: Any, move: str) -> TreeNode:
        nonlocal count
        count += 1
        if count > max_nodes:
            raise ValueError(f"the tree has more than {max_nodes} positions; draw a smaller one")
        node = TreeNode(move, label(pos), solve(pos).value, pos.is_over)
        for m, child in zip(pos.legal_moves, pos.successors(), strict=True):
            node.children.append(build(child, str(m)))
        return node

    return build(position, "")


def draw_game_tree(root: TreeNode, title: str, ax: Any = None) -> Any:
    """Draw a game tree top-down: each position with its label and its exact value for
    the player to move (+1 win, 0 draw, -1 loss; green, grey, red), edges with moves."""
    import matplotlib.pyplot as plt

    leaves: list[TreeNode] = []

    def collect(node: TreeNode, depth: int, out: dict) -> float:
        if not node.children:
            x = float(len(leaves))
            leaves.append(node)
        else:
            x = float(np.mean([collect(c, depth + 1, out) for c in node.children]))
        out[id(node)] = (x, -depth)
        return x

    where: dict[int, tuple[float, float]] = {}
    collect(root, 0, where)
    if ax is None:
        fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(leaves)), 4.5))
    else:
        fig = ax.figure
    colour = {1.0: "#2a9d55", 0.0: "#8a8a8a", -1.0: "#c8453a"}

    def draw(node: TreeNode) -> None:
        x, y = where[id(node)]
        for child in node.children:
            cx, cy = where[id(child)]
            ax.plot([x, cx], [y, cy], color="#b0b0b0", lw=1, zorder=1)
            box = {"fc": "white", "ec": "none", "pad": 0.5}
            ax.text((x + cx) / 2, (y + cy) / 2, child.move, fontsize=8, ha="center",
                    va="center", bbox=box, zorder=2)  # fmt: skip
            draw(child)
        ax.scatter([x], [y], s=620, color=colour.get(node.value, "#4060a0"), zorder=3)
        sign = f"{node.value:+.0f}" if node.value else "0"
        ax.text(x, y, sign, color="white", fontsize=9, ha="center", va="center",
                fontweight="bold", zorder=4)  # fmt: skip
        ax.text(x, y - 0.28, node.label, fontsize=7, ha="center", va="top", zorder=4)

    draw(root)
    ax.set_title(title)
    ax.text(0.5, -0.02, "value for the player to move: +1 win, 0 draw, -1 loss (exact)",
            transform=ax.transAxes, ha="center", va="top", fontsize=8)  # fmt: skip
    ax.axis("off")
    ax.margins(0.08, 0.12)
    fig.tight_layout()
    return fig


def dice_label(position: Any) -> str:
    """A dice-tipping node's label: the sum and the face on top."""
    return f"sum {position.sum}, top {position.top}"


def round_robin(names: Sequence[str]) -> list[str]:
    """Fixed seatings of a two-player round robin: every ordered pair of distinct agents
    (so each plays each colour against each other)."""
    return [f"{a},{b}" for a in names for b in names if a != b]
