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
* :func:`game_points`: the points of every agent in every game (win 1, draw 1/2).
* :func:`time_per_move`: each agent's milliseconds a move and its overshoot.

Ratings are Plackett-Luce over finishing orders, :mod:`chameleon_lab.analysis.ranking`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from ..tournament.records import Tables

_RANK = {"loss": 0, "draw": 1, "win": 2}
ELO_PER_NAT = 400.0 / np.log(10.0)


def _outcomes(t: Tables, extra: list[str] | None = None) -> pd.DataFrame:
    """One row per game and agent: session, game, agent, outcome (and ``extra`` columns
    of the seats table)."""
    keys = ["session", "session_id", "game", "agent"]
    more = [c for c in (extra or []) if c not in keys]
    return t.seats.drop_duplicates(keys)[[*keys, *more, "outcome"]]


def game_points(t: Tables) -> pd.DataFrame:
    """One row per game and agent (an agent at several seats of a game once): session,
    game, agent, outcome and ``points``, a win 1, a draw 1/2, a loss 0."""
    out = _outcomes(t)
    return out.assign(points=out["outcome"].map({"win": 1.0, "draw": 0.5}).fillna(0.0))


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


def time_per_move(
    moves: pd.DataFrame,
    by: str | list[str] = "agent",
    budget: str | None = "budget_ms",
    clock: str = "time_ms",
) -> pd.DataFrame:
    """Each agent's milliseconds a move: median, 99th percentile and largest, and where
    a ``budget`` column gives the budget a move, the share of moves over it and the
    largest overshoot, so a comparison of searches is not one of overshoots.

    Random moves (``random``) are left out; a ``budget`` of None or a column the table
    lacks leaves the budget columns out. A move without a budget (NaN: a depth-mode
    move among timed ones) is kept, its budget figures NaN. ``clock`` names the column
    of milliseconds (the original's emulated clock: see
    :func:`chameleon_lab.analysis.summary.session_summary`)."""
    by = [by] if isinstance(by, str) else list(by)
    df = moves[~moves["random"].astype(bool)] if "random" in moves else moves
    has_budget = budget is not None and budget in df
    keys = [*by, budget] if has_budget and budget not in by else by
    grouped = df.groupby(keys, observed=True, sort=True, dropna=False)[clock]
    out = grouped.agg(moves="size", median_ms="median", p99_ms=lambda x: x.quantile(0.99),
                      max_ms="max").reset_index()  # fmt: skip
    if has_budget:
        over = (df[clock] > df[budget]).astype(float).where(df[budget].notna())
        share = over.groupby([df[k] for k in keys], observed=True, dropna=False).mean()
        out["share_over_budget"] = share.to_numpy()
        out["max_overshoot_ms"] = out["max_ms"] - out[budget]
    return out
