"""Plackett-Luce ratings from finishing orders (chameleon_lab.analysis.ranking).

Every expected value is computed here independently: finishing places by a plain loop,
the estimates by maximising log-likelihoods written out by hand with scipy, by the
closed form of two agents, or by ``choix.ilsr_top1`` on the orders the test made.
"""

from __future__ import annotations

import itertools
import math

import choix
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize

from chameleon_lab.analysis.ranking import (
    finishing_places,
    plackett_luce,
    rank_probabilities,
    ratings,
    ratings_or_reason,
)
from chameleon_lab.tournament.records import Tables, tables

ELO = 400 / math.log(10)
COLOURS = ["RED", "GREEN", "YELLOW", "BLUE"]


def make_tables(specs: list[dict]) -> Tables:
    """Tables built by hand: each spec has ``game``, ``seats`` ({seat: agent}),
    ``survivors`` (seats), ``moves`` (the seat of each ply) and optionally
    ``repetition``, ``session_id`` and ``game_name``."""
    games, seats, moves = [], [], []
    for s in specs:
        key = {"session": "s", "session_id": s.get("session_id", "S"), "game": s["game"]}
        surv = s["survivors"]
        games.append(
            {
                **key,
                "repetition": s.get("repetition", 0),
                "players": len(s["seats"]),
                "reason": "winner" if len(surv) == 1 else "draw",
                "survivors": ",".join(surv),
                "game_name": s.get("game_name", "chameleon"),
            }
        )
        for seat, agent in s["seats"].items():
            result = "loss" if seat not in surv else "win" if len(surv) == 1 else "draw"
            seats.append({**key, "seat": seat, "agent": agent, "seat_result": result})
        for ply, seat in enumerate(s.get("moves", [])):
            moves.append({**key, "ply": ply, "seat": seat, "agent": s["seats"][seat]})
    columns = ["session", "session_id", "game", "ply", "seat", "agent"]
    return Tables(pd.DataFrame(games), pd.DataFrame(seats), pd.DataFrame(moves, columns=columns))


def ordered_game(game: int, groups: list[list[str]], repetition: int = 0) -> dict:
    """A Chameleon Chess game whose agents (one per seat) finish in ``groups``, best
    first: the first group survives and the others are eliminated one by one, worst
    first. The last group never moves, so it may be a tie (all at -1); the groups
    between must be single agents."""
    agents = [a for g in groups for a in g]
    seats = dict(zip(COLOURS, agents, strict=False))
    seat_of = {a: s for s, a in seats.items()}
    moves: list[str] = []
    alive = [seat_of[a] for g in groups[:-1] for a in g]  # the last group never moves
    for group in reversed(groups[1:-1]):  # eliminated worst first, one round each
        assert len(group) == 1, "only the survivors and the last group may tie"
        moves += alive
        alive.remove(seat_of[group[0]])
    moves += alive
    survivors = [seat_of[a] for a in groups[0]]
    return {
        "game": game,
        "seats": seats,
        "survivors": survivors,
        "moves": moves,
        "repetition": repetition,
    }


def two_player(game: int, a: str, b: str, result: str, repetition: int = 0) -> dict:
    """A two-player game (not Chameleon Chess) of ``a`` against ``b``: "a", "b" or "draw"."""
    survivors = {"a": ["RED"], "b": ["GREEN"], "draw": ["RED", "GREEN"]}[result]
    return {
        "game": game,
        "seats": {"RED": a, "GREEN": b},
        "survivors": survivors,
        "moves": ["RED", "GREEN"],
        "game_name": "connect4",
        "repetition": repetition,
    }


def centered_elo(x: np.ndarray) -> np.ndarray:
    return (x - x.mean()) * ELO


def maximise(loglik, k: int) -> np.ndarray:
    """Centered Elo maximising ``loglik(strengths)`` (the last strength fixed at 0)."""
    res = optimize.minimize(
        lambda x: -loglik(np.append(x, 0.0)),
        np.zeros(k - 1),
        method="BFGS",
        options={"gtol": 1e-10},
    )
    return centered_elo(np.append(res.x, 0.0))


