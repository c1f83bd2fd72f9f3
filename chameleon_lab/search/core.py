"""What every search shares, free of any one game: the protocol names the node
functions call, their per-(game, heuristic) compilation, small compiled helpers, and
what a root search reports (:class:`~chameleon_lab.search.core.RootResult`).

Node functions (in :mod:`chameleon_lab.thesis.nodes` and :mod:`.improved`) are written
once as templates
that call the game's functions by the names below (``generate``, ``make``, ``unmake``,
``player_of``, ``key``, ``pass_to``), the leaf evaluation as ``evaluate`` and its incremental form,
if the heuristic has one, as ``evaluate_after`` (else :func:`no_after_move`; see
:func:`~chameleon_lab.games.heuristics.after_move_of`). :func:`bind` compiles a
template for one game and heuristic with those names bound to the game's compiled
functions (:func:`~chameleon_lab.games.specialise.specialise`), so nothing passes them
down the tree and numba calls them directly.

:func:`leaf_function` is what ``evaluate`` is bound to: the heuristic itself where the
game wants its heuristic at finished positions too (Chameleon Chess, as the original
program did), else a wrapper that scores a finished position from its exact returns,
shifted to be non-negative and scaled so a win outweighs every heuristic score.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from ..checks import finite_real, whole_number
from ..games.heuristics import after_move_of, normalize
from ..games.protocol import MAX_PLAYERS, GameOps
from ..games.protocol import Position as ProtocolPosition
from ..games.registry import Game, get_game
from ..games.specialise import specialise, template, unbound

# The names the templates call; bind() replaces them by the game's compiled functions
# (called unbound, they raise an error naming the template: see specialise.unbound).
generate = make = unmake = player_of = key = evaluate = returns = heuristic = noisy = unbound
evaluate_after = pass_to = unbound
#: Bound by :func:`leaf_function`: scale of exact returns, their minimum, players' mask.
TERMINAL_SCALE = 1.0
MIN_UTILITY = 0.0
IN_GAME = (1, 1, 1, 1)


@njit(cache=True)
def _copy_row(vals: np.ndarray, src: int, dst: int) -> None:
    """Copy row ``src`` of a per-ply table to row ``dst``."""
    for i in range(MAX_PLAYERS):
        vals[dst, i] = vals[src, i]


@njit(cache=True)
def _copy_in(vals: np.ndarray, dst: int, v: np.ndarray) -> None:
    """Copy the vector ``v`` to row ``dst`` of a per-ply table."""
    for i in range(MAX_PLAYERS):
        vals[dst, i] = v[i]


@njit(cache=True)
def _score(out: np.ndarray, norm: bool, stats: np.ndarray) -> None:
    """Count a leaf evaluated; normalise its score vector ``out`` in place if ``norm``."""
    stats[1] += 1
    if norm:
        normalize(out)


@template("player_of", "returns", "heuristic", "TERMINAL_SCALE", "MIN_UTILITY", "IN_GAME")
def _terminal_leaf(state, out):  # pragma: no cover - compiled by leaf_function
    """A finished position scored from its returns; others by the heuristic."""
    if player_of(state) < 0:
        returns(state, out)
        for q in range(MAX_PLAYERS):
            out[q] = (out[q] - MIN_UTILITY) * TERMINAL_SCALE if IN_GAME[q] else 0.0
    else:
        heuristic(state, out)


def leaf_function(
    ops: GameOps, heuristic_fn: Callable, players: tuple[int, ...], min_utility: float
) -> Callable:
    """The function a search calls at its leaves for ``ops`` and a heuristic (see the
    module doc); ``players`` are the players taking part, ``min_utility`` the lowest
    return."""
    if ops.heuristic_at_terminal:
        return heuristic_fn
    memo = (id(ops), id(heuristic_fn), tuple(players), float(min_utility))
    found = _LEAF_FUNCTIONS.get(memo)
    if found is not None:
        return found[0]
    mask = tuple(1 if q in players else 0 for q in range(MAX_PLAYERS))
    leaf = specialise(
        _terminal_leaf,
        {
            "player_of": ops.player_of,
            "returns": ops.returns,
            "heuristic": heuristic_fn,
            "TERMINAL_SCALE": float(ops.terminal_scale),
            "MIN_UTILITY": float(min_utility),
            "IN_GAME": mask,
        },
        forceinline=True,
    )
    _LEAF_FUNCTIONS[memo] = (leaf, ops, heuristic_fn)  # keeps the ids unique
    return leaf


#: :func:`leaf_function`'s and :func:`bind`'s results by the identities of what they
#: bind, which are kept alive beside them so no id is reused: a search of a few
#: hundred nodes is called thousands of times, and :func:`specialise`'s own lookup
#: (which compares bound constants by value) costs ~10 us a call.
_LEAF_FUNCTIONS: dict[tuple, tuple] = {}
_BOUND: dict[tuple, tuple] = {}


# ------------------------------------------------------------------------- budgets
#: Most plies a search may go below its root (the per-ply tables have this many rows).
MAX_PLIES = 66
#: Deepest iteration tried when no depth budget is given.
MAX_DEPTH = MAX_PLIES - 2
#: Default transposition table size (2**TT_BITS entries, 40 bytes each).
TT_BITS = 18
#: Df-pn's default table size: 2**DFPN_TT_BITS entries of three int64 (24 MiB).
DFPN_TT_BITS = 20


@dataclass(frozen=True)
class Budget:
    """When to stop: any combination of depth (plies), time (ms) and nodes (and MCTS's
    iterations).

    The search stops at whichever is spent first; at least one must be given.
    """

    depth: int | None = None
    time_ms: float | None = None
    nodes: int | None = None
    #: Monte Carlo tree search's iterations (the other searches take none)
    iterations: int | None = None

    def __post_init__(self) -> None:
        if all(x is None for x in (self.depth, self.time_ms, self.nodes, self.iterations)):
            raise ValueError(
                "a search needs a budget: depth=D (plies), time_ms=T, nodes=N or, for "
                "mcts, iterations=I"
            )
        for name in ("depth", "nodes", "iterations"):
            whole_number(name, getattr(self, name), none=True)
        if self.time_ms is not None and not (finite_real(self.time_ms) and self.time_ms > 0):
            raise ValueError(f"time_ms must be a finite number > 0, got {self.time_ms!r}")


# -------------------------------------------------------- games, heuristics, states
GameLike = Game | GameOps | str | None


def resolve_game(position: Any, game: GameLike = None) -> Game | GameOps:
    """The game a search runs in: ``game`` as given (a registry
    :class:`~chameleon_lab.games.registry.Game`, a game name or bare
    :class:`~chameleon_lab.games.protocol.GameOps` such as an explicit tree's), else the
    position's own game, else Chameleon Chess."""
    if isinstance(game, str):
        return get_game(game)
    if game is not None:
        return game
    found = getattr(position, "game", None)
    return found if isinstance(found, Game) else get_game("chameleon")


def leaf_evaluator(game: Game | GameOps, heuristic: str | Callable | None) -> Callable:
    """The compiled leaf evaluation of ``heuristic`` (a name of the game's registry, a
    compiled function, or ``None`` for the game's default) in ``game``; bare
    :class:`~chameleon_lab.games.protocol.GameOps` (an explicit tree) have no registry and
    take a function."""
    if isinstance(game, Game):
        item = game.heuristics.get(heuristic)
        item.check_fits(game)  # a trained model meets a board of its own size
        fn = item.function
        return leaf_function(game.ops, fn, game.info.players, game.info.min_utility)
    if isinstance(heuristic, str) or heuristic is None:
        raise ValueError(
            f"{game.name} has no heuristics by name: pass a compiled function f(state, out)"
        )
    return leaf_function(game, heuristic, (0, 1, 2, 3), -1.0)


def ops_of(game: Game | GameOps) -> GameOps:
    """The compiled functions of a registry game, or bare GameOps as they are."""
    return game.ops if isinstance(game, Game) else game


#: Classes found to be positions (a runtime protocol check costs ~70 us; a set lookup
#: a tenth of a microsecond, and small searches are called thousands of times).
_POSITION_TYPES: set[type] = set()


def state_of(position: Any) -> np.ndarray:
    """The kernel state of a position of any game (or a state array as it is)."""
    if isinstance(position, np.ndarray):
        return np.asarray(position, dtype=np.int64)
    if type(position) in _POSITION_TYPES:
        return position.state
    if isinstance(position, ProtocolPosition):
        _POSITION_TYPES.add(type(position))
        return position.state
    raise TypeError(f"a search needs a position or a kernel state, got {type(position).__name__}")


# ------------------------------------------------------------------ root results
@dataclass
class RootResult:
    """What one root search did: the choice, the root scores and the effort."""

    index: int
    scores: np.ndarray  # one row (vector) or entry (scalar) per root successor
    depth: float  # completed depth; fractional in time mode
    expanded: int
    evaluated: int
    seconds: float
    moves: np.ndarray  # the root's moves, in generation order
    #: principal variation (moves from the root on; improved flavour only)
    pv: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    tt_hits: int = 0  # transposition-table cut-offs (improved Paranoid)
    #: whether the search reached the end of the game in every line (improved flavour)
    exact: bool = False
    #: further counts of the search (the two-player suite: cut-offs and where, ...)
    counters: dict[str, int] = field(default_factory=dict)
    #: MCTS: the visits of each root move, in generation order
    visits: np.ndarray | None = None
    #: MCTS with its solver: the root's proven value for the side to move (1, 0, -1)
    proved: int | None = None

    @property
    def n_moves(self) -> int:
        """Number of root moves."""
        return len(self.moves)

    @property
    def nodes(self) -> int:
        """Expanded plus evaluated positions: the benchmarks' node count."""
        return self.expanded + self.evaluated


def check_root(game: GameOps, state: np.ndarray, moves: np.ndarray) -> int:
    """Generate the root's moves into ``moves[0]``; ``ValueError`` if there is none."""
    if game.player_of(state) < 0:
        return root_moves(-1)
    return root_moves(game.generate(state, moves, 0))


def root_moves(n: int) -> int:
    """``n``, the number of a root's moves as a search found them (-1: the game is
    over), as an int; ``ValueError`` when there is no move to choose."""
    if n < 0:
        raise ValueError("the position is already over: there is no move to choose")
    if n == 0:
        raise ValueError("the player to move has no legal move: there is no move to choose")
    return int(n)


def game_line(game: GameOps, state: np.ndarray, line: np.ndarray) -> np.ndarray:
    """The longest start of ``line`` (kernel moves from ``state``) that the game plays
    in turn: a search that hands the turn out of order (Best-Reply Search, MCTS with
    the BRS backup) finds lines that are not games after their first reply."""
    state = state.copy()
    moves = np.zeros((1, game.max_moves), dtype=np.int64)
    undo = np.zeros((1, game.undo_size), dtype=np.int64)
    for k, move in enumerate(line):
        n = game.generate(state, moves, 0) if game.player_of(state) >= 0 else 0
        if move not in moves[0, :n]:
            return line[:k].copy()
        game.make(state, int(move), undo, 0)
    return line


def working_state(state: np.ndarray) -> np.ndarray:
    """The state a search may walk: itself (searches make and take back moves in place
    and leave it as they found it; an explicit tree keeps its marks of visited nodes),
    or a copy of a read-only state."""
    return state if state.flags.writeable else state.copy()


def node_head(state: np.ndarray, depth: int, top: int, normalize: bool) -> tuple:
    """The arguments every node function (thesis and improved) starts with, for a
    search whose root is at ply ``top`` with ``depth`` plies left."""
    return (state, depth, top, normalize)


def compile_for(dispatcher: Any, *args: Any) -> None:
    """Compile ``dispatcher`` for the types of ``args`` now (without running it), so a
    search's own clock does not count numba's compile time."""
    from numba import typeof

    if dispatcher in _COMPILED:
        return
    if not dispatcher.signatures:  # compiled already: the call finds its code
        dispatcher.compile(tuple(typeof(a) for a in args))
    _COMPILED.add(dispatcher)


#: Dispatchers :func:`compile_for` has seen compiled (asking numba costs ~4 us a call).
_COMPILED: set[Any] = set()


def compiled(dispatcher: Any) -> bool:
    """Whether :func:`compile_for` has seen ``dispatcher`` compiled (a set lookup), so a
    caller can skip building the arguments it would compile for."""
    return dispatcher in _COMPILED


@njit(cache=True)
def no_noisy_moves(state: np.ndarray, moves: np.ndarray, ply: int) -> int:
    """The noisy moves of a game that declares none: there are none."""
    return 0


@njit(cache=True)
def no_pass_to(state: np.ndarray, player: int) -> int:
    """The turn change of a game that has none: refused (-1), the state unchanged.
    Typed: a literal return value would be passed on as one (see "Literal arguments"
    in :mod:`chameleon_lab.games.specialise`)."""
    return np.int64(-1)


@njit(cache=True)
def no_returns(state: np.ndarray, out: np.ndarray) -> None:
    """The returns of a game that declares none (an explicit tree): zero for all."""
    for q in range(MAX_PLAYERS):
        out[q] = 0.0


@njit(cache=True, forceinline=True)  # inlined: the branch it answers folds away
def no_after_move(state: np.ndarray, move: int, out: np.ndarray) -> bool:
    """The incremental form of a leaf evaluation that has none: never answers, so the
    search makes every move it scores."""
    return False


def bind(
    template: Callable,
    ops: GameOps,
    evaluate_fn: Callable,
    *,
    siblings: Mapping[str, Callable] | None = None,
    **options: Any,
) -> Any:
    """``template`` compiled for a game's functions and a leaf evaluation (``options``
    go to numba, e.g. ``_nrt=False``). ``siblings`` are templates it calls by name,
    compiled with the same bindings as functions of their own (not inlined: see
    :func:`.twoplayer.static_key`)."""
    siblings = dict(siblings or {})
    memo = (
        id(template),
        id(ops),
        id(evaluate_fn),
        tuple(sorted((name, id(fn)) for name, fn in siblings.items())),
        tuple(sorted(options.items())),
    )
    found = _BOUND.get(memo)
    if found is not None:
        return found[0]
    node = specialise(
        template,
        {
            "generate": ops.generate,
            "make": ops.make,
            "unmake": ops.unmake,
            "player_of": ops.player_of,
            "key": ops.key,
            "noisy": ops.noisy or no_noisy_moves,
            "evaluate": evaluate_fn,
            "evaluate_after": after_move_of(evaluate_fn) or no_after_move,
            "pass_to": ops.pass_to or no_pass_to,
            "returns": ops.returns or no_returns,
        },
        siblings=siblings,
        **options,
    )
    _BOUND[memo] = (node, template, ops, evaluate_fn, siblings)  # keeps the ids unique
    return node


def resident_zeros(shape: int | tuple[int, ...], dtype: Any = np.float64) -> np.ndarray:
    """A zeroed array whose memory is written now. ``np.zeros`` leaves a large array's
    pages unmapped until first touched, and a search touching a fresh 10 MB table paid
    for thousands of page faults on its own clock (TicTacToe's 2^18-entry table: ~1.5
    ms of a 0.9 ms search); a workspace pays it once, when it is made."""
    out = np.empty(shape, dtype=dtype)
    out.fill(0)
    return out


#: The narrowest move row of the search tables (see :func:`table_width`).
MIN_TABLE_WIDTH = 16


def table_width(max_moves: int) -> int:
    """The width of the search tables' move rows for a game whose positions have at
    most ``max_moves`` moves: the next power of two, at least :data:`MIN_TABLE_WIDTH`.

    numba types a record by its nested arrays' shapes, so every width is a search
    compiled anew (5 to 20 s each). Rounding up lets the sizes of one game share their
    compiled searches (Connect Four 4 x 4 to 9 x 6 and every NIM up to 16 moves: one
    width, 16; Five-in-a-row from 6 x 6 to 8 x 8: 64), so a researcher who changes the board
    does not wait for the compiler again. A search reads only the first moves of a
    row, as many as the position has, so the width changes no result.
    """
    if max_moves < 1:
        raise ValueError(f"a game has at least one move per position, got max_moves={max_moves}")
    return max(MIN_TABLE_WIDTH, 1 << (max_moves - 1).bit_length())


def scratch_record(dtype: np.dtype) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """A search's scratch tables in one block: a zeroed one-element array of the record
    ``dtype`` and a view of each of its fields by name. The node functions take the
    record; the driver reads and writes the same memory through the views."""
    record = np.zeros(1, dtype=dtype)
    record.view(np.uint8)[:] = 0  # written now (see resident_zeros)
    return record, {name: record[name][0] for name in dtype.names}


#: Largest table a search without its own workspace keeps for the next one (10 MB).
SHARED_TT_BITS = 18
_SHARED = threading.local()


def shared_workspace(kind: Callable[[GameOps, int], Any], game: GameOps, tt_bits: int) -> Any:
    """A workspace of ``kind`` (made as ``kind(game, tt_bits)``) for a search that
    brings none: this thread's last one of that kind, game and table size (up to
    :data:`SHARED_TT_BITS`), else a new one. A search depends on nothing its workspace
    held before (table entries carry the search's stamp; counters, killers and history
    are cleared when it starts), and making and first touching fresh tables costs more
    than a small search itself (``docs/benchmarks.md``, "Measurements behind the
    design")."""
    if tt_bits > SHARED_TT_BITS:
        return kind(game, tt_bits)
    kept = getattr(_SHARED, "workspaces", None)
    if kept is None:
        kept = _SHARED.workspaces = {}
    slot = (kind, id(game), tt_bits)
    ws = kept.get(slot)
    if ws is None or ws.game is not game:
        ws = kept[slot] = kind(game, tt_bits)
    return ws


def workspace_for(
    kind: Callable[[GameOps, int], Any], game: GameOps, tt_bits: int, workspace: Any = None
) -> Any:
    """``workspace`` if it was made for ``game`` with ``tt_bits``, else ``ValueError``
    saying what to make instead; without one, this thread's shared workspace of ``kind``
    (:func:`shared_workspace`)."""
    if workspace is None:
        return shared_workspace(kind, game, tt_bits)
    if workspace.game is not game or workspace.tt_bits != tt_bits:
        raise ValueError(
            f"the workspace was made for the game {workspace.game.name!r} with "
            f"tt_bits={workspace.tt_bits}, this search needs {game.name!r} with "
            f"tt_bits={tt_bits}: make one with {kind.__name__}(game_ops, {tt_bits})"
        )
    return workspace


#: Bytes one transposition-table entry takes (four int64 columns and a float64 value).
TT_ENTRY_BYTES = 40


def check_tt_bits(bits: Any, high: int = 30) -> int:
    """``bits`` if a table of ``2**bits`` entries may be made: a whole number in
    ``0..high`` whose table fits in half the machine's memory; else ``ValueError``."""
    if isinstance(bits, bool) or not isinstance(bits, (int, np.integer)) or not 0 <= bits <= high:
        raise ValueError(
            f"tt_bits must be a whole number in 0..{high} (2**tt_bits table entries; 0: no "
            f"table), got {bits!r}"
        )
    size = TT_ENTRY_BYTES << int(bits)
    memory = _physical_memory()
    if memory and size > memory // 2:
        raise ValueError(
            f"tt_bits={bits} needs a table of {size / 2**30:.1f} GiB; this machine has "
            f"{memory / 2**30:.1f} GiB: give at most tt_bits="
            f"{max(b for b in range(high + 1) if TT_ENTRY_BYTES << b <= memory // 2)}"
        )
    return int(bits)


@functools.cache
def _physical_memory() -> int:
    try:
        import os

        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not a POSIX system: no check
        return 0
