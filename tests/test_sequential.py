"""Tests of the sequential tests on block scores (``chameleon_lab.analysis.sequential``).

Expected values come from the formulas written out here (the logistic model as
1 / (1 + 10 ** (-elo / 400)), the log-likelihood ratio from explicit sums), from a plain
block-by-block loop, or from simulation with a tolerance of three standard errors; none
from the functions under test.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chameleon_lab.analysis.sequential import (
    PENTANOMIAL_VALUES,
    SPRT,
    LevelSPRT,
    elo_to_score,
    error_rates,
    first_crossings,
    fixed_games,
    pentanomial,
    score_to_elo,
    sequential_test,
    simulate_blocks,
)

ALPHA = BETA = 0.05
RUNS = 2000
#: SPRT(0, 50) decides after 60 to 135 blocks on average: 1000 leaves almost none open
MAX_BLOCKS = 1000


def logistic(elo: float) -> float:
    """The logistic Elo model, written out independently of the module."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def three_se(p: float, runs: int) -> float:
    """Three standard errors of a simulated proportion ``p`` over ``runs`` runs."""
    return 3.0 * math.sqrt(p * (1.0 - p) / runs)


# --- the error rates, by simulation ---------------------------------------------------


@pytest.mark.parametrize("draw_ratio", [0.0, 0.3, 0.6])
def test_error_rates_hold_alpha_and_beta(draw_ratio: float) -> None:
    sprt = SPRT(elo0=0.0, elo1=50.0, alpha=ALPHA, beta=BETA)
    at_h0 = error_rates(sprt, 0.0, RUNS, MAX_BLOCKS, seed=11, draw_ratio=draw_ratio)
    at_h1 = error_rates(sprt, 50.0, RUNS, MAX_BLOCKS, seed=12, draw_ratio=draw_ratio)
    print(f"draw ratio {draw_ratio}: alpha {at_h0.h1:.4f}, beta {at_h1.h0:.4f}")
    # not above the nominal rates beyond simulation noise ...
    assert at_h0.h1 <= ALPHA + three_se(ALPHA, RUNS)
    assert at_h1.h0 <= BETA + three_se(BETA, RUNS)
    # ... nor absurdly conservative
    assert at_h0.h1 > ALPHA / 4
    assert at_h1.h0 > BETA / 4
    # with room enough, nearly every run decides, and the shares add up
    for rates in (at_h0, at_h1):
        assert rates.undecided < 0.01
        assert rates.h1 + rates.h0 + rates.undecided == pytest.approx(1.0)
        assert 20 < rates.mean_blocks < 300


def test_plain_gsprt_is_anti_conservative_on_few_blocks() -> None:
    """Why ``prior_blocks`` exists: without it the test believes variances estimated
    from a handful of blocks and accepts H1 at no gap far more often than alpha."""
    plain = SPRT(elo0=0.0, elo1=50.0, prior_blocks=0.0)
    rates = error_rates(plain, 0.0, RUNS, MAX_BLOCKS, seed=11, draw_ratio=0.3)
    assert rates.h1 > ALPHA + 2 * three_se(ALPHA, RUNS)


def first_decision_loop(row: np.ndarray, sprt: SPRT) -> tuple[int, int]:
    """The reference: ``SPRT.llr`` after every block, stop at the first crossing."""
    for k in range(1, len(row) + 1):
        llr = sprt.llr(row[:k])
        if llr > sprt.upper:
            return 1, k
        if llr < sprt.lower:
            return -1, k
    return 0, len(row)


def test_vectorised_simulation_matches_a_plain_loop() -> None:
    sprt, elo, seed, runs, max_blocks = SPRT(), 25.0, 7, 300, 300
    rng = np.random.default_rng(seed)
    draws = simulate_blocks(pentanomial(elo), PENTANOMIAL_VALUES, (runs, max_blocks), rng)
    expected = [first_decision_loop(row, sprt) for row in draws]
    decisions, blocks, _ = first_crossings(draws, sprt)
    assert [(int(d), int(b)) for d, b in zip(decisions, blocks, strict=True)] == expected
    names = {1: "H1", -1: "H0", 0: "continue"}
    for row, (decision, stop) in zip(draws, expected, strict=True):
        result = sequential_test(row, sprt)
        assert (result.decision, result.blocks) == (names[decision], stop)
        # what a test that stopped at the crossing would have said
        stopped = sprt.status(row[:stop])
        assert result.llr == pytest.approx(stopped.llr, rel=1e-9, abs=1e-12)
        assert result.score == pytest.approx(row[:stop].mean())
        if decision:
            assert stopped.decision == result.decision
    # error_rates draws the very same array from the same seed
    rates = error_rates(sprt, elo, runs, max_blocks, seed=seed)
    codes = [d for d, _ in expected]
    assert rates.h1 == codes.count(1) / runs
    assert rates.h0 == codes.count(-1) / runs
    assert rates.undecided == codes.count(0) / runs
    assert 0 < codes.count(0) < runs  # both decided and undecided rows were compared
    decided = [b for d, b in expected if d]
    assert rates.mean_blocks == pytest.approx(sum(decided) / len(decided))


