"""Weighted heuristics and their tuning by self-play (issue 32, item 4).

Truths: the weighted heuristic with the thesis's weights against the thesis's own
functions and against counts made here in Python from the pawns; CMA-ES on a quadratic
whose optimum is known; an interrupted run against an uninterrupted one.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from positions import random_positions

from chameleon_lab.agents import Agent
from chameleon_lab.games.chameleon import heuristics as CH
from chameleon_lab.games.chameleon import kernel as K
from chameleon_lab.games.chameleon.board import ROLE_POINTS
from chameleon_lab.games.heuristics import fingerprint
from chameleon_lab.games.othello import heuristics as OH
from chameleon_lab.games.registry import get_game
from chameleon_lab.games.weighted import (
    check_weights,
    weighted_function,
    weighted_heuristic,
    weighted_name,
)

POSITIONS = random_positions(300, seed=32, max_moves=80)


def _scores(function, state) -> np.ndarray:
    out = np.full(4, np.nan)
    before = state.copy()
    function(state, out)
    assert np.array_equal(state, before)  # the state is untouched
    return out


def _python_counts(state: np.ndarray) -> tuple[np.ndarray, ...]:
    """Pawns, role points, targets and closeness per player, walking the pawns here."""
    pawns, roles, targets, centre = (np.zeros(4) for _ in range(4))
    rows = state[K.MINR] + state[K.MAXR]
    cols = state[K.MINC] + state[K.MAXC]
    for s in range(state[K.NSLOTS]):
        if state[K.ALIVE + s]:
            p = state[K.PL + s]
            sq = state[K.SQ + s]
            pawns[p] += 1
            roles[p] += ROLE_POINTS[K.role_at(state, s)]
            targets[p] += K.count_targets(state, s)
            centre[p] += (14 - abs(2 * (sq // 8) - rows) - abs(2 * (sq % 8) - cols)) / 2
    return pawns, roles, targets, centre


def test_thesis_weights_give_the_thesis_heuristics_exactly() -> None:
    roles100 = weighted_function("chameleon", {"pawns": 100, "roles": 1})
    roles10 = weighted_function("chameleon", {"pawns": 10, "roles": 1})
    moves100 = weighted_function("chameleon", {"pawns": 100, "mobility": 1})
    pawns = weighted_function("chameleon", {"pawns": 1})
    for position in POSITIONS:
        state = position.state
        assert np.array_equal(_scores(roles100, state), _scores(CH.count_pawns_100_roles, state))
        assert np.array_equal(_scores(roles10, state), _scores(CH.count_pawns_10_roles, state))
        assert np.array_equal(_scores(moves100, state), _scores(CH.count_pawns_100_moves, state))
        assert np.array_equal(_scores(pawns, state), _scores(CH.count_pawns, state))


def test_every_feature_against_counts_made_in_python() -> None:
    weights = {"pawns": 3.0, "roles": 0.5, "mobility": 0.25, "centre": 2.0}
    function = weighted_function("chameleon", weights)
    for position in POSITIONS[:150]:
        state = position.state
        pawns, roles, targets, centre = _python_counts(state)
        expected = 3.0 * pawns + 0.5 * roles + 0.25 * targets + 2.0 * centre
        assert np.allclose(_scores(function, state), expected, rtol=0, atol=1e-9)
        assert (centre >= 0).all() and (centre <= 7 * pawns).all()


def test_othello_weights_give_its_heuristics_exactly() -> None:
    rng = random.Random(4)
    game = get_game("othello")
    discs = weighted_function("othello", {"discs": 1})
    mobility = weighted_function("othello", {"mobility": 1, "corners": 10})
    for _ in range(20):
        position = game.start()
        for _ in range(rng.randint(0, 58)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves))
            state = position.state
            assert np.array_equal(_scores(discs, state), _scores(OH.discs, state))
            assert np.array_equal(_scores(mobility, state), _scores(OH.mobility, state))


def test_the_name_and_fingerprint_change_with_the_weights() -> None:
    a = weighted_heuristic("chameleon", {"pawns": 100, "roles": 1})
    same = weighted_heuristic("chameleon", {"pawns": 100.0, "roles": 1.0, "centre": 0})
    b = weighted_heuristic("chameleon", {"pawns": 100, "roles": 1.5})
    assert a is same and a.function is same.function
    assert a.name.startswith("weighted-") and a.name != b.name
    assert a.fingerprint != b.fingerprint
    assert a.name in get_game("chameleon").heuristics
    # a fresh compile of the same weights has the same fingerprint (it travels by it)
    again = CH.weighted_evaluator(100.0, 1.0, 0.0, 0.0)
    assert again is not a.function and fingerprint(again) == a.fingerprint
    assert weighted_name("othello", {"discs": 1}) != weighted_name("chameleon", {"pawns": 1})
    # an agent records the fingerprint and refuses a record of other weights
    agent = Agent("paranoid", heuristic=a.name, depth=1)
    assert agent.params()["heuristic_code"] == a.fingerprint
    with pytest.raises(ValueError, match="has changed"):
        Agent.from_params({**agent.params(), "heuristic_code": b.fingerprint})


def test_functions_without_closed_numbers_keep_their_fingerprints() -> None:
    import hashlib
    import inspect

    source = inspect.getsource(CH.count_pawns.py_func).encode()
    assert fingerprint(CH.count_pawns) == hashlib.sha256(source).hexdigest()[:12]


@pytest.mark.parametrize(
    ("game", "weights", "match"),
    [
        ("chameleon", {"discs": 1}, "chameleon has no feature 'discs'; its features: pawns"),
        ("othello", {"pawns": 1}, "othello has no feature 'pawns'; its features: discs"),
        ("chameleon", {"pawns": -1}, "weight of pawns must be a finite number >= 0, got -1"),
        ("chameleon", {"pawns": float("nan")}, "weight of pawns must be a finite"),
        ("chameleon", {"pawns": "1"}, "weight of pawns must be a number"),
        ("chameleon", {"pawns": 0}, "at least one weight must be above 0"),
        ("nim", {"pawns": 1}, "nim has no weighted heuristic; games with one: chameleon"),
    ],
)
def test_bad_weights(game: str, weights: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        check_weights(game, weights)
