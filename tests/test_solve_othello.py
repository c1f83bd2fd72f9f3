"""The Othello endgame solver against independent truths.

The truths: the generic solver of :mod:`chameleon_lab.search.solve` (plain alpha-beta
over the kernel's protocol, exact too) on random positions with at most 10 empty
squares of both variants, and the exact values of ``tests/data/othello_endgames.txt``:
random positions with 12 to 18 empty squares solved by Edax 4.6, and the FForum
problems with their published values (the file's header says how they were made).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chameleon_lab.games import get_game
from chameleon_lab.games.othello import kernel as K
from chameleon_lab.games.othello import solver as othello_solver
from chameleon_lab.search.solve import SPECIALISED, solve

DATA = Path(__file__).parent / "data" / "othello_endgames.txt"
#: Reference positions solved here; the larger fforum ones are the benchmark's.
MAX_TESTED_EMPTIES = 18


def _playout(variant: str, empties: int, seed: int) -> np.ndarray:
    """A kernel state after uniformly random moves until ``empties`` empty squares
    remain or the game is over."""
    rng = random.Random(seed)
    state = K.new_state(variant)
    moves = np.zeros((1, K.MAX_MOVES), dtype=np.int64)
    undo = np.zeros((1, K.UNDO_SIZE), dtype=np.int64)
    while K.player_of(state) >= 0:
        discs = bin(K.board_bits(state[K.BLACK]) | K.board_bits(state[K.WHITE])).count("1")
        if 64 - discs <= empties:
            break
        n = K.generate(state, moves, 0)
        K.make(state, int(moves[0, rng.randrange(n)]), undo, 0)
    return state


def _position(variant: str, state: np.ndarray):
    game = get_game("othello", variant=variant)
    return game.position_class.from_state(game, state)


def _reference_rows() -> list[tuple[str, str, str, str, int, int, str]]:
    rows = []
    for line in DATA.read_text().splitlines():
        if line and not line.startswith("#"):
            name, variant, board, side, empties, value, move = line.split()
            rows.append((name, variant, board, side, int(empties), int(value), move))
    return rows


def _state_of(variant: str, board: str, side: str) -> np.ndarray:
    state = K.new_state(variant)
    state[K.BLACK] = K.as_int64(sum(1 << sq for sq, c in enumerate(board) if c == "X"))
    state[K.WHITE] = K.as_int64(sum(1 << sq for sq, c in enumerate(board) if c == "O"))
    state[K.SIDE] = "XO".index(side)
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(K.VARIANTS),
    empties=st.integers(0, 10),
    seed=st.integers(0, 2**32 - 1),
)
def test_values_and_moves_equal_the_generic_solver(variant, empties, seed):
    pos = _position(variant, _playout(variant, empties, seed))
    own = othello_solver.solve_state(pos.game, pos.state, tt_bits=12)
    assert own.value == solve(pos, method="generic").value
    if pos.is_over:
        assert own.move == -1
        return
    legal = [int(m) for m in pos._kernel_moves()]
    assert own.move in legal
    # the move is a best one: its child is worth the value for the player to move
    child = pos.game.position_class.from_state(pos.game, pos._child_state(own.move))
    assert -solve(child, method="generic").value == own.value


def test_the_reference_values():
    rows = [r for r in _reference_rows() if r[4] <= MAX_TESTED_EMPTIES]
    assert sum(r[0] == "playout" for r in rows) >= 40
    assert sum(r[0].startswith("fforum") for r in rows) >= 19
    for name, variant, board, side, empties, value, _ in rows:
        state = _state_of(variant, board, side)
        game = get_game("othello", variant=variant)
        assert 64 - board.count("X") - board.count("O") == empties
        got = othello_solver.solve_state(game, state)
        assert got.value == value, (name, board, side)
        assert got.nodes > 0 and got.seconds >= 0


def test_a_finished_game_is_its_disc_difference():
    # a full board, white to move: white 24 discs, black 40
    game = get_game("othello")
    full = K.new_state("othello")
    full[K.BLACK] = K.as_int64(0xFFFFFFFF00000000 | 0xFF)
    full[K.WHITE] = K.as_int64(0x00000000FFFFFF00)
    full[K.SIDE] = 1
    over = othello_solver.solve_state(game, full)
    assert (over.value, over.move) == (-16.0, -1)


@pytest.mark.parametrize(("empties", "seed"), [(2, 2), (5, 93), (8, 158)])
def test_a_forced_pass_at_the_root_is_the_move(empties, seed):
    # these playouts stop where the player to move has no placement (searched for once)
    pos = _position("othello", _playout("othello", empties, seed))
    assert [int(m) for m in pos._kernel_moves()] == [K.PASS]
    sol = othello_solver.solve_state(pos.game, pos.state)
    assert sol.move == K.PASS
    assert sol.value == solve(pos, method="generic").value


def test_solve_dispatches_to_it_once_registered(monkeypatch):
    monkeypatch.setitem(SPECIALISED, "othello", "chameleon_lab.games.othello.solver")
    pos = _position("othello", _playout("othello", 8, 7))
    assert solve(pos, method="specialised").value == solve(pos, method="generic").value


def test_the_reversi_opening_is_refused():
    game = get_game("othello", variant="reversi")
    with pytest.raises(ValueError, match="reversi opening"):
        othello_solver.solve_state(game, game.start().state)
    with pytest.raises(ValueError, match="tt_bits"):
        othello_solver.solve_state(game, game.start().state, tt_bits=31)
