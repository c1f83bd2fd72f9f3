"""Dice tipping (Würfelkippen, seed 001): the kernel's tree against an independent one.

Truths used here: the rules re-implemented in plain Python in this file (legal tips,
tree sizes, the reachable positions), game values from ``truths.dice_value`` (a solver
written from the rules) and the seed's worked example: target 8 from start face 4 is a
draw with perfect play (seed 001, figures 1 and 6), with the complete game tree of
figure 1.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from truths import dice_position_value, dice_value

from chameleon_lab.games import get_game
from chameleon_lab.games.dice import DicePosition
from chameleon_lab.games.dice import kernel as K
from chameleon_lab.games.position import IllegalMoveError


# ------------------------------------------------------------ independent model
def model_tips(target: int, total: int, top: int) -> list[int]:
    """The faces a tip can bring up: not the top, not the bottom (7 - top), within the
    target."""
    return [f for f in range(1, 7) if f not in (top, 7 - top) and total + f <= target]


@cache
def model_games(target: int, total: int, top: int, tipped: bool) -> int:
    """Complete games (leaves of the full tree) from this position."""
    if tipped and total == target:
        return 1
    tips = model_tips(target, total, top)
    if not tips:
        return 1
    return sum(model_games(target, total + f, f, True) for f in tips)


def model_reachable(target: int, start: int) -> set[tuple[int, int, int]]:
    """Every (sum, top, player to move) that play from the start can reach."""
    seen = set()
    todo = [(start, start, 0)]
    while todo:
        item = todo.pop()
        if item in seen:
            continue
        seen.add(item)
        total, top, turn = item
        if total == target and total > top:
            continue  # the target was reached: the game is over
        todo.extend((total + f, f, 1 - turn) for f in model_tips(target, total, top))
    return seen


# ------------------------------------------------------------------------ tests
def test_seed_example_is_a_draw():
    """Seed 001, figures 1 and 6: target 8, start face 4; the start is a draw."""
    assert dice_value(8, 4) == 0
    pos = get_game("dice").start()
    assert pos.game.params == {"target": 8, "start": 4}
    games = {}

    def walk(p: DicePosition, moves: tuple[str, ...]) -> None:
        if p.is_over:
            games[moves] = p.returns
            return
        for m, child in zip(p.legal_moves, p.successors(), strict=True):
            walk(child, (*moves, str(m)))

    walk(pos, ())
    # the complete tree of figure 1: 4 -> 1 -> 2 -> 1 (first reaches 8), 4 -> 1 -> 3
    # (second reaches 8), 4 -> 2 -> 1 (sum 7 with 1 on top: 2..5 all overshoot, a draw)
    assert games == {
        ("1", "2", "1"): (1.0, -1.0),
        ("1", "3"): (-1.0, 1.0),
        ("2", "1"): (0.0, 0.0),
    }
    assert pos.perft(8) == 3


@pytest.mark.parametrize("start", range(1, 7))
def test_perft_to_the_end_matches_independent_tree(start):
    """For every target 1..40: the kernel's complete tree has the independent count of
    games (perft with depth = target reaches every end, each tip adds at least 1)."""
    for target in range(1, 41):
        pos = get_game("dice", target=target, start=start).start()
        expected = model_games(target, start, start, False)
        assert pos.perft(target) == expected, (target, start)
        if target <= 20:  # deeper changes nothing: every game has ended
            assert pos.perft(target + 5) == expected
    # a few shallow depths too
    pos = get_game("dice", target=30, start=start).start()
    for depth in range(1, 6):
        assert pos.perft(depth) == _model_perft(30, start, start, False, depth)


def _model_perft(target, total, top, tipped, depth):
    if depth == 0 or (tipped and total == target) or not model_tips(target, total, top):
        return 1
    return sum(
        _model_perft(target, total + f, f, True, depth - 1) for f in model_tips(target, total, top)
    )


def test_kernel_positions_follow_the_rules_and_solve_like_the_independent_solver():
    """Every position of every game with target 1..40: legal tips, the end, its returns
    and the negamax value over the kernel's positions agree with the independent rules
    and ``truths.dice_value``; the ``threats`` heuristic is never wrong when sure."""
    for target in range(1, 41):
        values: dict[tuple[int, int], int] = {}
        for start in range(1, 7):
            game = get_game("dice", target=target, start=start)
            threats = game.heuristics.get("threats").function
            value = _solve_kernel(game.start(), target, threats, values)
            assert value == dice_value(target, start), (target, start)


def _solve_kernel(pos: DicePosition, target: int, threats, values: dict) -> int:
    """Negamax over the kernel's positions, checking each against the model once."""
    total, top = pos.sum, pos.top
    if (total, top) in values:
        return values[(total, top)]
    tipped = total != top
    tips = model_tips(target, total, top)
    reached = tipped and total == target
    assert [int(str(m)) for m in pos.legal_moves] == ([] if reached else tips)
    assert pos.is_over == (reached or not tips)
    children = pos.successors()
    assert [(c.sum, c.top, c.turn) for c in children] == [
        (total + f, f, 1 - pos.turn) for f in ([] if reached else tips)
    ]
    if pos.is_over:
        mover = pos.turn
        if reached:  # the opponent's tip reached the target
            assert pos.returns[mover] == -1.0 and pos.returns[1 - mover] == 1.0
        else:
            assert pos.returns == (0.0, 0.0)
        value = int(pos.returns[mover])
    else:
        value = max(-_solve_kernel(c, target, threats, values) for c in children)
    values[(total, top)] = value
    if tipped:
        assert value == dice_position_value(target, total, top)
    out = np.zeros(4)
    threats(pos.state, out)
    assert out[0] >= 1 and out[1] >= 1 and out[2] == out[3] == 0
    if not pos.is_over and out[pos.turn] == 3.0:
        assert value == 1
    if not pos.is_over and out[pos.turn] == 1.0:
        assert value == -1
    return value


