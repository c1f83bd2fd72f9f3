"""Othello (and its Reversi variant) against independent truths.

The truths: the published perft counts of Othello from the standard start (OEIS
A124004), and a plain-Python implementation of the rules written below from the
contract ("Other games") and seed 003: a board is a tuple of 64 cells ``row * 8 +
col`` (row 0 is rank 1, the top), 0 empty, 1 black, 2 white; a placement walks the 8
directions square by square. It shares no code with the bitboard kernel.
"""

from __future__ import annotations

import itertools
import random
import xml.etree.ElementTree as ET
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chameleon_lab.games.othello  # noqa: F401  (registers the game)
from chameleon_lab.games import get_game
from chameleon_lab.games.othello import OthelloPosition
from chameleon_lab.games.othello import kernel as K

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DIRS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
CENTRE = (27, 28, 35, 36)  # d4 e4 d5 e5


# ------------------------------------------------------------ independent rules
def name(sq: int) -> str:
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def py_start(variant="othello"):
    board = [0] * 64
    if variant == "othello":
        board[27] = board[36] = 2  # white d4 e5
        board[35] = board[28] = 1  # black d5 e4
    return tuple(board), 0  # (board, side: 0 black, 1 white)


def py_flips(board, sq, side):
    """The squares a disc of ``side`` on empty ``sq`` flips, walking each direction."""
    own, opp = side + 1, 2 - side
    out = []
    r0, c0 = divmod(sq, 8)
    for dr, dc in DIRS:
        run = []
        r, c = r0 + dr, c0 + dc
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == opp:
            run.append(r * 8 + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == own:
            out += run
    return sorted(out)


def py_placements(board, side):
    return {sq: f for sq in range(64) if board[sq] == 0 and (f := py_flips(board, sq, side))}


def py_legal(board, side, variant):
    """{move name: flipped squares}; {"pass": []} for a forced pass; {} once over."""
    if variant == "reversi" and sum(v != 0 for v in board) < 4:
        return {name(sq): [] for sq in CENTRE if board[sq] == 0}
    mine = py_placements(board, side)
    if mine:
        return {name(sq): f for sq, f in mine.items()}
    return {"pass": []} if py_placements(board, 1 - side) else {}


def py_play(board, side, move, variant):
    flipped = py_legal(board, side, variant)[move]
    board = list(board)
    if move != "pass":
        sq = "abcdefgh".index(move[0]) + 8 * (int(move[1]) - 1)
        board[sq] = side + 1
        for f in flipped:
            board[f] = side + 1
    return tuple(board), 1 - side


def py_perft(variant, depth):
    @cache
    def perft(board, side, d):
        legal = py_legal(board, side, variant)
        if d == 0 or not legal:
            return 1
        return sum(perft(*py_play(board, side, m, variant), d - 1) for m in legal)

    return perft(*py_start(variant), depth)


def py_returns(board):
    b, w = board.count(1), board.count(2)
    e = 64 - b - w
    b, w = (b + e, w) if b > w else (b, w + e) if w > b else (b, w)
    return (float(b - w), float(w - b))


def board_of(pos) -> tuple[int, ...]:
    return tuple(v for row in pos.grid() for v in row)


def playout(pos, seed, cut=None):
    rng = random.Random(seed)
    line = [pos]
    while not pos.is_over and (cut is None or len(line) <= cut):
        pos = pos.play(rng.choice(pos.legal_moves))
        line.append(pos)
    return line


def from_board(rows, to_move=0, variant="othello"):
    return OthelloPosition.from_json(
        {"game": "othello", "params": {"variant": variant}, "board": rows, "to_move": to_move}
    )


# ------------------------------------------------------------------- counts
def test_perft_from_the_standard_start_is_the_published_count():
    start = get_game("othello").start()
    published = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284]
    assert [start.perft(d) for d in range(len(published))] == published
    assert [py_perft("othello", d) for d in range(6)] == published[:6]


def test_reversi_perft_matches_the_plain_rules():
    start = get_game("othello", variant="reversi").start()
    expect = [py_perft("reversi", d) for d in range(1, 7)]
    assert expect[:4] == [4, 12, 24, 24]  # the 4! orders of the centre placements
    assert [start.perft(d) for d in range(1, 7)] == expect


