"""``chameleon-lab bench games``: speed of every game and of the two-player suite.

For every game of the library: perft positions per second from its start, then nodes
per second of each setting of the two-player suite at a fixed depth on fixed positions
(the enhancement ladder: NegaMax, alpha-beta, + ordering, + PVS, + killers and
history, + transposition table). Beside them, where OpenSpiel has the game (TicTacToe
here, to the end of the game; Connect Four and Othello to a fixed depth), OpenSpiel's
Python ``alpha_beta_search`` on the same positions, its nodes counted by wrapping its
recursive search (install the optional extra ``bench``: ``pip install
-e '.[bench]'``; without it that part is skipped with a message).

Nodes are expanded plus evaluated positions; times exclude compilation (every
setting searches once before it is timed).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .analysis.twoplayer import sample_lines, sample_positions
from .games.registry import get_game
from .search.api import search

#: The games and parameters benchmarked, with the perft depth and the search depth.
GAMES: tuple[tuple[str, dict[str, Any], int, int], ...] = (
    ("tictactoe", {}, 9, 9),
    ("gomoku", {"width": 7, "height": 7, "k": 5}, 4, 3),
    ("nim", {"heaps": [3, 4, 5]}, 7, 8),
    ("dice", {"target": 30, "start": 4}, 30, 12),
    ("chameleon", {"players": "RY"}, 5, 5),
    ("connect4", {"width": 7, "height": 6}, 8, 7),
    ("othello", {"variant": "othello"}, 7, 5),
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

    def line(self) -> str:
        """The row as :func:`print_games` prints it."""
        return (
            f"{self.game:10} {self.setting:34} {self.nodes:>12,} {self.seconds:>9.4f} "
            f"{self.rate:>13,.0f}"
        )


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


#: Games OpenSpiel has too: its name, our depth (None: to the end of the game, values
#: compared), and how our move codes become its actions.
OPENSPIEL = (
    ("tictactoe", "tic_tac_toe", None),
    ("connect4", "connect_four", 5),
    ("othello", "othello", 4),
)


def _openspiel_action(name: str, move: Any) -> int:
    """OpenSpiel's action for our move: TicTacToe counts rows from the top (we count
    ranks from the bottom); Connect Four's columns and Othello's squares (pass 64) are
    numbered alike."""
    if name == "tictactoe":
        return (2 - move.code // 3) * 3 + move.code % 3
    return int(move.code)


def openspiel_rows(count: int = 6) -> tuple[list[Row], str]:
    """OpenSpiel's Python ``alpha_beta_search`` and our plain alpha-beta (no iterative
    deepening) on the same positions of each game OpenSpiel has: TicTacToe to the end
    (the values must agree), Connect Four and Othello to a fixed depth (OpenSpiel with
    a constant value function, so it prunes at least as much as we do); a message when
    OpenSpiel is absent."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError:
        return [], (
            "OpenSpiel is not installed: pip install -e '.[bench]' to compare with its "
            "Python alpha_beta_search"
        )
    counter = {"nodes": 0}
    original = minimax._alpha_beta

    def counted(*args: Any, **kwargs: Any) -> Any:
        counter["nodes"] += 1
        return original(*args, **kwargs)

    rows = []
    for name, theirs_name, depth in OPENSPIEL:
        game = pyspiel.load_game(theirs_name)
        lines = [(get_game(name).start(), []), *sample_lines(name, {}, count - 1, 1, (1, 6))]
        ours_nodes, ours_seconds, theirs_seconds = 0, 0.0, 0.0
        counter["nodes"] = 0
        search(lines[0][0], "alphabeta", depth=1)  # compile outside the timing
        minimax._alpha_beta = counted
        try:
            for pos, moves in lines:
                state = game.new_initial_state()
                for move in moves:
                    state.apply_action(_openspiel_action(name, move))
                t0 = time.perf_counter()
                if depth is None:
                    theirs = minimax.alpha_beta_search(game, state=state)[0]
                else:
                    minimax.alpha_beta_search(
                        game, state=state, value_function=lambda s: 0.0, maximum_depth=depth
                    )
                theirs_seconds += time.perf_counter() - t0
                result = search(pos, "alphabeta", depth=depth or 9, iterative=False)
                ours_nodes += result.nodes
                ours_seconds += result.seconds
                if depth is None:
                    scale = 2 * get_game(name).ops.terminal_scale
                    ours = result.scores[result.index] / scale
                    mover = 1 if pos.to_move == 0 else -1  # OpenSpiel's value: player 0's
                    if abs(theirs - mover * ours) > 1e-9:
                        raise RuntimeError(f"OpenSpiel and we disagree on {pos!r}")
        finally:
            minimax._alpha_beta = original
        what = "to the end" if depth is None else f"d{depth}"
        rows.append(Row(name, f"openspiel alpha_beta_search {what}", counter["nodes"],
                        theirs_seconds))  # fmt: skip
        rows.append(Row(name, f"ours: alphabeta {what}", ours_nodes, ours_seconds))
    return rows, ""


#: The exact solvers' rows: stones (Connect Four) or empty squares (Othello) of the
#: positions, drawn from seeded random games (``chameleon-lab bench solve`` has more).
SOLVER_CONNECT4_STONES = (16, 20)
SOLVER_OTHELLO_EMPTIES = 14


def solver_rows(count: int = 6) -> list[Row]:
    """Nodes and seconds of the Connect Four and Othello solvers on ``count`` fixed
    positions each (Connect Four with 16 to 20 stones, Othello with 14 empty squares)."""
    from .benchsolve_connect4 import bitboards, random_positions
    from .benchsolve_othello import _boards, playout_boards
    from .search import connect4_solver, othello_solver

    connect4_solver.warm_up()
    nodes, seconds = 0, 0.0
    low, high = SOLVER_CONNECT4_STONES
    for seq, _ in random_positions(count, seed=4, low=low, high=high):
        _, _, stats, took = connect4_solver.solve_bitboards(7, 6, *bitboards(seq), best_move=False)
        nodes += int(stats[0])
        seconds += took
    rows = [Row("connect4", f"exact solver, {low}-{high} stones", nodes, seconds)]
    nodes, seconds = 0, 0.0
    for board, side in playout_boards(SOLVER_OTHELLO_EMPTIES, count):
        _, _, stats, took = othello_solver.solve_boards(*_boards(board, side))
        nodes += int(stats[0] + stats[1])
        seconds += took
    rows.append(Row("othello", f"exact solver, {SOLVER_OTHELLO_EMPTIES} empties", nodes, seconds))
    return rows


def print_games(count: int = 6) -> list[Row]:
    """Run the benchmark and print one table; returns its rows."""
    rows: list[Row] = []
    print(f"{'game':10} {'setting':34} {'nodes':>12} {'seconds':>9} {'per second':>13}")
    for name, params, perft_depth, depth in GAMES:
        game_rows = [perft_row(name, params, perft_depth), *ladder_rows(name, params, depth, count)]
        for row in game_rows:
            print(row.line())
        rows += game_rows
    for row in solver_rows(count):
        print(row.line())
        rows.append(row)
    theirs, message = openspiel_rows(count)
    if message:
        print(message)
    for row in theirs:
        print(row.line())
    for them, us in zip(theirs[::2], theirs[1::2], strict=True):
        ratio = us.rate / them.rate
        print(f"{us.game}: ours / OpenSpiel's Python alpha-beta in nodes/s: {ratio:,.0f}x")
    rows += theirs
    return rows
