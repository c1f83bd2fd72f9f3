"""The experiments of notebook ``09_beyond_the_thesis``: the thesis's searches against
the newer multi-player methods, rated.

* :func:`ladder_study`: a round robin of :data:`LADDER_AGENTS` (or any agents) on
  Chameleon Chess with three and four players at several time budgets, in blocks
  (:func:`~chameleon_lab.tournament.designs.block_seatings`): each block one opening
  of a suite of distinct openings, played with seatings that give every agent every
  seat equally often and every pair of agents equally many meetings.
* :func:`ladder_ratings`: Plackett-Luce ratings from the games' finishing orders with
  bootstrap intervals over blocks per player count and budget
  (:func:`~chameleon_lab.analysis.ranking.ratings`).
* :func:`design_summary`: what the records show of the design: games, blocks,
  distinct openings, seats per agent and meetings per pair (fewest and most).
* :func:`two_player_study`: MCTS against the two-player suite's alpha-beta on Connect
  Four and Othello, in game pairs on distinct openings.
* :func:`effort_by_phase`: nodes, iterations and depth per move by game phase.

The published claims are head-to-head comparisons, tested by
:mod:`chameleon_lab.analysis.headtohead` (:data:`CLAIMS` names them). Fresh games go
to records files under ``records_dir`` (one per session), so a rerun resumes instead
of starting over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..tournament import Session, Tables, run_session, session_records, tables
from ..tournament.designs import balance
from .headtohead import Claim
from .ranking import ratings_or_reason
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

#: The published claims on these agents, each against the rivals its paper names
#: (MaxN-IS stands for MaxN: the same values at every depth, found with fewer nodes).
CLAIMS: tuple[Claim, ...] = (
    Claim("Schadd & Winands 2011", "Best-Reply Search is stronger than MaxN", "brs", "maxnis"),
    Claim(
        "Schadd & Winands 2011", "Best-Reply Search is stronger than Paranoid", "brs", "paranoid"
    ),
    Claim("Esser et al. 2013", "BRS+ is stronger than BRS", "brsplus", "brs"),
    Claim("Nijssen & Winands 2011", "progressive history improves MCTS-maxn", "mcts-ph", "mcts"),
    Claim(
        "Nijssen & Winands 2013",
        "MCTS-maxn is stronger than MCTS-paranoid",
        "mcts",
        "mcts-paranoid",
    ),
    Claim("Nijssen & Winands 2013", "MCTS-maxn is stronger than MCTS-BRS", "mcts", "mcts-brs"),
)


def _with_budget(agents: Mapping[str, Mapping[str, Any]], budget_ms: float) -> dict:
    return {name: {**params, "time_ms": float(budget_ms)} for name, params in agents.items()}


def ladder_session(
    agents: Mapping[str, Mapping[str, Any]],
    players: int,
    budget_ms: float,
    blocks: int,
    *,
    seed: int = 0,
    opening_plies: int = 8,
) -> Session:
    """A round robin of ``agents`` at ``players`` seats and ``budget_ms`` a move:
    ``blocks`` blocks, each a distinct opening of ``opening_plies`` random plies
    played with the balanced seatings of a block (seat orders of a Williams square:
    with four seats 4 games a group of agents instead of 24)."""
    return Session(
        f"beyond-{players}p-{budget_ms:g}ms",
        _with_budget(agents, budget_ms),
        design="blocks",
        players=players,
        orders="williams",
        repetitions=blocks,
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
        run_session(session, out, workers=workers, progress=progress).complete(session.name)
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
    blocks: int = 2,
    *,
    seed: int = 0,
    opening_plies: int = 8,
    records_dir: str | Path = "data/records/beyond",
    workers: int | None = None,
    progress: bool = True,
) -> Tables:
    """The round robin of ``agents`` (default :data:`LADDER_AGENTS`) for every player
    count and budget, ``blocks`` blocks each; tables with ``players`` and
    ``budget_ms`` columns."""
    agents = LADDER_AGENTS if agents is None else agents
    sessions = [
        (
            ladder_session(agents, p, b, blocks, seed=seed, opening_plies=opening_plies),
            {"players": int(p), "budget_ms": float(b)},
        )
        for p in players
        for b in budgets_ms
    ]
    return _run(sessions, records_dir, workers, progress)


def _subset(t: Tables, mask_of: Any) -> Tables:
    return Tables(*(df[mask_of(df)].reset_index(drop=True) for df in (t.games, t.seats, t.moves)))


def ladder_ratings(
    t: Tables, by: Sequence[str] = ("players", "budget_ms"), *, seed: int = 0
) -> pd.DataFrame:
    """Plackett-Luce ratings (Elo scale, mean 0) with 95 % bootstrap intervals over
    blocks and the chance of being rated best, per group of ``by``. A group whose
    games admit no estimate (an agent ahead of, or behind, everyone it met) gets NaN
    ratings and the reason in ``note``, instead of stopping the study."""
    out = []
    for key, _ in t.games.groupby(list(by), sort=True):
        key = key if isinstance(key, tuple) else (key,)

        def mask(df: pd.DataFrame, key: tuple = key) -> pd.Series:
            return np.logical_and.reduce([df[c] == v for c, v in zip(by, key, strict=True)])

        r = ratings_or_reason(_subset(t, mask), seed=seed)
        for c, v in zip(by, key, strict=True):
            r[c] = v
        out.append(r)
    rated = pd.concat(out, ignore_index=True)
    return rated[[*by, *[c for c in rated.columns if c not in by]]]


def design_summary(t: Tables, by: Sequence[str] = ("players", "budget_ms")) -> pd.DataFrame:
    """Per group of ``by``, what the records show of the design: games, blocks,
    distinct openings, the fewest and most games an agent played at one seat, and the
    fewest and most games a pair of agents met in (the games' seatings counted by
    :func:`~chameleon_lab.tournament.designs.balance`)."""
    seat_columns = [c for c in t.games.columns if c.startswith("seat_")]
    rows = []
    for key, games in t.games.groupby(list(by), sort=True):
        key = key if isinstance(key, tuple) else (key,)
        seatings = [
            tuple(None if pd.isna(name) else name for name in row)
            for row in games[seat_columns].itertuples(index=False)
        ]
        per_seat, pairs = balance(seatings)
        meetings = pairs.to_numpy()[~np.eye(len(pairs), dtype=bool)]
        rows.append(
            {
                **dict(zip(by, key, strict=True)),
                "games": len(games),
                "blocks": games[["session_id", "repetition"]].drop_duplicates().shape[0],
                "openings": games["opening"].nunique(),
                "seat_games_min": int(per_seat.to_numpy().min()),
                "seat_games_max": int(per_seat.to_numpy().max()),
                "meetings_min": int(meetings.min()),
                "meetings_max": int(meetings.max()),
            }
        )
    return pd.DataFrame(rows)


def two_player_study(
    game: str,
    agents: Mapping[str, Mapping[str, Any]] | None = None,
    budgets_ms: Sequence[float] = (10,),
    blocks: int = 2,
    *,
    seed: int = 0,
    opening_plies: int = 2,
    records_dir: str | Path = "data/records/beyond",
    workers: int | None = None,
    progress: bool = True,
) -> Tables:
    """Every pair of ``agents`` (default :data:`TWO_PLAYER_AGENTS`) plays ``game`` at
    every budget in ``blocks`` blocks: a block is one distinct opening of
    ``opening_plies`` random plies on which every pair plays a game pair (both seat
    orders); tables with ``game`` and ``budget_ms`` columns (``game_name`` is the
    game)."""
    agents = TWO_PLAYER_AGENTS if agents is None else agents
    sessions = [
        (
            Session(
                f"beyond-{game}-{b:g}ms",
                _with_budget(agents, b),
                design="blocks",
                game=game,
                repetitions=blocks,
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
