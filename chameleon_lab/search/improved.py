"""The four searches done right (the ``improved`` flavour): node functions.

Same algorithms as :mod:`chameleon_lab.thesis.nodes`, written over the same game protocol,
with what a
modern engine adds and the original lacked. Where the flavours differ, and why:

* **The root is an ordinary node** (ply 0). Its children are searched in the order the
  driver gives (from the previous iteration of iterative deepening), and every child's
  score is written to a row of root scores in generation order. The
  original's root data (MaxN-IS ``bestScore``, Paranoid ``alpha``, Hypermax's alpha
  vector) are exactly the root node's own bound, window and alpha vector here.
* **Paranoid is correct alpha-beta** (fail-soft): every child, the first included,
  tightens the window, and ``best`` is the maximum (minimum) over the children searched.
  The root value therefore equals plain Paranoid minimax's, which the thesis version
  does not guarantee (its first child leaves the window alone and a later, worse child
  can replace it). Children are ordered with the transposition table's best move first
  and, from two plies above the leaves up, by their static value (:data:`ORDER_DEPTH`).
* **A transposition table** where it is sound: Paranoid stores fail-soft values with
  exact/lower/upper flags, keyed by the game's ``key`` and used only at the same
  remaining depth, so the root value stays the fixed-depth minimax value. MaxN, MaxN-IS
  and Hypermax get none: a MaxN-IS node cut by shallow pruning and a Hypermax node
  depend on the bounds handed down, so their values may not be reused elsewhere; plain
  MaxN would be sound but transpositions at equal remaining depth need a permutation of
  one player's moves, which happens only from depth ``players + 1`` on.
* **MaxN and MaxN-IS keep the generation order inside the tree.** MaxN's value is not
  unique when children tie for the player to move (the first one searched wins), so
  reordering would change values, not only speed. In generation order the improved
  flavour returns the thesis's root vectors at every completed depth.
* **Budgets are checked inside the tree**: at every expanded node the node budget, and
  the clock every :data:`CHECK_EVERY` nodes. Once spent, the search unwinds at once and
  the driver plays the best move of the last completed iteration.
* MaxN-IS prunes soundly only if every score vector is non-negative and sums to at most
  ``max_sum``. With normalisation the sum is 1 up to rounding (the four quotients may
  sum to 1 + 1 ulp), so the driver passes ``max_sum`` with a margin of :data:`MARGIN`.

Scratch tables are per ply as in :mod:`chameleon_lab.thesis.nodes`; ``ictl`` holds the
counters (``S_*`` offsets), the budgets and abort flag (``C_*``), the principal
variations' lengths and the root order, ``vals`` also the Hypermax alpha vectors and the
root scores (see the offsets below), and ``pv`` is a triangular principal-variation
table. The heuristic writes into ``leaf``, a row of four floats, as in
:mod:`chameleon_lab.thesis.nodes`. The node functions take these tables with the
``moves`` and ``undo`` rows as one numpy record (:func:`tables_dtype`), which numba
passes as one pointer; as six arrays they cost every recursive call some fifty machine
words of arguments (measured in ``docs/benchmarks.md``, "Measurements behind the
design").

Speed: the node functions are compiled without numba's reference counting
(``_nrt=False``). With it, every recursive call took a reference to each of its seven
to nine array arguments on entry and dropped it on exit, atomic calls that cost more
than half the time (see "Speed" in :mod:`chameleon_lab.games.chameleon.kernel`). The
tables belong to the driver and outlive the search, so nothing needs the counts; the
price is that the node functions may not allocate (numba refuses to compile them with
"NRT required but not enabled"), so rows are copied element by element, never as
slices. The small helpers are inlined (``forceinline=True``) so that they, too, run
without reference counts. A node one ply above the depth limit scores its children
in its own loop (make, evaluate, take back) instead of calling itself for each leaf:
the same counts and values, without a recursive call per leaf. There a leaf is scored
by the heuristic's incremental form where it has one and answers (``_score_child``; the
thesis's Chameleon heuristics do for moves that remove no pawn), without making the
move: same counts and values again, in less time (both measured in
``docs/benchmarks.md``, "Measurements behind the design"). Paranoid's loop
(``_paranoid_frontier``) also writes its counters and principal variation once per
node rather than once per leaf.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit, objmode

from ..checks import finite_real
from ..games.heuristics import normalize
from ..games.protocol import MAX_PLAYERS
from ..games.specialise import inlined, template
from .core import (
    MAX_PLIES,
    _copy_in,
    _copy_row,
    _score,
    evaluate,
    evaluate_after,
    generate,
    key,
    make,
    player_of,
    table_width,
    unmake,
)

#: The clock is read every this many nodes (a fraction of a millisecond).
CHECK_EVERY = 1024
#: Margin added to MaxN-IS's maximum sum so that rounding never makes pruning unsound.
MARGIN = 1e-9
#: Transposition-table entries are probed and stored from this remaining depth on.
TT_MIN_DEPTH = 2
#: Paranoid orders a node's children by their static value from this remaining depth
#: on (0: generation order; see :func:`paranoid_node`).
ORDER_DEPTH = 2
#: Ordering key of the transposition table's move: above every static value (the
#: two-player suite ranks its killers at fractions of it).
_BIG = 1e300


# ``ictl``: one int64 array for the counters, budgets, PV lengths and root order
S_EXPANDED = 0
S_EVALUATED = 1  # (the thesis's ``_score`` counts here too)
S_TT_HITS = 2
S_HORIZON = 3  # leaves cut by the depth limit (none: the tree was searched to its end)
S_ORDER_EVALS = 4  # evaluations spent on ordering moves (not counted as nodes)
C_NODE_LIMIT = 5  # stop once expanded + evaluated reaches this (0: no node budget)
C_DEADLINE = 6  # perf_counter_ns() deadline (0: no time budget)
C_NEXT_CHECK = 7  # node count at which the clock is read next
C_ABORTED = 8  # 1 once a budget is spent
C_STAMP = 9  # search number: table entries of other searches are ignored
PV_LEN = 10  # MAX_PLIES entries: length of the principal variation at each ply
C_CONSTS = PV_LEN + MAX_PLIES  # N_CONSTS entries: a search's constants (its root call
N_CONSTS = 4  # writes them, every node reads them: not handed down the tree)
ROOT_ORDER = C_CONSTS + N_CONSTS  # the order of the root's children (max_moves entries)

# ``fbuf``: one float64 table, rows [0, P) node values, [P, 2P) Hypermax alpha vectors,
# then one row of scores per root child (generation order), P = MAX_PLIES
ALPHA_ROW = MAX_PLIES
ROOT_ROW = 2 * MAX_PLIES


# transposition table columns (int part; the value is in a float array)
T_KEY = 0
T_STAMP = 1
T_DEPTH_FLAG = 2  # depth * 4 + flag
T_BEST = 3  # index of the best move in generation order
TT_COLUMNS = 4
EXACT = 0
LOWER = 1
UPPER = 2


@njit(cache=True)
def now_ns() -> int:
    """``time.perf_counter_ns()`` from compiled code (about 0.4 µs a call)."""
    with objmode(t="int64"):
        t = time.perf_counter_ns()
    return t


@njit(cache=True, forceinline=True)
def out_of_budget(ictl: np.ndarray) -> bool:
    """Whether a budget is spent; sets the abort flag so every level unwinds."""
    if ictl[C_ABORTED]:
        return True
    nodes = ictl[S_EXPANDED] + ictl[S_EVALUATED]
    if ictl[C_NODE_LIMIT] > 0 and nodes >= ictl[C_NODE_LIMIT]:
        ictl[C_ABORTED] = 1
        return True
    if ictl[C_DEADLINE] > 0 and nodes >= ictl[C_NEXT_CHECK]:
        ictl[C_NEXT_CHECK] = nodes + CHECK_EVERY
        if now_ns() >= ictl[C_DEADLINE]:
            ictl[C_ABORTED] = 1
            return True
    return False


@njit(cache=True, forceinline=True)
def _pv_take(pv: np.ndarray, ictl: np.ndarray, ply: int, move: int) -> None:
    """The principal variation at ``ply`` becomes ``move`` followed by the child's."""
    pv[ply, ply] = move
    end = ictl[PV_LEN + ply + 1]
    for j in range(ply + 1, end):
        pv[ply, j] = pv[ply + 1, j]
    ictl[PV_LEN + ply] = max(end, ply + 1)


