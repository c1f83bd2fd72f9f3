"""Hand-checked rules from reference/original-semantics.md and the thesis appendix."""

from __future__ import annotations

import pytest

from chameleon_lab.games.chameleon import (
    Colour,
    IllegalMoveError,
    Limits,
    Move,
    Position,
    Role,
    parse_square,
    square_name,
)

R, G, Y, B = Colour


def test_board_corners_and_start_roles():
    start = Position.start()
    # Every pawn starts as a knight (its knight colour is the colour of its start field).
    assert {p.role for p in start.pawns} == {Role.KNIGHT}
    assert start.to_move == R
    assert start.limits == Limits(0, 7, 0, 7)
    assert [p.name for p in start.pawns[:4]] == ["a1", "b1", "c1", "d1"]


def test_role_mapping_of_a_red_knight_colour_pawn():
    pawn = Position.start().pawns[0]  # RED, knight on red fields
    assert [pawn.role_on(c) for c in Colour] == [Role.KNIGHT, Role.QUEEN, Role.BISHOP, Role.ROOK]


def test_knight_targets_in_generation_order():
    # a1 = row 7, col 0. Offsets in order: (+2,+1) (+1,+2) off board, (-2,+1) -> b3,
    # (-1,+2) -> c2, the rest off board.
    moves = [m for m in Position.start().legal_moves if square_name(m.origin) == "a1"]
    assert [str(m) for m in moves] == ["a1-b3", "a1-c2"]


def test_first_player_follows_the_turn_order():
    assert Position.start("RG").to_move == R
    assert Position.start("GY").to_move == Y  # RED, BLUE, YELLOW, GREEN
    assert Position.start("GB").to_move == B
    assert Position.start("GYB").to_move == B


def test_turn_order_red_blue_yellow_green():
    pos = Position.start()
    order = []
    for _ in range(5):
        order.append(pos.to_move)
        pos = pos.play(pos.legal_moves[0])
    assert order == [R, B, Y, G, R]


def test_two_player_start_limits_shrink_to_the_pawns():
    assert Position.start("RG").limits == Limits(4, 7, 0, 7)
    assert Position.start("RB").limits == Limits(0, 7, 0, 3)


def test_limits_grow_back_to_three_rows_upwards_first():
    # Pawns on one row at the bottom: the box grows up (minRow) before down (maxRow).
    pos = Position.from_pawns([(R, 7, 0, R), (G, 7, 5, G)], to_move=R)
    assert pos.limits == Limits(5, 7, 0, 5)


def test_sliding_piece_stops_at_own_pawn_and_captures_enemy():
    # RED rook on a 3x3 board: f3 is yellow; knight colour BLUE makes it a rook there.
    pos = Position.from_pawns(
        [(R, 5, 5, B), (R, 5, 4, R), (G, 3, 5, R)], to_move=R, limits=(3, 5, 4, 6)
    )
    rook = pos.pawn_at("f3")
    assert rook.role == Role.ROOK
    targets = [str(m) for m in pos.legal_moves if m.origin == rook.square]
    # rays (+1,0) off limits, (-1,0): f4 empty, f5 enemy (capture, ray ends),
    # (0,+1): g3, (0,-1): e3 own pawn.
    assert targets == ["f3-f4", "f3xf5", "f3-g3"]


def test_deadlock_rule_removes_a_knight_on_the_centre_of_a_3x3_board():
    pos = Position.from_pawns(
        [(R, 5, 5, B), (R, 5, 4, R), (G, 3, 4, R)], to_move=R, limits=(3, 5, 4, 6)
    )
    after = pos.play("f3-f4")  # centre f4 is blue: the BLUE-knight pawn becomes a knight
    assert after.pawn_at("f4") is None
    assert len(after.pawns) == 2
    assert after.to_move == G


def test_deadlock_rule_waits_for_two_players():
    # Capturing the last GREEN pawn onto the centre as a knight ends the game: no removal.
    pos = Position.from_pawns([(R, 5, 5, B), (G, 4, 5, R)], to_move=R, limits=(3, 5, 4, 6))
    after = pos.play("f3xf4")
    assert after.is_over and after.winner == R
    assert after.pawn_at("f4").role == Role.KNIGHT


def test_notation_round_trip_and_parse_forms():
    for sq in range(64):
        assert parse_square(square_name(sq)) == sq
    assert square_name(0) == "a8" and square_name(63) == "h1"
    assert Move.parse("B1C3") == Move.parse("b1-c3") == Move(57, 42)
    assert str(Position.start().parse_move("b1c3")) == "b1-c3"


def test_capture_notation():
    pos = Position.from_pawns(
        [(R, 5, 5, B), (G, 3, 5, R), (G, 3, 6, G)], to_move=R, limits=(3, 5, 4, 6)
    )
    assert "f3xf5" in [str(m) for m in pos.legal_moves]


@pytest.mark.parametrize("text", ["", "b1", "b1-c9", "i1-a2", "b1--c3", 42])
def test_unreadable_moves_are_rejected(text):
    with pytest.raises(ValueError, match="not a move"):
        Move.parse(text)


def test_illegal_move_names_the_move_and_how_to_list_the_legal_ones():
    with pytest.raises(IllegalMoveError, match=r"a1-a5 is not legal.*legal_moves"):
        Position.start().play("a1-a5")


def test_playing_in_a_finished_position_says_the_game_is_over():
    with pytest.raises(IllegalMoveError, match="game is over"):
        Position.from_compact("1|4,6,1,3|1343").play("b3-c5")


@pytest.mark.parametrize(
    ("pawns", "to_move", "limits", "fragment"),
    [
        ([(R, 7, 0, R), (G, 7, 0, G)], R, (0, 7, 0, 7), "both stand on"),
        ([(R, 7, 0, R), (G, 2, 2, G)], R, (3, 7, 0, 7), "outside the limits"),
        ([(R, 7, 0, R), (G, 6, 2, G)], R, (6, 7, 0, 7), "3x3"),
        ([(R, 7, 0, R), (G, 6, 2, G)], R, (0, 8, 0, 7), "off the board"),
        ([(R, 7, 0, R), (G, 6, 2, G)], Y, (0, 7, 0, 7), "has no pawns"),
        ([(R, 7, 0, R), (5, 6, 2, G)], R, (0, 7, 0, 7), "player 5"),
        ([(R, 7, c, R) for c in range(5)] + [(G, 0, 0, G)], R, (0, 7, 0, 7), "more than 4 pawns"),
    ],
)
def test_positions_that_break_the_rules_raise_value_error(pawns, to_move, limits, fragment):
    with pytest.raises(ValueError, match=fragment):
        Position.from_pawns(pawns, to_move=to_move, limits=limits)


def test_unknown_role_mapping_is_rejected():
    obj = Position.start().to_legacy()
    obj["pawns"][3]["roles"] = {"0": 1, "1": 1, "2": 1, "3": 1}
    with pytest.raises(ValueError, match=r"pawns\[3\]\.roles .* not one of the four"):
        Position.from_legacy(obj)


@pytest.mark.parametrize("players", [["red"], ["red", "red"], ["purple", "red"], [7, 0]])
def test_bad_seatings_are_rejected(players):
    with pytest.raises(ValueError):
        Position.start(players)
