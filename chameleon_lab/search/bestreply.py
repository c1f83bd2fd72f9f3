"""Best-Reply Search (BRS) and BRS+ for games of two to four players: node function.

Both search as Paranoid does, from the root player's view: the root player maximises
``2 * s[root] - (s0 + s1 + s2 + s3)``, its opponents minimise it. They differ from
Paranoid in what an opponent's layer holds.

* **BRS** (Schadd & Winands, "Best Reply Search for Multiplayer Games", IEEE TCIAIG
  2011): the root player moves at even plies; at odd plies one MIN layer holds the
  moves of every opponent still in the game, only the opponent with the strongest
  reply moves, and the turn passes back to the root player (the others, in effect,
  pass). A search of depth ``d`` so sees ``d / 2`` moves of the root player, where
  Paranoid with four players sees ``d / 4``. The turn change needs the game's
  ``pass_to`` (:class:`~chameleon_lab.games.protocol.GameOps`); in a game of two
  players the single opponent's layer is its own turn, so BRS is Paranoid there, which
  with two players is alpha-beta.
* **BRS+** (Esser, Gras, Winands, Schadd & Lanctot, "Improving Best-Reply Search",
  CG 2013): the turn order is kept. Between two turns of the root player every
  opponent moves in its turn; one of them (any one: each is tried) plays the searched
  reply, each of the others plays the move the move ordering puts first, here its
  *greedy* move: the one whose position has the lowest static value for the root
  player (the heuristic, normalised as the search is, first of equals in generation
  order). The positions searched are positions of the game, which BRS's are not.

Players who are out or must pass. An opponent eliminated from the game has no moves
and takes no part in a layer (BRS: it offers no reply; BRS+: the game skips its turn,
as its rules do). A forced pass (Othello) is a legal move like any other: BRS and BRS+
search it as the opponent's only reply or play it as its greedy move. Once the root
player is out (Chameleon Chess goes on without it), the position is scored as a leaf:
BRS hands it the turn and it has no moves; in BRS+ the turn comes round to an opponent
who has moved in the layer already. A position whose player to move has no move is a leaf, as in
every search of :mod:`.improved`.

Depth counts layers: the root player's move is one, an opponents' layer is one (with
BRS+, however many opponents move in it). With two players both are plain alpha-beta
at the same depth, and return its value (the conformance contract's rule, and a test).

Enhancements as the improved Paranoid has (:func:`.improved.paranoid_node`): fail-soft
alpha-beta, the transposition table's move first, children ordered by their static
value where at least ``order_depth`` layers remain, the table storing values with
exact/lower/upper flags at the same remaining depth. BRS+ probes and stores the table
only where a layer starts (the root player's nodes and an opponents' layer's first
node): inside a layer a position's value depends on whether the reply has been played
yet. A BRS MIN layer orders all opponents' replies together (best first for the
opponents), so the strongest reply of any opponent is searched first; its moves and
their owners are kept in the tables' ``reply`` and ``owner`` rows.

BRS+ uses ply rows for every move of a layer, so its deepest search has fewer layers
than :data:`~.core.MAX_DEPTH` (four players: about ``MAX_PLIES / 2``); where the rows
run out the position is scored as a leaf (counted as cut by the depth limit).
"""

from __future__ import annotations

import numpy as np

from ..games.heuristics import normalize
from ..games.protocol import MAX_PLAYERS
from ..games.specialise import inlined, template
from .core import MAX_PLIES, evaluate, generate, key, make, pass_to, player_of, unmake
from .improved import (
    _BIG,
    C_ABORTED,
    C_CONSTS,
    PV_LEN,
    ROOT_ROW,
    S_EXPANDED,
    S_ORDER_EVALS,
    TT_MIN_DEPTH,
    _child,
    _leaf,
    _paranoid_value,
    _pv_take,
    _select,
    _unpack,
    out_of_budget,
    tt_probe,
    tt_store,
)

#: A node's ``stage``: where a layer starts (the root player's nodes and an opponents'
#: layer's first node, the only nodes the table serves), inside a BRS+ layer before the
#: reply, and after it (the opponents left play their greedy moves).
LAYER_START = 0
BEFORE_REPLY = 1
AFTER_REPLY = 2


# the search's constants, kept in ``ictl`` (:data:`.improved.C_CONSTS`) by the root
# call and read in every node instead of handed down the tree
K_MAX_PLAYER = C_CONSTS  # the root player, who maximises
K_ORDER_DEPTH = C_CONSTS + 1  # order the children from this remaining depth on (0: off)
K_PLUS = C_CONSTS + 2  # BRS+ (1) or BRS (0)