@njit(cache=True, forceinline=True)
def _select(keys: np.ndarray, perm: np.ndarray, ply: int, k: int, n: int) -> None:
    """Move the best-keyed remaining move (first of equals) to place ``k`` (lazy
    selection sort: moves after a cut-off are never sorted)."""
    best = k
    for j in range(k + 1, n):
        if keys[ply, j] > keys[ply, best]:
            best = j
    if best != k:
        t = keys[ply, k]
        keys[ply, k] = keys[ply, best]
        keys[ply, best] = t
        u = perm[ply, k]
        perm[ply, k] = perm[ply, best]
        perm[ply, best] = u


@njit(cache=True, forceinline=True)
def tt_probe(tt_int, tt_val, ictl, h, n, depth, alpha, beta):  # numba types the tables
    """Look position ``h`` up in the transposition table (Paranoid's, Best-Reply
    Search's): returns its slot, the stored best move where it is one of the ``n``
    moves (else 0) and whether there is one, and whether the stored value answers the
    window ``(alpha, beta)`` at this remaining ``depth``, with that value (a hit is
    counted)."""
    slot = h & (tt_int.shape[0] - 1)
    first = 0
    known = False
    if tt_int[slot, T_KEY] == h and tt_int[slot, T_STAMP] == ictl[C_STAMP]:
        stored = tt_int[slot, T_BEST]
        if stored < n:
            first = stored
            known = True
        info = tt_int[slot, T_DEPTH_FLAG]
        if info >> 2 == depth:
            flag = info & 3
            v = tt_val[slot]
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                ictl[S_TT_HITS] += 1
                return slot, first, known, True, v
    return slot, first, known, False, 0.0


