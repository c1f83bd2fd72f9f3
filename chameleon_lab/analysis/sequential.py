"""Head-to-head tests of two agents on block scores, as the engine-testing frameworks run them.

A *block* is one opening played with every seating of a balanced design: for two players
a game pair (the same opening, the seats exchanged), for more players a set of games. The
*block score* of agent A against agent B is, over the games of the block in which both
sat, the mean of 1 (A finished above B), 1/2 (same place) and 0 (below), a number in
[0, 1]. Blocks, not games, are the independent observations: the games of a block share
an opening and are correlated, while different openings are not. For a game pair the
block score takes the five values 0, 1/4, 1/2, 3/4, 1 (the pentanomial model).

Fishtest (Stockfish's testing framework, https://github.com/official-stockfish/fishtest)
and OpenBench decide whether a change is an improvement with a sequential probability
ratio test (Wald, A. (1945), "Sequential tests of statistical hypotheses", Annals of
Mathematical Statistics 16(2), 117-186) between H0, "A is ``elo0`` Elo stronger than B",
and H1, "A is ``elo1`` Elo stronger", stopping as soon as the evidence is strong enough.
The distribution of the block scores is unknown beyond its mean, so the plain SPRT
becomes the generalised SPRT, whose log-likelihood ratio Michel Van den Bergh
approximates from the sample mean and variance alone ("A practical introduction to the
GSPRT", https://www.cantate.be/Fishtest/GSPRT_approximation.pdf, equation 2.1; Fishtest's
``LLR_alt2``).

* :func:`elo_to_score`, :func:`score_to_elo`: the logistic Elo model.
* :class:`SPRT`: the test's parameters, Wald's bounds and the log-likelihood ratio of a
  list of block scores; :meth:`SPRT.status` reads it as a :class:`SPRTResult`.
* :class:`LevelSPRT`: two one-sided SPRTs, one each way, for the claim that two agents
  are level (no gap of a margin either way).
* :func:`sequential_test`: the decision at the first block where the log-likelihood
  ratio leaves Wald's bounds, the same however many blocks were played past it.
* :func:`first_crossings`: the same for many rows of block scores at once.
* :func:`fixed_games`: the Elo difference of a fixed number of blocks with a bootstrap
  interval over blocks (an :class:`EloEstimate`); :func:`bootstrap_mean` that interval
  for the mean of any block values.
* :func:`pentanomial`, :func:`simulate_blocks`, :func:`error_rates`: synthetic game
  pairs, and the error rates and lengths of a planned test measured on them.

One departure from Fishtest's formula, for the small samples of this workbench: the
variance in the log-likelihood ratio is the sample variance shrunk towards 1/4, the
largest variance a score in [0, 1] can have, with the weight of ``SPRT.prior_blocks``
blocks (2 by default). Fishtest tests gaps of a few Elo and decides after tens of
thousands of game pairs, where the sample variance is exact enough; the gaps between
search agents are tens of Elo, decided after tens to hundreds of blocks, where the
plain formula trusts a variance estimated from a handful of blocks: two equal blocks
(variance 0) decide at once, two blocks of 3/4 and 1 accept 50 Elo. Simulated with
bounds 0 and 50 Elo, alpha = beta = 0.05 and draw ratios 0, 0.3 and 0.6 (20,000 runs
each), the plain formula accepts the wrong hypothesis 10 to 31 % of the time (still 6
to 14 % when a zero variance gives a ratio of 0 instead, as some testers do); the
shrunk variance brings both error rates to 3.4 to 5.4 % (``tests/test_sequential.py``
checks both). ``SPRT(prior_blocks=0)`` is the plain formula.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special, stats

#: The block scores of a game pair: A's points over its two games, halved.
PENTANOMIAL_VALUES: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
#: The draw probability per game that :func:`pentanomial` and :func:`error_rates` assume
#: unless told: a middling guess, to be replaced by the draw rate the games show.
DEFAULT_DRAW_RATIO = 0.3
#: The largest variance of a score in [0, 1] (half the blocks 0, half 1): the variance
#: the log-likelihood ratio's estimate is shrunk towards (:class:`SPRT`).
MAX_VARIANCE = 0.25

_NATS_PER_ELO = math.log(10.0) / 400.0
_Z95 = float(stats.norm.ppf(0.975))
_Decision = Literal["H0", "H1", "continue"]
_DECISIONS: dict[int, _Decision] = {1: "H1", -1: "H0", 0: "continue"}


def _scalar_or_array(x: NDArray[np.float64]) -> float | NDArray[np.float64]:
    return float(x) if np.ndim(x) == 0 else x


def elo_to_score(elo: ArrayLike) -> float | NDArray[np.float64]:
    """The expected score of a player ``elo`` Elo stronger than its opponent.

    The logistic Elo model, score = 1 / (1 + 10 ** (-elo / 400)): 0.5 at a gap of 0,
    about 0.64 at 100 Elo, 0.91 at 400.

    Parameters
        elo : float or array_like
            Elo differences (any finite or infinite numbers).

    Returns
        float or numpy.ndarray
            The expected scores in [0, 1], a float for a scalar ``elo``, else an array
            of its shape.
    """
    score = special.expit(np.asarray(elo, dtype=float) * _NATS_PER_ELO)
    return _scalar_or_array(score)


def score_to_elo(score: ArrayLike) -> float | NDArray[np.float64]:
    """The Elo difference at which the logistic model expects ``score``.

    The inverse of :func:`elo_to_score`, 400 * log10(score / (1 - score)). Nothing is
    clipped: a score of 0 or 1 (every block lost or won) maps to ``-inf`` or ``+inf``
    (such data put no bound on the gap), and a score outside [0, 1] to NaN.

    Parameters
        score : float or array_like
            Expected or observed scores.

    Returns
        float or numpy.ndarray
            Elo differences, a float for a scalar ``score``, else an array of its shape.
    """
    elo = special.logit(np.asarray(score, dtype=float)) / _NATS_PER_ELO
    return _scalar_or_array(elo)


def _finite(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise ValueError(f"{name}={value!r} is not a finite number")
    return float(value)


def _block_scores(scores: ArrayLike, ndim: int = 1) -> NDArray[np.float64]:
    """``scores`` as a float array of ``ndim`` dimensions, every value in [0, 1]."""
    x = np.asarray(scores, dtype=float)
    if x.ndim != ndim:
        raise ValueError(f"block scores must be a {ndim}-D array, got shape {x.shape}")
    bad = ~((x >= 0.0) & (x <= 1.0))  # NaN fails both comparisons
    if bad.any():
        raise ValueError(f"block scores must lie in [0, 1]; got {float(x[bad][0])!r}")
    return x


@dataclass(frozen=True)
class SPRTResult:
    """Where a sequential test stands after ``blocks`` blocks.

    Attributes
        decision : {"H1", "H0", "continue"}
            ``"H1"``: the log-likelihood ratio rose above ``upper``, the data favour a
            gap of ``elo1`` (or more) over one of ``elo0``; ``"H0"``: it fell below
            ``lower``, they favour ``elo0`` (or less); ``"continue"``: neither yet.
        llr, lower, upper : float
            The log-likelihood ratio and Wald's bounds.
        blocks : int
            The number of blocks the result describes.
        score, elo : float
            The mean block score and its Elo difference (NaN without blocks).
        elo_low, elo_high : float
            A 95 % normal interval of the mean score, mean +- 1.96 * sqrt(v / blocks)
            with v the sample variance (ddof 0), clipped into [0, 1] and mapped to Elo
            (so an end at 0 or 1 is ``-inf`` or ``+inf``); NaN with fewer than 2 blocks.
    """

    decision: _Decision
    llr: float
    lower: float
    upper: float
    blocks: int
    score: float
    elo: float
    elo_low: float
    elo_high: float

    def __str__(self) -> str:
        head = (
            f"{self.decision} accepted after {self.blocks} blocks"
            if self.decision != "continue"
            else f"no decision after {self.blocks} blocks"
        )
        if self.blocks == 0:
            gap = "no blocks yet"
        elif self.blocks == 1:
            gap = f"{self.elo:+.0f} Elo (no interval from one block)"
        else:
            gap = f"{self.elo:+.0f} Elo (95 % {self.elo_low:+.0f} to {self.elo_high:+.0f})"
        return f"{head}: {gap}, LLR {self.llr:.2f} in [{self.lower:.2f}, {self.upper:.2f}]"


@dataclass(frozen=True)
class SPRT:
    """A sequential probability ratio test of H0, "A is ``elo0`` Elo stronger than B",
    against H1, "A is ``elo1`` Elo stronger", on block scores.

    The defaults suit search agents, whose differences are tens of Elo: a gap of 50 Elo
    (expected score 0.571) is found 95 % of the time and no gap accepted as one 5 % of
    the time, after 60 to 135 game pairs on average (fewer with more draws).

    Attributes
        elo0, elo1 : float
            The Elo gaps of H0 and H1, finite, ``elo0`` below ``elo1``.
        alpha, beta : float
            The error rates aimed at: accepting H1 when H0 holds, and H0 when H1 holds;
            each strictly inside (0, 0.5).
        prior_blocks : float
            The weight, in blocks, of the prior guess :data:`MAX_VARIANCE` that the
            sample variance is shrunk towards (see :meth:`llr`); 0 is the plain formula.

    Raises
        ValueError
            When a parameter is not a finite number, ``elo0 >= elo1``, ``alpha`` or
            ``beta`` lies outside (0, 0.5), or ``prior_blocks`` is negative; the message
            names the value and what it must be.
    """

    elo0: float = 0.0
    elo1: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05
    prior_blocks: float = 2.0

    def __post_init__(self) -> None:
        elo0, elo1 = _finite("elo0", self.elo0), _finite("elo1", self.elo1)
        if elo0 >= elo1:
            raise ValueError(
                f"elo0={self.elo0!r} is not below elo1={self.elo1!r}: elo0 (the gap of H0) "
                "must be below elo1 (the gap of H1)"
            )
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not (isinstance(value, Real) and 0 < value < 0.5):
                raise ValueError(
                    f"{name}={value!r} is not a number strictly inside (0, 0.5), the valid "
                    "range of an error rate of the SPRT"
                )
        if _finite("prior_blocks", self.prior_blocks) < 0:
            raise ValueError(f"prior_blocks={self.prior_blocks!r} must be at least 0")

    @property
    def lower(self) -> float:
        """Wald's lower bound, log(beta / (1 - alpha)): below it H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Wald's upper bound, log((1 - beta) / alpha): above it H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    @property
    def score0(self) -> float:
        """The expected block score under H0, ``elo_to_score(elo0)``."""
        return float(elo_to_score(self.elo0))

    @property
    def score1(self) -> float:
        """The expected block score under H1, ``elo_to_score(elo1)``."""
        return float(elo_to_score(self.elo1))

    def _llr(self, n: ArrayLike, mean: ArrayLike, var: ArrayLike) -> NDArray[np.float64]:
        """The log-likelihood ratio from the moments of ``n`` blocks (broadcast)."""
        n, mean, var = (np.asarray(a, dtype=float) for a in (n, mean, var))
        s0, s1, w = self.score0, self.score1, self.prior_blocks
        var = (n * var + w * MAX_VARIANCE) / np.maximum(n + w, 1.0)
        drift = n * (s1 - s0) * (2.0 * mean - s0 - s1) / 2.0
        with np.errstate(divide="ignore", invalid="ignore"):
            llr = np.where(var > 0, drift / var, np.sign(drift) * np.inf)
        return np.where((n < 2) | (drift == 0), 0.0, llr)

    def llr(self, scores: ArrayLike) -> float:
        """The generalised log-likelihood ratio of H1 against H0 after ``scores``.

        Van den Bergh's approximation as Fishtest uses it: with ``n`` blocks, sample
        mean m, s0 = ``elo_to_score(elo0)`` and s1 = ``elo_to_score(elo1)``,
        LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v). Here v is the sample variance
        (ddof 0) shrunk towards :data:`MAX_VARIANCE`, v = (n var + p / 4) / (n + p) with
        p = ``prior_blocks`` (the module docstring says why): it is never 0 while
        p > 0, and its pull fades as blocks accrue. With p = 0 and a zero variance (every
        block alike) the ratio is the formula's limit, ``+inf`` or ``-inf`` by the sign of
        2 m - s0 - s1 (0 exactly between). Fewer than 2 blocks give 0: one block says
        nothing about the spread.

        Parameters
            scores : array_like
                Block scores of A against B in [0, 1] (1-D, in the order played).

        Returns
            float
                The log-likelihood ratio, positive when the data favour H1.
        """
        x = _block_scores(scores)
        if x.size < 2:
            return 0.0
        # centred on the first block, so that equal blocks have a variance of exactly 0
        return float(self._llr(x.size, x.mean(), np.var(x - x[0])))

    def status(self, scores: ArrayLike) -> SPRTResult:
        """The test after all of ``scores``, judged on their log-likelihood ratio alone.

        This reads the last block only: a test that watches the ratio after every block
        must stop at the first crossing of a bound, which :func:`sequential_test` finds.

        Parameters
            scores : array_like
                Block scores of A against B in [0, 1] (1-D).

        Returns
            SPRTResult
                ``"H1"`` above ``upper``, ``"H0"`` below ``lower``, else ``"continue"``.
        """
        x = _block_scores(scores)
        llr = self.llr(x)
        decision = "H1" if llr > self.upper else "H0" if llr < self.lower else "continue"
        return _result(self, x, llr, decision)