# --- the log-likelihood ratio and the stopping rule -----------------------------------


def test_llr_by_hand() -> None:
    scores = [1.0, 0.75, 0.5, 0.75, 0.25, 1.0]
    n = 6
    mean = (1.0 + 0.75 + 0.5 + 0.75 + 0.25 + 1.0) / n  # 4.25 / 6
    mean_sq = (1.0 + 0.5625 + 0.25 + 0.5625 + 0.0625 + 1.0) / n  # 3.4375 / 6
    var = mean_sq - mean**2  # 0.0711805...
    s0, s1 = 0.5, 1.0 / (1.0 + 10.0 ** (-50.0 / 400.0))  # 0.5, 0.5714631...
    plain = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert plain == pytest.approx(1.0397216590, rel=1e-9)
    assert SPRT(elo0=0, elo1=50, prior_blocks=0).llr(scores) == pytest.approx(plain, rel=1e-12)
    shrunk = (n * var + 2 * 0.25) / (n + 2)  # the default prior: 2 blocks of variance 1/4
    expected = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * shrunk)
    assert expected == pytest.approx(0.6386305321, rel=1e-9)
    assert SPRT(elo0=0, elo1=50).llr(scores) == pytest.approx(expected, rel=1e-12)
    # another pair of hypotheses: the sign follows 2 m - s0 - s1
    t0, t1 = logistic(100.0), logistic(300.0)
    other = n * (t1 - t0) * (2 * mean - t0 - t1) / (2 * shrunk)
    assert other < 0
    assert SPRT(elo0=100, elo1=300).llr(scores) == pytest.approx(other, rel=1e-12)


def test_llr_edge_cases() -> None:
    sprt = SPRT()
    assert sprt.llr([]) == 0.0
    assert sprt.llr([1.0]) == 0.0  # one block says nothing about the spread
    plain = SPRT(prior_blocks=0)
    assert plain.llr([1.0, 1.0]) == math.inf  # zero variance: the formula's limit
    assert plain.llr([0.5, 0.5]) == -math.inf
    # with the prior, equal blocks are finite: n (n + 2) (s1 - s0) (2 - s0 - s1)
    s1 = logistic(50.0)
    assert sprt.llr([1.0] * 4) == pytest.approx(4 * 6 * (s1 - 0.5) * (1.5 - s1))
    # equal blocks not representable exactly still have no variance
    third = [1 / 3] * 7
    assert plain.llr(third) == -math.inf


def test_wald_bounds() -> None:
    sprt = SPRT(alpha=0.1, beta=0.2)
    assert sprt.lower == pytest.approx(math.log(0.2 / 0.9))
    assert sprt.upper == pytest.approx(math.log(8.0))
    assert SPRT().upper == pytest.approx(2.944438979)
    assert SPRT().lower == pytest.approx(-2.944438979)