def log_p(chosen: float, *among: float) -> float:
    """log of Luce's probability of choosing ``chosen`` from ``among``."""
    return chosen - math.log(sum(math.exp(x) for x in among))


# --- finishing places ---------------------------------------------------------------


def places_of(t: Tables) -> dict[tuple[int, str], int]:
    fp = finishing_places(t)
    return {(g, str(s)): p for g, s, p in zip(fp.game, fp.seat, fp.place, strict=True)}


def test_places_follow_the_elimination_order_in_chameleon_chess():
    t = make_tables(
        [
            {  # RED survives; BLUE last moves at ply 3, GREEN at 5, YELLOW at 8
                "game": 0,
                "seats": dict(zip(COLOURS, "ABCD", strict=True)),
                "survivors": ["RED"],
                "moves": [*COLOURS, "RED", "GREEN", "YELLOW", "RED", "YELLOW", "RED"],
            },
            {  # two survivors share 1; GREEN and BLUE never moved: both -1, a tie
                "game": 1,
                "seats": dict(zip(COLOURS, "ABCD", strict=True)),
                "survivors": ["RED", "YELLOW"],
                "moves": ["RED", "YELLOW", "RED"],
            },
            {  # three seats occupied; BLUE never moved, below GREEN that moved once
                "game": 2,
                "seats": {"RED": "A", "GREEN": "B", "BLUE": "C"},
                "survivors": ["RED"],
                "moves": ["RED", "GREEN", "RED"],
            },
        ]
    )
    assert places_of(t) == {
        (0, "RED"): 1,
        (0, "GREEN"): 3,
        (0, "YELLOW"): 2,
        (0, "BLUE"): 4,
        (1, "RED"): 1,
        (1, "GREEN"): 3,
        (1, "YELLOW"): 1,
        (1, "BLUE"): 3,
        (2, "RED"): 1,
        (2, "GREEN"): 2,
        (2, "BLUE"): 3,
    }
    fp = finishing_places(t)
    assert list(fp.columns) == ["session_id", "game", "repetition", "seat", "agent", "place"]
    assert fp.agent.tolist() == ["A", "B", "C", "D", "A", "B", "C", "D", "A", "B", "C"]


def test_places_of_other_games_give_every_loser_the_place_after_the_survivors():
    three = {"RED": "A", "GREEN": "B", "YELLOW": "C"}
    t = make_tables(
        [
            two_player(0, "A", "B", "a"),
            two_player(1, "A", "B", "b"),
            two_player(2, "A", "B", "draw"),
            # not Chameleon Chess: the order of the losers' last moves means nothing
            {
                "game": 3,
                "seats": three,
                "survivors": ["GREEN"],
                "game_name": "dice",
                "moves": ["RED", "GREEN", "YELLOW", "RED"],
            },
        ]
    )
    assert places_of(t) == {
        (0, "RED"): 1,
        (0, "GREEN"): 2,
        (1, "RED"): 2,
        (1, "GREEN"): 1,
        (2, "RED"): 1,
        (2, "GREEN"): 1,
        (3, "RED"): 2,
        (3, "GREEN"): 1,
        (3, "YELLOW"): 2,
    }


def plain_places(spec: dict) -> dict[str, int]:
    """Competition ranks by the rule, one seat at a time."""
    last = {s: -1 for s in spec["seats"]}
    for ply, seat in enumerate(spec["moves"]):
        last[seat] = ply
    key = {s: math.inf if s in spec["survivors"] else last[s] for s in spec["seats"]}
    return {s: 1 + sum(key[o] > key[s] for o in spec["seats"]) for s in spec["seats"]}


@st.composite
def chameleon_games(draw):
    seats = draw(st.lists(st.sampled_from(COLOURS), min_size=2, max_size=4, unique=True))
    moves = draw(st.lists(st.sampled_from(seats), max_size=12))
    survivors = draw(st.lists(st.sampled_from(seats), min_size=1, max_size=len(seats), unique=True))
    agents = draw(
        st.lists(st.sampled_from("ABCDEF"), min_size=len(seats), max_size=len(seats), unique=True)
    )
    return {"seats": dict(zip(seats, agents, strict=True)), "survivors": survivors, "moves": moves}


