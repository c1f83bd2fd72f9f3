"""Depth-first proof-number search (df-pn) for two-player games with exact results.

Proof-number search (Allis, van der Meulen & van den Herik 1994) proves or disproves
one goal, here "the attacker's result is at least as good as the opponent's" (strict
for a win), by growing the tree where a proof looks cheapest: a node's *proof number*
is the least number of leaves that must be proved to prove it, its *disproof number*
the least to disprove it. At a node where the attacker moves (an OR node) the proof
number is the least of the children's and the disproof number their sum; where the
opponent moves (an AND node) the other way round. A finished position is proved
(0, infinity) or disproved (infinity, 0) by its returns; an unexpanded one counts
(1, 1).

Df-pn (Nagai 2002) searches the same most-proving nodes depth first: a node is
searched while its numbers stay below two thresholds handed down from its parent,
and the numbers of nodes left are kept in a transposition table (a position's key,
proof and disproof number; always replaced). The child searched next gets as its
thresholds what would make another child (or the parent) the most proving one, with
the second-best child's number raised by a factor ``1 + epsilon`` (Pawlewicz & Lew
2007), which keeps the search from switching between two children at every
expansion.

Win, draw or loss. Df-pn decides one yes-or-no question; :func:`run_dfpn` asks two
for the side to move: "do I win?" and, if not, "do I at least draw?" (each with a
fresh table). The root is proved a win (1), a draw (0) or a loss (-1), or the budget
(nodes, time) runs out first (``proved`` is ``None``). A game whose returns are
scores (Othello's disc difference, Connect Four's) is decided by their sign. The
chosen move keeps the proved value: a winning move of a won position, a drawing one
of a drawn position; with no proof, the child with the smallest proof number of the
last question asked (the most promising).

Acyclic games only: every two-player game of the registry ends within
``max_length`` plies, which bounds the search's depth. The searches count a node
*expanded* when its moves are generated and *evaluated* when it is a finished
position scored by its returns; their sum is the node budget. No heuristic is used.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..games.protocol import MAX_PLAYERS, GameOps
from ..games.registry import Game
from ..games.specialise import specialise, template
from .api import search
from .core import (
    DFPN_TT_BITS,
    Budget,
    GameLike,
    RootResult,
    check_root,
    check_tt_bits,
    compile_for,
    generate,
    key,
    make,
    player_of,
    resolve_game,
    returns,
    state_of,
    unmake,
    working_state,
    workspace_for,
)
from .improved import now_ns
from .solve import solve

#: Proof and disproof numbers saturate here ("infinity": proved or disproved).
INF = 1 << 50
#: A table slot no position keys to.
EMPTY = 0x7FFFFFFFFFFFFFF1
#: The clock is read every this many expansions when there is a time budget.
CLOCK_EVERY = 256
# stats: expanded, evaluated, table hits, too deep, budget spent, node limit (0: none),
# deadline (ns, 0: none), deepest ply reached; and the question: the attacker, whether
# a win is needed (1) or a draw will do (0), the salt of this question's table keys
S_EXPANDED, S_EVALUATED, S_HITS, S_DEEP, S_SPENT, S_LIMIT, S_DEADLINE, S_PLY = range(8)
S_ATTACKER, S_STRICT, S_SALT = range(8, 11)
#: A salt's odd multiplier (the golden ratio's 64 bits): each question's keys differ.
SALT_STEP = 0x9E3779B97F4A7C15


@dataclass(frozen=True)
class DfpnOptions:
    """Df-pn's options: ``epsilon`` of the 1 + epsilon trick (0 gives Nagai's df-pn),
    ``tt_bits`` the table's size (2**tt_bits entries)."""

    epsilon: float = 0.25
    tt_bits: int = DFPN_TT_BITS

    def __post_init__(self) -> None:
        e = self.epsilon
        if isinstance(e, bool) or not isinstance(e, (int, float)) or not 0 <= e <= 10:
            raise ValueError(f"epsilon must be a number in 0..10 (0: plain df-pn), got {e!r}")
        check_tt_bits(self.tt_bits)
        if self.tt_bits < 1:
            raise ValueError("df-pn needs its table: tt_bits must be at least 1")


