"""The two-player search suite of seed 001: NegaMax and alpha-beta with every switch.

One node function, written once over the game protocol and compiled per (game,
heuristic) like the multi-player searches (:func:`.core.bind`), runs every setting;
the switches are read from the control array at run time, so a notebook can turn them
on one by one without a compile per combination:

* ``prune``: alpha-beta (fail-soft) instead of plain NegaMax, which searches the full
  tree (the ``negamax`` algorithm: the exhaustive solver when the depth reaches the
  end of the game);
* ``ordering``: static move ordering by a cheap evaluation (each child is made,
  evaluated and taken back), from the remaining depth ``ordering`` on (the seed
  advises against it just above the leaves: there it costs what the search saves);
  these evaluations are counted apart (``order_evals``);
* ``pvs``: principal-variation search: the first child with the full window, the others
  with a null window, searched again when they fail high inside the window;
* ``killers``: two killer moves per ply (moves that cut off at the same ply elsewhere)
  are tried first after the table's move;
* ``history``: the history heuristic, ``depth**2`` per cut-off, orders the remaining moves;
* ``tt_bits``: a transposition table of ``2**tt_bits`` entries, keyed by the game's
  Zobrist key, with exact/lower/upper bounds, depth-preferred replacement and the best
  move, which is searched first. Its values are used only at the same remaining depth,
  so the root value stays the fixed-depth minimax value (a position's value at a
  given remaining depth does not depend on the path to it in these games);
* ``quiescence``: at the depth limit the search goes on over the game's *noisy* moves
  (``GameOps.noisy``, e.g. Chameleon Chess's captures) up to this many plies, standing
  pat on the static value; it changes values (it searches deeper), so it is not part of
  the fixed-depth exactness.

Values are from the view of the player to move (negamax): a leaf scores
``2 * s[p] - (s0 + s1 + s2 + s3)`` from the heuristic's raw scores (for two players
``s[p] - s[opponent]``), a finished position its exact returns scaled as in
:func:`.core.leaf_function`. Players must alternate, as they do in every two-player
game of the library (a forced pass is a move).

Iterative deepening, aspiration windows, budgets and the choice are in :mod:`.suite`.
Without ``quiescence`` every combination returns the fixed-depth minimax value (tested
against ``negamax``); which move is chosen among equal values may differ.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from ..games.protocol import MAX_PLAYERS
from ..games.specialise import NO, ROOT_PLY, YES, inlined, template
from .core import evaluate, generate, key, make, noisy, player_of, table_width, unmake
from .improved import (
    _BIG,
    C_ABORTED,
    C_DEADLINE,
    C_NEXT_CHECK,
    C_NODE_LIMIT,
    C_STAMP,
    MAX_PLIES,
    PV_LEN,
    S_EVALUATED,
    S_EXPANDED,
    S_HORIZON,
    S_ORDER_EVALS,
    S_TT_HITS,
    _pv_take,
    _select,
    out_of_budget,
)

# ``ctl`` columns after the improved searches' counter and budget columns (0..9, the
# ordering evaluations S_ORDER_EVALS among them) and their principal-variation lengths
# (PV_LEN .. PV_LEN + MAX_PLIES)
_BASE = PV_LEN + MAX_PLIES
S_CUTOFFS = _BASE  # beta cut-offs
S_FIRST_CUTOFFS = _BASE + 1  # ... by the first move searched
S_RESEARCHES = _BASE + 2  # PVS re-searches after a null-window fail high
S_QNODES = _BASE + 3  # quiescence nodes
O_PRUNE = _BASE + 4
O_ORDERING = _BASE + 5  # order from this remaining depth on (0: off)
O_PVS = _BASE + 6
O_KILLERS = _BASE + 7
O_HISTORY = _BASE + 8
O_QUIESCENCE = _BASE + 9  # quiescence plies (0: off)
C_PLAYER_A = _BASE + 10  # the two players (the opponent of p is A + B - p)
C_PLAYER_B = _BASE + 11
C_ROOT_N = _BASE + 12  # written by ab_root: the root's moves (0: none, -1: game over)
C_ROOT_BEST = _BASE + 13  # ... and the index in moves[0] of the best (-1: aborted)
CTL_SIZE = _BASE + 14

# transposition table columns
T_KEY = 0
T_STAMP = 1
T_DEPTH_FLAG = 2  # (depth + QMAX) * 4 + flag; depth may be negative in quiescence
T_MOVE = 3  # best move (the move's code), -1 for none
TT_COLUMNS = 4
EXACT = 0
LOWER = 1
UPPER = 2
QMAX = 64  # offset of stored depths

#: Quiescence plies at most (beyond the depth limit).
MAX_QUIESCENCE = 16
#: Rows of the per-ply tables: the deepest search and its quiescence below it.
PLIES = MAX_PLIES + MAX_QUIESCENCE
#: History table size (move codes are folded into it).
HISTORY_SIZE = 1 << 14

# the suite's own stack: per ply, the frame of the node there while a child is searched
# (see :func:`ab_node`); floats ...
F_ALPHA = 0
F_BETA = 1
F_ALPHA0 = 2  # alpha on entry (the bound type of the stored value)
F_BEST = 3
F_COLUMNS = 4
# ... and integers
I_DEPTH = 0
I_PLAYER = 1
I_N = 2  # moves generated
I_K = 3  # the child being searched (its place in the order) ...
I_INDEX = 4  # ... and its index in moves[ply]
I_SLOT = 5  # transposition table slot (-1: none) ...
I_HASH = 6  # ... and the key
I_BEST_MOVE = 7
I_KEYED = 8  # the moves are searched in the order of their keys
I_NULL = 9  # the child runs with PVS's null window
I_COLUMNS = 10

# what ab_node's loop does next
_ENTER = 0  # evaluate or expand the node at ``ply``
_NEXT = 1  # search the next child of the node at ``ply`` (its frame in the locals)
_CHILD = 2  # take ``v``, the value of the child just searched, into the node at ``ply``
_UP = 3  # hand ``v``, the value of the node at ``ply``, to its parent

# what ab_root does before it searches
NEW_SEARCH = 0  # prepare the tables for a new search (counters, switches, root keys)
NEXT_DEPTH = 1  # the next iteration: the root's moves ordered by the last one's scores
AGAIN = 2  # the same iteration again (an aspiration window failed): the same order


@functools.cache
def tables_dtype(max_moves: int, undo_size: int) -> np.dtype:
    """The record of the suite's scratch tables for a game's sizes: per ply the
    ``moves``, ``undo``, ordering ``keys``, their permutation ``perm``, ``killers`` and
    the triangular ``pv``; the ``leaf`` row, the ``ctl`` counters and switches, the
    root's ordering keys and scores, the ``history`` table; the search's stack of
    frames, ``fflt`` and ``fint`` (see :func:`ab_node`). The move rows are
    :func:`.core.table_width` wide.

    :func:`ab_node` takes them as a one-element array of this record, not as eleven
    arrays (see :func:`.improved.tables_dtype`): TicTacToe's plain alpha-beta 1.10 ->
    0.86 ms. In the tree the array is as fast as the bare record, and numba types it
    at a call from Python in 0.2 us where a record takes 2 us (the suite's searches
    are often small).
    """
    p = PLIES
    row = table_width(max_moves)  # rounded up: the sizes of a game share their searches
    return np.dtype(
        [
            ("moves", np.int64, (p, row)),
            ("undo", np.int64, (p, undo_size)),
            ("leaf", np.float64, (MAX_PLAYERS,)),
            ("ctl", np.int64, (CTL_SIZE,)),
            ("pv", np.int64, (p, p)),
            ("keys", np.float64, (p, row)),
            ("perm", np.int64, (p, row)),
            ("root_keys", np.float64, (row,)),
            ("root_scores", np.float64, (row,)),
            ("killers", np.int64, (p, 2)),
            ("history", np.float64, (HISTORY_SIZE,)),
            ("fflt", np.float64, (p, F_COLUMNS)),
            ("fint", np.int64, (p, I_COLUMNS)),
        ],
        align=True,
    )


# the search's setting, one array handed to ab_root: the stamp of the search (table
# entries of other searches are ignored), the switches (see the module doc) and the two
# players, written into ``ctl`` when a search starts
SET_STAMP = 0
SET_SWITCHES = 1  # prune, ordering, pvs, killers, history, quiescence, player a, player b
SETTING_SIZE = 9
#: where each entry of the setting after the stamp goes in ``ctl``
_SWITCH_COLUMNS = (O_PRUNE, O_ORDERING, O_PVS, O_KILLERS, O_HISTORY, O_QUIESCENCE,
                   C_PLAYER_A, C_PLAYER_B)  # fmt: skip


@njit(cache=True, forceinline=True)
def _prepare(t, setting, n_root):
    """Make the tables ``t`` (the record) ready for a new search: counters to zero, the
    ``setting``'s stamp, switches and players into ``ctl``, killers and history cleared
    where they are on, the root's ordering keys to zero and its scores to NaN (not
    searched)."""
    ctl = t.ctl
    ctl[:] = 0
    ctl[C_STAMP] = setting[SET_STAMP]
    for j in range(len(_SWITCH_COLUMNS)):
        ctl[_SWITCH_COLUMNS[j]] = setting[SET_SWITCHES + j]
    if ctl[O_KILLERS]:
        t.killers[:] = -1
    if ctl[O_HISTORY]:
        t.history[:] = 0.0
    t.root_keys[:n_root] = 0.0
    t.root_scores[:n_root] = np.nan


@template("make", "unmake", "evaluate")
def static_key(state, m, tables, ply, p):  # pragma: no cover - compiled by bind()
    """Static ordering key of move ``m`` for player ``p``: the child made, evaluated
    (counted in ``order_evals``) and taken back.

    A function of its own, which :func:`ab_node` calls (a sibling in :func:`.core.bind`),
    not inlined into it: inlined, the second copy of the game's move and of the
    heuristic slowed every node of every setting, ordered or not (measured:
    ``docs/benchmarks.md``, "Measurements behind the design"), while the call costs
    little beside the evaluation it makes.
    """
    t = tables[0]
    leaf = t.leaf
    make(state, m, t.undo, ply)
    evaluate(state, leaf)
    unmake(state, t.undo, ply)
    t.ctl[S_ORDER_EVALS] += 1
    return 2.0 * leaf[p] - (leaf[0] + leaf[1] + leaf[2] + leaf[3])


@njit(cache=True, forceinline=True)
def _quiet_end(ctl, depth):
    """Whether a node ``depth`` plies above the depth limit is scored as a leaf even
    though the game goes on: at or below the limit, unless quiescence searches on."""
    return depth <= 0 and (ctl[O_QUIESCENCE] == 0 or depth <= -ctl[O_QUIESCENCE])


@template("evaluate")
def _leaf_value(state, leaf, ctl, ply, me, p):  # pragma: no cover - compiled by bind()
    """The value for ``me`` of a leaf (``p``: the player to move there, -1 when the
    game is over), counted; its principal variation ends here."""
    evaluate(state, leaf)
    ctl[S_EVALUATED] += 1
    if p >= 0:
        ctl[S_HORIZON] += 1
    ctl[PV_LEN + ply] = ply
    return 2.0 * leaf[me] - (leaf[0] + leaf[1] + leaf[2] + leaf[3])


@njit(cache=True, forceinline=True)
def _tt_store(tt_int, tt_val, ctl, slot, h, depth, alpha0, cut, best, best_move):
    """Store a node's value in its slot (depth-preferred: a slot of another search, of
    the same position or of a shallower one is replaced): a lower bound after a
    cut-off, an upper bound when no child rose above ``alpha0`` (alpha on entry), else
    exact. The bound is said by ``cut``, not read off the value: in a window as narrow
    as one float (PVS's null window, an aspiration window at large values) a value
    equal to both ends of it would be taken for an upper bound either way."""
    stored = tt_int[slot, T_DEPTH_FLAG]
    same = tt_int[slot, T_KEY] == h and tt_int[slot, T_STAMP] == ctl[C_STAMP]
    fresh = tt_int[slot, T_STAMP] != ctl[C_STAMP]
    if fresh or same or (stored >> 2) - QMAX <= depth:
        flag = LOWER if cut else (UPPER if best <= alpha0 else EXACT)
        tt_int[slot, T_KEY] = h
        tt_int[slot, T_STAMP] = ctl[C_STAMP]
        tt_int[slot, T_DEPTH_FLAG] = (depth + QMAX) * 4 + flag
        tt_int[slot, T_MOVE] = best_move
        tt_val[slot] = best


@njit(cache=True, forceinline=True)
def _tt_probe(tt_int, tt_val, ctl, h, depth, alpha, beta):
    """The transposition table's entry for key ``h``: ``(slot, move, hit, value)``, the
    stored best move (-1: none) and whether its value, stored at this remaining
    ``depth``, decides the node in ``(alpha, beta)``."""
    slot = h & (tt_int.shape[0] - 1)
    if tt_int[slot, T_KEY] != h or tt_int[slot, T_STAMP] != ctl[C_STAMP]:
        return slot, -1, False, 0.0
    info = tt_int[slot, T_DEPTH_FLAG]
    tv = tt_val[slot]
    flag = info & 3
    hit = (info >> 2) - QMAX == depth and (
        flag == EXACT or (flag == LOWER and tv >= beta) or (flag == UPPER and tv <= alpha)
    )
    return slot, tt_int[slot, T_MOVE], hit, tv


@template()
def _key_moves(state, tables, ply, n, depth, p, tt_move):  # pragma: no cover - bind()
    """Write the ordering keys of the ``n`` moves at ``ply`` (the table's move, killers,
    static value, history; at the root the last iteration's scores) and return whether
    any can differ: without a table move, killers, ordering or history every key is 0
    and the moves are searched in generation order."""
    t = tables[0]
    ctl = t.ctl
    order = ctl[O_ORDERING] > 0 and depth >= ctl[O_ORDERING]
    keyed = ply == 0 or tt_move >= 0 or order or ctl[O_KILLERS] or ctl[O_HISTORY]
    for j in range(n if keyed else 0):
        t.perm[ply, j] = j
        m = t.moves[ply, j]
        if ply == 0:
            t.keys[ply, j] = t.root_keys[j]
            continue
        score = 0.0
        if m == tt_move:
            score = _BIG
        elif ctl[O_KILLERS] and (m == t.killers[ply, 0] or m == t.killers[ply, 1]):
            score = _BIG / 2 if m == t.killers[ply, 0] else _BIG / 4
        elif order:
            score = static_key(state, m, tables, ply, p)
        elif ctl[O_HISTORY]:
            score = t.history[m & (HISTORY_SIZE - 1)]
        t.keys[ply, j] = score
    return keyed


@template("generate", "player_of", "key", "noisy", "evaluate")
def _enter(
    state, depth, ply, alpha, beta, me, p, known, tables, tt_int, tt_val
):  # pragma: no cover
    """Enter the node at ``ply`` (``p`` the player to move, ``known`` when the caller
    found it and that the node is no leaf): ``(expanded, v, p, alpha, best, n)``.

    Not expanded: ``v`` is the node's value (a leaf, a budget spent, a table hit, a
    stand pat at or above ``beta``). Expanded: the ``n`` moves are generated (the noisy
    ones in quiescence, ``alpha`` raised to the stand pat ``best``) and keyed, and the
    node's frame holds what stays while its children run (window, depth, player,
    moves, table slot and key, whether keyed). Compiled by :func:`.core.bind` into
    :func:`ab_node`.
    """
    t = tables[0]
    ctl = t.ctl
    if not known:  # the top node, which may be a leaf
        p = player_of(state)
        if p < 0 or _quiet_end(ctl, depth):
            return False, _leaf_value(state, t.leaf, ctl, ply, me, p), p, alpha, 0.0, 0
    if out_of_budget(ctl):
        return False, 0.0, p, alpha, 0.0, 0
    best = -np.inf
    if depth <= 0:  # quiescence: stand pat, then the noisy moves only
        leaf = t.leaf
        evaluate(state, leaf)
        ctl[S_EVALUATED] += 1
        ctl[S_QNODES] += 1
        ctl[PV_LEN + ply] = ply
        best = 2.0 * leaf[p] - (leaf[0] + leaf[1] + leaf[2] + leaf[3])
        if best >= beta:
            return False, best, p, alpha, best, 0
        alpha = max(alpha, best)
        n = noisy(state, t.moves, ply)
    else:
        n = generate(state, t.moves, ply)
    # the table: its move first, its value at this depth only (typed: see specialise)
    slot, h, tt_move = np.int64(-1), np.int64(0), np.int64(-1)
    if tt_int.shape[0] > 0 and ply > 0:
        h = key(state)
        slot, tt_move, hit, tv = _tt_probe(tt_int, tt_val, ctl, h, depth, alpha, beta)
        if hit:
            ctl[S_TT_HITS] += 1
            ctl[PV_LEN + ply] = ply
            return False, tv, p, alpha, best, n
    ctl[S_EXPANDED] += 1
    keyed = _key_moves(state, tables, ply, n, depth, p, tt_move)
    fflt, fint = t.fflt, t.fint
    fflt[ply, F_BETA] = beta
    fflt[ply, F_ALPHA0] = alpha
    fint[ply, I_DEPTH] = depth
    fint[ply, I_PLAYER] = p
    fint[ply, I_N] = n
    fint[ply, I_SLOT] = slot
    fint[ply, I_HASH] = h
    fint[ply, I_KEYED] = keyed
    return True, 0.0, p, alpha, best, n


@njit(cache=True, forceinline=True)
def _push(fflt, fint, ply, alpha, best, k, i, best_move, null):
    """Keep what changes as the node at ``ply`` searches its children in its frame,
    while child ``k`` (move ``i``) runs."""
    fflt[ply, F_ALPHA] = alpha
    fflt[ply, F_BEST] = best
    fint[ply, I_K] = k
    fint[ply, I_INDEX] = i
    fint[ply, I_BEST_MOVE] = best_move
    fint[ply, I_NULL] = null


@njit(cache=True, forceinline=True)
def _pop(fflt, fint, ply):
    """The frame of the node at ``ply``: ``(alpha, beta, alpha0, best, depth, p, n, k,
    i, slot, h, best_move, keyed, null)``."""
    f, g = fflt[ply], fint[ply]
    return (
        f[F_ALPHA], f[F_BETA], f[F_ALPHA0], f[F_BEST], g[I_DEPTH], g[I_PLAYER], g[I_N],
        g[I_K], g[I_INDEX], g[I_SLOT], g[I_HASH], g[I_BEST_MOVE], g[I_KEYED] != 0,
        g[I_NULL] != 0,
    )  # fmt: skip


@njit(cache=True, forceinline=True)
def _cut_off(ctl, killers, history, ply, k, m, depth):
    """Count a beta cut-off by move ``m`` (the ``k``-th searched) and learn from it:
    ``m`` becomes the ply's first killer, its history grows by ``depth**2``."""
    ctl[S_CUTOFFS] += 1
    if k == 0:
        ctl[S_FIRST_CUTOFFS] += 1
    if ctl[O_KILLERS] and m != killers[ply, 0]:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = m
    if ctl[O_HISTORY] and depth > 0:
        history[m & (HISTORY_SIZE - 1)] += depth * depth