def _result(sprt: SPRT, x: NDArray[np.float64], llr: float, decision: _Decision) -> SPRTResult:
    """An :class:`SPRTResult` over the block scores ``x`` with a given ratio and decision."""
    n = int(x.size)
    score = float(x.mean()) if n else math.nan
    low = high = math.nan
    if n >= 2:
        half = _Z95 * math.sqrt(float(np.var(x - x[0])) / n)
        low, high = min(max(score - half, 0.0), 1.0), min(max(score + half, 0.0), 1.0)
    return SPRTResult(
        decision=decision,
        llr=float(llr),
        lower=sprt.lower,
        upper=sprt.upper,
        blocks=n,
        score=score,
        elo=float(score_to_elo(score)),
        elo_low=float(score_to_elo(low)),
        elo_high=float(score_to_elo(high)),
    )


def _llr_paths(x: NDArray[np.float64], sprt: SPRT) -> NDArray[np.float64]:
    """The log-likelihood ratio after each block of each row of ``x`` (same shape)."""
    k = np.arange(1, x.shape[1] + 1)
    centred = x - x[:, :1]  # equal blocks: a variance of exactly 0, as in SPRT.llr
    mean = np.cumsum(centred, axis=1) / k
    var = np.maximum(np.cumsum(centred * centred, axis=1) / k - mean * mean, 0.0)
    return sprt._llr(k, mean + x[:, :1], var)