def test_stops_at_the_first_crossing() -> None:
    # straight wins: LLR(n) = n (n + 2) (s1 - s0) (2 - s0 - s1), first above the bound at 6
    s0, s1 = 0.5, logistic(50.0)
    upper = math.log(0.95 / 0.05)
    path = [n * (n + 2) * (s1 - s0) * (2 - s0 - s1) for n in range(1, 11)]
    first = next(n for n, llr in enumerate(path, start=1) if llr > upper)
    assert first == 6
    # ... then straight losses bring the ratio back down, below the lower bound
    scores = [1.0] * 10 + [0.0] * 30
    sprt = SPRT()
    assert sprt.status(scores).decision == "H0"
    result = sequential_test(scores, sprt)
    assert (result.decision, result.blocks) == ("H1", first)
    assert result.llr == pytest.approx(path[first - 1])
    assert result.score == 1.0 and result.elo == math.inf
    assert str(result) == "H1 accepted after 6 blocks: +inf Elo (95 % +inf to +inf), " + (
        f"LLR {path[5]:.2f} in [-2.94, 2.94]"
    )
    # blocks played past a decision (a parallel batch overshooting) change nothing
    assert sequential_test(scores[:first], sprt) == result
    # never leaving the bounds: "continue" over every block
    undecided = sequential_test([1.0, 0.0, 0.5, 0.75], sprt)
    assert (undecided.decision, undecided.blocks) == ("continue", 4)
    assert str(undecided).startswith("no decision after 4 blocks")
    empty = sequential_test([], sprt)
    assert (empty.decision, empty.blocks, empty.llr) == ("continue", 0, 0.0)


@given(st.lists(st.sampled_from(PENTANOMIAL_VALUES), min_size=1, max_size=120), st.data())
def test_overshoot_changes_nothing(scores: list[float], data: st.DataObject) -> None:
    sprt = SPRT(elo0=0, elo1=100)
    result = sequential_test(scores, sprt)
    extra = data.draw(st.lists(st.sampled_from(PENTANOMIAL_VALUES), max_size=30))
    longer = sequential_test(scores + extra, sprt)
    if result.decision != "continue":
        assert longer == result
    else:
        assert longer.blocks >= result.blocks


def test_status_interval_by_hand() -> None:
    scores = [1.0, 0.75, 0.5, 0.75, 0.25, 1.0]
    mean, var = 4.25 / 6, 3.4375 / 6 - (4.25 / 6) ** 2
    half = 1.959963984540054 * math.sqrt(var / 6)
    result = SPRT().status(scores)
    assert result.decision == "continue" and result.blocks == 6
    for got, p in (
        (result.elo, mean),
        (result.elo_low, mean - half),
        (result.elo_high, mean + half),
    ):
        assert got == pytest.approx(400 * math.log10(p / (1 - p)))


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize("elo0, elo1", [(10.0, 10.0), (20.0, 10.0), (0, -5)])
def test_elo0_must_be_below_elo1(elo0: float, elo1: float) -> None:
    with pytest.raises(ValueError) as info:
        SPRT(elo0=elo0, elo1=elo1)
    message = str(info.value)
    assert f"elo0={elo0!r}" in message and f"elo1={elo1!r}" in message
    assert "elo0" in message and "must be below elo1" in message


@pytest.mark.parametrize("name", ["alpha", "beta"])
@pytest.mark.parametrize("value", [0, 0.5, 0.7, -0.1, math.nan, math.inf, "0.05", None])
def test_error_rates_must_lie_inside_0_and_half(name: str, value: object) -> None:
    with pytest.raises(ValueError) as info:
        SPRT(**{name: value})
    assert f"{name}={value!r}" in str(info.value)
    assert "(0, 0.5)" in str(info.value)


@pytest.mark.parametrize("name", ["elo0", "elo1", "prior_blocks"])
@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_parameters_must_be_finite(name: str, value: float) -> None:
    with pytest.raises(ValueError, match=rf"{name}=.*not a finite number"):
        SPRT(**{name: value})


def test_other_bad_input() -> None:
    with pytest.raises(ValueError, match=r"prior_blocks=-1"):
        SPRT(prior_blocks=-1)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        SPRT().llr([0.5, 1.5])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        sequential_test([0.5, math.nan], SPRT())
    with pytest.raises(ValueError, match=r"1-D"):
        SPRT().llr([[0.5, 1.0]])
    with pytest.raises(ValueError, match=r"2-D"):
        first_crossings([0.5, 1.0], SPRT())
    with pytest.raises(ValueError, match=r"sum to 1"):
        simulate_blocks([0.5, 0.6], [0.0, 1.0], 3, 0)
    with pytest.raises(ValueError, match=r"one probability per value"):
        simulate_blocks([0.5, 0.5], [0.0, 0.5, 1.0], 3, 0)
    with pytest.raises(ValueError, match=r"runs=0"):
        error_rates(SPRT(), 0.0, runs=0)
    with pytest.raises(ValueError, match=r"at least 2 blocks"):
        fixed_games([0.5])
    with pytest.raises(ValueError, match=r"confidence=1.5"):
        fixed_games([0.5, 1.0], confidence=1.5)


