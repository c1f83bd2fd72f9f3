"""Our results beside the thesis's: per table, session and agent, with intervals.

:func:`beside_thesis` joins our per-session summary with ``thesis-tables.csv``: the
thesis's wins, draws, losses and win rate next to ours with a Wilson 95 % interval,
whether the thesis's win rate lies inside it, Fisher's exact test of the thesis's
counts against ours (wins against games not won, two-sided; ``consistent`` means only
that it does not reject at 5 %, which with 24 games a side it rarely could: it detects
25 % against 45 % about one time in five) and, since not rejecting is no evidence of
agreement, the equivalence test of the two win rates within :data:`MARGIN`
(``equivalence``: *equivalent*, *differs* or *undecided*, two one-sided tests,
:func:`~chameleon_lab.analysis.claims.tost`). :func:`verdict` turns that into the
sentences a notebook prints under each table; :func:`plot_beside_thesis` draws it.
"""

from __future__ import annotations

import pandas as pd
from scipy import stats

from ..analysis.claims import tost
from ..analysis.stats import wilson_interval
from ..analysis.summary import SIDE_FIGURES, repeated_games
from ..tournament import Tables

#: the exact test's level: a cell is consistent when its p-value is at least this
ALPHA = 0.05
#: the equivalence margin: two win rates within this many points are equivalent when
#: both one-sided tests reject at :data:`ALPHA`
MARGIN = 0.15


def exact_p(wins_a: int, games_a: int, wins_b: int, games_b: int) -> float:
    """Fisher's exact two-sided p-value of "the same win rate" for two counts."""
    table = [[wins_a, games_a - wins_a], [wins_b, games_b - wins_b]]
    return float(stats.fisher_exact(table).pvalue)


def effective(wins: int, games: int, share: float) -> tuple[int, int]:
    """``wins`` of ``games`` as a test may count them when only ``share`` of the games
    differ from each other (copies of a deterministic game carry no new evidence):
    ``games * share`` games, at least 1, with the same win rate, both rounded."""
    n = max(1, round(games * share))
    return round(wins * n / games) if games else 0, n