@njit(cache=True, forceinline=True)
def tt_store(tt_int, tt_val, ictl, slot, h, depth, best, best_i, alpha0, beta0) -> None:
    """Store a node's fail-soft value ``best`` searched in ``(alpha0, beta0)`` with its
    best move: exact inside the window, else an upper or lower bound."""
    flag = UPPER if best <= alpha0 else (LOWER if best >= beta0 else EXACT)
    tt_int[slot, T_KEY] = h
    tt_int[slot, T_STAMP] = ictl[C_STAMP]
    tt_int[slot, T_DEPTH_FLAG] = depth * 4 + flag
    tt_int[slot, T_BEST] = best_i
    tt_val[slot] = best


def tables_dtype(max_moves: int, undo_size: int) -> np.dtype:
    """The record of a search's per-ply tables (``moves``, ``undo``, ``vals``,
    ``leaf``, ``ictl``, ``pv``; see the module doc; the ordering ``keys`` with their
    permutation ``perm``; Best-Reply Search's moves of a layer with the player
    making each, ``reply`` and ``owner``, see :mod:`.bestreply`; speculative MaxN's
    ``chain`` of players and bounds, see :mod:`.speculative`) for a game's sizes,
    its move rows :func:`.core.table_width` wide.

    The node functions take the tables as one record, not six arrays: numba passes an
    array to a function as seven to nine machine words (pointers, shape and strides)
    and a record as one pointer, and every recursive call passes them all again. (A
    call from Python types a record from its dtype, some 2 us, once per iteration here;
    the two-player suite, with many small searches, passes a one-element array of its
    record instead, see :func:`.twoplayer.tables_dtype`.)
    """
    p = MAX_PLIES
    row = table_width(max_moves)  # rounded up: the sizes of a game share their searches
    width = row * (MAX_PLAYERS - 1)  # a BRS layer: the moves of three opponents
    return np.dtype(
        [
            ("moves", np.int64, (p, row)),
            ("undo", np.int64, (p, undo_size)),
            ("vals", np.float64, (ROOT_ROW + row, MAX_PLAYERS)),
            ("leaf", np.float64, (MAX_PLAYERS,)),
            ("ictl", np.int64, (ROOT_ORDER + row,)),
            ("pv", np.int64, (p, p)),
            ("keys", np.float64, (p, width)),
            ("perm", np.int64, (p, width)),
            ("reply", np.int64, (p, width)),
            ("owner", np.int64, (p, width)),
            ("chain", np.int64, (p, 3)),
        ],
        align=True,
    )


