"""Focus (:mod:`chameleon_lab.games.focus`) held against its rules written in plain
Python (``focus_truth``) move for move on random games of every phase and player
count, against Sackson's published two-player start; bad positions, moves and
parameters refused with a message."""

from __future__ import annotations

import random

import focus_truth as T
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chameleon_lab.games import get_game
from chameleon_lab.games.focus import kernel as K

LETTERS = "RGYB"


def _truth_start(pos) -> dict:
    layout = {divmod(sq, 8): p for sq, p in K.start_layout(pos.n_players).items()}
    return T.new_game(layout, pos.n_players)


def _name(rc: tuple[int, int]) -> str:
    return f"{chr(ord('a') + rc[1])}{rc[0] + 1}"


def _text(move: tuple) -> str:
    return f"+{_name(move[1])}" if move[0] == "enter" else f"{_name(move[1])}-{_name(move[2])}"


def _same(pos, truth: dict) -> None:
    stacks = {k: "".join(LETTERS[p] for p in v) for k, v in truth["board"].items() if v}
    assert pos.stacks() == {_name(k): v for k, v in sorted(stacks.items())}
    assert list(pos.reserves()) == truth["reserve"]
    assert [list(r) for r in pos.captures()] == truth["captured"]


def test_the_board_and_sacksons_two_player_start():
    """52 squares (three cut from each corner); the two-player start puts 18 pieces of
    each colour on the central 6 x 6 in pairs alternating along ranks and files, as
    the published diagrams show (rank 2 ``RRGGRR``, rank 3 ``GGRRGG``, ...)."""
    assert K.ON_BOARD.sum() == 52
    assert sum(T.on_board(r, c) for r in range(8) for c in range(8)) == 52
    pos = get_game("focus", players=2).start()
    stacks = pos.stacks()
    for rank, row in zip(range(2, 8), ["RRGGRR", "GGRRGG"] * 3, strict=True):
        assert "".join(stacks[f"{f}{rank}"] for f in "bcdefg") == row
    assert len(stacks) == 36 and pos.to_move == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_as_many_pieces(players):
    counts = np.bincount(list(K.start_layout(players).values()), minlength=players)
    assert set(counts) == {18 if players == 2 else 13}


#: Leaves at three plies from the start, counted by the plain rules
#: (``focus_truth.perft``, 70 s, 20 s and 26 s in Python on 2026-12-07): held as
#: numbers so that the suite does not count them again each run; the plain rules are
#: held live to two plies below.
PLAIN_RULES_PERFT_3 = {2: 299_912, 3: 78_482, 4: 78_482}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_perft_counts_the_plain_rules_leaves(players):
    pos = get_game("focus", players=players).start()
    truth = _truth_start(pos)
    for depth in range(1, 3):
        assert pos.perft(depth) == T.perft(truth, depth), depth
    assert pos.perft(3) == PLAIN_RULES_PERFT_3[players]


def _play_out(players: int, goal: str, seed: int, turns: int, bias: float) -> None:
    """A random game, kernel and plain rules side by side; ``bias`` is the chance of
    preferring the moves that land on the tallest stacks (to reach captures)."""
    rng = random.Random(seed)
    game = get_game("focus", players=players, goal=goal, turns=turns)
    pos, truth = game.start(), None
    truth = _truth_start(pos)
    keys = {}
    for ply in range(players * turns):
        _same(pos, truth)
        assert pos.to_move == truth["side"], ply
        moves = T.legal(truth)
        assert sorted(map(str, pos.legal_moves)) == sorted(map(_text, moves)), ply
        game.from_json(pos.to_json())  # every position passes check_state
        keys.setdefault(pos.key, repr(sorted(pos.to_json().items())))
        assert keys[pos.key] == repr(sorted(pos.to_json().items()))
        if rng.random() < bias:
            heights = [len(truth["board"].get(m[2] if m[0] == "move" else m[1], [])) for m in moves]
            moves = [m for m, h in zip(moves, heights, strict=True) if h == max(heights)]
        move = rng.choice(moves)
        pos = pos.play(_text(move))
        truth, winner = T.play(truth, move, short=goal == "short")
        if winner is not None:
            _same(pos, truth)
            assert pos.is_over and pos.returns[winner] == 1.0
            assert sorted(pos.returns[:players]) == [-1.0] * (players - 1) + [1.0]
            return
    assert pos.is_over  # the limit