# ------------------------------------------------------------------- playouts
@SETTINGS
@given(st.sampled_from(["othello", "reversi"]), st.integers(0, 2**32))
def test_random_playouts_follow_the_plain_rules(variant, seed):
    pos = get_game("othello", variant=variant).start()
    board, side = py_start(variant)
    rng = random.Random(seed)
    plies = 0
    while True:
        assert board_of(pos) == board
        legal = py_legal(board, side, variant)
        assert {str(m) for m in pos.legal_moves} == set(legal)
        assert pos.is_over == (not legal)
        assert pos.key == K.key_from_scratch(pos.black, pos.white, side)
        if not legal:
            break
        assert pos.to_move == side and pos.returns is None
        flips = pos.flip_counts()
        assert flips == {m: len(f) for m, f in legal.items() if m != "pass"}
        move = rng.choice(sorted(legal))
        pos = pos.play(move)
        board, side = py_play(board, side, move, variant)
        plies += 1
    assert pos.returns == py_returns(board)
    assert plies <= pos.game.info.max_length
    assert pos.legal_moves == [] and pos.to_move == -1
    assert pos.game.ops.side_to_move(pos.state) == side


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), st.floats(0.0, 1.0), st.integers(0, 1))
def test_mobility_and_can_move_follow_the_plain_rules(seed, empty, side):
    # random boards of every fill, from nearly empty to full (where neither side moves)
    rng = random.Random(seed)
    board = tuple(0 if rng.random() < empty else rng.choice((1, 2)) for _ in range(64))
    bits = [sum(1 << sq for sq in range(64) if board[sq] == colour) for colour in (1, 2)]
    own, opp = np.uint64(bits[side]), np.uint64(bits[1 - side])
    placements = py_placements(board, side)
    assert int(K.mobility(own, opp)) == sum(1 << sq for sq in placements)
    assert bool(K.can_move(own, opp)) == bool(placements)


def forced_pass_position():
    """The first position of a seeded random game where the side to move must pass."""
    game = get_game("othello")
    for seed in range(1000):
        for pos in playout(game.start(), seed):
            if [str(m) for m in pos.legal_moves] == ["pass"]:
                return pos
    raise AssertionError("no pass found")


def test_pass_is_the_only_move_and_hands_the_turn_over():
    pos = forced_pass_position()
    side = pos.to_move
    after = pos.play("PASS")
    assert after.to_move == 1 - side and board_of(after) == board_of(pos)
    assert after.legal_moves and "pass" not in [str(m) for m in after.legal_moves]
    with pytest.raises(ValueError, match=r"flips no disc.*must play pass"):
        pos.play(str(after.legal_moves[0]))  # the opponent's square is not ours


# ------------------------------------------------------------------- scores
def test_empty_squares_go_to_the_winner():
    # a1 empty; row 1, file a and the long diagonal white; the rest black: no one moves
    rows = []
    for r in range(8):
        row = ""
        for c in range(8):
            row += "." if r == c == 0 else "W" if r == 0 or c == 0 or r == c else "B"
        rows.append(row)
    pos = from_board(rows)
    assert pos.is_over and pos.disc_counts() == (42, 21)
    assert pos.returns == (22.0, -22.0)  # 43 - 21: the empty a1 counts for black
    swapped = from_board([r.translate(str.maketrans("BW", "WB")) for r in rows], to_move=1)
    assert swapped.returns == (-22.0, 22.0)
    # a wipe-out: white has no disc left, black takes every square
    wiped = from_board(["........", "........", "...B....", "...BB...", "...BB...", *["." * 8] * 3])
    assert wiped.is_over and wiped.returns == (64.0, -64.0)


def test_a_tie_leaves_the_empty_squares_to_nobody():
    state = K.new_state()
    board = [1 if 1 <= sq <= 31 else 2 if sq >= 33 else 0 for sq in range(64)]  # 31 : 31
    state[K.BLACK] = K.as_int64(sum(1 << sq for sq in range(64) if board[sq] == 1))
    state[K.WHITE] = K.as_int64(sum(1 << sq for sq in range(64) if board[sq] == 2))
    out = np.full(4, np.nan)
    K.returns(state, out)
    assert tuple(out) == (0.0, 0.0, 0.0, 0.0) == (*py_returns(tuple(board)), 0.0, 0.0)
    board[0] = 1  # 32 : 31 with one empty square: black takes it, 33 - 31
    state[K.BLACK] |= 1
    K.returns(state, out)
    assert tuple(out[:2]) == (2.0, -2.0) == py_returns(tuple(board))


def test_game_info():
    info = get_game("othello").info
    assert info.players == (0, 1) and info.player_names == ("black", "white")
    assert info.zero_sum and info.has_pass and info.utility == "score"
    assert (info.min_utility, info.max_utility) == (-64.0, 64.0)
    assert info.max_length == 120
    assert get_game("othello", variant="reversi").info.max_length == 124
    assert get_game("othello").heuristics.get().name == "hard"