def test_start_at_or_above_the_target_is_a_draw_at_once():
    for target, start in [(4, 4), (3, 6), (1, 1), (1, 6), (2, 1), (5, 5)]:
        pos = get_game("dice", target=target, start=start).start()
        assert pos.is_over and pos.returns == (0.0, 0.0) and pos.legal_moves == []
        assert pos.perft(3) == 1
        assert dice_value(target, start) == 0


def test_reaching_the_target_wins():
    pos = get_game("dice", target=6, start=1).from_moves(["5"])
    assert pos.is_over and pos.returns == (1.0, -1.0) and pos.sum == 6
    pos = get_game("dice", target=8, start=4).from_moves(["1", "3"])
    assert pos.is_over and pos.returns == (-1.0, 1.0)


def test_game_declaration():
    game = get_game("dice")
    assert game.params == {"target": 8, "start": 4}
    assert game.info.player_names == ("first", "second")
    assert game.info.players == (0, 1) and game.info.zero_sum
    assert game.ops.max_moves == 4
    assert game.heuristics.default == "uniform"
    assert {"uniform", "threats"} <= set(game.heuristics.names)
    out = np.zeros(4)
    game.heuristics.get().function(game.start_state(), out)
    assert tuple(out) == (1.0, 1.0, 0.0, 0.0)


def test_keys_are_distinct_for_distinct_positions():
    game = get_game("dice", target=40, start=3)
    keys = {}
    for total, top, turn in model_reachable(40, 3):
        pos = DicePosition.from_json(
            {"game": "dice", "params": game.params, "sum": total, "top": top, "to_move": turn}
        )
        keys.setdefault(pos.key, set()).add((total, top, turn))
    assert all(len(v) == 1 for v in keys.values())


@settings(max_examples=60, deadline=None)
@given(
    target=st.integers(1, 200),
    start=st.integers(1, 6),
    picks=st.lists(st.integers(0, 3), max_size=80),
)
def test_random_playouts(target, start, picks):
    game = get_game("dice", target=target, start=start)
    pos = game.start()
    total, top, turn = start, start, 0
    for pick in picks:
        tips = model_tips(target, total, top)
        if pos.is_over:
            break
        face = tips[pick % len(tips)]
        pos = pos.play(f" {face} ")
        total, top, turn = total + face, face, 1 - turn
        assert (pos.sum, pos.top, pos.turn) == (total, top, turn)
        assert game.from_json(pos.to_json()) == pos
    if total == target and total > top:
        assert pos.is_over and pos.returns[1 - turn] == 1.0
    elif not model_tips(target, total, top):
        assert pos.is_over and pos.returns == (0.0, 0.0)
    else:
        assert not pos.is_over


