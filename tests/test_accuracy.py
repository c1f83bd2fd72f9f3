"""How well heuristics order solved positions (:mod:`chameleon_lab.analysis.accuracy`):
the won-over-lost share against the pairs counted one by one, a heuristic that cannot
tell positions apart at exactly a coin's 0.5, two heuristics that are the same function
scored alike, and positions whose outcomes are the exact solver's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit
from scipy import stats

from chameleon_lab.analysis.accuracy import (
    _spearman,
    accuracy,
    compare,
    solved_positions,
    won_over_lost,
)
from chameleon_lab.games import get_game
from chameleon_lab.games.weighted import weighted_heuristic
from chameleon_lab.search.solve import solve


@settings(max_examples=80, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(st.integers(-3, 3).map(float), st.sampled_from([-1.0, 0.0, 1.0])),
        min_size=1,
        max_size=30,
    )
)
def test_won_over_lost_counts_the_pairs(pairs):
    values, outcomes = map(np.array, zip(*pairs, strict=True))
    won = [v for v, o in pairs if o > 0]
    lost = [v for v, o in pairs if o < 0]
    if not won or not lost:
        assert np.isnan(won_over_lost(values, outcomes))
        return
    above = sum((w > x) + 0.5 * (w == x) for w in won for x in lost)
    assert won_over_lost(values, outcomes) == pytest.approx(above / (len(won) * len(lost)))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rows=st.integers(1, 6),
    n=st.integers(2, 25),
)
def test_a_batch_of_resamples_scores_as_scipy_scores_each_alone(seed, rows, n):
    # the bootstrap hands every resample at once; each row must be what scipy's
    # Mann-Whitney U and Spearman's rho give that row alone (NaN where undefined)
    rng = np.random.default_rng(seed)
    values = rng.integers(-3, 4, (rows, n)).astype(float)
    outcomes = rng.choice([-1.0, 0.0, 1.0], (rows, n))
    exact = outcomes * rng.integers(1, 5, (rows, n))
    shares, rhos = won_over_lost(values, outcomes), _spearman(values, exact)
    for v, o, e, share, rho in zip(values, outcomes, exact, shares, rhos, strict=True):
        won, lost = v[o > 0], v[o < 0]
        if len(won) and len(lost):
            u = stats.mannwhitneyu(won, lost).statistic
            assert share == pytest.approx(u / (len(won) * len(lost)), abs=1e-12)
        else:
            assert np.isnan(share)
        if np.ptp(v) and np.ptp(e):
            assert rho == pytest.approx(stats.spearmanr(v, e).statistic, abs=1e-12)
        else:
            assert np.isnan(rho)


@pytest.fixture(scope="module")
def solved():
    return solved_positions("connect4", 24, plies=(14, 24), seed=5)


def test_positions_are_distinct_unfinished_and_valued_by_the_solver(solved):
    keys = [p.key for p in solved["position"]]
    assert len(set(keys)) == len(keys) == 24
    assert not any(p.is_over for p in solved["position"])
    for row in solved.head(6).itertuples():
        assert row.value == solve(row.position, method="generic").value
        assert row.outcome == np.sign(row.value)
    assert {-1.0, 1.0} <= set(solved["outcome"])


def test_the_same_function_scores_alike_and_a_blind_one_scores_a_coin(solved):
    # weights (1, 2, 7) are weighted_lines exactly (games.connect4.heuristics)
    same = weighted_heuristic("connect4", {"stones": 1, "pairs": 2, "triples": 7}).name
    blind = get_game("connect4").heuristics.register("blind", _blind, replace=True).name
    table = accuracy(solved, ["weighted_lines", same, blind], resamples=99).set_index("heuristic")
    columns = ["won_over_lost", "won_over_lost_low", "spearman", "spearman_high"]
    np.testing.assert_array_equal(table.loc["weighted_lines", columns], table.loc[same, columns])
    assert table.loc[blind, "won_over_lost"] == 0.5  # every pair a tie
    assert np.isnan(table.loc[blind, "spearman"])  # a constant has no ranks
    lines = table.loc["weighted_lines"]
    assert lines["won_over_lost_low"] <= lines["won_over_lost"] <= lines["won_over_lost_high"]
    counts = table[["won", "drawn", "lost"]].iloc[0]
    assert counts.sum() == 24 and counts["won"] == (solved["outcome"] > 0).sum()


@njit
def _blind(state, out):
    """The same score for every player everywhere: it tells no position from another."""
    for i in range(4):
        out[i] = 1.0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"plies": (5, 2)}, r"plies must be \(low, high\) with 0 <= low <= high, got \(5, 2\)"),
        ({"plies": (0, 0), "count": 2}, "found only 1 distinct unfinished positions"),
    ],
)
def test_impossible_requests_are_refused_saying_why(kwargs, message):
    kwargs = {"count": 3, **kwargs}
    with pytest.raises(ValueError, match=message):
        solved_positions("tictactoe", kwargs.pop("count"), **kwargs)


def test_a_comparison_is_the_difference_of_the_two_rows_and_nothing_against_itself(solved):
    table = accuracy(solved, ["weighted_lines", "lines"], resamples=99).set_index("heuristic")
    both = compare(solved, "weighted_lines", "lines", resamples=99).set_index("figure")
    for figure in ("won_over_lost", "spearman"):
        expected = table.loc["weighted_lines", figure] - table.loc["lines", figure]
        assert both.loc[figure, "difference"] == pytest.approx(expected)
        assert both.loc[figure, "low"] <= both.loc[figure, "difference"] <= both.loc[figure, "high"]
        assert both.loc[figure, "level"] == 0.975  # Bonferroni over the two figures
    itself = compare(solved, "lines", "lines", resamples=99)
    assert (itself["difference"] == 0).all() and (itself["verdict"] == "undecided").all()
