"""Statistics beyond the thesis: confidence intervals, exact tests, seats and ratings.

All functions take the tidy :class:`~chameleon_lab.tournament.records.Tables` and look
at the per-agent outcome of each game (win, draw, loss as the original defined them)
or at the seat's own result.

* :func:`win_rates`: win rate per agent (and session) with a Wilson 95 % interval.
* :func:`compare`: does agent A do better than agent B? Over the games both played,
  A is better in a game when its outcome ranks higher (win > draw > loss); an exact
  two-sided binomial (sign) test of "A better" against "B better", ties left out.
  For 77 against 71 wins this answers whether the difference means anything.
* :func:`by_seat`: results per seat colour and number of players, with a chi-square
  test of whether the seat matters.
* :func:`ratings`: Bradley-Terry strengths from every pair of agents in every game
  (a draw counts half to each), on the Elo scale, with standard errors from the
  Fisher information.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize, stats

from ..tournament.records import Tables

_RANK = {"loss": 0, "draw": 1, "win": 2}
ELO_PER_NAT = 400.0 / np.log(10.0)


def _outcomes(t: Tables, extra: list[str] | None = None) -> pd.DataFrame:
    """One row per game and agent: session, game, agent, outcome (and ``extra`` columns
    of the seats table)."""
    keys = ["session", "session_id", "game", "agent"]
    more = [c for c in (extra or []) if c not in keys]
    return t.seats.drop_duplicates(keys)[[*keys, *more, "outcome"]]


def wilson_interval(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of ``k`` successes in ``n`` trials (NaN for ``n = 0``)."""
    if n == 0:
        return (np.nan, np.nan)
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def _rate_table(df: pd.DataFrame, by: list[str], column: str, confidence: float) -> pd.DataFrame:
    rows = []
    for key, group in df.groupby(by, sort=False, observed=True):
        n = len(group)
        counts = group[column].value_counts()
        wins, draws = int(counts.get("win", 0)), int(counts.get("draw", 0))
        low, high = wilson_interval(wins, n, confidence)
        key = key if isinstance(key, tuple) else (key,)
        rows.append(
            {
                **dict(zip(by, key, strict=True)),
                "games": n,
                "wins": wins,
                "draws": draws,
                "losses": n - wins - draws,
                "win_rate": wins / n,
                "ci_low": low,
                "ci_high": high,
            }
        )
    return pd.DataFrame(rows)


def win_rates(t: Tables, by: str | list[str] = "agent", confidence: float = 0.95) -> pd.DataFrame:
    """Win rate per ``by`` (``"agent"`` or e.g. ``["session", "agent"]``) with a Wilson
    interval at ``confidence``."""
    by = [by] if isinstance(by, str) else list(by)
    return _rate_table(_outcomes(t, by), by, "outcome", confidence)


@dataclass(frozen=True)
class Comparison:
    """Head-to-head result of agents ``a`` and ``b`` over the games both played."""

    a: str
    b: str
    games: int
    a_better: int
    b_better: int
    ties: int
    p_value: float  # exact two-sided binomial test, ties left out

    def __str__(self) -> str:
        return (
            f"{self.a} better in {self.a_better}, {self.b} better in {self.b_better}, "
            f"equal in {self.ties} of {self.games} games; exact two-sided p = {self.p_value:.3g}"
        )


def compare(t: Tables, a: str, b: str) -> Comparison:
    """Exact sign test of agent ``a`` against agent ``b`` (see the module docstring)."""
    out = _outcomes(t)
    known = list(dict.fromkeys(out["agent"]))
    for name in (a, b):
        if name not in known:
            raise ValueError(f"no agent {name!r} in the records; agents: {', '.join(known)}")
    wide = out.pivot_table(
        index=["session_id", "game"], columns="agent", values="outcome", aggfunc="first"
    )
    both = wide[[a, b]].dropna()
    ra, rb = both[a].map(_RANK), both[b].map(_RANK)
    a_better, b_better = int((ra > rb).sum()), int((rb > ra).sum())
    decisive = a_better + b_better
    p = stats.binomtest(a_better, decisive).pvalue if decisive else 1.0
    return Comparison(a, b, len(both), a_better, b_better, len(both) - decisive, float(p))


