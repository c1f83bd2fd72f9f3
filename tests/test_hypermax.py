"""Hypermax against MaxN (:mod:`chameleon_lab.analysis.hypermax`): the smallest trees
that show each cause of its departures, found by the same rule the analysis applies to
real positions, and the measurement's table."""

from __future__ import annotations

import numpy as np
import pytest

from chameleon_lab.analysis import hypermax as H
from chameleon_lab.analysis.treeplot import draw_example, run_example
from chameleon_lab.games.trees import F_VALUES, HEADER, REC, TREE_OPS, ExplicitTree, tree_values
from chameleon_lab.search.api import search

TREE = {"game": TREE_OPS, "heuristic": tree_values, "depth": 10}
SAMPLES = H.sample_positions(24, seed=5)


def departure(nested, players=(0, 1, 2), normalize=False):
    """Hypermax's and MaxN's root moves (thesis flavour) and the cause found."""
    tree = ExplicitTree.from_nested(nested, players)
    options = {**TREE, "flavour": "thesis", "normalize": normalize}
    hyper = search(tree.state, "hypermax", **options)
    tree.reset()
    full = search(tree.state, "maxn", **options)
    tree.reset()
    why = H.explain(tree.state, 10, "thesis", normalize, tree_values, game=TREE_OPS)
    return hyper.index, full.index, why


def test_mean_shift_reorders_a_players_preferences():
    # unnormalised, player 0 has 3 of 3 on the left and 4 of 12 on the right: MaxN takes
    # the 4, Hypermax's shifted leaves give 3 - 1 = 2 and 4 - 4 = 0, and it takes the 3
    hyper, full, why = departure([(3, 0, 0), (4, 4, 4)])
    assert (hyper, full) == (0, 1)
    assert (why.cause, why.path, why.player) == ("mean shift", (), 0)
    # normalised, both choose the left (1 of 1 against 1/3 of 1)
    hyper, full, why = departure([(3, 0, 0), (4, 4, 4)], normalize=True)
    assert hyper == full == 0 and why is None


def test_mean_shift_breaks_a_tie_by_rounding_when_normalised():
    # normalised, player 0 has 0 in both leaves (its last pawn lost in both lines): a
    # tie, MaxN keeps the first. But the quotients of (0, 1, 4, 1) add up to 1 - 2**-53,
    # not 1, so Hypermax's shifted entry is -0.24999999999999997 there, -0.25 on the
    # left, and it takes the right one (the normalised departures at depth 2)
    hyper, full, why = departure([(0, 1, 1, 1), (0, 1, 4, 1)], (0, 1, 2, 3), normalize=True)
    assert (hyper, full) == (1, 0)
    assert (why.cause, why.path, why.player) == ("mean shift", (), 0)


def test_an_inherited_bound_keeps_a_nodes_first_child():
    # (sums 9: the shift is the same at every leaf.) The root's left move gives player 0
    # 5 (alpha 2 shifted); below the right move player 0 moves again, inherits that
    # alpha, and neither of its leaves beats it: it keeps its first, (1, 7, 1), not
    # (4, 1, 4). Player 1 above prefers (1, 7, 1) to (6, 3, 0), which it would not
    # prefer to (4, 1, 4): MaxN's root gets 6 on the right, Hypermax's 1 and plays left
    nested = [(5, 2, 2), [[(1, 7, 1), (4, 1, 4)], (6, 3, 0)]]
    hyper, full, why = departure(nested, players=(0, 1, 0, 2))
    assert (hyper, full) == (0, 1)
    assert (why.cause, why.path, why.player) == ("inherited bound", (1, 0), 0)


def test_a_cut_bounded_from_higher_up_figure_4_6():
    # the thesis's figure 4.6: player 2's right leaf (-2, -1, 3) is cut once player 0
    # has 2 (at the root), player 1 -2 and player 2 2; player 1 would take it (-1 > -2),
    # and then the root would not take the right move
    nested = [(2, -1, -1), [(3, -2, -1), [(1, -3, 2), (-2, -1, 3)]]]
    hyper, full, why = departure(nested)
    assert (hyper, full) == (1, 0)
    assert (why.cause, why.path, why.player) == ("cut, bound from higher up", (1, 1), 2)


