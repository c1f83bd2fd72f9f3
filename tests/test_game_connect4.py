"""Connect Four (the ``connect4`` bitboard kernel) against independent truths.

The plain-Python rules below are written from the contract ("Other games"): a board is
a tuple of columns, each a tuple of its stones from the bottom up (1 the first player,
2 the second); a move appends to a column with room; a player wins with a line of four
cells all theirs, found by enumerating every line of four. They share no code with the
kernel, which uses Pascal Pons's bitboards and shifts.
"""

from __future__ import annotations

import math
import random
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chameleon_lab.games.connect4  # noqa: F401  (registers the game)
from chameleon_lab.games import get_game
from chameleon_lab.games.connect4 import Connect4Position
from chameleon_lab.games.connect4 import kernel as K
from chameleon_lab.games.connect4.heuristics import BIG, score_bound
from chameleon_lab.games.connect4.levels import (
    LEVEL_DEPTHS,
    choose_aggressiveness,
    heuristic_for,
    level_depth,
    level_params,
)
from chameleon_lab.games.protocol import SCORE

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------ independent rules
@cache
def fours(width: int, height: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every line of four cells as (col, row) pairs, row 0 at the bottom."""
    out = []
    for c in range(width):
        for r in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = tuple((c + i * dc, r + i * dr) for i in range(4))
                if all(0 <= x < width and 0 <= y < height for x, y in cells):
                    out.append(cells)
    return tuple(out)


def has_four(board, height, value) -> bool:
    width = len(board)
    return any(
        all(len(board[c]) > r and board[c][r] == value for c, r in f) for f in fours(width, height)
    )


def py_outcome(board, height):
    """0 / 1 (that player has four in a row), 'draw' (full board), None (going on)."""
    one, two = has_four(board, height, 1), has_four(board, height, 2)
    assert not (one and two)
    if one:
        return 0
    if two:
        return 1
    return "draw" if all(len(col) == height for col in board) else None


def py_perft_function(width, height):
    @cache
    def perft(board, depth):
        n = sum(map(len, board))
        if n and has_four(board, height, 2 - (n & 1)):
            return 1  # the previous move won
        if depth == 0 or n == width * height:
            return 1
        v = 1 + (n & 1)
        return sum(
            perft((*board[:c], board[c] + (v,), *board[c + 1 :]), depth - 1)
            for c in range(width)
            if len(board[c]) < height
        )

    return lambda depth: perft(((),) * width, depth)


def py_score(width, height, board, winner):
    """The solvers' score (Pons): 1 + the winner's stones left unplayed at the end."""
    cells = width * height
    stones_of = [(cells + 1) // 2, cells // 2]  # player 0 has the extra stone when odd
    s = sum(col.count(winner + 1) for col in board)
    return stones_of[winner] + 1 - s


def board_of(pos) -> tuple[tuple[int, ...], ...]:
    """The plain board of a position, read from its JSON (rows from the top)."""
    rows = pos.to_json()["board"]
    h = len(rows)
    values = {".": 0, "X": 1, "O": 2}
    cols = []
    for c in range(len(rows[0])):
        col = [values[rows[h - 1 - r][c]] for r in range(h)]
        cols.append(tuple(v for v in col if v))
    return tuple(cols)


def playout(pos, seed):
    """Positions of a random game from ``pos`` to its end."""
    rng = random.Random(seed)
    line = [pos]
    while not pos.is_over:
        pos = pos.play(rng.choice(pos.legal_moves))
        line.append(pos)
    return line


SIZES = [(7, 6), (4, 4), (5, 4), (4, 9), (9, 5), (5, 5), (7, 7), (6, 8), (8, 6), (5, 9), (9, 6)]


# ------------------------------------------------------------------------ perft
def test_perft_from_the_start_matches_openspiel():
    start = get_game("connect4").start()
    counts = [7, 49, 343, 2401, 16807, 117649, 823536]
    assert [start.perft(d) for d in range(1, 8)] == counts
    assert start.perft(0) == 1


@pytest.mark.parametrize(
    ("width", "height", "depth"), [(4, 4, 11), (5, 4, 9), (4, 5, 9), (7, 6, 6), (5, 5, 8)]
)
def test_perft_matches_plain_python(width, height, depth):
    start = get_game("connect4", width=width, height=height).start()
    py = py_perft_function(width, height)
    for d in range(1, depth + 1):
        assert start.perft(d) == py(d), (width, height, d)


def test_perft_of_the_whole_4x4_game():
    # every game on 4 x 4 is over by ply 16: perft(16) counts the complete games
    start = get_game("connect4", width=4, height=4).start()
    assert start.perft(16) == start.perft(20) == py_perft_function(4, 4)(16)


# ----------------------------------------------------------- rules and returns
@SETTINGS
@given(st.sampled_from(SIZES), st.integers(0, 2**32))
def test_random_playouts_end_as_the_plain_rules_say(size, seed):
    width, height = size
    line = playout(get_game("connect4", width=width, height=height).start(), seed)
    for ply, pos in enumerate(line):
        board = board_of(pos)
        outcome = py_outcome(board, height)
        assert pos.is_over == (outcome is not None)
        assert sum(col.count(1) for col in board) - sum(col.count(2) for col in board) == ply % 2
        if outcome is None:
            assert pos.to_move == ply % 2 and pos.returns is None
            assert sorted(m.code for m in pos.legal_moves) == [
                c for c in range(width) if len(board[c]) < height
            ]
    final = line[-1]
    board = board_of(final)
    outcome = py_outcome(board, height)
    info = final.game.info
    if outcome == "draw":
        assert final.returns == (0.0, 0.0) and final.winner is None
    else:
        assert outcome == (len(line) - 2) % 2  # the last mover won
        score = py_score(width, height, board, outcome)
        assert 1 <= score <= info.max_utility
        expect = [0.0, 0.0]
        expect[outcome], expect[1 - outcome] = score, -score
        assert final.returns == tuple(expect)
        assert final.winning_fours()
    assert final.legal_moves == []
    assert final.game.ops.side_to_move(final.state) == (len(line) - 1) % 2


def test_scores_of_built_games():
    game = get_game("connect4")
    info = game.info
    assert info.utility == SCORE and info.zero_sum and info.max_length == 42
    assert info.player_names == ("red", "yellow") and info.players == (0, 1)
    # a vertical four by the first player after 7 plies: s = 4, 22 - 4 = 18
    pos = game.from_moves(["1", "2", "1", "2", "1", "2", "1"])
    assert pos.is_over and pos.winner == 0 and pos.returns == (18.0, -18.0)
    assert info.max_utility == 18 and info.min_utility == -18
    assert pos.winning_fours() == [["1:1", "1:2", "1:3", "1:4"]]
    # the second player's horizontal four with its fourth stone: 22 - 4 = 18 for yellow
    pos = game.from_moves(["1", "4", "1", "5", "2", "6", "7", "3"])
    assert pos.winner == 1 and pos.returns == (-18.0, 18.0)
    assert pos.winning_fours() == [["3:1", "4:1", "5:1", "6:1"]]
    # a diagonal by the first player with its sixth stone: 22 - 6 = 16
    pos = game.from_moves(list("12233434414"))
    assert pos.winner == 0 and pos.returns == (16.0, -16.0)
    assert pos.winning_fours() == [["1:1", "2:2", "3:3", "4:4"]]


def test_draw_on_a_full_board():
    game = get_game("connect4", width=4, height=4)
    pos = game.from_moves(list("2221311324431443"))
    assert pos.to_json()["board"] == ["XXOX", "XXOO", "OOOX", "OXXO"]
    assert pos.is_over and pos.winner is None and pos.returns == (0.0, 0.0)
    assert py_outcome(board_of(pos), 4) == "draw"
    assert pos.perft(3) == 1


def test_odd_board_last_stone_win_scores_one():
    """On 5 x 5 the first player has 13 stones; a win with the 13th scores 1, not 0."""
    game = get_game("connect4", width=5, height=5)
    assert game.info.max_utility == 10  # 13 + 1 - 4
    found = None
    for seed in range(4000):
        final = playout(game.start(), seed)[-1]
        if final.winner == 0 and int(final.state[K.NMOVES]) == 25:
            found = final
            break
    assert found is not None
    assert found.returns == (1.0, -1.0)


# --------------------------------------------------------- notation and JSON
@SETTINGS
@given(st.sampled_from(SIZES), st.integers(0, 2**32), st.integers(0, 60))
def test_json_and_notation_round_trips(size, seed, cut):
    width, height = size
    line = playout(get_game("connect4", width=width, height=height).start(), seed)
    pos = line[min(cut, len(line) - 1)]
    obj = pos.to_json()
    assert obj["params"] == {"width": width, "height": height}
    again = Connect4Position.from_json(obj)
    assert again == pos and again.key == pos.key and again.to_json() == obj
    assert again.is_over == pos.is_over and again.returns == pos.returns
    lower = {**obj, "board": [row.lower() for row in obj["board"]]}
    assert Connect4Position.from_json(lower) == pos
    Connect4Position.check_state(pos.game, pos.state)
    for move in pos.legal_moves:
        text = str(move)
        assert text == str(move.code + 1) and 1 <= int(text) <= width
        assert pos.parse_move(f"  {text} ") == move


def test_notation_orientation_and_move_order():
    game = get_game("connect4")
    start = game.start()
    assert [str(m) for m in start.legal_moves] == ["4", "5", "3", "6", "2", "7", "1"]
    pos = game.from_moves(["1", "7", "1"])
    assert pos.to_json()["board"] == [
        ".......",
        ".......",
        ".......",
        ".......",
        "X......",
        "X.....O",
    ]
    assert pos.to_move == 1
    assert [str(m) for m in get_game("connect4", width=4).start().legal_moves] == [
        "2",
        "3",
        "1",
        "4",
    ]


def test_transpositions_have_equal_keys_and_different_positions_different_ones():
    game = get_game("connect4")
    a = game.from_moves(["4", "3", "5", "3"])
    b = game.from_moves(["5", "3", "4", "3"])
    assert a == b and a.key == b.key
    assert a.key != game.from_moves(["4", "3", "3", "5"]).key  # colours swapped
    # every distinct board up to 5 plies has its own key
    seen: dict[int, tuple] = {}
    level = [game.start()]
    for _ in range(5):
        nxt = []
        for pos in level:
            for child in pos.successors():
                board = board_of(child)
                assert seen.setdefault(child.key, board) == board
                nxt.append(child)
        level = list({p.key: p for p in nxt}.values())
    assert len(seen) > 1000
    # another size keys the same stones differently
    small = get_game("connect4", width=7, height=7).from_moves(["4", "3", "5", "3"])
    assert small.key != a.key


def test_kernel_make_unmake_restores_the_state():
    game = get_game("connect4")
    pos = game.from_moves(list("4453"))
    state = pos.state.copy()
    undo = np.zeros((1, K.UNDO_SIZE), dtype=np.int64)
    for m in pos.legal_moves:
        game.ops.make(state, m.code, undo, 0)
        game.ops.unmake(state, undo, 0)
        assert np.array_equal(state, pos.state)


# ------------------------------------------------------------------ bad inputs
@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("0", "column 0 is off the board.*1..7"),
        ("8", "column 8 is off the board.*1..7"),
        ("-1", "column -1 is off the board"),
        ("a", "'a' is not a move.*1..7"),
        ("", "'' is not a move"),
        ("1 2", "'1 2' is not a move"),
        ("1.5", "'1.5' is not a move"),
        ("d1", "'d1' is not a move"),
        ("pass", "no pass in Connect Four"),
        (" PASS ", "no pass in Connect Four"),
    ],
)
def test_bad_moves_are_refused_naming_them(text, needle):
    pos = get_game("connect4").start()
    with pytest.raises(ValueError, match=needle):
        pos.play(text)


def test_full_column_and_finished_game_are_refused():
    game = get_game("connect4", width=5, height=4)
    pos = game.from_moves(["3", "3", "3", "3"])
    with pytest.raises(ValueError, match="column 3 is full; columns with room: 4, 2, 5, 1"):
        pos.play("3")
    with pytest.raises(ValueError, match="move 5"):
        game.from_moves(["3"] * 5)
    won = get_game("connect4").from_moves(list("1212121"))
    with pytest.raises(ValueError, match="game is over"):
        won.play("3")
    with pytest.raises(TypeError):
        won.play(3)


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"width": 3}, "width=3.*4..9"),
        ({"width": 10}, "width=10.*4..9"),
        ({"height": 3}, "height=3.*4..9"),
        ({"height": 10}, "height=10.*4..9"),
        ({"width": 7.0}, "width=7.0"),
        ({"width": "7"}, "width='7'"),
        ({"height": True}, "height=True"),
        ({"width": 9, "height": 7}, r"width=9, height=7.*72.*at most 63.*bitboard"),
        ({"width": 8, "height": 8}, r"width \* \(height \+ 1\) = 72"),
        ({"depth": 3}, "no parameter 'depth'"),
    ],
)
def test_bad_params_are_refused(params, needle):
    with pytest.raises(ValueError, match=needle):
        get_game("connect4", **params)


def test_every_allowed_size_builds():
    for w in range(4, 10):
        for h in range(4, 10):
            if w * (h + 1) <= 63:
                pos = get_game("connect4", width=w, height=h).start()
                assert pos.perft(2) == w * w and pos.game.ops.max_moves == w
            else:
                with pytest.raises(ValueError, match="at most 63"):
                    get_game("connect4", width=w, height=h)


C44 = {"game": "connect4", "params": {"width": 4, "height": 4}}


@pytest.mark.parametrize(
    ("board", "needle"),
    [
        (["...."] * 3, "3 rows"),
        (["...."] * 3 + ["....."], "5 characters"),
        (["...."] * 3 + ["..B."], "unknown character 'B' in column 3"),
        (["....", "....", "X...", "...."], "column 1 has a floating stone in row 2"),
        (["....", "O...", "....", "X..."], "column 1 has a floating stone in row 3"),
        (["...."] * 3 + ["O..."], r"yellow \(O\) has more stones"),
        (["...."] * 3 + ["XX.."], r"red \(X\) has 2 stones and yellow \(O\) only 0"),
        (["...."] * 3 + ["XXXX"], r"red \(X\) has 4 stones"),
        (["....", "....", "OOOO", "XXXX"], "both red and yellow have four in a row"),
        (["....", "O...", "OOO.", "XXXX"], "yellow has played since.*went on after a win"),
        (["....", "..O.", "OOXO", "XXXX"], "last stone dropped.*went on after a win"),
        (["....", "....", "X...", "O..."], "cannot have been dropped in turn"),
        (["....", "X...", "O...", "O..X"], "cannot have been dropped in turn"),
        ("XXXX", "malformed"),
        (["....", 4, "....", "...."], "malformed"),
    ],
)
def test_impossible_boards_are_refused(board, needle):
    with pytest.raises(ValueError, match=needle):
        Connect4Position.from_json({**C44, "board": board})


def test_won_boards_are_accepted_from_json():
    # the four completed by the last stone, also in the middle of a line
    pos = Connect4Position.from_json({**C44, "board": ["....", "....", "OO.O", "XX.X"]})
    assert not pos.is_over and pos.to_move == 0
    won = pos.play("3")
    again = Connect4Position.from_json(won.to_json())
    assert again == won and again.is_over and again.returns == (5.0, -5.0)  # 8 + 1 - 4
    assert py_score(4, 4, board_of(won), 0) == 5


def test_malformed_json_objects_are_refused():
    with pytest.raises(ValueError, match='needs "board"'):
        Connect4Position.from_json(C44)
    with pytest.raises(ValueError, match="'to_move'"):
        Connect4Position.from_json({**C44, "board": ["...."] * 4, "to_move": 0})
    with pytest.raises(ValueError, match="width=3"):
        Connect4Position.from_json({"game": "connect4", "params": {"width": 3}, "board": []})
    with pytest.raises(ValueError, match="connect4"):
        Connect4Position.from_json({"game": "gomoku", "board": ["...."] * 4})


def test_bad_kernel_states_are_refused():
    game = get_game("connect4")
    good = game.from_moves(["4", "4", "3"]).state.copy()
    for index, value, needle in [
        (K.NMOVES, 2, "counts 2 stones"),
        (K.WINNER, 0, "winner field"),
        (K.MASK, int(good[K.MASK]) | (1 << 6), "outside the board"),  # a sentinel bit
        (K.MASK, int(good[K.MASK]) | (1 << 2), "column 1 has a floating stone"),
        (K.POSITION, int(good[K.POSITION]) | 1, "outside its mask"),
        (K.W, 6, "width, height"),
        (K.SALT, 1, "salt"),
    ]:
        bad = good.copy()
        bad[index] = value
        with pytest.raises(ValueError, match=needle):
            Connect4Position(game, bad)


# ------------------------------------------------------------------ heuristics
HEURISTICS = [
    "aggressive1",
    "aggressive2",
    "aggressive3",
    "aggressive4",
    "aggressive5",
    "lines",
    "weighted_lines",
]


def evaluate(pos, name):
    out = np.full(4, np.nan)
    pos.game.heuristics.get(name).function(pos.state, out)
    return out


def plain_count(board, height, player):
    """The seed's count: per own stone, the lines of four through it without an opponent
    stone (a line with k own stones counts k)."""
    width = len(board)
    own, opp = player + 1, 2 - player
    total = 0
    for f in fours(width, height):
        cells = [board[c][r] if len(board[c]) > r else 0 for c, r in f]
        if opp not in cells:
            total += cells.count(own)
    return total


def plain_weighted(board, height, player):
    width = len(board)
    own, opp = player + 1, 2 - player
    weight = {0: 0, 1: 1, 2: 4, 3: 16, 4: 44}
    total = 0
    for f in fours(width, height):
        cells = [board[c][r] if len(board[c]) > r else 0 for c, r in f]
        if opp not in cells:
            total += weight[cells.count(own)]
    return total


def test_registry_and_default():
    game = get_game("connect4")
    # other tests of the same process may have registered their own after the built-ins
    builtins = [n for n in game.heuristics.names if game.heuristics.get(n).builtin]
    assert builtins == HEURISTICS
    assert game.heuristics.get(None).name == "aggressive3"


def test_a_lone_corner_stone_counts_three():
    pos = get_game("connect4").from_moves(["1"])  # the seed's example
    assert evaluate(pos, "lines").tolist() == [4.0, 1.0, 0.0, 0.0]
    assert evaluate(pos, "weighted_lines").tolist() == [4.0, 1.0, 0.0, 0.0]
    centre = get_game("connect4").from_moves(["4"])  # 4 horizontal, 1 vertical, 2 diagonal
    assert evaluate(centre, "lines")[0] == 1 + 7


WEIGHTS = {  # (weight of the mover's count, of the other's)
    "aggressive1": (1.0, BIG),
    "aggressive2": (1.0, 2.0),
    "aggressive3": (1.0, 1.0),
    "aggressive4": (2.0, 1.0),
    "aggressive5": (BIG, 1.0),
    "lines": (1.0, 1.0),
}


@SETTINGS
@given(st.sampled_from(SIZES), st.integers(0, 2**32), st.integers(0, 60))
def test_heuristics_are_the_plain_counts_finite_and_positive(size, seed, cut):
    width, height = size
    line = playout(get_game("connect4", width=width, height=height).start(), seed)
    pos = line[min(cut, len(line) - 1)]
    board = board_of(pos)
    p = int(pos.state[K.NMOVES]) % 2
    counts = [plain_count(board, height, 0), plain_count(board, height, 1)]
    assert max(counts) < BIG / 16  # lexicographic weights stay lexicographic
    for name in HEURISTICS:
        out = evaluate(pos, name)
        assert np.all(np.isfinite(out)) and out[0] >= 1 and out[1] >= 1
        assert out[2] == out[3] == 0
        assert out[0] <= score_bound(width, height) and out[1] <= score_bound(width, height)
        if name == "weighted_lines":
            expect = [1 + plain_weighted(board, height, q) for q in (0, 1)]
        else:
            w_own, w_opp = WEIGHTS[name]
            expect = [0.0, 0.0]
            expect[p] = 1 + w_own * counts[p]
            expect[1 - p] = 1 + w_opp * counts[1 - p]
        assert out[:2].tolist() == expect, name
    state = pos.state.copy()
    evaluate(pos, "aggressive5")
    assert np.array_equal(state, pos.state)


def negamax(pos, depth, name):
    """Plain fixed-depth negamax with the searches' leaf value ``out[me] - out[other]``."""
    if pos.is_over:
        r = pos.returns
        me = int(pos.game.ops.side_to_move(pos.state))
        return 1e9 * (r[me] - r[1 - me])
    if depth == 0:
        out = evaluate(pos, name)
        return out[pos.to_move] - out[1 - pos.to_move]
    return max(-negamax(child, depth - 1, name) for child in pos.successors())


def preferred(pos, name, depth=2):
    children = zip(pos.legal_moves, pos.successors(), strict=True)
    values = {str(m): -negamax(c, depth - 1, name) for m, c in children}
    best = max(values.values())
    return {m for m, v in values.items() if v == best}


def test_aggressive5_and_aggressive1_prefer_different_moves():
    """Red has dropped one stone into the corner (column 1); yellow looks 2 plies ahead.

    * ``aggressive5`` (own chances; red's count only breaks ties) drops into the centre,
      column 4: whatever red replies, yellow keeps a count of at least 3 there (red's
      best spoiling reply, column 5, leaves yellow 3), more than any other column
      guarantees (2 at most).
    * ``aggressive1`` (spoil red's chances first) drops next to red's stone, column 2:
      whatever red replies, red then counts at most 7, while after yellow's centre
      stone red reaches 11 by dropping on top of it (column 4).
    """
    game = get_game("connect4")
    pos = game.from_moves(["1"])
    assert preferred(pos, "aggressive5") == {"4"}
    assert preferred(pos, "aggressive1") == {"2"}
    centre, beside = pos.play("4"), pos.play("2")

    def counts_after(child, reply):
        board = board_of(child.play(reply))
        return plain_count(board, 6, 0), plain_count(board, 6, 1)  # (red, yellow)

    assert min(counts_after(centre, str(r))[1] for r in range(1, 8)) == 3
    assert counts_after(centre, "5")[1] == 3
    assert max(counts_after(centre, str(r))[0] for r in range(1, 8)) == 11
    assert counts_after(centre, "4")[0] == 11
    assert max(counts_after(beside, str(r))[0] for r in range(1, 8)) == 7
    assert (
        max(min(counts_after(pos.play(str(m)), str(r))[1] for r in range(1, 8)) for m in "123567")
        == 2
    )


def test_odd_depths_mirror_the_aggressiveness():
    """At 3 plies the leaves are scored for the opponent: aggressive(6 - N) there plays
    as aggressiveN does for the root player (same values, negated twice)."""
    game = get_game("connect4")
    pos = game.from_moves(["4", "4", "3"])
    for child in pos.successors():
        for grand in child.successors():
            o1, o5 = evaluate(grand, "aggressive1"), evaluate(grand, "aggressive5")
            me = grand.to_move
            # the root player (not to move at the leaf) sees -(out[me] - out[other])
            v1 = -(o1[me] - o1[1 - me])
            v5 = o5[1 - me] - o5[me]
            board = board_of(grand)
            c_root, c_leaf = plain_count(board, 6, 1 - me), plain_count(board, 6, me)
            assert v1 == BIG * c_root - c_leaf  # aggressive5's weighting for the root
            assert v5 == c_root - BIG * c_leaf  # aggressive1's


# ---------------------------------------------------------------------- levels
def test_level_depths_follow_the_seed():
    assert [level_depth(n) for n in range(1, 8)] == [2, 4, 6, 7, 8, 9, 10]
    assert all(level_depth(n) == d for n, d in LEVEL_DEPTHS.items())
    for bad in (0, -1, 1.0, "1", True):
        with pytest.raises(ValueError, match="level must be a whole number >= 1"):
            level_depth(bad)


def test_level_params():
    assert level_params(1, 5) == {
        "algorithm": "alphabeta",
        "game": "connect4",
        "depth": 2,
        "heuristic": "aggressive5",
        "options": {"ordering": True},
    }
    assert level_params(3, 2)["heuristic"] == "aggressive2"
    assert level_params(4, 2) == {**level_params(4, 2), "depth": 7, "heuristic": "aggressive4"}
    assert heuristic_for(1, 9) == "aggressive5" and heuristic_for(3, 7) == "aggressive3"
    names = get_game("connect4").heuristics
    assert all(level_params(lv, a)["heuristic"] in names for lv in range(1, 7) for a in range(1, 6))
    with pytest.raises(ValueError, match=r"aggressiveness must be a whole number 1\.\.5"):
        level_params(1, 6)
    with pytest.raises(ValueError, match="level"):
        level_params(0, 3)


def test_choose_aggressiveness_avoids_the_losers_where_possible():
    rng = np.random.default_rng(1)
    seen = {choose_aggressiveness(rng, set()) for _ in range(200)}
    assert seen == {1, 2, 3, 4, 5}
    assert {choose_aggressiveness(rng, {1, 2, 4}) for _ in range(100)} == {3, 5}
    assert {choose_aggressiveness(rng, {1, 2, 3, 4}) for _ in range(20)} == {5}
    assert {choose_aggressiveness(rng, {1, 2, 3, 4, 5}) for _ in range(200)} == {1, 2, 3, 4, 5}
    assert choose_aggressiveness(random.Random(3), {2}) in {1, 3, 4, 5}
    with pytest.raises(ValueError, match=r"1\.\.5"):
        choose_aggressiveness(rng, {0})


def test_solver_score_bounds_are_true():
    for w, h in SIZES:
        info = get_game("connect4", width=w, height=h).info
        assert info.max_utility == -info.min_utility == (w * h + 1) // 2 - 3
        assert info.max_utility <= w * h // 2
        assert math.isfinite(info.max_utility)


def test_the_librarys_alphabeta_agents_choose_as_the_plain_negamax():
    from chameleon_lab.agents import Agent

    pos = get_game("connect4").from_moves(["1"])
    assert str(Agent(**level_params(1, 5)).choose(pos).move) == "4"
    assert str(Agent(**level_params(1, 1)).choose(pos).move) == "2"


def test_small_boards_are_draws_with_perfect_play():
    """John Tromp's table: 4 x 4 and 5 x 4 Connect Four are draws."""
    from chameleon_lab.search.solve import solve

    for width in (4, 5):
        assert solve(get_game("connect4", width=width, height=4).start()).value == 0.0


def test_svg_picture():
    game = get_game("connect4")
    start = game.start().svg()
    assert start.startswith("<svg") and start.endswith("</svg>")
    assert start.count("<circle") == 42 and "red to move" in start
    assert all(f">{c}</text>" in start for c in range(1, 8))
    won = game.from_moves(list("1212121"))
    pic = won.svg()
    assert "red won" in pic and pic.count('class="win"') == 4
    assert pic.count("#d7261e") == 4 and pic.count("#f5d000") == 3
    assert (
        "draw" in get_game("connect4", width=4, height=4).from_moves(list("2221311324431443")).svg()
    )
