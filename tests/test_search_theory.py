"""The searches against theory and the worked examples of the thesis (section 4).

The trees of figures 4.4-4.6 are rebuilt from the seed's text: the values the text
names are used as given, the others chosen so that the narrative holds.
"""

from __future__ import annotations

import numpy as np
import pytest
from positions import random_positions

from chameleon_lab.games.chameleon import Position
from chameleon_lab.games.trees import TREE_OPS, ExplicitTree, tree_values
from chameleon_lab.thesis.driver import thesis_search


def tree_search(tree, algorithm, **options):
    tree.reset()
    return thesis_search(
        tree.state,
        algorithm,
        depth=10,
        game=TREE_OPS,
        heuristic=tree_values,
        normalize=False,
        **options,
    )


def test_figure_4_4_shallow_pruning_with_maximum_sum_10():
    # Player 1 gets 5 on the left; on the right player 2 finds (3, 6, 1): 6 >= 10 - 5,
    # so player 2's other branch cannot matter and is pruned.
    tree = ExplicitTree.from_nested([[(5, 3, 2), (4, 2, 4)], [(3, 6, 1), (8, 1, 1)]])
    full = tree_search(tree, "maxn")
    assert tree.pruned() == []
    pruned = tree_search(tree, "maxnis", max_sum=10.0)
    assert tree.pruned() == [(1, 1)]
    assert pruned.index == full.index == 0
    np.testing.assert_array_equal(pruned.scores[0], full.scores[0])
    np.testing.assert_array_equal(full.scores[0][:3], (5, 3, 2))


@pytest.mark.parametrize(("left_leaf", "deep_choice"), [((1, 3, 6), 0), ((3, 1, 6), 1)])
def test_figure_4_5_deep_pruning_gives_a_wrong_result(left_leaf, deep_choice):
    # Player 3 finds a 6 while player 1 already has 5: deep pruning cuts player 3's
    # right branch (2, 1, 7), which MaxN would have chosen, and so did player 2 and 1.
    nested = [(5, 3, 2), [[left_leaf, (2, 1, 7)], (7, 2, 1)]]
    tree = ExplicitTree.from_nested(nested)
    maxn = tree_search(tree, "maxn")
    assert maxn.index == 1 and tuple(maxn.scores[1][:3]) == (7, 2, 1)
    shallow = tree_search(tree, "maxnis", max_sum=10.0)
    assert shallow.index == 1  # shallow pruning stays correct
    deep = tree_search(tree, "maxnis", max_sum=10.0, deep=True)
    assert (1, 0, 1) in tree.pruned()  # player 3's right branch was cut
    assert deep.index == deep_choice  # wrong with (1, 3, 6), right by luck with (3, 1, 6)


def test_figure_4_6_hypermax_deviates_from_maxn():
    # Player 1 has 2, player 2 has -2; player 3 finds 2 on the left: the alpha sum
    # reaches 0 and player 3's right branch is pruned, though MaxN would take it.
    nested = [(2, -1, -1), [(3, -2, -1), [(1, -3, 2), (-2, -1, 3)]]]
    tree = ExplicitTree.from_nested(nested)
    maxn = tree_search(tree, "maxn")
    assert maxn.index == 0
    hyper = tree_search(tree, "hypermax")
    assert tree.pruned() == [(1, 1, 1)]
    assert hyper.index == 1
    np.testing.assert_array_equal(hyper.scores[1][:3], (3, -2, -1))


@pytest.mark.parametrize(("depth", "count"), [(2, 200), (3, 100)])
def test_maxnis_returns_the_maxn_root_value(depth, count):
    """With normalised, non-negative scores the maximum sum is 1 and shallow pruning is
    sound: the same move and the same root value vector as plain MaxN."""
    pruned_somewhere = 0
    for pos in random_positions(count, seed=depth):
        for heuristic in ("pawns100roles", "pawns100moves"):
            full = thesis_search(pos, "maxn", depth=depth, heuristic=heuristic)
            fast = thesis_search(pos, "maxnis", depth=depth, heuristic=heuristic)
            assert fast.index == full.index
            np.testing.assert_array_equal(fast.scores[fast.index], full.scores[full.index])
            assert fast.nodes <= full.nodes
            pruned_somewhere += fast.nodes < full.nodes
    assert pruned_somewhere > 0


def test_time_mode_reports_a_fractional_depth():
    result = thesis_search(Position.start(), "maxnis", time_ms=30)
    assert result.depth >= 1
    assert result.depth == pytest.approx(round(result.depth * result.n_moves) / result.n_moves)
    assert result.seconds < 30  # loose: the clock is read between root moves only


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"depth": 0}, "depth must be a whole number"),
        ({"depth": 2, "time_ms": 5}, "exactly one budget"),
        ({"time_ms": -1}, "time_ms must be a finite number > 0"),
        ({"depth": 2, "heuristic": "material"}, "valid names"),
    ],
)
def test_bad_search_parameters(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        thesis_search(Position.start(), "maxn", **kwargs)


def test_unknown_algorithm_lists_the_valid_ones():
    with pytest.raises(ValueError, match="valid algorithms: maxn, maxnis, paranoid, hypermax"):
        thesis_search(Position.start(), "expectimax", depth=1)


@pytest.mark.parametrize("algorithm", ["maxn", "maxnis", "paranoid", "hypermax"])
def test_a_search_leaves_the_state_as_it_found_it(algorithm):
    pos = random_positions(1, seed=11)[0]
    state = pos.state.copy()
    thesis_search(state, algorithm, depth=3)
    np.testing.assert_array_equal(state, pos.state)


def _panel_mismatches(use_cuts: bool) -> list[str]:
    from chameleon_lab.analysis.treeplot import EXAMPLES, backed_up, run_example

    wrong = []
    for example in EXAMPLES.values():
        for run in run_example(example):
            cuts = frozenset(run.pruned) if use_cuts else frozenset()
            values = backed_up(example.nested, example.players, example.backup, cuts)
            for i in range(len(example.nested)):
                if (i,) in run.pruned:
                    continue
                drawn = np.atleast_1d(np.asarray(values[(i,)], dtype=float))
                computed = np.atleast_1d(np.asarray(run.root_scores[i], dtype=float))
                if not np.allclose(drawn, computed[: drawn.size]):
                    wrong.append(f"{example.title}: {run.label}, child {i}")
    return wrong


def test_tree_panels_show_what_each_search_computed():
    """Figures 4.1-4.6: with the cut-off branches left out, the value drawn at each root
    child is the value the search itself returned for it; drawing the full tree's values
    instead would show values the pruning search never computed (figures 4.5, 4.6)."""
    assert _panel_mismatches(use_cuts=True) == []
    assert len(_panel_mismatches(use_cuts=False)) == 2  # the deep-pruning and Hypermax panels