@njit(cache=True, forceinline=True)
def _unpack(tables):  # numba types it: an annotation would not be read
    """The six per-ply tables of a :func:`tables_dtype` record (views, no copies)."""
    return tables.moves, tables.undo, tables.vals, tables.leaf, tables.ictl, tables.pv


@njit(forceinline=True)  # not cached: it takes a function
def _leaf(evaluate, state, leaf, p, depth, ply, norm, ictl) -> None:
    """Score a leaf into ``leaf`` and count it (and a cut by the depth limit); its
    principal variation ends here."""
    evaluate(state, leaf)
    _score(leaf, norm, ictl)
    if p >= 0 and depth <= 0:
        ictl[S_HORIZON] += 1
    ictl[PV_LEN + ply] = ply


@njit(forceinline=True)  # not cached: it takes functions
def _score_child(
    make, unmake, evaluate, evaluate_after, player_of, state, move, undo, leaf, ply, norm, ictl
) -> None:
    """Score the child ``move`` leads to, a leaf one ply down, into ``leaf`` and count
    it, as :func:`_leaf` would after making the move: by the heuristic's incremental form
    where it answers (the game then goes on: a cut by the depth limit), else by making
    the move, evaluating and taking it back."""
    if evaluate_after(state, move, leaf):
        _score(leaf, norm, ictl)
        ictl[S_HORIZON] += 1
        ictl[PV_LEN + ply + 1] = ply + 1
    else:
        make(state, move, undo, ply)
        _leaf(evaluate, state, leaf, player_of(state), np.int64(0), ply + 1, norm, ictl)
        unmake(state, undo, ply)


@njit(cache=True, forceinline=True)
def _paranoid_value(leaf: np.ndarray, max_player: int) -> float:
    """Paranoid's value of a score vector: ``2 * s[max_player] - (s0 + s1 + s2 + s3)``."""
    return 2.0 * leaf[max_player] - (leaf[0] + leaf[1] + leaf[2] + leaf[3])


@njit(cache=True, forceinline=True)
def _hypermax_leaf(
    vals: np.ndarray, row: int, leaf: np.ndarray, players: np.ndarray, n_players: float
) -> None:
    """Hypermax's leaf vector into ``vals[row]``: each player's score minus the mean over
    the players taking part (0 for the others)."""
    avg = (leaf[0] + leaf[1] + leaf[2] + leaf[3]) / n_players
    for q in range(MAX_PLAYERS):
        vals[row, q] = leaf[q] - avg if players[q] else 0.0


@njit(cache=True, forceinline=True)
def _child(ply: int, k: int, first: int, ictl: np.ndarray) -> int:
    """Generation index of the ``k``-th child searched: the root's order, else ``first``
    first and the others in generation order."""
    if ply == 0:
        return ictl[ROOT_ORDER + k]
    if k == 0:
        return first
    return k - 1 if k - 1 < first else k