@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), goal=st.sampled_from(["short", "last"]),
       seed=st.integers(0, 2**32 - 1), bias=st.sampled_from([0.0, 0.7, 1.0]))  # fmt: skip
def test_random_games_follow_the_plain_rules_move_for_move(players, goal, seed, bias):
    """Every position of a random game: the stacks, reserves and captures, who moves,
    the legal moves, the JSON round trip and its checks, one key per position, and at
    the end the winner."""
    _play_out(players, goal, seed, turns=60, bias=bias)


def _position(game, stacks, reserve, captured, to_move=0):
    obj = {"game": "focus", "params": dict(game.params), "stacks": stacks, "reserve": reserve,
           "captured": captured, "to_move": to_move, "ply": 0}  # fmt: skip
    return game.from_json(obj)


def test_captures_go_to_the_mover_and_its_own_pieces_to_its_reserve():
    """Red's two pieces from c3 land on a five-stack on c5 (bottom G R G G Y): seven
    pieces, so the bottom two go: green's is captured, red's own goes to its reserve;
    red tops the new five. A reserve piece entered on it pushes off the next."""
    game = get_game("focus", players=3)
    stacks = {"c3": "RR", "c5": "GRGGY", "a4": "G", "h4": "Y", "h5": "YYYYY",
              "d4": "GGGGG", "e4": "GGGG", "e5": "YYY", "f5": "RRRR"}  # fmt: skip
    pos = _position(game, stacks, [0, 0, 0], [[0, 0, 3], [6, 0, 0], [0, 0, 0]])
    after = pos.play("c3-c5")
    assert after.stacks()["c5"] == "GGYRR" and "c3" not in after.stacks()
    assert after.reserves() == (1, 0, 0) and after.captures()[0] == (0, 1, 3)
    assert after.to_move == 1
    entered = after.play("a4-a5").play("h4-h3").play("+c5")
    assert entered.stacks()["c5"] == "GYRRR" and entered.reserves()[0] == 0
    assert entered.captures()[0] == (0, 2, 3)


def test_a_player_who_cannot_move_is_skipped_and_the_last_able_wins():
    """Yellow tops nothing and holds no reserve: after red, green moves. When red's
    move leaves neither green nor yellow able to move, red wins (Sackson's game)."""
    game = get_game("focus", players=3, goal="last")
    stacks = {"c3": "R", "c4": "YG", "e5": "YR"}
    pos = _position(game, stacks, [0, 0, 0], [[0, 12, 11], [11, 0, 0], [0, 0, 0]])
    after = pos.play("c3-d3")
    assert after.to_move == 1 and not after.is_over
    won = pos.play("c3-c4")
    assert won.is_over and won.returns == (1.0, -1.0, -1.0)