def beside_thesis(
    ours: pd.DataFrame,
    thesis: pd.DataFrame,
    table: str,
    confidence: float = 0.95,
    distinct: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Rows of ``table`` (e.g. ``"6.3"``): session, agent, thesis W/D/L, ours, interval.

    ``ours`` is :func:`.summary.session_summary` output. Sessions are matched by their
    mode suffix (``-d3``, ``-t100``), so a fresh run with other budgets lines up with
    the thesis's sessions of the same family only where the budgets agree. With
    ``distinct`` (:func:`.summary.distinct_games` of our run) each played row says how
    many of its session's games differ from each other (``distinct_games``), and the
    interval and the tests count that many games (``effective_games``), not the copies:
    both sides' counts are scaled by distinct / played games (:func:`effective`). The
    thesis's side is scaled by our session's share too: it played the same seatings
    with the same deterministic searches, so its games repeated as ours do (an
    assumption: its games are not in the data).
    """
    different = distinct.set_index("session") if distinct is not None else None
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
            share = 1.0
            if different is not None and r["session"] in different.index:
                entry["distinct_games"] = int(different.at[r["session"], "distinct_games"])
                share = entry["distinct_games"] / int(different.at[r["session"], "games"])
            wins, games = effective(int(m["wins"]), int(m["games"]), share)
            t_wins, t_games = effective(int(r["wins"]), int(r["games"]), share)
            low, high = wilson_interval(wins, games, confidence)
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
                effective_games=games,
                p_exact=exact_p(t_wins, t_games, wins, games),
            )
            entry["consistent"] = entry["p_exact"] >= ALPHA
            entry["equivalence"] = tost(wins, games, t_wins, t_games, margin=MARGIN,
                                        alpha=ALPHA).verdict  # fmt: skip
        out.append(entry)
    df = pd.DataFrame(out)
    for col in ("games", "wins", "draws", "losses", "distinct_games", "effective_games"):
        if col in df:
            df[col] = df[col].astype("Int64")  # whole numbers, missing where not played
    return df


def beside_today(side: pd.DataFrame, today: pd.DataFrame, label: str = "today") -> pd.DataFrame:
    """``side`` (:func:`beside_thesis`) with another run's games, wins and win rate per
    session and agent as ``{label}_games``, ``{label}_wins``, ``{label}_win_rate`` (the
    improved flavour on this machine's clock beside a run on the original's, say)."""
    other = today.set_index(["session", "agent"])
    keys = list(zip(side["session"], side["agent"], strict=True))
    games = [int(other.at[k, "games"]) if k in other.index else 0 for k in keys]
    wins = [int(other.at[k, "wins"]) if k in other.index else 0 for k in keys]
    out = side.copy()
    out[f"{label}_games"] = pd.array(games, dtype="Int64")
    out[f"{label}_wins"] = pd.array(wins, dtype="Int64")
    pairs = zip(wins, games, strict=True)
    out[f"{label}_win_rate"] = [w / g if g else float("nan") for w, g in pairs]
    return out


def _equivalence_counts(played: pd.DataFrame) -> str:
    counts = played["equivalence"].value_counts()
    return (
        f"within {100 * MARGIN:.0f} points of win rate (two one-sided tests at "
        f"{100 * ALPHA:.0f} %): "
        + ", ".join(f"{int(counts.get(v, 0))} {v}" for v in ("equivalent", "differs", "undecided"))
    )


def consistency(sides: list[pd.DataFrame]) -> str:
    """Sentences over many tables' rows: the share of played cells where the exact test
    does not reject the thesis's counts (naming the others), and how many the
    equivalence test finds equivalent, different or undecided."""
    played = pd.concat(sides)
    played = played[played["games"] > 0]
    if played.empty:
        return "No fresh games beside the thesis's, so nothing to compare."
    bad = played[~played["consistent"].astype(bool)]
    share = 1 - len(bad) / len(played)
    text = (
        f"{len(played) - len(bad)} of {len(played)} cells ({share:.0%}) are consistent "
        "with the thesis's counts (Fisher's exact test, 5 %, does not reject)"
    )
    if not bad.empty:
        names = "; ".join(
            f"{r.agent} in {r.session} (p = {r.p_exact:.3f})" for r in bad.itertuples()
        )
        text += f"; inconsistent: {names}"
    return text + f". Agreement, {_equivalence_counts(played)}."


def verdict(df: pd.DataFrame) -> str:
    """Sentences under a table: in how many rows the thesis's win rate lies in our
    interval, in how many the exact test does not reject the thesis's counts (naming
    the rows where it does), how many rows the equivalence test finds equivalent,
    different or undecided (an undecided row had too few games to tell), and, where the
    table counts them (``distinct_games``), the sessions whose games repeat each other."""
    played = df[df["games"] > 0]
    if played.empty:
        return "No fresh games for these sessions, so nothing to compare."
    inside = int(played["thesis_inside"].astype(bool).sum())
    flags = played["consistent"].astype(bool)
    text = (
        f"The thesis's win rate lies inside our 95 % interval in {inside} of {len(played)} "
        f"rows; Fisher's exact test finds the thesis's counts consistent with ours in "
        f"{int(flags.sum())} of {len(played)}"
    )
    outside = played[~flags]
    if outside.empty:
        text += ": nothing here contradicts the thesis at this sample size"
    else:
        names = "; ".join(
            f"{r.agent} in {r.session} ({r.thesis_wins}/{r.thesis_games} vs ours "
            f"{r.wins}/{r.games}, p = {r.p_exact:.3f})"
            for r in outside.itertuples()
        )
        text += f"; not for {names}"
    return text + f". Agreement, {_equivalence_counts(played)}." + repeated_games(played)


def plot_beside_thesis(df: pd.DataFrame, title: str, ours: str = "this workbench"):
    """Win rate per session and agent: ``ours`` (what the run is: this workbench, the
    original program's recorded games) with its interval, the thesis's as a cross; each
    agent in its fixed colour and marker (:mod:`chameleon_lab.analysis.style`)."""
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
    labels = [
        f"{a}\n{s.rsplit('-', 1)[-1]}"
        for a, s in zip(played["agent"], played["session"], strict=True)
    ]
    return _win_rate_axes(fig, ax, labels, "agent and session budget", title, 8)


def _win_rate_axes(fig, ax, labels: list[str], xlabel: str, title: str, fontsize: int):
    """The axes of a win-rate plot finished: a tick per label (turned, so that long
    agent names do not run into each other), rates from 0 to 1."""
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=fontsize, rotation=30, ha="right", rotation_mode="anchor")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (share of games won)")
    ax.set_xlabel(xlabel)
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


def mended_beside(
    plain: pd.DataFrame,
    mended: pd.DataFrame,
    thesis: pd.DataFrame | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """The same sessions with the plain and with the mended Hypermax
    (:func:`.sessions.thesis_session` with ``mended``), per session and agent: games,
    wins and win rate of each with a Wilson interval, the median depth each reached,
    Fisher's exact test of the two win rates (``p_exact``), each one's median and
    largest milliseconds a move and largest overshoot of the budget (:data:`.summary.SIDE_FIGURES`),
    and the thesis's wins and games where it played the session (``thesis`` is
    ``thesis-tables.csv``).

    ``plain`` and ``mended`` are :func:`.summary.session_summary` tables; rows are
    those of ``plain``, in its order, that ``mended`` has too.
    """
    other = mended.set_index(["session", "agent"])
    reference = (
        thesis[thesis["scope"] == "session"].set_index(["session", "algorithm"])
        if thesis is not None
        else None
    )
    out = []
    for r in plain.itertuples(index=False):
        key = (r.session, r.agent)
        if key not in other.index:
            continue
        m = other.loc[key]
        row: dict = {"session": r.session, "agent": r.agent}
        for label, side in (("plain", r._asdict()), ("mended", m)):
            games, wins = int(side["games"]), int(side["wins"])
            low, high = wilson_interval(wins, games, confidence)
            row.update(
                {
                    f"{label}_games": games,
                    f"{label}_wins": wins,
                    f"{label}_win_rate": wins / games if games else float("nan"),
                    f"{label}_ci_low": low,
                    f"{label}_ci_high": high,
                    **{f"{label}_{k}": side.get(k, float("nan")) for k in SIDE_FIGURES},
                }
            )
        row["p_exact"] = exact_p(
            row["plain_wins"], row["plain_games"], row["mended_wins"], row["mended_games"]
        )
        if reference is not None and key in reference.index:
            t = reference.loc[key]
            row["thesis_games"], row["thesis_wins"] = int(t["games"]), int(t["wins"])
            row["thesis_win_rate"] = t["wins"] / t["games"]
        out.append(row)
    return pd.DataFrame(out)


def block_wins(t: Tables, agent: str) -> pd.DataFrame:
    """``agent``'s games and wins per session and repetition (block) of ``t``: columns
    ``session``, ``repetition``, ``games``, ``wins``; sessions that do not seat
    ``agent`` are left out."""
    seats = t.seats.drop_duplicates(["session_id", "game", "agent"])
    seats = seats.loc[seats["agent"] == agent, ["session_id", "game", "outcome"]]
    keys = t.games[["session_id", "game", "session", "repetition"]]
    frame = seats.merge(keys, on=["session_id", "game"])
    frame = frame.assign(win=(frame["outcome"] == "win").astype(int))
    out = frame.groupby(["session", "repetition"], sort=False)["win"].agg(["size", "sum"])
    return out.rename(columns={"size": "games", "sum": "wins"}).reset_index()


def mended_blocks(plain: Tables, mended: Tables, agent: str = "Hypermax") -> pd.DataFrame:
    """The same sessions with the plain and with the mended ``agent``
    (:func:`.sessions.thesis_session` with ``mended``), block by block: per session and
    repetition (one opening played in all the session's seatings, the same opening
    for both) ``agent``'s games and wins with each, the blocks both played, in the
    order of ``plain``. Blocks are the unit of
    :func:`~chameleon_lab.analysis.hypermax_answer.mended_verdicts`: the games of one
    block share an opening, and on the original's clock some of them repeat each other
    move for move, so they are not independent observations; blocks are."""
    both = block_wins(plain, agent).merge(
        block_wins(mended, agent), on=["session", "repetition"], suffixes=("_plain", "_mended")
    )
    return both.rename(
        columns={
            "games_plain": "plain_games",
            "wins_plain": "plain_wins",
            "games_mended": "mended_games",
            "wins_mended": "mended_wins",
        }
    )


def plot_mended(df: pd.DataFrame, title: str = "Hypermax plain and mended"):
    """:func:`mended_beside` drawn: per session and agent the win rate with the plain
    Hypermax seated (open marker) and with the mended one (filled), each with its
    interval, and the thesis's as a cross where it played the session; agents in their
    fixed colours and markers."""
    import matplotlib.pyplot as plt

    from ..analysis.style import style_of

    fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(df) + 2), 4))
    for i, row in df.reset_index(drop=True).iterrows():
        look = style_of(row["agent"])
        for label, dx, face in (("plain", -0.15, "none"), ("mended", 0.15, look["color"])):
            rate = row[f"{label}_win_rate"]
            ax.errorbar(
                [i + dx],
                [rate],
                yerr=[[rate - row[f"{label}_ci_low"]], [row[f"{label}_ci_high"] - rate]],
                fmt=look["marker"],
                color=look["color"],
                markerfacecolor=face,
                capsize=3,
                label=f"Hypermax {label} seated (95 % interval)" if i == 0 else None,
            )
    if "thesis_win_rate" in df:
        known = df.reset_index(drop=True)["thesis_win_rate"].dropna()
        ax.scatter(known.index, known, marker="x", color="black", zorder=3, label="thesis")
    labels = [f"{a}\n{s}" for a, s in zip(df["agent"], df["session"], strict=True)]
    fig = _win_rate_axes(fig, ax, labels, "agent and session", title, 7)
    for label in ax.get_xticklabels():  # the longer session names would overlap level
        label.set(rotation=35, ha="right", rotation_mode="anchor")
    fig.tight_layout()
    return fig
