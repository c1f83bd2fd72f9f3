"""NIM: the kernel's rules against an independent plain-Python model and Bouton's theory.

Truths used here: move counts from a separate implementation of the rules written in
this file, game values from ``truths.nim_value`` (a memoised solver written from the
rules) and Bouton's theorem (normal play: the player to move wins iff the XOR of the
heaps is non-zero; misère play: the same, except that with every heap at most 1 the
player to move wins iff an even number of heaps is non-empty).
"""

from __future__ import annotations

import itertools
from functools import cache, reduce
from operator import xor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from truths import nim_value

from chameleon_lab.games import get_game
from chameleon_lab.games.nim import NimPosition
from chameleon_lab.games.nim import kernel as K
from chameleon_lab.games.position import IllegalMoveError


# ------------------------------------------------------------ independent model
def model_moves(heaps: tuple[int, ...]) -> list[tuple[int, int]]:
    """Every (heap number from 1, objects taken) pair, heap 1 first, fewest first."""
    return [(h + 1, k) for h, size in enumerate(heaps) for k in range(1, size + 1)]


def model_play(heaps: tuple[int, ...], heap: int, take: int) -> tuple[int, ...]:
    out = list(heaps)
    out[heap - 1] -= take
    return tuple(out)


@cache
def model_perft(heaps: tuple[int, ...], depth: int) -> int:
    if depth == 0 or sum(heaps) == 0:
        return 1
    return sum(model_perft(model_play(heaps, h, k), depth - 1) for h, k in model_moves(heaps))


def bouton_mover_wins(heaps: tuple[int, ...], misere: bool) -> bool:
    if misere and all(h <= 1 for h in heaps):
        return sum(heaps) % 2 == 0
    return reduce(xor, heaps, 0) != 0


def all_configs(max_heaps: int, max_size: int):
    for n in range(1, max_heaps + 1):
        yield from itertools.product(range(max_size + 1), repeat=n)


# ------------------------------------------------------------------------ tests
@pytest.mark.parametrize(
    "heaps", [(3, 4, 5), (1,), (0, 2), (7,), (2, 2, 2, 2), (1, 2, 3, 4, 5), (10, 0, 6), (0, 0)]
)
def test_perft_matches_independent_count(heaps):
    for misere in (False, True):
        pos = get_game("nim", heaps=list(heaps), misere=misere).start()
        for depth in range(1, 5):
            assert pos.perft(depth) == model_perft(heaps, depth), (heaps, misere, depth)


def test_perft_known_values_of_default_game():
    # counted by hand for [3, 4, 5]: 12 first moves
    pos = get_game("nim").start()
    assert pos.perft(1) == 12
    assert pos.perft(2) == model_perft((3, 4, 5), 2) == 113


@pytest.mark.parametrize("misere", [False, True])
def test_independent_solver_agrees_with_bouton(misere):
    for heaps in itertools.chain(all_configs(3, 5), itertools.product(range(4), repeat=4)):
        expected = 1 if bouton_mover_wins(heaps, misere) else -1
        assert nim_value(heaps, misere) == expected, (heaps, misere)


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize(
    "start", [(5,), (5, 5), (5, 5, 5), (3, 3, 3, 3), (1, 1, 1, 1), (2, 0, 3, 1)]
)
def test_kernel_tree_and_values(start, misere):
    """Walk every position of the game through Position objects: the successors are the
    positions with one heap reduced (in notation order), the turn alternates, the end
    names the right winner, and the negamax value over the kernel's positions equals the
    independent solver and Bouton's rule."""
    game = get_game("nim", heaps=list(start), misere=misere)
    names = game.info.player_names
    values: dict[tuple[int, ...], int] = {}

    def solve(pos: NimPosition) -> int:
        heaps = pos.heaps
        if heaps in values:
            return values[heaps]
        moves = model_moves(heaps)
        assert [str(m) for m in pos.legal_moves] == [f"{h}:{k}" for h, k in moves]
        children = pos.successors()
        assert [c.heaps for c in children] == [model_play(heaps, h, k) for h, k in moves]
        assert all(c.turn == 1 - pos.turn for c in children)
        if not moves:
            assert pos.is_over and pos.to_move == -1
            # normal play: the player who took the last object (not the one to move) wins
            winner = pos.turn if misere else 1 - pos.turn
            expected = [0.0, 0.0]
            expected[winner], expected[1 - winner] = 1.0, -1.0
            assert pos.returns == tuple(expected), (heaps, misere, names[winner])
            value = int(pos.returns[pos.turn])
        else:
            assert not pos.is_over and pos.to_move == pos.turn and pos.returns is None
            value = max(-solve(c) for c in children)
        values[heaps] = value
        return value

    solve(game.start())
    expected_states = set(itertools.product(*(range(h + 1) for h in start)))
    assert set(values) == expected_states
    nimsum = game.heuristics.get("nimsum").function
    uniform = game.heuristics.get().function
    out = np.zeros(4)
    for heaps, value in values.items():
        assert value == nim_value(heaps, misere) == (1 if bouton_mover_wins(heaps, misere) else -1)
        for turn in (0, 1):
            state = K.new_state(heaps, misere, turn)
            nimsum(state, out)
            assert out[turn] == (2.0 if value == 1 else 1.0)
            assert out[1 - turn] == (1.0 if value == 1 else 2.0)
            assert out[2] == out[3] == 0.0
            uniform(state, out)
            assert tuple(out) == (1.0, 1.0, 0.0, 0.0)


