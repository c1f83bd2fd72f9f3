"""``chameleon-lab bench games``: speed of every game and of the two-player suite.

For every game of the library: perft positions per second from its start, then nodes
per second of each setting of the two-player suite at a fixed depth on fixed positions
(the enhancement ladder: NegaMax, alpha-beta, + ordering, + PVS, + killers and
history, + transposition table). Beside them, where OpenSpiel has the game (TicTacToe
here; Connect Four and Othello come with those games), OpenSpiel's Python
``alpha_beta_search`` on the same positions to the end of the game, its nodes counted
by wrapping its recursive search (install the optional extra ``bench``: ``pip install
-e '.[bench]'``; without it that part is skipped with a message).

Nodes are expanded plus evaluated positions; times exclude compilation (every
setting searches once before it is timed).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .analysis.twoplayer import sample_positions
from .games.registry import get_game
from .search.api import search

#: The games and parameters benchmarked, with the perft depth and the search depth.
GAMES: tuple[tuple[str, dict[str, Any], int, int], ...] = (
    ("tictactoe", {}, 9, 9),
    ("gomoku", {"width": 7, "height": 7, "k": 5}, 4, 3),
    ("nim", {"heaps": [3, 4, 5]}, 7, 8),
    ("dice", {"target": 30, "start": 4}, 30, 12),
    ("chameleon", {"players": "RY"}, 5, 5),
)

#: The enhancement ladder: each setting adds one switch to the one before.
LADDER: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("negamax", "negamax", {}),
    ("alpha-beta", "alphabeta", {}),
    ("+ ordering", "alphabeta", {"ordering": True}),
    ("+ pvs", "alphabeta", {"ordering": True, "pvs": True}),
    ("+ killers, history", "alphabeta", {"ordering": True, "pvs": True, "killers": True,
                                          "history": True}),
    ("+ tt (2^18)", "alphabeta", {"ordering": True, "pvs": True, "killers": True,
                                  "history": True, "tt_bits": 18}),
)  # fmt: skip


@dataclass(frozen=True)
class Row:
    """One measured setting: its name, nodes, seconds and what they mean."""

    game: str
    setting: str
    nodes: int
    seconds: float
    note: str = ""

    @property
    def rate(self) -> float:
        """Nodes (or positions) per second."""
        return self.nodes / self.seconds if self.seconds > 0 else float("nan")


def bench_positions(name: str, params: dict[str, Any], count: int = 6, seed: int = 1) -> list:
    """Fixed positions of a game: its start, then seeded random openings."""
    rest = sample_positions(name, params, count - 1, seed, plies=(1, 6)) if count > 1 else []
    return [get_game(name, **params).start(), *rest]


def perft_row(name: str, params: dict[str, Any], depth: int) -> Row:
    """Perft ``depth`` from the start (compiled before it is timed)."""
    start = get_game(name, **params).start()
    start.perft(1)
    t0 = time.perf_counter()
    leaves = start.perft(depth)
    return Row(name, f"perft {depth}", leaves, time.perf_counter() - t0, "leaves")


def ladder_rows(name: str, params: dict[str, Any], depth: int, count: int = 6) -> list[Row]:
    """Every setting of :data:`LADDER` at ``depth`` on :func:`bench_positions`."""
    positions = bench_positions(name, params, count)
    rows = []
    for label, algorithm, options in LADDER:
        search(positions[0], algorithm, depth=1, **options)  # compile outside the timing
        nodes, seconds = 0, 0.0
        for pos in positions:
            result = search(pos, algorithm, depth=depth, iterative=False, **options)
            nodes += result.nodes
            seconds += result.seconds
        rows.append(Row(name, f"{label} d{depth}", nodes, seconds))
    return rows


def openspiel_rows() -> tuple[list[Row], str]:
    """OpenSpiel's ``alpha_beta_search`` and ours (plain alpha-beta, no iterative
    deepening) solving the same TicTacToe positions; a message when OpenSpiel is absent."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError:
        return [], (
            "OpenSpiel is not installed: pip install -e '.[bench]' to compare with its "
            "Python alpha_beta_search"
        )
    positions = bench_positions("tictactoe", {}, 6)
    count = {"nodes": 0}
    original = minimax._alpha_beta

    def counted(*args: Any, **kwargs: Any) -> Any:
        count["nodes"] += 1
        return original(*args, **kwargs)

    game = pyspiel.load_game("tic_tac_toe")
    ours_nodes, ours_seconds, theirs_seconds = 0, 0.0, 0.0
    search(positions[0], "alphabeta", depth=1)
    minimax._alpha_beta = counted
    try:
        for pos in positions:
            state = game.new_initial_state()
            for move in _moves_from_start(pos):
                state.apply_action(_openspiel_action(move))
            t0 = time.perf_counter()
            theirs = minimax.alpha_beta_search(game, state=state)[0]
            theirs_seconds += time.perf_counter() - t0
            result = search(pos, "alphabeta", depth=9, iterative=False)
            ours_nodes += result.nodes
            ours_seconds += result.seconds
            ours = result.scores[result.index] / (2 * get_game("tictactoe").ops.terminal_scale)
            mover = 1 if pos.to_move == 0 else -1  # OpenSpiel's value is for player 0 (x)
            if abs(theirs - mover * ours) > 1e-9:
                raise RuntimeError(f"OpenSpiel and we disagree on {pos!r}: {theirs}, {ours}")
    finally:
        minimax._alpha_beta = original
    rows = [
        Row("tictactoe", "openspiel alpha_beta_search", count["nodes"], theirs_seconds, "solve"),
        Row("tictactoe", "ours: alphabeta to the end", ours_nodes, ours_seconds, "solve"),
    ]
    return rows, ""


def _moves_from_start(pos: Any) -> list[str]:
    """The moves of a TicTacToe position in an order that replays it (X, O, X, ...)."""
    board = pos.to_json()["board"]  # top rank first
    marks = {"X": [], "O": []}
    for r, row in enumerate(board):
        for f, mark in enumerate(row):
            if mark in marks:
                marks[mark].append(f"{'abc'[f]}{3 - r}")
    out = []
    for i in range(len(marks["X"]) + len(marks["O"])):
        out.append(marks["X" if i % 2 == 0 else "O"][i // 2])
    return out


def _openspiel_action(move: str) -> int:
    """OpenSpiel's tic_tac_toe action (row-major, row 0 at the top) of our notation."""
    return (3 - int(move[1])) * 3 + "abc".index(move[0])


def print_games(count: int = 6) -> list[Row]:
    """Run the benchmark and print one table; returns its rows."""
    rows: list[Row] = []
    print(f"{'game':10} {'setting':34} {'nodes':>12} {'seconds':>9} {'per second':>13}")
    for name, params, perft_depth, depth in GAMES:
        game_rows = [perft_row(name, params, perft_depth), *ladder_rows(name, params, depth, count)]
        for row in game_rows:
            print(
                f"{row.game:10} {row.setting:34} {row.nodes:>12,} {row.seconds:>9.4f} "
                f"{row.rate:>13,.0f}"
            )
        rows += game_rows
    theirs, message = openspiel_rows()
    if message:
        print(message)
    for row in theirs:
        print(
            f"{row.game:10} {row.setting:34} {row.nodes:>12,} {row.seconds:>9.4f} "
            f"{row.rate:>13,.0f}"
        )
    if theirs:
        ratio = theirs[1].rate / theirs[0].rate
        print(f"ours / OpenSpiel's Python alpha-beta in nodes per second: {ratio:,.0f}x")
    rows += theirs
    return rows
