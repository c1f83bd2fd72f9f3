"""``chameleon-lab bench mcts``: our MCTS beside OpenSpiel's C++ ``MCTSBot``.

Both search the start position with one random playout per iteration (ours:
``playout="random"``, MaxN backup; OpenSpiel: ``RandomRolloutEvaluator(1)``) and the same
number of simulations, on TicTacToe, Connect Four and Othello; Chameleon Chess with two
to four players is ours only. Each is timed around its call, best of ``repeat`` runs
(ours also by the search's own clock, which leaves out the Python layer), and printed as
simulations per second. OpenSpiel comes with the ``bench`` extra
(``pip install -e '.[bench]'``); without it only our rows print.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..games import get_game
from ..search.api import search

#: (our game, its parameters, OpenSpiel's name or None, simulations per search)
GAMES = (
    ("tictactoe", {}, "tic_tac_toe", 100_000),
    ("connect4", {}, "connect_four", 50_000),
    ("othello", {}, "othello", 5_000),
    ("chameleon", {"players": "RY"}, None, 5_000),
    ("chameleon", {"players": "RGY"}, None, 5_000),
    ("chameleon", {"players": "RGYB"}, None, 5_000),
)


@dataclass(frozen=True)
class Row:
    """One game's figures: simulations per search and per second, each side."""

    game: str
    simulations: int
    ours_own: float  # simulations per second by the search's own clock
    ours_wall: float  # the same around the call
    theirs: float | None  # OpenSpiel's, around its call (None: not run)


def _ours(name: str, params: dict, simulations: int, repeat: int) -> tuple[float, float]:
    pos = get_game(name, **params).start()
    search(pos, "mcts", iterations=10)  # compile (or load) outside the timing
    own = wall = float("inf")
    for seed in range(repeat):
        t0 = time.perf_counter()
        result = search(pos, "mcts", iterations=simulations, seed=seed)
        wall = min(wall, time.perf_counter() - t0)
        own = min(own, result.seconds)
    return simulations / own, simulations / wall


def _theirs(name: str, simulations: int, repeat: int) -> float:
    import pyspiel

    game = pyspiel.load_game(name)
    best = float("inf")
    for seed in range(repeat):
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 4000, False, seed, False)
        state = game.new_initial_state()
        t0 = time.perf_counter()
        bot.step(state)
        best = min(best, time.perf_counter() - t0)
    return simulations / best


def mcts_rows(repeat: int = 3, scale: float = 1.0) -> tuple[list[Row], str]:
    """The rows of :data:`GAMES` (simulations times ``scale``), and a note on OpenSpiel."""
    try:
        import pyspiel  # noqa: F401

        note = "OpenSpiel: pyspiel.MCTSBot (C++), RandomRolloutEvaluator(1), uct_c 2"
        have = True
    except ImportError:
        note = "OpenSpiel is not installed: pip install -e '.[bench]' to run its MCTSBot"
        have = False
    rows = []
    for name, params, theirs, simulations in GAMES:
        n = max(1, int(simulations * scale))
        own, wall = _ours(name, params, n, repeat)
        other = _theirs(theirs, n, repeat) if have and theirs else None
        label = name if not params else f"{name}({params['players']})"
        rows.append(Row(label, n, own, wall, other))
    return rows, note


def print_mcts(repeat: int = 3, scale: float = 1.0) -> list[Row]:
    """Print :func:`mcts_rows` as a table (simulations per second, best of ``repeat``)."""
    rows, note = mcts_rows(repeat, scale)
    print(f"MCTS from the start position, one random playout per simulation, best of {repeat}")
    print(note)
    print(
        f"{'game':18} {'simulations':>11} {'ours/s (own)':>13} {'ours/s (call)':>14} "
        f"{'openspiel/s':>12} {'ours/theirs':>11}"
    )
    for r in rows:
        theirs = f"{r.theirs:>12,.0f}" if r.theirs else f"{'-':>12}"
        ratio = f"{r.ours_wall / r.theirs:>11.1f}" if r.theirs else f"{'-':>11}"
        print(
            f"{r.game:18} {r.simulations:>11,} {r.ours_own:>13,.0f} {r.ours_wall:>14,.0f} "
            f"{theirs} {ratio}"
        )
    return rows
