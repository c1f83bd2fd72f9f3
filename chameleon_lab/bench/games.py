"""``chameleon-lab bench games``: speed of every game and of the two-player suite.

For every game of the library: perft positions per second from its start, then nodes
per second of each setting of the two-player suite at a fixed depth on fixed positions
(the enhancement ladder: NegaMax, alpha-beta, + ordering, + PVS, + killers and
history, + transposition table). Beside them, where OpenSpiel has the game (TicTacToe
here, to the end of the game; Connect Four and Othello to a fixed depth), OpenSpiel's
Python ``alpha_beta_search`` on the same positions, its nodes counted by wrapping its
recursive search in a run of their own (untimed), ours with the game's heuristic and
with OpenSpiel's constant evaluation (install the optional extra ``bench``:
``pip install -e '.[bench]'``; without it that part is skipped with a message).

Nodes are expanded plus evaluated positions; times exclude compilation (every
setting searches once before it is timed). The ladder's times are the searches' own
(``RootResult.seconds``); beside OpenSpiel both sides are timed around the whole
call.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..analysis.twoplayer import sample_lines, sample_positions
from ..games.registry import get_game
from ..search.api import search
from ..search.registry import ALGORITHMS

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


#: The comparisons with OpenSpiel: our game, OpenSpiel's, the depth (None: to the end
#: of the game, values compared) and our evaluations beside OpenSpiel's constant one
#: (``None``: the game's default heuristic; ``"constant"``: the same constant
#: evaluation, so both search the same kind of tree and Othello's trees are equal).
OPENSPIEL: tuple[tuple[str, str, int | None, tuple[str | None, ...]], ...] = (
    ("tictactoe", "tic_tac_toe", None, (None,)),
    ("connect4", "connect_four", 5, (None, "constant")),
    ("connect4", "connect_four", 7, ("constant",)),
    ("othello", "othello", 4, (None, "constant")),
    ("othello", "othello", 6, ("constant",)),
)


def _openspiel_action(name: str, move: Any) -> int:
    """OpenSpiel's action for our move: TicTacToe counts rows from the top (we count
    ranks from the bottom); Connect Four's columns and Othello's squares (pass 64) are
    numbered alike."""
    if name == "tictactoe":
        return (2 - move.code // 3) * 3 + move.code % 3
    return int(move.code)


def _openspiel_alpha_beta(game: Any, state: Any, depth: int | None, count: bool) -> tuple:
    """OpenSpiel's Python ``alpha_beta_search`` from ``state`` to ``depth`` (``None``:
    to the end; else with its constant value function): the value for the player to
    move and, with ``count``, the positions it visited (calls of its recursive
    ``_alpha_beta``, counted by wrapping it for this call; timed runs go without the
    wrapper, whose own call would add to OpenSpiel's time)."""
    from open_spiel.python.algorithms import minimax

    original = minimax._alpha_beta
    nodes = 0

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal nodes
        nodes += 1
        return original(*args, **kwargs)

    if count:
        minimax._alpha_beta = counted
    try:
        if depth is None:
            value = minimax.alpha_beta_search(game, state=state)[0]
        else:
            value = minimax.alpha_beta_search(
                game, state=state, value_function=lambda s: 0.0, maximum_depth=depth
            )[0]
    finally:
        minimax._alpha_beta = original
    return value, nodes


def openspiel_rows(count: int = 6, repeat: int = 3) -> tuple[list[Row], str]:
    """OpenSpiel's Python ``alpha_beta_search`` and our plain alpha-beta (no iterative
    deepening) on the same positions of each game OpenSpiel has (see
    :data:`OPENSPIEL`); a message when OpenSpiel is absent.

    TicTacToe is searched to the end and the values must agree. Connect Four and
    Othello go to a fixed depth, OpenSpiel with a constant value function; ours once
    with the game's default heuristic and once with the same constant evaluation
    (:func:`~chameleon_lab.games.heuristics.uniform_two`), the like-for-like row: on
    Othello both then visit exactly the same nodes. OpenSpiel is timed around its
    call; ours both by the search's own clock (``RootResult.seconds``: the
    compiled search) and around the call (with its Python layer, ~40 us a call), each
    the best of ``repeat`` runs per position. Rows come in groups: OpenSpiel's, then
    ours (own time, then around the call) per evaluation.
    """
    try:
        import pyspiel
    except ImportError:
        return [], (
            "OpenSpiel is not installed: pip install -e '.[bench]' to compare with its "
            "Python alpha_beta_search"
        )
    from ..games.heuristics import uniform_two

    rows = []
    for name, theirs_name, depth, evaluations in OPENSPIEL:
        game = pyspiel.load_game(theirs_name)
        lines = [(get_game(name).start(), []), *sample_lines(name, {}, count - 1, 1, (1, 6))]
        heuristics = [uniform_two if e == "constant" else None for e in evaluations]
        for heuristic in heuristics:  # compile outside the timing
            search(lines[0][0], "alphabeta", depth=1, heuristic=heuristic)
        ours = {e: [0, 0.0, 0.0] for e in evaluations}  # nodes, own and wall seconds
        theirs_nodes, theirs_seconds = 0, 0.0
        for pos, moves in lines:
            state = game.new_initial_state()
            for move in moves:
                state.apply_action(_openspiel_action(name, move))
            value, nodes = _openspiel_alpha_beta(game, state, depth, count=True)
            best = np.inf
            for _ in range(repeat):
                t0 = time.perf_counter()
                _openspiel_alpha_beta(game, state, depth, count=False)
                best = min(best, time.perf_counter() - t0)
            theirs_nodes += nodes
            theirs_seconds += best
            for evaluation, heuristic in zip(evaluations, heuristics, strict=True):
                own, wall = np.inf, np.inf
                for _ in range(repeat):
                    t0 = time.perf_counter()
                    result = search(
                        pos, "alphabeta", depth=depth or 9, iterative=False, heuristic=heuristic
                    )
                    wall = min(wall, time.perf_counter() - t0)
                    own = min(own, result.seconds)
                ours[evaluation][0] += result.nodes
                ours[evaluation][1] += own
                ours[evaluation][2] += wall
            if depth is None:
                scale = 2 * get_game(name).ops.terminal_scale
                mine = result.scores[result.index] / scale  # both: the mover's value
                if abs(value - mine) > 1e-9:
                    raise RuntimeError(f"OpenSpiel and we disagree on {pos!r}")
        what = "to the end" if depth is None else f"d{depth}"
        rows.append(Row(name, f"openspiel alpha_beta_search {what}", theirs_nodes,
                        theirs_seconds, "openspiel"))  # fmt: skip
        for evaluation in evaluations:
            label = "default heuristic" if evaluation is None else "constant eval."
            if depth is None:
                label = "exact"
            nodes, own, wall = ours[evaluation]
            rows.append(Row(name, f"ours: alphabeta {what}, {label}", nodes, own, "ours"))
            rows.append(Row(name, "  the same, timed around the call", nodes, wall, "wall"))
    return rows, ""


def openspiel_ratios(rows: list[Row]) -> list[str]:
    """One line per evaluation of ours: its nodes/s over OpenSpiel's in the group
    before it, by the search's own time and around the call, with both node counts
    (equal counts: the same tree)."""
    lines = []
    theirs = own = None
    for row in rows:
        if row.note == "openspiel":
            theirs = row
        elif row.note == "ours":
            own = row
        else:
            lines.append(
                f"{own.game:10} {own.setting[6:]:34} {own.rate / theirs.rate:5,.0f}x "
                f"({row.rate / theirs.rate:,.0f}x around the call) OpenSpiel's nodes/s; "
                f"nodes: ours {own.nodes:,}, OpenSpiel's {theirs.nodes:,}"
            )
    return lines


#: The reference file of OpenSpiel's alpha-beta (written by
#: :func:`write_openspiel_reference`, read by the tests): its games, the number of
#: positions, their plies, and the depths searched (None: to the end).
OPENSPIEL_REFERENCE: tuple[tuple[str, int, tuple[int, int], tuple[int | None, ...]], ...] = (
    ("tic_tac_toe", 40, (0, 7), (None,)),
    ("connect_four", 40, (0, 30), (1, 3, 5, 7)),
    ("othello", 60, (0, 62), (1, 2, 3, 4)),
)


def write_openspiel_reference(path: str, seed: int = 20261124) -> int:
    """Write OpenSpiel's values and node counts of its Python ``alpha_beta_search``
    on positions reached by seeded random play *in OpenSpiel* (its own rules and legal
    actions), for :data:`OPENSPIEL_REFERENCE`: a truth the tests check our rules and
    our alpha-beta against (values on every game; on Othello, whose move order is
    OpenSpiel's, the node counts too). Returns the number of rows written."""
    import random

    import open_spiel
    import pyspiel

    from ..version import __version__

    rng = random.Random(seed)
    lines = []
    for name, count, (low, high), depths in OPENSPIEL_REFERENCE:
        game = pyspiel.load_game(name)
        found = 0
        while found < count:
            state, actions = game.new_initial_state(), []
            for _ in range(rng.randint(low, high)):
                if state.is_terminal():
                    break
                actions.append(rng.choice(state.legal_actions()))
                state.apply_action(actions[-1])
            if state.is_terminal():
                continue
            found += 1
            for depth in depths:
                value, nodes = _openspiel_alpha_beta(game, state, depth, count=True)
                moves = " ".join(map(str, actions)) or "-"
                lines.append(
                    f"{name} {'end' if depth is None else depth} {value:g} {nodes} {moves}"
                )
    from importlib.metadata import version

    theirs = getattr(open_spiel, "__version__", None) or version("open_spiel")
    header = f"""\
# OpenSpiel's Python alpha_beta_search (open_spiel {theirs}) on positions reached by
# seeded random play in OpenSpiel (random.Random({seed}), each action chosen uniformly
# among OpenSpiel's legal actions); written by chameleon_lab {__version__}:
#   python -c "from chameleon_lab.bench.games import write_openspiel_reference as w;
#              w('tests/data/openspiel_alphabeta.txt')"
#
# Columns: game, depth (end: to the end of the game, exact), value, nodes, actions.
#   value: the value for the player to move (OpenSpiel's maximizing player by
#          default); at a fixed depth with OpenSpiel's constant value function
#          (value_function=lambda s: 0.0), so it is 1 or -1 where a player can force
#          the end of the game within the depth and win, else 0.
#   nodes: calls of OpenSpiel's recursive _alpha_beta (every position it visited).
#   actions: OpenSpiel's actions from the start ("-": none). tic_tac_toe: cell
#          3 * row + column, row 0 at the top; connect_four: the column, 0 at the left;
#          othello: the square 8 * row + column, row 0 (rank 1) at the top, 64 a pass.
"""
    with open(path, "w", encoding="utf-8") as out:
        out.write(header + "\n".join(lines) + "\n")
    return len(lines)


#: The exact solvers' rows: stones (Connect Four) or empty squares (Othello) of the
#: positions, drawn from seeded random games (``chameleon-lab bench solve`` has more).
SOLVER_CONNECT4_STONES = (16, 20)
SOLVER_OTHELLO_EMPTIES = 14


def solver_rows(count: int = 6) -> list[Row]:
    """Nodes and seconds of the Connect Four and Othello solvers on ``count`` fixed
    positions each (Connect Four with 16 to 20 stones, Othello with 14 empty squares)."""
    from ..games.connect4 import solver as connect4_solver
    from ..games.othello import solver as othello_solver
    from .solve_connect4 import bitboards, random_positions
    from .solve_othello import _boards, playout_boards

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


#: Where df-pn is benchmarked: game, parameters, plies played before the positions.
PROOF_GAMES: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("tictactoe", {}, 0),
    ("gomoku", {"width": 7, "height": 7, "k": 5}, 32),
    ("connect4", {"width": 7, "height": 6}, 16),
    ("othello", {"variant": "othello"}, 46),
)


