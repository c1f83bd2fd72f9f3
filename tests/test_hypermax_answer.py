"""Notebook 11's answer in words (:mod:`chameleon_lab.analysis.hypermax_answer`): every
number it writes comes from the tables it is given, checked on tables made by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from chameleon_lab.analysis.hypermax_answer import games, how_often, mend, mended_verdicts, why


def test_how_often_adds_player_counts_per_depth():
    rates = pd.DataFrame(
        [
            # players, depth, flavour, normalize, positions, move departures, from normalised
            (3, 2, "thesis", False, 10, 8, 1),
            (4, 2, "thesis", False, 10, 6, 3),
            (3, 2, "thesis", True, 10, 0, 0),
            (4, 2, "thesis", True, 10, 1, 0),
            (3, 2, "improved", True, 10, 9, 0),  # another flavour: not counted
        ],
        columns=["players", "depth", "flavour", "normalize", "positions", "move_departures",
                 "departures_from_normalised_maxn"],
    )  # fmt: skip
    text = how_often(rates)
    assert "Unnormalised, Hypermax chose another move than MaxN on 70 % of the positions" in text
    assert "Normalised, Hypermax chose another move than MaxN on 5 % of the positions" in text
    assert "(20 positions a depth)" in text
    assert "another move on 20 % of the positions" in text  # (1 + 3) / 20


def test_why_orders_the_normalised_causes():
    counts = pd.DataFrame(
        [(True, 3, "inherited bound", 2), (True, 4, "mean shift", 1),
         (True, 4, "inherited bound", 3), (False, 3, "mean shift", 50)],
        columns=["normalize", "depth", "cause", "departures"],
    )  # fmt: skip
    assert why(counts) == (
        "Of the 6 normalised departures explained: inherited bound 5 (83 %), mean shift 1 (17 %)."
    )
    assert "no departure" in why(counts[~counts["normalize"]])


def test_mend_counts_agreement_and_node_shares():
    saved = pd.DataFrame(
        {"players": [3, 3], "depth": [2, 3], "positions": [5, 5], "same": [5, 4],
         "mended_of_maxn": [1.0, 0.5]}
    )  # fmt: skip
    text = mend(saved)
    assert "returned MaxN's move and vector in 9 of 10 searches" in text
    assert "With 3 players its nodes were 1.00 at depth 2, 0.50 at depth 3 of MaxN's." in text


def _blocks() -> pd.DataFrame:
    """Two sessions of 8 blocks of 24 games a side: in "a" the mended Hypermax wins 12
    of a block's 24 where the plain one wins 2, in every block; in "b" the two differ by
    one game a block, one way and the other in turn (mean difference 0)."""
    rows = []
    for r in range(8):
        rows.append(("a", r, 24, 2, 24, 12))
        rows.append(("b", r, 24, 6 + (r % 2), 24, 7 - (r % 2)))
    return pd.DataFrame(
        rows, columns=["session", "repetition", "plain_games", "plain_wins", "mended_games",
                       "mended_wins"],
    )  # fmt: skip


def test_games_test_the_paired_blocks_and_correct_for_the_sessions():
    beside = pd.DataFrame(
        {"session": ["a", "b"], "agent": ["Hypermax"] * 2, "plain_depth_median": [4.0, 3.0],
         "mended_depth_median": [5.0, 4.0]}
    )  # fmt: skip
    lines = games(_blocks(), beside).splitlines()
    # "a": every block one way: the sign-flip p is 2 / 2**8, Holm doubles it
    assert lines[0].startswith("a: Hypermax won 16/192 plain, 96/192 mended, over 8 openings")
    assert "mended less plain +41.7 points of win share a block" in lines[0]
    assert f"Holm {2 * 2 / 2**8:.3f}: more wins with the mended one" in lines[0]
    assert "within 15 points of each other: differs" in lines[0]
    assert "80 % power" not in lines[0] and "median depth 4 plain, 5 mended" in lines[0]
    # "b": differences of +-1/24 with mean 0: no difference, equivalent within 15 points
    assert "+0.0 points" in lines[1] and "sign-flip p = 1.000" in lines[1]
    assert "no difference detected" in lines[1] and "each other: equivalent" in lines[1]
    # what "b" could have detected at Holm's strictest level 0.025, by the z-test's
    # closed form on the differences' standard deviation
    sd = np.std([(-1) ** (r % 2) / 24 for r in range(8)], ddof=1)
    gap = (stats.norm.ppf(1 - 0.025 / 2) + stats.norm.ppf(0.8)) * sd / math.sqrt(8)
    assert f"80 % power only for a mean difference of {100 * gap:.0f} points or more" in lines[1]


def test_too_few_blocks_say_so():
    two = _blocks().groupby("session").head(4)  # 2**(1 - 4) = 0.125 > 0.025: unreachable
    table = mended_verdicts(two)
    assert (table["verdict"] == "no difference detected").all()
    assert np.isinf(table["detectable_gap"]).all()
    assert "too few blocks to reach the corrected level" in games(two)
    assert games(two.iloc[0:0]) == "No session seated Hypermax."
    once = games(_blocks().groupby("session").head(1))
    assert once.startswith("a: Hypermax won 2/24 plain, 12/24 mended, from one opening: +41.7")
    assert "nothing to test it by" in once and "nan" not in once
