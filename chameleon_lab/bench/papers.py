"""``chameleon-lab bench papers``: the speed of the multi-player search papers' games
beside Chameleon Chess's.

For Chameleon Chess, Rolit, Chinese Checkers and Focus with three and four players: perft
positions per second from the start, then nodes per second and the nodes of every
multi-player search of the registry (:func:`searches`: MaxN, MaxN-IS, Paranoid,
Hypermax, speculative MaxN, BRS, BRS+ today; a new entry is benchmarked without a line
here) at a fixed depth on fixed positions (the start and seeded random openings, the
same for every search), and those that take no depth (MCTS) at 2,000 iterations a
position. Times exclude compilation (each search runs once before it is timed) and are
the searches' own (``RootResult.seconds``).
"""

from __future__ import annotations

from typing import Any

from ..search.api import search
from .games import Row, bench_positions, perft_row

#: The games and parameters benchmarked, with the perft depth.
GAMES: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("chameleon", {"players": "RGY"}, 4),
    ("chameleon", {"players": "RGYB"}, 4),
    ("rolit", {"players": "RYG"}, 6),
    ("rolit", {"players": "RYGB"}, 6),
    ("chinesecheckers", {"players": 3}, 4),
    ("chinesecheckers", {"players": 4}, 4),
    ("focus", {"players": 3}, 4),
    ("focus", {"players": 4}, 4),
)
#: Iterations a position of the searches that take no depth (MCTS).
ITERATIONS = 2000


def searches() -> list[tuple[str, str]]:
    """``(algorithm, budget)`` of every search of the registry that plays games of more
    than two players, in the registry's order: ``"depth"`` where it takes a depth,
    else ``"iterations"`` (MCTS)."""
    from ..search.registry import ALGORITHMS

    return [
        (a.name, "depth" if "depth" in a.budgets else "iterations")
        for a in ALGORITHMS.values()
        if not a.two_player and ("depth" in a.budgets or "iterations" in a.budgets)
    ]


def _label(name: str, params: dict[str, Any]) -> str:
    players = params["players"]
    return f"{name}-{players if isinstance(players, int) else len(players)}p"


def search_rows(name: str, params: dict[str, Any], depth: int, count: int) -> list[Row]:
    """Each search of :func:`searches` at ``depth`` (or :data:`ITERATIONS` iterations) on
    :func:`.games.bench_positions` (MCTS counts the positions its iterations visit)."""
    positions = bench_positions(name, params, count)
    label = _label(name, params)
    rows = []
    for algorithm, kind in searches():
        budget = {"depth": depth} if kind == "depth" else {"iterations": ITERATIONS}
        search(positions[0], algorithm, **{kind: 1 if kind == "depth" else 10})  # compile
        nodes, seconds = 0, 0.0
        for pos in positions:
            result = search(pos, algorithm, **budget)
            nodes += result.nodes
            seconds += result.seconds
        setting = f"{algorithm} d{depth}" if kind == "depth" else f"{algorithm} {ITERATIONS} it"
        rows.append(Row(label, setting, nodes, seconds))
    return rows


def print_papers(depth: int = 3, count: int = 4, games: tuple[str, ...] = ()) -> list[Row]:
    """Print (and return) perft and every search's rate on each game of :data:`GAMES`
    (those named ``games``, or all)."""
    names = sorted({name for name, _, _ in GAMES})
    for name in games:
        if name not in names:
            raise ValueError(
                f"--games: {name!r} is not benchmarked here; choose from {', '.join(names)}"
            )
    print(f"{'game':16} {'setting':22} {'nodes':>12} {'seconds':>9} {'per second':>13}")
    rows = []
    for name, params, perft_depth in GAMES:
        if games and name not in games:
            continue
        found = [perft_row(name, params, perft_depth), *search_rows(name, params, depth, count)]
        for row in found:
            print(
                f"{_label(name, params):16} {row.setting:22} {row.nodes:>12,} "
                f"{row.seconds:>9.4f} {row.rate:>13,.0f}",
                flush=True,
            )
        rows += found
    return rows