def first_crossings(
    scores: ArrayLike, sprt: SPRT
) -> tuple[NDArray[np.int8], NDArray[np.int64], NDArray[np.float64]]:
    """Each row of ``scores`` as its own sequential test, stopped at its first decision.

    Vectorised over the rows: the running means and variances come from cumulative
    sums, the first block where the log-likelihood ratio leaves [``lower``, ``upper``]
    from an argmax. Block for block this is :meth:`SPRT.llr` of the blocks so far.

    Parameters
        scores : array_like
            A 2-D array of block scores in [0, 1], one test per row, blocks in order.
        sprt : SPRT
            The test.

    Returns
        decisions : numpy.ndarray of int8
            Per row 1 (H1 accepted), -1 (H0 accepted) or 0 (no decision in the row).
        blocks : numpy.ndarray of int64
            Per row the blocks up to and including the decision (the row's length when
            it has none).
        llr : numpy.ndarray of float64
            Per row the log-likelihood ratio after ``blocks`` blocks.
    """
    x = _block_scores(scores, ndim=2)
    runs, n = x.shape
    if n == 0:
        return np.zeros(runs, np.int8), np.zeros(runs, np.int64), np.zeros(runs)
    llr = _llr_paths(x, sprt)
    outside = (llr < sprt.lower) | (llr > sprt.upper)
    crossed = outside.any(axis=1)
    stop = np.where(crossed, outside.argmax(axis=1), n - 1)
    at_stop = llr[np.arange(runs), stop]
    decisions = np.where(crossed, np.where(at_stop > sprt.upper, 1, -1), 0).astype(np.int8)
    return decisions, (stop + 1).astype(np.int64), at_stop


