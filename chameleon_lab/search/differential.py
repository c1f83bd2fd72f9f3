"""Differential checks: every pruned or enhanced search against its unpruned twin.

Theory says what a pruned search must return, so each check compares a search with a
plainer one that computes the same thing the long way, on the same positions and
depth:

* ``suite``: the two-player suite's ``alphabeta`` with every combination of its switches
  (ordering, PVS, killers, history, transposition table, aspiration windows, iterative
  deepening) returns NegaMax's fixed-depth value, and the move it chooses has that
  value among NegaMax's root scores (alpha-beta is exact at the root; which of several
  equally good moves it takes may differ);
* ``paranoid``: the improved Paranoid (alpha-beta, ordering, table) returns the value of
  Paranoid minimax written from its definition in Python over the game protocol, and
  its move has that value;
* ``brs``: Best-Reply Search and BRS+ (ordering, table) return the values of their
  definitions written out in Python without pruning (:func:`brs_minimax`), with and
  without normalisation, and their moves have those values;
* ``maxnis``: MaxN-IS (immediate and shallow pruning, sound with normalised scores)
  chooses a move whose MaxN vector gives the root player MaxN's root value, and reports
  that vector;
* ``maxnsp``: speculative MaxN (Sturtevant 2003) against MaxN: the same move, vector and
  principal variation;
* ``mcts``: Monte Carlo tree search with its solver proves the value NegaMax finds
  searched to the end of the game (win, draw or loss for the side to move), on the
  solver check's small boards, and plays a move of that value;
* ``dfpn``: depth-first proof-number search proves the win, draw or loss the game's
  exact solver finds, on the full-size boards of TicTacToe, Five-in-a-row, Connect Four
  and Othello's endgames, and plays a move that keeps it;
* ``solver``: the exact solvers (the game's own and the generic one) return NegaMax's
  value searched to the end of the game, on boards small enough for NegaMax, and a
  move of that value.

Positions come from seeded random games played to their end (:func:`game_positions`):
half of them anywhere along the game (every phase), half one to five plies before its
end, where a win or a loss lies inside the horizon and the values are those of
finished games (1e6 to 1e8 where the games scale their returns above every
heuristic score): the positions on which a fixed-width null window broke PVS.

:func:`run_checks` runs a profile (``fast``, in the test suite; ``large``, by
``chameleon-lab check --profile large``) and returns a :class:`Report` of the counts
and every :class:`Mismatch`; the test suite also draws single cases with hypothesis
through :func:`suite_case`, :func:`paranoid_case`, :func:`brs_case`,
:func:`maxnis_case`, :func:`solver_case` and the cases of the algorithms whose
checks live in their own modules (:func:`.mcts.mcts_case`, :func:`.dfpn.dfpn_case`).
A new algorithm joins by the :class:`Check` its registry entry names (``check``):
:func:`all_checks` collects them, and nothing here changes.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..games.heuristics import normalize
from ..games.protocol import MAX_PLAYERS
from ..games.registry import Game, get_game
from .api import search
from .core import MAX_DEPTH, leaf_evaluator, state_of
from .solve import SPECIALISED, solve

#: Plies before the end of a random game from which the decisive positions are drawn.
DECISIVE_PLIES = 5


@dataclass(frozen=True)
class Mismatch:
    """A search that returned what its twin says it must not."""

    check: str
    game: str  # the game's label, e.g. ``connect4`` or ``chameleon(players=RGY)``
    position: dict  # the position's ``to_json()``
    depth: int | None  # None: to the end of the game
    setting: dict  # the options of the search that disagreed
    what: str  # "value", "move" or "exact"
    expected: float
    got: float

    def __str__(self) -> str:
        return (
            f"{self.check} on {self.game} at depth {self.depth} with {self.setting}: "
            f"{self.what} {self.got!r}, its twin says {self.expected!r}; position "
            f"{self.position}"
        )


@dataclass
class Tally:
    """How many positions and searches one check compared on one game."""

    positions: int = 0
    searches: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)

    def disagree(
        self,
        check: str,
        label: str,
        position: Any,
        depth: int | None,
        setting: Mapping[str, Any],
        what: str,
        expected: float,
        got: float,
    ) -> None:
        """Record that a search of ``position`` disagreed with its twin."""
        self.mismatches.append(
            Mismatch(check, label, position.to_json(), depth, dict(setting), what,
                     float(expected), float(got))
        )  # fmt: skip

    def add(self, other: Tally) -> None:
        """Add ``other``'s counts and mismatches to this tally."""
        self.positions += other.positions
        self.searches += other.searches
        self.mismatches.extend(other.mismatches)


