"""Benchmarks that print speed figures (never asserted in unit tests).

``perft``: perft 5 on each of the 11 start seatings, every move made and taken back,
positions generated per second on one core, beside the original program's speed on
this machine kind (``docs/benchmarks.md``, "The kernel").
"""

from __future__ import annotations

import platform
import time
from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd

from ..games.chameleon import Position, all_seatings
from ..games.chameleon import kernel as K

ORIGINAL_PERFT_RATE = 9_370_626 / 61.0


@dataclass(frozen=True)
class PerftRow:
    """One seating's perft figures."""

    seating: str
    leaves: int
    generated: int
    seconds: float


def perft_bench(depth: int = 5, repeat: int = 3) -> tuple[list[PerftRow], float]:
    """Time perft ``depth`` of every start seating; best of ``repeat`` runs per seating.

    Returns the rows and the compile (warm-up) time in seconds.
    """
    if depth < 1 or repeat < 1:
        raise ValueError(f"depth and repeat must be >= 1, got depth={depth}, repeat={repeat}")
    t0 = time.perf_counter()
    K.perft(Position.start().state.copy(), 2)
    compile_s = time.perf_counter() - t0
    rows = []
    for seating in all_seatings():
        state = Position.start(seating).state.copy()
        best = np.inf
        for _ in range(repeat):
            t = time.perf_counter()
            leaves, generated = K.perft(state, depth)
            best = min(best, time.perf_counter() - t)
        rows.append(
            PerftRow("".join(c.name[0] for c in seating), int(leaves), int(generated), float(best))
        )
    return rows, compile_s


def print_perft(depth: int = 5, repeat: int = 3) -> float:
    """Run :func:`perft_bench` and print a table; returns positions per second overall."""
    rows, compile_s = perft_bench(depth, repeat)
    print(
        f"perft {depth} on the 11 start seatings (best of {repeat}), numba {numba.__version__},"
        f" {platform.python_implementation()} {platform.python_version()},"
        f" {platform.machine()}"
    )
    print(f"warm-up (compile or cache load): {compile_s:.2f} s")
    print(f"{'seating':8} {'leaves':>10} {'generated':>11} {'seconds':>8} {'M pos/s':>8}")
    for r in rows:
        print(
            f"{r.seating:8} {r.leaves:>10,} {r.generated:>11,} {r.seconds:>8.3f}"
            f" {r.generated / r.seconds / 1e6:>8.2f}"
        )
    generated = sum(r.generated for r in rows)
    seconds = sum(r.seconds for r in rows)
    rate = generated / seconds
    print(
        f"{'total':8} {sum(r.leaves for r in rows):>10,} {generated:>11,} {seconds:>8.3f}"
        f" {rate / 1e6:>8.2f}"
    )
    print(
        f"positions generated per second: {rate:,.0f} "
        f"({rate / ORIGINAL_PERFT_RATE:.0f}x the original's {ORIGINAL_PERFT_RATE:,.0f})"
    )
    return rate


#: Nodes per second of the original program at depth 4 on 12 four-player positions
#: with at least 12 pawns (expanded plus evaluated positions), measured on this machine kind.
ORIGINAL_SEARCH_RATE = {"maxn": 91_000, "maxnis": 96_000, "paranoid": 98_000, "hypermax": 49_000}


def bench_positions(count: int = 12, seed: int = 2024, min_pawns: int = 12) -> list[Position]:
    """A fixed set of four-player positions with at least ``min_pawns`` pawns.

    Reached by seeded random play from the four-player start, so the set is the same
    on every machine.
    """
    from random import Random

    from ..games.chameleon import ChameleonMatch

    rng = Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        game = ChameleonMatch(move_limit=None)
        for _ in range(rng.randint(4, 24)):
            moves = game.position.legal_moves
            if game.is_over or not moves:
                break
            game.play(rng.choice(moves))
        pos = game.position
        if not pos.is_over and len(pos.pawns) >= min_pawns and len(pos.players_alive) == 4:
            positions.append(pos)
    return positions