def sequential_test(scores: ArrayLike, sprt: SPRT | LevelSPRT) -> SPRTResult:
    """The sequential test over ``scores``, stopped at the first block where the
    log-likelihood ratio leaves [``lower``, ``upper``].

    A study calls this after each batch of blocks. When the ratio crossed a bound the
    result describes the blocks up to that crossing and its decision, exactly what a
    test that stopped there would have said: blocks played past it (a parallel batch
    overshooting) change nothing. Otherwise the decision is ``"continue"`` over all
    blocks.

    Parameters
        scores : array_like
            Block scores of A against B in [0, 1] (1-D, in the order played).
        sprt : SPRT or LevelSPRT
            The test (a :class:`LevelSPRT`: "H0" level, "H1" they differ).

    Returns
        SPRTResult
            The decision, the ratio at the stop and the Elo estimate of the blocks up
            to it.
    """
    x = _block_scores(scores)
    if x.size == 0:
        return _result(sprt if isinstance(sprt, SPRT) else sprt.ahead, x, 0.0, "continue")
    if isinstance(sprt, LevelSPRT):
        return _level_test(x, sprt)
    decisions, blocks, llr = first_crossings(x[np.newaxis, :], sprt)
    return _result(sprt, x[: int(blocks[0])], float(llr[0]), _DECISIONS[int(decisions[0])])


