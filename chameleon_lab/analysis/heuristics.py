"""Exploring heuristics: values side by side, agreement with search, and a tournament.

The functions behind notebook ``00_explore_heuristics``. A heuristic gives one score per
player; to compare heuristics with one another and with searches, each position is
read as the *mover's lead*: the score of the player to move minus the best score among
the others (for a two-player game the usual difference). Comparisons are rank
correlations (Spearman), so heuristics on different scales compare fairly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..games.heuristic_check import check_heuristic
from ..games.registry import Game
from ..search.api import search
from ..tournament.session import Session

#: The thesis's four evaluation functions (Chameleon Chess).
THESIS_HEURISTICS = ("pawns", "pawns10roles", "pawns100roles", "pawns100moves")


def mover_lead(scores: np.ndarray, mover: int, players: Sequence[int]) -> float:
    """Score of ``mover`` minus the best score of the other players taking part."""
    others = [scores[p] for p in players if p != mover]
    return float(scores[mover] - max(others))


def _mover(pos: Any) -> int:
    return int(pos.to_move)


def heuristic_values(
    game: Game, positions: Sequence[Any], heuristics: Sequence[str | Callable]
) -> pd.DataFrame:
    """One row per position, one column per heuristic: the mover's lead by that
    heuristic (every heuristic checked first, with a clear error where one fails)."""
    players = list(game.info.players)
    columns = {}
    for h in heuristics:
        checked = check_heuristic(h, game, positions=positions, normalize=False)
        leads = []
        for pos, row in zip(positions, checked.values, strict=True):
            scores = np.zeros(4)
            scores[players] = row
            leads.append(mover_lead(scores, _mover(pos), players))
        columns[checked.heuristic.name] = leads
    out = pd.DataFrame(columns)
    out.index.name = "position"
    return out


def _root_value(result: Any, mover: int, players: Sequence[int]) -> float:
    value = np.asarray(result.scores[result.index], dtype=float)
    if value.ndim == 0:  # the two-player suite: a scalar for the mover
        return float(value)
    return mover_lead(value, mover, players)


def search_values(
    game: Game,
    positions: Sequence[Any],
    heuristic: str | Callable,
    *,
    algorithm: str,
    depth: int,
    **options: Any,
) -> pd.Series:
    """The mover's lead in the value ``algorithm`` backs up from ``depth`` plies with
    ``heuristic`` (the "deeper search result" a heuristic should predict)."""
    players = list(game.info.players)
    values = []
    for pos in positions:
        result = search(pos, algorithm, depth=depth, heuristic=heuristic, **options)
        values.append(_root_value(result, _mover(pos), players))
    name = heuristic if isinstance(heuristic, str) else game.heuristics.get(heuristic).name
    return pd.Series(values, name=f"{algorithm} depth {depth} ({name})")


def correlations(values: pd.DataFrame) -> pd.DataFrame:
    """Spearman rank correlations between the columns (heuristics, search values)."""
    return values.corr(method="spearman")


def choices(
    game: Game,
    positions: Sequence[Any],
    heuristics: Sequence[str | Callable],
    *,
    algorithm: str,
    depth: int,
    **options: Any,
) -> pd.DataFrame:
    """The move each heuristic's search picks on each position (one column each)."""
    columns = {}
    for h in heuristics:
        name = h if isinstance(h, str) else game.heuristics.get(h).name
        columns[name] = [
            str(pos.legal_moves[search(pos, algorithm, depth=depth, heuristic=h, **options).index])
            for pos in positions
        ]
    return pd.DataFrame(columns)


def agreement(picked: pd.DataFrame) -> pd.DataFrame:
    """How often two heuristics' searches pick the same move (share of positions)."""
    names = list(picked.columns)
    return pd.DataFrame(
        [[float((picked[a] == picked[b]).mean()) for b in names] for a in names],
        index=names,
        columns=names,
    )


def heuristic_session(
    own: Callable,
    opponents: Sequence[str],
    *,
    game: str = "chameleon",
    game_params: Mapping[str, Any] | None = None,
    algorithm: str = "maxn",
    depth: int = 2,
    blocks: int = 1,
    opening_plies: int = 4,
    seed: int = 0,
    **agent: Any,
) -> Session:
    """A round robin of ``own`` and the built-in ``opponents`` in balanced blocks, every
    agent the same search at ``depth`` plies, two seats a game (Chameleon Chess: the
    first two).

    Each block is one opening of a suite of distinct openings (``opening_plies`` random
    plies; :func:`~chameleon_lab.tournament.designs.opening_suite`) on which every pair
    of agents plays both seat orders: the searches are deterministic, so the openings
    are what makes the games differ, and the blocks are what the intervals resample.
    The session is named by the game and the heuristic's code fingerprint, so a re-run
    resumes and an edited heuristic starts a file of its own instead of mixing its
    games with the old version's. ``agent`` adds parameters to every agent.
    """
    from ..games.registry import get_game

    spec = get_game(game, **(game_params or {}))
    heuristic = spec.heuristics.get(own)
    base = {"algorithm": algorithm, "depth": depth, **agent}
    agents = {heuristic.name: {**base, "heuristic": own}}
    agents |= {name: {**base, "heuristic": name} for name in opponents}
    if heuristic.name in opponents:
        raise ValueError(f"the heuristic's name {heuristic.name!r} is one of the opponents")
    if game != "chameleon" and spec.info.n_players != 2:
        raise ValueError(f"head-to-head games need two players; {game} has {spec.info.n_players}")
    return Session(
        f"explore-{game}-{heuristic.name}-{heuristic.fingerprint}",
        agents,
        design="blocks",
        players=2 if game == "chameleon" else None,
        repetitions=blocks,
        seed=seed,
        opening_plies=opening_plies,
        game=game,
        game_params=dict(game_params or {}),
        **({} if game == "chameleon" else {"move_limit": None}),
    )