@dataclass
class Report:
    """The tallies of a run, by (check, game label)."""

    profile: str
    seed: int
    tallies: dict[tuple[str, str], Tally] = field(default_factory=dict)

    @property
    def mismatches(self) -> list[Mismatch]:
        """Every mismatch of every check."""
        return [m for t in self.tallies.values() for m in t.mismatches]

    def rows(self) -> list[dict[str, Any]]:
        """One row per check and game: positions, searches compared, mismatches."""
        return [
            {
                "check": check,
                "game": game,
                "positions": t.positions,
                "searches": t.searches,
                "mismatches": len(t.mismatches),
            }
            for (check, game), t in self.tallies.items()
        ]


# ------------------------------------------------------------------------- positions
def game_label(name: str, params: Mapping[str, Any]) -> str:
    """``name`` or ``name(key=value, ...)``: a game as the report names it."""
    if not params:
        return name
    inner = ", ".join(f"{k}={v}" for k, v in params.items())
    return f"{name}({inner})"


def game_positions(
    game: Game,
    count: int,
    seed: int,
    *,
    decisive_share: float = 0.5,
    min_ply: int = 0,
) -> list[Any]:
    """``count`` unfinished positions of ``game`` with a move, from seeded random games
    played to the end: a share ``decisive_share`` one to :data:`DECISIVE_PLIES` plies
    before the end, the others at any ply (every phase). ``min_ply``: only positions
    after at least that many plies (for searches to the end of the game). The same on
    every machine."""
    rng = random.Random(seed)
    out: list[Any] = []
    for _ in range(200 * count + 100):
        if len(out) == count:
            return out
        line = [game.start()]
        while not line[-1].is_over:
            line.append(line[-1].play(rng.choice(line[-1].legal_moves)))
        alive = [p for p in line[min_ply:-1] if p.legal_moves]
        if not alive:
            continue
        if rng.random() < decisive_share:
            pos = alive[-rng.randint(1, min(DECISIVE_PLIES, len(alive)))]
        else:
            pos = alive[rng.randrange(len(alive))]
        out.append(pos)
    raise ValueError(f"random play in {game.info.name} keeps ending before a position")


# ------------------------------------------------------------------- the suite check
#: The two-player suite's switches that keep the fixed-depth value, as the check
#: combines them (quiescence searches deeper, so it is left out).
SUITE_SWITCHES = ("iterative", "ordering", "pvs", "killers", "history", "tt", "aspiration")
#: The table size and aspiration half-width of a setting with those switches on.
TT_BITS = 12
ASPIRATION = 25.0


def suite_settings() -> list[dict[str, Any]]:
    """Every combination of :data:`SUITE_SWITCHES` as ``alphabeta`` options (96:
    aspiration windows need iterative deepening)."""
    out = []
    for combo in itertools.product([False, True], repeat=len(SUITE_SWITCHES)):
        on = dict(zip(SUITE_SWITCHES, combo, strict=True))
        if on["aspiration"] and not on["iterative"]:
            continue
        out.append(
            {
                "iterative": on["iterative"],
                "ordering": on["ordering"],
                "pvs": on["pvs"],
                "killers": on["killers"],
                "history": on["history"],
                "tt_bits": TT_BITS if on["tt"] else 0,
                "aspiration": ASPIRATION if on["aspiration"] else 0.0,
            }
        )
    return out


def _value(result: Any) -> float:
    return float(result.scores[result.index])


