"""The answer of notebook ``11_hypermax`` in words, written from the notebook's own
tables, so that the quick and the full run each say what they found.

* :func:`how_often`: the share of positions on which Hypermax chose another move than
  MaxN, by normalisation and depth;
* :func:`why`: the causes of the normalised departures explained, most frequent first;
* :func:`mend`: the mended Hypermax's agreement with MaxN and its nodes against MaxN's;
* :func:`mended_verdicts` and :func:`games` (its sentences): plain against mended
  Hypermax in the thesis's sessions: Fisher's exact test of the two win rates with
  Holm's correction across the sessions, the equivalence of the two (two one-sided
  tests, a margin of win rate) beside it, and the gap an undecided session could have
  detected;
* :func:`answer`: the four together.

Each function takes a table the notebook saved (``hypermax_departures``,
``hypermax_causes``, ``hypermax_mended_nodes``, ``hypermax_mended_sessions``) and
returns sentences; none of them holds a number of its own.
"""

from __future__ import annotations

import pandas as pd

from .claims import detectable_rate_gap, holm, tost

#: The equivalence margin of the win rates compared (15 points, as issue 44 asks).
MARGIN = 0.15


def _percent(x: float) -> str:
    return f"{100 * x:.0f} %" if x >= 0.01 or x == 0 else f"{100 * x:.1f} %"


def how_often(rates: pd.DataFrame, flavour: str = "thesis") -> str:
    """Move departures of ``flavour``'s Hypermax from MaxN per depth, unnormalised and
    normalised, over all player counts."""
    part = rates[rates["flavour"] == flavour]
    sums = part.groupby(["normalize", "depth"])[["move_departures", "positions"]].sum()
    lines = []
    for normalize, label in ((False, "Unnormalised"), (True, "Normalised")):
        if normalize not in sums.index.get_level_values(0):
            continue
        rows = sums.loc[normalize]
        shares = ", ".join(
            f"{_percent(r.move_departures / r.positions)} at depth {d}" for d, r in rows.iterrows()
        ).replace(" at depth", " of the positions at depth", 1)
        lines.append(
            f"{label}, Hypermax chose another move than MaxN on {shares} "
            f"({int(rows['positions'].iloc[0])} positions a depth)."
        )
    if (False in sums.index.get_level_values(0)) and "departures_from_normalised_maxn" in part:
        un = part[~part["normalize"].astype(bool)]
        share = un["departures_from_normalised_maxn"].sum() / un["positions"].sum()
        lines.append(
            "Against the normalised MaxN the thesis seated beside it, the unnormalised "
            f"Hypermax chose another move on {_percent(share)} of the positions."
        )
    return " ".join(lines)


def why(counts: pd.DataFrame) -> str:
    """The causes of the normalised departures explained, most frequent first."""
    norm = counts[counts["normalize"].astype(bool)]
    total = int(norm["departures"].sum())
    if not total:
        return "Normalised, no departure was found to explain at these depths."
    by_cause = norm.groupby("cause")["departures"].sum().sort_values(ascending=False)
    parts = ", ".join(f"{cause} {int(n)} ({_percent(n / total)})" for cause, n in by_cause.items())
    return f"Of the {total} normalised departures explained: {parts}."


def mend(saved: pd.DataFrame) -> str:
    """Whether the mended Hypermax returned MaxN's moves, and its nodes as a share of
    MaxN's per player count and depth."""
    searches, same = int(saved["positions"].sum()), int(saved["same"].sum())
    lines = [f"The mended Hypermax returned MaxN's move and vector in {same} of {searches} "
             "searches."]  # fmt: skip
    for players, group in saved.groupby("players"):
        ratios = ", ".join(f"{r.mended_of_maxn:.2f} at depth {r.depth}" for r in group.itertuples())
        lines.append(f"With {players} players its nodes were {ratios} of MaxN's.")
    return " ".join(lines)


def mended_verdicts(
    beside: pd.DataFrame, agent: str = "Hypermax", alpha: float = 0.05, power: float = 0.8
) -> pd.DataFrame:
    """Plain against mended ``agent`` in each session of ``beside``
    (:func:`chameleon_lab.thesis.compare.mended_beside`): the wins of each, Fisher's exact
    p with Holm's correction across the sessions (``verdict``: more or fewer wins with
    the mended one, or no difference detected), the two one-sided tests of the two win
    rates within :data:`MARGIN` (``equivalence``), and where no difference was detected
    the smallest gap of win rate the session's games detect with ``power``
    (``detectable_gap``, from the plain win rate). Empty when no session seats
    ``agent``."""
    rows = beside[beside["agent"] == agent].reset_index(drop=True)
    if rows.empty:
        return pd.DataFrame()
    adjusted = holm(rows["p_exact"].to_numpy())
    out = []
    for row, p_holm in zip(rows.itertuples(), adjusted, strict=True):
        k_m, n_m, k_p, n_p = (int(row.mended_wins), int(row.mended_games),
                              int(row.plain_wins), int(row.plain_games))  # fmt: skip
        eq = tost(k_m, n_m, k_p, n_p, margin=MARGIN, alpha=alpha)
        decided = p_holm < alpha
        more = row.mended_win_rate > row.plain_win_rate
        base = min(max(k_p / n_p, 0.5 / n_p), 1 - 0.5 / n_p)  # a rate inside (0, 1)
        out.append(
            {
                "session": row.session,
                "plain_wins": k_p,
                "plain_games": n_p,
                "mended_wins": k_m,
                "mended_games": n_m,
                "p_exact": row.p_exact,
                "p_holm": p_holm,
                "verdict": (
                    ("more" if more else "fewer") + " wins with the mended one"
                    if decided
                    else "no difference detected"
                ),
                "equivalence": eq.verdict,
                "detectable_gap": (
                    float("nan")
                    if decided
                    else detectable_rate_gap(n_m, n_p, base, alpha=alpha, power=power)
                ),
                "plain_depth_median": row.plain_depth_median,
                "mended_depth_median": row.mended_depth_median,
            }
        )
    return pd.DataFrame(out)


def games(beside: pd.DataFrame, agent: str = "Hypermax", alpha: float = 0.05) -> str:
    """Plain against mended ``agent`` in each session, in words
    (:func:`mended_verdicts`)."""
    table = mended_verdicts(beside, agent, alpha)
    if table.empty:
        return f"No session seated {agent}."
    lines = []
    for row in table.itertuples():
        power = (
            ""
            if pd.isna(row.detectable_gap)
            else f"; 80 % power only for a gap of {100 * row.detectable_gap:.0f} points or more"
        )
        lines.append(
            f"{row.session}: plain {row.plain_wins}/{row.plain_games}, mended "
            f"{row.mended_wins}/{row.mended_games} (Fisher p = {row.p_exact:.3f}, Holm "
            f"{row.p_holm:.3f}: {row.verdict}{power}; within {100 * MARGIN:.0f} points of "
            f"each other: {row.equivalence}); median depth {row.plain_depth_median:g} "
            f"plain, {row.mended_depth_median:g} mended."
        )
    return "\n".join(lines)


def answer(
    rates: pd.DataFrame, counts: pd.DataFrame, saved: pd.DataFrame, beside: pd.DataFrame
) -> str:
    """The notebook's answer, paragraph by paragraph, from its four tables."""
    return "\n\n".join(
        [
            "How often. " + how_often(rates),
            "Why. " + why(counts),
            "The mend. " + mend(saved),
            "The games.\n" + games(beside),
        ]
    )
