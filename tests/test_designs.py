"""Balanced designs: distinct openings, balanced groups, seat orders and block sessions.

The counts are checked by counting the seatings and positions themselves, and the
numbers of distinct TicTacToe openings against their closed forms (9 x 8 after two
plies; C(9, 2) x 7 after three: two interchangeable X stones and an O stone).
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chameleon_lab.games.registry import get_game
from chameleon_lab.tournament import Session
from chameleon_lab.tournament.designs import (
    balance,
    balanced_groups,
    block_seatings,
    count_openings,
    opening_suite,
    williams_orders,
)

AGENTS = {
    "a": {"algorithm": "paranoid", "depth": 1},
    "b": {"algorithm": "maxnis", "depth": 1},
    "c": {"algorithm": "brs", "depth": 1},
}
NINE = [f"agent{i}" for i in range(9)]


def _replay(game, moves):
    position = game.start()
    for move in moves:
        assert not position.is_over
        position = position.play(move)
    return position


@pytest.mark.parametrize(("plies", "expected"), [(1, 9), (2, 72), (3, math.comb(9, 2) * 7)])
def test_tictactoe_has_its_closed_form_count_of_openings(plies, expected):
    assert count_openings(get_game("tictactoe").start(), plies) == expected


@pytest.mark.parametrize(("game", "params", "plies"), [("connect4", {}, 4), ("othello", {}, 3)])
def test_an_opening_suite_holds_distinct_unfinished_openings(game, params, plies):
    spec = get_game(game, **params)
    suite = opening_suite(spec.start(), plies, 40, seed=3)
    positions = [_replay(spec, moves) for moves in suite]
    assert len(suite) == 40 and all(len(m) == plies for m in suite)
    assert len(set(positions)) == 40
    assert not any(p.is_over for p in positions)


def test_a_suite_asked_for_every_opening_finds_them_all():
    start = get_game("tictactoe").start()
    suite = opening_suite(start, 1, 9, seed=0)
    assert sorted(m[0] for m in suite) == sorted(str(m) for m in start.legal_moves)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_a_larger_suite_begins_with_the_smaller_one(n, m, seed):
    start = get_game("connect4").start()
    small = opening_suite(start, 3, n, seed)
    assert opening_suite(start, 3, n + m, seed)[:n] == small


def test_more_openings_than_the_game_has_is_refused_naming_how_many():
    with pytest.raises(ValueError, match=r"has 9 distinct openings of 1 plies, fewer than the 10"):
        opening_suite(get_game("tictactoe").start(), 1, 10)


@pytest.mark.parametrize(
    ("v", "k"), [(3, 2), (4, 3), (5, 3), (6, 3), (7, 3), (8, 4), (9, 3), (9, 4), (12, 4)]
)
def test_groups_are_a_balanced_incomplete_block_design(v, k):
    groups = balanced_groups(v, k)
    assert all(len(set(g)) == k for g in groups)
    per_agent = Counter(a for g in groups for a in g)
    per_pair = Counter(p for g in groups for p in combinations(sorted(g), 2))
    assert set(per_agent) == set(range(v)) and len(set(per_agent.values())) == 1
    assert len(per_pair) == math.comb(v, 2) and len(set(per_pair.values())) == 1


def test_nine_agents_take_the_smallest_designs():
    """Nine in threes: the affine plane of order 3 (12 lines, each pair once); nine in
    fours: lambda = 3 is the smallest admissible (r = 3 * 8 / 3), 18 groups."""
    assert len(balanced_groups(9, 3)) == 12
    assert len(balanced_groups(9, 4)) == 18


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_williams_orders_balance_seats_and_successors(k):
    rows = williams_orders(k)
    assert len(rows) == (k if k % 2 == 0 else 2 * k)
    for column in range(k):
        assert Counter(r[column] for r in rows) == Counter({s: len(rows) // k for s in range(k)})
    follows = Counter((r[i], r[i + 1]) for r in rows for i in range(k - 1))
    assert len(follows) == k * (k - 1) and len(set(follows.values())) == 1


@pytest.mark.parametrize(
    ("names", "players", "seats", "orders", "games"),
    [
        (["x", "y"], 2, 2, "all", 2),
        (NINE, 3, 4, "all", 12 * 6),
        (NINE, 4, 4, "williams", 18 * 4),
        (NINE[:4], 4, 4, "all", 24),
        (NINE[:5], 3, 4, "williams", 10 * 6),
        (["x", "y"], 3, 4, "all", 2**3 - 2),
        (["x", "y"], 4, 4, "all", 2**4 - 2),
        (["x", "y", "z"], 4, 4, "all", 36),
    ],
)
def test_a_block_gives_every_agent_every_seat_and_every_pair_equal_meetings(
    names, players, seats, orders, games
):
    seatings = block_seatings(names, players, seats, orders=orders)
    assert len(seatings) == games
    distinct = min(players, len(names))
    assert all(len(set(s[:players]) - {None}) == distinct for s in seatings)
    assert len(set(seatings)) == len(seatings)
    assert all(s[players:] == (None,) * (seats - players) for s in seatings)
    by_seat, pairs = balance(seatings)
    assert sorted(by_seat.index) == sorted(names) and list(by_seat.columns) == list(range(players))
    assert len(set(by_seat.to_numpy().ravel())) == 1
    off = [pairs.at[a, b] for a in names for b in names if a != b]
    assert len(set(off)) == 1 and off[0] > 0


def test_a_blocks_session_plays_each_block_from_its_own_opening():
    session = Session("blocks", AGENTS, design="blocks", players=3, repetitions=5,
                      opening_plies=4, seed=7)  # fmt: skip
    tasks = list(session.tasks())
    assert len(tasks) == 5 * 6
    by_block: dict[int, set] = {}
    for task in tasks:
        by_block.setdefault(task.repetition, set()).add(task.opening_moves)
    assert all(len(openings) == 1 for openings in by_block.values())
    openings = [next(iter(o)) for o in by_block.values()]
    game = get_game("chameleon", players=[0, 1, 2])
    assert len({_replay(game, moves) for moves in openings}) == 5
    for block in range(5):
        seats = Counter((t.seating.index(name), name) for t in tasks if t.repetition == block
                        for name in AGENTS)  # fmt: skip
        assert set(seats.values()) == {2}  # every agent at each of the three seats twice


def test_more_blocks_keep_the_blocks_played_and_their_fingerprint():
    small = Session("b", AGENTS, design="blocks", players=3, repetitions=2, opening_plies=3)
    large = Session("b", AGENTS, design="blocks", players=3, repetitions=6, opening_plies=3)
    assert small.fingerprint == large.fingerprint
    assert [t.opening_moves for t in small.tasks()] == [
        t.opening_moves for t in large.tasks()[: len(small)]
    ]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"opening_plies": 0}, "give opening_plies >= 1"),
        ({"seatings": ["a,b,c,_"]}, "makes its own seatings"),
        ({"players": None}, "needs players"),
        ({"orders": "random"}, "unknown orders 'random'; valid: all, williams"),
        ({"agents": {"a": AGENTS["a"]}, "players": 2}, "at least two distinct agents"),
    ],
)
def test_a_blocks_session_that_cannot_balance_is_refused(changes, message):
    params = {"name": "b", "agents": AGENTS, "design": "blocks", "players": 3,
              "opening_plies": 2, **changes}  # fmt: skip
    with pytest.raises(ValueError, match=message):
        Session(**params)


def test_two_player_blocks_are_game_pairs_on_distinct_openings():
    agents = {
        "x": {"algorithm": "alphabeta", "depth": 2},
        "y": {"algorithm": "negamax", "depth": 1},
    }
    session = Session("pairs", agents, design="blocks", game="connect4", repetitions=4,
                      opening_plies=2, move_limit=None)  # fmt: skip
    tasks = list(session.tasks())
    assert [t.seating for t in tasks[:2]] == [("x", "y"), ("y", "x")]
    assert len({t.opening_moves for t in tasks}) == 4
    assert all(tasks[2 * i].opening_moves == tasks[2 * i + 1].opening_moves for i in range(4))


def test_a_suite_that_cannot_be_counted_gives_up_naming_what_it_found(monkeypatch):
    from chameleon_lab.tournament import designs

    monkeypatch.setattr(designs, "count_openings", lambda start, plies: None)  # too costly
    monkeypatch.setattr(designs, "MAX_DRAWS", 2)  # 2 * (20 * 10 + 200) = 800 draws
    start = get_game("tictactoe").start()
    with pytest.raises(ValueError, match=r"found 9 distinct openings of 1 plies in 800 random"):
        designs.opening_suite(start, 1, 10)
