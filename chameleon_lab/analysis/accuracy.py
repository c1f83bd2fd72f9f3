"""How well a heuristic orders positions whose exact values are known.

A two-player game with an exact solver (Connect Four, Othello's endgames, the m,n,k
games) can say of a position whether the player to move wins, draws or loses, and by
how much. A heuristic's static value for the player to move (``2 s[p] - sum(s)``, what
the searches maximise) should then be higher on won positions than on lost ones. Two
figures per heuristic, each with a bootstrap interval over the positions:

* ``won_over_lost``: the chance that a won position, drawn at random, has a higher value
  than a lost one (ties count half): the area under the ROC curve of the value as a
  test for "won", Mann-Whitney's U over the product of the two counts; 0.5 is no better
  than a coin, 1 a perfect ordering;
* ``spearman``: the rank correlation of the value with the exact value (Connect Four's
  score counts the moves left to the win, so a quick win ranks above a slow one).

The positions are drawn by :func:`solved_positions` from seeded random play, away from
any training games' openings, and solved by :func:`chameleon_lab.search.solve.solve`.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats
from tqdm.auto import tqdm

from ..games.protocol import MAX_PLAYERS
from ..games.registry import get_game
from ..search.solve import solve


def solved_positions(
    game: str, count: int, *, plies: tuple[int, int], seed: int = 0, progress: bool = False
) -> pd.DataFrame:
    """``count`` positions of ``game`` after a random number of random moves in
    ``plies`` (inclusive; drawn from ``seed``), unfinished and distinct, with their exact
    value for the player to move (``value``) and its sign (``outcome``: 1 won, 0 drawn,
    -1 lost). ``ValueError`` where random play cannot find that many."""
    built = get_game(game)
    low, high = plies
    if not 0 <= low <= high:
        raise ValueError(f"plies must be (low, high) with 0 <= low <= high, got {plies!r}")
    rng = np.random.default_rng(seed)
    rows: list[dict[str, Any]] = []
    seen: set[int] = set()
    with tqdm(total=count, desc="solving", unit="position", disable=not progress) as bar:
        for _ in range(50 * count):
            if len(rows) == count:
                break
            position = built.start()
            for _ in range(int(rng.integers(low, high + 1))):
                if position.is_over:
                    break
                position = position.play(
                    position.legal_moves[rng.integers(len(position.legal_moves))]
                )
            if position.is_over or position.key in seen:
                continue
            seen.add(position.key)
            value = float(solve(position).value)
            rows.append({"position": position, "value": value, "outcome": float(np.sign(value))})
            bar.update(1)
    if len(rows) < count:
        raise ValueError(
            f"found only {len(rows)} distinct unfinished positions of {game} after {plies} "
            f"random plies, {count} asked: ask fewer or allow other plies"
        )
    return pd.DataFrame(rows)


def static_values(positions: Sequence[Any], heuristic: str) -> np.ndarray:
    """``heuristic``'s value of each position for the player to move, ``2 s[p] -
    sum(s)`` as the searches take it (with two players: its score less the other's)."""
    out = np.zeros(MAX_PLAYERS)
    values = np.empty(len(positions))
    functions: dict[int, Any] = {}  # looked up once per game (by identity), not per position
    for i, position in enumerate(positions):
        game = position.game
        if id(game) not in functions:
            functions[id(game)] = game.heuristics.get(heuristic).function
        functions[id(game)](position.state, out)
        p = int(position.to_move)
        values[i] = 2.0 * out[p] - out.sum()
    return values


def won_over_lost(values: Any, outcomes: Any, axis: int = -1) -> Any:
    """The chance that a won position has a higher value than a lost one (ties half);
    NaN without both. Along ``axis`` of arrays of any shape (one share per slice: a
    bootstrap passes all its resamples at once): Mann-Whitney's U from the midranks of
    the won and lost positions' values, over the product of their counts."""
    values, outcomes = np.asarray(values, dtype=float), np.asarray(outcomes, dtype=float)
    won, lost = outcomes > 0, outcomes < 0
    ranks = stats.rankdata(np.where(won | lost, values, np.nan), axis=axis, nan_policy="omit")
    n_won, n_lost = won.sum(axis=axis), lost.sum(axis=axis)
    u = np.where(won, ranks, 0.0).sum(axis=axis) - n_won * (n_won + 1) / 2.0
    pairs = n_won * n_lost
    share = np.where(pairs > 0, u / np.maximum(pairs, 1), np.nan)
    return float(share) if share.ndim == 0 else share


def _spearman(values: Any, exact: Any, axis: int = -1) -> Any:
    """The rank correlation of ``values`` with ``exact`` along ``axis`` (Pearson's r of
    their midranks); NaN where either is constant: a constant has no ranks to
    correlate."""
    values, exact = np.asarray(values, dtype=float), np.asarray(exact, dtype=float)
    constant = (np.ptp(values, axis=axis) == 0) | (np.ptp(exact, axis=axis) == 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.ConstantInputWarning)  # those are NaN below
        r = stats.pearsonr(
            stats.rankdata(values, axis=axis), stats.rankdata(exact, axis=axis), axis=axis
        ).statistic
    r = np.where(constant, np.nan, r)
    return float(r) if r.ndim == 0 else r


def accuracy(
    solved: pd.DataFrame, heuristics: Sequence[str], *, resamples: int = 999, seed: int = 0
) -> pd.DataFrame:
    """One row per heuristic: ``won_over_lost`` and ``spearman`` (see the module doc)
    on the positions of ``solved`` (:func:`solved_positions`), each with a 95 %
    percentile bootstrap interval over the positions (``resamples``, ``seed``), and how
    many positions were won, drawn and lost."""
    outcome = solved["outcome"].to_numpy()
    exact = solved["value"].to_numpy()
    rows = []
    for name in heuristics:
        values = static_values(list(solved["position"]), name)
        row: dict[str, Any] = {"heuristic": name}
        for label, statistic, data in (
            ("won_over_lost", won_over_lost, (values, outcome)),
            ("spearman", _spearman, (values, exact)),
        ):
            row[label] = statistic(*data)
            low, high = _interval(statistic, data, resamples, seed)
            row[f"{label}_low"], row[f"{label}_high"] = low, high
        rows.append(row)
    table = pd.DataFrame(rows)
    table["won"] = int((outcome > 0).sum())
    table["drawn"] = int((outcome == 0).sum())
    table["lost"] = int((outcome < 0).sum())
    return table


def _interval(
    statistic: Any, data: tuple, resamples: int, seed: int, level: float = 0.95
) -> tuple[float, float]:
    """A percentile bootstrap interval of ``statistic`` over the positions (resampled
    together: every array of ``data`` holds one entry per position). ``statistic`` takes
    an ``axis`` and is given every resample at once: one call, not one per resample
    (measured in docs/benchmarks.md)."""
    if np.isnan(statistic(*data)):
        return float("nan"), float("nan")
    result = stats.bootstrap(
        data, statistic, paired=True, vectorized=True, n_resamples=resamples,
        confidence_level=level, method="percentile", random_state=np.random.default_rng(seed),
    )  # fmt: skip
    interval = result.confidence_interval
    return float(interval.low), float(interval.high)


def compare(
    solved: pd.DataFrame,
    heuristic: str,
    baseline: str,
    *,
    alpha: float = 0.05,
    resamples: int = 999,
    seed: int = 0,
) -> pd.DataFrame:
    """``heuristic`` less ``baseline`` in each figure of :func:`accuracy`, on the same
    positions (a paired bootstrap over them), with an interval at ``1 - alpha / 2``
    (Bonferroni over the two figures) and a verdict: ``higher`` or ``lower`` where the
    interval leaves out 0, else ``undecided`` (and the interval says what gap the
    positions could have missed)."""
    positions = list(solved["position"])
    a, b = static_values(positions, heuristic), static_values(positions, baseline)
    outcome, exact = solved["outcome"].to_numpy(), solved["value"].to_numpy()
    rows = []
    for label, statistic, truth in (
        ("won_over_lost", won_over_lost, outcome),
        ("spearman", _spearman, exact),
    ):

        def gap(x: Any, y: Any, t: Any, axis: int = -1, statistic: Any = statistic) -> Any:
            return statistic(x, t, axis=axis) - statistic(y, t, axis=axis)

        difference = gap(a, b, truth)
        low, high = _interval(gap, (a, b, truth), resamples, seed, 1 - alpha / 2)
        verdict = "higher" if low > 0 else "lower" if high < 0 else "undecided"
        rows.append({"figure": label, "heuristic": heuristic, "baseline": baseline,
                     "difference": difference, "low": low, "high": high,
                     "level": 1 - alpha / 2, "verdict": verdict})  # fmt: skip
    return pd.DataFrame(rows)
