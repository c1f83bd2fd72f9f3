"""A researcher's heuristic is checked at once, with one message naming what is wrong."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from chameleon_lab.analysis.heuristics import (
    THESIS_HEURISTICS,
    agreement,
    heuristic_session,
    heuristic_values,
    mover_lead,
)
from chameleon_lab.games import get_game
from chameleon_lab.games.heuristic_check import HeuristicError, check_heuristic, sample_positions


@njit
def fine(state, out):
    out[0] = 1.0
    out[1] = 2.0
    out[2] = 0.0
    out[3] = 0.0


@njit
def typo(state, out):
    out[0] = state.size_of_board  # no such attribute


@njit
def divides(state, out):
    out[0] = 1 // (state[0] - state[0])
    out[1] = 0.0


@njit
def first_only(state, out):
    out[0] = 1.0


@njit
def negative(state, out):
    out[:] = 1.0
    out[1] = -1.0


@njit
def writes_nan(state, out):
    out[:] = 1.0
    out[1] = np.nan


@njit
def writes_state(state, out):
    state[-1] = state[-1] + 1
    out[:] = 1.0


def test_a_fine_heuristic_passes_with_its_values():
    check = check_heuristic(fine, "tictactoe", count=12, seed=3)
    assert len(check.positions) == 12 and not any(p.is_over for p in check.positions)
    assert check.values.shape == (12, 2) and (check.values == [1.0, 2.0]).all()
    assert "fine (fingerprint" in str(check)


@pytest.mark.parametrize(
    ("function", "game", "message"),
    [
        (typo, "tictactoe", "does not compile for TicTacToe: it is called as typo(state, out)"),
        (typo, "tictactoe", "Unknown attribute 'size_of_board'"),
        (divides, "gomoku", "raised ZeroDivisionError"),
        (first_only, "connect4", "did not write out[1] (yellow)"),
        (writes_nan, "othello", "wrote nan to out[1] (white)"),
        (writes_state, "nim", "changed the state"),
        (negative, "chameleon", "must be >= 0 with a positive sum"),
    ],
)
def test_each_fault_gets_one_clear_message(function, game, message):
    with pytest.raises(HeuristicError) as err:
        check_heuristic(function, game, count=5)
    text = str(err.value)
    assert message in text
    assert "Traceback" not in text and "\x1b[" not in text  # no numba page, no colours


def test_normalisation_is_required_only_where_searches_normalise():
    check_heuristic(negative, "chameleon", game_params={"players": "RY"}, count=3)
    check_heuristic(negative, "gomoku", count=3)
    with pytest.raises(HeuristicError, match="positive sum"):
        check_heuristic(negative, "gomoku", count=3, normalize=True)


def test_names_and_other_objects_are_checked_too():
    assert check_heuristic("pawns100roles", count=5).heuristic.builtin
    with pytest.raises(HeuristicError, match="valid names: pawns, pawns10roles"):
        check_heuristic("pawn", count=5)
    with pytest.raises(HeuristicError, match="numba-compiled function"):
        check_heuristic(lambda state, out: None, "tictactoe", count=5)


def test_the_chameleon_positions_of_the_check_are_legal_ones():
    game = get_game("chameleon")
    for pos in sample_positions(game, 20, seed=1):
        assert pos == type(pos).from_compact(pos.to_compact())
        assert pos.legal_moves  # unfinished


def test_mover_lead_is_the_mover_minus_the_best_other():
    assert mover_lead(np.array([3.0, 5.0, 4.0, 0.0]), 1, [0, 1, 2]) == 1.0
    assert mover_lead(np.array([3.0, 5.0, 4.0, 0.0]), 0, [0, 1, 2]) == -2.0


def test_heuristic_values_of_a_two_player_game_are_differences():
    game = get_game("tictactoe")
    positions = sample_positions(game, 6, seed=0)
    values = heuristic_values(game, positions, [fine])
    expected = [1.0 if p.to_move == 1 else -1.0 for p in positions]  # out = (1, 2)
    assert values["fine"].tolist() == expected


def test_agreement_is_symmetric_with_ones_on_the_diagonal():
    import pandas as pd

    picked = pd.DataFrame({"a": ["1", "2", "3"], "b": ["1", "2", "4"], "c": ["9", "9", "9"]})
    agree = agreement(picked)
    assert np.allclose(np.diag(agree), 1) and np.allclose(agree, agree.T)
    assert agree.loc["a", "b"] == pytest.approx(2 / 3) and agree.loc["a", "c"] == 0


def test_the_tournament_is_keyed_by_game_and_fingerprint():
    session = heuristic_session(fine, THESIS_HEURISTICS[:2], depth=1)
    assert session.name.startswith("explore-chameleon-fine-")
    # a block: the three pairs of three agents, both seat orders, on one opening
    assert len(session.seating_list()) == 6 and session.design == "blocks"
    seatings = [tuple(a for a in s if a) for s in session.seating_list()]
    assert sorted(seatings) == sorted(
        (a, b) for a in session.agents for b in session.agents if a != b
    )
    assert all(s[2:] == (None, None) for s in session.seating_list())  # the first two seats
    with pytest.raises(ValueError, match="one of the opponents"):
        heuristic_session("pawns", ["pawns"], depth=1)
    other = heuristic_session(fine, ["lines"], game="tictactoe", algorithm="alphabeta")
    assert other.name != session.name and other.seating_list()[0] == ("fine", "lines")
