"""Notebook 11's answer in words (:mod:`chameleon_lab.analysis.hypermax_answer`): every
number it writes comes from the tables it is given, checked on tables made by hand."""

from __future__ import annotations

import math

import pandas as pd
from scipy import stats

from chameleon_lab.analysis.hypermax_answer import games, how_often, mend, why


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


def test_games_correct_for_the_sessions_and_test_equivalence():
    rows = []
    for session, (pw, mw, n) in {"a": (2, 20, 24), "b": (12, 12, 200)}.items():
        p = stats.fisher_exact([[mw, n - mw], [pw, n - pw]]).pvalue
        rows.append({"session": session, "agent": "Hypermax", "plain_games": n,
                     "plain_wins": pw, "plain_win_rate": pw / n, "mended_games": n,
                     "mended_wins": mw, "mended_win_rate": mw / n, "p_exact": p,
                     "plain_depth_median": 4.0, "mended_depth_median": 5.0})  # fmt: skip
    lines = games(pd.DataFrame(rows)).splitlines()
    p_a = rows[0]["p_exact"]
    assert lines[0].startswith("a: plain 2/24, mended 20/24")
    assert f"Holm {min(1, 2 * p_a):.3f}: more wins with the mended one" in lines[0]
    assert "within 15 points of each other: differs" in lines[0]
    assert "no difference detected" in lines[1] and "equivalent" in lines[1]
    assert "median depth 4 plain, 5 mended" in lines[1]
    # the undecided session's detectable gap, by the arcsine normal approximation:
    # h = (z(0.975) + z(0.8)) * sqrt(2 / 200), p + gap = sin(asin(sqrt(p)) + h / 2) ** 2
    h = (stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) * (2 / 200) ** 0.5
    gap = math.sin(math.asin(math.sqrt(0.06)) + h / 2) ** 2 - 0.06
    assert round(100 * gap) == 8
    assert "80 % power only for a gap of 8 points or more" in lines[1]
    assert "80 % power" not in lines[0]