@template("make", "unmake", "player_of", "key", "returns")
def _score_child(state, ply, moves, undo, out, kids, stats, tt, i):
    """Put child ``i``'s proof and disproof numbers into ``kids[ply, i]``: from its
    returns when the game is over there, from the table, else (1, 1)."""
    make(state, moves[ply, i], undo, ply)
    if player_of(state) < 0:
        stats[S_EVALUATED] += 1
        returns(state, out)
        attacker = stats[S_ATTACKER]
        margin = out[attacker] - out[1 - attacker]
        won = margin > 0 if stats[S_STRICT] else margin >= 0
        kids[ply, i, 0] = 0 if won else INF
        kids[ply, i, 1] = INF if won else 0
    else:
        h = key(state)
        slot = h & (tt.shape[0] - 1)
        if tt[slot, 0] == h ^ stats[S_SALT]:
            stats[S_HITS] += 1
            kids[ply, i, 0] = tt[slot, 1]
            kids[ply, i, 1] = tt[slot, 2]
        else:
            kids[ply, i, 0] = 1
            kids[ply, i, 1] = 1
    unmake(state, undo, ply)


@template()
def _select(kids, ply, n, or_node):
    """The node's (proof, disproof) numbers from its children's, the most proving
    child and the second-smallest number beside it (the one the node minimises)."""
    low = 0 if or_node else 1  # the number the node takes the least of
    least = INF
    second = INF
    best = 0
    total = 0
    for i in range(n):
        v = kids[ply, i, low]
        total = min(INF, total + kids[ply, i, 1 - low])
        if v < least:
            second = least
            least = v
            best = i
        elif v < second:
            second = v
    if or_node:
        return least, total, best, second
    return total, least, best, second


@template()
def _spent(stats):
    """Whether the node or time budget is spent (and the search must unwind)."""
    if stats[S_SPENT]:
        return True
    nodes = stats[S_EXPANDED] + stats[S_EVALUATED]
    if stats[S_LIMIT] and nodes >= stats[S_LIMIT]:
        stats[S_SPENT] = 1
    elif stats[S_DEADLINE] and stats[S_EXPANDED] % CLOCK_EVERY == 0:
        stats[S_SPENT] = now_ns() >= stats[S_DEADLINE]
    return stats[S_SPENT] != 0


@template("generate", "make", "unmake", "player_of", "key")
def dfpn_mid(  # pragma: no cover - compiled by compiled_dfpn
    state, th_pn, th_dn, ply, moves, undo, out, kids, stats, tt, grow
):
    """Search the unfinished position ``state`` until its proof number reaches
    ``th_pn`` or its disproof number ``th_dn`` (or the budget is spent); store and
    return its numbers. ``grow`` is 1 + epsilon."""
    if ply + 1 >= moves.shape[0]:
        stats[S_DEEP] = 1  # the game is longer than its tables: the caller reports it
        stats[S_SPENT] = 1
        return 1, 1
    stats[S_EXPANDED] += 1
    stats[S_PLY] = max(stats[S_PLY], ply)
    n = generate(state, moves, ply)
    or_node = player_of(state) == stats[S_ATTACKER]
    for i in range(n):
        _score_child(state, ply, moves, undo, out, kids, stats, tt, i)
    pn, dn, best, second = _select(kids, ply, n, or_node)
    while pn < th_pn and dn < th_dn and not _spent(stats):
        stretched = min(INF, int(second * grow) + 1)
        if or_node:
            c_pn = min(th_pn, stretched)
            c_dn = min(INF, th_dn - dn + kids[ply, best, 1])
        else:
            c_dn = min(th_dn, stretched)
            c_pn = min(INF, th_pn - pn + kids[ply, best, 0])
        make(state, moves[ply, best], undo, ply)
        cp, cd = dfpn_mid(state, c_pn, c_dn, ply + 1, moves, undo, out, kids, stats, tt, grow)
        unmake(state, undo, ply)
        kids[ply, best, 0] = cp
        kids[ply, best, 1] = cd
        pn, dn, best, second = _select(kids, ply, n, or_node)
    h = key(state)
    slot = h & (tt.shape[0] - 1)
    tt[slot, 0] = h ^ stats[S_SALT]
    tt[slot, 1] = pn
    tt[slot, 2] = dn
    return pn, dn


def compiled_dfpn(ops: GameOps) -> Any:
    """Df-pn's node function compiled for ``ops``'s game."""
    if ops.returns is None:
        raise ValueError(f"{ops.name} declares no returns: df-pn cannot prove its results")
    bindings = {
        name: getattr(ops, name)
        for name in ("generate", "make", "unmake", "player_of", "key", "returns")
    }
    return specialise(
        dfpn_mid,
        bindings,
        siblings={"_score_child": _score_child, "_select": _select, "_spent": _spent},
        _nrt=False,
    )


