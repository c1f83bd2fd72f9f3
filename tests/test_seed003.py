"""Seed 003's Reversi experiment: the counts obey theory, both tree walks count alike."""

from __future__ import annotations

from chameleon_lab.analysis.seed003 import SEED_TABLE, copy_against_unmake, experiment
from chameleon_lab.analysis.twoplayer import LADDER, sample_positions

SETTINGS = {k: LADDER[k] for k in ("negamax", "alpha-beta", "+ ordering", "+ tt")}


def test_the_seed_table_is_as_printed():
    assert SEED_TABLE["evaluated"].tolist() == [28_018_531, 2_005_246]
    assert SEED_TABLE["cutoffs"].tolist() == [0, 136_478]
    assert SEED_TABLE["seconds"].tolist() == [134.87, 9.88]


def test_alpha_beta_evaluates_no_more_than_minimax_and_the_seed_rows_come_first():
    positions = sample_positions("othello", {"variant": "reversi"}, 3, 5, plies=(12, 16))
    table = experiment(positions, 3, SETTINGS)
    assert table["setting"].tolist()[:2] == ["MiniMax (seed 003)", "AlphaBeta (seed 003)"]
    ours = table.iloc[2:].set_index("setting")
    assert ours.loc["negamax", "cutoffs"] == 0 and ours.loc["negamax", "evaluations_saved"] == 0
    for name in ("alpha-beta", "+ ordering", "+ tt"):
        assert ours.loc[name, "evaluated"] <= ours.loc["negamax", "evaluated"]
        assert ours.loc[name, "cutoffs"] > 0


def test_copying_and_unmaking_walk_the_same_tree_as_perft():
    positions = sample_positions("othello", {}, 2, 9, plies=(6, 10))
    walks = copy_against_unmake(positions, 4, repeat=1)
    expected = sum(p.perft(4) for p in positions)
    assert walks["leaves"].tolist() == [expected, expected]
    assert walks["walk"].tolist() == ["make/unmake", "copy per node"]