def test_the_short_game_is_won_by_captures_and_the_limit_ranks_by_them():
    """Red has captured five green pieces; landing on green's five-stack captures the
    sixth, which wins the two-player short game. With one turn each, the limit ends
    the game and the most captures win."""
    stacks = {"c3": "R", "c4": "GGGGG", "e5": "G"}
    pos = _position(get_game("focus", players=2), stacks, [17, 7], [[0, 5], [0, 0]])
    won = pos.play("c3-c4")
    assert won.is_over and won.returns == (1.0, -1.0)
    assert won.final_scores() == (6.0, 0.0)
    game = get_game("focus", players=2, turns=1)
    end = _position(game, stacks, [17, 7], [[0, 5], [0, 0]]).play("c3-d3").play("e5-e4")
    assert end.is_over and end.returns[:2] == (1.0, -1.0)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"stacks": {"a1": "R"}}, "corner squares that are not on the Focus board"),
        ({"stacks": {"c3": "RRRRRR"}}, "not 1 to 5 letters"),
        ({"stacks": {"c3": "RX"}}, "not 1 to 5 letters"),
        ({"reserve": [0]}, "not a list of 2 counts"),
        ({"to_move": -1}, "to_move -1 is not a whole number"),
        ({"captured": [[0, 1], [0, 0]]}, "not the 18 it started with"),
        ({"reserve": [1, 0]}, "not the 18 it started with"),
        ({"ply": 999}, "outside 0..200"),
        ({"extra": 1}, "unknown field"),
    ],
)
def test_impossible_positions_are_refused_saying_why(change, message):
    game = get_game("focus", players=2)
    obj = {**game.start().to_json(), **change}
    with pytest.raises(ValueError, match=message):
        game.from_json(obj)


def test_illegal_moves_say_why():
    pos = get_game("focus", players=2).start()
    with pytest.raises(ValueError, match="green, not red, tops d2"):
        pos.play("d2-d3")
    with pytest.raises(ValueError, match="has 1 piece\\(s\\), and moving 2"):
        pos.play("b2-b4")
    with pytest.raises(ValueError, match="along a rank or a file"):
        pos.play("b2-c3")
    with pytest.raises(ValueError, match="no pieces in reserve"):
        pos.play("+d4")
    with pytest.raises(ValueError, match="not on the Focus board"):
        pos.play("b2-b1")
    with pytest.raises(ValueError, match="is not a move"):
        pos.play("b2")
    with pytest.raises(ValueError, match="empty"):
        pos.play("d1-d2")


@pytest.mark.parametrize(
    "params, message",
    [({"players": 5}, "2, 3 or 4"), ({"goal": "long"}, "'short'"), ({"turns": 0}, "whole number")],
)
def test_bad_parameters_are_refused(params, message):
    with pytest.raises(ValueError, match=message):
        get_game("focus", **params)


def test_the_picture_draws_every_stack():
    pos = get_game("focus", players=4).start().play("f1-f2")
    svg = pos.svg()
    assert svg.count("<circle") >= 52 and "focus: green to move" in svg


def test_the_conformance_entry_point_answers_focus_lines_by_the_plain_rules():
    """``legal`` and ``perft`` lines name the game and its parameters (the contract's
    "Other games" lines), answered as the plain rules count."""
    import json

    from conformance_lines import answers

    lines = [
        {"game": "focus", "params": {"players": 2}, "moves": ["b2-c2"]},
        {"game": "focus", "params": {"players": 3}, "moves": ["f1-f2", "d2-d3"]},
    ]
    expected = []
    for line in lines:
        pos = get_game("focus", **line["params"]).start()
        truth = _truth_start(pos)
        for text in line["moves"]:
            move = next(m for m in T.legal(truth) if _text(m) == text)
            truth, _ = T.play(truth, move)
        expected.append(truth)
    legal = [json.loads(line) for line in answers("legal", lines)]
    assert [sorted(moves) for moves in legal] == [sorted(map(_text, T.legal(t))) for t in expected]
    perft = [int(line) for line in answers("perft 2", lines)]
    assert perft == [T.perft(t, 2) for t in expected]


def test_malformed_moves_in_conformance_lines_are_refused():
    """A malformed or illegal move in a line: exit 2, the error names it, no traceback."""
    from conformance_lines import run

    for move, message in (("b2c2", "is not a move"), ("b2-b4", "moving 2")):
        line = {"game": "focus", "params": {"players": 2}, "moves": [move]}
        done = run(["legal"], [line])
        assert done.returncode == 2 and message in done.stderr
        assert "Traceback" not in done.stderr
