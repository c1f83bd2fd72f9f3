"""The thesis's result tables, computed the same way from legacy and new records.

Per session and agent (:func:`session_summary`): games the agent took part in, wins,
draws and losses (the original's definition, see :func:`~.tournament.play.outcomes`),
the mean and median thinking time per move in whole milliseconds and the mean and
median reported depth to two decimals, over all moves the agent made. Beside them, not
in the thesis's layout, what its searched (not random) moves took on the clock its
budget was set on (``clock``: ``machine``, or ``original`` for the original's emulated
clock, a node counter read as milliseconds,
:func:`~chameleon_lab.games.chameleon.clock.original_clock_ms`): the median and largest
milliseconds a move and, in time mode, the share of moves over the budget and the
largest overshoot, so a session compares searches and not overshoots.

Over several sessions (:func:`aggregate`), as the thesis's tables did: wins, draws,
losses and games summed; the per-session figures averaged and rounded again. The
thesis averaged the exact per-session times but the per-session depths as printed
(two decimals); only that mix reproduces all its aggregated rows, so it is what
:func:`aggregate` does.

Rounding is Python's (half to even), which reproduces every row of
``reference/thesis-tables.csv`` from the legacy session files.

:func:`distinct_games` counts the games of each session that differ from the others:
where the searches are deterministic (depth mode, the original's clock) two seatings can
play the same moves, and a test that counts such copies as independent games
overstates the evidence (:func:`chameleon_lab.thesis.compare.beside_thesis` counts the
distinct share only).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..games.chameleon.clock import original_clock_ms
from ..tournament.records import Tables
from .stats import time_per_move

SUMMARY_COLUMNS = [
    "session",
    "mode",
    "mode_value",
    "agent",
    "games",
    "wins",
    "draws",
    "losses",
    "time_avg_ms",
    "time_median_ms",
    "depth_avg",
    "depth_median",
    "clock",
    "clock_median_ms",
    "clock_max_ms",
    "over_budget",
    "max_overshoot_ms",
]
#: The figures of a session summary that say how a side searched and what it spent,
#: carried beside a comparison's wins (a search that won by overrunning its budget
#: would not be the better search), each with its words in a table's header.
SIDE_FIGURES = {
    "depth_median": "median depth",
    "clock_median_ms": "median ms a move",
    "clock_max_ms": "largest ms a move",
    "max_overshoot_ms": "largest overshoot, ms",
}
_FIGURES = {"time_avg_ms": 0, "time_median_ms": 0, "depth_avg": 2, "depth_median": 2}


def _round(df: pd.DataFrame, columns: Sequence[str] = tuple(_FIGURES)) -> pd.DataFrame:
    for col in columns:
        digits = _FIGURES[col]
        df[col] = [None if pd.isna(v) else round(float(v), digits) for v in df[col]]
    return df


def session_summary(t: Tables, *, rounded: bool = True) -> pd.DataFrame:
    """One row per session and agent in the thesis's layout (agents in seating order).

    ``rounded=False`` keeps the exact means and medians.
    """
    outcome = t.seats.sort_values(["session", "session_id", "agent_index"], kind="stable")
    outcome = outcome.drop_duplicates(["session_id", "game", "agent"])
    counts = (
        outcome.groupby(["session_id", "agent"], sort=False)["outcome"]
        .value_counts()
        .unstack(fill_value=0)
        .reindex(columns=["win", "draw", "loss"], fill_value=0)
    )
    figures = t.moves.groupby(["session_id", "agent"], sort=False).agg(
        time_avg_ms=("time_ms", "mean"),
        time_median_ms=("time_ms", "median"),
        depth_avg=("depth", "mean"),
        depth_median=("depth", "median"),
    )
    meta = t.games.drop_duplicates("session_id").set_index("session_id")
    timing = _timing(t.moves, meta)
    rows = []
    pairs = outcome[["session_id", "agent"]].drop_duplicates().itertuples(index=False)
    for sid, agent in pairs:
        c = counts.loc[(sid, agent)]
        f = figures.loc[(sid, agent)] if (sid, agent) in figures.index else None
        rows.append(
            {
                "session": meta.at[sid, "session"],
                "mode": meta.at[sid, "mode"],
                "mode_value": meta.at[sid, "mode_value"],
                "agent": agent,
                "games": int(c.sum()),
                "wins": int(c["win"]),
                "draws": int(c["draw"]),
                "losses": int(c["loss"]),
                **{k: (None if f is None else f[k]) for k in _FIGURES},
                **_timing_row(timing, sid, agent),
            }
        )
    out = pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
    return _round(out) if rounded else out


def _timing(moves: pd.DataFrame, meta: pd.DataFrame) -> pd.DataFrame:
    """Per session and agent its searched moves' milliseconds on the clock of its budget
    (the original's emulated clock where the moves carry a ``node_rate``): median,
    largest and, where the session's mode is time, the share over the budget and the
    largest overshoot (NaN in depth mode)."""
    searched = moves[~moves["random"].astype(bool)] if "random" in moves else moves
    clock_ms = searched["time_ms"].astype(float)
    emulated = searched["node_rate"].notna() if "node_rate" in searched else None
    if emulated is not None and emulated.any():
        nodes = searched["expanded"].astype(float) + searched["evaluated"].astype(float)
        ticks = original_clock_ms(nodes, searched["pawns"], searched["node_rate"])
        clock_ms = clock_ms.where(~emulated, pd.Series(ticks, index=searched.index))
    timed = meta["mode_value"].astype(float).where(meta["mode"] == "time")
    frame = searched.assign(
        clock_ms=clock_ms,
        original=False if emulated is None else emulated,
        budget=searched["session_id"].map(timed),
    )
    keys = ["session_id", "agent"]
    figures = time_per_move(frame, by=keys, budget="budget", clock="clock_ms")
    original = frame.groupby(keys, sort=False)["original"].any().rename("original")
    return (
        figures.set_index(keys)
        .join(original)
        .rename(
            columns={
                "median_ms": "clock_median_ms",
                "max_ms": "clock_max_ms",
                "share_over_budget": "over_budget",
            }
        )
    )


_TIMING = {"clock_median_ms": 1, "clock_max_ms": 0, "over_budget": 3, "max_overshoot_ms": 0}


def _timing_row(timing: pd.DataFrame, sid: str, agent: str) -> dict[str, object]:
    """One agent's :func:`_timing` figures, rounded (None where it made no searched
    move)."""
    if (sid, agent) not in timing.index:
        return {"clock": None, **dict.fromkeys(_TIMING)}
    f = timing.loc[(sid, agent)]
    return {
        "clock": "original" if f["original"] else "machine",
        **{k: None if pd.isna(f[k]) else round(float(f[k]), d) for k, d in _TIMING.items()},
    }


def aggregate(t: Tables, sessions: Sequence[str] | None = None) -> pd.DataFrame:
    """The thesis's table over ``sessions`` (default: all in ``t``): W/D/L and games
    summed, per-session figures averaged (see the module docstring), per agent in
    first-seen order."""
    summary = _round(session_summary(t, rounded=False), ("depth_avg", "depth_median"))
    if sessions is not None:
        missing = sorted(set(sessions) - set(summary["session"]))
        if missing:
            raise ValueError(
                f"no summary rows for session(s) {', '.join(missing)}; "
                f"present: {', '.join(dict.fromkeys(summary['session']))}"
            )
        summary = summary[summary["session"].isin(sessions)]
    grouped = summary.groupby("agent", sort=False)
    out = grouped[["games", "wins", "draws", "losses"]].sum()
    out[list(_FIGURES)] = grouped[list(_FIGURES)].mean()
    out.insert(0, "sessions", grouped["session"].agg("+".join))
    modes = grouped["mode"].agg(lambda m: m.iloc[0] if m.nunique() == 1 else "mixed")
    out.insert(1, "mode", modes)
    return _round(out.reset_index())


def distinct_games(t: Tables) -> pd.DataFrame:
    """Per session (in the order of ``t``): ``games`` played and ``distinct_games``, the
    number of different games among them (different opening or moves, ply by ply, in
    whichever seats the agents sat), so that a test counting games as independent can
    be read beside what it counted."""
    moves = t.moves.groupby(["session_id", "game"], sort=False)["move"].agg(" ".join)
    games = t.games.set_index(["session_id", "game"])
    key = games["opening"].astype(str) + "|" + moves.reindex(games.index).fillna("")
    frame = pd.DataFrame({"session": games["session"].to_numpy(), "key": key.to_numpy()})
    out = frame.groupby("session", sort=False)["key"].agg(["size", "nunique"])
    return out.rename(columns={"size": "games", "nunique": "distinct_games"}).reset_index()


def repeated_games(played: pd.DataFrame) -> str:
    """The sessions of a table of rows per session and agent (``session``, ``games``,
    ``distinct_games`` of :func:`distinct_games`) whose games repeat each other, in
    words, with a leading space, and how the table's tests counted them (only the
    distinct share where it has ``effective_games``; every copy in tables written
    before); empty when the table does not count them."""
    if "distinct_games" not in played:
        return ""
    sessions = played.drop_duplicates("session")
    sessions = sessions[sessions["distinct_games"].notna()]
    if sessions.empty:
        return ""
    copied = sessions[sessions["distinct_games"] < sessions["games"]]
    if copied.empty:
        many = f"each of the {len(sessions)} sessions" if len(sessions) > 1 else "the session"
        return f" In {many} every game differs from the others."
    listed = ", ".join(
        f"{r.session} {int(r.distinct_games)} of {int(r.games)}" for r in copied.itertuples()
    )
    counted = (
        "the tests count only that share of the games, on both sides (copies of a "
        "deterministic game carry no new evidence)"
        if "effective_games" in played  # tables since the tests count distinct games
        else "the tests count each copy as an independent game and overstate the evidence there"
    )
    return (
        f" Games repeated each other move for move in {len(copied)} of {len(sessions)} "
        f"sessions (distinct games: {listed}); {counted}."
    )
