"""The mended Hypermax (``search(..., "hypermax", mended=True)``, see
:class:`chameleon_lab.search.improved.HypermaxOptions`) against MaxN: its move and vector on
explicit trees drawn by hypothesis (MaxN written out in Python is the judge), on the
trees where Hypermax departs, and on Chameleon positions with three and four players at
depths 1-4 (the unpruned MaxN is the judge); its nodes against MaxN's and MaxN-IS's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_speculative import ORDERS, TOTAL, maxn, trees

from chameleon_lab.analysis import hypermax as H
from chameleon_lab.games.trees import TREE_OPS, ExplicitTree, tree_values
from chameleon_lab.search.api import search

TREE = {"game": TREE_OPS, "heuristic": tree_values, "depth": 10}
SAMPLES = H.sample_positions(24, seed=5)


@settings(max_examples=200, deadline=None)
@given(order=st.sampled_from(ORDERS), depth=st.integers(2, 5), data=st.data())
def test_mended_hypermax_is_maxn_on_explicit_trees(order, depth, data):
    players = max(order) + 1
    nested = data.draw(trees(players, depth), label="tree")
    tree = ExplicitTree.from_nested(nested, order)
    options = {**TREE, "depth": depth, "normalize": False}
    full = search(tree.state, "maxn", **options)
    tree.reset()
    mended = search(tree.state, "hypermax", mended=True, max_sum=float(TOTAL), **options)
    assert mended.index == full.index
    assert tuple(mended.scores[mended.index][:players]) == maxn(nested, 0, order)


@pytest.mark.parametrize("nested", [
    [(2, -1, -1), [(3, -2, -1), [(1, -3, 2), (-2, -1, 3)]]],
    [(2, -1, -1), [(-3, 0, 3), [(-2, 1, 1), (-4, 2, 2)], (3, 2, -5)]],
])  # fmt: skip
def test_mended_hypermax_mends_the_cut_trees(nested):
    # the two cut trees above, their scores made non-negative (each entry + 5: sum 15)
    shifted = _add(nested, 5)
    tree = ExplicitTree.from_nested(shifted)
    options = {**TREE, "depth": 3, "normalize": False}
    mended = search(tree.state, "hypermax", mended=True, max_sum=15.0, **options)
    assert mended.index == 0
    assert tuple(mended.scores[0][:3]) == maxn(shifted, 0, (0, 1, 2))


def _add(node, k):
    if isinstance(node, tuple):
        return tuple(v + k for v in node)
    return [_add(c, k) for c in node]


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_mended_hypermax_is_maxn_on_chameleon_positions(depth):
    samples = SAMPLES if depth < 4 else SAMPLES[::3]
    assert {s.players for s in samples} == {3, 4}
    for s in samples:
        full = search(s.position, "maxn", depth=depth, normalize=True)
        mended = search(s.position, "hypermax", depth=depth, mended=True)  # normalised
        assert mended.index == full.index, (depth, s.position)
        np.testing.assert_array_equal(mended.scores[mended.index], full.scores[full.index])


def test_mended_hypermax_saves_nodes_against_maxn_and_maxnis():
    rows = H.mended_nodes(SAMPLES[::4], depths=(3, 4), progress=False)
    assert rows["same_vector"].all() and rows["same_move"].all()
    four = rows[(rows["players"] == 4) & (rows["depth"] == 4)]
    assert four["mended_nodes"].sum() < 0.9 * four["maxnis_nodes"].sum()
    # a cut node taken by its parent is searched again: on a position that can cost
    # more than MaxN's nodes, not on the sum
    assert rows["mended_nodes"].sum() < rows["maxn_nodes"].sum()


def test_mended_is_an_option_of_the_improved_flavour_only():
    pos = SAMPLES[0].position
    with pytest.raises(ValueError, match="thesis flavour takes no options"):
        search(pos, "hypermax", flavour="thesis", depth=2, mended=True)
    with pytest.raises(ValueError, match="mended must be True or False"):
        search(pos, "hypermax", depth=2, mended="yes")
    with pytest.raises(ValueError, match="needs max_sum"):
        search(pos, "hypermax", depth=2, mended=True, normalize=False)


def test_an_agent_plays_the_mended_hypermax():
    from chameleon_lab.agents import Agent

    pos = SAMPLES[1].position
    agent = Agent("hypermax", depth=3, normalize=True, options={"mended": True})
    full = search(pos, "maxn", depth=3, normalize=True)
    assert agent.choose(pos).move == pos.legal_moves[full.index]


def test_mended_hypermax_keeps_maxns_tie_rule_when_normalised():
    # the rounding tie of tests/test_hypermax.py: MaxN keeps the first leaf, so does the
    # mended Hypermax (it compares the normalised scores, not their shifted rounding)
    tree = ExplicitTree.from_nested([(0, 1, 1, 1), (0, 1, 4, 1)], (0, 1, 2, 3))
    options = {**TREE, "depth": 1, "normalize": True}
    assert search(tree.state, "hypermax", flavour="thesis", **options).index == 1
    tree.reset()
    assert search(tree.state, "hypermax", mended=True, **options).index == 0


def test_an_agent_refuses_a_mended_hypermax_it_cannot_play_when_it_is_made():
    from chameleon_lab.agents import Agent

    with pytest.raises(ValueError, match="needs max_sum"):  # not at its first move
        Agent("hypermax", depth=2, normalize=False, options={"mended": True})
    with pytest.raises(ValueError, match="thesis flavour takes no options"):
        Agent("hypermax", flavour="thesis", depth=2, options={"mended": True})
    # unnormalised with the bound of the scores' sum it is playable; by default the
    # mended Hypermax is normalised, as search() takes it
    assert Agent("hypermax", depth=2, options={"mended": True}).normalize is True
    Agent("hypermax", depth=2, normalize=False, options={"mended": True, "max_sum": 1e6})


@pytest.mark.parametrize("name", list(H.CAUSE_TREES))
def test_the_traced_hypermax_returns_what_the_compiled_one_returns(name):
    # the drawing labels Hypermax's nodes from the Python trace; the compiled thesis
    # Hypermax is the judge of the root's value
    example = H.CAUSE_TREES[name]
    normalize = example.searches[-1]["normalize"]
    tree = ExplicitTree.from_nested(example.nested, example.players)
    compiled = search(tree.state, "hypermax", flavour="thesis", normalize=normalize, **TREE)
    traced = H.traced_values(example)
    root = np.array(traced[()], dtype=float)
    if normalize:
        root = root / root.sum()
    players = np.zeros(4)
    players[: len(root)] = 1.0
    root = np.pad(root, (0, 4 - len(root)))
    assert np.allclose(H.shifted(root, players), compiled.scores[compiled.index])
    # the root's value comes from the branch the compiled search chose
    chosen = example.nested[compiled.index]
    leaves = [chosen] if isinstance(chosen, tuple) else list(_leaves(chosen))
    assert traced[()] in leaves


def _leaves(nested):
    for child in nested:
        if isinstance(child, tuple):
            yield child
        else:
            yield from _leaves(child)


def test_draw_cause_names_the_causes_it_draws():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.text import Annotation

    fig = H.draw_cause("inherited bound")
    maxn_panel, hyper_panel = (
        sorted(t.get_text() for t in ax.texts if isinstance(t, Annotation)) for ax in fig.axes
    )
    # MaxN backs (4, 1, 4) and (6, 3, 0) up; Hypermax's P1 below keeps its first child
    # and the root keeps its first leaf (the inherited bound), as its trace says
    assert maxn_panel == ["(4, 1, 4)", "(6, 3, 0)", "(6, 3, 0)"]
    assert hyper_panel == ["(1, 7, 1)", "(1, 7, 1)", "(5, 2, 2)"]
    plt.close(fig)
    with pytest.raises(ValueError, match="unknown cause 'gravity'; causes with a tree"):
        H.draw_cause("gravity")


def test_a_thesis_session_seats_the_mended_hypermax_where_it_seats_hypermax():
    from chameleon_lab.thesis.sessions import MENDED_TABLES, THESIS_TABLES, thesis_session

    for table in MENDED_TABLES:
        family, suffixes = THESIS_TABLES[table]
        name = f"{family}-{suffixes[0]}"
        plain = thesis_session(name, "improved")
        mended = thesis_session(name, "improved", mended=True)
        assert plain.agents.keys() == mended.agents.keys() and "Hypermax" in plain.agents
        for agent, params in mended.agents.items():
            if agent == "Hypermax":
                assert params["options"] == {"mended": True} and params["normalize"] is True
            else:
                assert params == plain.agents[agent]
        assert mended.fingerprint != plain.fingerprint  # its own records file
    with pytest.raises(ValueError, match='give flavour="improved"'):
        thesis_session("4-all-t10", mended=True)
    with pytest.raises(ValueError, match="mended must be True or False, got 1"):
        thesis_session("4-all-t10", "improved", mended=1)


def test_mended_beside_sets_the_two_runs_side_by_side():
    import pandas as pd
    from scipy.stats import fisher_exact

    from chameleon_lab.thesis.compare import mended_beside

    def summary(wins):
        return pd.DataFrame(
            {
                "session": ["4-max-hyper-t1000", "4-max-hyper-t1000"],
                "agent": ["MaxNIS", "Hypermax"],
                "games": [38, 38],
                "wins": wins,
                "depth_median": [4.0, 5.0],
            }
        )

    thesis = pd.DataFrame(
        {"scope": ["session"], "session": ["4-max-hyper-t1000"], "algorithm": ["Hypermax"],
         "games": [38], "wins": [14]}
    )  # fmt: skip
    side = mended_beside(summary([23, 13]), summary([11, 20]), thesis)
    hyper = side[side["agent"] == "Hypermax"].iloc[0]
    assert (hyper["plain_wins"], hyper["mended_wins"], hyper["thesis_wins"]) == (13, 20, 14)
    assert hyper["mended_win_rate"] == pytest.approx(20 / 38)
    assert hyper["p_exact"] == pytest.approx(fisher_exact([[13, 25], [20, 18]]).pvalue)
    assert hyper["mended_ci_low"] < 20 / 38 < hyper["mended_ci_high"]
    assert pd.isna(side[side["agent"] == "MaxNIS"].iloc[0]["thesis_wins"])


def test_mended_blocks_pairs_the_two_runs_by_session_and_repetition():
    """Wins per block counted from seats made by hand: in the plain run Hypermax wins
    one of block 0's two games and none of block 1's; in the mended run (another
    session id, the same session name and repetitions) both of block 0's and one of
    block 1's; a session without Hypermax is left out; two seats of one game count
    once."""
    import pandas as pd

    from chameleon_lab.thesis.compare import mended_blocks
    from chameleon_lab.tournament import Tables

    def run(sid, outcomes):
        games, seats = [], []
        for game, (repetition, outcome) in enumerate(outcomes):
            games.append({"session_id": sid, "game": game, "session": "4-all-t10",
                          "repetition": repetition})  # fmt: skip
            seat = {"session_id": sid, "session": "4-all-t10", "game": game}  # as records have
            seats += [
                {**seat, "agent": "Hypermax", "outcome": outcome},
                {**seat, "agent": "Hypermax", "outcome": outcome},
                {**seat, "agent": "MaxN", "outcome": "loss"},
            ]
        games.append({"session_id": "other", "game": 0, "session": "4-x", "repetition": 0})
        seats.append(
            {"session_id": "other", "session": "4-x", "game": 0, "agent": "MaxN", "outcome": "win"}
        )
        return Tables(pd.DataFrame(games), pd.DataFrame(seats), pd.DataFrame())

    plain = run("p", [(0, "win"), (0, "loss"), (1, "loss"), (1, "draw")])
    mended = run("m", [(0, "win"), (0, "win"), (1, "loss"), (1, "win")])
    blocks = mended_blocks(plain, mended)
    assert blocks.to_dict("list") == {
        "session": ["4-all-t10", "4-all-t10"],
        "repetition": [0, 1],
        "plain_games": [2, 2],
        "plain_wins": [1, 0],
        "mended_games": [2, 2],
        "mended_wins": [2, 1],
    }