# ------------------------------------------------------------------- notation
def test_black_opens_with_d3_c4_f5_e6():
    start = get_game("othello").start()
    assert sorted(str(m) for m in start.legal_moves) == ["c4", "d3", "e6", "f5"]
    assert start.to_json()["board"][3:5] == ["...WB...", "...BW..."]  # rank 4, rank 5
    after = start.play(" D3 ")
    assert after.grid()[2][3] == 1 and after.grid()[3][3] == 1  # d3 placed, d4 flipped
    assert start.parse_move("d3").code == 19 and start.move_text(63) == "h8"
    reversi = get_game("othello", variant="reversi").start()
    assert sorted(str(m) for m in reversi.legal_moves) == ["d4", "d5", "e4", "e5"]


@SETTINGS
@given(st.sampled_from(["othello", "reversi"]), st.integers(0, 2**32), st.integers(0, 70))
def test_json_and_notation_round_trips(variant, seed, cut):
    line = playout(get_game("othello", variant=variant).start(), seed, cut)
    pos = line[-1]
    data = pos.to_json()
    again = OthelloPosition.from_json(data)
    assert again == pos and again.key == pos.key and again.to_json() == data
    assert data["params"] == {"variant": variant} and data["to_move"] in (0, 1)
    assert len(data["board"]) == 8 and all(len(r) == 8 for r in data["board"])
    for move in pos.legal_moves:
        assert pos.parse_move(str(move)) == move
        assert pos.parse_move(f" {str(move).upper()}  ") == move
    moves = [str(m) for m in pos.legal_moves]
    assert pos.game.from_moves([str(p) for p in _moves_between(line)]) == pos
    assert moves == sorted(moves, key=lambda m: (m != "pass", m[1:], m[0]))


def _moves_between(line):
    out = []
    for a, b in itertools.pairwise(line):
        out.append(next(m for m, s in zip(a.legal_moves, a.successors(), strict=True) if s == b))
    return out


def test_transpositions_have_equal_keys():
    game = get_game("othello")
    start = game.start()
    seen: dict[tuple, list] = {}
    level = [(start, [])]
    for _ in range(4):
        nxt = []
        for pos, moves in level:
            for m, child in zip(pos.legal_moves, pos.successors(), strict=True):
                nxt.append((child, [*moves, str(m)]))
        level = nxt
    for pos, moves in level:
        seen.setdefault((board_of(pos), pos.to_move), []).append((pos, moves))
    merged = [v for v in seen.values() if len(v) > 1]
    assert merged, "some 4-ply lines transpose"
    for group in merged:
        assert len({p.key for p, _ in group}) == 1
        assert len({tuple(m) for _, m in group}) == len(group)
    keys = {v[0][0].key for v in seen.values()}
    assert len(keys) == len(seen)  # distinct positions, distinct keys


# ------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("pass", r"pass is legal only when black has no move; legal moves: d3, c4, f5, e6"),
        ("i1", "'i1' is off the 8 x 8 board"),
        ("a9", "'a9' is off the 8 x 8 board"),
        ("a0", "'a0' is off"),
        ("", "'' is not a move.*'d3'.*'pass'"),
        ("d 3", "'d 3' is not a move"),
        ("3d", "'3d' is not a move"),
        ("a1", r"a1 flips no disc.*legal moves: d3, c4, f5, e6"),
        ("c3", "c3 flips no disc"),
        ("d4", r"d4 is occupied \(by white\)"),
        ("E4", r"e4 is occupied \(by black\)"),
    ],
)
def test_bad_moves_are_refused_naming_them(text, needle):
    with pytest.raises(ValueError, match=needle):
        get_game("othello").start().play(text)


def test_bad_moves_in_the_reversi_opening_and_after_the_end():
    reversi = get_game("othello", variant="reversi").start().play("e4")
    with pytest.raises(ValueError, match=r"c3 is not a free centre square.*d4, d5, e4, e5"):
        reversi.play("c3")
    with pytest.raises(ValueError, match=r"e4 is occupied \(by black\)"):
        reversi.play("e4")
    with pytest.raises(ValueError, match="pass is legal only"):
        reversi.play("pass")
    with pytest.raises(TypeError):
        reversi.play(5)
    over = playout(get_game("othello").start(), 3)[-1]
    for move in ("a1", "pass"):
        with pytest.raises(ValueError, match="game is over"):
            over.play(move)
    with pytest.raises(ValueError, match="move 2"):
        get_game("othello").from_moves(["d3", "d3"])