@settings(max_examples=60, deadline=None)
@given(st.lists(chameleon_games(), min_size=1, max_size=4))
def test_places_match_a_plain_computation(specs):
    specs = [{**s, "game": i} for i, s in enumerate(specs)]
    got = places_of(make_tables(specs))
    want = {(s["game"], seat): p for s in specs for seat, p in plain_places(s).items()}
    assert got == want


def seat_result(seat: str, survivors: list[str]) -> str:
    if seat not in survivors:
        return "loss"
    return "win" if len(survivors) == 1 else "draw"


def record(game: int, seating: list, moves: list[str], survivors: list[str]) -> dict:
    """A minimal record of the kind ``tables`` reads."""
    agents = [a for a in seating if a is not None]
    results = [
        seat_result(c, survivors) if a else None for c, a in zip(COLOURS, seating, strict=True)
    ]
    alive = {seating[COLOURS.index(c)] for c in survivors}
    return {
        "session": {"name": "hand", "agents": sorted(set(agents))},
        "session_id": "hand-1",
        "game": game,
        "repetition": game // 2,
        "seating": seating,
        "agents": {a: {"depth": 1} for a in agents},
        "moves": [{"seat": s, "move": "x"} for s in moves],
        "reason": "winner" if len(survivors) == 1 else "draw",
        "survivors": survivors,
        "seat_results": results,
        "outcomes": {
            a: "win" if alive == {a} else "draw" if a in alive else "loss" for a in agents
        },
    }


def test_places_from_the_tables_of_records_with_an_empty_seat():
    records = [
        record(0, ["A", "B", None, "C"], ["RED", "GREEN", "BLUE", "RED", "BLUE"], ["BLUE"]),
        record(1, ["C", "A", "B", None], ["RED", "GREEN", "YELLOW", "RED"], ["RED", "GREEN"]),
    ]
    fp = finishing_places(tables(records))
    got = {(g, str(s), a): p for g, s, a, p in fp[["game", "seat", "agent", "place"]].values}
    assert got == {
        (0, "RED", "A"): 2,
        (0, "GREEN", "B"): 3,
        (0, "BLUE", "C"): 1,
        (1, "RED", "C"): 1,
        (1, "GREEN", "A"): 1,
        (1, "YELLOW", "B"): 3,
    }
    assert fp.repetition.tolist() == [0, 0, 0, 0, 0, 0]


# --- the estimates ------------------------------------------------------------------


def test_plackett_luce_on_three_agents_is_the_maximum_of_the_likelihood_by_hand():
    orders = ["ABC", "ABC", "BCA", "CAB", "ACB", "BAC", "ABC"]
    t = make_tables([ordered_game(i, [[x] for x in o]) for i, o in enumerate(orders)])

    def loglik(s):
        a, b, c = s
        games = [
            3 * (log_p(a, a, b, c) + log_p(b, b, c)),  # ABC three times
            log_p(b, a, b, c) + log_p(c, a, c),  # BCA
            log_p(c, a, b, c) + log_p(a, a, b),  # CAB
            log_p(a, a, b, c) + log_p(c, b, c),  # ACB
            log_p(b, a, b, c) + log_p(a, a, c),  # BAC
        ]
        return sum(games)

    want = maximise(loglik, 3)
    got = ratings(t, n_boot=0).set_index("agent").loc[["A", "B", "C"], "elo"]
    np.testing.assert_allclose(got.to_numpy(), want, atol=1e-4)
    assert abs(got.sum()) < 1e-9


