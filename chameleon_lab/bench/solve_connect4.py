"""``chameleon-lab bench solve --game connect4``: the Connect Four solver against Pascal
Pons's.

Positions are 7 x 6 move sequences (columns ``1``..``7``), read from a file whose lines
are ``sequence``, ``sequence score`` (Pons's test sets) or ``set sequence score`` (the
sample committed in ``tests/data/connect4_pons_positions.txt``, the default); ``#``
starts a comment. Without that file, positions of 8..30 stones from seeded random
games stand in (no published scores then).

Every position is solved by :mod:`chameleon_lab.games.connect4.solver` (the score only, no best
move, as Pons's solver; seconds of search, without compiling or table allocation),
each solve's table entries cold for it (a new epoch, and slots of other positions),
as Pons's are after the table reset his driver does before each solve (not timed).
With ``repeat`` > 1 each time is the least of that many passes, for both solvers; the
later passes can find a small position's few table lines still cached for us (he
clears his table each time), so one pass is the fair comparison.
Where a ``reference`` is given (the path of Pons's compiled solver, or the environment
variable ``C4SOLVER``) it solves the same positions: a solver printing ``sequence score
nodes microseconds`` per line (a driver that resets the table and times each solve, as
his blog's benchmark did) gives his time and nodes per position; his repository's
``c4solver`` prints ``sequence score`` only, so its time is the wall time of the
group's run, less that of an empty run, per position, and its nodes are unknown.
Rows group positions by stones on the board (4 per group): both mean times and nodes,
the time ratio (ours / his) and whether every score agrees with his and with the file's.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..games.connect4 import kernel as K
from ..games.connect4 import solver as C4

#: The committed sample of Pons's test sets (in a source checkout).
DEFAULT_FILE = Path(__file__).resolve().parent.parent / "tests/data/connect4_pons_positions.txt"
#: Stones per group of the table.
GROUP = 4


def read_positions(path: str | os.PathLike) -> list[tuple[str, int | None]]:
    """The (sequence, score or None) of every line of a positions file."""
    out: list[tuple[str, int | None]] = []
    for line in Path(path).read_text().splitlines():
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) == 3:
            words = words[1:]
        score = int(words[1]) if len(words) > 1 else None
        out.append((words[0], score))
    return out


def random_positions(count: int = 60, seed: int = 4, low: int = 8, high: int = 30):
    """``count`` sequences of ``low``..``high`` stones from random games (nobody having
    won, nor able to win with the next stone, which Pons's solver refuses or skips)."""
    rng = random.Random(seed)
    out: list[tuple[str, int | None]] = []
    while len(out) < count:
        state = K.new_state(7, 6)
        undo = np.zeros((43, 2), dtype=np.int64)
        seq = ""
        target = rng.randint(low, high)
        while len(seq) < target and K.player_of(state) >= 0:
            col = rng.choice([c for c in range(7) if not _full(state, c)])
            K.make(state, col, undo, len(seq))
            seq += str(col + 1)
        if len(seq) == target and K.player_of(state) >= 0 and not _can_win(state):
            out.append((seq, None))
    return out


def _full(state: np.ndarray, col: int) -> bool:
    return bool(int(state[K.MASK]) >> (col * 7 + 5) & 1)


def _can_win(state: np.ndarray) -> bool:
    undo = np.zeros((1, 2), dtype=np.int64)
    for col in range(7):
        if not _full(state, col):
            K.make(state, col, undo, 0)
            won = state[K.WINNER] >= 0
            K.unmake(state, undo, 0)
            if won:
                return True
    return False


def bitboards(seq: str) -> tuple[int, int]:
    """The kernel's (position, mask) after playing ``seq`` on the empty 7 x 6 board."""
    state = K.new_state(7, 6)
    undo = np.zeros((len(seq) + 1, 2), dtype=np.int64)
    for ply, ch in enumerate(seq):
        K.make(state, int(ch) - 1, undo, ply)
    return int(state[K.POSITION]), int(state[K.MASK])


def _run_reference(reference: str, seqs: list[str]) -> tuple[list[str], float]:
    """Output lines of ``reference`` fed ``seqs``, and the run's wall seconds."""
    start = time.perf_counter()
    done = subprocess.run(
        [reference], input="".join(s + "\n" for s in seqs), capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{reference} failed: {done.stderr.strip()}")
    return done.stdout.splitlines(), seconds


def reference_results(reference: str, seqs: list[str]) -> pd.DataFrame:
    """Pons's score, nodes (or NaN) and seconds (see the module doc) per sequence."""
    lines, seconds = _run_reference(reference, seqs)
    if len(lines) != len(seqs):
        raise RuntimeError(f"{reference} answered {len(lines)} lines for {len(seqs)} positions")
    # each line repeats the sequence (perhaps empty), then the score [nodes microseconds]
    rows = [line.strip()[len(seq) :].split() for line, seq in zip(lines, seqs, strict=True)]
    timed = all(len(r) >= 3 for r in rows)
    if timed:
        seconds_each = [int(r[2]) * 1e-6 for r in rows]
    else:
        _, idle = _run_reference(reference, [])
        seconds_each = [max(seconds - idle, 0.0) / max(len(seqs), 1)] * len(rows)
    return pd.DataFrame(
        {
            "ref_score": [int(r[0]) for r in rows],
            "ref_nodes": [float(r[1]) if timed else np.nan for r in rows],
            "ref_seconds": seconds_each,
        }
    )


def solve_all(
    positions: list[tuple[str, int | None]], tt_bits: int = C4.TT_BITS, repeat: int = 1
) -> pd.DataFrame:
    """Our score, nodes and seconds (the least of ``repeat`` passes over the positions)
    for every position (one row each)."""
    C4.warm_up()
    boards = [bitboards(seq) for seq, _ in positions]
    seconds = [np.inf] * len(positions)
    results: list[tuple[int, int]] = []
    for _ in range(repeat):
        results = []
        for i, (pos, mask) in enumerate(boards):
            value, _, stats, took = C4.solve_bitboards(7, 6, pos, mask, tt_bits=tt_bits,
                                                       best_move=False)  # fmt: skip
            seconds[i] = min(seconds[i], took)
            results.append((value, int(stats[0])))
    rows = []
    for (seq, score), (value, nodes), took in zip(positions, results, seconds, strict=True):
        rows.append(
            {
                "sequence": seq,
                "stones": len(seq),
                "score": score,
                "our_score": value,
                "our_nodes": nodes,
                "our_seconds": took,
            }
        )
    return pd.DataFrame(rows)


def run(
    positions_file=None, reference=None, limit: int | None = None, repeat: int = 1
) -> pd.DataFrame:
    """One row per group of stone counts: positions, our mean seconds and nodes, his
    (NaN without a reference), the time ratio ours / his, and whether every score
    agrees (with his where run, with the file's where given). With ``repeat`` > 1
    every position's time is the least of that many solves, for both solvers (on a
    busy machine the least is the fairest estimate)."""
    if positions_file is not None:
        positions = read_positions(positions_file)
    elif DEFAULT_FILE.exists():
        positions = read_positions(DEFAULT_FILE)
    else:
        positions = random_positions()
    if limit is not None:
        positions = positions[:limit]
    reference = reference or os.environ.get("C4SOLVER") or None
    table = solve_all(positions, repeat=repeat)
    if reference:
        by_group = []
        for _, part in table.groupby(table["stones"] // GROUP, sort=True):
            seqs = list(part["sequence"])
            ref = reference_results(reference, seqs)
            for _ in range(repeat - 1):
                again = reference_results(reference, seqs)
                ref["ref_seconds"] = np.minimum(ref["ref_seconds"], again["ref_seconds"])
            ref.index = part.index
            by_group.append(ref)
        table = table.join(pd.concat(by_group))
    else:
        table["ref_score"] = np.nan
        table["ref_nodes"] = np.nan
        table["ref_seconds"] = np.nan
    known = table["score"].notna()
    table["agree"] = ~known | (table["score"] == table["our_score"])
    ran = table["ref_score"].notna()
    table["agree"] &= ~ran | (table["ref_score"] == table["our_score"])
    out = []
    for g, part in table.groupby(table["stones"] // GROUP, sort=True):
        ours = part["our_seconds"].mean()
        his = part["ref_seconds"].mean()
        out.append(
            {
                "stones": f"{g * GROUP}-{g * GROUP + GROUP - 1}",
                "positions": len(part),
                "our_ms": 1e3 * ours,
                "our_nodes": part["our_nodes"].mean(),
                "pons_ms": 1e3 * his,
                "pons_nodes": part["ref_nodes"].mean(),
                "ratio": ours / his if his and his == his else np.nan,
                "agree": bool(part["agree"].all()),
            }
        )
    return pd.DataFrame(out)


def empty_board(reference: str | None = None, tt_bits: int = 24) -> pd.DataFrame:
    """Solve the empty 7 x 6 board (a first-player win with score 1: Allis 1988, Tromp,
    Pons), ours with ``2**tt_bits`` entries (24 as Pons's), and his where a reference
    is given. Minutes to hours of search: not part of :func:`run`."""
    C4.warm_up()
    value, _, stats, seconds = C4.solve_bitboards(7, 6, 0, 0, tt_bits=tt_bits, best_move=False)
    rows = [{"solver": "ours", "score": value, "nodes": int(stats[0]), "seconds": seconds}]
    if reference:
        ref = reference_results(reference, [""])
        rows.append(
            {
                "solver": "pons",
                "score": int(ref["ref_score"][0]),
                "nodes": ref["ref_nodes"][0],
                "seconds": ref["ref_seconds"][0],
            }
        )
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> int:
    """Print the table (see :func:`run`); 1 if some score disagrees."""
    parser = argparse.ArgumentParser(prog="chameleon-lab bench solve --game connect4")
    parser.add_argument("--positions", help="positions file (default: the committed sample)")
    parser.add_argument("--reference", help="Pons's compiled solver (default: $C4SOLVER)")
    parser.add_argument("--limit", type=int, help="solve only the first LIMIT positions")
    parser.add_argument(
        "--repeat", type=int, default=1, help="time every position REPEAT times, keep the least"
    )
    parser.add_argument(
        "--empty", action="store_true", help="solve the empty 7 x 6 board instead (long)"
    )
    args = parser.parse_args(argv)
    if args.empty:
        table = empty_board(args.reference or os.environ.get("C4SOLVER") or None)
        print(table.to_string(index=False))
        return 0 if (table["score"] == 1).all() else 1
    table = run(args.positions, args.reference, args.limit, args.repeat)
    with pd.option_context("display.width", 120, "display.max_columns", 20):
        print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    return 0 if table["agree"].all() else 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