def test_last_object_wins_or_loses():
    normal = get_game("nim", heaps=[2]).from_moves(["1:2"])
    assert normal.is_over and normal.returns == (1.0, -1.0)  # first took the last one
    misere = get_game("nim", heaps=[2], misere=True).from_moves(["1:1", "1:1"])
    assert misere.is_over and misere.returns == (1.0, -1.0)  # second took the last one
    # all heaps empty from the start: the player to move cannot move
    assert get_game("nim", heaps=[0, 0]).start().returns == (-1.0, 1.0)
    assert get_game("nim", heaps=[0, 0], misere=True).start().returns == (1.0, -1.0)


def test_game_declaration():
    game = get_game("nim", heaps=[3, 4, 5])
    assert game.params == {"heaps": (3, 4, 5), "misere": False}
    assert get_game("nim") is game
    assert game.info.player_names == ("first", "second")
    assert game.info.players == (0, 1) and game.info.zero_sum
    assert game.ops.max_moves == 12
    assert game.heuristics.default == "uniform"
    assert {"uniform", "nimsum"} <= set(game.heuristics.names)
    assert list(game.ops.players_alive(game.start_state())) == [1, 1, 0, 0]


def test_notation():
    pos = get_game("nim").start()
    after = pos.play(" 2 : 3 ")
    assert after.heaps == (3, 1, 5) and after.to_move == 1
    assert str(pos.parse_move("3:5")) == "3:5"
    assert after.to_json()["heaps"] == [3, 1, 5] and after.to_json()["to_move"] == 1
    assert get_game("nim").from_json(after.to_json()) == after


@settings(max_examples=60, deadline=None)
@given(
    heaps=st.lists(st.integers(0, 12), min_size=1, max_size=6),
    misere=st.booleans(),
    picks=st.lists(st.integers(0, 10**6), max_size=80),
)
def test_random_playouts(heaps, misere, picks):
    """Random games: the kernel's heaps follow the model, and whoever took the last
    object wins (normal) or loses (misère)."""
    pos = get_game("nim", heaps=heaps, misere=misere).start()
    model = tuple(heaps)
    last_mover = None
    for pick in picks:
        moves = model_moves(model)
        if not moves:
            break
        h, k = moves[pick % len(moves)]
        last_mover = pos.to_move
        pos = pos.play(f"{h}:{k}")
        model = model_play(model, h, k)
        assert pos.heaps == model
        assert pos.key == get_game("nim", heaps=heaps, misere=misere).from_json(pos.to_json()).key
    assert pos.is_over == (sum(model) == 0)
    if pos.is_over and last_mover is not None:
        assert pos.returns[last_mover] == (-1.0 if misere else 1.0)


# ------------------------------------------------------------------ bad inputs
@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"heaps": [3, -1, 5]}, "-1"),
        ({"heaps": [1001]}, "1001"),
        ({"heaps": []}, "[]"),
        ({"heaps": [1] * 17}, "17"),
        ({"heaps": "345"}, "'345'"),
        ({"heaps": [1.5, 2]}, "1.5"),
        ({"heaps": [True, 2]}, "True"),
        ({"misere": "false"}, "'false'"),
        ({"misere": 0}, "misere=0"),
        ({"heap": [1]}, "'heap'"),
    ],
)
def test_bad_params(params, named):
    with pytest.raises(ValueError, match="nim") as info:
        get_game("nim", **params)
    assert named in str(info.value)


