"""Benchmarks that print speed figures (never asserted in unit tests).

``perft``: perft 5 on each of the 11 start seatings, every move made and taken back,
positions generated per second on one core. The original program managed about
150,000 positions per second on this machine kind (9,370,626 positions in 61 s).
"""

from __future__ import annotations

import platform
import time
from dataclasses import dataclass

import numba
import numpy as np

from .games.chameleon import Position, all_seatings
from .games.chameleon import kernel as K

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

    from .games.chameleon import Game

    rng = Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        game = Game(move_limit=None)
        for _ in range(rng.randint(4, 24)):
            moves = game.position.legal_moves
            if game.is_over or not moves:
                break
            game.play(rng.choice(moves))
        pos = game.position
        if not pos.is_over and len(pos.pawns) >= min_pawns and len(pos.players_alive) == 4:
            positions.append(pos)
    return positions


def print_search(depth: int = 4, count: int = 12) -> dict[str, float]:
    """Thesis-flavour nodes per second at ``depth`` on :func:`bench_positions`."""
    from .search.api import DEFAULT_NORMALIZE, thesis_search

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