@dataclass(frozen=True)
class LevelSPRT:
    """A sequential test that two agents are level: the one-sided :class:`SPRT`
    ``ahead`` ("A is ``margin_elo`` stronger" against "level") on the block scores
    ``x`` and the same test on ``1 - x`` (B ``margin_elo`` stronger), side by side.

    The one-sided SPRT of a "stronger" claim stops at H0 as soon as a gap of
    ``margin_elo`` in A's favour is unlikely, however likely one in B's favour is, so it
    cannot establish that two agents are level. This pair can: it decides "H0" (level:
    neither is ``margin_elo`` stronger) once both tests have accepted their H0, and "H1"
    (they differ) as soon as either accepts its H1; until then it continues. Each
    wrong "level" (a gap of ``margin_elo`` or more either way) has probability at most
    ``beta``; a wrong "differs" (no gap) at most ``2 alpha`` (either test).

    Attributes
        margin_elo : float
            The gap either way that "level" excludes, finite and positive.
        alpha, beta, prior_blocks : float
            As in :class:`SPRT`, for each of the two tests.
    """

    margin_elo: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05
    prior_blocks: float = 2.0

    def __post_init__(self) -> None:
        if _finite("margin_elo", self.margin_elo) <= 0:
            raise ValueError(f"margin_elo={self.margin_elo!r} must be above 0")
        _ = self.ahead  # the one-sided test checks alpha, beta and prior_blocks

    @property
    def ahead(self) -> SPRT:
        """The test of "A is ``margin_elo`` stronger" against "level"."""
        return SPRT(0.0, self.margin_elo, self.alpha, self.beta, self.prior_blocks)


def _level_test(x: NDArray[np.float64], test: LevelSPRT) -> SPRTResult:
    """:func:`sequential_test` of a :class:`LevelSPRT`: the two tests' first crossings
    combined (the first "H1" decides; else the later "H0" once both have one); the
    ratio and bounds reported are those of the test that decided last (A's while both
    continue)."""
    pair = np.stack([x, 1.0 - x])
    decisions, blocks, llr = first_crossings(pair, test.ahead)
    crossed = decisions != 0
    if (decisions == 1).any():
        i = int(np.argmin(np.where(decisions == 1, blocks, x.size + 1)))
        decision: _Decision = "H1"
    elif crossed.all():
        i, decision = int(np.argmax(blocks)), "H0"
    else:
        i, decision = int(np.argmin(crossed)), "continue"
    n = int(blocks[i]) if decision != "continue" else x.size
    return _result(test.ahead, x[:n], float(llr[i]), decision)


@dataclass(frozen=True)
class EloEstimate:
    """The Elo difference of a fixed number of blocks, with a bootstrap interval.

    Attributes
        blocks : int
            The number of blocks.
        score, elo : float
            The mean block score and its Elo difference.
        elo_low, elo_high : float
            The bootstrap interval of the mean score mapped to Elo.
        confidence : float
            The interval's confidence level.
        method : {"BCa", "percentile"}
            The bootstrap interval computed.
    """

    blocks: int
    score: float
    elo: float
    elo_low: float
    elo_high: float
    confidence: float
    method: str

    def __str__(self) -> str:
        return (
            f"{self.elo:+.0f} Elo ({100 * self.confidence:g} % {self.elo_low:+.0f} to "
            f"{self.elo_high:+.0f}, {self.method} bootstrap over {self.blocks} blocks)"
        )


