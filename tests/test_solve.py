"""Exact values: the solver against independent solvers and theory, and the four
multi-player searches on two-player games, where theory says they return the minimax
value when they search to the end (two-player MaxN is minimax on a constant-sum game;
shallow pruning, Paranoid's alpha-beta and Hypermax keep that value)."""

from __future__ import annotations

import itertools
import json
import random

import conformance_lines
import pytest
from truths import dice_value, nim_value, tictactoe_value

from chameleon_lab.games import get_game
from chameleon_lab.games.chameleon import Position
from chameleon_lab.search.api import search
from chameleon_lab.search.solve import solve


def test_tictactoe_is_a_draw():
    assert solve(get_game("tictactoe").start()).value == 0


def _random_positions(game, count, seed, max_plies=20):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = game.start()
        for _ in range(rng.randint(0, max_plies)):
            if pos.is_over:
                break
            pos = pos.play(rng.choice(pos.legal_moves))
        out.append(pos)
    return out


def test_tictactoe_values_of_random_positions_match_an_independent_solver():
    for pos in _random_positions(get_game("tictactoe"), 150, seed=1, max_plies=9):
        assert solve(pos).value == tictactoe_value(pos.to_json()["board"]), pos


@pytest.mark.parametrize("misere", [False, True])
def test_nim_values_follow_the_xor_rule(misere):
    for heaps in itertools.product(range(5), repeat=3):
        value = solve(get_game("nim", heaps=list(heaps), misere=misere).start()).value
        assert value == nim_value(heaps, misere), heaps
        xor = heaps[0] ^ heaps[1] ^ heaps[2]
        if not misere or max(heaps) > 1:  # Bouton; misère differs only when all heaps <= 1
            assert value == (1 if xor else -1), heaps
        else:
            assert value == (1 if sum(heaps) % 2 == 0 else -1), heaps


def test_dice_tipping_values_match_the_tabulation():
    assert solve(get_game("dice", target=8, start=4).start()).value == 0  # seed 001, fig. 6
    for target in range(1, 41):
        for start in range(1, 7):
            value = solve(get_game("dice", target=target, start=start).start()).value
            assert value == dice_value(target, start), (target, start)


def test_gomoku_small_boards_have_the_known_values():
    # 3 in a row on 4x4 is a first-player win; 4 in a row on 4x4 is a draw
    assert solve(get_game("gomoku", width=4, height=4, k=3).start()).value == 1
    assert solve(get_game("gomoku", width=4, height=4, k=4).start()).value == 0


def test_solving_refuses_games_that_are_not_two_player_zero_sum():
    with pytest.raises(ValueError, match="not a two-player zero-sum game"):
        solve(get_game("chameleon").start())


# ------------------------------------------------ multi-player searches on 2 players
GAMES = [
    ("tictactoe", {}),
    ("nim", {"heaps": [2, 3, 3]}),
    ("nim", {"heaps": [1, 2, 4], "misere": True}),
    ("dice", {"target": 14, "start": 3}),
    ("gomoku", {"width": 4, "height": 2, "k": 3}),
]


def _mover_value(result, algorithm, mover, scale):
    """The root value for the player to move, on the solver's +1/0/-1 scale."""
    score = result.scores[result.index]
    if algorithm == "paranoid":  # normalised: 2 s_mover - (s_mover + s_other)
        return score
    if algorithm == "hypermax":  # not normalised: the mover's score minus the average
        return score[mover] / scale
    return 2 * score[mover] - 1  # normalised shares: win 1, draw 1/2, loss 0


@pytest.mark.parametrize(("name", "params"), GAMES, ids=[g for g, _ in GAMES])
@pytest.mark.parametrize("algorithm", ["maxn", "maxnis", "paranoid", "hypermax"])
def test_multiplayer_searches_return_the_minimax_value_on_two_player_games(name, params, algorithm):
    game = get_game(name, **params)
    scale = game.ops.terminal_scale * (game.info.max_utility - game.info.min_utility) / 2
    for pos in _random_positions(game, 25, seed=3):
        if pos.is_over:
            continue
        depth = game.info.max_length
        result = search(pos, algorithm, depth=depth)
        assert result.exact
        assert _mover_value(result, algorithm, pos.to_move, scale) == pytest.approx(
            solve(pos).value
        ), pos


# --------------------------------------------------------------- conformance entry
_conformance = conformance_lines.run


