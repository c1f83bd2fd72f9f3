"""Rolit (:mod:`chameleon_lab.games.rolit`) held against its rules written in plain
Python (``rolit_truth``) move for move on random games of every phase and seating, and
against the published example of its first moves; bad positions and parameters refused
with a message."""

from __future__ import annotations

import random

import numpy as np
import pytest
import rolit_truth as T
from conformance_lines import answers
from hypothesis import given, settings
from hypothesis import strategies as st

from chameleon_lab.games import get_game
from chameleon_lab.games.rolit import kernel as K

SEATINGS = ("RYGB", "RYG", "RG", "YB", "GYB")


def _board(pos) -> tuple[str, ...]:
    return tuple("".join(pos.state_to_json()["board"]))


def _squares(moves) -> list[int]:
    return sorted((int(str(m)[1]) - 1) * 8 + ord(str(m)[0]) - ord("a") for m in moves)


def test_the_start_and_the_first_moves_are_the_published_ones():
    """The rules' own example (greylabyrinth's Rolit thread, rows from the top): the
    start ``...RY...`` / ``...BG...``; red may play d6, f4 or f6 (its three captures);
    after f4 (``...RRR..``) yellow cannot capture and has 14 squares next to a ball."""
    pos = get_game("rolit").start()
    board = pos.state_to_json()["board"]
    assert board[3] == "...RY..." and board[4] == "...BG..." and pos.to_move == 0
    assert sorted(map(str, pos.legal_moves)) == ["d6", "f4", "f6"]
    after = pos.play("f4")
    assert after.state_to_json()["board"][3] == "...RRR.." and after.to_move == 1
    assert len(after.legal_moves) == 14 and set(after.captures().values()) == {0}


@pytest.mark.parametrize("seated", ["RYGB", "RYG", "RG"])
def test_perft_counts_the_plain_rules_leaves(seated):
    pos = get_game("rolit", players=seated).start()
    first = T.LETTERS[min(T.LETTERS.index(ch) for ch in seated)]
    for depth in range(1, 5):
        assert pos.perft(depth) == T.perft(T.start(), first, seated, depth), depth


@settings(max_examples=40, deadline=None)
@given(seated=st.sampled_from(SEATINGS), seed=st.integers(0, 2**32 - 1))
def test_random_games_follow_the_plain_rules_move_for_move(seated, seed):
    """Every position of a random game to the full board: the legal squares, the board
    after each move, who moves, the key from scratch, and at the end the winners."""
    rng = random.Random(seed)
    game = get_game("rolit", players=seated)
    pos, board = game.start(), T.start()
    colour = T.LETTERS[pos.to_move]
    for ply in range(K.LENGTH):
        assert not pos.is_over and _board(pos) == board, ply
        assert T.LETTERS[pos.to_move] == colour
        assert _squares(pos.legal_moves) == T.legal(board, colour), ply
        boards = tuple(int(b) & (2**64 - 1) for b in pos.state[:4])
        assert pos.key == K.key_from_scratch(boards, pos.to_move)
        move = rng.choice(pos.legal_moves)
        pos = pos.play(move)
        board = T.play(board, colour, _squares([move])[0])
        colour = T.next_colour(colour, seated)
    assert pos.is_over and _board(pos) == board and "." not in board
    winners = T.winners(board, seated)
    returns = pos.returns
    for ch in seated:
        expected = (1.0 if len(winners) == 1 else 0.0) if ch in winners else -1.0
        assert returns[T.LETTERS.index(ch)] == expected


def test_unseated_colours_keep_their_balls_and_can_lose_them():
    """With red and green seated, yellow's and blue's start balls stay and are captured
    like any other: red's d6 turns blue's d5."""
    pos = get_game("rolit", players="RG").start().play("d6")
    assert pos.state_to_json()["board"][4:6] == ["...RG...", "...R...."]
    assert pos.to_move == 2 and pos.returns is None
    assert np.array_equal(pos.game.ops.players_alive(pos.state), [1, 0, 1, 0])


