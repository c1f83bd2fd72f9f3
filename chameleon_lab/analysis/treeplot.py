"""The thesis's worked examples (figures 4.1 to 4.6) as explicit trees, searched and drawn.

``EXAMPLES`` holds each figure's tree (nested lists of leaf score vectors, rebuilt
from the thesis's text: the values it names as given, the others chosen so that its
narrative holds) and the searches it compares. :func:`run_example` runs those searches
on :class:`~chameleon_lab.games.trees.ExplicitTree` and returns, per search, the root
choice and the branches it pruned; :func:`draw_tree` draws a tree with its leaf
vectors, the MaxN (or Paranoid) values backed up to every inner node, pruned
branches dashed and grey, and the root's choice in bold.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..games.trees import TREE_OPS, ExplicitTree, tree_values
from ..search.api import search


@dataclass(frozen=True)
class Example:
    """One worked example: its tree, players, and the searches to compare."""

    title: str
    nested: Any
    players: tuple[int, ...]
    searches: list[dict[str, Any]] = field(default_factory=list)
    backup: str = "maxn"  # how draw_tree backs values up: "maxn" or "paranoid"


EXAMPLES: dict[str, Example] = {
    "4.1": Example(
        "Figure 4.1: alpha-beta pruning (two players, Max scores shown)",
        [[(3, 0), (5, 0)], [(-2, 0), (9, 0)]],
        (0, 1),
        [{"algorithm": "paranoid", "flavour": "improved", "normalize": False}],
        "paranoid",
    ),
    "4.2": Example(
        "Figure 4.2: paranoid backup (player 1 is Max, players 2 and 3 are Min)",
        [[[(4, 2, 3), (6, 1, 2)], [(2, 5, 1), (7, 0, 3)]], [[(5, 1, 3), (3, 3, 3)]]],
        (0, 1, 2),
        [{"algorithm": "paranoid", "flavour": "improved", "normalize": False}],
        "paranoid",
    ),
    "4.3": Example(
        "Figure 4.3: MaxN with three players",
        [[(3, 3, 4), (1, 4, 5)], [(6, 2, 2), (4, 5, 1)], [(2, 7, 1), (5, 5, 0)]],
        (0, 1, 2),
        [{"algorithm": "maxn", "flavour": "thesis", "normalize": False}],
    ),
    "4.4": Example(
        "Figure 4.4: shallow pruning, maximum sum 10",
        [[(5, 3, 2), (4, 2, 4)], [(3, 6, 1), (8, 1, 1)]],
        (0, 1, 2),
        [
            {"algorithm": "maxn", "flavour": "thesis", "normalize": False},
            {"algorithm": "maxnis", "flavour": "thesis", "normalize": False, "max_sum": 10.0},
        ],
    ),
    "4.5": Example(
        "Figure 4.5: deep pruning gives a wrong result, maximum sum 10",
        [(5, 3, 2), [[(1, 3, 6), (2, 1, 7)], (7, 2, 1)]],
        (0, 1, 2),
        [
            {"algorithm": "maxn", "flavour": "thesis", "normalize": False},
            {"algorithm": "maxnis", "flavour": "thesis", "normalize": False, "max_sum": 10.0},
            {
                "algorithm": "maxnis",
                "flavour": "thesis",
                "normalize": False,
                "max_sum": 10.0,
                "deep": True,
            },
        ],
    ),
    "4.6": Example(
        "Figure 4.6: Hypermax deviates from MaxN",
        [(2, -1, -1), [(3, -2, -1), [(1, -3, 2), (-2, -1, 3)]]],
        (0, 1, 2),
        [
            {"algorithm": "maxn", "flavour": "thesis", "normalize": False},
            {"algorithm": "hypermax", "flavour": "thesis", "normalize": False},
        ],
    ),
}


@dataclass(frozen=True)
class TreeRun:
    """One search of an example: its label, root choice and pruned branches."""

    label: str
    choice: int
    root_scores: np.ndarray
    pruned: list[tuple[int, ...]]


def _label(options: dict[str, Any]) -> str:
    extra = [k for k in ("deep",) if options.get(k)]
    return f"{options['algorithm']} ({options['flavour']}{', deep' if extra else ''})"


def run_example(example: Example) -> list[TreeRun]:
    """Run every search of ``example`` on its tree (depth 10: to the leaves)."""
    tree = ExplicitTree.from_nested(example.nested, example.players)
    runs = []
    for options in example.searches:
        tree.reset()
        opts = dict(options)
        flavour = opts.pop("flavour")
        result = search(
            tree.state, flavour=flavour, depth=10, game=TREE_OPS, heuristic=tree_values, **opts
        )
        runs.append(
            TreeRun(_label(options), result.index, np.asarray(result.scores), tree.pruned())
        )
    return runs


def backed_up(
    nested: Any, players: tuple[int, ...], rule: str = "maxn", skip: frozenset = frozenset()
) -> dict:
    """Value of every node: MaxN vectors (first strictly larger entry of the mover wins)
    or Paranoid scalars (player 0 maximises ``2 s0 - sum``, the others minimise). Keys
    are paths of child indices.

    ``skip`` holds the paths a pruning search cut off: they get no value, and their
    parents back up only what the search saw, which is the value (a bound, where a
    child was cut) that the search computed there.
    """
    out: dict[tuple[int, ...], Any] = {}

    def walk(node: Any, path: tuple[int, ...]) -> Any:
        if isinstance(node, tuple):
            value = node if rule == "maxn" else 2 * node[0] - sum(node)
        else:
            mover = players[len(path) % len(players)]
            seen = [(i, child) for i, child in enumerate(node) if (*path, i) not in skip]
            values = [walk(child, (*path, i)) for i, child in seen]
            if rule == "maxn":
                value = values[0]
                for v in values[1:]:
                    if v[mover] > value[mover]:
                        value = v
            else:
                value = max(values) if mover == 0 else min(values)
        out[path] = value
        return value

    walk(nested, ())
    return out


def _layout(nested: Any) -> dict[tuple[int, ...], tuple[float, float]]:
    pos: dict[tuple[int, ...], tuple[float, float]] = {}
    counter = [0]

    def place(node: Any, path: tuple[int, ...]) -> float:
        if isinstance(node, tuple):
            x = float(counter[0])
            counter[0] += 1
        else:
            xs = [place(child, (*path, i)) for i, child in enumerate(node)]
            x = sum(xs) / len(xs)
        pos[path] = (x, -float(len(path)))
        return x

    place(nested, ())
    return pos


def _fmt(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(f"{v:g}" for v in value) + ")"
    return f"{value:g}"


def draw_tree(
    example: Example,
    run: TreeRun | None = None,
    ax: Any = None,
    values: Mapping[tuple[int, ...], Any] | None = None,
) -> Any:
    """Draw ``example``'s tree; with ``run``, grey out what it pruned and mark its choice.

    Inner nodes are labelled with ``values`` by path where given (what a search that
    backs up by other rules computed), else with the example's backup rule over what
    the search did not cut."""
    import matplotlib.pyplot as plt

    pos = _layout(example.nested)
    pruned = set(run.pruned) if run else set()
    hidden = {p for p in pos if any(p[: len(q)] == q for q in pruned)}
    if values is None:  # only what the search computed: no value where cut, a bound above
        values = backed_up(example.nested, example.players, example.backup, frozenset(pruned))
    bounds = {q[:-1] for q in pruned}
    if ax is None:
        width = max(4.0, 1.3 * sum(1 for p in pos if isinstance(_node(example.nested, p), tuple)))
        _, ax = plt.subplots(figsize=(width, 1.4 * (1 + max(-y for _, y in pos.values()))))
    for path, (x, y) in pos.items():
        if path:
            px, py = pos[path[:-1]]
            chosen = run is not None and len(path) == 1 and path[0] == run.choice
            ax.plot(
                [px, x],
                [py, y],
                color="0.75" if path in hidden else "0.2",
                linestyle="--" if path in hidden else "-",
                linewidth=2.5 if chosen else 1.0,
                zorder=1,
            )
    for path, (x, y) in pos.items():
        node = _node(example.nested, path)
        faded = path in hidden
        colour = "0.7" if faded else "black"
        if isinstance(node, list):
            mover = example.players[len(path) % len(example.players)]
            ax.scatter([x], [y], s=420, color="white", edgecolor=colour, zorder=2)
            ax.text(x, y, f"P{mover + 1}", ha="center", va="center", fontsize=8, color=colour)
            if path in values:  # right of the circle, whatever the panel's scale
                text = _fmt(values[path]) + (" (bound)" if path in bounds else "")
                ax.annotate(
                    text,
                    (x, y),
                    xytext=(14, 0),
                    textcoords="offset points",
                    fontsize=8,
                    color="C0",
                    va="center",
                    zorder=3,
                )
        else:
            leaf = _fmt(node if example.backup == "maxn" else 2 * node[0] - sum(node))
            ax.text(x, y - 0.05, leaf, ha="center", va="top", fontsize=8, color=colour)
    title = f"{run.label}: root chooses branch {run.choice}" if run else example.title
    ax.set_title(title, fontsize=9)
    ax.margins(x=0.15, y=0.12)
    ax.axis("off")
    return ax


def _node(nested: Any, path: tuple[int, ...]) -> Any:
    for i in path:
        nested = nested[i]
    return nested


def draw_example(
    example: Example, values: Mapping[int, Mapping[tuple[int, ...], Any]] | None = None
) -> Any:
    """A figure with one panel per search of ``example`` (its title above them);
    ``values`` gives a panel's node labels by its search's index (see :func:`draw_tree`)."""
    import textwrap

    import matplotlib.pyplot as plt

    runs = run_example(example)
    width = 4.6 * len(runs)
    fig, axes = plt.subplots(1, len(runs), figsize=(width, 3.6), squeeze=False)
    for k, (ax, run) in enumerate(zip(axes[0], runs, strict=True)):
        draw_tree(example, run, ax, (values or {}).get(k))
    fig.suptitle("\n".join(textwrap.wrap(example.title, int(8 * width))))  # never cut off
    fig.tight_layout()
    return fig