def test_ties_count_by_breslow_and_a_tied_last_group_as_a_draw():
    t = make_tables(
        [
            ordered_game(0, [["A", "B"], ["C"]]),  # A and B survive, C eliminated
            ordered_game(1, [["A"], ["B", "C"]]),  # B and C never moved: tied last
            ordered_game(2, [["A", "B", "C"]]),  # all survive: a three-way draw
            ordered_game(3, [["C"], ["A"], ["B"]]),
            ordered_game(4, [["B"], ["C"], ["A"]]),
            ordered_game(5, [["A"], ["C"], ["D"], ["B"]]),
            ordered_game(6, [["D"], ["A"], ["B", "C"]]),
        ]
    )

    def loglik(s):
        a, b, c, d = s
        tied_last = 0.5 * (log_p(b, b, c) + log_p(c, b, c))  # B and C: a draw between them
        games = [
            log_p(a, a, b, c) + log_p(b, a, b, c),  # Breslow: each chosen from all three
            log_p(a, a, b, c) + tied_last,
            2 / 3 * (log_p(a, a, b, c) + log_p(b, a, b, c) + log_p(c, a, b, c)),  # a draw
            log_p(c, a, b, c) + log_p(a, a, b),
            log_p(b, a, b, c) + log_p(c, a, c),
            log_p(a, a, b, c, d) + log_p(c, b, c, d) + log_p(d, b, d),
            log_p(d, a, b, c, d) + log_p(a, a, b, c) + tied_last,
        ]
        return sum(games)

    want = maximise(loglik, 4)
    got = plackett_luce(t).loc[["A", "B", "C", "D"]]
    np.testing.assert_allclose(got.to_numpy(), want, atol=1e-4)


@settings(max_examples=25, deadline=None)
@given(
    w=st.integers(0, 12),
    losses=st.integers(0, 12),
    d=st.integers(1, 12),
)
def test_two_players_give_bradley_terry_with_a_draw_counting_half(w, losses, d):
    results = ["a"] * w + ["b"] * losses + ["draw"] * d
    t = make_tables([two_player(i, "A", "B", r) for i, r in enumerate(results)])
    elo = plackett_luce(t)
    want = 400 * math.log10((w + d / 2) / (losses + d / 2))
    assert elo["A"] - elo["B"] == pytest.approx(want, abs=1e-6)
    assert elo["A"] + elo["B"] == pytest.approx(0, abs=1e-9)


def test_two_players_without_draws_give_the_log_odds_of_wins():
    t = make_tables([two_player(i, "A", "B", "a" if i < 7 else "b") for i in range(10)])
    elo = plackett_luce(t)
    assert elo["A"] - elo["B"] == pytest.approx(ELO * math.log(7 / 3), abs=1e-6)