@pytest.mark.parametrize("variant", ["classic", "Othello", 1, None])
def test_unknown_variants_are_refused(variant):
    with pytest.raises(ValueError, match=r"variant=.*valid variants: othello, reversi"):
        get_game("othello", variant=variant)
    with pytest.raises(ValueError, match="size"):
        get_game("othello", size=6)


START_ROWS = ["........", "........", "........", "...WB...", "...BW...", *["." * 8] * 3]


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"board": START_ROWS[:7]}, "7 rows, not 8"),
        ({"board": [*START_ROWS[:7], "......."]}, "7 characters, not 8"),
        ({"board": [*START_ROWS[:7], ".......X"]}, "unknown character 'X' at h8"),
        ({"board": "........"}, "malformed"),
        ({"to_move": 2}, "to_move 2 is not 0"),
        ({"to_move": True}, "to_move True"),
        ({"colour": 1}, "unknown field.*'colour'"),
        (
            {"board": ["." * 8] * 3 + ["...WB...", "...B....", *["." * 8] * 3]},
            "3 discs.*at least 4",
        ),
        ({"board": [*START_ROWS[:3], "...BB...", "...BB...", *START_ROWS[5:]]}, "is the start"),
        ({"to_move": 1}, "white to move: after the four starting discs black"),
        ({"board": ["B.......", *START_ROWS[1:]]}, "one connected group"),
        ({"params": {"variant": "chess"}}, "valid variants: othello, reversi"),
    ],
)
def test_impossible_or_malformed_positions_are_refused(change, needle):
    data = {"game": "othello", "board": START_ROWS, "to_move": 0, **change}
    with pytest.raises(ValueError, match=needle):
        OthelloPosition.from_json(data)


@pytest.mark.parametrize(
    ("rows", "to_move", "needle"),
    [
        (["." * 8] * 3 + ["...W....", *["." * 8] * 4], 0, "after 1 discs black has 1"),
        (["." * 8] * 3 + ["...B....", *["." * 8] * 4], 0, "white is to move"),
        (["B......."] + ["." * 8] * 7, 1, "go on the centre squares"),
        (["." * 8] * 3 + ["...BB...", "...BW...", *["." * 8] * 3], 0, "two centre discs"),
    ],
)
def test_impossible_reversi_openings_are_refused(rows, to_move, needle):
    with pytest.raises(ValueError, match=needle):
        from_board(rows, to_move, "reversi")


def test_missing_fields_and_bad_states_are_refused():
    with pytest.raises(ValueError, match='needs "to_move"'):
        OthelloPosition.from_json({"game": "othello", "board": START_ROWS})
    with pytest.raises(ValueError, match='needs "board"'):
        OthelloPosition.from_json({"game": "othello", "to_move": 0})
    game = get_game("othello")
    good = game.start().state.copy()
    bad = good.copy()
    bad[K.WHITE] |= 1 << 28
    with pytest.raises(ValueError, match=r"share the square.*e4"):
        OthelloPosition(game, bad)
    bad = good.copy()
    bad[K.VARIANT] = 1
    with pytest.raises(ValueError, match="variant field"):
        OthelloPosition(game, bad)
    bad = good.copy()
    bad[K.SIDE] = 3
    with pytest.raises(ValueError, match="side to move is 3"):
        OthelloPosition(game, bad)
    with pytest.raises(ValueError, match="4 entries"):
        OthelloPosition(game, good[:3])
    # the corner h8 is the sign bit of the stored board: it reads back as a square
    rows = [*START_ROWS[:5], ".....B..", "......B.", ".......W"]
    pos = from_board(rows, 1)
    assert pos.state[K.WHITE] < 0 and pos.grid()[7][7] == 2 and pos.to_json()["board"] == rows


# ------------------------------------------------------------------ heuristics
def evaluate(game, h, pos):
    out = np.full(4, np.nan)
    state = pos.state.copy()
    game.heuristics.get(h).function(state, out)
    assert np.array_equal(state, pos.state), "a heuristic changed the state"
    return out


@SETTINGS
@given(st.sampled_from(["othello", "reversi"]), st.integers(0, 2**32), st.integers(0, 130))
def test_heuristics_are_finite_and_positive(variant, seed, cut):
    game = get_game("othello", variant=variant)
    pos = playout(game.start(), seed, cut)[-1]
    assert sorted(game.heuristics) == ["discs", "hard", "mobility", "uniform"]
    for h in game.heuristics:
        out = evaluate(game, h, pos)
        assert np.all(np.isfinite(out)) and out[0] >= 1 and out[1] >= 1, (h, out)
        assert out[2] == 0 and out[3] == 0
        assert max(out) * 10 <= game.ops.terminal_scale