def print_depth_table(
    budgets_ms: tuple[float, ...] = (10, 100, 1000), per_phase: int = 4
) -> pd.DataFrame:
    """Completed depth of each multi-player algorithm (improved flavour) within each
    time budget on the same fixed positions per game phase: median and quartiles.

    Unlike self-play, every algorithm and budget searches the very same positions, so
    the depths compare fairly.
    """
    from ..analysis.efficiency import depth_at_budget, depth_quartiles, phase_positions

    positions = phase_positions(per_phase)
    print(
        f"improved flavour, completed depth within the budget on {per_phase} fixed four-player "
        "positions per phase (median [quartiles])"
    )
    table = depth_quartiles(depth_at_budget(positions, budgets_ms))
    print(f"{'algorithm':10} {'phase':16}" + "".join(f"{f'{b:g} ms':>18}" for b in budgets_ms))
    for (algorithm, phase), group in table.groupby(["algorithm", "phase"], sort=False):
        cells = [f"{r.median:>5g} [{r.q1:g}, {r.q3:g}]" for r in group.itertuples()]
        print(f"{algorithm:10} {phase:16}" + "".join(f"{c:>18}" for c in cells))
    return table


def print_time_to_depth(
    depth: int,
    per_phase: int = 4,
    algorithms: tuple[str, ...] | None = None,
    repeat: int = 3,
    phases: tuple[str, ...] | None = None,
) -> pd.DataFrame:
    """Nodes and seconds each multi-player algorithm (improved flavour) needs to
    complete ``depth`` on each of the fixed positions of :func:`print_depth_table`:
    iterative deepening from depth 1, as under a time budget, best of ``repeat`` runs.

    A position completes ``depth`` within a budget when its time here is below it, so
    this shows how far each position is from a depth goal, and measures a speed-up
    of the searches on the very trees the budget table reports (node counts do not
    depend on the machine; seconds do). ``phases`` picks phases by their first word
    (``opening``, ``middle``, ``late``; default all).
    """
    from ..analysis.efficiency import nodes_per_depth, phase_positions
    from ..search.api import MULTIPLAYER

    algorithms = tuple(algorithms or MULTIPLAYER)
    positions = phase_positions(per_phase)
    if phases:
        positions = {name: group for name, group in positions.items() if name.split()[0] in phases}
    runs = [nodes_per_depth(positions, [depth], algorithms) for _ in range(repeat)]
    keys = ["algorithm", "phase", "position"]
    table = runs[0][[*keys, "nodes", "order_evaluations"]].copy()
    table["seconds"] = np.min([run["seconds"].to_numpy() for run in runs], axis=0)
    print(
        f"improved flavour, time to complete depth {depth} (iterative deepening from 1, best "
        f"of {repeat}) on {per_phase} fixed four-player positions per phase"
    )
    print(
        f"{'algorithm':10} {'phase':16} {'pos':>3} {'nodes':>13} {'order evals':>12} "
        f"{'seconds':>8} {'nodes/s':>12}"
    )
    for r in table.itertuples():
        print(
            f"{r.algorithm:10} {r.phase:16} {r.position:>3} {r.nodes:>13,} "
            f"{r.order_evaluations:>12,} {r.seconds:>8.3f} {r.nodes / r.seconds:>12,.0f}"
        )
    return table


