"""Notebook 09's designs (:mod:`chameleon_lab.analysis.beyond`): the round robin and
the two-player study are balanced blocks on distinct openings, counted from the
seatings and openings their sessions make; the claims name the rivals their papers
name, among registered searches."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from chameleon_lab.analysis.beyond import (
    CLAIMS,
    LADDER_AGENTS,
    TWO_PLAYER_AGENTS,
    ladder_session,
)
from chameleon_lab.games.registry import get_game
from chameleon_lab.search.registry import check_options, get_algorithm
from chameleon_lab.tournament import Session


def _counts(tasks):
    seats = Counter((name, seat) for t in tasks for seat, name in enumerate(t.seating) if name)
    meet = Counter(p for t in tasks for p in combinations(sorted({n for n in t.seating if n}), 2))
    return seats, meet


@pytest.mark.parametrize(("players", "games"), [(3, 12 * 6), (4, 18 * 4)])
def test_the_round_robin_balances_seats_meetings_and_openings(players, games):
    """Nine agents: a block of 72 games, every agent at each used seat equally often,
    every pair meeting equally often, and one distinct opening per block."""
    session = ladder_session(LADDER_AGENTS, players, 10, blocks=3)
    tasks = list(session.tasks())
    assert len(tasks) == 3 * games
    for block in range(3):
        seats, meet = _counts([t for t in tasks if t.repetition == block])
        assert set(seats) == {(a, s) for a in LADDER_AGENTS for s in range(players)}
        assert len(set(seats.values())) == 1
        assert len(meet) == 36 and len(set(meet.values())) == 1
    openings = {t.repetition: t.opening_moves for t in tasks}
    start = get_game("chameleon", players=list(range(players))).start()
    reached = set()
    for moves in openings.values():
        position = start
        for move in moves:
            position = position.play(move)
        reached.add(position)
    assert len(reached) == 3
    assert all(len({t.opening_moves for t in tasks if t.repetition == b}) == 1 for b in range(3))


def test_the_two_player_study_plays_game_pairs_of_every_pair():
    session = Session("two", {n: {**p, "time_ms": 10.0} for n, p in TWO_PLAYER_AGENTS.items()},
                      design="blocks", game="connect4", repetitions=2, opening_plies=2,
                      move_limit=None)  # fmt: skip
    seats, meet = _counts(session.tasks())
    assert len(set(seats.values())) == 1 and len(set(meet.values())) == 1 and len(meet) == 3


def test_the_claims_name_registered_searches_and_the_papers_rivals():
    for params in LADDER_AGENTS.values():
        check_options(get_algorithm(params["algorithm"]), params.get("options", {}))
    pairs = {(c.agent, c.rival) for c in CLAIMS}
    assert {("brs", "maxnis"), ("brs", "paranoid"), ("brsplus", "brs"), ("mcts-ph", "mcts")} <= (
        pairs
    )
    assert all({c.agent, c.rival} <= set(LADDER_AGENTS) for c in CLAIMS)


def test_a_cell_without_an_estimate_is_named_not_fatal():
    from test_ranking import make_tables

    from chameleon_lab.analysis.beyond import ladder_ratings

    games = [
        {"game": g, "repetition": g, "seats": {"RED": "a", "GREEN": "b"}, "survivors": ["RED"],
         "moves": ["RED", "GREEN", "RED"]}
        for g in range(3)
    ]  # fmt: skip
    t = make_tables(games)
    for df in (t.games, t.seats, t.moves):
        df["players"], df["budget_ms"] = 2, 10.0
    rated = ladder_ratings(t)
    assert rated["elo"].isna().all() and set(rated["agent"]) == {"a", "b"}
    assert "a always finished ahead" in rated["note"].iloc[0]