@dataclass
class DfpnWorkspace:
    """Df-pn's tables for one game: the transposition table (key, proof, disproof
    number a row) and, a ply, the moves, the undo row and the children's numbers
    (grown by ``ensure`` to the game's length)."""

    game: GameOps
    tt_bits: int = DFPN_TT_BITS
    plies: int = 0
    arrays: dict[str, np.ndarray] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        check_tt_bits(self.tt_bits)
        self.arrays = {
            "tt": np.full((1 << self.tt_bits, 3), EMPTY, dtype=np.int64),
            "out": np.zeros(MAX_PLAYERS),
            "stats": np.zeros(11, dtype=np.int64),
        }
        self.questions = 0  # asked with this table: each salts its keys differently
        self.ensure(self.plies or 64)

    def ensure(self, plies: int) -> None:
        """Rows for at least ``plies`` plies (reallocated only when it grows)."""
        if "moves" in self.arrays and plies <= self.plies:
            return
        g = self.game
        self.plies = int(plies)
        self.arrays["moves"] = np.zeros((plies, g.max_moves), dtype=np.int64)
        self.arrays["undo"] = np.zeros((plies, g.undo_size), dtype=np.int64)
        self.arrays["kids"] = np.zeros((plies, g.max_moves, 2), dtype=np.int64)


def _workspace(game: Game, tt_bits: int, workspace: DfpnWorkspace | None) -> DfpnWorkspace:
    """``workspace`` (checked against the game and table size), else this thread's
    shared one, with rows for the game's longest line."""
    workspace = workspace_for(DfpnWorkspace, game.ops, tt_bits, workspace)
    workspace.ensure((game.info.max_length or 1022) + 2)
    return workspace


def _ask(node: Any, state: np.ndarray, strict: bool, ws: DfpnWorkspace, grow: float) -> tuple:
    """One question (win, or at least a draw, for the side to move) on a table no
    earlier question's entries answer (their keys were salted differently): the root's
    numbers and its children's."""
    a = ws.arrays
    ws.questions += 1
    stats = a["stats"]
    stats[S_ATTACKER] = int(ws.game.player_of(state))
    stats[S_STRICT] = int(strict)
    salt = ws.questions * SALT_STEP % 2**64
    stats[S_SALT] = salt - 2**64 if salt >= 2**63 else salt
    pn, dn = node(
        state, INF, INF, 0, a["moves"], a["undo"], a["out"], a["kids"], stats, a["tt"], grow
    )
    return int(pn), int(dn), a["kids"][0].copy()


def run_dfpn(
    position: Any,
    algorithm: str = "dfpn",
    *,
    game: GameLike = None,
    budget: Budget,
    heuristic: Any = None,
    workspace: DfpnWorkspace | None = None,
    tt_bits: int = DFPN_TT_BITS,
    **options: Any,
) -> RootResult:
    """Prove ``position`` a win, draw or loss for the side to move within ``budget``
    (nodes, time; no depth); see the module doc. ``heuristic`` is not used."""
    opts = DfpnOptions(**options, tt_bits=tt_bits)
    if budget.depth is not None or budget.iterations is not None:
        raise ValueError("dfpn searches to the end of the game: give nodes or time_ms, no depth")
    game = resolve_game(position, game)
    if not isinstance(game, Game) or game.info.n_players != 2 or not game.info.zero_sum:
        name = getattr(getattr(game, "info", None), "name", game)
        raise ValueError(f"dfpn proves results of two-player zero-sum games, not of {name}")
    ops = game.ops
    ws = _workspace(game, opts.tt_bits, workspace)
    state = working_state(np.asarray(state_of(position), dtype=np.int64))
    n = check_root(ops, state, ws.arrays["moves"])
    node = compiled_dfpn(ops)
    a = ws.arrays
    a["stats"][:] = 0
    args = (state, INF, INF, 0, a["moves"], a["undo"], a["out"], a["kids"], a["stats"], a["tt"])
    compile_for(node, *args, 1.0 + opts.epsilon)  # off the clock
    a["stats"][S_LIMIT] = budget.nodes or 0
    start = time.perf_counter_ns()
    if budget.time_ms is not None:
        a["stats"][S_DEADLINE] = start + int(budget.time_ms * 1e6)
    grow = 1.0 + opts.epsilon
    answers = [_ask(node, state, True, ws, grow)]
    if answers[0][1] == 0 and not a["stats"][S_SPENT]:  # no win: at least a draw?
        answers.append(_ask(node, state, False, ws, grow))
    seconds = (time.perf_counter_ns() - start) / 1e9
    if a["stats"][S_DEEP]:
        raise ValueError(f"a line of the game is longer than {ws.plies} plies")
    return _report(answers, n, a, seconds)