def bootstrap_mean(
    x: NDArray[np.float64],
    confidence: float = 0.95,
    n_resamples: int = 9999,
    seed: int = 0,
    method: str = "BCa",
    bounds: tuple[float, float] = (0.0, 1.0),
) -> tuple[float, float, str]:
    """The bootstrap interval of the mean of the blocks' values ``x``
    (``scipy.stats.bootstrap``, clipped into ``bounds``: [0, 1] for scores, [-1, 1] for
    differences of shares) and the method that gave it: ``method``, or the percentile
    interval when every block is alike or ``method`` gives a non-finite end."""
    methods = ["percentile"] if np.ptp(x) == 0 else list(dict.fromkeys([method, "percentile"]))
    for used in methods:
        ci = stats.bootstrap(
            (x,),
            np.mean,
            n_resamples=n_resamples,
            confidence_level=confidence,
            method=used,
            random_state=np.random.default_rng(seed),
        ).confidence_interval
        if np.isfinite(ci.low) and np.isfinite(ci.high):
            break
    low, high = (min(max(float(v), bounds[0]), bounds[1]) for v in (ci.low, ci.high))
    return low, high, used


def fixed_games(
    scores: ArrayLike,
    confidence: float = 0.95,
    n_resamples: int = 9999,
    seed: int = 0,
    method: Literal["BCa", "percentile"] = "BCa",
) -> EloEstimate:
    """The Elo difference of A over B from all of ``scores``, with a bootstrap interval.

    For a study of a fixed number of blocks decided in advance (no peeking): the
    interval resamples whole blocks (``scipy.stats.bootstrap`` of their mean), so it
    keeps each opening's games together, and maps the interval of the mean score to
    Elo. BCa (the default) corrects the percentile interval for bias and skew, but is
    undefined when every block has the same score; then, and whenever BCa's ends come
    out non-finite, the percentile interval is used instead (``method`` says which),
    which on constant data is the single value itself: no spread seen, more blocks
    needed.

    Parameters
        scores : array_like
            Block scores of A against B in [0, 1] (1-D, at least 2).
        confidence : float
            The interval's confidence level, in (0, 1).
        n_resamples : int
            Bootstrap resamples.
        seed : int
            Seed of the resampling: the same seed gives the same interval.
        method : {"BCa", "percentile"}
            The bootstrap interval to try first.

    Returns
        EloEstimate
    """
    x = _block_scores(scores)
    if x.size < 2:
        raise ValueError(f"fixed_games needs at least 2 blocks, got {x.size}")
    if not 0 < _finite("confidence", confidence) < 1:
        raise ValueError(f"confidence={confidence!r} must lie strictly inside (0, 1)")
    if method not in ("BCa", "percentile"):
        raise ValueError(f"method={method!r} must be 'BCa' or 'percentile'")
    low, high, used = bootstrap_mean(x, confidence, n_resamples, seed, method)
    score = float(x.mean())
    return EloEstimate(
        blocks=int(x.size),
        score=score,
        elo=float(score_to_elo(score)),
        elo_low=float(score_to_elo(low)),
        elo_high=float(score_to_elo(high)),
        confidence=float(confidence),
        method=used,
    )


def simulate_blocks(
    probabilities: ArrayLike,
    values: ArrayLike,
    n: int | tuple[int, ...],
    rng: np.random.Generator | int | None,
) -> NDArray[np.float64]:
    """Block scores drawn independently from a discrete distribution.

    Parameters
        probabilities : array_like
            The probability of each value (non-negative, summing to 1).
        values : array_like
            The block scores they belong to, in [0, 1]; e.g. :data:`PENTANOMIAL_VALUES`
            with the probabilities of :func:`pentanomial`.
        n : int or tuple of int
            How many blocks: a count, or a shape such as ``(runs, blocks)`` for many
            tests at once (:func:`first_crossings`, :func:`error_rates`).
        rng : numpy.random.Generator or int or None
            The generator, or a seed for ``numpy.random.default_rng``.

    Returns
        numpy.ndarray
            The block scores, of shape ``n``.
    """
    p = np.asarray(probabilities, dtype=float)
    v = _block_scores(values)
    if p.shape != v.shape or p.size == 0:
        raise ValueError(f"need one probability per value: got {p.shape} and {v.shape}")
    if not (np.all(p >= 0) and abs(p.sum() - 1.0) <= 1e-9):
        raise ValueError(f"probabilities must be non-negative and sum to 1: got {p.tolist()}")
    return np.random.default_rng(rng).choice(v, size=n, p=p)


