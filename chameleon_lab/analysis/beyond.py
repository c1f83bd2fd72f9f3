"""The experiments of notebook ``09_beyond_the_thesis``: the thesis's searches against
the newer multi-player methods, rated.

* :func:`ladder_study`: a round robin of :data:`LADDER_AGENTS` (or any agents) on
  Chameleon Chess with three and four players at several time budgets, from random
  openings; every game seats distinct agents dealt so that each sits about equally
  often (:func:`~chameleon_lab.tournament.seatings.balanced_seatings`).
* :func:`ladder_ratings`: Bradley-Terry ratings with 95 % intervals per player count
  and budget (:func:`~.stats.ratings`: every pair of agents in a game is one
  comparison, the better result wins it).
* :func:`verdicts`: the published claims (:data:`CLAIMS`) against those ratings.
* :func:`two_player_study`: MCTS against the two-player suite's alpha-beta on Connect
  Four and Othello.
* :func:`effort_by_phase`: nodes, iterations and depth per move by game phase.

Fresh games go to records files under ``records_dir`` (one per session), so a rerun
resumes instead of starting over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as st

from ..tournament import Session, Tables, run_session, session_records, tables
from ..tournament.seatings import balanced_seatings
from .stats import ratings
from .studies import phase

#: MCTS's playouts in Chameleon Chess: random games there run long, so a playout stops
#: after this many plies and the heuristic scores where it stopped.
CHAMELEON_PLAYOUT_DEPTH = 10

#: The ladder's agents by label (their budget comes from the study): the thesis's three
#: that prune, improved; Best-Reply Search and BRS+; MCTS with the maxn backup without
#: and with progressive history (W = 3, as Ludii), and with the paranoid and brs backups.
LADDER_AGENTS: dict[str, dict[str, Any]] = {
    "maxnis": {"algorithm": "maxnis"},
    "paranoid": {"algorithm": "paranoid"},
    "hypermax": {"algorithm": "hypermax"},
    "brs": {"algorithm": "brs"},
    "brsplus": {"algorithm": "brsplus"},
    "mcts": {"algorithm": "mcts", "options": {"playout_depth": CHAMELEON_PLAYOUT_DEPTH}},
    "mcts-ph": {
        "algorithm": "mcts",
        "options": {"playout_depth": CHAMELEON_PLAYOUT_DEPTH, "progressive_history": 3.0},
    },
    "mcts-paranoid": {
        "algorithm": "mcts",
        "options": {"playout_depth": CHAMELEON_PLAYOUT_DEPTH, "backup": "paranoid"},
    },
    "mcts-brs": {
        "algorithm": "mcts",
        "options": {"playout_depth": CHAMELEON_PLAYOUT_DEPTH, "backup": "brs"},
    },
}

#: The two-player ladder's agents: MCTS with random playouts to the end, with and
#: without its solver, and the suite's alpha-beta with all its enhancements.
TWO_PLAYER_AGENTS: dict[str, dict[str, Any]] = {
    "mcts": {"algorithm": "mcts"},
    "mcts-solver": {"algorithm": "mcts", "options": {"solver": True}},
    "alphabeta": {"algorithm": "alphabeta"},
}

#: Published claims as (who says it, what, the agent claimed stronger, its rivals).
CLAIMS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    (
        "Nijssen & Winands 2011",
        "MCTS-maxn with progressive history is the strongest MCTS variant",
        "mcts-ph",
        ("mcts", "mcts-paranoid", "mcts-brs"),
    ),
    (
        "Schadd & Winands 2011",
        "Best-Reply Search is stronger than MaxN and Paranoid",
        "brs",
        ("maxnis", "paranoid"),
    ),
    ("Esser et al. 2013", "BRS+ is stronger than BRS", "brsplus", ("brs",)),
)


def _with_budget(agents: Mapping[str, Mapping[str, Any]], budget_ms: float) -> dict:
    return {name: {**params, "time_ms": float(budget_ms)} for name, params in agents.items()}


def ladder_session(
    agents: Mapping[str, Mapping[str, Any]],
    players: int,
    budget_ms: float,
    games: int,
    *,
    seed: int = 0,
    opening_plies: int = 8,
) -> Session:
    """One round robin of ``agents`` in ``games`` games of ``players`` players at
    ``budget_ms`` a move, each from ``opening_plies`` random plies."""
    seatings = balanced_seatings(list(agents), players, games, seed)
    return Session(
        f"beyond-{players}p-{budget_ms:g}ms",
        _with_budget(agents, budget_ms),
        design="fixed",
        seatings=seatings,
        seed=seed,
        opening_plies=opening_plies,
    )


def _run(
    sessions: Sequence[tuple[Session, dict[str, Any]]],
    records_dir: str | Path,
    workers: int | None,
    progress: bool,
) -> Tables:
    """Play (or resume) every session; tables with each session's labels as columns."""
    records = []
    labels = {}
    for session, label in sessions:
        out = session.records_file(Path(records_dir))
        run_session(session, out, workers=workers, progress=progress)
        records += session_records(out, session)
        labels[session.fingerprint] = label
    t = tables(records)
    by_id = {sid: labels[sid] for sid in t.games["session_id"].unique()}
    for df in (t.games, t.seats, t.moves):
        for key in next(iter(labels.values())):
            df[key] = df["session_id"].map(lambda s, k=key: by_id[s][k])
    return t