def _report(answers: list[tuple], n: int, a: dict[str, np.ndarray], seconds: float) -> RootResult:
    """The root's report: the proved value, a move keeping it, each child's value."""
    win_kids = answers[0][2]
    scores = np.full(n, np.nan)
    scores[win_kids[:n, 0] == 0] = 1.0
    proved = 1 if answers[0][0] == 0 else None
    last = answers[-1]
    if len(answers) == 2:
        draw_kids = last[2]
        scores[(draw_kids[:n, 0] == 0) & np.isnan(scores)] = 0.0
        scores[draw_kids[:n, 1] == 0] = -1.0
        proved = 0 if last[0] == 0 else (-1 if last[1] == 0 else None)
    kids = last[2]
    if proved is not None and proved > -1:
        index = int(np.flatnonzero(scores == proved)[0])
    else:  # lost, or unproved: the most promising child of the last question
        index = int(np.argmin(kids[:n, 0]))
    stats = a["stats"]
    return RootResult(
        index=index,
        scores=scores,
        depth=float(stats[S_PLY] + 1),
        expanded=int(stats[S_EXPANDED]),
        evaluated=int(stats[S_EVALUATED]),
        seconds=seconds,
        moves=a["moves"][0, :n].copy(),
        tt_hits=int(stats[S_HITS]),
        exact=proved is not None,
        counters={"questions": len(answers)},
        proved=proved,
    )


# --------------------------------------------------------------- its differential check
#: The nodes df-pn may take to prove a position of its targets (the largest of the
#: large profile's took about a third of this).
DFPN_NODES = 8_000_000


def dfpn_case(position: Any, label: str = "") -> Any:
    """Df-pn against the game's exact solver (:func:`.solve.solve`): it proves the
    solver's win, draw or loss for the side to move within :data:`DFPN_NODES`, and the
    move it plays keeps that result (the solver's value of the position after it, for
    the opponent, is its negation's sign)."""
    from . import differential as D

    label = label or position.game.info.name
    tally = D.Tally(positions=1, searches=1)
    expected = float(np.sign(solve(position).value))
    result = search(position, "dfpn", nodes=DFPN_NODES)
    if result.proved is None:
        tally.disagree("dfpn", label, position, None, {}, "proved", expected, np.nan)
    elif result.proved != expected:
        tally.disagree("dfpn", label, position, None, {}, "value", expected, result.proved)
    else:
        child = position.play(position.legal_moves[result.index])
        kept = -float(np.sign(solve(child).value))
        if kept != expected:
            tally.disagree("dfpn", label, position, None, {}, "move", expected, kept)
    return tally


def _dfpn_targets(n: int) -> tuple[Any, ...]:
    """The full-size boards of the games with exact solvers of their own, late enough
    for df-pn's budget (Five-in-a-row from ply 34: from ply 30 a draw on 7 x 7 took
    more than 8 million nodes once in 150 positions, from ply 32 up to 3.3 million,
    from 34 at most 39,000 in 60; Connect Four from ply 16; Othello from its last 14
    empty squares or so), and the small games."""
    from .differential import Target

    return (
        Target("tictactoe", {}, n),
        Target("gomoku", {}, n, min_ply=34),
        Target("connect4", {}, n, min_ply=16),
        Target("othello", {}, n, min_ply=46),
        Target("rolit", {"players": "RG"}, n, min_ply=50),
        Target("chinesecheckers", {"players": 2, "size": 2, "turns": 6}, n, min_ply=6),
        Target("nim", {"heaps": [3, 4, 5]}, n),
        Target("dice", {"target": 20, "start": 3}, n),
    )


def differential_check() -> Any:
    """The :class:`~chameleon_lab.search.differential.Check` the registry entry names
    (``chameleon-lab check --checks dfpn``), made on use so that searching never
    loads the harness."""
    from . import differential as D

    return D.Check(
        "dfpn",
        "df-pn's proved win, draw or loss and move against the exact solvers",
        {"fast": _dfpn_targets(3), "large": _dfpn_targets(150)},
        lambda pos, depth, label: dfpn_case(pos, label),
    )
