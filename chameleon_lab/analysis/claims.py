"""Verdicts that say what the data can say: multiple testing, equivalence and power.

A claim about agents ("MaxN beats Paranoid", "the two orderings play equally well") is
tested with some p-value; this module turns tests into verdicts that do not overstate.

* :func:`holm`: Holm's step-down adjustment of a family of p-values (Holm 1979), so that
  the chance of any false "supported" stays below the level however many claims.
* :func:`verdict`: "supported", "contradicted" or "open" from an adjusted p-value and
  the sign of the estimate.
* :func:`tost`: are two win rates equal within a margin? Two one-sided tests
  (Schuirmann 1987) say "equivalent", an exact test says "differs", else "undecided":
  failing to find a difference is not evidence of equality.
* :func:`paired_tost`: the same question for two versions of one agent played on the
  same blocks (paired by opening): the mean of the blocks' differences, a sign-flip
  test of "no difference" and two one-sided t-tests of "within the margin".
* :func:`sign_flip_p`: the two-sided sign-flip (permutation) test of a zero mean;
  :func:`sign_flip_min_blocks` the fewest blocks that can reach a level with it.
* :func:`detectable_mean_gap`, :func:`detectable_elo` and :func:`detectable_rate_gap`:
  the smallest gap a design detects with the given power, to say how large a
  difference an "open" verdict could still hide.

References: S. Holm, "A simple sequentially rejective multiple test procedure",
*Scandinavian Journal of Statistics* 6 (1979) 65-70. D. J. Schuirmann, "A comparison of
the two one-sided tests procedure and the power approach for assessing the equivalence
of average bioavailability", *Journal of Pharmacokinetics and Biopharmaceutics* 15
(1987) 657-680. A. Agresti and B. Caffo, "Simple and effective confidence intervals
for proportions and differences of proportions result from adding two successes and
two failures", *The American Statistician* 54 (2000) 280-288. J. Cohen, *Statistical
Power Analysis for the Behavioral Sciences*, 2nd ed., 1988 (the effect size ``h``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import confint_proportions_2indep, tost_proportions_2indep
from statsmodels.stats.weightstats import ttost_paired

from .sequential import bootstrap_mean

#: The test of a difference of two proportions used by :func:`tost`: Wald's test on the
#: proportions with one success and one failure added to each sample (Agresti and Caffo
#: 2000), unpooled variance; statsmodels' default for ``compare="diff"``, named here so
#: that a change of that default cannot change our results.
TOST_METHOD = "agresti-caffo"
VERDICTS = ("supported", "contradicted", "open")


def _check_alpha(alpha: float, name: str = "alpha") -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, Real) or not 0.0 < alpha < 0.5:
        raise ValueError(f"{name} must be in (0, 0.5), got {alpha!r}")
    return float(alpha)


def _check_probability(value: float, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not 0.0 < value < 1.0:
        raise ValueError(f"{name} must be in (0, 1), got {value!r}")
    return float(value)


def _whole(value: float, name: str, low: int) -> int:
    """``value`` as an int when it is a whole number >= ``low``, else ``ValueError``."""
    whole = not isinstance(value, bool) and (
        isinstance(value, Integral)
        or (isinstance(value, Real) and math.isfinite(value) and float(value).is_integer())
    )
    if not whole or int(value) < low:
        raise ValueError(f"{name} must be a whole number >= {low}, got {value!r}")
    return int(value)


def holm(p_values: ArrayLike) -> np.ndarray:
    """Holm-adjusted p-values (Holm 1979), in the order given: sorted ascending, the
    ``i``-th smallest (from 0) is multiplied by ``m - i``, then the running maximum is
    taken and capped at 1. Rejecting where the adjusted value is below ``alpha`` keeps
    the family-wise error rate at ``alpha``. Computed by ``statsmodels``'
    ``multipletests(method="holm")``.

    ``p_values``: a one-dimensional sequence of numbers in [0, 1] (``ValueError``
    otherwise); an empty one gives an empty array.
    """
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1:
        raise ValueError(f"p_values must be one-dimensional, got shape {p.shape}")
    if not np.all((p >= 0) & (p <= 1)):  # also catches NaN
        bad = p[~((p >= 0) & (p <= 1))]
        raise ValueError(f"p-values must be in [0, 1], got {bad.tolist()}")
    if p.size == 0:
        return p
    return multipletests(p, method="holm")[1]


def verdict(p_adjusted: float, estimate: float, alpha: float = 0.05) -> str:
    """The verdict on a claim: "supported" when ``p_adjusted < alpha`` and the estimate
    favours the claim
    (``estimate > 0``: state the claim so that a positive estimate favours it),
    "contradicted" when ``p_adjusted < alpha`` and the estimate goes against it
    (``estimate < 0``), "open" otherwise (an estimate of exactly 0 included).

    ``p_adjusted`` is the claim's p-value after the family's adjustment (:func:`holm`)
    from a two-sided test; ``alpha`` in (0, 0.5).
    """
    alpha = _check_alpha(alpha)
    if isinstance(p_adjusted, bool) or not isinstance(p_adjusted, Real):
        raise ValueError(f"p_adjusted must be a number in [0, 1], got {p_adjusted!r}")
    if not 0.0 <= p_adjusted <= 1.0:
        raise ValueError(f"p_adjusted must be in [0, 1], got {p_adjusted!r}")
    if isinstance(estimate, bool) or not isinstance(estimate, Real) or math.isnan(estimate):
        raise ValueError(f"estimate must be a number (not NaN), got {estimate!r}")
    if p_adjusted < alpha and estimate > 0:
        return "supported"
    if p_adjusted < alpha and estimate < 0:
        return "contradicted"
    return "open"


@dataclass(frozen=True)
class Equivalence:
    """What :func:`tost` found about two win rates ``a`` and ``b``.

    ``difference`` is the observed ``rate_a - rate_b``; ``ci_low`` and ``ci_high`` its
    ``1 - 2 alpha`` interval (the Agresti-Caffo interval of :data:`TOST_METHOD`, which
    lies inside ``(-margin, margin)`` exactly when the TOST rejects); ``p_lower`` tests
    ``difference <= -margin`` against ``> -margin``, ``p_upper`` tests ``difference >=
    margin`` against ``< margin``, and ``p_tost`` is the larger; ``p_differ`` is the
    two-sided Fisher exact p-value of equal rates. ``equivalent`` is ``p_tost <
    alpha``, ``differs`` is ``p_differ < alpha``, and ``verdict`` is "differs" when the
    rates differ (even by less than the margin: a detected difference is not called
    equivalence), else "equivalent" when the TOST rejects, else "undecided".
    """

    difference: float
    ci_low: float
    ci_high: float
    p_lower: float
    p_upper: float
    p_tost: float
    p_differ: float
    equivalent: bool
    differs: bool
    margin: float
    alpha: float
    verdict: str


def tost(
    successes_a: int,
    n_a: int,
    successes_b: int,
    n_b: int,
    margin: float = 0.15,
    alpha: float = 0.05,
) -> Equivalence:
    """Two one-sided tests (Schuirmann 1987) of whether two win rates agree within
    ``+- margin`` (a difference of rates), each at level ``alpha``; see
    :class:`Equivalence` for what it returns and how the verdict is reached.

    The one-sided tests are ``statsmodels``' ``tost_proportions_2indep`` with
    ``compare="diff"`` and ``method="agresti-caffo"`` (a Wald test after adding one
    success and one failure to each sample, unpooled variance); the test of a
    difference is ``scipy.stats.fisher_exact``, which keeps its level at any sample
    size. Counts must be whole numbers with ``0 <= successes <= n`` and ``n >= 1``,
    ``margin`` in (0, 1) and ``alpha`` in (0, 0.5); else ``ValueError``.
    """
    n_a, n_b = _whole(n_a, "n_a", 1), _whole(n_b, "n_b", 1)
    k_a, k_b = _whole(successes_a, "successes_a", 0), _whole(successes_b, "successes_b", 0)
    for k, n, side in ((k_a, n_a, "a"), (k_b, n_b, "b")):
        if k > n:
            raise ValueError(f"successes_{side} = {k} must be at most n_{side} = {n}")
    margin = _check_probability(margin, "margin")
    alpha = _check_alpha(alpha)
    with np.errstate(divide="ignore", invalid="ignore"):  # its unused ratios of rates
        res = tost_proportions_2indep(
            k_a, n_a, k_b, n_b, -margin, margin, method=TOST_METHOD, compare="diff"
        )
        low, high = confint_proportions_2indep(
            k_a, n_a, k_b, n_b, method=TOST_METHOD, compare="diff", alpha=2 * alpha
        )
    p_lower = float(res.results_larger.pvalue)
    p_upper = float(res.results_smaller.pvalue)
    p_tost = max(p_lower, p_upper)
    p_differ = float(stats.fisher_exact([[k_a, n_a - k_a], [k_b, n_b - k_b]]).pvalue)
    equivalent, differs = p_tost < alpha, p_differ < alpha
    return Equivalence(
        difference=k_a / n_a - k_b / n_b,
        ci_low=float(low),
        ci_high=float(high),
        p_lower=p_lower,
        p_upper=p_upper,
        p_tost=p_tost,
        p_differ=p_differ,
        equivalent=equivalent,
        differs=differs,
        margin=margin,
        alpha=alpha,
        verdict="differs" if differs else "equivalent" if equivalent else "undecided",
    )


def _check_power(alpha: float, power: float) -> tuple[float, float]:
    return _check_alpha(alpha), _check_probability(power, "power")


def detectable_mean_gap(
    blocks: int, sd: float, alpha: float = 0.05, power: float = 0.8, two_sided: bool = True
) -> float:
    """The smallest shift of the mean of ``blocks`` independent observations with
    standard deviation ``sd`` that a z-test detects with probability ``power`` at level
    ``alpha``: ``(z(1 - alpha / 2) + z(power)) * sd / sqrt(blocks)`` (``z(1 - alpha)``
    when ``two_sided`` is false; the two-sided test's chance of rejecting on the wrong
    side is neglected). ``blocks`` a whole number >= 1, ``sd`` > 0, ``alpha`` in (0,
    0.5), ``power`` in (0, 1); else ``ValueError``."""
    blocks = _whole(blocks, "blocks", 1)
    if isinstance(sd, bool) or not isinstance(sd, Real) or not 0.0 < sd < math.inf:
        raise ValueError(f"sd must be a finite number > 0, got {sd!r}")
    alpha, power = _check_power(alpha, power)
    z_alpha = stats.norm.ppf(1 - alpha / 2 if two_sided else 1 - alpha)
    return float((z_alpha + stats.norm.ppf(power)) * sd / math.sqrt(blocks))


def detectable_elo(
    blocks: int, sd: float, alpha: float = 0.05, power: float = 0.8, two_sided: bool = True
) -> float:
    """The smallest Elo gap that a z-test on the mean of ``blocks`` block scores (each
    the score of one agent against the other in a block, from 0 to 1, with standard
    deviation ``sd`` across blocks) detects with probability ``power`` at level
    ``alpha``.

    The mean score must lie ``delta`` above 0.5 (:func:`detectable_mean_gap`), and a
    score ``s = 0.5 + delta`` is mapped to Elo with the logistic model, ``elo = -400 *
    log10(1 / s - 1)``. Returns ``inf`` when ``delta >= 0.5`` (no score is high
    enough). Bad arguments raise ``ValueError`` as in :func:`detectable_mean_gap`.
    """
    return elo_of_gap(detectable_mean_gap(blocks, sd, alpha, power, two_sided))


def elo_of_gap(delta: float) -> float:
    """The Elo gap of a mean score ``delta`` above 0.5 by the logistic model, ``-400 *
    log10(1 / (0.5 + delta) - 1)``; ``inf`` from 0.5 on (no score is that high)."""
    if delta >= 0.5:
        return math.inf
    return float(-400.0 * math.log10(1.0 / (0.5 + delta) - 1.0))


def sign_flip_detectable_gap(sd: float, blocks: int, level: float, power: float) -> float:
    """The smallest mean paired difference that ``blocks`` paired blocks detect with the
    sign-flip test (:func:`sign_flip_p`) at ``level`` with ``power``, by
    :func:`detectable_mean_gap`: ``inf`` where the test cannot reach ``level`` (its
    smallest two-sided p-value is ``2 / 2**blocks``); where the differences do not vary
    (``sd`` 0), with a standard deviation of 0.5, the most a share of wins varies."""
    if blocks < 2 or 2.0 ** (1 - blocks) > level:
        return math.inf
    return detectable_mean_gap(blocks, sd if sd > 0 else 0.5, alpha=level, power=power)


def sign_flip_min_blocks(level: float) -> int:
    """The fewest blocks whose two-sided sign-flip test (:func:`sign_flip_p`) can reach
    ``level``: its smallest p-value is ``2 / 2**blocks``, so fewer blocks cannot decide
    at that level whatever they show. ``level`` in (0, 1); else ``ValueError``."""
    level = _check_probability(level, "level")
    return max(2, math.ceil(1.0 - math.log2(level)))


def detectable_rate_gap(
    n_a: int, n_b: int, p: float, alpha: float = 0.05, power: float = 0.8, two_sided: bool = True
) -> float:
    """The smallest gap ``d`` between two win rates, ``p`` for side b and ``p + d`` for
    side a, that a test on ``n_a`` and ``n_b`` games detects with probability
    ``power`` at level ``alpha``.

    Computed on the arcsine scale of Cohen's effect size ``h = 2 asin(sqrt(p_a)) - 2
    asin(sqrt(p_b))``, where the two rates' estimates are nearly normal with variance
    ``1 / n``: ``statsmodels``' ``NormalIndPower`` solves for the ``h`` the design
    detects (``ratio = n_b / n_a``), and ``p_a = sin(asin(sqrt(p)) + h / 2) ** 2``.
    Returns ``inf`` when even ``p_a = 1`` is not enough. ``n_a``, ``n_b`` whole numbers
    >= 1, ``p`` in (0, 1), ``alpha`` in (0, 0.5), ``power`` in (0, 1); else
    ``ValueError``.
    """
    n_a, n_b = _whole(n_a, "n_a", 1), _whole(n_b, "n_b", 1)
    p = _check_probability(p, "p")
    alpha, power = _check_power(alpha, power)
    h = NormalIndPower().solve_power(
        effect_size=None,
        nobs1=n_a,
        alpha=alpha,
        power=power,
        ratio=n_b / n_a,
        alternative="two-sided" if two_sided else "larger",
    )
    angle = math.asin(math.sqrt(p)) + float(np.squeeze(h)) / 2.0
    if angle >= math.pi / 2:
        return math.inf
    return math.sin(angle) ** 2 - p


def sign_flip_p(deviations: ArrayLike) -> float:
    """Two-sided p-value of "the mean of ``deviations`` is 0", by flipping their signs
    (the permutation test of a symmetric distribution about 0; exact up to 2**14 of the
    ``2**n`` flips, a Monte Carlo of 2**14 with seed 0 beyond). 1 for no deviations or
    all of them 0. The smallest p-value ``n`` deviations can give is ``2 / 2**n``."""
    x = np.asarray(deviations, dtype=float)
    if x.size == 0 or np.allclose(x, 0.0):
        return 1.0
    res = stats.permutation_test(
        (x,), np.mean, permutation_type="samples", n_resamples=2**14, random_state=0
    )
    return float(res.pvalue)


@dataclass(frozen=True)
class PairedEquivalence:
    """What :func:`paired_tost` found about two versions ``a`` and ``b`` played on the
    same ``blocks``: ``difference`` the mean over blocks of ``a - b``, ``ci_low`` and
    ``ci_high`` its bootstrap interval over blocks at ``confidence``, ``sd`` the blocks'
    standard deviation of ``a - b``, ``p_differ`` the sign-flip p-value of no
    difference (:func:`sign_flip_p`), ``p_tost`` the larger p-value of the two one-sided
    t-tests of ``difference <= -margin`` and ``difference >= margin``."""

    blocks: int
    difference: float
    ci_low: float
    ci_high: float
    sd: float
    p_differ: float
    p_tost: float
    margin: float
    alpha: float


def paired_tost(
    a: ArrayLike,
    b: ArrayLike,
    margin: float = 0.15,
    alpha: float = 0.05,
    confidence: float = 0.95,
    seed: int = 0,
) -> PairedEquivalence:
    """Two versions of one agent, each with one number per block (a win share), the
    blocks paired (same opening, same seatings): the mean difference ``a - b`` with a
    bootstrap interval over blocks (:func:`.sequential.bootstrap_mean`), the sign-flip
    test of no difference, and ``statsmodels``' ``ttost_paired`` for equivalence
    within ``+- margin``.

    Pairing removes what the opening does to both versions, so a handful of blocks can
    decide where the games, counted as independent, could not (the games of one block
    share an opening and are not independent). ``a`` and ``b`` one-dimensional of one
    length >= 2, ``margin`` in (0, 1), ``alpha`` in (0, 0.5), ``confidence`` in (0, 1);
    else ``ValueError``.
    """
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.ndim != 1 or x.shape != y.shape or x.size < 2:
        raise ValueError(
            f"a and b must be one-dimensional, of one length >= 2; got shapes {x.shape} "
            f"and {y.shape}"
        )
    margin, alpha = _check_probability(margin, "margin"), _check_alpha(alpha)
    confidence = _check_probability(confidence, "confidence")
    d = x - y
    low, high, _ = bootstrap_mean(d, confidence, seed=seed, bounds=(-1.0, 1.0))
    if np.ptp(d) == 0:  # every block alike: no spread for the t-tests, the value decides
        p_tost = 0.0 if abs(d[0]) < margin else 1.0
    else:
        p_tost = float(ttost_paired(x, y, -margin, margin)[0])
    return PairedEquivalence(
        blocks=int(d.size),
        difference=float(d.mean()),
        ci_low=low,
        ci_high=high,
        sd=float(np.std(d, ddof=1)),
        p_differ=sign_flip_p(d),
        p_tost=p_tost,
        margin=margin,
        alpha=alpha,
    )
