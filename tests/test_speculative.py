"""MaxN with speculative pruning (:mod:`chameleon_lab.search.speculative`) against what
theory says it returns: MaxN's move, vector and line wherever the scores are
non-negative and sum to at most ``max_sum`` (Sturtevant 2003), on explicit trees drawn
by hypothesis (MaxN written out in Python is the judge) and on positions of every game
and phase, Chameleon Chess with two to four players (the unpruned MaxN search is the
judge); and that it does prune where MaxN-IS cannot."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import random_positions

from chameleon_lab.analysis.efficiency import phase_positions
from chameleon_lab.games import get_game
from chameleon_lab.games.trees import TREE_OPS, ExplicitTree, tree_values
from chameleon_lab.search import differential as D
from chameleon_lab.search.api import search

TWO_PLAYER = D.CHECKS["suite"].targets["fast"]  # every two-player game at its usual size
TOTAL = 6  # the leaves' scores: small integers summing to this, so ties abound
TREE = {"game": TREE_OPS, "heuristic": tree_values, "normalize": False, "depth": 10}
#: the hand-built trees' own depth: the root's bound prunes in the iteration asked for
DEPTH_4 = {**TREE, "depth": 4}


def leaves(players: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Score vectors of ``players`` non-negative integers summing to :data:`TOTAL`."""
    cuts = st.lists(st.integers(0, TOTAL), min_size=players - 1, max_size=players - 1)
    return cuts.map(lambda c: tuple(np.diff([0, *sorted(c), TOTAL]).tolist()))


@st.composite
def trees(draw, players: int, depth: int) -> list:
    """A tree of exactly ``depth`` levels below the root, one to four children each."""
    if depth == 0:
        return draw(leaves(players))
    width = draw(st.integers(1, 4))
    return [draw(trees(players, depth - 1)) for _ in range(width)]


def maxn(node, depth: int, order: tuple[int, ...]) -> tuple[int, ...]:
    """MaxN by its definition: the player to move takes the child best for it, the
    first of equals."""
    if isinstance(node, tuple):
        return node
    mover = order[depth % len(order)]
    best = None
    for child in node:
        value = maxn(child, depth + 1, order)
        if best is None or value[mover] > best[mover]:
            best = value
    return best


ORDERS = [(0, 1, 2), (0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 0, 2), (1, 0, 2, 3, 2)]


@settings(max_examples=300, deadline=None)
@given(order=st.sampled_from(ORDERS), depth=st.integers(2, 5), data=st.data())
def test_speculative_maxn_is_maxn_on_explicit_trees(order, depth, data):
    # a tree of one depth throughout: its early iterations of deepening see no leaf, so
    # the root is searched in generation order, and the move must be MaxN's exactly
    players = max(order) + 1
    nested = data.draw(trees(players, depth), label="tree")
    tree = ExplicitTree.from_nested(nested, order)
    options = {**TREE, "depth": depth}  # the root's bound prunes at the depth asked for
    full = search(tree.state, "maxn", **options)
    tree.reset()
    fast = search(tree.state, "maxnsp", max_sum=float(TOTAL), **options)
    expected = maxn(nested, 0, order)
    assert fast.index == full.index
    assert tuple(fast.scores[fast.index][:players]) == expected
    assert list(fast.pv) == list(full.pv)


def test_it_prunes_a_tree_where_shallow_pruning_cannot():
    # four players: the root (player 0) has 3 from its first child, its second child
    # (player 1) 2 from its own first child, and that one's second child (player 2) 2
    # from its first: 7 of 6 together, so the last node's second child cannot matter,
    # though no two of them hold all 6 (MaxN-IS's condition)
    nested = [
        [[[(3, 1, 1, 1), (3, 1, 1, 1)], [(3, 1, 1, 1)]], [[(3, 1, 1, 1)]]],
        [
            [[(1, 2, 1, 2), (1, 2, 1, 2)]],
            [[(0, 0, 2, 4), (4, 0, 2, 0)], [(1, 1, 2, 2)]],
        ],
    ]
    order = (0, 1, 2, 3)
    tree = ExplicitTree.from_nested(nested, order)
    shallow = search(tree.state, "maxnis", max_sum=6.0, **DEPTH_4)
    tree.reset()
    fast = search(tree.state, "maxnsp", max_sum=6.0, **DEPTH_4)
    pruned = tree.pruned()
    tree.reset()
    full = search(tree.state, "maxn", **DEPTH_4)
    assert fast.index == full.index == shallow.index
    assert tuple(fast.scores[fast.index]) == maxn(nested, 0, order)
    assert fast.nodes < shallow.nodes == full.nodes
    # the node's second child is cut (it was reached only as a leaf, by the shallower
    # iterations of deepening, which do not count visits apart), and only it
    assert pruned == [(1, 1, 1, 0)]