def synthetic(n_games: int, k: int, seed: int, per_block: int = 12):
    """Four-player Chameleon games of random agents, finishing orders drawn from a
    Plackett-Luce model (Gumbel trick), and the orders themselves."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(0, 1, k)
    specs, orders = [], []
    for g in range(n_games):
        agents = rng.choice(k, 4, replace=False)
        order = [int(a) for a in agents[np.argsort(-(theta[agents] + rng.gumbel(size=4)))]]
        orders.append(order)
        specs.append(ordered_game(g, [[f"a{a}"] for a in order], repetition=g // per_block))
    return make_tables(specs), orders


def test_many_four_player_games_give_the_estimate_of_choix():
    t, orders = synthetic(300, 9, seed=3)
    data = [(o[i], tuple(o[i + 1 :])) for o in orders for i in range(3)]
    want = choix.ilsr_top1(9, data, alpha=0.0, tol=1e-12, max_iter=1000)
    got = plackett_luce(t).loc[[f"a{i}" for i in range(9)]]
    np.testing.assert_allclose(got.to_numpy(), centered_elo(want), atol=1e-5)


def test_an_agent_at_two_seats_keeps_its_best_seat():
    # GREEN (B) survives; last moves: YELLOW (A) 2, BLUE (C) 6, RED (A) 7: B, A, C
    both = {
        "game": 0,
        "seats": {"RED": "A", "GREEN": "B", "YELLOW": "A", "BLUE": "C"},
        "survivors": ["GREEN"],
        "moves": ["RED", "GREEN", "YELLOW", "BLUE", "RED", "GREEN", "BLUE", "RED", "GREEN"],
    }
    # the same order with A at RED alone (RED 6, BLUE 5), and with A's worse seat (B, C, A)
    alone = {
        **both,
        "seats": {"RED": "A", "GREEN": "B", "BLUE": "C"},
        "moves": ["RED", "GREEN", "BLUE", "RED", "GREEN", "BLUE", "RED", "GREEN"],
    }
    worse = {**alone, "moves": ["RED", "GREEN", "BLUE", "GREEN", "BLUE", "GREEN"]}
    rest = [ordered_game(i, [[x] for x in o]) for i, o in enumerate(["ABC", "CAB", "ACB"], 1)]
    elo_both = plackett_luce(make_tables([both, *rest])).to_numpy()
    np.testing.assert_allclose(elo_both, plackett_luce(make_tables([alone, *rest])), atol=1e-9)
    assert not np.allclose(elo_both, plackett_luce(make_tables([worse, *rest])))


def test_games_count_only_games_against_another_agent():
    self_play = {"game": 9, "seats": {"RED": "A", "GREEN": "A"}, "survivors": ["RED"]}
    games = [two_player(0, "A", "B", "a"), two_player(1, "A", "B", "b"), self_play]
    r = ratings(make_tables(games), n_boot=0).set_index("agent")
    assert r.games.to_dict() == {"A": 2, "B": 2}
    assert r.elo.to_dict() == pytest.approx({"A": 0.0, "B": 0.0}, abs=1e-9)
    assert r.ci_low.isna().all() and r.attrs["failed_resamples"] == 0


# --- when no estimate exists --------------------------------------------------------


def test_an_agent_that_always_finished_first_has_no_rating():
    games = [ordered_game(i, [["A"], [x], [y]]) for i, (x, y) in enumerate(["BC", "CB", "BC"])]
    with pytest.raises(ValueError, match="do not exist") as err:
        plackett_luce(make_tables(games))
    assert "A always finished ahead" in str(err.value)
    assert "more games" in str(err.value)


def test_without_an_estimate_the_table_keeps_its_columns_and_says_why():
    # A always first: no estimate; the table has ratings()'s columns all the same, the
    # games counted as ratings() counts them (3 each, all against another agent)
    games = [ordered_game(i, [["A"], [x], [y]]) for i, (x, y) in enumerate(["BC", "CB", "BC"])]
    rated = ratings_or_reason(make_tables(games), n_boot=0)
    fine = [ordered_game(i, [[x], [y], [z]]) for i, (x, y, z) in enumerate(["ABC", "BCA", "CAB"])]
    assert list(rated.columns) == list(ratings_or_reason(make_tables(fine), n_boot=0).columns)
    assert rated.set_index("agent")["games"].to_dict() == {"A": 3, "B": 3, "C": 3}
    assert rated["elo"].isna().all() and rated["note"].str.contains("A always finished").all()


def test_an_agent_that_never_finished_ahead_and_agents_that_never_met_are_named():
    last = [ordered_game(i, [[x], [y], ["C"]]) for i, (x, y) in enumerate(["AB", "BA"])]
    with pytest.raises(ValueError, match="C never finished ahead"):
        ratings(make_tables(last))
    apart = [
        two_player(0, "A", "B", "a"),
        two_player(1, "A", "B", "b"),
        two_player(2, "C", "D", "draw"),
    ]
    with pytest.raises(ValueError, match="never met") as err:
        plackett_luce(make_tables(apart))
    assert "A, B" in str(err.value) and "C, D" in str(err.value)


def test_one_agent_or_bad_arguments_are_refused():
    alone = make_tables([{"game": 0, "seats": {"RED": "A"}, "survivors": ["RED"]}])
    with pytest.raises(ValueError, match="at least two agents"):
        plackett_luce(alone)
    t = make_tables([two_player(i, "A", "B", r) for i, r in enumerate("ab")])
    with pytest.raises(ValueError, match=r"confidence must be in \(0, 1\), got 1.5"):
        ratings(t, confidence=1.5)
    with pytest.raises(ValueError, match="n_boot must be a whole number >= 0, got -1"):
        ratings(t, n_boot=-1)


# --- the bootstrap ------------------------------------------------------------------


@pytest.fixture(scope="module")
def pool():
    return synthetic(240, 6, seed=5)[0]


def test_the_bootstrap_is_reproducible_and_brackets_the_estimates(pool):
    a = ratings(pool, n_boot=60, seed=11)
    b = ratings(pool, n_boot=60, seed=11)
    pd.testing.assert_frame_equal(a, b)
    assert a.attrs["failed_resamples"] == 0 and a.attrs["blocks"] == 20
    other = ratings(pool, n_boot=60, seed=12)
    assert not np.allclose(a.ci_low, other.ci_low)
    np.testing.assert_allclose(a.elo, other.elo)  # the estimates do not depend on it
    assert (a.ci_low < a.elo).all() and (a.elo < a.ci_high).all()
    assert a.elo.is_monotonic_decreasing and abs(a.elo.sum()) < 1e-9
    assert a.rank_prob_best.sum() == pytest.approx(1.0)
    assert a.games.sum() == 4 * 240


def test_rank_probabilities_sum_to_one_and_agree_with_ratings(pool):
    probs = rank_probabilities(pool, n_boot=60, seed=11)
    table = probs.set_index("agent")
    np.testing.assert_allclose(table.sum(axis=1), 1.0)
    np.testing.assert_allclose(table.sum(axis=0), 1.0)
    r = ratings(pool, n_boot=60, seed=11)
    assert probs.agent.tolist() == r.agent.tolist()
    np.testing.assert_allclose(probs.rank_1, r.rank_prob_best)


def test_a_wider_confidence_gives_wider_intervals(pool):
    narrow = ratings(pool, n_boot=60, seed=1, confidence=0.5)
    wide = ratings(pool, n_boot=60, seed=1, confidence=0.95)
    assert (wide.ci_low <= narrow.ci_low).all() and (wide.ci_high >= narrow.ci_high).all()
    assert (wide.ci_high - wide.ci_low > narrow.ci_high - narrow.ci_low).all()


def test_resamples_without_an_estimate_are_counted_and_warned_about():
    # B beat A only in block 0: a resample without block 0 has no estimate
    games = [two_player(0, "A", "B", "b", repetition=0)] + [
        two_player(i, "A", "B", "a", repetition=r)
        for i, r in enumerate([0, 1, 1, 2, 2, 3, 3], start=1)
    ]
    t = make_tables(games)
    with pytest.warns(RuntimeWarning, match="bootstrap resamples .* had no maximum-likelihood"):
        r = ratings(t, n_boot=100, seed=0)
    failed = r.attrs["failed_resamples"]
    # P(block 0 left out of 4 draws) = (3/4)^4 = 0.32: about 32 of 100
    assert 15 <= failed <= 50
    assert r.elo.iloc[0] - r.elo.iloc[1] == pytest.approx(400 * math.log10(7), abs=1e-6)


def test_the_progress_bar_changes_nothing(pool, capsys):
    quiet = ratings(pool, n_boot=5, seed=2)
    shown = ratings(pool, n_boot=5, seed=2, progress=True)
    pd.testing.assert_frame_equal(quiet, shown)
    assert "bootstrap" in capsys.readouterr().err


def test_every_permutation_of_three_agents_once_rates_them_equal():
    orders = ["".join(p) for p in itertools.permutations("ABC")]
    t = make_tables([ordered_game(i, [[x] for x in o]) for i, o in enumerate(orders)])
    np.testing.assert_allclose(plackett_luce(t).to_numpy(), 0.0, atol=1e-9)


def test_one_block_gives_no_interval_rather_than_one_of_width_zero():
    games = [two_player(i, "A", "B", "a" if i % 3 else "b", repetition=0) for i in range(9)]
    r = ratings(make_tables(games), n_boot=50, seed=0)
    assert r.attrs["blocks"] == 1
    assert r[["ci_low", "ci_high", "rank_prob_best"]].isna().all(axis=None)
    assert r.elo.iloc[0] - r.elo.iloc[1] == pytest.approx(400 * math.log10(6 / 3), abs=1e-6)
