"""The game's complexity (thesis table 3.1): branching factor, game length, b^d.

As the thesis did: self-play games of one agent (MaxN-IS) with a probability of a
random move instead of a search, to vary the games like human mistakes; per game the
mean and median number of legal moves over its positions and its length in moves;
then b^d with b the mean branching factor and d the mean length. Two-player games
seat RED and YELLOW, three-player games RED, GREEN and YELLOW, as the thesis's runs.

Also the count of board arrangements by the thesis's formula, and perft growth.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..games.chameleon import Position
from ..tournament import Session, run_session, tables

SEATINGS = {2: "a,_,a,_", 3: "a,a,a,_", 4: "a,a,a,a"}


def complexity_session(
    players: int, p_random: float, games: int, agent: Mapping[str, Any], seed: int = 0
) -> Session:
    """Self-play session: ``games`` games of ``players`` copies of ``agent`` with random
    moves at probability ``p_random``."""
    if players not in SEATINGS:
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    params = {**agent, "random_move_probability": p_random}
    return Session(
        f"complexity-{players}p-r{p_random:g}",
        {"a": params},
        design="fixed",
        seatings=[SEATINGS[players]],
        repetitions=games,
        seed=seed,
    )


def per_game(records: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """Per game: players, random-move probability, mean and median branching factor,
    length in moves (the columns of the thesis's ``branching-factor-and-depth.csv``)."""
    t = tables(records)
    p = {r["session_id"]: r["agents"]["a"]["random_move_probability"] for r in records}
    grouped = t.moves.groupby(["session_id", "game"])
    out = grouped.agg(b_mean=("legal", "mean"), b_median=("legal", "median"))
    out["length"] = grouped.size()
    out = out.reset_index().merge(t.games[["session_id", "game", "players"]])
    out["p_random"] = out["session_id"].map(p)
    return out[["players", "p_random", "b_mean", "b_median", "length"]]


def run_complexity(
    players: Sequence[int],
    probabilities: Sequence[float],
    games: int,
    agent: Mapping[str, Any],
    *,
    seed: int = 0,
    workers: int | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Play the self-play games for every player count and probability; per-game rows."""
    records = []
    for n in players:
        for p in probabilities:
            session = complexity_session(n, p, games, agent, seed)
            records += run_session(session, workers=workers, progress=progress).records
    return per_game(records)


def estimate(per_game_rows: pd.DataFrame) -> pd.DataFrame:
    """Table 3.1 from per-game rows: per player count b (mean of the games' mean
    branching factors), d (mean length; also the median) and log10(b^d)."""
    g = per_game_rows.groupby("players")
    out = pd.DataFrame(
        {
            "b": g["b_mean"].mean(),
            "d": g["length"].mean(),
            "d_median": g["length"].median(),
            "games": g.size(),
        }
    )
    out["log10_bd"] = out["d"] * np.log10(out["b"])
    return out.reset_index()


def board_arrangements(max_pawns: int = 16, squares: int = 64) -> int:
    """The thesis's count: sum over i = 1..16 of C(64, i) * 16! / (16 - i)!."""
    return sum(math.comb(squares, i) * math.perm(max_pawns, i) for i in range(1, max_pawns + 1))


def perft_growth(players: Sequence[str] = ("RG", "RGY", "RGYB"), depth: int = 4) -> pd.DataFrame:
    """Leaves of the game tree 1..``depth`` plies deep from the start of each seating."""
    rows = []
    for seating in players:
        start = Position.start(seating)
        for d in range(1, depth + 1):
            rows.append({"seating": seating, "depth": d, "leaves": start.perft(d)})
    return pd.DataFrame(rows)
