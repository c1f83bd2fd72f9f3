"""Value networks as heuristics (issue 47, item 1, the second kind).

Truths: scikit-learn's own ``predict`` for the compiled forward pass (on positions of
every phase); the board read cell by cell from the position's notation for the inputs;
a pruned search equals its unpruned twin with the network at the leaves; an
interrupted training ends as an uninterrupted one; bad model files are refused by name.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from cli_session import play_against_weighted_lines
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chameleon_lab.analysis.valuenet import NetSpec, selfplay_positions, train_net
from chameleon_lab.games.registry import get_game
from chameleon_lab.games.valuenet import (
    SCALE,
    ValueNet,
    connect4_inputs,
    load_net,
    net_heuristic,
)
from chameleon_lab.search.api import search

SPEC = NetSpec(games=30, epochs=3, hidden=8, seed=3)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    folder = tmp_path_factory.mktemp("net")
    net, curve = train_net(SPEC, folder, progress=False)
    return net, curve, folder


def _random_position(seed: int, plies: int):
    rng = np.random.default_rng(seed)
    position = get_game("connect4").start()
    for _ in range(plies):
        if position.is_over:
            break
        position = position.play(position.legal_moves[int(rng.integers(len(position.legal_moves)))])
    return position


def _cells(position) -> np.ndarray:
    """The inputs written from the board's picture (row 0 at the top), cell by cell."""
    data = position.to_json()
    rows = data["board"]
    height, width = len(rows), len(rows[0])
    mover = "XO"[position.to_move]
    other = "XO"[1 - position.to_move]
    x = np.zeros(2 * width * height)
    for c in range(width):
        for r in range(height):
            cell = rows[height - 1 - r][c]
            x[c * height + r] = cell == mover
            x[width * height + c * height + r] = cell == other
    return x


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 41))
def test_the_inputs_are_the_board_cell_by_cell(seed, plies):
    position = _random_position(seed, plies)
    assume(not position.is_over)  # a finished game has no player to move
    assert np.array_equal(connect4_inputs(position.state), _cells(position))


def test_the_compiled_network_is_sklearns_forward_pass(trained):
    from sklearn.neural_network import MLPRegressor

    net, _, _ = trained
    model = MLPRegressor(hidden_layer_sizes=(net.hidden,), activation=net.activation)
    model.fit(np.zeros((2, net.w1.shape[0])), np.zeros(2))  # shapes only: then its arrays
    model.coefs_ = [np.array(net.w1), np.array(net.w2)[:, None]]
    model.intercepts_ = [np.array(net.b1), np.array([net.b2])]
    function = net_heuristic(net).function
    out = np.zeros(4)
    seen = 0
    for seed in range(200):  # every phase random play reaches: 0 to 29 plies
        position = _random_position(seed, seed % 30)
        if position.is_over:
            continue
        function(position.state, out)
        p = position.to_move
        expected = float(np.clip(model.predict(connect4_inputs(position.state)[None])[0], -1, 1))
        assert (out[p] - out[1 - p]) / SCALE == pytest.approx(expected, abs=1e-12)
        assert out[p] > 0 and out[1 - p] > 0 and out[2] == out[3] == 0
        seen += 1
    assert seen > 120, seen


def test_alphabeta_with_the_network_equals_plain_negamax(trained):
    net, _, _ = trained
    name = net_heuristic(net).name
    for seed in range(12):
        position = _random_position(100 + seed, 6 + seed)
        if position.is_over:
            continue
        pruned = search(position, "alphabeta", depth=4, heuristic=name)
        plain = search(position, "negamax", depth=4, heuristic=name)
        best = float(np.max(plain.scores))  # negamax scores every root move exactly
        assert float(pruned.scores[pruned.index]) == pytest.approx(best), seed
        assert float(plain.scores[pruned.index]) == pytest.approx(best), seed


def test_selfplay_labels_are_each_games_result_for_the_mover():
    spec = NetSpec(games=4, epochs=1, hidden=4, seed=5)
    data = selfplay_positions(spec, progress=False)
    assert data["x"].shape[1] == 84 and len(data["x"]) == len(data["y"]) == len(data["game"])
    for g in range(4):
        y = data["y"][data["game"] == g]
        stones = data["x"][data["game"] == g].sum(axis=1)
        assert np.all(np.diff(stones) == 1)  # one stone more each move
        if np.all(y == 0):
            continue  # a draw
        assert np.all(y[1:] == -y[:-1])  # the mover alternates, and so does the sign


def test_an_interrupted_training_ends_as_an_uninterrupted_one(trained, tmp_path):
    net, curve, _ = trained
    _, part = train_net(SPEC, tmp_path, progress=False, stop_after=1)
    assert len(part) == 1
    resumed, whole = train_net(SPEC, tmp_path, progress=False)
    assert list(whole["epoch"]) == [1, 2, 3]
    assert resumed.digest == net.digest and whole.equals(curve)


