"""A value network for Chameleon Chess, one output per player (issue 47, item 1).

Truths: the inputs written pawn by pawn from the position's own description (its pawns,
their squares and roles) and the turn order the rules give (red, blue, yellow, green);
scikit-learn's own multi-output ``predict`` for the compiled forward pass on positions
of every phase and seating; speculative MaxN equals MaxN with the network at the
leaves; the labels of a self-play game are that game's result, the same seen from
every position; a model for three players is refused where four play.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import random_positions

from chameleon_lab.analysis.valuenet import NetSpec, seatings, selfplay_positions, train_net
from chameleon_lab.games.chameleon import Colour
from chameleon_lab.games.registry import get_game
from chameleon_lab.games.valuenet import SCALE, ValueNet, encoding, load_net, net_heuristic
from chameleon_lab.search.api import search

#: The rules' turn order.
TURNS = (Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN)


def _pawn_inputs(position) -> np.ndarray:
    """The inputs written from the position's pawns: slot (colours counted from the
    mover along the turn order), role and square."""
    x = np.zeros(4 * 4 * 64)
    first = TURNS.index(position.to_move)
    for pawn in position.pawns:
        if position.pawn_at(pawn.square) != pawn:
            continue  # a captured pawn keeps its place in the list, not on the board
        slot = (TURNS.index(pawn.player) - first) % 4
        x[(slot * 4 + int(pawn.role)) * 64 + pawn.square] = 1.0
    return x


def _random_net(players: int, hidden: int, activation: str, seed: int) -> ValueNet:
    rng = np.random.default_rng(seed)
    params = {"players": "RGYB"[:players]}
    return ValueNet("chameleon", params, rng.normal(0, 0.3, (1024, hidden)),
                    rng.normal(0, 0.3, hidden), rng.normal(0, 0.3, (hidden, 4)),
                    rng.normal(0.3, 0.1, 4), activation)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_the_inputs_are_the_pawns_by_slot_role_and_square(seed):
    for position in random_positions(5, seed=seed, max_moves=80):
        x = encoding("chameleon").encode(np.array(position.state), {})
        assert np.array_equal(x, _pawn_inputs(position))
        assert x.sum() == sum(1 for p in position.pawns if position.pawn_at(p.square) == p)


@pytest.mark.parametrize("activation", ["relu", "tanh"])
def test_the_compiled_network_is_sklearns_forward_pass(activation):
    from sklearn.neural_network import MLPRegressor

    net = _random_net(4, 12, activation, seed=7 if activation == "relu" else 8)
    model = MLPRegressor(hidden_layer_sizes=(net.hidden,), activation=activation)
    model.fit(np.zeros((2, 1024)), np.zeros((2, 4)))  # shapes only: then its arrays
    model.coefs_ = [np.array(net.w1), np.array(net.w2)]
    model.intercepts_ = [np.array(net.b1), np.array(net.b2)]
    function = net_heuristic(net).function
    out = np.zeros(4)
    inner = 0
    for position in random_positions(150, seed=11, max_moves=120):  # every phase and seating
        function(position.state, out)
        predicted = np.clip(model.predict(_pawn_inputs(position)[None])[0], 0.0, 1.0)
        first = TURNS.index(position.to_move)
        for slot in range(4):
            colour = TURNS[(first + slot) % 4]
            if colour in position.players_alive:
                assert out[colour] == pytest.approx(1.0 + SCALE * predicted[slot], abs=1e-9)
                inner += 0.0 < predicted[slot] < 1.0
            else:
                assert out[colour] == 0.0  # no pawns: lost, or not seated
    assert inner > 100, inner  # the clip alone would not test the arithmetic


@pytest.mark.parametrize("players", [3, 4])
def test_speculative_maxn_with_the_network_is_maxn(players):
    name = net_heuristic(_random_net(players, 8, "relu", seed=players)).name
    positions = [p for p in random_positions(60, seed=31, max_moves=60)
                 if len(p.players_alive) == players][:6]  # fmt: skip
    assert len(positions) == 6
    for position in positions:
        full = search(position, "maxn", depth=3, heuristic=name, normalize=True)
        fast = search(position, "maxnsp", depth=3, heuristic=name, normalize=True)
        assert fast.index == full.index
        np.testing.assert_array_equal(fast.scores[fast.index], full.scores[full.index])


def test_selfplay_labels_are_shares_of_players_still_on_the_board():
    spec = NetSpec(game="chameleon", players=3, algorithm="paranoid", games=8, depth=1,
                   epochs=1, hidden=4, seed=2)  # fmt: skip
    data = selfplay_positions(spec, progress=False)
    assert data["x"].shape[1] == 1024 and data["y"].shape == (len(data["x"]), 4)
    games = seatings("chameleon", 3)
    assert [g.params["players"] for g in games] == ["RGY", "RGB", "RYB", "GYB"]
    for g in range(8):
        rows = data["game"] == g
        assert rows.sum() > 0
        seated = len(games[g % 4].info.players)
        for x, y in zip(data["x"][rows], data["y"][rows], strict=True):
            on_board = np.array([x[k * 256 : (k + 1) * 256].any() for k in range(4)])
            assert on_board[0] and on_board.sum() <= seated  # the mover, and no stranger
            assert y.sum() == pytest.approx(1.0) and y.min() >= 0.0
            assert not np.any((y > 0) & ~on_board)  # a share only for a player still in it
            assert len(set(y[y > 0])) == 1  # the winner, or players level at the limit


def test_a_share_is_the_result_split_among_the_best():
    from chameleon_lab.games.chameleon import valuenet as CV

    state = np.array(get_game("chameleon", players="RGY").start().state)  # red to move
    # slots from red: red 0, blue 1, yellow 2, green 3
    assert list(CV.shares([1.0, -1.0, -1.0, -1.0], state, [0, 1, 2])) == [1, 0, 0, 0]
    assert list(CV.shares([-1.0, 1.0, -1.0, -1.0], state, [0, 1, 2])) == [0, 0, 0, 1]
    assert list(CV.shares([1.0, -1.0, 1.0, 1.0], state, [0, 1, 2])) == [0.5, 0, 0.5, 0]


def test_a_trained_model_plays_and_is_bound_to_its_player_count(tmp_path):
    spec = NetSpec(game="chameleon", players=3, algorithm="paranoid", games=6, depth=1,
                   epochs=2, hidden=4, seed=1)  # fmt: skip
    net, curve = train_net(spec, tmp_path, progress=False)
    assert net.w1.shape == (1024, 4) and net.w2.shape == (4, 4) and net.players == 3
    assert len(curve) == 2
    path = tmp_path / f"valuenet-{spec.fingerprint}.npz"
    back = load_net(path, game="chameleon", players=3)
    assert back.digest == net.digest
    with pytest.raises(ValueError, match="a model for 3 players, not for 4"):
        load_net(path, players=4)
    name = f"net:{path}"
    for seating in ("RGY", "GYB", "RY"):  # any seating of at most three players
        position = get_game("chameleon", players=seating).start()
        assert search(position, "paranoid", depth=2, heuristic=name).index >= 0
    four = get_game("chameleon", players="RGYB").start()
    with pytest.raises(ValueError, match=r"is for games of 3 players, the game seats 4"):
        search(four, "paranoid", depth=2, heuristic=name)


def test_bad_chameleon_models_are_refused_by_name():
    net = _random_net(3, 4, "relu", seed=1)
    with pytest.raises(ValueError, match=r"w2 must have shape \(4, 4\) \(4 outputs"):
        ValueNet("chameleon", net.params, net.w1, net.b1, net.w2[:, :3], net.b2)
    with pytest.raises(ValueError, match=r"b2 must have shape \(4,\)"):
        ValueNet("chameleon", net.params, net.w1, net.b1, net.w2, 0.5)
    with pytest.raises(ValueError, match=r"w1 must have shape \(1024, hidden\)"):
        ValueNet("chameleon", net.params, net.w1[:768], net.b1, net.w2, net.b2)
    with pytest.raises(ValueError, match="paranoid, maxn or brs"):
        NetSpec(game="chameleon", players=3)  # alpha-beta is for two players
    with pytest.raises(ValueError, match="players"):
        NetSpec(game="chameleon", players=5, algorithm="paranoid")
    with pytest.raises(ValueError, match="connect4 seats 2 players"):
        NetSpec(game="connect4", players=3, algorithm="paranoid")


def test_the_cli_learns_a_chameleon_net_a_session_plays(tmp_path, capsys):
    """``learn-net --game chameleon --players 3`` prints the ``net:`` name last; it
    plays against ``pawns100roles`` in a three-player tournament of every seating."""
    from chameleon_lab.cli import main

    argv = ["learn-net", "--game", "chameleon", "--players", "3", "--algorithm", "paranoid",
            "--folder", str(tmp_path / "net"), "--games", "4", "--hidden", "4", "--epochs", "1",
            "--depth", "1", "--quiet"]  # fmt: skip
    assert main(argv) == 0
    name = capsys.readouterr().out.splitlines()[-1]
    assert name.startswith("net:") and name.endswith(".npz")
    agents = {"learned": {"algorithm": "paranoid", "heuristic": name},
              "hand": {"algorithm": "paranoid", "heuristic": "pawns100roles"}}  # fmt: skip
    session = {"name": "learned", "game": "chameleon", "design": "every", "players": 3,
               "budget": {"depth": 1}, "agents": agents}  # fmt: skip
    path = tmp_path / "session.json"
    path.write_text(json.dumps(session))
    out = tmp_path / "records.jsonl"
    assert main(["tournament", str(path), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    empty = {next(i for i, agent in enumerate(r["seating"]) if agent is None) for r in records}
    assert empty == {0, 1, 2, 3}  # every seating of three of the four colours
    assert all(r["agents"]["learned"]["heuristic"] == name for r in records)
    four = {**session, "players": 4}
    path.write_text(json.dumps(four))
    assert main(["tournament", str(path), "--out", str(tmp_path / "r4.jsonl"), "--quiet"]) == 2
    assert "is for games of 3 players, the game seats 4" in capsys.readouterr().err