def ladder_study(
    agents: Mapping[str, Mapping[str, Any]] | None = None,
    players: Sequence[int] = (3, 4),
    budgets_ms: Sequence[float] = (10, 30),
    games: int = 12,
    *,
    seed: int = 0,
    opening_plies: int = 8,
    records_dir: str | Path = "data/records/beyond",
    workers: int | None = None,
    progress: bool = True,
) -> Tables:
    """The round robin of ``agents`` (default :data:`LADDER_AGENTS`) for every player
    count and budget; tables with ``players`` and ``budget_ms`` columns."""
    agents = LADDER_AGENTS if agents is None else agents
    sessions = [
        (
            ladder_session(agents, p, b, games, seed=seed, opening_plies=opening_plies),
            {"players": int(p), "budget_ms": float(b)},
        )
        for p in players
        for b in budgets_ms
    ]
    return _run(sessions, records_dir, workers, progress)


def _subset(t: Tables, mask_of: Any) -> Tables:
    return Tables(*(df[mask_of(df)].reset_index(drop=True) for df in (t.games, t.seats, t.moves)))


def ladder_ratings(t: Tables, by: Sequence[str] = ("players", "budget_ms")) -> pd.DataFrame:
    """Bradley-Terry ratings (Elo scale, mean 0, 95 % intervals) per group of ``by``."""
    out = []
    for key, _ in t.games.groupby(list(by), sort=True):
        key = key if isinstance(key, tuple) else (key,)

        def mask(df: pd.DataFrame, key: tuple = key) -> pd.Series:
            return np.logical_and.reduce([df[c] == v for c, v in zip(by, key, strict=True)])

        r = ratings(_subset(t, mask))
        for c, v in zip(by, key, strict=True):
            r[c] = v
        out.append(r)
    return pd.concat(out, ignore_index=True)[[*by, "agent", "elo", "ci_low", "ci_high", "se",
                                              "comparisons"]]  # fmt: skip


def verdicts(
    rated: pd.DataFrame,
    claims: Sequence[tuple[str, str, str, Sequence[str]]] = CLAIMS,
    by: Sequence[str] = ("players", "budget_ms"),
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Each claim against the ratings of every group of ``by``: the claimed agent's
    rating minus its best rival's, with an interval (the two standard errors combined
    as if independent), and a verdict: ``supported`` (the interval lies above 0),
    ``contradicted`` (below 0) or ``open`` (it holds 0: the games cannot tell)."""
    z = st.norm.ppf(0.5 + confidence / 2.0)
    rows = []
    for key, group in rated.groupby(list(by), sort=True):
        key = key if isinstance(key, tuple) else (key,)
        elo = group.set_index("agent")
        for source, claim, agent, rivals in claims:
            present = [r for r in rivals if r in elo.index]
            if agent not in elo.index or not present:
                continue
            rival = max(present, key=lambda r: elo.at[r, "elo"])
            gap = float(elo.at[agent, "elo"] - elo.at[rival, "elo"])
            half = z * float(np.hypot(elo.at[agent, "se"], elo.at[rival, "se"]))
            verdict = (
                "supported" if gap - half > 0 else "contradicted" if gap + half < 0 else "open"
            )
            rows.append(
                {
                    **dict(zip(by, key, strict=True)),
                    "source": source,
                    "claim": claim,
                    "best_rival": rival,
                    "elo_gap": gap,
                    "ci_low": gap - half,
                    "ci_high": gap + half,
                    "verdict": verdict,
                }
            )
    return pd.DataFrame(rows)


def two_player_study(
    game: str,
    agents: Mapping[str, Mapping[str, Any]] | None = None,
    budgets_ms: Sequence[float] = (10,),
    repetitions: int = 2,
    *,
    seed: int = 0,
    opening_plies: int = 2,
    records_dir: str | Path = "data/records/beyond",
    workers: int | None = None,
    progress: bool = True,
) -> Tables:
    """Every ordered pair of ``agents`` (default :data:`TWO_PLAYER_AGENTS`) plays
    ``game`` at every budget, ``repetitions`` times from random openings; tables with
    ``game`` and ``budget_ms`` columns (``game_name`` is the game)."""
    agents = TWO_PLAYER_AGENTS if agents is None else agents
    sessions = [
        (
            Session(
                f"beyond-{game}-{b:g}ms",
                _with_budget(agents, b),
                design="fixed",
                seatings=list(permutations(agents, 2)),
                game=game,
                repetitions=repetitions,
                seed=seed,
                opening_plies=opening_plies,
                move_limit=None,
            ),
            {"budget_ms": float(b)},
        )
        for b in budgets_ms
    ]
    return _run(sessions, records_dir, workers, progress)


def effort_by_phase(moves: pd.DataFrame) -> pd.DataFrame:
    """Median nodes (expanded + evaluated), MCTS iterations and completed depth per move,
    per agent, budget and game phase (pawns on the board); MCTS's depth is its tree's."""
    df = moves[~moves["random"].astype(bool)].copy()
    df["phase"] = phase(df["pawns"])
    df["nodes"] = df["expanded"] + df["evaluated"]
    if "iterations" not in df:
        df["iterations"] = np.nan
    return (
        df.groupby(["agent", "budget_ms", "phase"], observed=True)[["nodes", "iterations", "depth"]]
        .median()
        .reset_index()
    )


def verdict_text(table: pd.DataFrame) -> str:
    """The verdicts of :func:`verdicts` in words, one line per claim and group, so a
    notebook's conclusion reads what its own run found."""
    lines = []
    for (source, claim), group in table.groupby(["source", "claim"], sort=False):
        lines.append(f"{source}: {claim}.")
        for row in group.itertuples():
            lines.append(
                f"  {row.players} players, {row.budget_ms:g} ms: {row.verdict} "
                f"({row.elo_gap:+.0f} Elo against {row.best_rival}, 95 % interval "
                f"{row.ci_low:+.0f} to {row.ci_high:+.0f})"
            )
    return "\n".join(lines)