@pytest.mark.parametrize(
    "players, message",
    [
        ("R", "two to four of the letters"),
        ("RRY", "names a colour twice"),
        ("RX", "two to four of the letters"),
        (3, "is not a string"),
    ],
)
def test_bad_players_are_refused_naming_the_valid_ones(players, message):
    with pytest.raises(ValueError, match=message):
        get_game("rolit", players=players)


def _json(board, to_move=0, players="RYGB"):
    return {"game": "rolit", "params": {"players": players}, "board": board, "to_move": to_move}


START = ["........"] * 3 + ["...RY...", "...BG..."] + ["........"] * 3


@pytest.mark.parametrize(
    "board, to_move, message",
    [
        (START, 1, "yellow to move with 4 balls: .* red is to move"),
        ([*START[:3], "...RY..R", *START[4:]], 1, "one connected group"),
        ([*START[:3], "....Y...", *START[4:]], 0, "centre squares d4, e4, d5, e5"),
        ([*START[:3], "...RY...", *START[4:7]], 0, "has 7 rows, not 8"),
        ([*START[:3], "...RX...", *START[4:]], 0, "unknown character 'X' at e4"),
        (START, 4, "is not a colour 0..3"),
    ],
)
def test_impossible_positions_are_refused_saying_why(board, to_move, message):
    with pytest.raises(ValueError, match=message):
        get_game("rolit").from_json(_json(board, to_move))


def test_illegal_moves_say_why():
    pos = get_game("rolit").start()
    with pytest.raises(ValueError, match="d4 is occupied \\(by red\\)"):
        pos.play("d4")
    with pytest.raises(ValueError, match="c3 captures nothing, and red can capture, so it must"):
        pos.play("c3")
    with pytest.raises(ValueError, match="a1 is not next to a ball"):
        pos.play("f4").play("a1")
    with pytest.raises(ValueError, match="off the 8 x 8 board"):
        pos.play("i1")


def test_the_conformance_entry_point_answers_rolit_lines_by_the_plain_rules():
    """``legal`` and ``perft`` lines name the game and its seated colours (the contract's
    "Other games" lines), answered as the plain rules count."""
    import json

    lines = [
        {"game": "rolit", "moves": ["f4"]},
        {"game": "rolit", "params": {"players": "RG"}, "moves": ["d6", "c3"]},
    ]
    boards = [T.play(T.start(), "R", 3 * 8 + 5)]  # f4
    second = T.play(T.start(), "R", 5 * 8 + 3)  # d6
    boards.append(T.play(second, "G", 2 * 8 + 2))  # c3
    legal = [json.loads(line) for line in answers("legal", lines)]
    assert _squares(legal[0]) == T.legal(boards[0], "Y")
    assert _squares(legal[1]) == T.legal(boards[1], "R")
    perft = [int(line) for line in answers("perft 3", lines)]
    assert perft == [T.perft(boards[0], "Y", "RYGB", 3), T.perft(boards[1], "R", "RG", 3)]


def test_records_keep_the_balls_and_rank_the_losers_by_them():
    """A finished Rolit game's record keeps each colour's balls, and its finishing
    order ranks the colours below the winner by them (ties share a place)."""
    from test_ranking import make_tables

    from chameleon_lab.analysis.ranking import finishing_places
    from chameleon_lab.games.match import final_result
    from chameleon_lab.tournament.play import finish_record

    rng = random.Random(7)
    pos = get_game("rolit").start()
    while not pos.is_over:
        pos = pos.play(rng.choice(pos.legal_moves))
    seats = list(K.COLOURS)
    record = finish_record({}, ("a", "b", "c", "d"), pos, final_result(pos), seats)
    counts = pos.ball_counts()
    assert record["scores"] == [float(n) for n in counts] and sum(counts) == 64
    spec = {"game": 0, "seats": dict(zip(seats, "abcd", strict=True)),
            "survivors": record["survivors"], "game_name": "rolit"}  # fmt: skip
    t = make_tables([spec])
    t.seats["score"] = record["scores"]
    places = finishing_places(t).set_index("agent")["place"]
    for colour, agent in zip(range(4), "abcd", strict=True):
        assert places[agent] == 1 + sum(n > counts[colour] for n in counts)