def test_a_finished_run_reads_its_model_file_alone(trained, tmp_path):
    net, curve, folder = trained
    for kept in folder.iterdir():
        (tmp_path / kept.name).write_bytes(kept.read_bytes())
    for extra in [*tmp_path.glob("*.ckpt"), *tmp_path.glob("valuenet-games-*")]:
        extra.unlink()  # what a committed run leaves out
    again, again_curve = train_net(SPEC, tmp_path, progress=False)
    assert again.digest == net.digest and again_curve.equals(curve)
    assert list(again_curve["kept"]).count(True) == 1


def test_the_same_parameters_give_the_same_network(trained):
    net, _, _ = trained
    again, _ = train_net(SPEC, progress=False)
    assert again.digest == net.digest
    other, _ = train_net(NetSpec(games=30, epochs=3, hidden=8, seed=4), progress=False)
    assert other.digest != net.digest
    assert net_heuristic(other).fingerprint != net_heuristic(net).fingerprint


def test_a_saved_model_round_trips_and_names_itself(trained, tmp_path):
    import os

    net, _, _ = trained
    mask = os.umask(0o022)
    try:
        path = net.save(tmp_path / "m.npz")
    finally:
        os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o644  # as any file written here (was 0o600)
    assert [f.name for f in tmp_path.iterdir()] == ["m.npz"]  # no temporary file left
    back = load_net(path)
    assert back.digest == net.digest and back.meta["epochs"] == 3
    name = f"net:{path}"
    registry = get_game("connect4").heuristics
    assert registry.get(name).function is net_heuristic(net).function