def suite_case(
    position: Any, depth: int, settings: Iterable[Mapping[str, Any]], label: str = ""
) -> Tally:
    """``alphabeta`` with each of ``settings`` against ``negamax`` on ``position`` at
    ``depth`` (see the module doc)."""
    full = search(position, "negamax", depth=depth, iterative=False)
    value = _value(full)
    tally = Tally(positions=1)
    label = label or position.game.info.name
    for setting in settings:
        result = search(position, "alphabeta", depth=depth, **setting)
        tally.searches += 1
        got = _value(result)
        bad = None
        if got != value:
            bad = ("value", value, got)
        elif not np.array_equal(result.moves, full.moves):
            bad = ("move", float(len(full.moves)), float(len(result.moves)))
        elif float(full.scores[result.index]) != value:
            bad = ("move", value, float(full.scores[result.index]))
        if bad is not None:
            what, expected, found = bad
            tally.disagree("suite", label, position, depth, setting, what, expected, found)
    return tally


# ---------------------------------------------------------------- the paranoid check
def paranoid_minimax(
    position: Any, depth: int, max_player: int, evaluate: Callable, norm: bool
) -> float:
    """Paranoid's value of ``position`` for ``max_player`` by plain minimax, written from
    the definition over the game protocol (no pruning, no table, no ordering): the
    root player maximises ``2 s[max] - (s0 + s1 + s2 + s3)``, every other player
    minimises it; a finished position, a position without moves or the depth limit is
    scored by ``evaluate`` (normalised if ``norm``)."""
    children = position.successors() if depth > 0 and not position.is_over else []
    if not children:
        s = np.zeros(MAX_PLAYERS)
        evaluate(state_of(position), s)
        if norm:
            normalize(s)
        return 2.0 * s[max_player] - (s[0] + s[1] + s[2] + s[3])
    values = [paranoid_minimax(c, depth - 1, max_player, evaluate, norm) for c in children]
    return max(values) if int(position.to_move) == max_player else min(values)


def paranoid_case(position: Any, depth: int, normalize: bool, label: str = "") -> Tally:
    """The improved Paranoid against :func:`paranoid_minimax` at ``depth``: the value,
    and the value of the move chosen."""
    game = position.game
    evaluate = leaf_evaluator(game, None)
    root = int(position.to_move)
    values = [
        paranoid_minimax(c, depth - 1, root, evaluate, normalize) for c in position.successors()
    ]
    result = search(position, "paranoid", depth=depth, normalize=normalize)
    label = label or position.game.info.name
    tally = Tally(positions=1, searches=1)
    setting = {"normalize": normalize}
    best = max(values)
    got = _value(result)
    for what, expected, found in (("value", best, got), ("move", best, values[result.index])):
        if expected != found:
            tally.disagree("paranoid", label, position, depth, setting, what, expected, found)
            break
    return tally


# ------------------------------------------------------------------- the BRS check
class _Walker:
    """A game's positions as kernel states walked from Python by its compiled
    functions, for the reference searches written from their definitions."""

    def __init__(self, game: Game) -> None:
        self.ops = game.ops
        self.moves = np.zeros((1, game.ops.max_moves), dtype=np.int64)
        self.undo = np.zeros((1, game.ops.undo_size), dtype=np.int64)

    def legal(self, state: np.ndarray, player: int | None = None) -> list[int]:
        """The moves of ``player`` (default: the player to move) in ``state``."""
        if player is not None and player != self.ops.player_of(state):
            state = state.copy()
            self.ops.pass_to(state, player)
        n = self.ops.generate(state, self.moves, 0)
        return [int(m) for m in self.moves[0, :n]]

    def after(self, state: np.ndarray, move: int, player: int | None = None) -> np.ndarray:
        """The state after ``player`` (default: the player to move) plays ``move``."""
        child = state.copy()
        if player is not None and player != self.ops.player_of(child):
            self.ops.pass_to(child, player)
        self.ops.make(child, move, self.undo, 0)
        return child