@template("generate", "make", "unmake", "player_of", "evaluate", "evaluate_after")
def maxn_node(
    state,
    depth,
    ply,
    norm,
    tables,
) -> None:
    """MaxN; value vector into ``vals[ply]`` (the first child searched wins ties)."""
    moves, undo, vals, leaf, ictl, pv = _unpack(tables)
    p = player_of(state)
    n = 0 if p < 0 or depth <= 0 else generate(state, moves, ply)
    if n == 0:
        _leaf(evaluate, state, leaf, p, depth, ply, norm, ictl)
        _copy_in(vals, ply, leaf)
        return
    if out_of_budget(ictl):
        return
    ictl[S_EXPANDED] += 1
    for k in range(n):
        i = _child(ply, k, np.int64(0), ictl)
        if depth == 1:  # the child is a leaf: scored here, as its own call would
            _score_child(
                make,
                unmake,
                evaluate,
                evaluate_after,
                player_of,
                state,
                moves[ply, i],
                undo,
                leaf,
                ply,
                norm,
                ictl,
            )
            _copy_in(vals, ply + 1, leaf)
        else:
            make(state, moves[ply, i], undo, ply)
            maxn_node(
                state,
                depth - 1,
                ply + 1,
                norm,
                tables,
            )
            unmake(state, undo, ply)
        if ictl[C_ABORTED]:
            return
        if ply == 0:
            _copy_row(vals, np.int64(1), ROOT_ROW + i)
        if k == 0 or vals[ply + 1, p] > vals[ply, p]:
            _copy_row(vals, ply + 1, ply)
            _pv_take(pv, ictl, ply, moves[ply, i])


@template("generate", "make", "unmake", "player_of", "evaluate", "evaluate_after")
def maxnis_node(
    state,
    depth,
    ply,
    norm,
    bound,
    max_sum,
    tables,
) -> None:
    """MaxN with immediate and shallow pruning (Korf 1991).

    ``bound`` is the parent's best value for the parent's player; the node stops once
    its own player's best reaches ``max_sum - bound``, since the parent could then not
    gain by this node. Each child gets the node's current best as its bound.
    """
    moves, undo, vals, leaf, ictl, pv = _unpack(tables)
    p = player_of(state)
    n = 0 if p < 0 or depth <= 0 else generate(state, moves, ply)
    if n == 0:
        _leaf(evaluate, state, leaf, p, depth, ply, norm, ictl)
        _copy_in(vals, ply, leaf)
        return
    if out_of_budget(ictl):
        return
    ictl[S_EXPANDED] += 1
    limit = max_sum - bound
    for k in range(n):
        if k > 0 and vals[ply, p] >= limit:
            break
        i = _child(ply, k, np.int64(0), ictl)
        child_bound = 0.0 if k == 0 else vals[ply, p]
        if depth == 1:  # the child is a leaf: scored here, as its own call would
            _score_child(
                make,
                unmake,
                evaluate,
                evaluate_after,
                player_of,
                state,
                moves[ply, i],
                undo,
                leaf,
                ply,
                norm,
                ictl,
            )
            _copy_in(vals, ply + 1, leaf)
        else:
            make(state, moves[ply, i], undo, ply)
            maxnis_node(
                state,
                depth - 1,
                ply + 1,
                norm,
                child_bound,
                max_sum,
                tables,
            )
            unmake(state, undo, ply)
        if ictl[C_ABORTED]:
            return
        if ply == 0:
            _copy_row(vals, np.int64(1), ROOT_ROW + i)
        if k == 0 or vals[ply + 1, p] > vals[ply, p]:
            _copy_row(vals, ply + 1, ply)
            _pv_take(pv, ictl, ply, moves[ply, i])


@template("make", "unmake", "evaluate")
def _paranoid_order(state, n, ply, first, known, maximising, max_player, tables) -> None:
    """Paranoid's children at ``ply`` put in order for :func:`_select`: the table's move
    (``first`` where ``known``) first, the others by their static value for the player
    to move (each made, evaluated and taken back; counted in ``S_ORDER_EVALS``)."""
    moves, undo, _, leaf, ictl, _ = _unpack(tables)
    keys, perm = tables.keys, tables.perm
    sign = 1.0 if maximising else -1.0
    for i in range(n):
        perm[ply, i] = i
        if known and i == first:
            keys[ply, i] = _BIG
        else:
            make(state, moves[ply, i], undo, ply)
            evaluate(state, leaf)
            unmake(state, undo, ply)
            ictl[S_ORDER_EVALS] += 1
            keys[ply, i] = sign * _paranoid_value(leaf, max_player)


