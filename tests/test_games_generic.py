"""One test every game of the library passes, in the spirit of OpenSpiel's random
simulation test: random playouts checked at every position against the protocol.

At each position of a random game: every legal move's notation reads back as that move
and replays; make then unmake restores the state and its key; returns exist exactly at
finished positions, lie in the declared range and sum to zero in zero-sum games; the
JSON form reads back as the same position; the picture is well-formed SVG; successors
are the positions after each legal move; perft 1 counts the legal moves. Over all
playouts, equal positions reached by different move orders have equal keys.
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chameleon_lab.games import Position, game_names, get_game

#: Every game with its default parameters, and a few other parameter choices.
GAMES = ("chameleon", "tictactoe", "gomoku", "nim", "dice", "othello", "connect4", "rolit",
         "chinesecheckers", "focus")  # fmt: skip
VARIANTS = [(name, {}) for name in GAMES] + [
    ("chameleon", {"players": "RY"}),
    ("gomoku", {"width": 5, "height": 4, "k": 3}),
    ("gomoku", {"width": 9, "height": 3, "k": 4}),
    ("nim", {"heaps": [2, 0, 3], "misere": True}),
    ("dice", {"target": 20, "start": 6}),
    ("dice", {"target": 3, "start": 5}),
    ("othello", {"variant": "reversi"}),
    ("connect4", {"width": 5, "height": 4}),
    ("rolit", {"players": "RG"}),
    ("rolit", {"players": "YGB"}),
    ("chinesecheckers", {"players": 2, "size": 2, "turns": 12}),
    ("chinesecheckers", {"players": 4, "size": 3}),
    ("focus", {"players": 2, "turns": 30}),
    ("focus", {"players": 3, "goal": "last", "turns": 40}),
]
IDS = [f"{n}-{'-'.join(f'{k}={v}' for k, v in p.items()) or 'default'}" for n, p in VARIANTS]
#: position -> key, over every playout of a variant (transpositions across games)
KEYS: dict[str, dict] = {}


def test_every_registered_game_is_covered():
    assert set(game_names()) <= {name for name, _ in VARIANTS}


def _check_position(game, pos, keys: dict) -> None:
    ops, info = game.ops, game.info
    assert isinstance(pos, Position)
    moves = pos.legal_moves
    over = pos.is_over
    assert (moves == []) == over
    assert (pos.returns is None) == (not over)
    if over:
        returns = pos.returns
        assert len(returns) == len(info.player_names)
        assert all(info.min_utility <= r <= info.max_utility for r in returns)
        if info.zero_sum:
            assert sum(returns[p] for p in info.players) == pytest.approx(0.0)
        assert pos.perft(3) == 1
    else:
        assert pos.perft(1) == len(moves)
        assert int(pos.to_move) in info.players
    assert pos.perft(0) == 1
    # notation round trip, and every legal move replays
    assert len({str(m) for m in moves}) == len(moves)
    successors = pos.successors()
    assert len(successors) == len(moves)
    for move, child in zip(moves, successors, strict=True):
        assert pos.parse_move(str(move)) == move
        assert pos.play(str(move)) == child
    # make/unmake restore the state and the key
    state = pos.state.copy()
    key = ops.key(state)
    buf = np.zeros((1, ops.max_moves), dtype=np.int64)
    undo = np.zeros((1, ops.undo_size), dtype=np.int64)
    n = 0 if over else ops.generate(state, buf, 0)
    assert n == len(moves)
    for i in range(n):
        ops.make(state, buf[0, i], undo, 0)
        ops.unmake(state, undo, 0)
        assert np.array_equal(state, pos.state)
        assert ops.key(state) == key
    # JSON and pictures
    data = json.loads(json.dumps(pos.to_json()))
    assert type(pos).from_json(data) == pos
    root = ET.fromstring(pos.svg())
    assert root.tag.endswith("svg")
    # equal positions, equal keys (collected over every playout of the game)
    assert keys.setdefault(pos, key) == key


@pytest.mark.parametrize(("name", "params"), VARIANTS, ids=IDS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_keep_the_protocol(name, params, seed):
    game = get_game(name, **params)
    rng = random.Random(seed)
    keys = KEYS.setdefault(repr(game), {})
    pos = game.start()
    for _ply in range(60):
        _check_position(game, pos, keys)
        if pos.is_over:
            break
        pos = pos.play(rng.choice(pos.legal_moves))


@pytest.mark.parametrize(("name", "params"), VARIANTS, ids=IDS)
def test_heuristics_give_finite_scores_for_the_players(name, params):
    game = get_game(name, **params)
    rng = random.Random(7)
    for _ in range(5):
        pos = game.start()
        for _ply in range(rng.randint(0, 12)):
            if pos.is_over:
                break
            pos = pos.play(rng.choice(pos.legal_moves))
        for heuristic in game.heuristics.names:
            out = np.zeros(4)
            game.heuristics.get(heuristic).function(pos.state, out)
            assert np.all(np.isfinite(out))
            assert all(out[p] >= 0 for p in game.info.players), (heuristic, out)


def test_unknown_games_and_parameters_are_refused_with_the_choices():
    with pytest.raises(ValueError, match=r"valid games: .*tictactoe"):
        get_game("chess")
    with pytest.raises(ValueError, match="its parameters: heaps, misere"):
        get_game("nim", heap=[1, 2])
    with pytest.raises(ValueError, match="tictactoe has no parameter 'k'"):
        get_game("tictactoe", k=4)