def by_seat(t: Tables, confidence: float = 0.95) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Results per number of players and seat, and per number of players a chi-square
    test of independence of seat and result (does the starting seat matter?)."""
    seats = t.seats.merge(t.games[["session_id", "game", "players"]], on=["session_id", "game"])
    table = _rate_table(seats, ["players", "seat"], "seat_result", confidence)
    order = list(t.seats["seat"].cat.categories) if hasattr(t.seats["seat"], "cat") else None
    table["seat"] = pd.Categorical(table["seat"], categories=order, ordered=True)
    tests = []
    for players, group in seats.groupby("players", observed=True):
        counts = pd.crosstab(group["seat"], group["seat_result"])
        counts = counts.loc[:, (counts > 0).any()]
        if counts.shape[0] < 2 or counts.shape[1] < 2:
            tests.append({"players": players, "chi2": np.nan, "dof": 0, "p_value": np.nan})
            continue
        res = stats.chi2_contingency(counts.to_numpy())
        tests.append(
            {"players": players, "chi2": res.statistic, "dof": res.dof, "p_value": res.pvalue}
        )
    return table.sort_values(["players", "seat"]).reset_index(drop=True), pd.DataFrame(tests)


def pairwise(t: Tables) -> pd.DataFrame:
    """Score of every ordered pair of agents over the games both played (win 1, draw ½).

    Rows ``i``, columns ``j``: how often ``i`` did better than ``j`` (ties count half).
    """
    out = _outcomes(t)
    agents = list(dict.fromkeys(out["agent"]))
    index = {a: k for k, a in enumerate(agents)}
    score = np.zeros((len(agents), len(agents)))
    for _, group in out.groupby(["session_id", "game"], sort=False):
        ranks = [
            (index[a], _RANK[o]) for a, o in zip(group["agent"], group["outcome"], strict=True)
        ]
        for i, ri in ranks:
            for j, rj in ranks:
                if i != j:
                    score[i, j] += 1.0 if ri > rj else 0.5 if ri == rj else 0.0
    return pd.DataFrame(score, index=agents, columns=agents)


def ratings(t: Tables, prior_draws: float = 1.0, confidence: float = 0.95) -> pd.DataFrame:
    """Bradley-Terry ratings on the Elo scale (mean 0) with standard errors and intervals.

    ``prior_draws`` virtual draws between every pair keep the estimates finite when an
    agent won or lost every comparison (0 for the plain maximum-likelihood fit).
    """
    score = pairwise(t)
    agents = list(score.index)
    k = len(agents)
    if k < 2:
        raise ValueError("ratings need at least two agents in the records")
    w = score.to_numpy() + prior_draws / 2.0 * (1 - np.eye(k))
    n = w + w.T

    def nll(theta: np.ndarray) -> tuple[float, np.ndarray]:
        diff = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        loglik = np.sum(w * np.log(np.clip(p, 1e-300, None)))
        grad = np.sum(w - n * p, axis=1)
        return -loglik, -grad

    res = optimize.minimize(nll, np.zeros(k), jac=True, method="BFGS")
    theta = res.x - res.x.mean()
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    info = n * p * (1 - p)
    fisher = np.diag(info.sum(axis=1)) - info
    cov = np.linalg.pinv(fisher)  # the sum-to-zero constraint: pseudo-inverse
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    z = stats.norm.ppf(0.5 + confidence / 2.0)
    elo, elo_se = theta * ELO_PER_NAT, se * ELO_PER_NAT
    return (
        pd.DataFrame(
            {
                "agent": agents,
                "elo": elo,
                "se": elo_se,
                "ci_low": elo - z * elo_se,
                "ci_high": elo + z * elo_se,
                "comparisons": (n.sum(axis=1) - prior_draws * (k - 1)).round().astype(int),
            }
        )
        .sort_values("elo", ascending=False)
        .reset_index(drop=True)
    )


def time_per_move(
    moves: pd.DataFrame, by: str | list[str] = "agent", budget: str | None = "budget_ms"
) -> pd.DataFrame:
    """Each agent's milliseconds a move: median, 99th percentile and largest, and where
    a ``budget`` column gives the budget a move, the share of moves over it and the
    largest overshoot, so a comparison of searches is not one of overshoots.

    Random moves (``random``) are left out; a ``budget`` of None or a column the table
    lacks leaves the budget columns out."""
    by = [by] if isinstance(by, str) else list(by)
    df = moves[~moves["random"].astype(bool)] if "random" in moves else moves
    has_budget = budget is not None and budget in df
    keys = [*by, budget] if has_budget and budget not in by else by
    grouped = df.groupby(keys, observed=True, sort=True)["time_ms"]
    out = grouped.agg(moves="size", median_ms="median", p99_ms=lambda x: x.quantile(0.99),
                      max_ms="max").reset_index()  # fmt: skip
    if has_budget:
        over = df["time_ms"] > df[budget]
        out["share_over_budget"] = over.groupby([df[k] for k in keys], observed=True).mean().values
        out["max_overshoot_ms"] = out["max_ms"] - out[budget]
    return out