@template("make", "unmake", "player_of")
def ab_node(  # pragma: no cover - compiled by bind()
    state,
    depth,
    ply,
    alpha,
    beta,
    me,
    tables,
    tt_int,
    tt_val,
):
    """The value of ``state`` for ``me`` (the player to move, or, at a finished
    position, the one whose turn it would be) within ``(alpha, beta)``, fail-soft.

    The tree is walked by a loop over an explicit stack, not by recursion: the node at
    each ply keeps its frame (window, best value, the child being searched, its table
    slot) in the tables' ``fflt`` and ``fint`` rows while its child runs. numba passes
    every array to a recursive call as seven to nine machine words, and the calls
    cost more than the game's moves (``docs/benchmarks.md``, "Measurements behind the
    design"). The loop moves between four steps: ``_ENTER`` a node (``_enter``:
    score a leaf, or generate and key the moves), ``_NEXT`` (make the next child; a
    leaf child is scored at once, without a frame), ``_CHILD`` (take its value, or cut
    off) and ``_UP`` (hand the node's value to its parent, or search the child again
    after PVS's null window failed high): the parts of the recursive node function
    before, between and after its calls.
    """
    t = tables[0]
    moves, undo, leaf, ctl, pv, fflt, fint = t.moves, t.undo, t.leaf, t.ctl, t.pv, t.fflt, t.fint
    top, prune, step, v = ply, ctl[O_PRUNE] != 0, _ENTER, 0.0
    # the frame of the node at ``ply`` (kept in fflt/fint while a child runs)
    # typed, not literal 0, -1, False (see "Literal arguments" in games.specialise)
    p = n = k = i = h = np.int64(0)
    slot = best_move = np.int64(-1)
    keyed = null = np.bool_(False)
    best = alpha0 = 0.0
    known = NO  # whether p holds the player to move at the node entered, no leaf
    while True:
        if step == _ENTER:
            expanded, v, p, alpha, best, n = _enter(state, depth, ply, alpha, beta, me, p,
                                                    known, tables, tt_int, tt_val)  # fmt: skip
            known = NO
            if not expanded:
                step = _UP
                continue
            alpha0, slot, h = alpha, fint[ply, I_SLOT], fint[ply, I_HASH]
            keyed, best_move, k, step = fint[ply, I_KEYED] != 0, -1, 0, _NEXT
        elif step == _NEXT:
            if k >= n:  # every child searched (none: quiescence without noisy moves)
                if n > 0 and slot >= 0:
                    _tt_store(tt_int, tt_val, ctl, slot, h, depth, alpha0, NO, best,
                              best_move)  # fmt: skip
                v, step = best, _UP
                continue
            i = k
            if keyed:
                _select(t.keys, t.perm, ply, k, n)
                i = t.perm[ply, k]
            make(state, moves[ply, i], undo, ply)
            null = k > 0 and ctl[O_PVS] != 0 and prune  # PVS: after the first, null windows
            other = ctl[C_PLAYER_A] + ctl[C_PLAYER_B] - p
            q = player_of(state)
            if q < 0 or _quiet_end(ctl, depth - 1):  # a leaf child: scored here, no frame
                v = -_leaf_value(state, leaf, ctl, ply + 1, other, q)
                if null and alpha < v < beta:  # failed high: scored again, as a search
                    ctl[S_RESEARCHES] += 1
                    v = -_leaf_value(state, leaf, ctl, ply + 1, other, q)
                step = _CHILD
                continue
            _push(fflt, fint, ply, alpha, best, k, i, best_move, null)
            # the null window (alpha, the next float above it): a fixed width is lost in
            # rounding where values are large (1e-9 beside 1e8), and a window of width
            # 0 fails low on a child it never searched
            alpha, beta = (-np.nextafter(alpha, np.inf) if null else -beta), -alpha
            depth, ply, me, p, known, step = depth - 1, ply + 1, other, q, YES, _ENTER
        elif step == _UP:
            if ply == top:
                return v
            ply -= 1
            alpha, beta, alpha0, best, depth, p, n, k, i, slot, h, best_move, keyed, null = _pop(
                fflt, fint, ply
            )
            v = -v
            if null and alpha < v < beta and not ctl[C_ABORTED]:  # failed high: again
                ctl[S_RESEARCHES] += 1
                fint[ply, I_NULL] = 0
                alpha, beta = -beta, -v
                me = ctl[C_PLAYER_A] + ctl[C_PLAYER_B] - p
                # no leaf (else _NEXT had scored it), so the opponent moves there
                depth, ply, p, known, step = depth - 1, ply + 1, me, YES, _ENTER
                continue
            step = _CHILD
        else:  # _CHILD
            unmake(state, undo, ply)
            if ctl[C_ABORTED]:
                v, step = 0.0, _UP
                continue
            m = moves[ply, i]
            if ply == 0:
                t.root_scores[i] = v
            if v > best:
                best, best_move = v, m
                _pv_take(pv, ctl, ply, m)
                if prune and v > alpha:
                    alpha = v
            # the child's value, not alpha, against beta: alpha >= beta holds from the
            # start in a window of width 0 (see _NEXT), and cut before any child rose
            if prune and best >= beta:
                _cut_off(ctl, t.killers, t.history, ply, k, m, depth)
                if slot >= 0:
                    _tt_store(tt_int, tt_val, ctl, slot, h, depth, alpha0, YES, best,
                              best_move)  # fmt: skip
                v, step = best, _UP
                continue
            k, step = k + 1, _NEXT