def test_a_cut_nodes_partial_value_taken_by_its_parent():
    # player 2's node is cut after its first leaf (alpha 2 + 0 + 1 >= 0) and returns
    # (-2, 1, 1), which player 1 takes (1 > 0); its true value (-4, 2, 2) would have
    # set player 1's best to 2, and the last leaf (3, 2, -5) would not have replaced it.
    # With the partial value player 1's best is 1, it takes (3, 2, -5) and the root
    # plays right; MaxN's root gets -4 there and plays left
    nested = [(2, -1, -1), [(-3, 0, 3), [(-2, 1, 1), (-4, 2, 2)], (3, 2, -5)]]
    hyper, full, why = departure(nested)
    assert (hyper, full) == (1, 0)
    assert (why.cause, why.path, why.player) == ("cut, parent takes the partial value", (1, 1), 2)


def test_the_root_order_of_iterative_deepening_breaks_ties_differently():
    # improved flavour, unnormalised. The root's two moves lead to nodes whose own
    # scores, seen by the first iteration at its horizon, are (3, 0, 0) and (4, 4, 4):
    # MaxN ranks the right one first (4 > 3), Hypermax the left (3 - 1 > 4 - 4, the
    # mean shift). In the second iteration both moves give player 0 the same 2 (shifted
    # 1): each search keeps the one it searched first, and the moves differ although
    # every value agrees with MaxN's
    tree = ExplicitTree.from_nested([[(2, 1, 0)], [(2, 0, 1)]])
    values = tree.state.view(np.float64)
    for path, inner in (((0,), (3, 0, 0)), ((1,), (4, 4, 4))):
        at = HEADER + tree.paths.index(path) * REC + F_VALUES
        values[at : at + 3] = inner
    options = {**TREE, "depth": 2, "normalize": False}
    hyper = search(tree.state, "hypermax", **options)
    full = search(tree.state, "maxn", **options)
    assert (hyper.index, full.index) == (0, 1)
    assert hyper.scores[0][0] == H.shifted(full.scores[1], np.array([1, 1, 1, 0]))[0]
    why = H.explain(tree.state, 2, "improved", False, tree_values, game=TREE_OPS)
    assert (why.cause, why.path, why.player) == ("root order", (), 0)
    # the thesis's flavour searches the root in generation order: no departure
    assert H.explain(tree.state, 2, "thesis", False, tree_values, game=TREE_OPS) is None


def test_no_cause_where_they_agree():
    hyper, full, why = departure([[(1, 1, 1), (2, 0, 1)], [(0, 3, 0)]])
    assert hyper == full and why is None


# ---------------------------------------------------------------- the measurement
def test_departures_table():
    samples = SAMPLES[:2] + SAMPLES[-2:]
    rows = H.departures(samples, depths=(2,), progress=False)
    assert len(rows) == 4 * 2 * 2  # samples, flavours, normalisation
    table = H.departure_table(rows)
    assert list(table.columns[:8]) == [
        "players", "phase", "depth", "flavour", "normalize",
        "positions", "move_departures", "value_departures",
    ]  # fmt: skip
    assert table["positions"].sum() == len(rows)
    # at depth 2 nothing is cut and no bound inherited: normalised, no departure
    assert not rows[rows["normalize"]][["move_departs", "value_departs"]].any().any()
    found = H.causes(rows, samples, progress=False)
    assert set(found["cause"]) <= set(H.CAUSES)


def test_phases_and_samples_are_reproducible():
    again = H.sample_positions(24, seed=5)
    assert [s.position.to_json() for s in again] == [s.position.to_json() for s in SAMPLES]
    assert {s.phase for s in SAMPLES} <= {name for name, _ in H.PHASE_SHARES}


@pytest.mark.parametrize("name", list(H.CAUSE_TREES))
def test_each_cause_tree_departs_for_its_cause(name):
    example = H.CAUSE_TREES[name]
    maxn_run, hyper_run = run_example(example)
    assert hyper_run.choice != maxn_run.choice
    normalize = example.searches[0]["normalize"]
    tree = ExplicitTree.from_nested(example.nested, example.players)
    why = H.explain(tree.state, 10, "thesis", normalize, tree_values, game=TREE_OPS)
    assert why.cause == name.split(" (")[0]
    assert why.cause in H.CAUSES


def test_the_cause_trees_draw():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    for example in H.CAUSE_TREES.values():
        draw_example(example)
        plt.close("all")
