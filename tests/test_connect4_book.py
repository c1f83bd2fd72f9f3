"""Connect Four opening books (:mod:`chameleon_lab.games.connect4.book`) against
independent truths: the generic alpha-beta solver over the game protocol (its own code,
exact) for every position a small book holds; the published values of the seven first
moves on 7 x 6 (connect4.gamesolver.org shows -2 -1 0 1 0 -1 -2: the centre wins, as
Allis and Allen proved in 1988, c and e draw); negamax consistency of every shipped
book; and a build interrupted and resumed gives the uninterrupted build's book."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chameleon_lab.agents import Agent
from chameleon_lab.games import get_game
from chameleon_lab.games.connect4 import book as B
from chameleon_lab.games.connect4 import kernel as K
from chameleon_lab.games.connect4 import solver as C4
from chameleon_lab.search.solve import solve

BITS = 16  # small solver tables keep the tests light; values do not depend on them


@pytest.fixture(scope="module")
def book54(tmp_path_factory) -> B.OpeningBook:
    """Every 5 x 4 position of at most 4 stones."""
    out = tmp_path_factory.mktemp("book") / "connect4_5x4.npz"
    return B.build_book(5, 4, 4, out, tt_bits=BITS, progress=False)


def _positions(width: int, height: int, depth: int):
    """Every position of at most ``depth`` stones nobody has won, as Position objects
    (mirror images included: the book must answer both)."""
    level = [get_game("connect4", width=width, height=height).start()]
    out = list(level)
    for _ in range(depth):
        level = [p.play(m) for p in level for m in p.legal_moves]
        level = [p for p in level if not p.is_over]
        out += level
    return out


def test_every_position_of_a_small_book_is_the_generic_solvers_value(book54):
    positions = _positions(5, 4, 4)
    assert len(positions) > 500
    seen = set()
    for pos in positions:
        state = pos.state
        key = (int(state[C4.K.POSITION]), int(state[C4.K.MASK]))
        if key in seen:
            continue
        seen.add(key)
        truth = solve(pos, method="generic").value
        assert book54.value(*key) == truth, pos
    # mirror pairs are stored once
    assert len(book54) < len(seen)


def test_book_moves_keep_the_value(book54):
    game = get_game("connect4", width=5, height=4)
    for pos in _positions(5, 4, 3):
        sol = C4.solve_state(game, pos.state, tt_bits=BITS, book=book54)
        assert sol.from_book and sol.nodes == 0
        child = pos.play(str(sol.move + 1))
        if child.is_over:  # a winning stone
            assert sol.value > 0
        else:
            assert -solve(child, method="generic").value == sol.value


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 4), max_size=6))
def test_the_solver_with_a_book_answers_as_without(book54, columns):
    game = get_game("connect4", width=5, height=4)
    pos = game.start()
    for c in columns:
        legal = pos.legal_moves
        if pos.is_over:
            break
        pos = pos.play(legal[c % len(legal)])
    with_book = C4.solve_state(game, pos.state, tt_bits=BITS, book=book54)
    without = C4.solve_state(game, pos.state, tt_bits=BITS, book=None)
    assert with_book.value == without.value
    stones = bin(int(pos.state[C4.K.MASK])).count("1")
    assert with_book.from_book == (not pos.is_over and stones < book54.depth)


def test_interrupted_build_resumes_to_the_same_book(book54, tmp_path):
    out = tmp_path / "b.npz"

    def stop(i: int) -> None:
        if i == 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        B.build_book(5, 4, 4, out, tt_bits=BITS, progress=False, on_solved=stop)
    partial = out.with_name(out.name + ".partial")
    assert not out.exists() and len(partial.read_text().splitlines()) == 1 + 7
    with open(partial, "a") as fh:  # a line torn by the interruption is dropped
        fh.write("12345 ")
    resumed = B.build_book(5, 4, 4, out, tt_bits=BITS, progress=False)
    assert not partial.exists()
    assert np.array_equal(resumed.keys, book54.keys)
    assert np.array_equal(resumed.values, book54.values)
    assert resumed.header["positions_solved"] == book54.header["positions_solved"]
    loaded = B.OpeningBook.load(out)
    assert np.array_equal(loaded.values, book54.values) and loaded.depth == 4


def test_a_checkpoint_of_another_build_is_refused(tmp_path):
    out = tmp_path / "b.npz"
    out.with_name("b.npz.partial").write_text("board 6x5 depth 2\n")
    with pytest.raises(ValueError, match="checkpoint of another build"):
        B.build_book(5, 4, 3, out, progress=False)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((5, 4, 19), "depth must be in 0..18"),
        ((5, 4, -1), "depth must be in"),
        ((10, 6, 2), "no Connect Four board 10 x 6"),
        ((3, 4, 2), "no Connect Four board 3 x 4"),
        ((5, 4, 2.0), "depth must be a whole number"),
    ],
)
def test_bad_builds_are_refused(tmp_path, args, match):
    with pytest.raises(ValueError, match=match):
        B.build_book(*args, tmp_path / "b.npz", progress=False)
    with pytest.raises(ValueError, match="tt_bits"):
        B.build_book(5, 4, 2, tmp_path / "c.npz", tt_bits=31, progress=False)


def test_shipped_books_are_complete_and_consistent():
    paths = B.bundled_books()
    assert {p.name for p in paths} >= {"connect4_7x6.npz", "connect4_6x5.npz"}
    for path in paths:
        book = B.OpeningBook.load(path)
        w, h, cells = book.width, book.height, book.width * book.height
        expected = sum(len(B.positions_at(w, h, m)) for m in range(book.depth + 1))
        assert len(book) == expected, path
        for m in range(book.depth):  # every entry is the best of its children
            for pos, mask in B.positions_at(w, h, m):
                best = max(
                    (cells + 1 - m) // 2
                    if K.alignment(pos | s, h)
                    else -book.value(pos ^ mask, mask | s)
                    for _c, s in B._moves(pos, mask, w, h)
                )
                assert book.value(pos, mask) == best


def test_the_7x6_book_gives_the_published_first_move_values():
    book = B.bundled_book(7, 6)
    assert book is not None and book.depth >= 1
    assert [book.move_scores(0, 0)[c] for c in range(7)] == [-2, -1, 0, 1, 0, -1, -2]
    start = get_game("connect4").start()
    sol = solve(start)
    assert sol.from_book and sol.value == 1 and sol.move == 3
    frontier = B.positions_at(7, 6, book.depth)[0]  # its children are beyond the book
    assert book.value(*frontier) is not None and book.move_scores(*frontier) is None


def test_shipped_6x5_frontier_sample_matches_the_solver():
    book = B.bundled_book(6, 5)
    frontier = B.positions_at(6, 5, book.depth)
    rng = np.random.default_rng(5)
    for i in rng.choice(len(frontier), 6, replace=False):
        pos, mask = frontier[int(i)]
        value, _, _, _ = C4.solve_bitboards(6, 5, pos, mask, tt_bits=20, best_move=False)
        assert book.value(pos, mask) == value
        assert book.value(B.mirror(pos, 6, 5), B.mirror(mask, 6, 5)) == value


def test_agents_play_from_the_book():
    agent = Agent("alphabeta", game="connect4", depth=2, book=True)
    start = get_game("connect4").start()
    decision = agent.choose(start)
    assert str(decision.move) == "4" and decision.exact and decision.counters == {"book": 1}
    scores = {str(m): s for m, s in zip(decision.moves, decision.scores, strict=True)}
    assert scores == {"1": -2, "2": -1, "3": 0, "4": 1, "5": 0, "6": -1, "7": -2}
    assert Agent.from_params(agent.params()).book is True
    assert "book" not in Agent("alphabeta", game="connect4", depth=2).params()
    # beyond the book the agent searches
    late = start.play("4").play("4").play("4").play("4")
    assert agent.choose(late).counters.get("book") is None


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"game": "tictactoe", "book": True}, "tictactoe has no opening book"),
        ({"game": "connect4", "book": "yes"}, "book must be True or False"),
    ],
)
def test_bad_book_options(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Agent("alphabeta", depth=2, **kwargs)


def test_bad_solver_books(book54):
    with pytest.raises(ValueError, match="no opening book"):
        solve(get_game("tictactoe").start(), book=True)
    with pytest.raises(ValueError, match="no opening book"):
        solve(get_game("connect4").start(), book=True, method="generic")
    with pytest.raises(ValueError, match="book is for 5 x 4"):
        C4.solve_state(get_game("connect4"), get_game("connect4").start().state, book=book54)
    start = get_game("connect4").start()
    with pytest.raises(ValueError, match="book must be True, False or an OpeningBook"):
        B.solve_state(start.game, start.state, book="yes")
    with pytest.raises(ValueError, match="book must be None or an OpeningBook"):
        C4.solve_state(start.game, start.state, book=True)  # the solver knows no shipped books


def test_the_book_answers_before_the_solver_searches(book54):
    game = get_game("connect4", width=5, height=4)
    pos = game.from_moves(["3"])
    from_book = B.solve_state(game, pos.state, tt_bits=BITS, book=book54)
    searched = B.solve_state(game, pos.state, tt_bits=BITS, book=False)
    assert from_book.from_book and from_book.nodes == 0
    assert not searched.from_book and searched.nodes > 0
    assert from_book.value == searched.value


def test_cli_builds_shows_and_refuses(tmp_path):
    def cli(*args):
        return subprocess.run(
            [sys.executable, "-m", "chameleon_lab.cli", "book", *args],
            capture_output=True,
            text=True,
            timeout=600,
        )

    out = tmp_path / "b.npz"
    proc = cli(
        "build", "--width", "5", "--height", "4", "--depth", "2", "--out", str(out), "--quiet"
    )
    assert proc.returncode == 0, proc.stderr
    assert "a:-1 b:+0 c:+0 d:+0 e:-1" in proc.stdout  # the generic solver's, below
    game = get_game("connect4", width=5, height=4)
    truth = [-solve(game.start().play(str(c)), method="generic").value for c in range(1, 6)]
    assert truth == [-1, 0, 0, 0, -1]
    assert cli("show", str(out)).returncode == 0
    for args, words in [
        (("build", "--depth", "2", "--out", str(out)), "exists"),
        (("build", "--depth", "50", "--out", str(tmp_path / "c.npz")), "depth must be in"),
        (("show", str(tmp_path / "none.npz")), "no opening book"),
    ]:
        proc = cli(*args)
        assert proc.returncode == 2 and words in proc.stderr and "Traceback" not in proc.stderr
    (tmp_path / "junk.npz").write_bytes(b"not a book")
    proc = cli("show", str(tmp_path / "junk.npz"))
    assert proc.returncode == 2 and "is not an opening book" in proc.stderr


def test_the_seed_levels_take_the_improvement_options():
    from chameleon_lab.games.connect4.levels import level_params

    plain = level_params(3, 2)
    assert "book" not in plain and plain["heuristic"] == "aggressive2"
    agent = Agent(**level_params(3, 2, book=True))
    assert agent.book and agent.depth == 6
    assert str(agent.choose(get_game("connect4").start()).move) == "4"
    assert level_params(3, 2, weighted=True)["heuristic"] == "weighted_lines"
    with pytest.raises(ValueError, match="book must be True or False"):
        level_params(3, 2, book=1)


def test_a_parallel_build_gives_the_same_book(book54, tmp_path):
    book = B.build_book(5, 4, 4, tmp_path / "p.npz", tt_bits=BITS, progress=False, workers=2)
    assert np.array_equal(book.keys, book54.keys)
    assert np.array_equal(book.values, book54.values)
    with pytest.raises(ValueError, match="workers must be"):
        B.build_book(5, 4, 2, tmp_path / "q.npz", progress=False, workers=0)


def test_the_analysis_reads_the_first_moves_from_the_shipped_book():
    from chameleon_lab.analysis.levels import book_opening_values

    frame = book_opening_values(7, 6)
    assert frame["move"].tolist() == ["1", "2", "3", "4", "5", "6", "7"]
    assert frame["value"].tolist() == [-2, -1, 0, 1, 0, -1, -2]
    assert frame.attrs["depth"] >= 1 and frame.attrs["solver_nodes"] > 10**9
    with pytest.raises(ValueError, match="no opening book ships for 5 x 4; books: 6x5, 7x6"):
        book_opening_values(5, 4)