def test_a_child_accepted_on_a_pruned_value_is_searched_again():
    # the root (player 0) has 4 of 10 from its first child; below its second child
    # (player 1, 3 from its first child) the node C (player 2) has 4 from its first
    # child: 11 of 10 together, so C is cut and returns (0, 6, 4, 0). Its parent takes
    # that (6 > 3), but C's true value is (0, 0, 10, 0), which the parent rejects, and
    # the parent's value is its third child's (5, 4, 1, 0), which the root takes: kept,
    # the pruned value would have hidden it and the root played its first move
    nested = [
        [[[(4, 2, 2, 2)]]],
        [
            [[(2, 3, 2, 3)]],
            [[(0, 6, 4, 0)], [(0, 0, 10, 0)]],
            [[(5, 4, 1, 0)]],
        ],
    ]
    order = (0, 1, 2, 3)
    assert maxn(nested, 0, order) == (5, 4, 1, 0)
    tree = ExplicitTree.from_nested(nested, order)
    fast = search(tree.state, "maxnsp", max_sum=10.0, **DEPTH_4)
    assert fast.index == 1
    assert tuple(fast.scores[1]) == (5, 4, 1, 0)


def assert_maxn(pos, depth: int) -> None:
    """Speculative MaxN's move, vector and line are MaxN's, ties among root moves
    included (the iterations before the last give every root move its exact value, so
    both search the root in the same order)."""
    full = search(pos, "maxn", depth=depth, normalize=True)
    fast = search(pos, "maxnsp", depth=depth, normalize=True)
    assert fast.index == full.index, (depth, pos)
    np.testing.assert_array_equal(fast.scores[fast.index], full.scores[full.index])
    assert list(fast.pv) == list(full.pv)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_speculative_maxn_is_maxn_on_chameleon_positions(depth):
    count = {1: 40, 2: 40, 3: 30, 4: 12}[depth]
    for pos in random_positions(count, seed=900 + depth, max_moves=100):
        assert_maxn(pos, depth)


@pytest.mark.parametrize("target", TWO_PLAYER, ids=[t.label for t in TWO_PLAYER])
def test_speculative_maxn_is_maxn_on_every_game(target):
    # with two players the ancestors' distinct players are the parent's alone: shallow
    # pruning, as MaxN-IS
    game = get_game(target.name, **target.params)
    for i, pos in enumerate(D.game_positions(game, 8, seed=23)):
        assert_maxn(pos, 1 + i % (target.max_depth + 1))


def test_with_four_players_it_prunes_where_maxnis_cannot():
    # all four players in the game: no two hold the whole normalised sum, so MaxN-IS cuts
    # nothing (notebook 08), while three ancestors and the node together do
    positions = [p for group in phase_positions(2, seed=7).values() for p in group]
    nodes = {a: 0 for a in ("maxn", "maxnis", "maxnsp")}
    for pos in positions:
        for algorithm in nodes:
            nodes[algorithm] += search(pos, algorithm, depth=4, normalize=True).nodes
    assert nodes["maxnis"] == nodes["maxn"]
    assert nodes["maxnsp"] < 0.9 * nodes["maxn"]


def test_it_needs_a_bound_on_the_sum():
    pos = random_positions(1, seed=3)[0]
    with pytest.raises(ValueError, match="needs max_sum"):
        search(pos, "maxnsp", depth=2, normalize=False)
