"""Exact values of two-player zero-sum positions: alpha-beta to the end of the game.

:func:`solve` searches every line to a finished position and returns the value of the
game with perfect play for the player to move, in the game's own returns (+1/0/-1 for
win/draw/loss games, a score such as a disc difference otherwise). It is fail-soft
alpha-beta over the game protocol, from the root player's point of view (that player
maximises, the other minimises, whoever moves when, so forced passes need no special
case), with a transposition table keyed by the game's ``key``: values are stored with
exact/lower/upper flags, which is sound here because every stored value is a value of
the finished game, independent of the depth it was reached at. Children are searched
with the table's best move first.

The node template is compiled per game (:func:`.core.bind`); ``stats`` counts expanded
nodes, finished positions evaluated and table cut-offs.
"""

from __future__ import annotations

import importlib
import time

import numpy as np

from ..games.protocol import MAX_PLAYERS, GameOps
from ..games.registry import Game
from ..games.solution import Solution, check_solver_tt_bits
from ..games.specialise import specialise, template
from .core import compile_for, generate, key, make, player_of, returns, unmake

EXACT, LOWER, UPPER = 0, 1, 2
#: Default transposition-table size: 2**SOLVE_TT_BITS entries.
SOLVE_TT_BITS = 20


@template("generate", "make", "unmake", "player_of", "key", "returns")
def solve_node(  # pragma: no cover - compiled by compiled_solver
    state, root, alpha, beta, ply, moves, undo, out, stats, tt_keys, tt_info, tt_vals
):
    """The exact value of ``state`` for player ``root`` within ``(alpha, beta)``
    (fail-soft: a bound outside the window)."""
    p = player_of(state)
    if p < 0:
        stats[1] += 1
        returns(state, out)
        return out[root]
    if ply + 1 >= moves.shape[0]:
        stats[3] = 1  # too deep for the tables: the caller reports it
        return 0.0
    n = generate(state, moves, ply)
    h = key(state)
    slot = h & (tt_keys.shape[0] - 1)
    first = 0
    if tt_keys[slot] == h:
        info = tt_info[slot]
        flag = info & 3
        v = tt_vals[slot]
        if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
            stats[2] += 1
            return v
        if (info >> 2) < n:
            first = info >> 2
    stats[0] += 1
    alpha0 = alpha
    beta0 = beta
    maximising = p == root
    best = -np.inf if maximising else np.inf
    best_i = first
    for k in range(n):
        i = first if k == 0 else (k - 1 if k - 1 < first else k)
        make(state, moves[ply, i], undo, ply)
        v = solve_node(
            state, root, alpha, beta, ply + 1, moves, undo, out, stats, tt_keys, tt_info, tt_vals
        )
        unmake(state, undo, ply)
        if maximising:
            if v > best:
                best = v
                best_i = i
                alpha = max(alpha, v)
        elif v < best:
            best = v
            best_i = i
            beta = min(beta, v)
        if alpha >= beta:
            break
    flag = UPPER if best <= alpha0 else (LOWER if best >= beta0 else EXACT)
    tt_keys[slot] = h
    tt_info[slot] = best_i * 4 + flag
    tt_vals[slot] = best
    return best


def compiled_solver(ops: GameOps):
    """The solver's node function compiled for ``ops``."""
    if ops.returns is None:
        raise ValueError(f"{ops.name} declares no returns: it cannot be solved")
    return specialise(
        solve_node,
        {
            "generate": ops.generate,
            "make": ops.make,
            "unmake": ops.unmake,
            "player_of": ops.player_of,
            "key": ops.key,
            "returns": ops.returns,
        },
        _nrt=False,
    )


def solve_state(
    ops: GameOps, state: np.ndarray, *, max_plies: int = 1024, tt_bits: int = SOLVE_TT_BITS
) -> Solution:
    """Solve a kernel state of a two-player zero-sum game (see the module doc)."""
    check_solver_tt_bits(tt_bits)
    node = compiled_solver(ops)
    state = np.array(state, dtype=np.int64)
    root = int(ops.player_of(state))
    out = np.zeros(MAX_PLAYERS)
    start = time.perf_counter()
    if root < 0:
        if ops.side_to_move is None:
            raise ValueError(f"{ops.name} does not say whose turn it is once the game is over")
        ops.returns(state, out)
        side = int(ops.side_to_move(state))
        return Solution(float(out[side]), -1, 0, 1, 0, time.perf_counter() - start)
    moves = np.zeros((max_plies, ops.max_moves), dtype=np.int64)
    undo = np.zeros((max_plies, ops.undo_size), dtype=np.int64)
    stats = np.zeros(4, dtype=np.int64)
    size = 1 << tt_bits
    tt_keys = np.zeros(size, dtype=np.int64)
    tt_keys[:] = 0x7FFFFFFFFFFFFFF1  # no position keys to this (collisions negligible)
    tt_info = np.zeros(size, dtype=np.int64)
    tt_vals = np.zeros(size)
    args = (state, root, -np.inf, np.inf, 0, moves, undo, out, stats, tt_keys, tt_info, tt_vals)
    compile_for(node, *args)
    start = time.perf_counter()  # the search's own time, without compiling
    value = node(
        state, root, -np.inf, np.inf, 0, moves, undo, out, stats, tt_keys, tt_info, tt_vals
    )
    if stats[3]:
        raise ValueError(f"the game is longer than {max_plies} plies: raise max_plies")
    h = ops.key(state)
    slot = h & (size - 1)
    best = int(moves[0, tt_info[slot] >> 2]) if tt_keys[slot] == h else -1
    # moves[0] still holds the root's moves (deeper plies use other rows)
    return Solution(
        float(value),
        best,
        int(stats[0]),
        int(stats[1]),
        int(stats[2]),
        time.perf_counter() - start,
    )