@template("make", "unmake", "player_of", "evaluate", "evaluate_after")
def _paranoid_frontier(
    state, n, ply, first, order, maximising, max_player, alpha, beta, norm, tables
) -> tuple[float, int]:
    """Paranoid's children one ply above the depth limit, all leaves: each scored here
    (as ``_score_child`` does); returns the node's value and its best child.

    The counters and the principal variation are written once after the loop, and the
    loop has no abort test: leaves never spend a budget (only expanded nodes check it).
    Counts, values and the move chosen are those of a recursive call per leaf; the
    loop saved about 4 % of Paranoid's time at depth 8 on the midgame positions of
    ``chameleon-lab bench depths``."""
    moves, undo, vals, leaf, ictl, pv = _unpack(tables)
    keys, perm = tables.keys, tables.perm
    best = -np.inf if maximising else np.inf
    best_i = -1
    horizon = 0
    searched = 0
    for k in range(n):
        if order:
            _select(keys, perm, ply, k, n)
            i = perm[ply, k]
        else:
            i = _child(ply, k, first, ictl)
        if evaluate_after(state, moves[ply, i], leaf):  # scored without making it
            horizon += 1  # (the form answers only where the game goes on)
        else:
            make(state, moves[ply, i], undo, ply)
            evaluate(state, leaf)
            if player_of(state) >= 0:
                horizon += 1
            unmake(state, undo, ply)
        if norm:
            normalize(leaf)
        searched += 1
        value = _paranoid_value(leaf, max_player)
        if ply == 0:
            vals[ROOT_ROW + i, 0] = value
        if (value > best) if maximising else (value < best):
            best = value
            best_i = i
            if maximising:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                break
    ictl[S_EVALUATED] += searched
    ictl[S_HORIZON] += horizon
    if best_i < 0:  # no child improved on +-inf (only NaN scores do that)
        return best, first
    ictl[PV_LEN + ply + 1] = ply + 1
    _pv_take(pv, ictl, ply, moves[ply, best_i])
    return best, best_i


@template("generate", "make", "unmake", "player_of", "key", "evaluate")
def paranoid_node(
    state,
    depth,
    ply,
    norm,
    max_player,
    alpha,
    beta,
    order_depth,
    tables,
    tt_int,
    tt_val,
) -> float:
    """Paranoid as fail-soft alpha-beta with a transposition table and move ordering.

    ``max_player`` maximises ``2 * s[max_player] - (s0 + s1 + s2 + s3)``, everyone else
    minimises it. Returns the node's value: exact inside ``(alpha, beta)``, an upper
    bound at or below ``alpha``, a lower bound at or above ``beta``.

    Below the root the children are searched best first: the transposition table's
    move, then, where at least ``order_depth`` plies remain (0: never), the others by
    their static value for the player to move (each child made, evaluated and taken
    back; counted in ``S_ORDER_EVALS``, not as nodes), else in generation order. Only
    the order changes, so the value does not. Just above the leaves ordering would cost
    an evaluation per child to save some of the same evaluations, so it starts two
    plies up (as the two-player suite's ``ordering``). Ordering saves nodes on every
    midgame position measured; the history heuristic and killer moves, tried as well,
    saved nodes on one position and cost them on another, and time on both (figures in
    ``docs/benchmarks.md``, "Measurements behind the design").
    """
    moves, undo, vals, leaf, ictl, pv = _unpack(tables)
    keys, perm = tables.keys, tables.perm
    p = player_of(state)
    n = 0 if p < 0 or depth <= 0 else generate(state, moves, ply)
    if n == 0:
        _leaf(evaluate, state, leaf, p, depth, ply, norm, ictl)
        return _paranoid_value(leaf, max_player)
    if out_of_budget(ictl):
        return 0.0
    first = 0  # the table's move, else the first generated
    known = False  # whether the table gave it
    slot = -1
    h = 0
    if ply > 0 and depth >= TT_MIN_DEPTH and tt_int.shape[0] > 0:
        h = key(state)
        slot, first, known, hit, v = tt_probe(tt_int, tt_val, ictl, h, n, depth, alpha, beta)
        if hit:
            ictl[PV_LEN + ply] = ply
            return v
    ictl[S_EXPANDED] += 1
    alpha0 = alpha
    beta0 = beta
    maximising = p == max_player
    order = ply > 0 and order_depth > 0 and depth >= order_depth
    if order:
        _paranoid_order(state, n, ply, first, known, maximising, max_player, tables)
    if depth == 1:  # every child is a leaf: scored in a loop of its own
        best, best_i = _paranoid_frontier(
            state, n, ply, first, order, maximising, max_player, alpha, beta, norm, tables
        )
    else:
        best = -np.inf if maximising else np.inf
        best_i = first
        for k in range(n):
            if order:
                _select(keys, perm, ply, k, n)
                i = perm[ply, k]
            else:
                i = _child(ply, k, first, ictl)
            make(state, moves[ply, i], undo, ply)
            value = paranoid_node(
                state,
                depth - 1,
                ply + 1,
                norm,
                max_player,
                alpha,
                beta,
                order_depth,
                tables,
                tt_int,
                tt_val,
            )
            unmake(state, undo, ply)
            if ictl[C_ABORTED]:
                return 0.0
            if ply == 0:
                vals[ROOT_ROW + i, 0] = value
            if (value > best) if maximising else (value < best):
                best = value
                best_i = i
                _pv_take(pv, ictl, ply, moves[ply, i])
                if maximising:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
                if alpha >= beta:
                    break
    if slot >= 0:
        tt_store(tt_int, tt_val, ictl, slot, h, depth, best, best_i, alpha0, beta0)
    return best


