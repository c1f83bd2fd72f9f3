"""Depth-first proof-number search (:mod:`chameleon_lab.search.dfpn`) against independent
truths: the values of TicTacToe and small m,n,k-boards by plain minimax written from
the rules (``tests/truths.py``), Nim's xor rule, the exact solvers on the full-size
boards (the differential check), theory (plain df-pn, epsilon 0, proves what df-pn
with the 1 + epsilon trick proves; a budget too small proves nothing), and the
contract's ``dfpn`` lines."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from truths import mnk_value, nim_value, tictactoe_value

from chameleon_lab.conformance import main as conformance_main
from chameleon_lab.games import get_game
from chameleon_lab.search import differential as D
from chameleon_lab.search.api import search
from chameleon_lab.search.dfpn import DfpnOptions, DfpnWorkspace, dfpn_case


def _random_position(game, seed: int, plies: int):
    rng = np.random.default_rng(seed)
    pos = game.start()
    for _ in range(plies):
        if pos.is_over:
            break
        moves = pos.legal_moves
        pos = pos.play(moves[int(rng.integers(len(moves)))])
    return pos


def _keeps(pos, index: int, proved: int, truth) -> bool:
    """Whether the move at ``index`` keeps ``proved`` (the child's truth, for the
    opponent, negated)."""
    child = pos.play(pos.legal_moves[index])
    return -truth(child) == proved


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), plies=st.integers(0, 7))
def test_tictactoe_proved_as_plain_minimax_values_it_and_the_move_keeps_it(seed, plies):
    pos = _random_position(get_game("tictactoe"), seed, plies)
    if pos.is_over:
        return
    truth = lambda p: tictactoe_value(p.to_json()["board"])  # noqa: E731
    result = search(pos, "dfpn")
    assert result.proved == truth(pos)
    assert _keeps(pos, result.index, result.proved, truth)
    assert result.scores[result.index] == result.proved


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), plies=st.integers(5, 10), k=st.sampled_from([3, 4]))
def test_four_by_four_mnk_boards_proved_as_plain_minimax_values_them(seed, plies, k):
    game = get_game("gomoku", width=4, height=4, k=k)
    pos = _random_position(game, seed, plies)
    if pos.is_over:
        return
    truth = lambda p: mnk_value(p.to_json()["board"], k, marks="BW")  # noqa: E731
    result = search(pos, "dfpn")
    assert result.proved == truth(pos)
    assert _keeps(pos, result.index, result.proved, truth)


@settings(max_examples=30, deadline=None)
@given(
    heaps=st.lists(st.integers(1, 5), min_size=1, max_size=4),
    misere=st.booleans(),
    epsilon=st.sampled_from([0.0, 0.25, 2.0]),
)
def test_nim_proved_by_the_xor_rule_with_and_without_the_epsilon_trick(heaps, misere, epsilon):
    pos = get_game("nim", heaps=heaps, misere=misere).start()
    result = search(pos, "dfpn", epsilon=epsilon)
    assert result.proved == nim_value(heaps, misere)
    if result.proved == 1:  # a winning move leaves the opponent lost
        child = pos.play(pos.legal_moves[result.index])
        left = [int(h) for h in child.to_json()["heaps"]]
        assert nim_value(left, misere) == -1


@settings(max_examples=12, deadline=None)
@given(target=st.sampled_from(D.CHECKS["dfpn"].targets["fast"]), seed=st.integers(0, 2**31))
def test_full_size_boards_proved_as_the_exact_solvers_value_them(target, seed):
    game = get_game(target.name, **target.params)
    (pos,) = D.game_positions(game, 1, seed, min_ply=target.min_ply)
    tally = dfpn_case(pos)
    assert not tally.mismatches, tally.mismatches[0]


def test_a_budget_too_small_proves_nothing_and_stops_near_it():
    pos = get_game("connect4").start()
    for nodes in (1, 50, 500):
        result = search(pos, "dfpn", nodes=nodes)
        assert result.proved is None and not result.exact
        assert np.isnan(result.scores[result.index])
        # the last node expanded scores all its children: at most one row over
        assert nodes <= result.nodes <= nodes + pos.game.ops.max_moves
    assert search(pos, "dfpn", time_ms=5).proved is None


def test_the_same_search_twice_counts_the_same_and_a_workspace_is_checked():
    pos = _random_position(get_game("gomoku", width=5, height=5, k=4), 3, 8)
    first, second = search(pos, "dfpn"), search(pos, "dfpn")
    assert (first.proved, first.index, first.nodes) == (second.proved, second.index, second.nodes)
    ws = DfpnWorkspace(pos.game.ops, 12)
    assert search(pos, "dfpn", tt_bits=12, workspace=ws).proved == first.proved
    with pytest.raises(ValueError, match="tt_bits=12"):
        search(pos, "dfpn", workspace=ws)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"depth": 3}, "takes no depth"),
        ({"epsilon": -1}, "epsilon must be a number in 0..10"),
        ({"epsilon": True}, "epsilon must be"),
        ({"tt_bits": 0}, "needs its table"),
        ({"solver": True}, "takes no option 'solver'"),
    ],
)
def test_bad_settings_are_refused_naming_what_is_right(kwargs, match):
    with pytest.raises(ValueError, match=match):
        search(get_game("tictactoe").start(), "dfpn", **kwargs)
    with pytest.raises(ValueError):
        DfpnOptions(epsilon=float("nan"))


def test_games_without_two_players_or_a_move_are_refused():
    three = get_game("chameleon", players="RGY").start()
    with pytest.raises(ValueError, match="two-player zero-sum"):
        search(three, "dfpn")
    over = get_game("tictactoe").from_moves(["a1", "b1", "a2", "b2", "a3"])
    with pytest.raises(ValueError, match="already over"):
        search(over, "dfpn")


def _lines(*objs, command="search"):
    out, err = io.StringIO(), io.StringIO()
    text = "".join(json.dumps(o) + "\n" for o in objs)
    code = conformance_main([command], io.StringIO(text), out, err)
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def test_contract_lines_answer_proved_value_and_a_move_keeping_it():
    code, answers, _ = _lines(
        {"game": "tictactoe", "moves": ["a1", "b1", "b2", "a2"], "algorithm": "dfpn"},
        {"game": "tictactoe", "moves": ["b2"], "algorithm": "dfpn", "nodes": 100000},
        {"game": "othello", "algorithm": "dfpn", "nodes": 40},
        {"game": "nim", "params": {"heaps": [1, 2, 3]}, "algorithm": "dfpn"},
    )
    assert code == 0
    assert answers[0]["proved"] == 1 and answers[0]["value"] == 1
    won = get_game("tictactoe").from_moves(["a1", "b1", "b2", "a2", answers[0]["move"]])
    assert won.is_over or tictactoe_value(won.to_json()["board"]) == -1
    assert answers[1]["proved"] == 0 and answers[1]["value"] == 0
    assert answers[1]["move"] in ("a1", "a3", "c1", "c3")  # O's only drawing replies
    assert answers[2]["proved"] is None and answers[2]["value"] is None
    assert answers[2]["nodes"] >= 40 and answers[2]["move"] in ("d3", "c4", "f5", "e6")
    assert answers[3]["proved"] == -1 and answers[3]["value"] == -1  # 1 ^ 2 ^ 3 == 0
    assert set(answers[0]) == {"move", "value", "nodes", "seconds", "proved"}


@pytest.mark.parametrize(
    ("line", "match"),
    [
        ({"game": "nim", "algorithm": "dfpn", "depth": 3}, "'depth'"),
        ({"game": "nim", "algorithm": "dfpn", "iterations": 3}, "'iterations'"),
        ({"game": "nim", "algorithm": "dfpn", "nodes": 0}, "nodes must be a whole number"),
        ({"game": "nim", "algorithm": "dfpn", "nodes": True}, "nodes must be a whole number"),
        ({"game": "nim", "algorithm": "dfpn", "options": {"normalize": True}}, "normalize"),
        ({"game": "chameleon", "params": {"players": "RGY"}, "algorithm": "dfpn"}, "two-player"),
    ],
)
def test_bad_contract_lines_exit_2_naming_the_line_and_the_problem(line, match):
    code, answers, err = _lines(line)
    assert code == 2 and not answers
    assert err.startswith("line 1: ") and match in err and "Traceback" not in err


def test_a_node_count_on_a_depth_line_stays_an_annotation():
    line = {"game": "tictactoe", "moves": ["a1"], "algorithm": "alphabeta", "depth": 2}
    code, (plain,), _ = _lines(line)
    code2, (annotated,), _ = _lines({**line, "nodes": 1})
    assert code == code2 == 0 and plain["nodes"] == annotated["nodes"] > 1