def print_search(depth: int = 4, count: int = 12) -> dict[str, float]:
    """Thesis-flavour nodes per second at ``depth`` on :func:`bench_positions`."""
    from ..search.api import DEFAULT_NORMALIZE
    from ..thesis.driver import thesis_search

    positions = bench_positions(count)
    print(
        f"thesis flavour, depth {depth}, {count} four-player positions with >= 12 pawns, "
        "heuristic pawns100roles (nodes = expanded + evaluated)"
    )
    print(
        f"{'algorithm':10} {'normalize':>9} {'nodes':>12} {'seconds':>8} {'nodes/s':>12} "
        f"{'x original':>10}"
    )
    rates = {}
    for algorithm in ("maxn", "maxnis", "paranoid", "hypermax"):
        thesis_search(positions[0], algorithm, depth=2)  # compile outside the timing
        nodes, seconds = 0, 0.0
        for pos in positions:
            result = thesis_search(pos, algorithm, depth=depth)
            nodes += result.nodes
            seconds += result.seconds
        rates[algorithm] = nodes / seconds
        print(
            f"{algorithm:10} {DEFAULT_NORMALIZE[algorithm]!s:>9} {nodes:>12,} "
            f"{seconds:>8.2f} {rates[algorithm]:>12,.0f} "
            f"{rates[algorithm] / ORIGINAL_SEARCH_RATE[algorithm]:>10.0f}"
        )
    return rates


def print_improved(depth: int = 4, count: int = 12) -> dict[str, float]:
    """Improved-flavour nodes per second at a fixed ``depth`` on :func:`bench_positions`
    (iterative deepening to that depth; nodes of every iteration counted). Paranoid's
    evaluations for move ordering are not nodes but take time: they are shown apart."""
    from ..search.api import MULTIPLAYER, search

    positions = bench_positions(count)
    print(f"improved flavour, depth {depth} (iterative deepening), the same {count} positions")
    print(
        f"{'algorithm':10} {'nodes':>12} {'seconds':>8} {'nodes/s':>12} {'tt hits':>9} "
        f"{'order evals':>12}"
    )
    rates = {}
    for algorithm in MULTIPLAYER:
        search(positions[0], algorithm, depth=2)  # compile outside the timing
        nodes, seconds, hits, order = 0, 0.0, 0, 0
        for pos in positions:
            result = search(pos, algorithm, depth=depth)
            nodes += result.nodes
            seconds += result.seconds
            hits += result.tt_hits
            order += result.counters.get("order_evaluations", 0)
        rates[algorithm] = nodes / seconds
        print(
            f"{algorithm:10} {nodes:>12,} {seconds:>8.2f} {rates[algorithm]:>12,.0f} "
            f"{hits:>9,} {order:>12,}"
        )
    return rates


#: The thesis's median reached depth at 1000 ms (time mode, fractional depths).
THESIS_MEDIAN_DEPTH_1000MS = {"maxnis": 4.11, "paranoid": 4.21}


@dataclass(frozen=True)
class MoveStat:
    """One move of a self-play game: budget, completed depth, nodes and times."""

    algorithm: str
    budget_ms: float
    ply: int
    pawns: int
    depth: float
    nodes: int
    search_seconds: float  # inside the search
    wall_seconds: float  # around Agent.choose, as a game loop sees it


def selfplay(
    algorithm: str, time_ms: float, *, move_limit: int = 100, progress: bool = True
) -> list[MoveStat]:
    """One four-player self-play game of improved-flavour agents with ``time_ms`` a move."""
    from tqdm.auto import tqdm

    from ..agents import Agent
    from ..games.chameleon import ChameleonMatch

    agent = Agent(algorithm, time_ms=time_ms)
    game = ChameleonMatch(move_limit=move_limit)
    stats = []
    with tqdm(
        total=move_limit, desc=f"{algorithm} {time_ms:g} ms", leave=False, disable=not progress
    ) as bar:
        while not game.is_over and game.position.legal_moves:
            pos = game.position
            t0 = time.perf_counter()
            decision = agent.choose(pos)
            wall = time.perf_counter() - t0
            stats.append(
                MoveStat(
                    algorithm,
                    time_ms,
                    len(game),
                    len(pos.pawns),
                    decision.depth,
                    decision.nodes,
                    decision.seconds,
                    wall,
                )
            )
            game.play(decision.move)
            bar.update()
    return stats