# --- the pentanomial model ------------------------------------------------------------


@st.composite
def gaps_and_draw_ratios(draw: st.DrawFn) -> tuple[float, float]:
    elo = draw(st.floats(-400.0, 400.0))
    score = logistic(elo)
    most = 2 * min(score, 1 - score)
    return elo, draw(st.floats(0.0, 0.999)) * most


@given(gaps_and_draw_ratios())
def test_pentanomial_sums_to_one_and_has_the_right_mean(case: tuple[float, float]) -> None:
    elo, draw_ratio = case
    p = pentanomial(elo, draw_ratio)
    assert p.shape == (5,) and (p >= 0).all()
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    mean = sum(pi * v for pi, v in zip(p, (0.0, 0.25, 0.5, 0.75, 1.0), strict=True))
    assert mean == pytest.approx(logistic(elo), abs=1e-12)


@given(st.floats(0.0, 1.0))
def test_pentanomial_is_symmetric_at_no_gap(draw_ratio: float) -> None:
    p = pentanomial(0.0, draw_ratio)
    assert p == pytest.approx(p[::-1], abs=1e-15)


def test_pentanomial_by_hand() -> None:
    # win 1/4, draw 1/2, loss 1/4 per game: LL, LD+DL, DD+WL+LW, WD+DW, WW
    assert pentanomial(0.0, 0.5) == pytest.approx([1 / 16, 1 / 4, 3 / 8, 1 / 4, 1 / 16])
    assert pentanomial(0.0, 1.0).tolist() == [0.0, 0.0, 1.0, 0.0, 0.0]
    # no draws at +400 Elo: win w = 10/11 per game
    w = 10 / 11
    assert pentanomial(400.0, 0.0) == pytest.approx([(1 - w) ** 2, 0, 2 * w * (1 - w), 0, w**2])


@pytest.mark.parametrize("elo, draw_ratio", [(300.0, 0.9), (-300.0, 0.5), (0.0, 1.2), (0, -0.1)])
def test_pentanomial_rejects_impossible_draw_ratios(elo: float, draw_ratio: float) -> None:
    with pytest.raises(ValueError) as info:
        pentanomial(elo, draw_ratio)
    assert f"draw_ratio={draw_ratio!r}" in str(info.value)
    assert f"elo={float(elo)!r}" in str(info.value)


def test_simulate_blocks_draws_the_distribution() -> None:
    p = pentanomial(50.0, 0.3)
    draws = simulate_blocks(p, PENTANOMIAL_VALUES, (40, 2500), np.random.default_rng(3))
    assert draws.shape == (40, 2500)
    counts = np.array([(draws == v).sum() for v in PENTANOMIAL_VALUES])
    assert counts.sum() == draws.size  # nothing but the five values
    n = draws.size
    assert np.all(np.abs(counts / n - p) <= 4 * np.sqrt(p * (1 - p) / n))
    same = simulate_blocks(p, PENTANOMIAL_VALUES, 10, 5)
    assert np.array_equal(same, simulate_blocks(p, PENTANOMIAL_VALUES, 10, 5))


# --- the fixed-size estimate ------------------------------------------------------------


def test_fixed_games_interval_covers_the_true_gap() -> None:
    elo, datasets, blocks = 30.0, 200, 100
    rng = np.random.default_rng(2024)
    draws = simulate_blocks(pentanomial(elo), PENTANOMIAL_VALUES, (datasets, blocks), rng)
    covered = 0
    for row in draws:
        estimate = fixed_games(row, n_resamples=2000, seed=1)
        assert estimate.method == "BCa"
        assert estimate.elo_low <= estimate.elo <= estimate.elo_high
        covered += estimate.elo_low <= elo <= estimate.elo_high
    coverage = covered / datasets
    print(f"coverage {coverage:.3f}")
    assert abs(coverage - 0.95) <= three_se(0.95, datasets)


def test_fixed_games_is_seeded() -> None:
    rng = np.random.default_rng(9)
    scores = simulate_blocks(pentanomial(20.0), PENTANOMIAL_VALUES, 60, rng)
    first = fixed_games(scores, n_resamples=999, seed=4)
    assert fixed_games(scores, n_resamples=999, seed=4) == first
    assert first.score == pytest.approx(scores.mean())
    assert first.elo == pytest.approx(400 * math.log10(first.score / (1 - first.score)))
    assert str(first).startswith(f"{first.elo:+.0f} Elo (95 % ")


