"""TicTacToe and Five-in-a-row (the ``mnk`` kernel) against independent truths.

The plain-Python rules below are written from the contract ("Other games"): a board is
a tuple of cells ``row * width + col`` (row 0 is rank 1), 0 empty, 1 the first player,
2 the second; a player wins with a window of k cells all theirs (k or more in a row
contains such a window). They share no code with the kernel, which counts runs through
the placed stone instead of enumerating windows.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import deque
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chameleon_lab.games import get_game
from chameleon_lab.games.mnk import GomokuPosition, TicTacToePosition
from chameleon_lab.games.mnk import kernel as K

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------ independent rules
@cache
def windows(width: int, height: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every line of k cells on the board, as cell numbers."""
    out = []
    for r in range(height):
        for c in range(width):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= rr < height and 0 <= cc < width for rr, cc in cells):
                    out.append(tuple(rr * width + cc for rr, cc in cells))
    return tuple(out)


@cache
def windows_through(width: int, height: int, k: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per cell, the lines of k cells through it."""
    wins = windows(width, height, k)
    return tuple(tuple(w for w in wins if c in w) for c in range(width * height))


def has_k(board, width, height, k, value) -> bool:
    return any(all(board[i] == value for i in w) for w in windows(width, height, k))


def py_outcome(board, width, height, k):
    """'X' / 'O' wins (first / second player), 'draw', or None while playing."""
    one, two = has_k(board, width, height, k, 1), has_k(board, width, height, k, 2)
    assert not (one and two)
    if one:
        return 0
    if two:
        return 1
    return "draw" if 0 not in board else None


def py_perft_function(width, height, k):
    through = windows_through(width, height, k)

    @cache
    def perft(board, depth, last):
        if last >= 0 and any(all(board[i] == board[last] for i in w) for w in through[last]):
            return 1  # the previous move won
        if depth == 0 or 0 not in board:
            return 1
        stone = 1 if board.count(1) == board.count(2) else 2
        total = 0
        for c, v in enumerate(board):
            if v == 0:
                total += perft((*board[:c], stone, *board[c + 1 :]), depth - 1, c)
        return total

    return lambda depth: perft((0,) * (width * height), depth, -1)


def playout(pos, seed):
    """Positions of a random game from ``pos`` to its end."""
    rng = random.Random(seed)
    line = [pos]
    while not pos.is_over:
        pos = pos.play(rng.choice(pos.legal_moves))
        line.append(pos)
    return line


def board_of(pos) -> tuple[int, ...]:
    return tuple(int(v) for v in pos.state[K.CELLS :])


# ------------------------------------------------------------------- TicTacToe
def test_tictactoe_perft_matches_plain_python_count():
    start = get_game("tictactoe").start()
    py = py_perft_function(3, 3, 3)
    for depth in range(1, 10):
        assert start.perft(depth) == py(depth), depth
    # every game is over by ply 9: perft(9) counts the complete games (a known number)
    assert start.perft(9) == start.perft(12) == 255_168


def test_tictactoe_has_5478_reachable_positions():
    start = get_game("tictactoe").start()
    seen = {start}
    todo = deque([start])
    while todo:
        for child in todo.popleft().successors():
            if child not in seen:
                seen.add(child)
                todo.append(child)
    assert len(seen) == 5478


def test_tictactoe_json_accepts_exactly_the_5478_reachable_boards():
    """check_state, written without search, refuses every board no game reaches."""
    game = get_game("tictactoe")
    reachable = set()
    todo = deque([game.start()])
    while todo:
        pos = todo.popleft()
        if board_of(pos) not in reachable:
            reachable.add(board_of(pos))
            todo.extend(pos.successors())
    accepted = set()
    for cells in itertools.product(".XO", repeat=9):
        rows = ["".join(cells[i : i + 3]) for i in (0, 3, 6)]
        try:
            pos = game.from_json({"game": "tictactoe", "board": rows})
        except ValueError:
            continue
        accepted.add(board_of(pos))
    assert accepted == reachable
    assert len(accepted) == 5478


def test_tictactoe_is_a_draw_with_perfect_play():
    @cache
    def negamax(board):
        stone = 1 if board.count(1) == board.count(2) else 2
        if has_k(board, 3, 3, 3, 3 - stone):
            return -1
        if 0 not in board:
            return 0
        return max(
            -negamax((*board[:c], stone, *board[c + 1 :])) for c in range(9) if board[c] == 0
        )

    assert negamax((0,) * 9) == 0
    # the library's positions agree with the plain-Python value at every reachable end
    for pos in playout(get_game("tictactoe").start(), 7):
        if pos.is_over:
            outcome = py_outcome(board_of(pos), 3, 3, 3)
            expect = (0.0, 0.0) if outcome == "draw" else (1.0, -1.0)[:: 1 - 2 * outcome]
            assert pos.returns == expect


def test_tictactoe_notation_orientation_and_json():
    game = get_game("tictactoe")
    pos = game.from_moves(["b2", " A1 ", "C3"])
    assert pos.to_json() == {"game": "tictactoe", "params": {}, "board": ["..X", ".X.", "O.."]}
    assert [str(m) for m in game.start().legal_moves][:4] == ["a1", "b1", "c1", "a2"]
    assert game.start().parse_move("c1").code == 2  # row 0 is rank 1, the bottom
    assert game.info.player_names == ("X", "O")
    assert game.start().to_move == 0


def test_tictactoe_wins_and_draws():
    game = get_game("tictactoe")
    won = game.from_moves(["a1", "a2", "b1", "b2", "c1"])
    assert won.is_over and won.returns == (1.0, -1.0) and won.legal_moves == []
    assert won.winning_rows() == [["a1", "b1", "c1"]]
    o_wins = game.from_moves(["a1", "a3", "b1", "b2", "c2", "c1"])
    assert o_wins.returns == (-1.0, 1.0)
    draw = game.from_moves(["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"])
    assert draw.is_over and draw.returns == (0.0, 0.0)
    with pytest.raises(ValueError, match="game is over"):
        won.play("c3")


# ----------------------------------------------------------------------- gomoku
@pytest.mark.parametrize(
    ("width", "height", "k", "depth"),
    [
        (4, 4, 3, 5),
        (7, 7, 5, 3),
        (3, 3, 2, 9),
        (5, 2, 2, 10),
        (1, 5, 3, 5),
        (4, 3, 4, 6),
        (8, 7, 2, 3),  # the largest board with bitboards (63 bits) ...
        (7, 8, 2, 3),  # ... and one without
        (26, 2, 2, 3),
    ],
)
def test_gomoku_perft_matches_plain_python(width, height, k, depth):
    start = get_game("gomoku", width=width, height=height, k=k).start()
    py = py_perft_function(width, height, k)
    for d in range(1, depth + 1):
        assert start.perft(d) == py(d), (width, height, k, d)


def test_gomoku_default_board_and_names():
    game = get_game("gomoku")
    assert game.params == {"width": 7, "height": 7, "k": 5}
    assert game.info.player_names == ("black", "white")
    assert game.ops.max_moves == 49
    start = game.start()
    assert start.perft(2) == 49 * 48 and len(start.legal_moves) == 49
    assert start.parse_move("g7").code == 48 and start.parse_move("g1").code == 6


def test_k_one_wins_with_the_first_stone():
    start = get_game("gomoku", width=3, height=2, k=1).start()
    assert start.perft(1) == start.perft(2) == 6
    assert start.play("b2").returns == (1.0, -1.0)


CONFIGS = [
    (7, 7, 5),
    (4, 4, 3),
    (3, 3, 3),
    (1, 1, 1),
    (5, 5, 1),
    (6, 3, 3),  # wider than high
    (3, 6, 4),  # k > width, height >= k: only columns can win
    (2, 6, 5),
    (4, 7, 6),
    (8, 5, 4),
    (5, 5, 2),
    (9, 9, 5),
    # bitboards up to (width + 1) * height = 63 bits (see kernel.has_bitboards): the
    # largest boards with them, the smallest without, and extreme shapes with them
    (8, 7, 4),
    (7, 8, 4),
    (2, 21, 3),
    (26, 2, 3),
]


@SETTINGS
@given(st.sampled_from(CONFIGS), st.integers(0, 2**32))
def test_random_playouts_end_as_the_plain_rules_say(config, seed):
    width, height, k = config
    line = playout(get_game("gomoku", width=width, height=height, k=k).start(), seed)
    for ply, pos in enumerate(line):
        board = board_of(pos)
        outcome = py_outcome(board, width, height, k)
        assert pos.is_over == (outcome is not None)
        assert board.count(1) - board.count(2) == ply % 2
        if outcome is None:
            assert pos.to_move == ply % 2 and pos.returns is None
            assert sorted(m.code for m in pos.legal_moves) == [
                c for c, v in enumerate(board) if v == 0
            ]
    final = line[-1]
    outcome = py_outcome(board_of(final), width, height, k)
    if outcome == "draw":
        assert final.returns == (0.0, 0.0)
    else:
        assert outcome == (len(line) - 2) % 2  # the last mover won
        assert final.returns == ((1.0, -1.0) if outcome == 0 else (-1.0, 1.0))


@SETTINGS
@given(st.sampled_from(CONFIGS), st.integers(0, 2**32), st.integers(0, 100))
def test_json_and_notation_round_trips(config, seed, cut):
    width, height, k = config
    line = playout(get_game("gomoku", width=width, height=height, k=k).start(), seed)
    pos = line[min(cut, len(line) - 1)]
    again = GomokuPosition.from_json(pos.to_json())
    assert again == pos and again.key == pos.key and again.to_json() == pos.to_json()
    for move in pos.legal_moves:
        text = str(move)
        assert pos.parse_move(text) == move
        assert pos.parse_move(f"  {text.upper()} ") == move


def test_every_cell_of_the_largest_board_has_a_name():
    pos = get_game("gomoku", width=26, height=26, k=5).start()
    names = [str(m) for m in pos.legal_moves]
    assert names[0] == "a1" and names[25] == "z1" and names[-1] == "z26"
    assert len(set(names)) == 26 * 26
    assert all(pos.parse_move(n).code == i for i, n in enumerate(names))


def test_transposed_move_orders_give_equal_positions_and_keys():
    game = get_game("gomoku")
    a = game.from_moves(["d4", "c3", "e5", "a1"])
    b = game.from_moves(["e5", "a1", "d4", "c3"])
    assert a == b and a.key == b.key
    assert a.key != game.from_moves(["d4", "a1", "c3", "e5"]).key


def test_won_board_is_accepted_from_json():
    pos = GomokuPosition.from_json(
        {
            "game": "gomoku",
            "params": {"width": 5, "height": 5, "k": 3},
            "board": [".....", ".....", "..b..", ".B...", "BWW.."],
        }
    )
    assert pos.is_over and pos.returns == (1.0, -1.0)
    assert pos.winning_rows() == [["a1", "b2", "c3"]]
    # a row longer than k completed in its middle is fine too
    five = {"game": "gomoku", "params": {"width": 5, "height": 3, "k": 3}}
    pos = GomokuPosition.from_json({**five, "board": [".....", "WW.WW", "BBBBB"]})
    assert pos.is_over and pos.returns == (1.0, -1.0)


# ------------------------------------------------------------------ bad inputs
@pytest.mark.parametrize(
    ("text", "needle"),
    [("h1", "h1"), ("a0", "a0"), ("a8", "a8"), ("zz", "zz"), ("", "''"), ("d 4", "d 4")],
)
def test_bad_moves_are_refused_naming_them(text, needle):
    pos = get_game("gomoku").start()
    with pytest.raises(ValueError, match=needle) as info:
        pos.play(text)
    assert "a1" in str(info.value) or "a..g" in str(info.value)


def test_occupied_cell_is_refused():
    pos = get_game("gomoku").from_moves(["d4"])
    with pytest.raises(ValueError, match=r"d4.*occupied"):
        pos.play("D4")
    with pytest.raises(ValueError, match="move 2"):
        get_game("tictactoe").from_moves(["b2", "b2"])


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"width": 0}, "width=0.*1..26"),
        ({"width": 27}, "width=27.*1..26"),
        ({"height": -1}, "height=-1.*1..26"),
        ({"height": 7.0}, "height=7.0"),
        ({"width": "7"}, "width='7'"),
        ({"width": True}, "width=True"),
        ({"k": 0}, "k=0"),
        ({"k": False}, "k=False"),
        ({"k": 8}, "k=8.*larger than the board.*1..7"),
        ({"width": 3, "height": 4, "k": 5}, "k=5.*larger than the board.*1..4"),
        ({"depth": 3}, "depth"),
    ],
)
def test_bad_params_are_refused(params, needle):
    with pytest.raises(ValueError, match=needle):
        get_game("gomoku", **params)


def test_tictactoe_has_no_parameters():
    with pytest.raises(ValueError, match="size"):
        get_game("tictactoe", size=4)


def test_large_k_fits_the_longer_side():
    game = get_game("gomoku", width=3, height=6, k=6)
    assert game.start().perft(2) == 18 * 17


GOMOKU_5 = {"game": "gomoku", "params": {"width": 5, "height": 5, "k": 3}}


@pytest.mark.parametrize(
    ("board", "needle"),
    [
        (["....."] * 4, "4 rows"),
        (["....."] * 4 + ["......"], "6 characters"),
        (["....."] * 4 + ["..X.."], "unknown character 'X'"),
        (["....."] * 4 + ["W...."], "white has more stones"),
        (["....."] * 4 + ["BB..."], "black has 2 stones"),
        (["....."] * 3 + ["WWW..", "BBB.B"], "both black and white"),
        (["....."] * 3 + ["WWW..", "BB.BB"], "white has 3 in a row but black has played since"),
        ([".....", ".....", "....W", "..W..", "BBB.W"], "black has 3 in a row but white has"),
        (["BBB..", ".....", "WW.WW", ".W...", "BBB.."], "one last stone"),
        ("BBB", "malformed"),
        ([".....", 5, ".....", ".....", "....."], "malformed"),
    ],
)
def test_impossible_boards_are_refused(board, needle):
    with pytest.raises(ValueError, match=needle):
        GomokuPosition.from_json({**GOMOKU_5, "board": board})


def test_malformed_json_objects_are_refused():
    with pytest.raises(ValueError, match='needs "board"'):
        GomokuPosition.from_json(GOMOKU_5)
    with pytest.raises(ValueError, match="'to_move'"):
        GomokuPosition.from_json({**GOMOKU_5, "board": ["....."] * 5, "to_move": 0})
    with pytest.raises(ValueError, match="k=9"):
        GomokuPosition.from_json({"game": "gomoku", "params": {"k": 9}, "board": ["."] * 7})
    with pytest.raises(ValueError, match="tictactoe"):
        TicTacToePosition.from_json({**GOMOKU_5, "board": ["..."] * 3})
    with pytest.raises(ValueError, match="'B'"):
        TicTacToePosition.from_json({"game": "tictactoe", "board": ["B..", "...", "..."]})


def test_bad_kernel_states_are_refused():
    game = get_game("tictactoe")
    good = game.from_moves(["b2"]).state.copy()
    for index, value, needle in [
        (K.CELLS + 1, 3, "b1 holds 3"),
        (K.NSTONES, 2, "counts 2 stones"),
        (K.WINNER, 0, "winner field"),
        (K.KEY, 12345, "key field"),
        (K.W, 4, "width, height, k"),
        (K.BITS, 0, "bitboard fields"),
        (K.BITS + 1, 1, "bitboard fields"),
    ]:
        bad = good.copy()
        bad[index] = value
        with pytest.raises(ValueError, match=needle):
            TicTacToePosition(game, bad)
    with pytest.raises(ValueError, match="17 entries"):
        TicTacToePosition(game, good[:-1])


# -------------------------------------------------------------- heuristics
def evaluate(game, name, pos):
    out = np.full(4, np.nan)
    state = pos.state.copy()
    game.heuristics.get(name).function(state, out)
    assert np.array_equal(state, pos.state), "a heuristic changed the state"
    return out


@SETTINGS
@given(st.sampled_from([*CONFIGS, (3, 3, 3)]), st.integers(0, 2**32), st.integers(0, 100))
def test_heuristics_are_finite_and_positive(config, seed, cut):
    width, height, k = config
    for name in ("gomoku", "tictactoe"):
        if name == "tictactoe" and config != (3, 3, 3):
            continue
        params = {} if name == "tictactoe" else {"width": width, "height": height, "k": k}
        game = get_game(name, **params)
        line = playout(game.start(), seed)
        pos = line[min(cut, len(line) - 1)]
        for h in game.heuristics:
            out = evaluate(game, h, pos)
            assert np.all(np.isfinite(out)) and out[0] >= 1 and out[1] >= 1, (h, out)
            assert out[2] == 0 and out[3] == 0
            if not pos.is_over:  # a win outweighs every heuristic score
                assert max(out) * 10 <= game.ops.terminal_scale


def gomoku_board(rows, **params):
    params = {"width": 7, "height": 7, "k": 5, **params}
    return GomokuPosition.from_json({"game": "gomoku", "params": params, "board": rows})


def test_open_rows_ranks_an_open_three_above_a_blocked_one():
    open_three = gomoku_board(
        ["W......", ".......", ".......", "..BBB..", ".......", ".......", "......W"]
    )
    blocked = gomoku_board(
        ["W......", ".......", ".......", ".WBBB..", ".......", ".......", "......."]
    )
    game = open_three.game
    a = evaluate(game, "open_rows", open_three)
    b = evaluate(game, "open_rows", blocked)
    assert a[0] > b[0]
    assert a[0] / (a[0] + a[1]) > b[0] / (b[0] + b[1])
    # the weights the docstring states: an open three 1000, closed at one end 100
    assert a[0] - b[0] == pytest.approx(1000 - 100)
    assert game.heuristics.get().name == "open_rows"


def test_open_rows_weights_on_single_stones():
    pos = gomoku_board(
        ["......W", ".......", ".......", "...B...", ".......", ".......", "......."]
    )
    out = evaluate(pos.game, "open_rows", pos)
    # black d4: four runs of 1 open at both ends (10 each); white g7 in the corner:
    # horizontal, vertical and one diagonal open at one end (1 each), the other blocked
    assert tuple(out[:2]) == (41.0, 4.0)


def test_rows_and_space_count_as_documented():
    pos = gomoku_board(
        ["W.....W", ".......", ".......", ".BBB...", ".......", ".......", "W..B..."]
    )
    game = pos.game
    rows = evaluate(game, "rows", pos)
    assert tuple(rows[:2]) == (1 + 10.0, 1.0)  # one three (10) for black, nothing for white
    space = evaluate(game, "space", pos)
    # black: the 3 x 5 block around b4-d4 minus its 3 stones, plus 5 around d1
    # (c1, e1, c2, d2, e2); white: 3 around each of its corner stones a7, g7, a1
    assert tuple(space[:2]) == (1 + 12 + 5, 1 + 3 + 3 + 3)


def test_tictactoe_lines_counts_open_lines():
    game = get_game("tictactoe")
    assert tuple(evaluate(game, "lines", game.start())[:2]) == (9.0, 9.0)
    # X b2, O a1: X keeps 5 lines (3 through b2 count 2, 2 empty count 1), O keeps 4
    # (row 1 and file a through a1 count 2, row 3 and file c count 1)
    pos = game.from_moves(["b2", "a1"])
    assert tuple(evaluate(game, "lines", pos)[:2]) == (1 + 8.0, 1 + 6.0)
    assert game.heuristics.get().name == "lines"


# ------------------------------------------------------------------ pictures
def test_svg_is_well_formed_and_marks_the_win():
    import xml.etree.ElementTree as ET

    for pos in (
        get_game("tictactoe").from_moves(["a1", "a2", "b1", "b2", "c1"]),
        get_game("gomoku", width=9, height=6, k=3).from_moves(["a1", "b1", "b2", "c1", "c3"]),
        get_game("gomoku").start(),
    ):
        svg = pos.svg()
        root = ET.fromstring(svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
        assert "a" in texts and "1" in texts and str(pos.height) in texts
        assert ("#e0301e" in svg) == pos.is_over
        assert pos._repr_svg_() == svg
    assert math.isclose(float(ET.fromstring(pos.svg(size=500)).get("width")), 500)
