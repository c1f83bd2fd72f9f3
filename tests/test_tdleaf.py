"""TD-Leaf(lambda)'s update (:mod:`chameleon_lab.analysis.tdleaf`) against what theory
says it is: at lambda = 1 a gradient step on the squared distance of every leaf's value
to the result (the gradient taken numerically from the loss written out), at lambda = 0
each leaf moved toward the next leaf's value (a loop over the plies), in general the
discounted sums of the differences written as a double loop; and a step worked by hand."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from cli_session import play_against_weighted_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from chameleon_lab.analysis.tdleaf import (
    TDLeafSpec,
    discounted_sums,
    feature_functions,
    features_of_position,
    leaf_of,
    seat_results,
    seated_game,
    td_leaf_step,
    td_leaf_update,
    train,
)
from chameleon_lab.cli import main
from chameleon_lab.games import get_game
from chameleon_lab.games.weighted import weighted_heuristic
from chameleon_lab.search import differential as D
from chameleon_lab.search.api import search

FINITE = st.floats(-3.0, 3.0, allow_nan=False)


@st.composite
def games(draw):
    """A game's leaf features (2 to 12 positions, 1 to 4 features), weights, result."""
    n, f = draw(st.integers(1, 12)), draw(st.integers(1, 4))
    phi = draw(arrays(float, (n, f), elements=FINITE))
    w = draw(arrays(float, (f,), elements=st.floats(-1.0, 1.0)))
    result = draw(st.sampled_from([-1.0, 0.0, 1.0]))
    return phi, w, result


@settings(max_examples=60, deadline=None)
@given(game=games(), beta=st.floats(0.1, 2.0))
def test_lambda_one_is_a_gradient_step_toward_the_result(game, beta):
    phi, w, result = game

    def loss(weights):
        return 0.5 * np.sum((result - np.tanh(beta * phi @ weights)) ** 2)

    h = 1e-6
    grad = np.array([(loss(w + h * e) - loss(w - h * e)) / (2 * h) for e in np.eye(len(w))])
    step = td_leaf_step(phi, result, w, alpha=0.1, lam=1.0, beta=beta) - w
    np.testing.assert_allclose(step, -0.1 * grad, atol=1e-6)