#: The parts :func:`paranoid_node` calls by name, bound with it and compiled into it
#: (its registry entry's ``siblings``).
PARANOID_SIBLINGS = {
    "_paranoid_order": inlined(_paranoid_order),
    "_paranoid_frontier": inlined(_paranoid_frontier),
}


@template("generate", "make", "unmake", "player_of", "evaluate", "evaluate_after")
def hypermax_node(
    state,
    depth,
    ply,
    norm,
    players,
    n_players,
    tables,
) -> None:
    """Hypermax (Fridenfalk 2014); value vector into ``vals[ply]``.

    ``vals[ALPHA_ROW + ply]`` is the node's alpha vector (the parent's, copied in); it stops
    once its entries sum to zero or more. At the root it starts at minus infinity for the
    players alive at the root and 0 for the others, as the original's root data did.
    """
    moves, undo, vals, leaf, ictl, pv = _unpack(tables)
    p = player_of(state)
    n = 0 if p < 0 or depth <= 0 else generate(state, moves, ply)
    if n == 0:
        _leaf(evaluate, state, leaf, p, depth, ply, norm, ictl)
        _hypermax_leaf(vals, ply, leaf, players, n_players)
        return
    if out_of_budget(ictl):
        return
    ictl[S_EXPANDED] += 1
    a = ALPHA_ROW + ply
    for k in range(n):
        if k > 0 and vals[a, 0] + vals[a, 1] + vals[a, 2] + vals[a, 3] >= 0.0:
            break
        i = _child(ply, k, np.int64(0), ictl)
        _copy_row(vals, a, a + 1)
        if depth == 1:  # the child is a leaf: scored here, as its own call would
            _score_child(
                make,
                unmake,
                evaluate,
                evaluate_after,
                player_of,
                state,
                moves[ply, i],
                undo,
                leaf,
                ply,
                norm,
                ictl,
            )
            _hypermax_leaf(vals, ply + 1, leaf, players, n_players)
        else:
            make(state, moves[ply, i], undo, ply)
            hypermax_node(
                state,
                depth - 1,
                ply + 1,
                norm,
                players,
                n_players,
                tables,
            )
            unmake(state, undo, ply)
        if ictl[C_ABORTED]:
            return
        if ply == 0:
            _copy_row(vals, np.int64(1), ROOT_ROW + i)
        if k == 0 or vals[a, p] < vals[ply + 1, p]:
            _copy_row(vals, ply + 1, ply)
            _pv_take(pv, ictl, ply, moves[ply, i])
        if vals[a, p] < vals[ply, p]:
            vals[a, p] = vals[ply, p]