@template("make", "unmake", "evaluate", "pass_to")
def _static(state, move, owner, mover, max_player, norm, ply, tables):  # pragma: no cover
    """The static value for ``max_player`` of the position that ``move`` of ``owner``
    leads to (made by ``owner``, evaluated, taken back; ``mover`` is the player to move
    now): Paranoid's value of the heuristic's vector, normalised if ``norm``, counted as
    an ordering evaluation, not a node."""
    leaf = tables.leaf
    previous = np.int64(-1)  # typed, not a literal (see games.specialise)
    if owner != mover:
        previous = pass_to(state, owner)
    make(state, move, tables.undo, ply)
    evaluate(state, leaf)
    unmake(state, tables.undo, ply)
    if previous >= 0:
        pass_to(state, previous)
    if norm:
        normalize(leaf)
    tables.ictl[S_ORDER_EVALS] += 1
    return _paranoid_value(leaf, max_player)


@template("generate", "pass_to")
def _layer(state, tables, ply, n, p, max_player, brs_layer):  # pragma: no cover
    """The node's moves and who makes each into the ``reply`` and ``owner`` rows: the
    ``n`` moves of ``p``, and in a BRS opponents' layer (``brs_layer``) every other
    opponent's, handed the turn by ``pass_to`` (a game that cannot ends the list).
    Returns their number."""
    moves, reply, owner = tables.moves, tables.reply, tables.owner
    for i in range(n):
        reply[ply, i] = moves[ply, i]
        owner[ply, i] = p
    for j in range(1, MAX_PLAYERS if brs_layer else 1):
        r = (p + j) % MAX_PLAYERS
        if r == max_player:
            continue
        previous = pass_to(state, r)
        if previous < 0:
            break
        m = generate(state, moves, ply)
        pass_to(state, previous)
        for i in range(m):
            reply[ply, n + i] = moves[ply, i]
            owner[ply, n + i] = r
        n += m
    return n


@template()
def _greedy(state, tables, ply, n, p, max_player, norm):  # pragma: no cover
    """BRS+: the index of opponent ``p``'s greedy move among its ``n`` moves (the lowest
    static value for the root player, first of equals), which it plays when another
    opponent replies; the values, negated, are the moves' ordering keys."""
    greedy = 0
    low = np.inf
    for i in range(n):
        v = _static(state, tables.reply[ply, i], p, p, max_player, norm, ply, tables)
        tables.keys[ply, i] = -v
        if v < low:
            low = v
            greedy = i
    return greedy


@template("make", "unmake", "player_of")
def _children(state, tables, ply, n, greedy, stage, moved_now, max_player):  # pragma: no cover
    """BRS+, an opponent's node: how many children it searches. After the reply only
    its greedy move; before, every move as the reply, and the greedy move once more
    with the reply left to a later opponent, where one moves after this one in the
    layer."""
    if stage == AFTER_REPLY:
        return 1
    undo = tables.undo
    make(state, tables.reply[ply, greedy], undo, ply)
    q = player_of(state)
    unmake(state, undo, ply)
    if q >= 0 and q != max_player and not (moved_now >> q) & 1:
        return n + 1
    return n


@template()
def _key(state, tables, ply, n, p, maximising, static, known, first, norm, max_player):
    """The ordering keys of the ``n`` moves at ``ply`` (the table's move first, then by
    static value, best first for the player to move; ``static`` false: the keys BRS+
    gave an opponent's moves already, see :func:`_greedy`)."""  # pragma: no cover
    sign = 1.0 if maximising else -1.0
    for i in range(n):
        tables.perm[ply, i] = i
        if known and i == first:
            tables.keys[ply, i] = _BIG
        elif static:
            tables.keys[ply, i] = sign * _static(
                state, tables.reply[ply, i], tables.owner[ply, i], p, max_player, norm,
                ply, tables,
            )  # fmt: skip


@template("make", "player_of", "pass_to")
def _make_child(state, tables, ply, i, p, depth, stage, moved_now, plus, maximising):
    """Make move ``i`` of the node at ``ply`` (its owner handed the turn first) and set
    up the child: ``(previous, back, depth, stage, moved)``, the turns to hand back
    after it (-1: none) and the child's remaining depth, stage and movers of its layer.
    The layer ends when the root player moves next; in BRS+ it also ends, the root
    player out, when the turn comes round to an opponent who moved in it; in BRS the
    turn goes back to the root player after the reply."""  # pragma: no cover
    max_player = tables.ictl[K_MAX_PLAYER]
    r = tables.owner[ply, i]
    previous = pass_to(state, r) if r != p else np.int64(-1)
    make(state, tables.reply[ply, i], tables.undo, ply)
    q = player_of(state)
    none = np.int64(-1)  # typed, not a literal (see games.specialise)
    if maximising or q < 0 or q == max_player:
        return previous, none, depth - 1, LAYER_START, 0
    if plus and (moved_now >> q) & 1:
        return previous, none, 0, LAYER_START, 0
    if plus:
        return previous, none, depth, stage, moved_now
    return previous, pass_to(state, max_player), depth - 1, LAYER_START, 0