#: The helpers :func:`ab_node` calls by name, compiled with its bindings
#: (:func:`.core.bind`'s ``siblings``; ``_leaf_value``, ``_enter`` and ``_key_moves``
#: compiled into it, ``static_key`` called).
SIBLINGS = {
    "static_key": static_key,
    "_leaf_value": inlined(_leaf_value),
    "_key_moves": inlined(_key_moves),
    "_enter": inlined(_enter),
}


@template("generate", "player_of")
def ab_root(  # pragma: no cover - compiled by bind()
    state,
    depth,
    alpha,
    beta,
    tables,
    tt_int,
    tt_val,
    mode,
    node_limit,
    deadline,
    setting,
):
    """One search of the root ``state`` to ``depth`` within ``(alpha, beta)``: the value
    for the player to move (NaN when there is no move to search).

    It does in one compiled call what the driver (:func:`.suite.suite_search`) did
    around the node function in Python, five calls that took half of a small search's
    own time (Othello to depth 4, ~80 nodes): the root's player and moves, the tables
    made ready, the search, the index of the best move. ``mode`` says what comes
    before the search: a ``NEW_SEARCH`` prepares the tables (the ``setting``: the
    search's stamp, its switches and players, see ``_prepare``); the ``NEXT_DEPTH`` of
    iterative deepening orders the root's moves by the last iteration's scores (best
    first, unsearched last); ``AGAIN`` keeps the order. The budgets (``node_limit``
    nodes, the ``deadline`` in ``perf_counter_ns``; 0: none) apply from this call on;
    the clock is read at once when they change.

    It writes into ``ctl`` ``C_ROOT_N``, the number of root moves (0: the player to
    move has none, -1: the game is over; no search then), and ``C_ROOT_BEST``, the
    index in ``moves[0]`` of the principal variation's first move (-1 when a budget
    stopped the search).
    """
    t = tables[0]
    ctl = t.ctl
    me = player_of(state)
    n = generate(state, t.moves, ROOT_PLY) if me >= 0 else -1
    if mode == NEW_SEARCH:
        _prepare(t, setting, max(n, 0))
    else:
        for j in range(n):
            if mode == NEXT_DEPTH:
                s = t.root_scores[j]
                t.root_keys[j] = -np.inf if np.isnan(s) else s
            t.root_scores[j] = np.nan
    if ctl[C_NODE_LIMIT] != node_limit or ctl[C_DEADLINE] != deadline:
        ctl[C_NODE_LIMIT] = node_limit
        ctl[C_DEADLINE] = deadline
        ctl[C_NEXT_CHECK] = 0
    ctl[C_ROOT_N] = n
    ctl[C_ROOT_BEST] = -1
    if n <= 0:
        return np.nan
    v = ab_node(state, depth, ROOT_PLY, alpha, beta, me, tables, tt_int, tt_val)
    if not ctl[C_ABORTED]:
        for j in range(n):
            if t.moves[0, j] == t.pv[0, 0]:
                ctl[C_ROOT_BEST] = j
                break
    return v


#: The functions :func:`ab_root` calls by name, compiled with its bindings.
ROOT_SIBLINGS = {"ab_node": ab_node, **SIBLINGS}