# ---------------------------------------------------------------- root calls
# The arguments with which the iterative-deepening driver starts each node function at
# the root (ply 0): the algorithm's own between the common head and the tables. The
# driver also compiles the node for them before its clock starts.
def maxn_root_args(search, state, ws, head, tables) -> tuple:
    """MaxN at the root."""
    return (*head, tables)


def maxnis_root_args(search, state, ws, head, tables) -> tuple:
    """MaxN-IS at the root: bound 0 and the heuristic's maximum sum (with a margin)."""
    return (*head, 0.0, search.max_sum + MARGIN, tables)


def paranoid_root_args(search, state, ws, head, tables) -> tuple:
    """Paranoid at the root: the root player maximises, the window is open."""
    player = search.game.player_of(state)
    return (*head, player, -np.inf, np.inf, search.order_depth, tables, ws.tt_int, ws.tt_val)


def hypermax_root_args(search, state, ws, head, tables) -> tuple:
    """Hypermax at the root: alpha minus infinity for the players alive, 0 for others."""
    players = np.asarray(search.game.players_alive(state), dtype=np.int64)
    ws.vals[ALPHA_ROW, :] = np.where(players == 1, -np.inf, 0.0)
    return (*head, players, float(players.sum()), tables)


@dataclass(frozen=True)
class HypermaxOptions:
    """Hypermax's one option: ``mended`` runs its cut made sound, MaxN with speculative
    pruning normalised unless told otherwise (the registry entry's ``runs_as``).

    Hypermax stops a node once the entries of its alpha vector, each player's best at
    the nodes above where it moved, add up to 0 or more on scores shifted by their mean.
    Three things make that unsound, and mending them gives speculative pruning
    (Sturtevant 2003, :mod:`.speculative`), which the mended Hypermax therefore runs:

    * the shift by each leaf's own mean reorders a player's preferences unless every
      vector has the same sum: the mend keeps MaxN's scores, which the test compares
      with the largest sum ``max_sum`` (1 normalised; the alpha sum reaching 0 on
      shifted scores is the bests reaching ``max_sum``);
    * a node replaces its best only by a child beating the alpha entry handed down from
      an ancestor, so it may return its first child when none does: the mend replaces
      the best by MaxN's rule (a strictly larger entry of the player to move);
    * the vector of a node cut this way is only a bound, yet the nodes above take it
      (the parent as its best, or a higher one through a choice it changed): the mend
      searches a cut node again, without bounds from above, when its parent accepts it.

    See :mod:`chameleon_lab.analysis.hypermax` for the departures each of them causes.
    """

    mended: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.mended, bool):
            raise ValueError(f"hypermax's option mended must be True or False, got {self.mended!r}")


@dataclass(frozen=True)
class BoundOptions:
    """The options of the searches that cut by a bound on a score vector's sum: MaxN
    with immediate and shallow pruning (both) and speculative MaxN (``max_sum``).

    ``max_sum``: the largest sum a leaf's score vector can have, which their cuts
    compare against (None: 1, the sum of normalised scores; without normalisation the
    heuristic's own bound must be given, see :func:`.api.deep_search`). ``deep``: the
    thesis flavour's unsound deep pruning (its figure 4.5; the improved flavour refuses
    it). Checked when made: ``ValueError`` naming the value."""

    max_sum: float | None = None
    deep: bool = False

    def __post_init__(self) -> None:
        if self.max_sum is not None and not (finite_real(self.max_sum) and self.max_sum > 0):
            raise ValueError(
                f"max_sum must be a finite number > 0 (or None: 1, normalised), "
                f"got {self.max_sum!r}"
            )
        if not isinstance(self.deep, (bool, np.bool_)):
            raise ValueError(f"deep must be True or False, got {self.deep!r}")