def pentanomial(elo: float, draw_ratio: float = DEFAULT_DRAW_RATIO) -> NDArray[np.float64]:
    """The probabilities of a game pair's block scores 0, 1/4, 1/2, 3/4, 1.

    Each game is a trinomial: A wins with p_w, draws with ``draw_ratio`` and loses with
    p_l, its expected score p_w + draw_ratio / 2 = ``elo_to_score(elo)``; the two games
    of the pair are taken as independent and alike (no seat advantage), so the pair's
    points are the sum of two such games. Real pairs are positively correlated through
    their shared opening, which narrows the block scores' spread; this model is the
    plain case for simulations.

    Parameters
        elo : float
            The Elo gap of A over B.
        draw_ratio : float
            The probability of a draw in one game, at most 2 min(s, 1 - s) with s the
            expected score (the win and loss probabilities must not be negative).

    Returns
        numpy.ndarray
            Five probabilities, for :data:`PENTANOMIAL_VALUES`.
    """
    elo, draws = _finite("elo", elo), _finite("draw_ratio", draw_ratio)
    score = float(elo_to_score(elo))
    most = 2.0 * min(score, 1.0 - score)
    if not 0.0 <= draws <= most:
        raise ValueError(
            f"draw_ratio={draw_ratio!r} is impossible at elo={elo!r}: an expected score of "
            f"{score:.4f} allows draw ratios in [0, {most:.4f}] (win probability "
            "score - draw_ratio / 2 and loss probability 1 - score - draw_ratio / 2 "
            "must not be negative)"
        )
    game = np.array([max(1.0 - score - draws / 2, 0.0), draws, max(score - draws / 2, 0.0)])
    return np.convolve(game, game)


@dataclass(frozen=True)
class ErrorRates:
    """What share of simulated sequential tests ended how (:func:`error_rates`).

    Attributes
        elo, draw_ratio : float
            The true gap and draw probability of the simulated game pairs.
        runs, max_blocks : int
            The simulated tests and the blocks each could play at most.
        h1, h0, undecided : float
            The shares accepting H1, accepting H0, and undecided after ``max_blocks``.
        mean_blocks : float
            The mean number of blocks to a decision, over the decided runs (NaN if none).
    """

    elo: float
    draw_ratio: float
    runs: int
    max_blocks: int
    h1: float
    h0: float
    undecided: float
    mean_blocks: float


def error_rates(
    sprt: SPRT,
    elo: float,
    runs: int = 2000,
    max_blocks: int = 1000,
    seed: int = 0,
    draw_ratio: float = DEFAULT_DRAW_RATIO,
) -> ErrorRates:
    """How often ``sprt`` accepts each hypothesis when the true gap is ``elo``.

    Simulates ``runs`` tests at once on synthetic game pairs: the block scores are
    ``simulate_blocks(pentanomial(elo, draw_ratio), PENTANOMIAL_VALUES, (runs,
    max_blocks), numpy.random.default_rng(seed))`` (so a caller can redraw the very
    same array), each row read by :func:`first_crossings`. At ``elo = elo0`` the share
    accepting H1 is the test's real alpha, at ``elo = elo1`` the share accepting H0
    its real beta; elsewhere the shares give its power. Memory grows as
    ``runs * max_blocks`` (about 50 bytes per block).

    Parameters
        sprt : SPRT
            The test.
        elo : float
            The true Elo gap of A over B.
        runs, max_blocks : int
            The number of simulated tests, and the blocks each may play at most.
        seed : int
            The seed of the draws.
        draw_ratio : float
            The draw probability per game (:func:`pentanomial`).

    Returns
        ErrorRates
    """
    for name, value in (("runs", runs), ("max_blocks", max_blocks)):
        if not isinstance(value, int | np.integer) or value < 1:
            raise ValueError(f"{name}={value!r} must be a positive integer")
    probabilities = pentanomial(elo, draw_ratio)
    rng = np.random.default_rng(seed)
    x = simulate_blocks(probabilities, PENTANOMIAL_VALUES, (runs, max_blocks), rng)
    decisions, blocks, _ = first_crossings(x, sprt)
    decided = decisions != 0
    return ErrorRates(
        elo=float(elo),
        draw_ratio=float(draw_ratio),
        runs=int(runs),
        max_blocks=int(max_blocks),
        h1=float(np.mean(decisions == 1)),
        h0=float(np.mean(decisions == -1)),
        undecided=float(np.mean(~decided)),
        mean_blocks=float(blocks[decided].mean()) if decided.any() else math.nan,
    )