def brs_minimax(
    game: Game,
    state: np.ndarray,
    depth: int,
    root: int,
    evaluate: Callable,
    plus: bool,
    norm: bool = False,
) -> float:
    """Best-Reply Search's value (``plus``: BRS+'s) of ``state`` for ``root`` at
    ``depth`` layers, written from the definitions of Schadd & Winands (2011) and Esser
    et al. (2013) over kernel states, without pruning, table or ordering: the root player
    maximises ``2 s[root] - (s0 + s1 + s2 + s3)`` over its moves; an opponents' layer
    minimises it over every reply of every opponent still in the game, after which the
    root player moves (BRS), or keeps the turn order and lets one opponent reply while
    the others play their greedy moves, the lowest static value for the root player,
    first of equals (BRS+; where the turn comes round to an opponent who has moved in
    the layer, the root player is out and the position a leaf). A finished position, a
    player to move without moves, or the depth limit is scored by ``evaluate``
    (normalised if ``norm``, the greedy moves' static values too)."""
    walk = _Walker(game)
    ops = game.ops

    def value_of(s: np.ndarray) -> float:
        v = np.zeros(MAX_PLAYERS)
        evaluate(s, v)
        if norm:
            normalize(v)
        return 2.0 * v[root] - (v[0] + v[1] + v[2] + v[3])

    def greedy(s: np.ndarray, moves: list[int]) -> int:
        static = [value_of(walk.after(s, m)) for m in moves]
        return moves[static.index(min(static))]

    def node(s: np.ndarray, d: int) -> float:
        p = ops.player_of(s)
        moves = walk.legal(s) if p >= 0 and d > 0 else []
        if not moves:
            return value_of(s)
        if p == root:
            return max(node(walk.after(s, m), d - 1) for m in moves)
        if plus:
            return layer(s, d, replied=False)
        opponents = [q for q in np.flatnonzero(ops.players_alive(s)) if q != root]
        values = []
        for q in opponents:
            for m in walk.legal(s, int(q)):
                child = walk.after(s, m, int(q))
                if ops.player_of(child) >= 0:
                    ops.pass_to(child, root)
                values.append(node(child, d - 1))
        return min(values)

    def layer(s: np.ndarray, d: int, replied: bool, moved: frozenset = frozenset()) -> float:
        """BRS+: the opponents' layer from the opponent to move in ``s`` on; ``moved``:
        the opponents who have moved in it."""
        moves = walk.legal(s)
        if not moves:
            return value_of(s)
        moved = moved | {ops.player_of(s)}

        def go_on(child: np.ndarray, replied_now: bool) -> float | None:
            q = ops.player_of(child)
            if q < 0 or q == root:  # the layer ends
                return node(child, d - 1) if replied_now else None
            if q in moved:  # the turn came round without the root player: it is out
                return value_of(child) if replied_now else None
            return layer(child, d, replied_now, moved)

        if replied:
            return go_on(walk.after(s, greedy(s, moves)), True)  # type: ignore[return-value]
        values = [go_on(walk.after(s, m), True) for m in moves]
        later = go_on(walk.after(s, greedy(s, moves)), False)  # another opponent replies
        return min(v for v in [*values, later] if v is not None)

    return node(state, depth)


def brs_case(position: Any, depth: int, label: str = "") -> Tally:
    """BRS and BRS+ (ordering, table), with and without normalisation, against
    :func:`brs_minimax` at ``depth``: the value, and the value of the move chosen."""
    game = position.game
    evaluate = leaf_evaluator(game, None)
    root = int(position.to_move)
    state = state_of(position).copy()
    walk = _Walker(game)
    label = label or game.info.name
    tally = Tally(positions=1)
    for (name, plus), norm in itertools.product((("brs", False), ("brsplus", True)), (False, True)):
        values = [
            brs_minimax(game, walk.after(state, m), depth - 1, root, evaluate, plus, norm)
            for m in walk.legal(state)
        ]
        result = search(position, name, depth=depth, normalize=norm)
        tally.searches += 1
        best = max(values)
        setting = {"algorithm": name, "normalize": norm}
        for what, expected, found in (
            ("value", best, _value(result)),
            ("move", best, values[result.index]),
        ):
            if expected != found:
                tally.disagree("brs", label, position, depth, setting, what, expected, found)
                break
    return tally