#: Solvers written for one game (modules of this package with a ``solve_state(game,
#: state, tt_bits)`` returning a :class:`~chameleon_lab.games.solution.Solution`), used
#: by :func:`solve` with ``method="auto"``; every other game gets the generic :func:`solve_state`.
SPECIALISED: dict[str, str] = {
    "connect4": "chameleon_lab.games.connect4.solver",
    "othello": "chameleon_lab.games.othello.solver",
    "gomoku": "chameleon_lab.games.mnk.solver",
    "tictactoe": "chameleon_lab.games.mnk.solver",
}
#: Games whose own solver answers from an opening book, and the module of their books
#: (with a ``solve_state(game, state, tt_bits, book)`` that looks the book up before
#: the solver searches, and a ``book_choice(game, state)``).
BOOKS: dict[str, str] = {"connect4": "chameleon_lab.games.connect4.book"}
#: The methods :func:`solve` takes.
METHODS = ("auto", "generic", "specialised")


def book_choice(position) -> tuple[int, dict[int, int], float] | None:
    """``(kernel move, {kernel move: exact score}, seconds)`` from the opening book of
    the position's game and board, or ``None`` where there is no book or it does not
    hold the position (the scores are the solver's, for the player to move)."""
    game = position.game
    if game.name not in BOOKS:
        return None
    start = time.perf_counter()
    module = importlib.import_module(BOOKS[game.name])
    choice = module.book_choice(game, position.state)
    if choice is None:
        return None
    return choice[0], choice[1], time.perf_counter() - start


def specialised_solver(name: str):
    """The ``solve_state`` of the solver written for game ``name``, or ``None``."""
    module = SPECIALISED.get(name)
    if module is None:
        return None
    return importlib.import_module(module).solve_state


def solve(
    position, *, tt_bits: int = SOLVE_TT_BITS, method: str = "auto", book: bool | None = None
) -> Solution:
    """The exact value of a position of a two-player zero-sum game for the player to
    move (at a finished position: its returns for the player whose turn it would be).

    ``method`` is ``"auto"`` (the game's own solver where :data:`SPECIALISED` has one,
    else the generic one), ``"generic"`` (alpha-beta over the game protocol, any game)
    or ``"specialised"`` (the game's own solver; an error for games without one).
    ``book``: whether the game's own solver answers positions its opening book holds
    without searching (:data:`BOOKS`; ``None``: where there is one; ``True`` for a game
    or method without a book is an error).

    ``ValueError`` for games that are not two-player zero-sum (Chameleon Chess with
    three or four players, for example): their "value" needs a search of its own.
    """
    if method not in METHODS:
        raise ValueError(f"unknown solve method {method!r}; valid methods: {', '.join(METHODS)}")
    game = getattr(position, "game", None)
    if not isinstance(game, Game):
        raise TypeError(f"solve needs a position of a game, got {type(position).__name__}")
    info = game.info
    if info.n_players != 2 or not info.zero_sum:
        raise ValueError(
            f"{info.name} with {info.n_players} players is not a two-player zero-sum game; "
            "solve answers only those"
        )
    own = specialised_solver(info.name) if method != "generic" else None
    if method == "specialised" and own is None:
        have = ", ".join(sorted(SPECIALISED)) or "none"
        raise ValueError(f"{info.name} has no solver of its own (games with one: {have})")
    if book not in (None, True, False):
        raise ValueError(f"book must be True, False or None, got {book!r}")
    if book and (own is None or info.name not in BOOKS):
        have = ", ".join(BOOKS)
        raise ValueError(
            f"{info.name} (method {method!r}) has no opening book; games with one: {have} "
            "with their own solver"
        )
    if own is not None:
        if info.name in BOOKS and book is not False:  # the book first, then the solver
            with_book = importlib.import_module(BOOKS[info.name]).solve_state
            return with_book(game, position.state, tt_bits=tt_bits, book=True)
        return own(game, position.state, tt_bits=tt_bits)
    plies = (info.max_length or 1022) + 2
    return solve_state(game.ops, position.state, max_plies=plies, tt_bits=tt_bits)