def test_heuristics_score_as_documented():
    game = get_game("othello")
    start = game.start()
    assert tuple(evaluate(game, "discs", start)[:2]) == (3.0, 3.0)
    assert tuple(evaluate(game, "medium", start)[:2]) == (3.0, 3.0)
    assert tuple(evaluate(game, "mobility", start)[:2]) == (5.0, 5.0)
    assert tuple(evaluate(game, "hard", start)[:2]) == (63.0, 63.0)  # opening: 65 - discs
    # opening wipe-out: white to move takes black's only disc e4 with f4 (d4 W ... e4 B)
    threat = from_board(["." * 8] * 3 + ["..WWB...", "...WW...", *["." * 8] * 3], to_move=1)
    assert tuple(evaluate(game, "hard", threat)[:2]) == (1.0, 65.0 - 4 + 1000.0)
    # midgame (21..54 discs): 100 + square weights
    rows = [
        "B.......",
        ".B.....W",
        "..BBBBW.",
        "..WWWW..",
        "..BBBB..",
        "..WWWW..",
        "..BB....",
        "........",
    ]
    mid = from_board(rows)
    assert sum(mid.disc_counts()) == 22
    # black: a1 corner 25, b2 X-square of a taken corner 0, eight sweet-16 discs 8, c7 d7
    # (inner ring) -2; white: h2 C-square of the empty corner h1 -4, g3 (inner ring) -1,
    # eight sweet-16 discs 8
    assert tuple(evaluate(game, "hard", mid)[:2]) == (100.0 + 25 + 0 + 8 - 2, 100.0 - 4 - 1 + 8)
    mid_x = from_board(["." * 8, *rows[1:]])  # b2 now next to an empty corner: -12
    assert evaluate(game, "hard", mid_x)[0] == 100.0 - 12 + 8 - 2
    # endgame (<= 10 empty squares): 1 + discs
    end = from_board(["BBBBBBBB"] * 3 + ["WWWWWWWW"] * 3 + ["BBBBBBWW", "B.....WW"], to_move=1)
    nb, nw = end.disc_counts()
    assert tuple(evaluate(game, "hard", end)[:2]) == (1.0 + nb, 1.0 + nw)
    assert tuple(evaluate(game, "uniform", end)[:2]) == (1.0, 1.0)


# ------------------------------------------------------------------ pictures
def test_svg_shows_board_coordinates_and_legal_moves():
    ns = "{http://www.w3.org/2000/svg}"
    start = get_game("othello").start()
    root = ET.fromstring(start.svg())
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert set("abcdefgh") <= set(texts) and {str(i) for i in range(1, 9)} <= set(texts)
    legal = [c for c in root.iter(f"{ns}circle") if c.get("class") == "legal"]
    assert len(legal) == 4
    assert "#1f8a4c" in start.svg()  # the green board
    root = ET.fromstring(start.play("d3").svg(size=500, flips=True))
    assert float(root.get("width")) == 500
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert texts.count("1") >= 1 + 3  # rank 1 and the one-flip replies c3, e3, c5
    assert start._repr_svg_() == start.svg()
    over = playout(start, 5)[-1]
    assert "over" in ET.fromstring(over.svg()).find(f"{ns}title").text


def test_reversi_levels_of_seed_003():
    from chameleon_lab.agents import Agent
    from chameleon_lab.games.othello.levels import LEVELS, level_params
    from chameleon_lab.search.solve import solve

    assert set(LEVELS) == {"easy", "medium", "hard"}
    with pytest.raises(ValueError, match="valid levels: easy, medium, hard"):
        level_params("expert")
    start = get_game("othello").start()
    easy = [Agent(**level_params("easy"), seed=s).choose(start).move for s in range(12)]
    assert len(set(map(str, easy))) > 1  # random legal moves
    hard = Agent(**level_params("hard"))
    rng = random.Random(3)
    checked = 0
    while checked < 3:  # with <= 10 empty squares, hard plays perfectly (searches to the end)
        pos = start
        while not pos.is_over and sum(c == "." for c in "".join(pos.to_json()["board"])) > 9:
            pos = pos.play(rng.choice(pos.legal_moves))
        if pos.is_over:
            continue
        best = solve(pos, method="generic").value
        after = pos.play(hard.choose(pos).move)
        value = solve(after, method="generic").value
        assert (value if after.to_move == pos.to_move else -value) == best
        checked += 1
