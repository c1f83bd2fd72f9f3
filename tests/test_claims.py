"""Holm, TOST, detectable gaps and verdicts (chameleon_lab.analysis.claims).

The expected values are computed here without the code under test: Holm's adjustment
by hand and by a plain loop, the one-sided tests and the interval by the
Agresti-Caffo normal approximation written out with the standard library, Fisher's
test from binomial coefficients, and the detectable gaps from their closed forms and by
simulating the tests they describe.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from chameleon_lab.analysis.claims import (
    detectable_elo,
    detectable_mean_gap,
    detectable_rate_gap,
    elo_of_gap,
    holm,
    paired_tost,
    sign_flip_detectable_gap,
    sign_flip_min_blocks,
    sign_flip_p,
    tost,
    verdict,
)

PHI = NormalDist().cdf
Z = NormalDist().inv_cdf

# --- Holm ---------------------------------------------------------------------------


def test_holm_on_known_values():
    # sorted: 0.005 * 4 = 0.02, 0.01 * 3 = 0.03, 0.03 * 2 = 0.06, 0.04 * 1 = 0.04 -> 0.06
    np.testing.assert_allclose(holm([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(holm([0.5, 0.3]), [0.6, 0.6])  # 0.3 * 2, then max(0.5, 0.6)
    np.testing.assert_allclose(holm([0.9, 0.8, 0.7]), [1.0, 1.0, 1.0])  # capped at 1
    np.testing.assert_allclose(holm([0.02]), [0.02])
    assert holm([]).shape == (0,)


def plain_holm(p: list[float]) -> list[float]:
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


@settings(max_examples=10, deadline=None)  # multipletests runs gc.collect() on each call,
# which takes ~0.5 s in a test worker holding compiled searches
@given(st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_holm_matches_a_plain_loop(p):
    np.testing.assert_allclose(holm(p), plain_holm(p), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize(
    ("p", "message"),
    [
        ([0.2, 1.5], r"p-values must be in \[0, 1\], got \[1.5\]"),
        ([-0.1], r"got \[-0.1\]"),
        ([0.1, float("nan")], r"got \[nan\]"),
        ([[0.1, 0.2]], r"one-dimensional, got shape \(1, 2\)"),
    ],
)
def test_holm_refuses_what_are_not_p_values(p, message):
    with pytest.raises(ValueError, match=message):
        holm(p)


# --- TOST ---------------------------------------------------------------------------


def agresti_caffo(ka: int, na: int, kb: int, nb: int) -> tuple[float, float]:
    """Difference and standard error after adding a success and a failure to each."""
    pa, pb = (ka + 1) / (na + 2), (kb + 1) / (nb + 2)
    return pa - pb, math.sqrt(pa * (1 - pa) / (na + 2) + pb * (1 - pb) / (nb + 2))


def fisher_two_sided(ka: int, na: int, kb: int, nb: int) -> float:
    """Sum of the hypergeometric probabilities of the tables no likelier than the one seen."""
    k = ka + kb

    def prob(x: int) -> float:
        return math.comb(na, x) * math.comb(nb, k - x) / math.comb(na + nb, k)

    seen = prob(ka)
    xs = range(max(0, k - nb), min(k, na) + 1)
    return min(1.0, sum(prob(x) for x in xs if prob(x) <= seen * (1 + 1e-7)))


def test_two_large_equal_samples_are_equivalent():
    e = tost(500, 1000, 505, 1000, margin=0.15)
    assert e.verdict == "equivalent" and e.equivalent and not e.differs
    assert e.difference == pytest.approx(-0.005)
    assert -0.15 < e.ci_low < e.difference < e.ci_high < 0.15


def test_far_apart_rates_differ():
    e = tost(100, 1000, 600, 1000)
    assert e.verdict == "differs" and e.differs and not e.equivalent
    assert e.p_differ < 1e-100 and e.p_tost > 0.5


def test_six_games_each_decide_nothing():
    e = tost(3, 6, 2, 6)
    assert e.verdict == "undecided" and not e.equivalent and not e.differs
    assert e.p_differ == pytest.approx(1.0)


def test_a_small_but_detected_difference_is_reported_as_a_difference():
    e = tost(5000, 10000, 5300, 10000, margin=0.15)
    assert e.equivalent and e.differs  # both tests reject
    assert e.verdict == "differs"


def test_one_sided_p_values_and_the_interval_by_the_normal_approximation():
    ka, na, kb, nb, margin, alpha = 45, 80, 38, 90, 0.1, 0.05
    e = tost(ka, na, kb, nb, margin=margin, alpha=alpha)
    d, se = agresti_caffo(ka, na, kb, nb)
    assert e.p_lower == pytest.approx(1 - PHI((d + margin) / se), rel=1e-9)
    assert e.p_upper == pytest.approx(PHI((d - margin) / se), rel=1e-9)
    assert e.p_tost == max(e.p_lower, e.p_upper)
    half = Z(1 - alpha) * se  # the 1 - 2 alpha interval
    assert (e.ci_low, e.ci_high) == pytest.approx((d - half, d + half), rel=1e-9)
    assert e.difference == pytest.approx(45 / 80 - 38 / 90)
    assert e.p_differ == pytest.approx(fisher_two_sided(ka, na, kb, nb), rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    na=st.integers(1, 300),
    nb=st.integers(1, 300),
    fa=st.floats(0, 1),
    fb=st.floats(0, 1),
    margin=st.sampled_from([0.05, 0.1, 0.15, 0.3]),
    alpha=st.sampled_from([0.01, 0.05, 0.1]),
)
def test_tost_agrees_with_independent_computations(na, nb, fa, fb, margin, alpha):
    ka, kb = round(fa * na), round(fb * nb)
    e = tost(ka, na, kb, nb, margin=margin, alpha=alpha)
    d, se = agresti_caffo(ka, na, kb, nb)
    assert e.p_lower == pytest.approx(1 - PHI((d + margin) / se), rel=1e-7, abs=1e-12)
    assert e.p_upper == pytest.approx(PHI((d - margin) / se), rel=1e-7, abs=1e-12)
    assert e.p_differ == pytest.approx(fisher_two_sided(ka, na, kb, nb), rel=1e-6, abs=1e-12)
    # the TOST rejects exactly when the 1 - 2 alpha interval lies inside the margins
    if abs(e.p_tost - alpha) > 1e-9:
        assert e.equivalent == (-margin < e.ci_low and e.ci_high < margin)
    want = "differs" if e.p_differ < alpha else "equivalent" if e.p_tost < alpha else "undecided"
    assert e.verdict == want


def test_whole_valued_floats_are_counts():
    assert tost(5.0, 10.0, np.int64(4), 10).difference == pytest.approx(0.1)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((2.5, 10, 1, 10), {}, "successes_a must be a whole number >= 0, got 2.5"),
        ((2, 10, -1, 10), {}, "successes_b must be a whole number >= 0, got -1"),
        ((True, 10, 1, 10), {}, "successes_a must be a whole number >= 0, got True"),
        ((11, 10, 1, 10), {}, "successes_a = 11 must be at most n_a = 10"),
        ((1, 10, 5, 4), {}, "successes_b = 5 must be at most n_b = 4"),
        ((0, 0, 1, 10), {}, "n_a must be a whole number >= 1, got 0"),
        ((1, 10, 1, float("nan")), {}, "n_b must be a whole number >= 1, got nan"),
        ((1, 10, 1, 10), {"margin": 0}, r"margin must be in \(0, 1\), got 0"),
        ((1, 10, 1, 10), {"margin": 1.0}, r"margin must be in \(0, 1\), got 1.0"),
        ((1, 10, 1, 10), {"margin": -0.1}, r"margin must be in \(0, 1\), got -0.1"),
        ((1, 10, 1, 10), {"alpha": 0.5}, r"alpha must be in \(0, 0.5\), got 0.5"),
        ((1, 10, 1, 10), {"alpha": 0}, r"alpha must be in \(0, 0.5\), got 0"),
    ],
)
def test_tost_names_bad_input(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        tost(*args, **kwargs)


# --- detectable gaps ----------------------------------------------------------------


def elo_of_score(s: float) -> float:
    return 400 * math.log10(s / (1 - s))


@pytest.mark.parametrize(
    ("blocks", "sd", "alpha", "power"), [(50, 0.2, 0.05, 0.8), (12, 0.15, 0.01, 0.9)]
)
def test_detectable_elo_by_its_closed_form(blocks, sd, alpha, power):
    delta = (Z(1 - alpha / 2) + Z(power)) * sd / math.sqrt(blocks)
    want = elo_of_score(0.5 + delta)
    assert detectable_elo(blocks, sd, alpha, power) == pytest.approx(want, rel=1e-9)
    one_sided = elo_of_score(0.5 + (Z(1 - alpha) + Z(power)) * sd / math.sqrt(blocks))
    assert detectable_elo(blocks, sd, alpha, power, two_sided=False) == pytest.approx(one_sided)
    assert detectable_elo(4 * blocks, sd, alpha, power) < want


@pytest.mark.parametrize(("blocks", "sd"), [(50, 0.2), (20, 0.3)])
def test_a_gap_of_detectable_elo_is_found_with_the_power_asked(blocks, sd):
    s = 1 / (1 + 10 ** (-detectable_elo(blocks, sd) / 400))  # the score of that Elo gap
    rng = np.random.default_rng(7)
    means = rng.normal(s, sd, (40_000, blocks)).mean(axis=1)
    found = np.abs(means - 0.5) / (sd / math.sqrt(blocks)) > Z(0.975)
    assert found.mean() == pytest.approx(0.8, abs=0.015)


def test_no_gap_is_detectable_when_the_design_is_too_small():
    assert detectable_elo(1, 0.5) == math.inf  # the mean score would need to pass 1
    assert detectable_rate_gap(5, 5, 0.9) == math.inf


@pytest.mark.parametrize(
    ("n_a", "n_b", "p", "alpha", "power"),
    [(400, 400, 0.5, 0.05, 0.8), (300, 500, 0.3, 0.05, 0.8), (1000, 200, 0.1, 0.01, 0.9)],
)
def test_detectable_rate_gap_by_the_arcsine_closed_form(n_a, n_b, p, alpha, power):
    h = (Z(1 - alpha / 2) + Z(power)) * math.sqrt(1 / n_a + 1 / n_b)
    want = math.sin(math.asin(math.sqrt(p)) + h / 2) ** 2 - p
    # statsmodels solves numerically (to about 1e-6) and counts the other tail's tiny
    # chance of rejecting too (about 1e-7 here): hence rel 1e-5
    assert detectable_rate_gap(n_a, n_b, p, alpha, power) == pytest.approx(want, rel=1e-5)
    h1 = (Z(1 - alpha) + Z(power)) * math.sqrt(1 / n_a + 1 / n_b)
    one = math.sin(math.asin(math.sqrt(p)) + h1 / 2) ** 2 - p
    got = detectable_rate_gap(n_a, n_b, p, alpha, power, two_sided=False)
    assert got == pytest.approx(one, rel=1e-5)


@pytest.mark.parametrize(("n_a", "n_b", "p"), [(400, 400, 0.5), (300, 500, 0.3)])
def test_a_rate_gap_of_that_size_is_found_with_the_power_asked(n_a, n_b, p):
    gap = detectable_rate_gap(n_a, n_b, p)
    rng = np.random.default_rng(3)
    ka, kb = rng.binomial(n_a, p + gap, 40_000), rng.binomial(n_b, p, 40_000)
    arcsine = 2 * np.arcsin(np.sqrt(ka / n_a)) - 2 * np.arcsin(np.sqrt(kb / n_b))
    found = np.abs(arcsine) / math.sqrt(1 / n_a + 1 / n_b) > Z(0.975)
    assert found.mean() == pytest.approx(0.8, abs=0.015)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: detectable_elo(0, 0.2), "blocks must be a whole number >= 1, got 0"),
        (lambda: detectable_elo(10.5, 0.2), "blocks must be a whole number >= 1, got 10.5"),
        (lambda: detectable_elo(10, 0), "sd must be a finite number > 0, got 0"),
        (lambda: detectable_elo(10, math.inf), "sd must be a finite number > 0, got inf"),
        (lambda: detectable_elo(10, 0.2, power=1), r"power must be in \(0, 1\), got 1"),
        (lambda: detectable_elo(10, 0.2, alpha=0.7), r"alpha must be in \(0, 0.5\), got 0.7"),
        (lambda: detectable_rate_gap(0, 10, 0.5), "n_a must be a whole number >= 1, got 0"),
        (lambda: detectable_rate_gap(10, 10, 1.0), r"p must be in \(0, 1\), got 1.0"),
        (lambda: detectable_rate_gap(10, 10, 0.5, power=0), r"power must be in \(0, 1\), got 0"),
    ],
)
def test_detectable_gaps_name_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --- verdicts -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("p", "estimate", "want"),
    [
        (0.01, 3.2, "supported"),
        (0.01, -0.4, "contradicted"),
        (0.2, 5.0, "open"),
        (0.2, -5.0, "open"),
        (0.05, 1.0, "open"),  # not below alpha
        (0.001, 0.0, "open"),  # no direction
    ],
)
def test_verdicts(p, estimate, want):
    assert verdict(p, estimate) == want


def test_verdicts_follow_alpha_and_name_bad_input():
    assert verdict(0.03, 1.0, alpha=0.01) == "open"
    assert verdict(np.float64(0.009), np.float64(1.0), alpha=0.01) == "supported"
    with pytest.raises(ValueError, match=r"p_adjusted must be in \[0, 1\], got 1.2"):
        verdict(1.2, 1.0)
    with pytest.raises(ValueError, match="estimate must be a number"):
        verdict(0.01, float("nan"))
    with pytest.raises(ValueError, match=r"alpha must be in \(0, 0.5\), got 0.6"):
        verdict(0.01, 1.0, alpha=0.6)


def test_sign_flip_p_is_exact_on_small_samples():
    """All n deviations of one sign: only the two flips of all signs are as extreme,
    so p = 2 / 2**n; deviations symmetric about 0 have mean 0 and p = 1."""
    assert sign_flip_p([0.1, 0.3, 0.2, 0.5, 0.1, 0.2]) == pytest.approx(2 / 2**6)
    assert sign_flip_p([0.2, -0.2, 0.1, -0.1]) == pytest.approx(1.0)
    assert sign_flip_p([]) == 1.0 and sign_flip_p([0.0, 0.0]) == 1.0
    # a plain enumeration of the 2**5 sign vectors
    x = np.array([0.3, -0.1, 0.25, 0.05, 0.2])
    signs = np.array(np.meshgrid(*[[-1, 1]] * 5)).reshape(5, -1).T
    means = (signs * x).mean(axis=1)
    want = np.mean(np.abs(means) >= abs(x.mean()) - 1e-12)
    assert sign_flip_p(x) == pytest.approx(want)


def test_paired_tost_by_the_t_distribution():
    """The two one-sided t-tests of the paired differences computed by hand: t =
    (mean -+ margin) / (sd / sqrt(n)) with n - 1 degrees of freedom."""
    a = np.array([0.50, 0.25, 0.40, 0.30, 0.45, 0.35, 0.30, 0.50])
    b = np.array([0.45, 0.30, 0.35, 0.35, 0.40, 0.30, 0.35, 0.40])
    d = a - b
    se = d.std(ddof=1) / math.sqrt(len(d))
    lower = 1 - stats.t.cdf((d.mean() + 0.15) / se, len(d) - 1)
    upper = stats.t.cdf((d.mean() - 0.15) / se, len(d) - 1)
    res = paired_tost(a, b, margin=0.15)
    assert res.blocks == 8 and res.difference == pytest.approx(d.mean())
    assert res.p_tost == pytest.approx(max(lower, upper))
    assert res.sd == pytest.approx(d.std(ddof=1))
    assert res.ci_low < res.difference < res.ci_high
    assert res.p_differ == pytest.approx(sign_flip_p(d))
    # a wide margin of 1 point is not shown with 8 blocks this noisy
    assert paired_tost(a, b, margin=0.01).p_tost > 0.05


def test_paired_tost_on_blocks_that_do_not_vary():
    same = paired_tost([0.5, 0.5, 0.5], [0.4, 0.4, 0.4], margin=0.15)
    assert same.difference == pytest.approx(0.1) and same.p_tost == 0.0
    assert same.ci_low == pytest.approx(0.1) == pytest.approx(same.ci_high)
    assert same.p_differ == pytest.approx(2 / 2**3)
    assert paired_tost([0.5, 0.5], [0.2, 0.2], margin=0.15).p_tost == 1.0


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: paired_tost([0.5], [0.4]), r"one length >= 2; got shapes \(1,\) and \(1,\)"),
        (lambda: paired_tost([0.5, 0.4], [0.4]), r"got shapes \(2,\) and \(1,\)"),
        (lambda: paired_tost([0.5, 0.4], [0.4, 0.1], margin=1.5), r"margin must be in \(0, 1\)"),
        (lambda: paired_tost([0.5, 0.4], [0.4, 0.1], alpha=0.5), r"alpha must be in \(0, 0.5\)"),
    ],
)
def test_paired_tost_names_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_detectable_mean_gap_by_its_closed_form():
    z = NormalDist().inv_cdf
    want = (z(1 - 0.01 / 2) + z(0.9)) * 0.3 / math.sqrt(25)
    assert detectable_mean_gap(25, 0.3, alpha=0.01, power=0.9) == pytest.approx(want)


def test_the_sign_flip_tests_detectable_gap_and_its_elo():
    # 6 blocks: the smallest two-sided p-value is 2 / 64 = 0.031, above 0.01: nothing
    # is detectable at 0.01 however far apart; at 0.05 the z-test's closed form
    assert sign_flip_detectable_gap(0.2, 6, 0.01, 0.8) == math.inf
    assert sign_flip_detectable_gap(0.2, 1, 0.5, 0.8) == math.inf
    want = (Z(1 - 0.05 / 2) + Z(0.8)) * 0.2 / math.sqrt(6)
    assert sign_flip_detectable_gap(0.2, 6, 0.05, 0.8) == pytest.approx(want)
    # blocks that do not vary are taken to vary as much as a share can, sd 0.5
    assert sign_flip_detectable_gap(0.0, 8, 0.05, 0.8) == pytest.approx(want * 2.5 * (6 / 8) ** 0.5)
    # a mean score of 0.5 + delta is the Elo gap of the logistic model, 10 ** (elo / 400)
    # = s / (1 - s); none from a score of 1 on
    for delta in (0.0, 0.1, 0.25, 0.4):
        s = 0.5 + delta
        assert 10 ** (elo_of_gap(delta) / 400) == pytest.approx(s / (1 - s))
    assert elo_of_gap(0.5) == elo_of_gap(0.7) == math.inf


@pytest.mark.parametrize("level", [0.05, 0.01, 0.05 / 15, 0.05 / 60])
def test_the_fewest_blocks_that_can_reach_a_level(level):
    """n blocks that all go one way give the sign-flip test's smallest p-value, 2 / 2**n
    (computed by the test itself): at the fewest blocks it reaches the level, with one
    block less it cannot; by hand, 6 blocks for 0.05 and 12 for 0.05 / 60."""
    n = sign_flip_min_blocks(level)
    assert sign_flip_p(np.full(n, 0.25)) <= level < sign_flip_p(np.full(n - 1, 0.25))
    assert sign_flip_detectable_gap(0.2, n, level, 0.8) < math.inf
    assert sign_flip_detectable_gap(0.2, n - 1, level, 0.8) == math.inf
    assert {0.05: 6, 0.05 / 60: 12}.get(level, n) == n
    with pytest.raises(ValueError, match="level"):
        sign_flip_min_blocks(0.0)
