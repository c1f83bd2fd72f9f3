"""Chinese Checkers (:mod:`chameleon_lab.games.chinese_checkers`) held against its rules
written in plain Python (``chinese_checkers_truth``) move for move on games of every
phase, every player count and every board size; the anti-blocking rule and the stay-at-
home rule on positions built for them; bad positions, parameters and moves refused with
a message."""

from __future__ import annotations

import random

import chinese_checkers_truth as T
import pytest
from conformance_lines import answers
from hypothesis import given, settings
from hypothesis import strategies as st

from chameleon_lab.games import get_game

GAME = "chinesecheckers"


def _pos(players, size, rows, to_move=0, ply=0, turns=100):
    game = get_game(GAME, players=players, size=size, turns=turns)
    return game.from_json({"game": GAME, "params": game.params, "board": rows,
                           "to_move": to_move, "ply": ply})  # fmt: skip


@pytest.mark.parametrize(("size", "holes", "pieces"), [(4, 121, 10), (3, 73, 6), (2, 37, 3)])
def test_the_star_has_its_holes_and_each_triangle_its_pieces(size, holes, pieces):
    pos = get_game(GAME, players=2, size=size).start()
    rows = pos.state_to_json()["board"]
    assert sum(map(len, rows)) == holes == len(T.holes(size))
    assert [len(r) for r in rows] == T.row_lengths(size)
    assert {p: len(v) for p, v in pos.pieces().items()} == {0: pieces, 1: pieces}
    assert rows == T.Game(2, size, 100).rows()


@pytest.mark.parametrize(("players", "size"), [(2, 4), (3, 4), (4, 4), (3, 3), (4, 2)])
def test_perft_counts_the_plain_rules_leaves(players, size):
    pos = get_game(GAME, players=players, size=size).start()
    truth = T.Game(players, size, 100)
    for depth in range(1, 4):
        assert pos.perft(depth) == T.perft(truth, depth), depth


def _greedy(truth: T.Game, rng: random.Random, keen: float) -> str:
    """A random move, or with probability ``keen`` one that brings the mover's pieces
    closest to home (so games reach their end, homes fill and winners are decided)."""
    moves = sorted(truth.legal())
    if rng.random() >= keen or moves == ["pass"]:
        return rng.choice(moves)
    tip = T.far_tip(truth.home(truth.to_move), truth.n)
    by_name = {T.name(h, truth.n): h for h in truth.holes}

    def gain(move: str) -> int:
        a, b = (by_name[x] for x in move.split("-"))
        return T.steps_between(a, tip) - T.steps_between(b, tip)

    best = max(map(gain, moves))
    return rng.choice([m for m in moves if gain(m) == best])


@settings(max_examples=30, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    size=st.sampled_from([2, 3, 4]),
    keen=st.sampled_from([0.0, 0.7, 0.95]),
    seed=st.integers(0, 2**32 - 1),
)
def test_games_follow_the_plain_rules_move_for_move(players, size, keen, seed):
    """Every position of a game to its end (a winner or the move limit): the legal
    moves, the board after each move, who moves, and at the end the returns and the
    steps left."""
    rng = random.Random(seed)
    turns = 60 if keen else 8
    game = get_game(GAME, players=players, size=size, turns=turns)
    pos, truth = game.start(), T.Game(players, size, turns)
    while not truth.over():
        assert not pos.is_over and pos.to_move == truth.to_move
        assert {str(m) for m in pos.legal_moves} == truth.legal()
        move = _greedy(truth, rng, keen)
        pos, _ = pos.play(move), truth.play(move)
        assert pos.state_to_json()["board"] == truth.rows()
    assert pos.is_over and pos.legal_moves == []
    assert pos.returns == truth.returns()
    assert pos.remaining() == tuple(truth.left(p) for p in range(players))


def test_a_full_home_wins_with_one_of_its_own_pieces_among_others():
    """South's home (the north) holds two of north's pieces that never left; south
    moves its third piece in: the home is full with one of south's, so south wins."""
    truth = T.Game(2, 2, 100)
    # south's home (north) full of north's pieces but one: south moves its piece in.
    for h in truth.holes:
        truth.board[h] = None
    north_home = [h for h in truth.holes if T.triangle(h, 2) == "north"]
    south_home = [h for h in truth.holes if T.triangle(h, 2) == "south"]
    truth.board[north_home[0]] = 0
    truth.board[north_home[1]] = 0
    truth.board[(4, 0)] = 0  # north's third piece on the centre hole
    below = (north_home[2][0] + 1, north_home[2][1] + 1)
    truth.board[below] = 1
    for h in south_home[1:]:
        truth.board[h] = 1  # two of south's pieces never left home
    truth.ply, truth.to_move = 11, 1
    pos = _pos(2, 2, truth.rows(), to_move=1, ply=11)
    assert {str(m) for m in pos.legal_moves} == truth.legal()
    into = f"{T.name(below, 2)}-{T.name(north_home[2], 2)}"
    assert into in truth.legal()
    after = pos.play(into)
    truth.play(into)
    assert after.is_over and truth.winner == 1 and after.returns == (-1.0, 1.0)


