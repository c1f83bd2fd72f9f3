"""The m,n,k-games' own solver (:mod:`chameleon_lab.games.mnk.solver`) against the values
published for small boards, a plain-Python solver written from the rules
(``truths.mnk_value``) on positions of every phase, and the generic solver on late
positions of the 7 x 7 board."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from truths import mnk_value

from chameleon_lab.games import get_game
from chameleon_lab.games.mnk.solver import lines, solve_state
from chameleon_lab.search.solve import solve

#: (width, height, k, value for the first player) of the empty board. D. Friedman,
#: "Optimal mnk-games" (2020, his table of normal play); 5 x 4 with four in a row is
#: a draw because 5 x 5 is (Uiterwijk and van den Herik, "The advantage of the
#: initiative", 2000: 5,5,4 is a draw, and a draw stays one on a smaller board).
PUBLISHED = [
    (2, 3, 2, 1), (2, 3, 3, 0), (2, 4, 2, 1), (2, 4, 3, 0), (2, 4, 4, 0), (2, 5, 2, 1),
    (2, 5, 3, 0), (2, 5, 4, 0), (2, 5, 5, 0), (3, 3, 2, 1), (3, 3, 3, 0), (3, 4, 2, 1),
    (3, 4, 3, 1), (3, 4, 4, 0), (4, 4, 2, 1), (4, 4, 3, 1), (4, 4, 4, 0), (4, 5, 2, 1),
    (5, 4, 4, 0),
]  # fmt: skip


def _board(position) -> list[str]:
    return position.to_json()["board"]


@pytest.mark.parametrize(("width", "height", "k", "value"), PUBLISHED)
def test_the_empty_boards_have_the_published_values(width, height, k, value):
    for w, h in {(width, height), (height, width)}:  # the value does not depend on turning
        solution = solve(get_game("gomoku", width=w, height=h, k=k).start())
        assert solution.value == value, (w, h, k)


def test_one_in_a_row_wins_at_once():
    assert solve(get_game("gomoku", width=3, height=2, k=1).start()).value == 1


def test_the_lines_are_every_run_of_k_cells():
    # 3 x 3, three in a row: 3 across, 3 up, 2 diagonals (TicTacToe's eight)
    assert sorted(map(sorted, lines(3, 3, 3).tolist())) == sorted(
        [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]
    )
    # w x h, k: (w-k+1)h across, w(h-k+1) up, 2(w-k+1)(h-k+1) diagonal
    assert len(lines(7, 6, 4)) == 4 * 6 + 7 * 3 + 2 * 4 * 3
    assert len(lines(3, 3, 4)) == 0


BOARDS = st.sampled_from([(3, 3, 3), (4, 3, 3), (3, 4, 3), (4, 4, 3), (4, 4, 4), (4, 3, 2)])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=BOARDS, seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 16))
def test_values_and_moves_match_a_solver_written_from_the_rules(board, seed, plies):
    width, height, k = board
    game = get_game("gomoku", width=width, height=height, k=k)
    rng = random.Random(seed)
    position = game.start()
    # the plain solver needs a few seconds from the empty 4 x 4 board; four plies in, less
    for _ in range(max(plies, 4 if width * height > 12 else 0)):
        if position.is_over:
            break
        position = position.play(rng.choice(position.legal_moves))
    solution = solve_state(game, position.state)
    expected = mnk_value(_board(position), k, "BW")
    assert solution.value == expected, (_board(position), k)
    if position.is_over:
        assert solution.move == -1
        return
    child = position.play(position.decode_line([solution.move])[0])  # a legal move
    assert -mnk_value(_board(child), k, "BW") == expected, (_board(position), solution.move)


def test_late_positions_of_the_seven_by_seven_board_match_the_generic_solver():
    game = get_game("gomoku")
    rng = random.Random(5)
    checked = 0
    while checked < 25:
        position = game.start()
        for _ in range(rng.randint(34, 44)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves))
        own = solve(position)
        generic = solve(position, method="generic")
        assert own.value == generic.value, _board(position)
        checked += 1


def test_tictactoe_uses_it_and_agrees_with_the_generic_solver():
    game = get_game("tictactoe")
    own, generic = solve(game.start()), solve(game.start(), method="generic")
    assert own.value == generic.value == 0
    assert own.nodes < generic.nodes


def test_it_refuses_a_table_size_it_cannot_take():
    game = get_game("tictactoe")
    with pytest.raises(ValueError, match=r"tt_bits must be a whole number in 0\.\.30"):
        solve_state(game, game.start().state, tt_bits=31)
