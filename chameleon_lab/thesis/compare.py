"""Our results beside the thesis's: per table, session and agent, with intervals.

:func:`beside_thesis` joins our per-session summary with ``thesis-tables.csv``: the
thesis's wins, draws, losses and win rate next to ours with a Wilson 95 % interval,
and whether the thesis's win rate lies inside it. :func:`verdict` turns that into
the one sentence a notebook prints under each table; :func:`plot_beside_thesis`
draws it.
"""

from __future__ import annotations

import pandas as pd

from ..analysis.stats import wilson_interval


def beside_thesis(
    ours: pd.DataFrame, thesis: pd.DataFrame, table: str, confidence: float = 0.95
) -> pd.DataFrame:
    """Rows of ``table`` (e.g. ``"6.3"``): session, agent, thesis W/D/L, ours, interval.

    ``ours`` is :func:`.summary.session_summary` output. Sessions are matched by their
    mode suffix (``-d3``, ``-t100``), so a fresh run with other budgets lines up with
    the thesis's sessions of the same family only where the budgets agree.
    """
    rows = thesis[(thesis["table"] == table) & (thesis["scope"] == "session")]
    if rows.empty:
        raise ValueError(f"thesis-tables.csv has no session rows for table {table!r}")
    out = []
    for _, r in rows.iterrows():
        mine = ours[(ours["session"] == r["session"]) & (ours["agent"] == r["algorithm"])]
        entry = {
            "table": table,
            "session": r["session"],
            "agent": r["algorithm"],
            "thesis_games": int(r["games"]),
            "thesis_wins": int(r["wins"]),
            "thesis_draws": int(r["draws"]),
            "thesis_losses": int(r["losses"]),
            "thesis_win_rate": r["wins"] / r["games"],
            "thesis_depth_avg": r["depth_avg"],
        }
        if mine.empty:
            entry.update(games=0)
        else:
            m = mine.iloc[0]
            low, high = wilson_interval(int(m["wins"]), int(m["games"]), confidence)
            entry.update(
                games=int(m["games"]),
                wins=int(m["wins"]),
                draws=int(m["draws"]),
                losses=int(m["losses"]),
                win_rate=m["wins"] / m["games"],
                ci_low=low,
                ci_high=high,
                depth_avg=m["depth_avg"],
                thesis_inside=bool(low <= r["wins"] / r["games"] <= high),
            )
        out.append(entry)
    df = pd.DataFrame(out)
    for col in ("games", "wins", "draws", "losses"):
        if col in df:
            df[col] = df[col].astype("Int64")  # whole numbers, missing where not played
    return df


def verdict(df: pd.DataFrame) -> str:
    """One sentence: in how many rows the thesis's win rate lies in our interval."""
    played = df[df["games"] > 0]
    if played.empty:
        return "No fresh games for these sessions, so nothing to compare."
    flags = played["thesis_inside"].astype(bool)
    inside, outside = played[flags], played[~flags]
    text = (
        f"The thesis's win rate lies inside our 95 % interval in {len(inside)} of "
        f"{len(played)} rows"
    )
    if outside.empty:
        return text + ": nothing here contradicts the thesis at this sample size."
    names = "; ".join(
        f"{r.agent} in {r.session} ({r.thesis_win_rate:.2f} vs ours {r.win_rate:.2f})"
        for r in outside.itertuples()
    )
    return text + f"; it does not hold up for {names}."


def plot_beside_thesis(df: pd.DataFrame, title: str, ours: str = "this workbench"):
    """Win rate per session and agent: ``ours`` (what the run is: this workbench, the
    original program's recorded games) with its interval, the thesis's as a cross; each
    agent in its fixed colour and marker (:mod:`..analysis.style`)."""
    import matplotlib.pyplot as plt

    from ..analysis.style import style_of

    played = df[df["games"] > 0].reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(df) + 2), 4))
    x = range(len(played))
    for i, row in played.iterrows():  # each agent in its own colour and marker
        look = style_of(row["agent"])
        ax.errorbar(
            [i],
            [row["win_rate"]],
            yerr=[[row["win_rate"] - row["ci_low"]], [row["ci_high"] - row["win_rate"]]],
            fmt=look["marker"],
            color=look["color"],
            capsize=3,
            label=f"{ours} (95 % Wilson interval)" if i == 0 else None,
        )
    ax.scatter(x, played["thesis_win_rate"], marker="x", color="black", zorder=3, label="thesis")
    ax.set_xticks(list(x))
    ax.set_xticklabels(
        [
            f"{a}\n{s.rsplit('-', 1)[-1]}"
            for a, s in zip(played["agent"], played["session"], strict=True)
        ],
        fontsize=8,
    )
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (share of games won)")
    ax.set_xlabel("agent and session budget")
    ax.set_title(title)
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    return fig


def thesis_depth_medians(thesis: pd.DataFrame) -> pd.DataFrame:
    """The thesis's median completed depths of table 6.8 (four-player self-play at 10,
    100 and 1000 ms): columns ``algorithm`` (the library's names), ``budget_ms``,
    ``depth_median``."""
    rows = thesis[(thesis["table"] == "6.8") & (thesis["scope"] == "session")]
    return pd.DataFrame(
        {
            "algorithm": rows["algorithm"].str.lower().to_numpy(),
            "budget_ms": rows["mode_value"].astype(float).to_numpy(),
            "depth_median": rows["depth_median"].astype(float).to_numpy(),
        }
    )
