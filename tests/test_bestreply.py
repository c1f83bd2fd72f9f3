"""Best-Reply Search and BRS+ (:mod:`chameleon_lab.search.bestreply`) against what they
must return: alpha-beta's value wherever two players play (the conformance contract's
rule; theory: with one opponent a BRS layer is that opponent's turn), their definitions
written out without pruning (:func:`~chameleon_lab.search.differential.brs_minimax`),
and a tree worked by hand on which BRS+ and Paranoid part."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chameleon_lab.agents import Agent
from chameleon_lab.conformance import answer_search
from chameleon_lab.games import get_game
from chameleon_lab.games.trees import TREE_OPS, ExplicitTree, tree_values
from chameleon_lab.search import differential as D
from chameleon_lab.search.api import MULTIPLAYER, search
from chameleon_lab.search.registry import get_algorithm

TWO_PLAYER = D.CHECKS["suite"].targets["fast"]  # every two-player game at its usual size
BRS = ("brs", "brsplus")


@pytest.mark.parametrize("target", TWO_PLAYER, ids=[t.label for t in TWO_PLAYER])
def test_with_two_players_both_return_alphabetas_value(target):
    game = get_game(target.name, **target.params)
    for i, pos in enumerate(D.game_positions(game, 6, seed=11)):
        depth = 1 + i % target.max_depth
        expected = search(pos, "alphabeta", depth=depth)
        for name in BRS:
            got = search(pos, name, depth=depth)
            assert got.scores[got.index] == expected.scores[expected.index], (name, depth, pos)


@settings(max_examples=20, deadline=None)
@given(target=st.sampled_from(TWO_PLAYER), seed=st.integers(0, 2**31), data=st.data())
def test_with_two_players_both_return_alphabetas_value_anywhere(target, seed, data):
    depth = data.draw(st.integers(1, target.max_depth), label="depth")
    (pos,) = D.game_positions(get_game(target.name, **target.params), 1, seed)
    expected = search(pos, "alphabeta", depth=depth)
    for name in BRS:
        got = search(pos, name, depth=depth)
        assert got.scores[got.index] == expected.scores[expected.index], name


def test_conformance_search_lines_take_both():
    line = {"game": "connect4", "moves": ["4", "4", "3"], "depth": 4}
    expected = answer_search({**line, "algorithm": "alphabeta"})
    for name in BRS:
        answer = answer_search({**line, "algorithm": name})
        assert answer["value"] == expected["value"]
        assert answer["nodes"] > 0
    start = get_game("chameleon").start()  # four players
    for name in BRS:
        answer = answer_search({"game": "chameleon", "moves": [], "algorithm": name, "depth": 2})
        assert answer["move"] in [str(m) for m in start.legal_moves]


#: games of two to four players, some with a colour nobody sits at (no moves, no part
#: in a layer)
SEATED = [("chameleon", "RY"), ("chameleon", "RGY"), ("chameleon", "RGYB"),
          ("rolit", "RYG"), ("rolit", "RYB"), ("rolit", "YGB"), ("rolit", "RYGB")]  # fmt: skip


@settings(max_examples=30, deadline=None)
@given(seating=st.sampled_from(SEATED), seed=st.integers(0, 2**31), depth=st.integers(1, 3))
def test_both_return_the_value_of_their_definition(seating, seed, depth):
    name, players = seating
    (pos,) = D.game_positions(get_game(name, players=players), 1, seed)
    tally = D.brs_case(pos, depth)
    assert tally.searches == 4 and not tally.mismatches, tally.mismatches[:1]


def test_a_colour_nobody_sits_at_offers_no_reply():
    """Rolit with red, yellow and green seated, green to move (found by the large
    differential profile): blue, seated by nobody, has squares next to balls, but offers
    no reply in BRS's opponents' layer; where it did, normalised BRS valued h8 at -1/6,
    its definition at -3/19."""
    board = [".R....G.", "YRRR.GY.", ".YRGGY..", ".YYRYR.R",
             "GYYYRRRR", "GYYRRRRR", "YYGG.RR.", "YRGGGRR."]  # fmt: skip
    game = get_game("rolit", players="RYG")
    pos = game.from_json({"game": "rolit", "params": {"players": "RYG"}, "board": board,
                          "to_move": 2})  # fmt: skip
    tally = D.brs_case(pos, 3)
    assert not tally.mismatches, tally.mismatches[:1]
    result = search(pos, "brs", depth=3, normalize=True)
    assert str(pos.legal_moves[result.index]) == "h8"
    assert result.scores[result.index] == pytest.approx(-3 / 19)


def test_at_depth_one_both_are_paranoid():
    # one layer: the root player's own moves, scored; nothing of the opponents yet
    for pos in D.game_positions(get_game("chameleon", players="RGYB"), 8, seed=5):
        paranoid = search(pos, "paranoid", depth=1, normalize=False)
        for name in BRS:
            got = search(pos, name, depth=1)
            np.testing.assert_array_equal(got.scores, paranoid.scores)


# A tree of three players (0 at the root, 1, 2, 0 again, then leaves): the root's one
# move leads to player 1, who has two moves to player 2's nodes, each with two moves.
# Leaves (one per last node) are worth s0 - s1 - s2 = 5, 4, 3, 0 to a paranoid player 0.
# Paranoid (4 plies) lets 1 and 2 both pick their second move: 0. BRS+ (3 layers: the
# root, the layer of 1 and 2, player 0 again) lets one of them reply while the other
# plays its greedy move, the first (the inner nodes' static values are all 0):
# 1 replies -> min(5, 3); 2 replies after 1's first move -> min(5, 4); so 3.
TREE = [[[[(5.0, 0.0, 0.0)], [(4.0, 0.0, 0.0)]], [[(3.0, 0.0, 0.0)], [(0.0, 0.0, 0.0)]]]]


def test_brsplus_lets_one_opponent_reply_on_a_tree_worked_by_hand():
    options = {"game": TREE_OPS, "heuristic": tree_values, "normalize": False}
    tree = ExplicitTree.from_nested(TREE, players=(0, 1, 2))
    assert search(tree.state, "paranoid", depth=4, **options).scores[0] == 0.0
    tree.reset()
    assert search(tree.state, "brsplus", depth=3, **options).scores[0] == 3.0
    tree.reset()
    with pytest.raises(ValueError, match=r"pass_to.*brsplus"):
        search(tree.state, "brs", depth=3, **options)


@pytest.mark.parametrize("name", BRS)
def test_searches_leave_the_position_as_they_found_it(name):
    game = get_game("chameleon", players="RGYB")
    for pos in D.game_positions(game, 6, seed=8):
        state = pos.state.copy()
        before = state.copy()
        search(state, name, depth=3, game=game)
        search(state, name, nodes=500, game=game)  # stopped inside the tree
        np.testing.assert_array_equal(state, before)


@pytest.mark.parametrize("name", BRS)
def test_a_node_budget_gives_the_same_move_every_time(name):
    (pos,) = D.game_positions(get_game("chameleon", players="RGYB"), 1, seed=2)
    first = search(pos, name, nodes=20_000)
    again = search(pos, name, nodes=20_000)
    assert (first.index, first.nodes, first.depth) == (again.index, again.nodes, again.depth)
    assert first.depth >= 2 and first.counters["order_evaluations"] > 0


def test_the_registry_offers_both_to_agents_of_any_number_of_players():
    for name in BRS:
        spec = get_algorithm(name)
        assert name in MULTIPLAYER and spec.scalar and spec.flavours == ("improved",)
        for players in ("RY", "RGY", "RGYB"):
            pos = get_game("chameleon", players=players).start()
            decision = Agent(name, depth=2).choose(pos)
            assert decision.move in pos.legal_moves
        with pytest.raises(ValueError, match="flavour"):
            Agent(name, flavour="thesis", depth=2)


@pytest.mark.parametrize("name", BRS)
def test_the_principal_variation_is_a_line_of_the_game(name):
    # BRS's line leaves the game where the turn goes back to the root player out of
    # order: the decision's line stops there; BRS+ keeps the turn order
    for pos in D.game_positions(get_game("chameleon", players="RGYB"), 6, seed=4):
        decision = Agent(name, depth=4).choose(pos)
        assert decision.pv[0] == decision.move
        here = pos
        for move in decision.pv:
            here = here.play(move)  # raises if illegal