def test_the_home_filled_by_others_alone_decides_nothing():
    truth = T.Game(2, 2, 100)
    for h in truth.holes:
        truth.board[h] = None
    north_home = [h for h in truth.holes if T.triangle(h, 2) == "north"]  # south's home
    for h in north_home:
        truth.board[h] = 0  # north never left
    south_home = [h for h in truth.holes if T.triangle(h, 2) == "south"]
    for h in south_home:
        truth.board[h] = None
    rest = [h for h in truth.holes if T.triangle(h, 2) is None][:3]
    for h in rest:
        truth.board[h] = 1
    pos = _pos(2, 2, truth.rows(), to_move=0, ply=20)
    assert not pos.is_over and pos.returns is None


def test_a_piece_at_home_stays_there():
    """North's piece on the first hole of south's triangle (its home) may move to the
    empty hole of the home behind it, not to the empty holes outside in front of it;
    its other pieces may go anywhere. South's two displaced pieces wait on the centre
    row."""
    truth = T.Game(2, 4, 100)
    start = [h for h in truth.holes if T.triangle(h, 4) == "north"]
    corner, inner = (13, -3), (14, -2)
    assert T.triangle(corner, 4) == T.triangle(inner, 4) == "south"
    truth.board[start[0]], truth.board[corner], truth.board[(8, 0)] = None, 0, 1
    truth.board[inner], truth.board[(8, 2)] = None, 1
    pos = _pos(2, 4, truth.rows())
    legal = {str(m) for m in pos.legal_moves}
    assert legal == truth.legal()
    outside = [(12, -4), (12, -2)]
    assert all(truth.board[h] is None and T.triangle(h, 4) is None for h in outside)
    from_home = {m.split("-")[1] for m in legal if m.startswith(T.name(corner, 4) + "-")}
    assert from_home == {T.name(inner, 4)}


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 6}, "must be 2, 3 or 4 players"),
        ({"players": 5}, "six are not offered"),
        ({"size": 5}, "triangle side 2, 3 or 4"),
        ({"turns": 0}, "whole number 1..4000"),
        ({"players": 4, "turns": 1001}, "at most 4000"),
        ({"holes": 121}, "its parameters: players, size, turns"),
    ],
)
def test_bad_parameters_are_refused_naming_the_valid_ones(params, message):
    with pytest.raises(ValueError, match=message):
        get_game(GAME, **params)


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("d1", "is not a move: a move is two holes"),
        ("d1-e", "is not a move"),
        ("d1-e14", "'e14' is not a hole of the board of side 4: rows a1..1"),
        ("e5-e6", "e5 holds no piece of player 0"),
        ("d1-d2", "d2 is occupied"),
        ("d1-f6", "no step or chain of hops takes d1 to f6"),
        ("pass", "the mover has moves"),
    ],
)
def test_bad_moves_say_why(move, message):
    pos = get_game(GAME).start()
    with pytest.raises(ValueError, match=message):
        pos.play(move)


def test_impossible_positions_are_refused_saying_why():
    start = get_game(GAME, players=2).start().state_to_json()["board"]
    fewer = [start[0].replace("0", "."), *start[1:]]
    with pytest.raises(ValueError, match="each player has 10 pieces"):
        _pos(2, 4, fewer)
    with pytest.raises(ValueError, match="player 1 to move after 0 moves"):
        _pos(2, 4, start, to_move=1)
    with pytest.raises(ValueError, match="a game lasts at most 200 moves"):
        _pos(2, 4, start, ply=202)
    with pytest.raises(ValueError, match="board has 16 rows, not 17"):
        _pos(2, 4, start[1:])
    with pytest.raises(ValueError, match="unknown character 'x'"):
        _pos(2, 4, ["x", *start[1:]])


def test_moves_read_in_any_case_and_spacing_and_print_back():
    pos = get_game(GAME).start()
    assert str(pos.parse_move(" D1 - E5 ")) == "d1-e5"
    assert pos.play("d1-e5") == pos.play(pos.parse_move("d1-e5"))


def test_the_conformance_entry_point_answers_chinese_checkers_lines_by_the_plain_rules():
    """``legal`` and ``perft`` lines name the game and its parameters (the contract's
    "Other games" lines), answered as the plain rules count."""
    import json

    lines = [
        {"game": GAME, "moves": ["d1-e5", "j10-i9"]},
        {"game": GAME, "params": {"players": 2, "size": 3}, "moves": ["c1-d4"]},
    ]
    truths = [T.Game(3, 4, 100), T.Game(2, 3, 100)]
    for truth, line in zip(truths, lines, strict=True):
        for move in line["moves"]:
            truth.play(move)
    assert [set(json.loads(x)) for x in answers("legal", lines)] == [t.legal() for t in truths]
    assert [int(x) for x in answers("perft 2", lines)] == [T.perft(t, 2) for t in truths]