@template("generate", "unmake", "player_of", "key", "evaluate", "pass_to")
def brs_node(state, depth, ply, norm, alpha, beta, stage, moved, tables, tt_int, tt_val):
    """BRS or BRS+ (the root call's ``ictl[K_PLUS]``) from the root player's view;
    returns the node's value: exact inside ``(alpha, beta)``, an upper bound at or below
    ``alpha``, a lower bound at or above ``beta`` (see the module doc; ``stage`` is
    ``LAYER_START``, ``BEFORE_REPLY`` or ``AFTER_REPLY``; ``moved``, the bit mask of the
    opponents who moved in this BRS+ layer so far)."""  # pragma: no cover
    moves, undo, vals, leaf, ictl, pv = _unpack(tables)
    max_player, order_depth, plus = ictl[K_MAX_PLAYER], ictl[K_ORDER_DEPTH], ictl[K_PLUS] != 0
    p = player_of(state)
    if ply >= MAX_PLIES - 2:  # the ply rows run out (BRS+ layers of many moves)
        depth = 0
    n = 0 if p < 0 or depth <= 0 else generate(state, moves, ply)
    if n == 0:
        _leaf(evaluate, state, leaf, p, depth, ply, norm, ictl)
        return _paranoid_value(leaf, max_player)
    if out_of_budget(ictl):
        return 0.0
    maximising = p == max_player
    opponents_plus = plus and not maximising
    n = _layer(state, tables, ply, n, p, max_player, not maximising and not plus)
    greedy = _greedy(state, tables, ply, n, p, max_player, norm) if opponents_plus else 0
    first, known, slot, h = 0, False, -1, 0  # the table's move, else the first generated
    if stage == LAYER_START and ply > 0 and depth >= TT_MIN_DEPTH and tt_int.shape[0] > 0:
        h = key(state)
        slot, first, known, hit, v = tt_probe(tt_int, tt_val, ictl, h, n, depth, alpha, beta)
        if hit:
            ictl[PV_LEN + ply] = ply
            return v
    ictl[S_EXPANDED] += 1
    alpha0, beta0 = alpha, beta
    moved_now = moved | (1 << p)
    count = n
    if opponents_plus:
        count = _children(state, tables, ply, n, greedy, stage, moved_now, max_player)
    order = count > 1 and ply > 0 and order_depth > 0 and depth >= order_depth
    if order:
        _key(state, tables, ply, n, p, maximising, maximising or not plus, known, first,
             norm, max_player)  # fmt: skip
    best = -np.inf if maximising else np.inf
    best_i = first
    for k in range(count):
        child_stage = AFTER_REPLY if opponents_plus else LAYER_START  # this is the reply
        if opponents_plus and (stage == AFTER_REPLY or k == n):
            i = greedy  # played by this opponent; the reply is another's
            child_stage = AFTER_REPLY if stage == AFTER_REPLY else BEFORE_REPLY
        elif order:
            _select(tables.keys, tables.perm, ply, k, n)
            i = tables.perm[ply, k]
        else:
            i = _child(ply, k, first, ictl)
        previous, back, child_depth, child_stage, child_moved = _make_child(
            state, tables, ply, i, p, depth, child_stage, moved_now, plus, maximising
        )
        value = brs_node(state, child_depth, ply + 1, norm, alpha, beta, child_stage,
                         child_moved, tables, tt_int, tt_val)  # fmt: skip
        if back >= 0:
            pass_to(state, back)
        unmake(state, undo, ply)
        if previous >= 0:
            pass_to(state, previous)
        if ictl[C_ABORTED]:
            return 0.0
        if ply == 0:
            vals[ROOT_ROW + i, 0] = value
        if (value > best) if maximising else (value < best):
            best, best_i = value, i
            _pv_take(pv, ictl, ply, tables.reply[ply, i])
            if maximising:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                break
    if slot >= 0:
        tt_store(tt_int, tt_val, ictl, slot, h, depth, best, best_i, alpha0, beta0)
    return best


#: The parts :func:`brs_node` calls by name, bound with it and compiled into it (its
#: registry entries' ``siblings``).
SIBLINGS = {
    name: inlined(fn)
    for name, fn in (
        ("_static", _static),
        ("_layer", _layer),
        ("_greedy", _greedy),
        ("_children", _children),
        ("_key", _key),
        ("_make_child", _make_child),
    )
}


# ---------------------------------------------------------------- root calls
def _root_args(search, state, ws, head, tables, plus: bool) -> tuple:
    """The root call's arguments, its constants written into ``ictl`` first."""
    ws.ictl[K_MAX_PLAYER] = search.game.player_of(state)
    ws.ictl[K_ORDER_DEPTH] = search.order_depth
    ws.ictl[K_PLUS] = plus
    return (*head, -np.inf, np.inf, LAYER_START, 0, tables, ws.tt_int, ws.tt_val)


def brs_root_args(search, state, ws, head, tables) -> tuple:
    """BRS at the root: the root player maximises, the window is open."""
    return _root_args(search, state, ws, head, tables, False)


def brsplus_root_args(search, state, ws, head, tables) -> tuple:
    """BRS+ at the root: the root player maximises, the window is open."""
    return _root_args(search, state, ws, head, tables, True)
