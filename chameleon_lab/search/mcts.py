"""Monte Carlo tree search for two to four players, compiled: ``mcts``.

One iteration walks the tree from the root by UCT, adds the children of the node it
stops at, plays one of them out and backs the result up. Everything runs in one
compiled call per search (:func:`mcts_kernel`, bound per game and heuristic like the
other searches); the tree lives in preallocated arrays (:class:`MCTSWorkspace`), so no
Python runs per iteration.

**Values.** A result is a vector of rewards in ``[0, 1]``, one per player: a finished
game gives 1 to a winner, 0 to a loser and 1/2 for a draw (the sign of the game's exact
returns, so a disc difference counts as a win or a loss); a playout cut off after
``playout_depth`` plies (or a position without moves) gives each player its share of
the heuristic's scores (negative scores count as 0; all zero: equal shares). How a
node's statistics take the vector is the ``backup`` (Nijssen & Winands, "Enhancements
for multi-player Monte-Carlo tree search", CG 2010; "Search policies in multi-player
games", ICGA Journal 2013):

* ``maxn``: every player's own reward (MCTS-maxn, Sturtevant 2008);
* ``paranoid``: the root player's reward, and one minus it for every opponent;
* ``brs``: paranoid values in a tree of Best-Reply Search's shape: a node where an
  opponent is to move holds every opponent's moves, and after one of them the root
  player moves again (:mod:`.bestreply`; the game's ``pass_to`` with more than two
  players). Playouts follow the game's own turn order.

**Selection.** UCT on the mover's own component: a child's mean reward for the player
to move plus ``c * sqrt(ln N / n)``; a node's unvisited children first, in an order
shuffled when the node is expanded. **Progressive history** (Nijssen & Winands 2010)
adds ``W * h / (n (1 - mean) + 1)``, where ``h`` is the mean reward the player to
move got in every iteration in which it played that move (tree and playout alike),
and ``W = progressive_history`` (0: off; Ludii uses 3).

**MCTS-Solver** (Winands, Björnsson & Saito, CG 2008), for two-player zero-sum games
with ``solver=True``: a finished game reached in the tree is proven; a node is proven a
win for the player to move once one child is a proven win for it, and a loss or draw
once every child is proven (the best of them). Selection takes a proven win at once
and, while a child is unproven, never a proven draw or loss (with draws, as score
bounded MCTS prunes them: Cazenave & Saffidine, CG 2010); an iteration that reaches a
proven node backs up its proven value without a playout. Once the root is proven the
search stops and plays a best proven move (a win, else a draw); ``proved`` reports the
root's value for the side to move: 1, 0 or -1. Unproven, the most visited move is
played, or a proven draw where the most visited move's mean is below a draw's.

**Playouts** are random, or with ``playout="heuristic"`` epsilon-greedy: with chance
``epsilon`` a random move, else the move after which the mover's heuristic share is
largest (first of equals).

**Budgets**: ``iterations``, ``time_ms`` (the clock read every :data:`CLOCK_EVERY`
iterations) and ``nodes`` (positions made in the tree and in playouts), any mix, at
least one; the search stops at the first one spent, with at least one iteration. One
``seed`` gives one search: the same moves, visits and values on every run.

The tree holds up to :data:`MAX_NODES` nodes (a node per move of each expanded node);
once full, iterations go on without adding nodes.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from ..checks import finite_real, whole_number
from ..games.protocol import MAX_PLAYERS, GameOps
from ..games.registry import Game
from ..games.specialise import NO, ROOT_PLY, YES, template
from .api import search
from .core import (
    Budget,
    GameLike,
    RootResult,
    bind,
    check_root,
    compile_for,
    evaluate,
    game_line,
    generate,
    leaf_evaluator,
    make,
    pass_to,
    player_of,
    resolve_game,
    returns,
    state_of,
    unmake,
    workspace_for,
)
from .improved import now_ns

#: Most nodes a search's tree holds (4 M, about 400 MB of arrays; a workspace is sized
#: to its budget below that).
MAX_NODES = 1 << 22
#: Tree size for searches without an iteration budget (about 100 MB).
DEFAULT_NODES = 1 << 20
#: The clock is read every this many iterations.
CLOCK_EVERY = 16
#: A playout longer than this many plies is scored by the heuristic.
MAX_PLAYOUT = 10_000
#: The ply of the greedy playout's trial moves' undo rows, typed (see games.specialise).
_PLY1 = np.int64(1)
#: Slots of the progressive-history table per player (moves hashed into them).
HISTORY_SLOTS = 1 << 16
BACKUPS = ("maxn", "paranoid", "brs")
PLAYOUTS = ("random", "heuristic")
UNKNOWN = 2  # a node's proof: not proven (else 1 win, 0 draw, -1 loss, see below)

# ``stats``: counters and results of a search
ST_ITERATIONS = 0
ST_TREE = 1  # moves made in the tree
ST_PLAYOUT = 2  # moves made in playouts, and heuristic scorings
ST_NODES = 3  # tree nodes in use
ST_DEPTH = 4  # deepest node reached
ST_PROVED = 5  # the root's proof (UNKNOWN: none)
STATS = 6


#: The tree's arrays and an iteration's scratch rows, in the order the kernel takes them.
TREE = ("move", "first", "count", "owner", "gen", "visits", "value", "proof", "history")
SCRATCH = ("moves", "undo", "leaf", "path", "made")


@dataclass
class MCTSWorkspace:
    """The tree's arrays and scratch rows of :func:`mcts_kernel`; an agent keeps one
    and a search grows it to what its budget needs (``tt_bits`` is unused: the
    workspace makers of the registry all take it)."""

    game: GameOps
    tt_bits: int = 0
    capacity: int = 0
    arrays: dict[str, np.ndarray] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.arrays = {}
        self.ensure(self.capacity or 1024)

    def ensure(self, capacity: int) -> None:
        """Room for at least ``capacity`` nodes (reallocated only when it grows)."""
        if self.arrays and capacity <= self.capacity:
            return
        n = int(capacity)
        self.capacity = n
        ints = ("move", "first", "count", "owner", "gen", "proof")
        self.arrays = {name: np.zeros(n, dtype=np.int64) for name in ints}
        self.arrays["visits"] = np.zeros(n)
        self.arrays["value"] = np.zeros((n, MAX_PLAYERS))
        self.arrays["history"] = np.zeros((2, MAX_PLAYERS, HISTORY_SLOTS))
        g = self.game
        self.arrays["moves"] = np.zeros((1, g.max_moves), dtype=np.int64)
        self.arrays["undo"] = np.zeros((2, g.undo_size), dtype=np.int64)
        self.arrays["leaf"] = np.zeros(MAX_PLAYERS)
        self.arrays["path"] = np.zeros(MAX_PLAYOUT + 1024, dtype=np.int64)
        self.arrays["made"] = np.zeros((MAX_PLAYOUT + 1024, 2), dtype=np.int64)
        self.arrays["stats"] = np.zeros(STATS, dtype=np.int64)


# ------------------------------------------------------------------------ the kernel
@template("evaluate", "returns")
def _rewards(state, out, leaf, finished) -> None:  # pragma: no cover - compiled
    """The reward vector of ``state`` into ``out`` (see the module doc): from the
    game's returns when ``finished``, else the players' shares of the heuristic."""
    if finished:
        returns(state, leaf)
        for q in range(MAX_PLAYERS):
            out[q] = 1.0 if leaf[q] > 0 else (0.0 if leaf[q] < 0 else 0.5)
        return
    evaluate(state, leaf)
    total = 0.0
    for q in range(MAX_PLAYERS):
        total += max(leaf[q], 0.0)
    for q in range(MAX_PLAYERS):
        out[q] = max(leaf[q], 0.0) / total if total > 0 else 0.25


@njit(cache=True, forceinline=True)
def _slot(move: int, mask: int) -> int:
    """The progressive-history slot of a move (a multiplicative hash)."""
    return ((move * -7046029254386353131) >> 40) & mask


# The tree's arrays travel as one tuple (``tree``: move, first, count, owner, gen, visits,
# value, proof, history) and an iteration's scratch rows as another (``scratch``:
# moves, undo, leaf, path, made); the search's settings as ``params`` (root player,
# iterations, deadline, node limit, c, progressive-history weight, backup, solver,
# greedy playouts, epsilon, playout depth, seed). The parts below are templates bound
# with the kernel (its siblings), so each calls the game's functions.
@template()
def mcts_kernel(root, state, params, tree, scratch, stats):  # pragma: no cover - compiled
    """Run the search (see the module doc); the tree and ``stats`` hold the results.

    ``root`` is the root position (left as it is), ``state`` a working copy. An
    iteration selects a path down the tree, expanding its last node (``_select``), plays
    out from there (``_playout``) and backs the reward up the path (``_back_up``),
    proving what it can with the solver (``_prove``). ``backup`` 0 maxn, 1 paranoid, 2
    brs; a node's ``owner`` is the player who made its move; its ``proof`` is for that
    player.
    """
    iterations, deadline, node_limit, seed = params[1], params[2], params[3], params[11]
    np.random.seed(seed)  # noqa: NPY002 (numba's compiled stream: one seed, one search)
    _clear(tree, stats)
    proof = tree[7]
    used = np.int64(1)  # typed, not a literal (see games.specialise)
    reward = np.zeros(MAX_PLAYERS)
    v = np.zeros(MAX_PLAYERS)
    it = 0
    while True:
        if it > 0:
            if proof[0] != UNKNOWN or (iterations > 0 and it >= iterations):
                break
            if node_limit > 0 and stats[ST_TREE] + stats[ST_PLAYOUT] >= node_limit:
                break
            if deadline > 0 and it % CLOCK_EVERY == 0 and now_ns() >= deadline:
                break
        it += 1
        for i in range(state.shape[0]):
            state[i] = root[i]
        plen, nmade, scored, used = _select(state, params, tree, scratch, stats, reward, used)
        if not scored:
            nmade = _playout(state, params, scratch, stats, reward, v, nmade)
        _back_up(params, tree, scratch, reward, v, plen, nmade)
        if params[7]:
            _prove(tree, scratch[3], plen, stats)
    stats[ST_ITERATIONS] = it
    stats[ST_NODES] = used


@njit(cache=True, forceinline=True)
def _clear(tree, stats) -> None:  # pragma: no cover - compiled
    """An empty tree: the root alone, unvisited and unproven; counters zero."""
    move, first, count, owner, gen, visits, value, proof, history = tree
    history[:, :, :] = 0.0
    for i in range(stats.shape[0]):
        stats[i] = 0
    stats[ST_PROVED] = UNKNOWN
    move[0] = -1
    first[0] = -1
    count[0] = 0
    owner[0] = -1
    gen[0] = -1
    visits[0] = 0.0
    proof[0] = UNKNOWN
    for q in range(MAX_PLAYERS):
        value[0, q] = 0.0


@template("make", "player_of", "pass_to")
def _select(state, params, tree, scratch, stats, reward, used):  # pragma: no cover
    """Walk from the root to a node to play out from, expanding the first node met
    with no children; ``(path length, (player, move) pairs made, whether the reward is
    known without a playout, nodes in use)``. The path and pairs go to ``scratch``."""
    root_player, backup, solver = params[0], params[6], params[7]
    move, first, _count, owner, _gen, visits, _value, proof, _history = tree
    moves, undo, leaf, path, made = scratch
    capacity = move.shape[0]
    width = moves.shape[1]
    node = np.int64(0)  # typed, not a literal (see games.specialise)
    plen = 1
    path[0] = 0
    nmade = 0
    scored = False  # the reward is known without a playout
    while True:
        p = player_of(state)
        if p < 0:
            _rewards(state, reward, leaf, YES)
            if solver and node > 0:
                r = owner[node]
                proof[node] = 1 if reward[r] > 0.5 else (-1 if reward[r] < 0.5 else 0)
            scored = True
            break
        if solver and node > 0 and proof[node] != UNKNOWN:
            r = owner[node]  # the proven value, for the player who moved here
            won = 1.0 if proof[node] == 1 else (0.0 if proof[node] == -1 else 0.5)
            for q in range(MAX_PLAYERS):
                reward[q] = won if q == r else 1.0 - won
            scored = True
            break
        if first[node] < 0:
            if node > 0 and visits[node] == 0.0:
                break  # a new node: play out from here
            if used + (MAX_PLAYERS - 1) * width > capacity or plen >= path.shape[0] - 1:
                break  # the tree is full: play out from here
            k = _expand(state, p, node, used, root_player, backup, tree, moves)
            if k == used:
                break  # no moves: scored as a leaf
            used = k
        best = _child(node, params, tree)
        who = owner[best]
        if who != p:
            pass_to(state, who)
        make(state, move[best], undo, ROOT_PLY)
        q = player_of(state)
        if backup == 2 and p != root_player and q >= 0 and q != root_player:
            pass_to(state, root_player)  # BRS: the root player moves after a reply
        made[nmade, 0] = who
        made[nmade, 1] = move[best]
        nmade += 1
        stats[ST_TREE] += 1
        node = best
        path[plen] = node
        plen += 1
    if plen - 1 > stats[ST_DEPTH]:
        stats[ST_DEPTH] = plen - 1
    return plen, nmade, scored, used


@template("generate", "pass_to")
def _expand(state, p, node, used, root_player, backup, tree, moves):  # pragma: no cover
    """Give ``node`` its children from slot ``used`` on: the mover's moves (in a BRS
    tree an opponent's node holds every opponent's moves), unvisited and shuffled;
    the first slot after them (``used`` when there are no moves)."""
    move, first, count, owner, gen, visits, value, proof, _history = tree
    n = generate(state, moves, ROOT_PLY)
    k = used
    for i in range(n):
        move[k] = moves[0, i]
        owner[k] = p
        gen[k] = i
        k += 1
    if backup == 2 and p != root_player:
        for j in range(1, MAX_PLAYERS):
            r = (p + j) % MAX_PLAYERS
            if r == root_player:
                continue
            previous = pass_to(state, r)
            if previous < 0:
                break
            m = generate(state, moves, ROOT_PLY)
            pass_to(state, previous)
            for i in range(m):
                move[k] = moves[0, i]
                owner[k] = r
                gen[k] = k - used
                k += 1
    if k == used:
        return k
    for i in range(used, k):
        first[i] = -1
        count[i] = 0
        visits[i] = 0.0
        proof[i] = UNKNOWN
        for q in range(MAX_PLAYERS):
            value[i, q] = 0.0
    for i in range(k - 1, used, -1):  # shuffle: unvisited ones go in this order
        j = used + np.random.randint(0, i - used + 1)  # noqa: NPY002
        if j != i:
            t = move[i]
            move[i] = move[j]
            move[j] = t
            t = owner[i]
            owner[i] = owner[j]
            owner[j] = t
            t = gen[i]
            gen[i] = gen[j]
            gen[j] = t
    first[node] = used
    count[node] = k - used
    return k


@njit(cache=True, forceinline=True)
def _child(node, params, tree):  # pragma: no cover - compiled
    """A child of ``node`` by UCT (+ progressive history); with the solver a proven
    win at once, and proven draws and losses never while a child is unproven."""
    c, weight, solver = params[4], params[5], params[7]
    move, first, count, owner, _gen, visits, value, proof, history = tree
    mask = history.shape[2] - 1
    lo = first[node]
    best = -1
    best_score = -np.inf
    fallback = lo
    fallback_proof = -2
    log_n = math.log(max(visits[node], 1.0))
    for ch in range(lo, lo + count[node]):
        who = owner[ch]
        if solver and proof[ch] != UNKNOWN:
            if proof[ch] == 1:
                return ch
            if proof[ch] > fallback_proof:
                fallback_proof = proof[ch]
                fallback = ch
            continue
        if visits[ch] == 0.0:
            return ch
        mean = value[ch, who] / visits[ch]
        score = mean + c * math.sqrt(log_n / visits[ch])
        if weight > 0.0:
            h = _slot(move[ch], mask)
            if history[1, who, h] > 0.0:
                score += (
                    weight
                    * (history[0, who, h] / history[1, who, h])
                    / (visits[ch] * (1.0 - mean) + 1.0)
                )
        if score > best_score:
            best_score = score
            best = ch
    return fallback if best < 0 else best


@template("generate", "make", "unmake", "player_of")
def _playout(state, params, scratch, stats, reward, v, nmade):  # pragma: no cover
    """Play on from ``state`` to the end of the game or the playout depth, at random
    or (greedy) by the heuristic with probability 1 - epsilon; the reward into
    ``reward``; the (player, move) pairs made after the ``nmade`` in ``scratch``."""
    greedy, epsilon, playout_depth = params[8], params[9], params[10]
    moves, undo, leaf, _path, made = scratch
    k = 0
    while True:
        p = player_of(state)
        if p < 0:
            _rewards(state, reward, leaf, YES)
            return nmade
        if (playout_depth > 0 and k >= playout_depth) or k >= MAX_PLAYOUT:
            break
        n = generate(state, moves, ROOT_PLY)
        if n == 0:
            break
        i = np.random.randint(0, n)  # noqa: NPY002
        if greedy and np.random.random() >= epsilon:  # noqa: NPY002
            top = -np.inf
            for j in range(n):
                make(state, moves[0, j], undo, _PLY1)
                _rewards(state, v, leaf, player_of(state) < 0)
                unmake(state, undo, _PLY1)
                if v[p] > top:
                    top = v[p]
                    i = j
        if nmade < made.shape[0]:
            made[nmade, 0] = p
            made[nmade, 1] = moves[0, i]
            nmade += 1
        make(state, moves[0, i], undo, ROOT_PLY)
        stats[ST_PLAYOUT] += 1
        k += 1
    _rewards(state, reward, leaf, NO)
    stats[ST_PLAYOUT] += 1
    return nmade


@njit(cache=True, forceinline=True)
def _back_up(params, tree, scratch, reward, v, plen, nmade) -> None:  # pragma: no cover
    """Add the reward to every node of the path (maxn: each player's own; paranoid and
    brs: the root player's against the rest) and to the progressive history of every
    (player, move) pair made."""
    root_player, weight, backup = params[0], params[5], params[6]
    _move, _first, _count, _owner, _gen, visits, value, _proof, history = tree
    path, made = scratch[3], scratch[4]
    mask = history.shape[2] - 1
    for q in range(MAX_PLAYERS):
        if backup == 0:
            v[q] = reward[q]
        else:
            v[q] = reward[root_player] if q == root_player else 1.0 - reward[root_player]
    for j in range(plen):
        nd = path[j]
        visits[nd] += 1.0
        for q in range(MAX_PLAYERS):
            value[nd, q] += v[q]
    if weight > 0.0:
        for j in range(nmade):
            who = made[j, 0]
            h = _slot(made[j, 1], mask)
            history[0, who, h] += v[who]
            history[1, who, h] += 1.0


@njit(cache=True, forceinline=True)
def _prove(tree, path, plen, stats) -> None:  # pragma: no cover - compiled
    """The MCTS-Solver's step up the path: a node is proven when a child is a proven
    win for its mover, or when every child is proven (the best of them)."""
    _move, first, count, owner, _gen, _visits, _value, proof, _history = tree
    for j in range(plen - 1, -1, -1):
        nd = path[j]
        if proof[nd] != UNKNOWN:
            continue
        if first[nd] < 0:
            break
        lo = first[nd]
        mover = owner[lo]
        found = -2  # the best proof among the children, for the mover
        complete = True
        for ch in range(lo, lo + count[nd]):
            if proof[ch] == UNKNOWN:
                complete = False
            elif proof[ch] > found:
                found = proof[ch]
        if not (found == 1 or (complete and found > -2)):
            break
        if nd == 0:
            proof[0] = found  # for the player to move at the root
            stats[ST_PROVED] = found
        else:
            proof[nd] = found if owner[nd] == mover else -found


# ------------------------------------------------------------------------ the driver
@dataclass(frozen=True)
class MCTSOptions:
    """MCTS's options with their defaults (see the module doc)."""

    backup: str = "maxn"
    c: float = math.sqrt(2.0)
    progressive_history: float = 0.0
    solver: bool = False
    playout: str = "random"
    epsilon: float = 0.1
    playout_depth: int = 0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.backup not in BACKUPS:
            raise ValueError(f"backup must be one of {', '.join(BACKUPS)}, got {self.backup!r}")
        if self.playout not in PLAYOUTS:
            raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, got {self.playout!r}")
        for name in ("c", "progressive_history"):
            x = getattr(self, name)
            if not (finite_real(x) and x >= 0):
                raise ValueError(f"{name} must be a finite number >= 0, got {x!r}")
        if not (finite_real(self.epsilon) and 0.0 <= self.epsilon <= 1.0):
            raise ValueError(f"epsilon must be a number in [0, 1], got {self.epsilon!r}")
        if not isinstance(self.solver, (bool, np.bool_)):
            raise ValueError(f"solver must be true or false, got {self.solver!r}")
        whole_number("playout_depth", self.playout_depth, 0)
        whole_number("seed", self.seed, 0)


#: The options and their defaults, as the registry lists them.
OPTIONS = {f: getattr(MCTSOptions(), f) for f in MCTSOptions.__dataclass_fields__}


#: The parts of the kernel that call the game's functions, bound with it.
SIBLINGS = {"_rewards": _rewards, "_select": _select, "_expand": _expand, "_playout": _playout}


def _kernel(ops: GameOps, evaluate_fn: Any) -> Any:
    # the parts inlined into the kernel: as calls, handing the tree's arrays to each
    # part at every step cost TicTacToe a third of its simulations a second
    return bind(mcts_kernel, ops, evaluate_fn, siblings=SIBLINGS)


def run_mcts(
    position: Any,
    algorithm: str = "mcts",
    *,
    game: GameLike = None,
    budget: Budget,
    heuristic: Any = None,
    workspace: MCTSWorkspace | None = None,
    tt_bits: int = 0,
    **options: Any,
) -> RootResult:
    """Search ``position`` by MCTS within ``budget`` (iterations, time, nodes; not a
    depth) with ``options`` (:class:`MCTSOptions`); see the module doc."""
    opts = MCTSOptions(**options)
    if budget.depth is not None:
        raise ValueError("mcts takes no depth: give iterations, time_ms or nodes")
    game = resolve_game(position, game)
    if not isinstance(game, Game) or game.ops.returns is None:
        raise ValueError(
            "mcts plays games of the registry (it scores finished games by their returns)"
        )
    ops = game.ops
    info = game.info
    state = np.asarray(state_of(position), dtype=np.int64)
    moves = np.zeros((1, ops.max_moves), dtype=np.int64)
    n = check_root(ops, state, moves)
    players = int(np.sum(ops.players_alive(state)))
    if opts.solver and not (info.n_players == 2 and info.zero_sum):
        raise ValueError(
            f"the MCTS solver proves wins of two-player zero-sum games; {info.name} has "
            f"{info.n_players} players{'' if info.zero_sum else ' and is not zero-sum'}"
        )
    if opts.backup == "brs" and players > 2 and ops.pass_to is None:
        raise ValueError(
            f"backup='brs' hands the turn to one opponent out of order, which {info.name} "
            "cannot (its GameOps have no pass_to): use backup='paranoid'"
        )
    evaluate_fn = leaf_evaluator(game, heuristic)
    kernel = _kernel(ops, evaluate_fn)
    need = DEFAULT_NODES
    if budget.iterations is not None and budget.time_ms is None and budget.nodes is None:
        need = (budget.iterations + 1) * ops.max_moves * (3 if opts.backup == "brs" else 1)
    need = min(MAX_NODES, need)
    bits = 0 if workspace is None else workspace.tt_bits  # unused: any size will do
    workspace = workspace_for(MCTSWorkspace, ops, bits, workspace)
    workspace.ensure(need)
    a = workspace.arrays
    root_player = int(ops.player_of(state))
    tree = tuple(a[k] for k in TREE)
    scratch = tuple(a[k] for k in SCRATCH)

    def params(iterations: int, deadline: int, nodes: int) -> tuple:
        return (
            root_player, iterations, deadline, nodes, float(opts.c),
            float(opts.progressive_history), BACKUPS.index(opts.backup), bool(opts.solver),
            opts.playout == "heuristic", float(opts.epsilon), int(opts.playout_depth),
            int(opts.seed),
        )  # fmt: skip

    compile_for(kernel, state.copy(), state.copy(), params(0, 0, 0), tree, scratch, a["stats"])
    start = time.perf_counter_ns()
    deadline = 0 if budget.time_ms is None else start + int(budget.time_ms * 1e6)
    given = params(budget.iterations or 0, deadline, budget.nodes or 0)
    kernel(state.copy(), state.copy(), given, tree, scratch, a["stats"])
    seconds = (time.perf_counter_ns() - start) / 1e9
    return _report(a, n, root_player, seconds, opts.solver, ops, state)


def _report(a: dict[str, np.ndarray], n: int, root_player: int, seconds: float,
            solver: bool, ops: GameOps, root: np.ndarray) -> RootResult:  # fmt: skip
    """The root report of a finished search from the tree's arrays; the most visited
    line ends where a move is not the game's next (a BRS tree's reply out of turn)."""
    stats = a["stats"]
    lo, count = int(a["first"][0]), int(a["count"][0])
    visits = np.zeros(n)
    means = np.full(n, np.nan)
    proofs = np.full(n, UNKNOWN)
    moves = np.zeros(n, dtype=np.int64)
    children = range(lo, lo + count) if lo >= 0 else range(0)
    for ch in children:
        g = int(a["gen"][ch])
        visits[g] = a["visits"][ch]
        moves[g] = a["move"][ch]
        proofs[g] = a["proof"][ch]
        if visits[g] > 0:
            means[g] = a["value"][ch, root_player] / visits[g]
    proved = int(stats[ST_PROVED]) if solver and stats[ST_PROVED] != UNKNOWN else None
    keyed = np.where(np.isnan(means), -1.0, means)
    open_ = proofs == UNKNOWN if solver else np.ones(n, dtype=bool)
    order = np.lexsort((-np.arange(n), keyed, visits, open_))  # unproven, visits, mean
    index = int(order[-1])
    draws = np.flatnonzero(proofs == 0) if solver else []
    if proved is not None:  # a best proven move: a win, else a draw
        ranked = np.where(proofs == UNKNOWN, -2, proofs)
        index = int(np.lexsort((-np.arange(n), visits, ranked))[-1])
    elif len(draws) and (not open_[index] or keyed[index] < 0.5):
        index = int(draws[0])  # a sure draw beats a move that looks worse
    pv = []
    node = lo + [int(a["gen"][ch]) for ch in children].index(index) if count else -1
    while node >= 0:
        pv.append(int(a["move"][node]))
        first, k = int(a["first"][node]), int(a["count"][node])
        if first < 0 or k == 0:
            break
        node = first + int(np.argmax(a["visits"][first : first + k]))
        if a["visits"][node] == 0:
            break
    return RootResult(
        index=index,
        scores=means,
        depth=float(stats[ST_DEPTH]),
        expanded=int(stats[ST_TREE]),
        evaluated=int(stats[ST_PLAYOUT]),
        seconds=seconds,
        moves=moves,
        pv=game_line(ops, root, np.array(pv, dtype=np.int64)),
        exact=proved is not None,
        counters={"iterations": int(stats[ST_ITERATIONS]), "tree_nodes": int(stats[ST_NODES])},
        visits=visits,
        proved=proved,
    )


# --------------------------------------------------------------- its differential check
#: Iterations MCTS-Solver may take to prove a position of the solver targets (it stops
#: once the root is proven; none of them took half of this).
MCTS_ITERATIONS = 400_000


def mcts_case(position: Any, label: str = "", seed: int = 0) -> Any:
    """MCTS with its solver against NegaMax searched to the end of the game: it proves
    the root (within :data:`MCTS_ITERATIONS`), with NegaMax's win, draw or loss for the
    side to move, and plays a move of that outcome (the solver proves outcomes, not the
    largest disc difference of Othello)."""
    from . import differential as D

    game = position.game
    info = game.info
    full = search(position, "negamax", depth=min(D.MAX_DEPTH, info.max_length or D.MAX_DEPTH),
                  iterative=False)  # fmt: skip
    label = label or info.name
    tally = D.Tally(positions=1, searches=1)
    value = D._value(full)
    if not full.exact:
        tally.disagree("mcts", label, position, None, {"seed": seed}, "exact", 1, 0)
        return tally
    result = search(position, "mcts", iterations=MCTS_ITERATIONS, solver=True, seed=seed)
    expected = float(np.sign(value))
    setting = {"solver": True, "seed": seed}
    if result.proved is None:
        tally.disagree("mcts", label, position, None, setting, "proved", expected, np.nan)
    elif result.proved != expected:
        tally.disagree("mcts", label, position, None, setting, "value", expected, result.proved)
    elif float(np.sign(full.scores[result.index])) != expected:  # a move of that outcome
        move_value = float(np.sign(full.scores[result.index]))
        tally.disagree("mcts", label, position, None, setting, "move", expected, move_value)
    return tally


def differential_check() -> Any:
    """The :class:`~chameleon_lab.search.differential.Check` the registry entry names
    (``chameleon-lab check --checks mcts``), made on use so that searching never
    loads the harness."""
    from . import differential as D

    return D.Check(
        "mcts",
        "MCTS-Solver's proven value and move against negamax to the end",
        {"fast": D._solver_targets(3), "large": D._solver_targets(100)},
        lambda pos, depth, label: mcts_case(pos, label),
    )