def test_fixed_games_on_constant_data_falls_back_to_percentile() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        draws = fixed_games([0.5] * 12, n_resamples=999)
        wins = fixed_games([1.0] * 12, n_resamples=999)
    assert draws.method == "percentile"
    assert (draws.elo, draws.elo_low, draws.elo_high) == (0.0, 0.0, 0.0)
    assert wins.elo == wins.elo_low == math.inf


# --- the Elo model --------------------------------------------------------------------


@given(st.floats(-1500.0, 1500.0))
def test_elo_to_score_is_the_logistic_model_and_inverts(elo: float) -> None:
    assert elo_to_score(elo) == pytest.approx(logistic(elo), rel=1e-12)
    assert score_to_elo(elo_to_score(elo)) == pytest.approx(elo, abs=1e-7)


@given(st.floats(1e-9, 1 - 1e-9))
def test_score_to_elo_inverts(score: float) -> None:
    elo = score_to_elo(score)
    assert elo == pytest.approx(400 * math.log10(score / (1 - score)), rel=1e-9, abs=1e-9)
    assert elo_to_score(elo) == pytest.approx(score, rel=1e-9)


def test_elo_model_ends_and_arrays() -> None:
    assert score_to_elo(0.0) == -math.inf and score_to_elo(1.0) == math.inf
    assert math.isnan(score_to_elo(1.5))
    assert isinstance(elo_to_score(0.0), float) and elo_to_score(0.0) == 0.5
    elos = np.array([[-400.0, 0.0], [100.0, 400.0]])
    scores = elo_to_score(elos)
    assert isinstance(scores, np.ndarray) and scores.shape == (2, 2)
    assert scores == pytest.approx(np.vectorize(logistic)(elos), rel=1e-12)
    assert score_to_elo(scores) == pytest.approx(elos)


# --- the level test: two one-sided SPRTs, one each way ---------------------------------


def _pair_by_hand(scores: list[float], margin: float) -> tuple[str, int]:
    """The rule of :class:`LevelSPRT` from two plain SPRTs, one on the scores, one on
    the rival's (1 - score): the first H1 decides, both H0 mean level."""
    one = SPRT(0.0, margin)
    a = sequential_test(scores, one)
    b = sequential_test([1.0 - x for x in scores], one)
    h1 = [r.blocks for r in (a, b) if r.decision == "H1"]
    if h1:
        return "H1", min(h1)
    if a.decision == b.decision == "H0":
        return "H0", max(a.blocks, b.blocks)
    return "continue", len(scores)


@given(st.lists(st.sampled_from(PENTANOMIAL_VALUES), max_size=150), st.sampled_from([30, 50, 100]))
def test_level_test_is_the_two_one_sided_tests(scores: list[float], margin: float) -> None:
    result = sequential_test(scores, LevelSPRT(margin))
    assert (result.decision, result.blocks) == _pair_by_hand(scores, margin)
    if scores:
        assert result.score == pytest.approx(np.mean(scores[: result.blocks]))


@pytest.mark.parametrize("elo", [-50.0, 0.0, 50.0])
def test_level_test_error_rates(elo: float) -> None:
    """No gap: called "differs" at most 2 alpha of the time (either one-sided test);
    a gap of the margin either way: called "level" at most beta of the time."""
    runs = 600
    x = simulate_blocks(pentanomial(elo, 0.3), PENTANOMIAL_VALUES, (runs, MAX_BLOCKS), 11)
    decisions = [sequential_test(row, LevelSPRT(50.0)).decision for row in x]
    wrong = decisions.count("H1" if elo == 0 else "H0") / runs
    bound = 2 * ALPHA if elo == 0 else BETA
    assert wrong <= bound + three_se(bound, runs)
    assert decisions.count("continue") <= runs // 100


def test_level_test_bad_input() -> None:
    for margin in (0.0, -10.0, math.nan):
        with pytest.raises(ValueError, match="margin_elo"):
            LevelSPRT(margin)
    with pytest.raises(ValueError, match=r"alpha=0\.7"):
        LevelSPRT(50.0, alpha=0.7)
