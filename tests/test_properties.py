"""Invariants over random legal play-outs (hypothesis draws the seatings and the moves)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chameleon_lab.games.chameleon import ChameleonMatch, Colour, Position, Role
from chameleon_lab.games.chameleon import kernel as K

seatings = st.lists(st.sampled_from(list(Colour)), min_size=2, max_size=4, unique=True)
choices = st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=160)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def playout(seating, picks, move_limit=None):
    """Positions of a game following ``picks`` (indices modulo the legal move count)."""
    game = ChameleonMatch(players=seating, move_limit=move_limit)
    for pick in picks:
        if game.is_over:
            break
        moves = game.position.legal_moves
        game.play(moves[pick % len(moves)])
    return game


@SETTINGS
@given(seatings, choices)
def test_make_then_unmake_restores_the_state_exactly(seating, picks):
    state = Position.start(seating).state.copy()
    moves = np.empty((1, K.MAX_MOVES), dtype=np.int64)
    undo = np.empty((1, K.UNDO_SIZE), dtype=np.int64)
    for pick in picks:
        if K.is_over(state):
            break
        n = K.generate_moves(state, moves, 0)
        for i in range(n):  # every move of this position, not only the one played
            before = state.copy()
            K.make_move(state, moves[0, i], undo, 0)
            K.unmake_move(state, undo, 0)
            assert np.array_equal(state, before)
        K.make_move(state, moves[0, pick % n], undo, 0)


#: Role points of the thesis (table 5.2): knight 1, bishop 2, rook 3, queen 5.
THESIS_ROLE_POINTS = {Role.KNIGHT: 1, Role.BISHOP: 2, Role.ROOK: 3, Role.QUEEN: 5}


@SETTINGS
@given(seatings, choices)
def test_the_kernels_running_counts_match_the_pawns_after_every_move(seating, picks):
    """``PCOUNT`` and ``ROLEPTS``, updated move by move (captures, deadlocked knights
    and role changes included), equal the counts taken afresh from the pawns."""
    state = Position.start(seating).state.copy()
    moves = np.empty((1, K.MAX_MOVES), dtype=np.int64)
    undo = np.empty((len(picks), K.UNDO_SIZE), dtype=np.int64)
    for ply, pick in enumerate(picks):
        if K.is_over(state):
            break
        n = K.generate_moves(state, moves, 0)
        K.make_move(state, moves[0, pick % n], undo, ply)
        pawns = Position(state.copy()).pawns  # rebuilt from the pawn slots alone
        for colour in Colour:
            own = [p for p in pawns if p.player == colour]
            assert state[K.PCOUNT + colour] == len(own)
            assert state[K.ROLEPTS + colour] == sum(THESIS_ROLE_POINTS[p.role] for p in own)


@SETTINGS
@given(seatings, choices)
def test_limits_never_grow_and_pawns_never_reappear(seating, picks):
    game = playout(seating, picks)
    for before, after in zip(game.positions, game.positions[1:], strict=False):
        lb, la = before.limits, after.limits
        assert lb.min_row <= la.min_row <= la.max_row <= lb.max_row
        assert lb.min_col <= la.min_col <= la.max_col <= lb.max_col
        assert la.shape[0] >= 3 and la.shape[1] >= 3
        # The pawns after a move are the pawns before, in the same order, one of them
        # moved and at most two removed (a capture and a deadlocked knight).
        identities_before = [(p.player, p.knight_colour) for p in before.pawns]
        identities_after = [(p.player, p.knight_colour) for p in after.pawns]
        it = iter(identities_before)
        assert all(x in it for x in identities_after)  # an ordered subsequence
        assert len(before.pawns) - 2 <= len(after.pawns) <= len(before.pawns)


def check_deadlock_rule(game: ChameleonMatch) -> int:
    """Assert the deadlock rule on every move of ``game``; return how often it fired.

    The rule is predicted from the position before the move, independently of the
    kernel: on a 3x3 board the pawn on the centre is removed iff it is a knight there
    and two players are left after the capture.
    """
    fired = 0
    for before, move, after in zip(
        game.positions[:-1], game.moves, game.positions[1:], strict=True
    ):
        lim = after.limits
        centre = (lim.min_row + 1) * 8 + lim.min_col + 1
        mover = before.pawn_at(move.origin)
        captured = before.pawn_at(move.target)
        if move.target == centre:
            on_centre = mover._replace(row=centre // 8, col=centre % 8)
        elif move.origin == centre:
            on_centre = None
        else:
            on_centre = before.pawn_at(centre)
        alive = {p.player for p in before.pawns if p != captured}
        expected = (
            lim.shape == (3, 3)
            and on_centre is not None
            and on_centre.role == Role.KNIGHT
            and len(alive) >= 2
        )
        assert len(after.pawns) == len(before.pawns) - (captured is not None) - expected
        if expected:
            assert after.pawn_at(centre) is None
            fired += 1
        elif on_centre is not None:
            assert after.pawn_at(centre).knight_colour == on_centre.knight_colour
    return fired


@SETTINGS
@given(seatings, choices)
def test_deadlock_rule_fires_exactly_when_it_should(seating, picks):
    check_deadlock_rule(playout(seating, picks))


def test_deadlock_rule_over_whole_random_games():
    rng = random.Random(20261122)
    fired = 0
    for _ in range(150):
        seating = rng.sample(list(Colour), rng.randint(2, 4))
        game = playout(seating, [rng.randrange(10**6) for _ in range(300)])
        fired += check_deadlock_rule(game)
    assert fired >= 10  # the rule is really exercised, not vacuously true


@SETTINGS
@given(seatings, st.lists(st.integers(min_value=0, max_value=10**6), min_size=120, max_size=120))
def test_a_game_ends_with_a_winner_or_at_the_move_limit(seating, picks):
    game = playout(seating, picks, move_limit=100)
    assert game.is_over
    result = game.result
    assert len(game.moves) <= 100
    if result.reason == "winner":
        assert game.position.is_over and result.survivors == (result.winner,)
    else:
        assert result.reason == "move_limit" and len(game.moves) == 100
        assert result.winner is None and len(result.survivors) >= 2


@SETTINGS
@given(seatings, choices)
def test_successors_are_the_positions_after_the_legal_moves(seating, picks):
    pos = playout(seating, picks[:40]).position
    moves = pos.legal_moves
    assert pos.successors() == [pos.play(m) for m in moves]
    assert pos.perft(1) == (1 if pos.is_over else len(moves))
    for m, succ in zip(moves, pos.successors(), strict=True):
        assert pos.move_to(succ) == m
    assert Position.from_legacy(pos.to_legacy()) == pos
    assert Position.from_compact(pos.to_compact()) == pos


def _check_incremental_forms(state: np.ndarray) -> tuple[int, int]:
    """Every built-in heuristic with an incremental form, on every move of ``state``:
    where the form answers, it gives what the heuristic gives after the move is made,
    and the game is not over. Returns (moves asked, answers)."""
    from chameleon_lab.games.chameleon.heuristics import HEURISTICS

    forms = [(h.function, h.after_move) for h in map(HEURISTICS.get, HEURISTICS)]
    forms = [(f, a) for f, a in forms if a is not None]
    assert len(forms) == 3  # pawns, pawns10roles, pawns100roles
    moves = np.empty((1, K.MAX_MOVES), dtype=np.int64)
    undo = np.empty((1, K.UNDO_SIZE), dtype=np.int64)
    asked = answered = 0
    if K.is_over(state):
        return asked, answered
    for i in range(K.generate_moves(state, moves, 0)):
        for heuristic, after in forms:
            out = np.full(4, np.nan)
            asked += 1
            if not after(state, moves[0, i], out):
                continue
            answered += 1
            K.make_move(state, moves[0, i], undo, 0)
            truth = np.zeros(4)
            heuristic(state, truth)
            over = K.is_over(state)
            K.unmake_move(state, undo, 0)
            assert not over
            assert np.array_equal(out, truth), (moves[0, i], out, truth)
    return asked, answered


@SETTINGS
@given(seatings, choices)
def test_incremental_heuristics_equal_the_heuristic_after_the_move(seating, picks):
    """The incremental forms of the thesis's heuristics, on every move of a random game
    (captures, deadlocks and shrinking limits included), against making the move."""
    answered = 0
    for position in playout(seating, picks).positions:
        answered += _check_incremental_forms(position.state.copy())[1]
    assert answered > 0 or len(picks) < 2


@st.composite
def clusters(draw):
    """Two to seven pawns of two to four players within a block of 3x3 to 8x8 fields,
    under limits as wide as the board or as the game would set them: a move can leave
    a lone pawn's row or column empty, shrink the box to 3x3 and deadlock a knight."""
    height, width = draw(st.integers(3, 8)), draw(st.integers(3, 8))
    top, left = draw(st.integers(0, 8 - height)), draw(st.integers(0, 8 - width))
    cells = st.tuples(st.integers(0, height - 1), st.integers(0, width - 1))
    squares = draw(st.lists(cells, min_size=2, max_size=7, unique=True))
    players = draw(st.lists(st.integers(0, 3), min_size=len(squares), max_size=len(squares)))
    if len(set(players)) < 2 or max(players.count(p) for p in set(players)) > 4:
        players = [i % 2 for i in range(len(squares))]
    kcs = draw(st.lists(st.integers(0, 3), min_size=len(squares), max_size=len(squares)))
    pawns = [
        (p, top + r, left + c, kc) for p, (r, c), kc in zip(players, squares, kcs, strict=True)
    ]
    to_move = draw(st.sampled_from(sorted(set(players))))
    limits = (0, 7, 0, 7) if draw(st.booleans()) else None  # None: as the game sets them
    return Position.from_pawns(pawns, to_move, limits=limits)


@settings(max_examples=600, deadline=None)
@given(clusters())
def test_incremental_heuristics_where_the_board_shrinks_to_3x3(position):
    _check_incremental_forms(position.state.copy())