def print_depths(
    budgets: tuple[float, ...] = (10.0, 100.0, 1000.0),
    algorithms: tuple[str, ...] = ("maxn", "maxnis", "paranoid", "hypermax"),
    move_limit: int = 100,
) -> list[MoveStat]:
    """Completed depth per move and time-budget overrun over self-play games."""
    from ..agents import Agent
    from ..games.chameleon import Position

    for algorithm in algorithms:  # compile outside the timing
        Agent(algorithm, depth=2).choose(Position.start())
    print(
        f"\nimproved flavour, one four-player self-play game per algorithm and budget "
        f"(move limit {move_limit}), completed depth per move"
    )
    print(
        f"{'algorithm':10} {'budget':>7} {'moves':>5} {'median':>6} {'mean':>5} "
        f"{'M nodes/s':>9} {'worst wall-T':>12} {'allowed':>8}"
    )
    everything: list[MoveStat] = []
    for algorithm in algorithms:
        for budget in budgets:
            stats = selfplay(algorithm, budget, move_limit=move_limit)
            everything += stats
            depths = np.array([s.depth for s in stats])
            nodes = sum(s.nodes for s in stats)
            seconds = sum(s.search_seconds for s in stats)
            worst = max(s.wall_seconds * 1000 - budget for s in stats)
            note = ""
            if budget == 1000 and algorithm in THESIS_MEDIAN_DEPTH_1000MS:
                note = f"  (thesis median {THESIS_MEDIAN_DEPTH_1000MS[algorithm]})"
            print(
                f"{algorithm:10} {budget:>5g}ms {len(stats):>5} {np.median(depths):>6.1f} "
                f"{depths.mean():>5.2f} {nodes / seconds / 1e6:>9.2f} {worst:>10.2f}ms "
                f"{0.05 * budget + 5:>6.1f}ms{note}"
            )
    over = [s.wall_seconds * 1000 - (1.05 * s.budget_ms + 5) for s in everything]
    worst = int(np.argmax(over))
    w = everything[worst]
    print(
        f"time budget: {len(everything)} moves; worst case {w.wall_seconds * 1000:.2f} ms "
        f"for {w.budget_ms:g} ms ({w.algorithm}), "
        f"{'within' if over[worst] <= 0 else 'OVER'} T + 5 % + 5 ms by {abs(over[worst]):.2f} ms"
    )
    return everything


def print_tournament(games: int = 24, depth: int = 4, workers: tuple[int, ...] = (1, 2)) -> None:
    """Wall time of a fixed batch of games with 1 and with N worker processes.

    The batch: the first ``games`` games of an original four-agent session (MaxN,
    MaxN-IS, Paranoid, Hypermax; thesis flavour, ``depth`` plies), deterministic, so
    every run plays the same games. One worker plays in this process; more use the
    process pool of :func:`~chameleon_lab.tournament.runner.run_session`.
    """
    from ..search.api import THESIS_ALGORITHMS
    from ..tournament import Session, format_seating, original_seatings, run_session

    agents = {a: {"algorithm": a, "flavour": "thesis"} for a in THESIS_ALGORITHMS}
    seatings = [format_seating(s) for s in original_seatings(list(agents))[:games]]
    session = Session("bench", agents, design="fixed", seatings=seatings, budget={"depth": depth})
    run_session(  # compile the searches once, outside the timings
        Session("warm", agents, design="fixed", seatings=seatings[:1], budget={"depth": 1}),
        workers=1,
        progress=False,
    )
    print(f"{len(session)} games, thesis flavour, depth {depth}, four agents, {platform.node()}")
    print(f"{'workers':>7} {'seconds':>8} {'games/s':>8} {'speed-up':>8}")
    base = None
    for n in workers:
        t0 = time.perf_counter()
        report = run_session(session, workers=n, progress=False)
        seconds = time.perf_counter() - t0
        base = base or seconds
        print(f"{n:>7} {seconds:>8.2f} {report.played / seconds:>8.2f} {base / seconds:>7.2f}x")
