"""The two-player suite against theory: at a fixed depth alpha-beta with any of its
switches returns the NegaMax (minimax) value; NegaMax to the end of the game is the
exact value; pruning never expands more nodes than NegaMax; Paranoid without
normalisation is the same search on a two-player game."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chameleon_lab.agents import Agent
from chameleon_lab.games import get_game
from chameleon_lab.games.heuristic_check import sample_positions
from chameleon_lab.search.api import search
from chameleon_lab.search.solve import solve

GAMES = [
    ("tictactoe", {}),
    ("gomoku", {"width": 5, "height": 5, "k": 4}),
    ("nim", {"heaps": [2, 3, 4]}),
    ("dice", {"target": 20, "start": 3}),
    ("chameleon", {"players": "RY"}),
]
SWITCHES = ["ordering", "pvs", "killers", "history", "tt", "aspiration"]


def _positions(name, params, count, seed, plies=12):
    return sample_positions(get_game(name, **params), count, seed, max_plies=plies)


def _value(result):
    return float(result.scores[result.index])


def _options(combo):
    on = dict(zip(SWITCHES, combo, strict=True))
    return {
        "ordering": on["ordering"],
        "pvs": on["pvs"],
        "killers": on["killers"],
        "history": on["history"],
        "tt_bits": 12 if on["tt"] else 0,
        "aspiration": 3.0 if on["aspiration"] else 0.0,
    }


@pytest.mark.parametrize(("name", "params"), GAMES, ids=[g for g, _ in GAMES])
def test_every_switch_combination_returns_the_negamax_value(name, params):
    depth = 2 if name == "chameleon" else 3
    for pos in _positions(name, params, 6, seed=11):
        full = search(pos, "negamax", depth=depth, iterative=False)
        for combo in itertools.product([False, True], repeat=len(SWITCHES)):
            result = search(pos, "alphabeta", depth=depth, **_options(combo))
            assert _value(result) == pytest.approx(_value(full)), (pos, combo)
            assert result.nodes <= full.nodes * (depth + 2)  # iterative re-searches included
            assert result.moves[result.index] == result.pv[0]


def _same_search(a, b):
    assert a.index == b.index and a.nodes == b.nodes and a.depth == b.depth
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.pv, b.pv)
    assert a.tt_hits == b.tt_hits and a.counters == b.counters


@settings(max_examples=25, deadline=None)
@given(
    combos=st.lists(st.tuples(st.integers(0, 63), st.integers(1, 3), st.integers(0, 5)),
                    min_size=2, max_size=6),
    game=st.sampled_from(GAMES[:4]),
)  # fmt: skip
def test_a_search_depends_on_nothing_searched_before_it(combos, game):
    """search() without a workspace reuses this thread's last one for the game (a small
    search costs less than fresh tables): whatever ran before, each search finds what
    it finds with tables of its own."""
    from chameleon_lab.search.suite import SuiteWorkspace

    name, params = game
    positions = _positions(name, params, 6, seed=5)
    for bits, depth, i in combos:
        combo = [bool(bits >> j & 1) for j in range(len(SWITCHES))]
        options = _options(combo)
        reused = search(positions[i], "alphabeta", depth=depth, **options)
        own = SuiteWorkspace(get_game(name, **params).ops, options["tt_bits"])
        _same_search(reused, search(positions[i], "alphabeta", depth=depth, workspace=own,
                                    **options))  # fmt: skip


@pytest.mark.parametrize(("name", "params"), GAMES, ids=[g for g, _ in GAMES])
def test_pruning_never_expands_more_than_negamax(name, params):
    for pos in _positions(name, params, 10, seed=5):
        full = search(pos, "negamax", depth=2, iterative=False)
        pruned = search(pos, "alphabeta", depth=2, iterative=False)
        assert pruned.nodes <= full.nodes
        assert _value(pruned) == pytest.approx(_value(full))


def test_static_ordering_lowers_the_node_count_on_average():
    plain, ordered = [], []
    for pos in _positions("gomoku", {"width": 7, "height": 7, "k": 5}, 12, seed=2, plies=8):
        plain.append(search(pos, "alphabeta", depth=3, iterative=False).nodes)
        ordered.append(search(pos, "alphabeta", depth=3, iterative=False, ordering=True).nodes)
    assert np.mean(ordered) < np.mean(plain)


@pytest.mark.parametrize(("name", "params"), [("tictactoe", {}), ("nim", {"heaps": [1, 2, 3]})])
def test_negamax_to_the_end_is_the_exact_value(name, params):
    game = get_game(name, **params)
    scale = game.ops.terminal_scale * (game.info.max_utility - game.info.min_utility)
    for pos in _positions(name, params, 15, seed=9):
        result = search(pos, "negamax", depth=game.info.max_length, iterative=False)
        assert result.exact
        assert _value(result) / scale == pytest.approx(solve(pos).value)
        ab = search(pos, "alphabeta", depth=game.info.max_length, tt_bits=12, ordering=True)
        assert _value(ab) == pytest.approx(_value(result))


def test_paranoid_without_normalisation_is_the_same_search_on_two_players():
    for pos in _positions("chameleon", {"players": "RG"}, 6, seed=4, plies=6):
        ab = search(pos, "alphabeta", depth=3)
        para = search(pos, "paranoid", depth=3, normalize=False)
        assert _value(ab) == pytest.approx(float(para.scores[para.index]))


def test_agents_report_cutoffs_and_their_place():
    game = get_game("gomoku")
    agent = Agent(
        "alphabeta", game="gomoku", options={"ordering": True, "pvs": True}, tt_bits=16, depth=3
    )
    decision = agent.choose(game.from_moves(["d4", "d5"]))
    counters = decision.counters
    assert counters["cutoffs"] >= counters["first_move_cutoffs"] > 0
    assert decision.depth == 3 and len(decision.pv) == 3
    assert decision.record()["counters"] == counters
    assert Agent.from_params(agent.params()).params() == agent.params()


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"algorithm": "maxn", "options": {"pvs": True}}, "maxn takes no option 'pvs'"),
        (
            {"algorithm": "alphabeta", "options": {"aspiration": 5, "iterative": False}},
            "need iterative=True",
        ),
        ({"algorithm": "alphabeta", "tt_bits": 31}, "tt_bits must be a whole number in 0..30"),
        ({"algorithm": "alphabeta", "tt_bits": True}, "tt_bits must be a whole number"),
        ({"algorithm": "alphabeta", "depth": 0}, "depth must be a whole number >= 1"),
        ({"algorithm": "alphabeta", "heuristic": "pawns"}, "unknown heuristic 'pawns' for gomoku"),
        ({"algorithm": "alphabeta", "flavour": "thesis"}, "alphabeta has no thesis flavour"),
        (
            {"algorithm": "alphabeta", "options": {"quiescence": 99}},
            "quiescence is a number of plies",
        ),
        ({"algorithm": "alphabeta", "options": {"pvs": "yes"}}, "pvs must be true or false"),
        (
            {"algorithm": "alphabeta", "options": {"aspiration": -1}},
            "aspiration is a window half-width",
        ),
        (
            {"algorithm": "alphabeta", "options": {"aspiration": float("nan")}},
            "window half-width >= 0",
        ),
        ({"algorithm": "alphabeta", "options": {"aspiration": 10**400}}, "window half-width >= 0"),
        ({"algorithm": "alphabeta", "options": {"aspiration": 1j}}, "window half-width >= 0"),
    ],
)
def test_bad_options_are_refused_when_the_agent_is_made(params, message):
    params = {"game": "gomoku", "depth": 2, **params}
    with pytest.raises(ValueError, match=message):
        Agent(**params)


def test_numpy_typed_options_search_as_python_typed_ones():
    # the compiled root search is typed by its arguments: options arrive as Python's
    # bool, int and float whatever numpy type they were given in
    from chameleon_lab.search.suite import SuiteOptions

    numpy_typed = {"pvs": np.bool_(True), "ordering": np.int64(2), "aspiration": np.float32(2),
                   "tt_bits": np.int32(10), "quiescence": np.int8(0)}  # fmt: skip
    options = SuiteOptions(**numpy_typed)
    assert [type(getattr(options, k)) for k in numpy_typed] == [bool, int, float, int, int]
    pos = _positions("connect4", {}, 1, seed=3, plies=6)[0]
    ours = search(pos, "alphabeta", depth=5, **numpy_typed)
    plain = search(pos, "alphabeta", depth=5, **{k: v.item() for k, v in numpy_typed.items()})
    assert (ours.index, ours.nodes, ours.scores.tolist()) == (
        plain.index, plain.nodes, plain.scores.tolist())  # fmt: skip


@given(st.integers(1, 100_000))
def test_the_tables_are_the_narrowest_power_of_two_that_holds_every_move(max_moves):
    from chameleon_lab.search.core import MIN_TABLE_WIDTH, table_width

    width = table_width(max_moves)
    assert width >= max(max_moves, MIN_TABLE_WIDTH) and width & (width - 1) == 0
    assert width == MIN_TABLE_WIDTH or width < 2 * max_moves


def test_a_game_without_moves_has_no_table_width():
    from chameleon_lab.search.core import table_width

    with pytest.raises(ValueError, match="at least one move per position, got max_moves=0"):
        table_width(0)


@pytest.mark.parametrize(
    ("name", "sizes", "algorithm"),
    [
        ("connect4", [{"width": 4, "height": 4}, {"width": 7, "height": 6}], "alphabeta"),
        ("nim", [{"heaps": [1, 2]}, {"heaps": [3, 4, 5]}], "paranoid"),
    ],
)
def test_the_sizes_of_a_game_share_one_compiled_search(name, sizes, algorithm):
    # numba types the search tables by their shapes, which hold the game's most moves
    # per position: without rounding them up every board size compiled every search
    from chameleon_lab.search import core

    games = [get_game(name, **params) for params in sizes]
    assert len({g.ops.max_moves for g in games}) == len(games)  # the sizes differ
    for g in games:
        search(g.start(), algorithm, depth=2)
    compiled = {}
    for node, template, ops, evaluate, _ in core._BOUND.values():
        # per heuristic, compiled: other tests may bind other searches for these games
        # without running them (a workspace of another game is refused before it runs)
        if node.signatures and any(ops is g.ops for g in games):
            compiled.setdefault((template, evaluate), set()).add(node)
    assert compiled  # the searches were bound for these games
    for (template, _), nodes in compiled.items():
        assert len(nodes) == 1, template  # one copy for every size ...
        assert len(next(iter(nodes)).signatures) == 1, template  # ... compiled once


@pytest.mark.parametrize("algorithm", ["negamax", "alphabeta"])
def test_a_draw_scores_zero_not_negative_zero(algorithm):
    # NegaMax negates a child's 0 into -0.0, which JSON and tables print as "-0.0"
    result = search(get_game("tictactoe").start(), algorithm, depth=9, iterative=False)
    assert result.scores[result.index] == 0
    assert not np.signbit(result.scores[result.scores == 0]).any()
    line = {"game": "tictactoe", "moves": [], "algorithm": algorithm, "depth": 9}
    command = [sys.executable, "-m", "chameleon_lab.conformance", "search"]
    out = subprocess.run(command, input=json.dumps(line), capture_output=True, text=True)
    assert json.loads(out.stdout)["value"] == 0 and "-0" not in out.stdout


def test_a_depth_beyond_the_suites_tables_is_refused_by_name():
    with pytest.raises(ValueError, match="at most 64 plies deep, got depth=65"):
        search(get_game("tictactoe").start(), "alphabeta", depth=65)


def test_the_suite_refuses_games_that_are_not_two_player_zero_sum():
    with pytest.raises(ValueError, match="two-player zero-sum games; chameleon with 4 players"):
        search(get_game("chameleon").start(), "alphabeta", depth=2)


def test_conformance_search_answers_with_the_suite_and_the_multiplayer_searches():
    lines = [
        {"game": "tictactoe", "moves": ["b2"], "algorithm": "alphabeta", "depth": 8},
        {
            "game": "tictactoe",
            "moves": ["b2"],
            "algorithm": "alphabeta",
            "depth": 8,
            "options": {"ordering": True, "pvs": True, "tt_bits": 14},
        },
        {"game": "tictactoe", "moves": ["b2"], "algorithm": "negamax", "depth": 8},
        {"game": "nim", "params": {"heaps": [1, 2]}, "algorithm": "paranoid", "depth": 3},
        {"game": "dice", "algorithm": "alphabeta", "depth": 6, "heuristic": "threats"},
        {"game": "tictactoe", "algorithm": "alphabeta", "depth": 2, "options": {"pvs": 1}},
    ]
    done = subprocess.run(
        [sys.executable, "-m", "chameleon_lab.conformance", "search"],
        input="".join(json.dumps(x) + "\n" for x in lines),
        capture_output=True,
        text=True,
        check=False,
    )
    answers = [json.loads(x) for x in done.stdout.splitlines()]
    assert len(answers) == 5
    # O's value after X in the centre is a draw at full depth, whatever the switches
    assert [a["value"] for a in answers[:3]] == [0.0, 0.0, 0.0]
    assert answers[2]["nodes"] > answers[0]["nodes"] > answers[1]["nodes"]
    for a in answers:
        assert set(a) == {"move", "value", "nodes", "seconds"} and a["seconds"] >= 0
    assert done.returncode == 2 and done.stderr.startswith("line 6: pvs must be true or false")


def test_bench_games_prints_every_game_and_setting_and_agrees_with_openspiel(capsys):
    from chameleon_lab.bench.games import LADDER, openspiel_rows
    from chameleon_lab.cli import main

    assert main(["bench", "games", "--positions", "1"]) == 0
    out = capsys.readouterr().out
    for name in ("tictactoe", "gomoku", "nim", "dice", "chameleon"):
        assert f"{name:10} perft" in out
        for label, _, _ in LADDER:
            assert f"{name:10} {label} d" in out
    assert "connect4   exact solver, 16-20 stones" in out
    assert "othello    exact solver, 14 empties" in out
    # the lines an algorithm's entry declares (df-pn's: beside the exact solver)
    assert "tictactoe  df-pn, from ply 0" in out and "othello    df-pn, from ply 46" in out
    # OpenSpiel's alpha-beta values every position as ours does (it raises otherwise)
    rows, message = openspiel_rows()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        assert rows == [] and "pip install -e '.[bench]'" in message
    else:
        assert message == "" and rows[0].nodes > 0 and rows[1].nodes > 0