# ------------------------------------------------------------------ the MaxN-IS check
def maxnis_case(position: Any, depth: int, label: str = "") -> Tally:
    """MaxN-IS against MaxN, both normalised, at ``depth``: the vector MaxN-IS reports
    for its move is MaxN's for that move, and it gives the root player MaxN's value."""
    full = search(position, "maxn", depth=depth, normalize=True)
    fast = search(position, "maxnis", depth=depth, normalize=True)
    root = int(position.to_move)
    label = label or position.game.info.name
    tally = Tally(positions=1, searches=1)
    expected = float(full.scores[full.index, root])
    if not np.array_equal(fast.scores[fast.index], full.scores[fast.index]):
        got = float(fast.scores[fast.index, root])
        what, found = "value", got
    elif float(full.scores[fast.index, root]) != expected:
        what, found = "move", float(full.scores[fast.index, root])
    else:
        return tally
    tally.disagree("maxnis", label, position, depth, {"normalize": True}, what, expected, found)
    return tally


# --------------------------------------------------------- the speculative MaxN check
def maxnsp_case(position: Any, depth: int, label: str = "") -> Tally:
    """Speculative MaxN against MaxN, both normalised, at ``depth``: the same move, the
    same vector for it and the same principal variation (MaxN's value is unique once
    its tie rule and the order of the search are fixed, and speculative pruning keeps
    both, see :mod:`.speculative`)."""
    full = search(position, "maxn", depth=depth, normalize=True)
    fast = search(position, "maxnsp", depth=depth, normalize=True)
    label = label or position.game.info.name
    tally = Tally(positions=1, searches=1)
    for what, expected, found in (
        ("move", full.index, fast.index),
        ("value", full.scores[full.index].tolist(), fast.scores[fast.index].tolist()),
        ("line", list(full.pv), list(fast.pv)),
    ):
        if expected != found:
            setting = {"normalize": True}
            tally.disagree("maxnsp", label, position, depth, setting, what, expected, found)
            break
    return tally


# ------------------------------------------------------------------- the solver check
def solver_case(position: Any, label: str = "") -> Tally:
    """The exact solvers (the game's own where it has one, and the generic one) against
    NegaMax searched to the end of the game: the value in the game's returns (NegaMax
    scores a finished game ``2 * terminal_scale * returns`` for the player to move) and
    a move of that value."""
    game = position.game
    info = game.info
    depth = min(MAX_DEPTH, info.max_length or MAX_DEPTH)
    full = search(position, "negamax", depth=depth, iterative=False)
    label = label or info.name
    tally = Tally(positions=1)
    if not full.exact:  # NegaMax did not reach the end: the case says nothing
        tally.disagree("solver", label, position, None, {"method": "negamax"}, "exact", 1, 0)
        return tally
    scale = 2.0 * game.ops.terminal_scale
    value = _value(full) / scale
    methods = ["generic", "specialised"] if info.name in SPECIALISED else ["generic"]
    for method in methods:
        solution = solve(position, method=method, book=False if method != "generic" else None)
        tally.searches += 1
        found = [i for i, m in enumerate(full.moves) if m == solution.move]
        move_value = float(full.scores[found[0]]) / scale if found else float("nan")
        for what, got in (("value", solution.value), ("move", move_value)):
            if got != value:
                tally.disagree(
                    "solver", label, position, None, {"method": method}, what, value, got
                )
                break
    return tally


# ---------------------------------------------------------------------------- profiles
@dataclass(frozen=True)
class Target:
    """A game a check runs on, how many positions it draws there and to which depth."""

    name: str
    params: Mapping[str, Any]
    positions: int
    max_depth: int = 0  # depths 1..max_depth in turn (0: to the end, the solver check)
    min_ply: int = 0  # only positions after this many plies

    @property
    def label(self) -> str:
        return game_label(self.name, self.params)


