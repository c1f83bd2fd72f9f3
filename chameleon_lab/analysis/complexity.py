"""A game's complexity (thesis table 3.1): branching factor, game length, b^d.

As the thesis did for Chameleon Chess, for every game of the library: self-play games
of one agent (the thesis: MaxN-IS) with a probability of a random move instead of a
search, to vary the games like human mistakes; per game the mean and median number of
legal moves over its positions and its length in moves; then b^d with b the mean
branching factor and d the mean length. Chameleon Chess seats RED and YELLOW for two
players and RED, GREEN and YELLOW for three, as the thesis's runs, and Rolit, which
also seats two to four of its four colours, the colours in the same places (red and
green, diagonal as in Othello; red, yellow and green); other games seat all their
players.

Also the count of board arrangements by the thesis's formula, and perft growth.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..games.chameleon import Position
from ..games.registry import game_entry, get_game
from ..tournament import Session, run_session, tables

#: Chameleon Chess's seatings of the thesis's runs, by player count (and those of the
#: other games whose seating picks their seats, Rolit).
SEATINGS = {2: "a,_,a,_", 3: "a,a,a,_", 4: "a,a,a,a"}


def player_counts(game: str = "chameleon", **params: Any) -> list[int]:
    """The player counts a game can be played with: Chameleon Chess and Rolit (whose
    seating picks the colours) 2, 3 and 4; a game with a ``players`` parameter (Chinese
    Checkers, Focus) every count that parameter accepts, whatever ``params`` gives it;
    any other game its one count."""
    entry = game_entry(game)
    if entry.seats is not None:
        return sorted(SEATINGS)
    count = next((p for p in entry.params if p.name == "players"), None)
    if count is not None:
        return [n for n in sorted(SEATINGS) if _accepts(count.check, n)]
    return [get_game(game, **params).info.n_players]


def _accepts(check: Any, value: int) -> bool:
    try:
        check(value)
    except ValueError:
        return False
    return True


def complexity_session(
    players: int,
    p_random: float,
    games: int,
    agent: Mapping[str, Any],
    seed: int = 0,
    *,
    game: str = "chameleon",
    game_params: Mapping[str, Any] | None = None,
) -> Session:
    """Self-play session: ``games`` games of ``players`` copies of ``agent`` with random
    moves at probability ``p_random``, in ``game`` (with ``game_params``)."""
    game_params = dict(game_params or {})
    valid = player_counts(game, **game_params)
    if players not in valid:
        raise ValueError(f"{game} plays with {valid} players, got {players!r}")
    params = {**agent, "random_move_probability": p_random}
    entry = game_entry(game)
    partial = entry.seats is not None
    if not partial and any(p.name == "players" for p in entry.params):
        game_params["players"] = players  # the count is the game's parameter
    seating = SEATINGS[players] if partial else ",".join(["a"] * players)
    suffix = "" if game == "chameleon" else f"{game}-"
    return Session(
        f"complexity-{suffix}{players}p-r{p_random:g}",
        {"a": params},
        design="fixed",
        seatings=[seating],
        repetitions=games,
        seed=seed,
        game=game,
        game_params=game_params,
        move_limit=100 if game == "chameleon" else None,
    )


def per_game(records: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """Per game: players, random-move probability, mean and median branching factor,
    length in moves (the columns of the thesis's ``branching-factor-and-depth.csv``),
    and ``line``, a short hash of the game's moves (equal games, equal lines); ordered
    by players, probability and game (not by the sessions' fingerprints, which would
    reorder the rows whenever a fingerprint changed)."""
    t = tables(records)
    p = {r["session_id"]: r["agents"]["a"]["random_move_probability"] for r in records}
    grouped = t.moves.groupby(["session_id", "game"])
    out = grouped.agg(b_mean=("legal", "mean"), b_median=("legal", "median"))
    out["length"] = grouped.size()
    out["line"] = grouped["move"].agg(
        lambda moves: hashlib.sha256(" ".join(moves).encode()).hexdigest()[:12]
    )
    out = out.reset_index().merge(t.games[["session_id", "game", "players"]])
    out["p_random"] = out["session_id"].map(p)
    out = out.sort_values(["players", "p_random", "game"], kind="stable", ignore_index=True)
    return out[["players", "p_random", "b_mean", "b_median", "length", "line"]]


def distinct_games(per_game_rows: pd.DataFrame) -> pd.DataFrame:
    """Per player count and random-move probability: games played and how many of them
    differ. A deterministic search with rare random moves plays nearly the same game
    every time, and then b and d measure one game, not the game."""
    g = per_game_rows.groupby(["players", "p_random"])
    out = pd.DataFrame({"games": g.size(), "distinct": g["line"].nunique()})
    out["share_distinct"] = out["distinct"] / out["games"]
    return out.reset_index()


def run_complexity(
    players: Sequence[int],
    probabilities: Sequence[float],
    games: int,
    agent: Mapping[str, Any],
    *,
    seed: int = 0,
    workers: int | None = None,
    progress: bool = True,
    game: str = "chameleon",
    game_params: Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Play the self-play games for every player count and probability; per-game rows."""
    records = []
    for n in players:
        for p in probabilities:
            session = complexity_session(
                n, p, games, agent, seed, game=game, game_params=game_params
            )
            report = run_session(session, workers=workers, progress=progress)
            records += report.complete(session.name).records
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


def perft_growth(
    players: Sequence[str] = ("RG", "RGY", "RGYB"),
    depth: int = 4,
    *,
    game: str = "chameleon",
    game_params: Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Leaves of the game tree 1..``depth`` plies deep from the start of each
    Chameleon seating in ``players``, or (another ``game``) from the game's start,
    labelled by the game in the ``seating`` column."""
    if game == "chameleon":
        starts = {seating: Position.start(seating) for seating in players}
    else:
        spec = get_game(game, **(game_params or {}))
        starts = {repr(spec): spec.start()}
    rows = []
    for label, start in starts.items():
        for d in range(1, depth + 1):
            rows.append({"seating": label, "depth": d, "leaves": start.perft(d)})
    return pd.DataFrame(rows)


def by_probability(ours: pd.DataFrame, reference: pd.DataFrame | None = None) -> pd.DataFrame:
    """b and d per player count and random-move probability, with how many distinct
    games stand behind them; beside ``reference`` (the thesis's own runs, same
    columns) where given. Where the estimates differ, this shows whether they differ
    at every probability or only where few distinct games were played."""
    g = ours.groupby(["players", "p_random"])
    out = pd.DataFrame(
        {
            "b": g["b_mean"].mean(),
            "d": g["length"].mean(),
            "games": g.size(),
            "distinct": g["line"].nunique() if "line" in ours else g.size(),
        }
    )
    if reference is not None:
        r = reference.groupby(["players", "p_random"])
        out = out.join(
            pd.DataFrame(
                {
                    "b_thesis": r["b_mean"].mean(),
                    "d_thesis": r["length"].mean(),
                    "games_thesis": r.size(),
                }
            ),
            how="outer",
        )
    return out.reset_index()