# ------------------------------------------------------------------ bad inputs
@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"target": 0}, "target=0"),
        ({"target": -3}, "target=-3"),
        ({"target": 10001}, "target=10001"),
        ({"target": 8.0}, "target=8.0"),
        ({"target": True}, "target=True"),
        ({"target": "8"}, "target='8'"),
        ({"start": 7}, "start=7"),
        ({"start": 0}, "start=0"),
        ({"start": "4"}, "start='4'"),
        ({"faces": 6}, "'faces'"),
    ],
)
def test_bad_params(params, named):
    with pytest.raises(ValueError, match="dice") as info:
        get_game("dice", **params)
    assert named in str(info.value)
    if "target" in params:
        assert "1..10000" in str(info.value)
    if "start" in params:
        assert "1..6" in str(info.value)


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("7", "'7' is not a face.*1..6"),
        ("0", "'0' is not a face"),
        ("x", "'x' is not a face"),
        ("", "is not a face"),
        ("1:2", "is not a face"),
        ("4", "face 4 is on top now; the faces that can come up: 1, 2, 5, 6"),
        ("3", "face 3 is at the bottom now.*1, 2, 5, 6"),
        ("5", "face 5 would bring the sum to 9, past the target 8.*within the target: 1, 2"),
    ],
)
def test_bad_moves(text, pattern):
    pos = get_game("dice").start()
    with pytest.raises(ValueError, match=pattern):
        pos.play(text)


def test_illegal_moves_are_illegal_move_errors():
    pos = get_game("dice").start()
    with pytest.raises(IllegalMoveError):
        pos.play("6")
    over = pos.play("2").play("1")  # sum 7 with 1 on top: no tip fits, a draw
    assert over.is_over and over.returns == (0.0, 0.0)
    with pytest.raises(IllegalMoveError, match="game is over"):
        over.play("2")


@pytest.mark.parametrize(
    ("fields", "pattern"),
    [
        ({"sum": 9, "top": 5}, "sum 9 is above the target 8"),
        ({"top": 0}, "top face must be 1..6, got 0"),
        ({"top": 7, "sum": 7}, "top face must be 1..6, got 7"),
        ({"sum": 3, "top": 4}, "sum 3 is below the top face 4"),
        ({"to_move": 2}, "to_move must be 0 or 1, got 2"),
        ({"to_move": True}, "to_move must be a whole number, got True"),
        ({"sum": "5"}, "sum must be a whole number, got '5'"),
        ({"top": None}, "top must be a whole number, got None"),
        ({"sum": 2, "top": 2}, "only at the start"),
        ({"to_move": 1}, "only at the start"),
        ({"sum": 6, "top": 3}, "at least 7"),  # the start face 4 and the top 3 make 7
        ({"sum": 5, "top": 1, "to_move": 0}, "cannot arise by tips"),
        ({"sum": 7, "top": 3, "to_move": 1}, "cannot arise by tips"),  # 4 -> 3 is no tip
    ],
)
def test_bad_json(fields, pattern):
    obj = {"game": "dice", "params": {"target": 8, "start": 4}, "sum": 4, "top": 4, "to_move": 0}
    obj.update(fields)
    with pytest.raises(ValueError, match=pattern):
        DicePosition.from_json(obj)


@pytest.mark.parametrize("target", [1, 2, 3, 5, 8, 13, 20])
def test_check_state_accepts_exactly_the_reachable_positions(target):
    for start in range(1, 7):
        reachable = model_reachable(target, start)
        accepted = set()
        params = {"target": target, "start": start}
        for total, top, turn in itertools.product(range(-1, target + 8), range(0, 8), (0, 1)):
            try:
                DicePosition.from_json(
                    {"game": "dice", "params": params, "sum": total, "top": top, "to_move": turn}
                )
            except ValueError:
                continue
            accepted.add((total, top, turn))
        assert accepted == reachable, (target, start)


def test_bad_kernel_states():
    game = get_game("dice")
    good = game.start_state()
    for index, value, pattern in [
        (K.TARGET, 9, "target 9"),
        (K.REACHED, 1, "target-reached flag"),
        (K.TURN, -1, "0 or 1, got -1"),
    ]:
        bad = good.copy()
        bad[index] = value
        with pytest.raises(ValueError, match=pattern):
            DicePosition(game, bad)
    with pytest.raises(ValueError, match="5 entries"):
        DicePosition(game, good[:-1])


def test_svg_is_well_formed():
    import xml.etree.ElementTree as ET

    for face in range(1, 7):
        pos = get_game("dice", target=20, start=face).start()
        svg = pos.svg()
        root = ET.fromstring(svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert svg.count("<circle") == face
        assert "sum " + str(face) in svg and "target 20" in svg
    assert "draw" in get_game("dice").from_moves(["2", "1"]).svg()
    assert "first wins" in get_game("dice").from_moves(["1", "2", "1"]).svg()