def test_a_net_name_plays_in_a_fresh_process(trained, tmp_path):
    net, _, _ = trained
    path = net.save(tmp_path / "m.npz")
    code = (
        "from chameleon_lab.games.registry import get_game\n"
        "from chameleon_lab.search.api import search\n"
        f"r = search(get_game('connect4').start(), 'alphabeta', depth=2, heuristic='net:{path}')\n"
        "print(r.index)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    # registered here by net_heuristic, not left to another test run before this one
    # (pytest-xdist may run that one in the other worker)
    name = net_heuristic(net).name
    here = search(get_game("connect4").start(), "alphabeta", depth=2, heuristic=name)
    assert done.stdout.strip() == str(here.index)


def test_another_board_size_gets_no_knowledge(trained):
    net, _, _ = trained
    function = net_heuristic(net).function
    small = get_game("connect4", width=5, height=4).start().play("3")
    out = np.zeros(4)
    function(small.state, out)
    assert out[0] == out[1] == 1.0
    with pytest.raises(ValueError, match="is for a 7 x 6 board, the game is 5 x 4"):
        net.check_params({"width": 5, "height": 4})


def test_a_model_on_another_board_is_refused_where_it_would_play(trained, tmp_path, capsys):
    """The function scores a board of another size as a draw (above); everything that
    plays it refuses that board by name: a search, an agent, a session and the CLI."""
    from chameleon_lab.agents import Agent
    from chameleon_lab.cli import main
    from chameleon_lab.tournament.session import Session

    net, _, _ = trained
    name = f"net:{net.save(tmp_path / 'm.npz')}"
    small = get_game("connect4", width=5, height=4).start()
    message = "is for a 7 x 6 board, the game is 5 x 4"
    with pytest.raises(ValueError, match=message):
        search(small, "alphabeta", depth=2, heuristic=name)
    agent = Agent(algorithm="alphabeta", depth=2, heuristic=name, game="connect4")
    assert agent.choose(get_game("connect4").start()).move is not None  # its own board
    with pytest.raises(ValueError, match=message):
        agent.choose(small)
    agents = {"learned": {"algorithm": "alphabeta", "heuristic": name},
              "hand": {"algorithm": "alphabeta", "heuristic": "weighted_lines"}}  # fmt: skip
    common = {"name": "s", "game": "connect4", "design": "every", "agents": agents,
              "budget": {"depth": 1}}  # fmt: skip
    with pytest.raises(ValueError, match=f"agent 'learned': the model .* {message}"):
        Session(**common, game_params={"width": 5, "height": 4})
    assert Session(**common).game_params["width"] == 7
    path = tmp_path / "session.json"
    path.write_text(json.dumps({**common, "game_params": {"width": 5, "height": 4}}))
    out = tmp_path / "records.jsonl"
    assert main(["tournament", str(path), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and not out.exists()


def test_bad_models_are_refused_by_name(trained, tmp_path):
    net, _, _ = trained
    w1, b1, w2 = np.array(net.w1), np.array(net.b1), np.array(net.w2)
    with pytest.raises(ValueError, match=r"w1 must have shape \(84, hidden\)"):
        ValueNet("connect4", {"width": 7, "height": 6}, w1[:80], b1, w2, 0.0)
    with pytest.raises(ValueError, match="w1 holds non-finite numbers"):
        ValueNet("connect4", {}, np.where(w1 > 0, np.nan, w1), b1, w2, 0.0)
    with pytest.raises(ValueError, match=r"b1 must have shape \(8,\)"):
        ValueNet("connect4", {}, w1, b1[:3], w2, 0.0)
    with pytest.raises(ValueError, match="unknown activation 'sigmoid'"):
        ValueNet("connect4", {}, w1, b1, w2, 0.0, activation="sigmoid")
    with pytest.raises(ValueError, match="othello has no value-network encoding"):
        ValueNet("othello", {}, w1, b1, w2, 0.0)
    path = net.save(tmp_path / "m.npz")
    with pytest.raises(ValueError, match="is a model of connect4, not of othello"):
        load_net(path, game="othello")
    with pytest.raises(ValueError, match="a model for 2 players, not for 3"):
        load_net(path, players=3)
    (tmp_path / "junk.npz").write_bytes(b"not a model")
    with pytest.raises(ValueError, match="is not a value-network file"):
        load_net(tmp_path / "junk.npz")
    with pytest.raises(ValueError, match="is not a value-network file"):
        get_game("connect4").heuristics.get(f"net:{tmp_path / 'missing.npz'}")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("games", 1, "games must be a whole number >= 2"),
        ("hidden", 0, "hidden must be a whole number >= 1"),
        ("random_move", 1.0, "random_move out of range"),
        ("holdout", 0.0, "holdout out of range"),
        ("activation", "sigmoid", "unknown activation 'sigmoid'"),
        ("game", "othello", "othello has no value-network encoding"),
        ("heuristic", "nothing", "unknown heuristic 'nothing'"),
    ],
)
def test_bad_training_parameters_are_named(field, value, message):
    with pytest.raises(ValueError, match=message):
        NetSpec(**{field: value})


def test_the_cli_learns_a_net_whose_name_a_session_plays(tmp_path, capsys):
    """``chameleon-lab learn-net`` prints the curve and, last, the ``net:`` name; a
    second call resumes from the folder and prints the same; the name plays in the
    tournament command's session against the hand-made heuristic."""

    from chameleon_lab.cli import main

    argv = ["learn-net", "--folder", str(tmp_path / "net"), "--games", "6", "--hidden", "4",
            "--epochs", "2", "--depth", "1", "--quiet"]  # fmt: skip
    assert main(argv) == 0
    first = capsys.readouterr().out.splitlines()
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines() == first
    name = first[-1]
    assert name.startswith("net:") and name.endswith(".npz")
    records = play_against_weighted_lines(tmp_path, name)
    assert len(records) == 2 and records[0]["agents"]["learned"]["heuristic"] == name


def test_the_cli_refuses_a_bad_net_run_with_status_2(tmp_path, capsys):
    from chameleon_lab.cli import main

    argv = ["learn-net", "--folder", str(tmp_path), "--game", "othello", "--quiet"]
    assert main(argv) == 2
    assert "othello has no value-network encoding" in capsys.readouterr().err
    assert main(["learn-net", "--folder", str(tmp_path), "--random-move", "2", "--quiet"]) == 2
    assert "random_move out of range" in capsys.readouterr().err


def test_fewer_training_games_keep_the_held_out_games_and_the_positions():
    """A point of the strength curve: only games numbered below ``train_games`` train,
    the held-out games are those of the whole run (so the errors compare), and the
    self-play positions are shared with it (one fingerprint for the games)."""
    from chameleon_lab.analysis.valuenet import _split, training_games

    whole = NetSpec(games=20, epochs=1, hidden=4, seed=7)
    part = NetSpec(games=20, epochs=1, hidden=4, seed=7, train_games=9)
    data = {"game": np.repeat(np.arange(20), 3)}  # three positions a game
    train, held = _split(whole, data)
    part_train, part_held = _split(part, data)
    assert (part_held == held).all() and held.sum() == 3 * 4  # a fifth of 20 games
    assert not (part_train & ~train).any()  # the whole run's training games, fewer
    trained = set(data["game"][part_train])
    assert trained == {g for g in range(9) if g not in set(data["game"][held])}
    assert training_games(part) == len(trained) and training_games(whole) == 16
    assert part.games_fingerprint == whole.games_fingerprint
    assert part.fingerprint != whole.fingerprint
    # the field is left out of the fingerprint at its default: older runs keep their files
    assert "train_games" not in whole.to_dict() and part.to_dict()["train_games"] == 9


@pytest.mark.parametrize(
    ("train_games", "message"),
    [(0, "train_games"), (31, "at most games"), (1.5, "train_games")],
)
def test_bad_training_game_counts_are_named(train_games, message):
    with pytest.raises(ValueError, match=message):
        NetSpec(games=30, train_games=train_games)


def test_a_count_whose_games_are_all_held_out_is_refused():
    from chameleon_lab.analysis.valuenet import _split, held_games

    seed = next(s for s in range(100) if 0 in held_games(NetSpec(games=10, seed=s)))
    with pytest.raises(ValueError, match="leaves no game to train on"):
        _split(NetSpec(games=10, seed=seed, train_games=1), {"game": np.arange(10)})