@settings(max_examples=60, deadline=None)
@given(game=games(), beta=st.floats(0.1, 2.0))
def test_lambda_zero_moves_each_leaf_toward_the_next(game, beta):
    phi, w, result = game
    values = [np.tanh(beta * row @ w) for row in phi] + [result]
    expected = np.zeros_like(w)
    for t, row in enumerate(phi):
        expected += beta * (1 - values[t] ** 2) * row * (values[t + 1] - values[t])
    step = td_leaf_step(phi, result, w, alpha=0.5, lam=0.0, beta=beta) - w
    np.testing.assert_allclose(step, 0.5 * expected, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(d=arrays(float, st.integers(0, 20), elements=FINITE), lam=st.floats(0.0, 1.0))
def test_discounted_sums_are_the_sums_written_out(d, lam):
    expected = [sum(lam ** (j - t) * d[j] for j in range(t, len(d))) for t in range(len(d))]
    np.testing.assert_allclose(discounted_sums(d, lam), expected, atol=1e-9)


def test_one_step_worked_by_hand():
    # two positions, one feature (0, then 1), weight 0.5, beta 1, result 1: values
    # v0 = tanh(0) = 0, v1 = tanh(0.5); differences d0 = v1, d1 = 1 - v1; lambda 0.5:
    # e0 = d0 + 0.5 d1, e1 = d1; gradients (1 - v^2) phi: 0 and 1 - v1^2
    phi = np.array([[0.0], [1.0]])
    w = np.array([0.5])
    v1 = np.tanh(0.5)
    e0, e1 = v1 + 0.5 * (1 - v1), 1 - v1
    expected = 0.5 + 0.1 * (0.0 * e0 + (1 - v1**2) * 1.0 * e1)
    assert td_leaf_step(phi, 1.0, w, alpha=0.1, lam=0.5, beta=1.0)[0] == pytest.approx(expected)


@pytest.mark.parametrize(
    "phi, result, message",
    [
        (np.zeros((3, 2)), 0.0, r"one row of 1 features per position, got shape \(3, 2\)"),
        (np.zeros(3), 0.0, r"got shape \(3,\)"),
        (np.zeros((3, 1)), 2.0, r"result must be in \[-1, 1\].*got 2.0"),
    ],
)
def test_bad_input_is_refused_saying_what_would_be_right(phi, result, message):
    with pytest.raises(ValueError, match=message):
        td_leaf_step(phi, result, np.zeros(1), alpha=0.1, lam=0.5, beta=1.0)


# ------------------------------------------------------------------ self-play, training
def test_the_leaf_of_the_line_is_what_the_search_valued():
    """Theory: alpha-beta's value is the heuristic of its principal variation's leaf;
    for a weighted heuristic of two players that is the mover's weighted features less
    the other's, so the leaf ``leaf_of`` replays and the features it reads give the
    search's value again."""
    weights = {"stones": 1.0, "pairs": 2.0, "triples": 7.0}
    name = weighted_heuristic("connect4", weights).name
    functions = feature_functions("connect4", ("stones", "pairs", "triples"))
    w = np.array(list(weights.values()))
    checked = 0
    for pos in D.game_positions(get_game("connect4"), 16, seed=4):
        result = search(pos, "alphabeta", depth=3, heuristic=name)
        leaf = leaf_of(pos, result.pv)
        assert len(result.pv) <= 3
        if leaf.is_over:
            continue
        sign = 1.0 if pos.to_move == 0 else -1.0
        value = sign * features_of_position(leaf, functions)[0] @ w
        assert result.scores[result.index] == pytest.approx(value)
        checked += 1
    assert checked >= 6


def test_a_run_resumed_from_its_checkpoint_is_the_run_without_a_break(tmp_path):
    spec = TDLeafSpec(game="connect4", depth=1, games=4, batch=2, seed=3)
    whole = train(spec, tmp_path / "whole.json", progress=False)
    part = tmp_path / "part.json"
    first = train(TDLeafSpec(**{**spec.to_dict(), "games": 2}), None, progress=False)
    train(spec, part, progress=False)  # the whole run, checkpointed ...
    data = json.loads(part.read_text())
    data["batches"] = data["batches"][:1]  # ... cut back to its first batch, as if killed
    part.write_text(json.dumps(data))
    resumed = train(spec, part, progress=False)
    pd.testing.assert_frame_equal(resumed, whole)
    pd.testing.assert_frame_equal(first, whole.iloc[:2])
    assert list(whole["games"]) == [0, 2, 4]
    assert list(whole.iloc[0][["stones", "pairs", "triples"]]) == [1.0, 1.0, 1.0]
    assert data["versions"]["numba"] and data["spec"]["seed"] == 3
    assert (whole[["stones", "pairs", "triples"]].to_numpy() >= 0).all()


def test_a_checkpoint_of_another_run_is_refused_naming_both(tmp_path):
    path = tmp_path / "run.json"
    train(TDLeafSpec(game="connect4", depth=1, games=1, batch=1), path, progress=False)
    with pytest.raises(ValueError, match=r"holds another training run .*'seed': 0.*'seed': 5"):
        train(TDLeafSpec(game="connect4", depth=1, games=1, batch=1, seed=5), path)


@pytest.mark.parametrize(
    "change, message",
    [
        (
            {"game": "chameleon", "players": 5, "algorithm": "paranoid"},
            "players must be a whole number 2..4 for chameleon, got 5",
        ),
        ({"players": 3}, "connect4 seats 2 players, got players=3"),
        ({"game": "chameleon", "players": 3}, "alphabeta searches two-player zero-sum"),
        ({"algorithm": "minimax"}, "unknown algorithm 'minimax'; valid algorithms: "),
        ({"game": "nim"}, "nim has no weighted heuristic; games with one"),
        ({"start": (1.0, -1.0, 0.0)}, r"start must be 3 weights >= 0, not all 0 \(stones"),
        ({"features": ("stones", "kings")}, "kings"),
        ({"lam": 1.5}, r"lam in \[0, 1\]"),
        ({"alpha": 0}, "alpha and beta must be finite and above 0"),
        ({"batch": 0}, "batch must be a whole number >= 1, got 0"),
        ({"depth": True}, "depth must be a whole number >= 1, got True"),
    ],
)
def test_bad_runs_are_refused_saying_what_would_be_right(change, message):
    with pytest.raises(ValueError, match=message):
        TDLeafSpec(**{"game": "connect4", **change})


def test_the_cli_learns_resumes_and_names_a_heuristic_a_session_plays(tmp_path, capsys):
    """``chameleon-lab learn`` prints the weights and, last, the ``weights:`` name; a
    second call on its checkpoint plays nothing and prints the same; the name plays in
    a session of the CLI's tournament command like any heuristic."""
    argv = ["learn", "--games", "2", "--batch", "1", "--depth", "1", "--start", "1", "2", "7",
            "--checkpoint", str(tmp_path / "run.json"), "--quiet"]  # fmt: skip
    assert main(argv) == 0
    first = capsys.readouterr().out.splitlines()
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines() == first
    name = first[-1]
    assert name.startswith("weights:stones=") and len(first) == 5  # header, 0, 1, 2 games
    records = play_against_weighted_lines(tmp_path, name)
    assert len(records) == 2 and records[0]["agents"]["learned"]["heuristic"] == name


def test_the_cli_refuses_a_bad_run_with_status_2(capsys):
    assert main(["learn", "--game", "chameleon", "--players", "3", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "alphabeta searches two-player zero-sum games; chameleon with 3 players" in err


# ------------------------------------------------------------------ more than two players
@settings(max_examples=80, deadline=None)
@given(returns=st.lists(st.sampled_from([-1.0, 0.0, 1.0, 2.5]), min_size=2, max_size=4))
def test_a_seats_result_is_its_mean_finish_against_each_other_seat(returns):
    """Written out: +1 for each other seat it finished ahead of, -1 behind, 0 level,
    divided by the other seats; the results sum to 0, two players give the sign."""
    seats = range(len(returns))
    expected = [
        sum((returns[p] > returns[q]) - (returns[p] < returns[q]) for q in seats if q != p)
        / (len(returns) - 1)
        for p in seats
    ]
    got = seat_results(returns, tuple(seats))
    np.testing.assert_allclose(got, expected)
    assert abs(got.sum()) < 1e-12
    if len(returns) == 2:
        assert got[0] == np.sign(returns[0] - returns[1])


def test_a_winner_takes_all_game_gives_one_and_minus_a_share():
    assert list(seat_results((-1.0, 1.0, -1.0, -1.0), (0, 1, 2, 3))) == [
        -1 / 3,
        1.0,
        -1 / 3,
        -1 / 3,
    ]
    assert list(seat_results((-1.0, -1.0, 1.0, -1.0), (0, 1, 2))) == [-0.5, -0.5, 1.0]


@st.composite
def seated_games(draw):
    """Leaf features of 1 to 10 positions for 2 to 4 seats (each seat's less the mean
    of the others', so they sum to 0 over the seats), weights, results summing to 0."""
    n, seats, f = draw(st.integers(1, 10)), draw(st.integers(2, 4)), draw(st.integers(1, 3))
    raw = draw(arrays(float, (n, seats, f), elements=FINITE))
    phi = raw - (raw.sum(axis=1, keepdims=True) - raw) / (seats - 1)
    w = draw(arrays(float, (f,), elements=st.floats(-1.0, 1.0)))
    finish = draw(st.lists(st.integers(0, 3), min_size=seats, max_size=seats))
    return phi, w, seat_results(finish, tuple(range(seats)))


@settings(max_examples=60, deadline=None)
@given(game=seated_games(), lam=st.floats(0.0, 1.0), beta=st.floats(0.1, 2.0))
def test_the_seats_update_is_the_mean_of_each_seats_update_written_out(game, lam, beta):
    """Theory (module doc): per seat the TD-Leaf sums written as a double loop over
    its own values and result, then the mean over the seats."""
    phi, w, results = game
    n, seats, _ = phi.shape
    total = np.zeros_like(w)
    for s in range(seats):
        v = [np.tanh(beta * phi[t, s] @ w) for t in range(n)] + [results[s]]
        d = [v[t + 1] - v[t] for t in range(n)]
        for t in range(n):
            e = sum(lam ** (j - t) * d[j] for j in range(t, n))
            total += beta * (1 - v[t] ** 2) * phi[t, s] * e
    got = td_leaf_update(phi, results, w, alpha=0.3, lam=lam, beta=beta) - w
    np.testing.assert_allclose(got, 0.3 * total / seats, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(game=games(), lam=st.floats(0.0, 1.0))
def test_two_seats_update_as_the_first_players_step_alone(game, lam):
    """With two seats the second's features and result are the first's negated, so
    the mean of the two steps is the first's, to the last bit."""
    phi, w, result = game
    both = np.stack([phi, -phi], axis=1)
    got = td_leaf_update(both, np.array([result, -result]), w, alpha=0.2, lam=lam, beta=0.5)
    assert np.array_equal(got, td_leaf_step(phi, result, w, alpha=0.2, lam=lam, beta=0.5))


def test_each_seat_sees_its_players_features_less_the_others_mean():
    """Chameleon Chess with three players after a few random moves: the pawn feature
    of each seat from its pawns counted on the board (the position's own listing)."""
    game = seated_game("chameleon", 3)
    functions = feature_functions("chameleon", ("pawns",))
    rng = np.random.default_rng(1)
    for _ in range(8):
        pos = game.start()
        for _ in range(int(rng.integers(0, 30))):
            if pos.is_over:
                break
            pos = pos.play(pos.legal_moves[int(rng.integers(len(pos.legal_moves)))])
        count = np.array([sum(1 for pawn in pos.pawns if int(pawn.player) == p) for p in range(3)])
        expected = count - (count.sum() - count) / 2
        got = features_of_position(pos, functions, (0, 1, 2))
        np.testing.assert_allclose(got[:, 0], expected)
        assert abs(got.sum()) < 1e-9


def test_three_players_learn_with_paranoid_and_resume_from_a_checkpoint(tmp_path):
    spec = TDLeafSpec(game="chameleon", players=3, algorithm="paranoid", depth=1, games=4,
                      batch=2, start=(100, 1, 0, 0), beta=0.005, alpha=1.0, seed=2)  # fmt: skip
    whole = train(spec, tmp_path / "whole.json", progress=False)
    part = tmp_path / "part.json"
    data = json.loads((tmp_path / "whole.json").read_text())
    data["batches"] = data["batches"][:1]  # as if killed after its first batch
    part.write_text(json.dumps(data))
    pd.testing.assert_frame_equal(train(spec, part, progress=False), whole)
    assert list(whole["games"]) == [0, 2, 4]
    assert data["spec"]["players"] == 3 and data["spec"]["algorithm"] == "paranoid"
    assert "players" not in TDLeafSpec().to_dict()  # the fingerprints of two-player runs kept
    moved = whole[["pawns", "roles", "mobility", "centre"]].to_numpy()
    assert (moved >= 0).all() and not np.array_equal(moved[0], moved[-1])