def test_conformance_answers_legal_perft_and_solve_for_other_games():
    lines = [
        {"game": "tictactoe", "moves": ["b2", "a1"]},
        {"game": "nim", "params": {"heaps": [1, 2]}, "moves": ["2:1"]},
        {"game": "dice", "params": {"target": 8, "start": 4}, "moves": []},
        {"game": "gomoku", "params": {"width": 3, "height": 3, "k": 3}, "moves": ["a1"]},
    ]
    legal = _conformance(["legal"], lines)
    assert legal.returncode == 0, legal.stderr
    answers = [json.loads(x) for x in legal.stdout.splitlines()]
    assert sorted(answers[0]) == sorted(["a2", "a3", "b1", "b3", "c1", "c2", "c3"])
    assert sorted(answers[1]) == ["1:1", "2:1"]
    assert sorted(answers[2]) == ["1", "2"]  # 5 and 6 would pass the target
    assert len(answers[3]) == 8
    perft = _conformance(["perft", "9"], lines)
    # TicTacToe after two moves, to the end; NIM [1, 1]: two orders, each two plies
    assert [int(x) for x in perft.stdout.split()][1] == 2
    solved = _conformance(["solve"], lines)
    values = [json.loads(x)["value"] for x in solved.stdout.splitlines()]
    assert values == [tictactoe_value(["...", ".X.", "O.."]), nim_value([1, 1], False), 0, 0]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "nim", "params": {"heaps": [-1]}}, "heaps"),
        ({"game": "gomoku", "params": {"k": 9}}, "k larger than the board"),
        ({"game": "dice", "params": {"start": 7}}, "start"),
        ({"game": "dice", "params": {"target": 0}}, "target"),
        ({"game": "tictactoe", "moves": ["b2", "b2"]}, "b2"),
        ({"game": "tictactoe", "moves": ["z9"]}, "z9"),
        ({"game": "nim", "params": {"misere": "false"}}, "misere"),
        ({"game": "tictactoe", "params": {"size": 4}}, "no parameter 'size'"),
    ],
)
def test_conformance_refuses_bad_game_lines(line, message):
    done = _conformance(["legal"], [line])
    assert done.returncode == 2
    assert done.stderr.startswith("line 1:") and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("command", "line", "message"),
    [
        (["legal"], {"game": "tictactoe", "move": ["b2"]},
         "'move' in a game line (did you mean 'moves'?)"),
        (["legal"], {"game": "nim", "param": {"heaps": [9]}}, "did you mean 'params'?"),
        (["legal"], {"Game": "tictactoe"}, "did you mean 'game'?"),
        (["solve"], {"game": "nim", "Moves": ["1:1"]}, "did you mean 'moves'?"),
        (["search"], {"game": "othello", "algorithm": "alphabeta", "depth": 2,
                      "heurstic": "mobility"}, "did you mean 'heuristic'?"),
        (["search"], {"game": "tictactoe", "algorithm": "alphabeta", "depth": 2,
                      "option": {"pvs": True}}, "did you mean 'options'?"),
        (["search"], {**Position.start("RY").to_legacy(), "algorithm": "maxn", "depth": 1,
                      "heuristics": "pawns"}, "'heuristics' in a search line"),
    ],
)  # fmt: skip
def test_conformance_refuses_misspelt_keys_that_would_leave_a_default(command, line, message):
    # ignored, the key would silently search with the default heuristic, play no move...
    done = _conformance(command, [line])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("line 1: unknown key") and message in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"workspace": 1}, "alphabeta takes no option 'workspace'"),
        ({"game": "nim"}, "takes no option 'game'"),
        ({"time_ms": 5}, "no option 'time_ms' in a search line (the budget is the line's own)"),
        (
            {"nodes": 50},
            "its options: iterative, ordering, pvs, aspiration, killers, history, "
            "quiescence, tt_bits\n",
        ),
        ({"flavour": "thesis"}, "takes no option 'flavour'"),
        ({"depth": 5}, "'depth' goes at the top of a search line, not in its options"),
        ({"heuristic": "lines"}, "'heuristic' goes at the top of a search line"),
    ],
)
def test_conformance_search_takes_only_the_algorithms_options(options, message):
    # the search function's other keywords changed what the line asked for (a node
    # budget, another game) or crashed inside it (a workspace: a raw traceback)
    line = {"game": "tictactoe", "algorithm": "alphabeta", "depth": 3, "options": options}
    done = _conformance(["search"], [line])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("line 1: ") and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_conformance_answers_lines_that_carry_annotations():
    # keys unlike every key of the line (an expected answer, a note) are left alone
    line = {"game": "nim", "params": {"heaps": [1, 2]}, "value": 1, "note": "from a table"}
    done = _conformance(["solve"], [line])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == nim_value([1, 2], False)