def test_negative_heap_message_names_it():
    with pytest.raises(ValueError, match=r"heap 2 is -1"):
        get_game("nim", heaps=[3, -1])


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("2-3", "h:k"),
        ("2:", "h:k"),
        ("abc", "h:k"),
        ("", "h:k"),
        ("2:0", "takes no object"),
        ("0:1", "heap 0"),
        ("4:1", "no heap 4"),
        ("2:5", "heap 2 holds 4"),
        ("1:99999", "heap 1 holds 3"),
    ],
)
def test_bad_moves(text, pattern):
    pos = get_game("nim").start()
    with pytest.raises(ValueError, match=pattern) as info:
        pos.play(text)
    assert repr(text) in str(info.value) or text.strip() in str(info.value)


def test_illegal_moves_are_illegal_move_errors():
    pos = get_game("nim", heaps=[1]).start()
    with pytest.raises(IllegalMoveError, match="heap 1 holds 1 object"):
        pos.play("1:2")
    over = pos.play("1:1")
    with pytest.raises(IllegalMoveError, match="game is over"):
        over.play("1:1")


@pytest.mark.parametrize(
    ("fields", "pattern"),
    [
        ({"heaps": [3, 5, 5]}, "heap 2 holds 5 objects, more than the 4"),
        ({"heaps": [3, -1, 5]}, "heap 2 holds -1"),
        ({"heaps": [3, 4]}, "2 heaps; this game has 3"),
        ({"heaps": [3, 4, 5, 0]}, "4 heaps"),
        ({"heaps": "3,4,5"}, "heaps must be a list"),
        ({"heaps": [3, 4, 5.0]}, "heaps must be a list"),
        ({"to_move": 2}, "to_move must be 0 or 1, got 2"),
        ({"to_move": "0"}, "to_move must be 0 or 1, got '0'"),
        ({"to_move": None}, "to_move must be 0 or 1, got None"),
        ({"to_move": 1}, "cannot arise"),  # the start with the second player to move
        ({"heaps": [2, 4, 5], "to_move": 0}, "player 1 is to move"),
    ],
)
def test_bad_json(fields, pattern):
    obj = {"game": "nim", "params": {"heaps": [3, 4, 5]}, "heaps": [3, 4, 5], "to_move": 0}
    obj.update(fields)
    with pytest.raises(ValueError, match=pattern):
        NimPosition.from_json(obj)


def test_check_state_accepts_exactly_the_reachable_positions():
    start = (2, 3)
    reachable = set()
    todo = [(start, 0)]
    while todo:
        item = todo.pop()
        if item in reachable:
            continue
        reachable.add(item)
        heaps, turn = item
        todo.extend((model_play(heaps, h, k), 1 - turn) for h, k in model_moves(heaps))
    accepted = set()
    for heaps in itertools.product(range(-1, 5), repeat=2):
        for turn in (-1, 0, 1, 2):
            obj = {"game": "nim", "params": {"heaps": list(start)}, "heaps": list(heaps)}
            try:
                NimPosition.from_json({**obj, "to_move": turn})
            except ValueError:
                continue
            accepted.add((heaps, turn))
    assert accepted == reachable


def test_bad_kernel_states():
    game = get_game("nim")
    good = game.start_state()
    for index, value, pattern in [
        (K.NHEAPS, 2, "2 heaps"),
        (K.MISERE, 1, "misère flag"),
        (K.TURN, 3, "0 or 1, got 3"),
        (K.LEFT, 11, "objects left"),
    ]:
        bad = good.copy()
        bad[index] = value
        with pytest.raises(ValueError, match=pattern):
            NimPosition(game, bad)
    with pytest.raises(ValueError, match="entries"):
        NimPosition(game, good[:-1])


def test_svg_is_well_formed():
    import xml.etree.ElementTree as ET

    for heaps in ([3, 4, 5], [1000, 0], [0]):
        pos = get_game("nim", heaps=heaps, misere=True).start()
        root = ET.fromstring(pos.svg())
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert "heap 1" in pos.svg()
    pos = get_game("nim").start().play("2:3")
    assert pos.svg().count("<circle") == 12
