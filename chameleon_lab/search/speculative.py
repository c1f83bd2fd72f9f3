"""MaxN with speculative pruning (Sturtevant, "Last-Branch and Speculative Pruning
Algorithms for Max^n", IJCAI 2003): node function.

MaxN-IS (:func:`.improved.maxnis_node`) prunes between a node and its parent only:
once a node's player has ``b`` of a sum of at most ``S``, the parent's player, who has
``a`` from an earlier child, can get at most ``S - b`` here, and stops the node when
that is no more than ``a``. Speculative pruning looks further up. Let ancestors
``a_1, ..., a_L`` of a node (its parent first) have searched at least one child each,
and let some of them, with players distinct from each other and from the node's, hold
bests ``b_1, ..., b_m`` for their players. If the node's own best ``b`` and these add
up to ``S`` or more, no value of the node can be chosen by all of them: it would have
to beat each ``b_j`` strictly, and with the node's player holding at least ``b``, the
players' shares would add up to more than ``S``. So the node's value cannot become the
value of ``a_L``, and its remaining children are pruned (``L = 1`` is shallow
pruning).

What pruning makes uncertain, and how it is made certain again. A node pruned this way
returns a partial vector and a *level* ``L`` (in the tables' ``chain`` row, 0 for an
exact value) meaning: "my true value is the vector I return, or it does not become the
value of my ancestor ``L`` levels up". Its parent:

* **rejects** the vector (it does not beat the parent's best strictly): then the child
  is not the parent's choice, unless its true value is and stops higher up; the
  parent's own value is the one it computes without that child, or else it does not
  become the value of the ancestor ``L - 1`` levels above the parent, and the parent
  returns ``max(L - 1)`` over such children (``L = 1``: settled, as in MaxN-IS);
* **accepts** the vector (or it is its first child): the child might not be what it
  says, so it is searched again with no bounds from above it (``top``: the highest ply
  whose bound may be used), which returns its exact value.

Every accepted value is exact, so a node's best is a lower bound of its true best and
every pruning decision rests on true bounds; by induction, searched in the same order,
the root's choice, its vector and its line are MaxN's (with MaxN's tie rule: the first
child searched wins ties; inside the tree both search in generation order). At the root
iterative deepening searches the moves in the order of the previous iteration's values;
a root move cut by the root's bound would leave a bound there, not MaxN's value, and
among tied moves the next iteration could then search (and choose) another first. So
the root's bound prunes only in the iteration the budget asks for (the requested depth;
under a time or node budget, where MaxN would reach another depth anyway, in every
one): the iterations before it give every root move its exact value, and the move, its
vector and its line are MaxN's. ``tests/test_speculative.py`` holds it to that on
explicit trees and positions of every game and phase, and ``chameleon-lab check`` runs
it as the ``maxnsp`` check.

It needs what MaxN-IS needs: every score non-negative and each vector's sum at most
``max_sum`` (normalised scores sum to 1, and :data:`.improved.MARGIN` covers their
rounding). With constant-sum scores (normalised) the bound is tight and the pruning
bites; Sturtevant found the reduction growing with move ordering, which MaxN cannot
use without changing its values (see :mod:`.improved`), so here the children are
searched in generation order as MaxN's are.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games.specialise import template
from .core import _copy_in, _copy_row, evaluate, evaluate_after, generate, make, player_of, unmake
from .improved import (
    C_ABORTED,
    MARGIN,
    ROOT_ROW,
    S_EXPANDED,
    _child,
    _leaf,
    _pv_take,
    _score_child,
    _unpack,
    out_of_budget,
)

# the tables' ``chain`` row of a ply: its player, whether it holds a best, the level
# of uncertainty of the value it returned (see the module doc)
K_PLAYER = 0
K_HAS_BEST = 1
K_LEVEL = 2


@njit(cache=True, forceinline=True)
def _ancestors(vals, chain, ply: int, top: int, p: int, need: float) -> tuple[float, int]:
    """What the ancestors of the node at ``ply`` (player ``p``) hold together for their
    distinct players other than ``p``, walking up no further than ply ``top``, and the
    number of levels up at which that first reaches ``need`` (0: it does not). Ancestors
    whose player is already counted are passed over; the walk stops at an ancestor that
    holds no best yet (one searching its first child): it would accept whatever the node
    returns and so have to search its child again."""
    total = 0.0
    seen = 1 << p
    for a in range(ply - 1, top - 1, -1):
        if chain[a, K_HAS_BEST] == 0:
            break
        q = chain[a, K_PLAYER]
        if seen & (1 << q):
            continue
        seen |= 1 << q
        total += vals[a, q]
        if total >= need:
            return total, ply - a
    return total, 0


@template("generate", "make", "unmake", "player_of", "evaluate", "evaluate_after")
def maxnsp_node(
    state,
    depth,
    ply,
    norm,
    top,
    max_sum,
    tables,
) -> None:
    """MaxN with immediate, shallow and speculative pruning; value vector into
    ``vals[ply]`` and its level of uncertainty into ``chain[ply, K_LEVEL]``."""
    moves, undo, vals, leaf, ictl, pv = _unpack(tables)
    chain = tables.chain
    chain[ply, K_LEVEL] = 0
    p = player_of(state)
    n = 0 if p < 0 or depth <= 0 else generate(state, moves, ply)
    if n == 0:
        _leaf(evaluate, state, leaf, p, depth, ply, norm, ictl)
        _copy_in(vals, ply, leaf)
        return
    if out_of_budget(ictl):
        return
    ictl[S_EXPANDED] += 1
    chain[ply, K_PLAYER] = p
    chain[ply, K_HAS_BEST] = 0
    # the ancestors' bests stay as they are while this node is searched: the node is cut
    # once its own best reaches what they leave of the sum
    threshold = max_sum - _ancestors(vals, chain, ply, top, p, np.inf)[0]
    level = 0
    for k in range(n):
        if k > 0:
            if vals[ply, p] >= max_sum:  # immediate pruning: no child can beat it
                break
            if vals[ply, p] >= threshold:  # cut: how far up the proof reaches
                need = max_sum - vals[ply, p]
                chain[ply, K_LEVEL] = _ancestors(vals, chain, ply, top, p, need)[1]
                return
        i = _child(ply, k, np.int64(0), ictl)
        child_level = 0
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
            maxnsp_node(state, depth - 1, ply + 1, norm, top, max_sum, tables)
            child_level = chain[ply + 1, K_LEVEL]
            if (
                child_level > 0
                and not ictl[C_ABORTED]
                and (k == 0 or vals[ply + 1, p] > vals[ply, p])
            ):
                # accepted, perhaps wrongly: search it again without bounds from above
                maxnsp_node(state, depth - 1, ply + 1, norm, ply + 1, max_sum, tables)
                child_level = 0
            unmake(state, undo, ply)
        if ictl[C_ABORTED]:
            return
        if ply == 0:
            _copy_row(vals, np.int64(1), ROOT_ROW + i)
        if k == 0 or vals[ply + 1, p] > vals[ply, p]:
            _copy_row(vals, ply + 1, ply)
            _pv_take(pv, ictl, ply, moves[ply, i])
            chain[ply, K_HAS_BEST] = 1
        elif child_level > level + 1:
            level = child_level - 1
    chain[ply, K_LEVEL] = level


def maxnsp_root_args(search, state, ws, head, tables) -> tuple:
    """Speculative MaxN at the root: the heuristic's maximum sum (with MaxN-IS's margin),
    and bounds from the root down in the iteration the budget asked for, from the root's
    children down in the iterations before it (``ws.final``; see the module doc)."""
    return (*head, 0 if ws.final else 1, search.max_sum + MARGIN, tables)
