"""Monte Carlo tree search for n players (:mod:`chameleon_lab.search.mcts`) against
independent truths: the exact values of NegaMax searched to the end (MCTS-Solver proves
them), theory (with two players the paranoid and BRS backups are MaxN's backup: the
same rewards reach every node; every iteration passes through one root move), and the
contract of seeds and budgets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chameleon_lab.agents import Agent
from chameleon_lab.conformance import answer_search
from chameleon_lab.games import get_game
from chameleon_lab.search import differential as D
from chameleon_lab.search.api import search
from chameleon_lab.search.mcts import MCTSOptions, mcts_case
from chameleon_lab.search.solve import solve

SOLVER_TARGETS = D.CHECKS["mcts"].targets["fast"]


@settings(max_examples=25, deadline=None)
@given(target=st.sampled_from(SOLVER_TARGETS), seed=st.integers(0, 2**31))
def test_the_solver_proves_negamaxs_value_and_plays_a_move_of_it(target, seed):
    game = get_game(target.name, **target.params)
    (pos,) = D.game_positions(game, 1, seed, min_ply=target.min_ply)
    tally = mcts_case(pos, seed=seed % 1000)
    assert not tally.mismatches, tally.mismatches[0]


def test_the_solver_proves_tictactoe_a_draw_and_every_forced_win():
    start = get_game("tictactoe").start()
    result = search(start, "mcts", iterations=400_000, solver=True)
    assert result.proved == 0 and result.exact
    # X (to move) wins by c3 (b2 and a1 are X's, O has b1 and a2)
    pos = get_game("tictactoe").from_moves(["a1", "b1", "b2", "a2"])
    result = search(pos, "mcts", iterations=50_000, solver=True)
    assert result.proved == 1 and str(pos.legal_moves[result.index]) == "c3"


def test_the_solver_proves_a_short_forced_win_on_the_full_board():
    # Connect Four 7 x 6: X (to move) has a1, d1 and e1 and wins by f1 (c1 and g1 then
    # both complete four); the exact solver agrees
    pos = get_game("connect4").position_class.from_json(
        {"game": "connect4", "params": {"width": 7, "height": 6},
         "board": [".......", ".......", ".......", ".......", "...OO..", "XO.XX.."]}
    )  # fmt: skip
    assert solve(pos).value > 0
    result = search(pos, "mcts", iterations=200_000, solver=True)
    assert result.proved == 1
    assert solve(pos.play(pos.legal_moves[result.index])).value < 0  # the opponent loses


def test_enough_iterations_keep_the_value_in_tictactoe():
    # without the solver: the move MCTS plays keeps the position's exact value in at
    # least 95 % of random positions of every phase (the exact solver judges)
    game = get_game("tictactoe")
    positions = D.game_positions(game, 100, seed=17)
    kept = 0
    for pos in positions:
        value = solve(pos).value
        child = pos.play(pos.legal_moves[search(pos, "mcts", iterations=20_000).index])
        # the mover's result: the finished game's returns, else minus the opponent's value
        after = child.returns[int(pos.to_move)] if child.is_over else -solve(child).value
        kept += after == value
    assert kept >= 95, kept


@pytest.mark.parametrize(
    ("name", "params", "moves"),
    [
        ("connect4", {}, ["4", "4", "3"]),
        ("othello", {}, ["d3", "c3", "c4"]),
        ("chameleon", {"players": "RY"}, []),
    ],
)
def test_with_two_players_every_backup_is_maxns(name, params, moves):
    pos = get_game(name, **params).from_moves(moves)
    runs = [
        search(pos, "mcts", iterations=3000, backup=b, seed=5) for b in ("maxn", "paranoid", "brs")
    ]
    for other in runs[1:]:
        np.testing.assert_array_equal(other.visits, runs[0].visits)
        np.testing.assert_array_equal(other.scores, runs[0].scores)


@pytest.mark.parametrize("backup", ["maxn", "paranoid", "brs"])
@pytest.mark.parametrize("players", ["RGY", "RGYB"])
def test_every_iteration_passes_through_one_root_move(backup, players):
    pos = get_game("chameleon", players=players).start()
    result = search(pos, "mcts", iterations=1500, backup=backup, playout_depth=8)
    assert result.counters["iterations"] == 1500
    assert result.visits.sum() == 1500
    assert result.visits[result.index] == result.visits.max()
    visited = result.visits > 0
    assert np.all((result.scores[visited] >= 0) & (result.scores[visited] <= 1))
    here = pos
    for move in pos.decode_line(result.pv):  # the most visited line is a line of the game
        here = here.play(move)


def test_one_seed_gives_one_search_and_another_seed_another():
    pos = get_game("connect4").from_moves(["4", "3"])
    a = search(pos, "mcts", iterations=4000, seed=1)
    b = search(pos, "mcts", iterations=4000, seed=1)
    c = search(pos, "mcts", iterations=4000, seed=2)
    np.testing.assert_array_equal(a.visits, b.visits)
    assert (a.index, a.nodes, list(a.pv)) == (b.index, b.nodes, list(b.pv))
    assert not np.array_equal(a.visits, c.visits)


def test_a_winning_move_is_found_without_the_solver():
    # X to move wins at once by c3; random playouts after any other move often lose
    pos = get_game("tictactoe").from_moves(["a1", "b1", "b2", "a2"])
    for options in ({}, {"progressive_history": 3.0}, {"playout": "heuristic", "epsilon": 0.2}):
        result = search(pos, "mcts", iterations=20_000, **options)
        assert str(pos.legal_moves[result.index]) == "c3", options


def test_budgets_nodes_and_time_stop_the_search():
    pos = get_game("othello").start()
    by_nodes = search(pos, "mcts", nodes=20_000)
    assert 20_000 <= by_nodes.nodes < 20_000 + 200  # stops within one playout
    by_time = search(pos, "mcts", time_ms=30)
    assert by_time.counters["iterations"] >= 1
    with pytest.raises(ValueError, match="mcts takes no depth budget"):
        search(pos, "mcts", depth=3)
    with pytest.raises(ValueError, match="paranoid takes no iterations budget"):
        search(pos, "paranoid", iterations=10)


def test_the_state_is_left_as_it_was():
    game = get_game("chameleon", players="RGYB")
    state = game.start().state.copy()
    before = state.copy()
    search(state, "mcts", iterations=500, game=game, backup="brs")
    np.testing.assert_array_equal(state, before)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"backup": "minimax"}, "backup must be one of maxn, paranoid, brs"),
        ({"c": -1.0}, "c must be a finite number >= 0"),
        ({"epsilon": 1.5}, r"epsilon must be a number in \[0, 1\]"),
        ({"playout": "greedy"}, "playout must be one of random, heuristic"),
        ({"playout_depth": -2}, "playout_depth must be a whole number >= 0"),
        ({"solver": "yes"}, "solver must be true or false"),
        ({"depth_limit": 3}, "mcts takes no option 'depth_limit'"),
    ],
)
def test_bad_options_are_refused_naming_the_valid_ones(options, message):
    with pytest.raises(ValueError, match=message):
        search(get_game("tictactoe").start(), "mcts", iterations=10, **options)


def test_the_solver_needs_two_players_and_brs_needs_the_turn_change():
    with pytest.raises(ValueError, match="two-player zero-sum"):
        search(get_game("chameleon").start(), "mcts", iterations=10, solver=True)
    assert MCTSOptions().backup == "maxn"


def test_agents_and_conformance_lines_take_mcts():
    agent = Agent("mcts", game="connect4", iterations=500, options={"c": 1.0})
    assert agent.label.endswith("/500it") and agent.params()["options"]["c"] == 1.0
    again = Agent.from_params(agent.params())
    pos = get_game("connect4").start()
    assert agent.choose(pos).move == again.choose(pos).move  # the agent's seed, reproduced
    assert "iterations" not in Agent("paranoid", depth=2).params()  # old records' prints
    line = {"game": "tictactoe", "moves": ["b2"], "algorithm": "mcts", "iterations": 100_000}
    answer = answer_search({**line, "seed": 3, "options": {"solver": True}})
    assert answer["proved"] == 0 and answer["move"] in {"a1", "a3", "c1", "c3"}
    assert answer["iterations"] <= 100_000 and 0 <= answer["value"] <= 1
    assert answer_search(line)["proved"] is None
    with pytest.raises(ValueError, match="lacks 'iterations'"):
        answer_search({"game": "tictactoe", "algorithm": "mcts", "depth": 3})


def test_the_benchmark_prints_every_game(capsys):
    from chameleon_lab.cli import main

    assert main(["bench", "mcts", "--scale", "0.002", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    for game in ("tictactoe", "connect4", "othello", "chameleon(RY)", "chameleon(RGYB)"):
        assert f"\n{game} " in out
    with pytest.raises(SystemExit) as refused:  # argparse's one-line error, status 2
        main(["bench", "mcts", "--scale", "0"])
    assert refused.value.code == 2
