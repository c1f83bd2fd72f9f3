"""Tournaments of the seed programs' levels, and the solved values of opening moves.

The functions behind notebook ``07_connect_four_reversi``: seed 004's Connect Four
computer at each level and aggressiveness step, seed 003's three Reversi levels, each
as a round robin in which every agent plays each colour against every other; and the
exact value of every first move of Connect Four from the solver. The round robins
are played in blocks (:func:`~chameleon_lab.tournament.designs.block_seatings`): each
block one distinct opening on which every pair of agents plays both colours.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from ..games.connect4.levels import level_params as connect4_level
from ..games.othello.levels import level_params as reversi_level
from ..games.registry import get_game
from ..search.solve import solve
from ..tournament.session import Session


def connect4_levels_session(
    levels: Sequence[int],
    aggressiveness: Sequence[int],
    *,
    repetitions: int = 1,
    seed: int = 0,
    random_move_probability: float = 0.0,
    opening_plies: int = 2,
) -> Session:
    """Every (level, aggressiveness) agent of seed 004 against every other, both colours,
    in ``repetitions`` blocks, each from its own distinct opening of ``opening_plies``
    random plies (the agents are deterministic: see
    :class:`~chameleon_lab.tournament.session.Session`); agents are named
    ``L{level}A{aggressiveness}``."""
    agents = {
        f"L{lv}A{a}": {**connect4_level(lv, a), "random_move_probability": random_move_probability}
        for lv in levels
        for a in aggressiveness
    }
    agents = {name: {k: v for k, v in p.items() if k != "game"} for name, p in agents.items()}
    return Session(
        "connect4-levels",
        agents,
        game="connect4",
        design="blocks",
        repetitions=repetitions,
        seed=seed,
        move_limit=None,
        opening_plies=opening_plies,
    )


def reversi_levels_session(
    levels: Sequence[str] = ("easy", "medium", "hard"),
    *,
    variant: str = "reversi",
    repetitions: int = 1,
    seed: int = 0,
    opening_plies: int = 6,
) -> Session:
    """Seed 003's levels against each other, both colours, in ``variant``, in
    ``repetitions`` blocks, each from its own distinct opening of ``opening_plies``
    random plies (in seed 003's variant the first four place the centre discs)."""
    agents = {lv: {k: v for k, v in reversi_level(lv).items() if k != "game"} for lv in levels}
    return Session(
        f"{variant}-levels",
        agents,
        game="othello",
        game_params={"variant": variant},
        design="blocks",
        repetitions=repetitions,
        seed=seed,
        move_limit=None,
        opening_plies=opening_plies,
    )


def opening_values(width: int = 7, height: int = 6, **solve_options: Any) -> pd.DataFrame:
    """The exact value of each first move of Connect Four on ``width`` x ``height`` for
    the first player (the solver's score: positive wins, larger sooner), with the
    solver's nodes and seconds: searched, not looked up in an opening book, unless
    ``book=True`` is passed on to :func:`chameleon_lab.search.solve.solve`."""
    solve_options.setdefault("book", False)
    start = get_game("connect4", width=width, height=height).start()
    rows = []
    for move in start.legal_moves:
        after = start.play(move)
        solution = solve(after, **solve_options)
        rows.append(
            {
                "move": str(move),
                "value": 0.0 - solution.value,  # the solver answers for the side to move
                "nodes": solution.nodes,
                "seconds": solution.seconds,
            }
        )
    return pd.DataFrame(rows)


def book_opening_values(width: int = 7, height: int = 6) -> pd.DataFrame:
    """The exact value of each first move for the first player, looked up in the
    opening book shipped for the board (no search), with the book's depth and the
    solver's total work behind it (``attrs``); ``ValueError`` if none ships."""
    from ..games.connect4.book import bundled_book, bundled_books

    book = bundled_book(width, height)
    if book is None:
        have = ", ".join(p.stem.removeprefix("connect4_") for p in bundled_books())
        raise ValueError(f"no opening book ships for {width} x {height}; books: {have}")
    scores = book.move_scores(0, 0) or {}
    frame = pd.DataFrame(
        {"move": [str(c + 1) for c in sorted(scores)], "value": [scores[c] for c in sorted(scores)]}
    )
    frame.attrs.update(
        depth=book.depth,
        positions=len(book),
        solver_nodes=book.header.get("solver_nodes"),
        solver_seconds=book.header.get("solver_seconds"),
    )
    return frame