def _suite_targets(n: int, deep: int) -> tuple[Target, ...]:
    """Every two-player game at its usual size, ``n`` positions each; depths up to
    ``deep`` (one less on Five-in-a-row's 49 points and Chameleon Chess)."""
    return (
        Target("tictactoe", {}, n, deep),
        Target("gomoku", {}, n, deep - 1),
        Target("connect4", {}, n, deep),
        Target("othello", {}, n, deep),
        Target("nim", {}, n, deep),
        Target("dice", {"target": 20, "start": 3}, n, deep),
        Target("chameleon", {"players": "RY"}, n, deep - 1),
        Target("rolit", {"players": "RG"}, n, deep - 1),
        Target("chinesecheckers", {"players": 2, "size": 3}, n, deep - 1),
        Target("focus", {"players": 2}, n, deep - 1),
    )


def _multi_targets(n: int, deep: int) -> tuple[Target, ...]:
    """Chameleon Chess and Rolit with two, three and four players, Chinese Checkers
    with three and four on the standard star and Focus with three and four, ``n``
    positions each (half as many of Rolit, whose every line is 60 plies long, of
    Chinese Checkers and of Focus), depths up to ``deep``."""
    return (
        *(Target("chameleon", {"players": p}, n, deep) for p in ("RY", "RGY", "RGYB")),
        *(Target("rolit", {"players": p}, max(1, n // 2), deep) for p in ("RYG", "RYGB")),
        *(Target("chinesecheckers", {"players": p}, max(1, n // 2), deep) for p in (3, 4)),
        *(Target("focus", {"players": p}, max(1, n // 2), deep) for p in (3, 4)),
    )


def _solver_targets(n: int) -> tuple[Target, ...]:
    return (
        Target("tictactoe", {}, n),
        Target("nim", {"heaps": [2, 3, 4]}, n),
        Target("nim", {"heaps": [2, 3, 4], "misere": True}, n),
        Target("dice", {"target": 12, "start": 3}, n),
        # at most 9 to 10 empty points, 8 empty squares (plus passes) on Othello's board
        Target("gomoku", {"width": 4, "height": 4, "k": 3}, n, min_ply=7),
        Target("connect4", {"width": 4, "height": 4}, n, min_ply=6),
        Target("connect4", {"width": 5, "height": 4}, n, min_ply=11),
        Target("othello", {}, n, min_ply=52),
        Target("rolit", {"players": "RG"}, n, min_ply=52),
        # the small star, four moves before the limit of six each
        Target("chinesecheckers", {"players": 2, "size": 2, "turns": 6}, n, min_ply=8),
        # three moves before the limit of eight each
        Target("focus", {"players": 2, "turns": 8}, n, min_ply=13),
    )


@dataclass(frozen=True)
class Check:
    """One differential check: its targets per profile and how it runs a position."""

    name: str
    doc: str
    targets: Mapping[str, tuple[Target, ...]]
    #: runs one position at one depth (the target's label given) and tallies it
    run: Callable[[Any, int, str], Tally]


def _run_suite(position: Any, depth: int, label: str) -> Tally:
    return suite_case(position, depth, suite_settings(), label)


def _run_paranoid(position: Any, depth: int, label: str) -> Tally:
    tally = paranoid_case(position, depth, True, label)
    tally.add(paranoid_case(position, depth, False, label))
    tally.positions = 1
    return tally


SUITE = Check(
    "suite",
    "alphabeta with each of 96 switch combinations against negamax",
    {"fast": _suite_targets(6, 4), "large": _suite_targets(1500, 5)},
    _run_suite,
)
PARANOID = Check(
    "paranoid",
    "improved Paranoid against Paranoid minimax from its definition",
    {"fast": _multi_targets(4, 2), "large": _multi_targets(150, 3)},
    _run_paranoid,
)
BRS = Check(
    "brs",
    "BRS and BRS+ (ordering, table) against their definitions, without pruning",
    {"fast": _multi_targets(4, 2), "large": _multi_targets(150, 3)},
    lambda pos, depth, label: brs_case(pos, depth, label),
)
MAXNIS = Check(
    "maxnis",
    "MaxN-IS against MaxN, normalised",
    {"fast": _multi_targets(8, 3), "large": _multi_targets(400, 4)},
    lambda pos, depth, label: maxnis_case(pos, depth, label),
)
MAXNSP = Check(
    "maxnsp",
    "speculative MaxN against MaxN, normalised: move, vector and line",
    {"fast": _multi_targets(8, 3), "large": _multi_targets(400, 4)},
    lambda pos, depth, label: maxnsp_case(pos, depth, label),
)
#: The check of no algorithm: the exact solvers against NegaMax.
SOLVER = Check(
    "solver",
    "the exact solvers against negamax to the end of the game",
    {"fast": _solver_targets(4), "large": _solver_targets(150)},
    lambda pos, depth, label: solver_case(pos, label),
)


def all_checks() -> dict[str, Check]:
    """Every check by name: those the algorithms' registry entries declare (their
    ``check``, in registry order; an algorithm's check may live in its own module, as
    MCTS's and df-pn's do), then the solvers'. A new algorithm joins by its entry."""
    from .registry import ALGORITHMS

    declared = (a.code("check") for a in ALGORITHMS.values() if a.check is not None)
    made = (c if isinstance(c, Check) else c() for c in declared)
    return {c.name: c for c in (*made, SOLVER)}


def __getattr__(name: str) -> Any:
    """``CHECKS``: :func:`all_checks`, read on use (the entries' checks load their
    algorithms' modules, which may import this one)."""
    if name == "CHECKS":
        return all_checks()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The profiles every check has.
PROFILES = ("fast", "large")


def plan(
    profile: str, checks: Sequence[str] | None = None, games: Sequence[str] | None = None
) -> list[tuple[Check, Target]]:
    """The (check, target) pairs a run of ``profile`` goes through, or ``ValueError``
    naming a profile, check or game that does not exist."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; valid profiles: {', '.join(PROFILES)}")
    every = all_checks()
    for name in checks or ():
        if name not in every:
            raise ValueError(f"unknown check {name!r}; valid checks: {', '.join(every)}")
    chosen = [every[n] for n in (checks or every)]
    pairs = [(c, t) for c in chosen for t in c.targets[profile]]
    if games:
        have = sorted({t.name for _, t in pairs})
        for name in games:
            if name not in have:
                raise ValueError(
                    f"no check of this run plays {name!r}; games it plays: {', '.join(have)}"
                )
        pairs = [(c, t) for c, t in pairs if t.name in games]
    return pairs


def _cases(target: Target, seed: int) -> Iterator[tuple[Any, int]]:
    """The target's positions with their depths (1, 2, ..., max_depth, 1, ...)."""
    game = get_game(target.name, **target.params)
    stream = seed * 1_000_003 + sum(map(ord, target.label))  # fixed per target and seed
    positions = game_positions(game, target.positions, stream, min_ply=target.min_ply)
    for i, pos in enumerate(positions):
        yield pos, (i % target.max_depth) + 1 if target.max_depth else 0


def run_checks(
    profile: str = "fast",
    *,
    checks: Sequence[str] | None = None,
    games: Sequence[str] | None = None,
    seed: int = 0,
    progress: bool = False,
) -> Report:
    """Run the checks of ``profile`` (all, or those named in ``checks``, on the games
    named in ``games``) from ``seed``; the same seed draws the same positions."""
    pairs = plan(profile, checks, games)
    report = Report(profile, seed)
    total = sum(t.positions for _, t in pairs)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, unit="position", desc=f"check {profile}")
    try:
        for check, target in pairs:
            tally = report.tallies.setdefault((check.name, target.label), Tally())
            if bar is not None:
                bar.set_postfix_str(f"{check.name} {target.label}")
            for pos, depth in _cases(target, seed):
                tally.add(check.run(pos, depth, target.label))
                if bar is not None:
                    bar.update()
    finally:
        if bar is not None:
            bar.close()
    return report