def proof_rows(count: int = 6) -> list[Row]:
    """Df-pn beside the game's exact solver (alpha-beta with a table, no opening book)
    on ``count`` positions per game drawn as the differential check draws them (every
    phase from ``PROOF_GAMES``' ply on, half near the end): nodes and seconds of each,
    and on how many positions df-pn proved (within the differential check's budget)
    the solver's win, draw or loss."""
    from ..search.dfpn import DFPN_NODES
    from ..search.differential import game_positions
    from ..search.solve import solve

    rows = []
    for name, params, min_ply in PROOF_GAMES:
        game = get_game(name, **params)
        positions = game_positions(game, count, 5, min_ply=min_ply)
        search(positions[0], "dfpn", nodes=10)  # compile (or load) off the clock
        solve(positions[0], book=False)
        ours = theirs = agree = 0
        ours_s = theirs_s = 0.0
        for pos in positions:
            result = search(pos, "dfpn", nodes=DFPN_NODES)
            exact = solve(pos, book=False)
            ours, ours_s = ours + result.nodes, ours_s + result.seconds
            theirs, theirs_s = theirs + exact.nodes, theirs_s + exact.seconds
            agree += result.proved == int(np.sign(exact.value))
        note = f"{agree}/{len(positions)} agree"
        rows.append(Row(name, f"df-pn, from ply {min_ply}", ours, ours_s, note))
        rows.append(Row(name, "exact solver (alpha-beta), same", theirs, theirs_s, note))
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
    declared = [row for a in ALGORITHMS.values() if a.bench for row in a.code("bench")(count)]
    for row in [*solver_rows(count), *declared]:
        print(row.line() + (f"  {row.note}" if row.note else ""))
        rows.append(row)
    theirs, message = openspiel_rows(count)
    if message:
        print(message)
    for row in theirs:
        print(row.line())
    for line in openspiel_ratios(theirs):
        print(line)
    rows += theirs
    return rows
