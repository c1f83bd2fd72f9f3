"""``chameleon-lab bench solve --game othello``: the Othello endgame solver's speed.

Positions come from seeded random playouts (uniformly random legal moves from the
standard start, stopped at the first position with the wanted number of empty
squares, a playout that ended earlier started again; set ``random``), ``count`` per
empties count, and optionally from a positions file in the format of
``tests/data/othello_endgames.txt`` (set, variant, board, side, empties, value, move),
grouped by set and empties; the file's values are checked on the way.

Each group reports the median and the largest search time (compilation excluded), the
median nodes, and nodes per second over the group. When Edax is given (``edax=`` or
the environment variable ``EDAX``: the path of its binary, with ``data/eval.dat``
beside its ``bin`` folder or named by ``EDAX_EVAL``), it solves the same positions
(``-solve <file> -n 1 -l 60``, one thread, exact) and its median and largest time
(Edax prints milliseconds), nodes and any value that differs from ours are shown
beside them.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from ..games.othello import kernel as K
from ..games.othello import solver as othello_solver

#: The playout seed of the benchmark positions.
SEED = 20261123
_EDAX_ROW = re.compile(r"^\s*(\d+)\|\s+(\d+)\s+([+-]\d+)\s+(\d+):(\d+)\.(\d+)\s+(\d+)")


def playout_boards(empties: int, count: int, seed: int = SEED) -> list[tuple[str, str]]:
    """``count`` positions with ``empties`` empty squares (the game not over) as OBF
    boards (64 characters a1..h8, ``X`` black, ``O`` white, ``-`` empty) and sides."""
    rng = random.Random(seed * 100 + empties)
    moves = np.zeros((1, K.MAX_MOVES), dtype=np.int64)
    undo = np.zeros((1, K.UNDO_SIZE), dtype=np.int64)
    out: list[tuple[str, str]] = []
    while len(out) < count:
        state = K.new_state("othello")
        while K.player_of(state) >= 0:
            black = K.board_bits(state[K.BLACK])
            white = K.board_bits(state[K.WHITE])
            if 64 - bin(black | white).count("1") == empties:
                board = "".join(
                    "X" if black >> q & 1 else "O" if white >> q & 1 else "-" for q in range(64)
                )
                out.append((board, "XO"[int(state[K.SIDE])]))
                break
            n = K.generate(state, moves, 0)
            K.make(state, int(moves[0, rng.randrange(n)]), undo, 0)
    return out


def read_positions(path: str | Path) -> list[tuple[str, str, str, int]]:
    """(set, board, side, value) of every position of a positions file."""
    rows = []
    for line in Path(path).read_text().splitlines():
        if line and not line.startswith("#"):
            name, _variant, board, side, _empties, value, _move = line.split()
            rows.append((name, board, side, int(value)))
    return rows


def _boards(board: str, side: str) -> tuple[int, int]:
    black = sum(1 << q for q, c in enumerate(board) if c == "X")
    white = sum(1 << q for q, c in enumerate(board) if c == "O")
    return (black, white) if side == "X" else (white, black)


def edax_solve(edax: str, positions: Sequence[tuple[str, str]]) -> list[tuple[int, float, int]]:
    """(value, seconds, nodes) of each position by Edax's exact solver."""
    binary = Path(edax).resolve()
    evals = os.environ.get("EDAX_EVAL", str(binary.parent.parent / "data" / "eval.dat"))
    with tempfile.TemporaryDirectory() as tmp:
        obf = Path(tmp) / "positions.obf"
        obf.write_text("".join(f"{board} {side};\n" for board, side in positions))
        text = subprocess.run(
            [str(binary), "-solve", str(obf), "-n", "1", "-l", "60", "-eval-file", evals],
            capture_output=True,
            text=True,
            check=True,
            cwd=binary.parent.parent,
        ).stdout
    found = {}
    for line in text.splitlines():
        m = _EDAX_ROW.match(line)
        if m:
            seconds = int(m.group(4)) * 60 + int(m.group(5)) + int(m.group(6)) / 1000
            found[int(m.group(1))] = (int(m.group(3)), seconds, int(m.group(7)))
    if len(found) != len(positions):
        raise RuntimeError(f"Edax answered {len(found)} of {len(positions)} positions")
    return [found[i + 1] for i in range(len(positions))]


def run(
    empties: Sequence[int] = range(10, 17),
    count: int = 20,
    *,
    seed: int = SEED,
    positions_file: str | Path | None = None,
    max_file_empties: int = 20,
    edax: str | None = None,
    tt_bits: int = othello_solver.TT_BITS,
) -> pd.DataFrame:
    """One row per group of positions (``random`` per empties count, then the file's
    sets per empties count): count, median and max seconds, median nodes, nodes per
    second, wrong values (against the file, or Edax), and Edax's figures if given."""
    edax = edax or os.environ.get("EDAX")
    groups: dict[tuple[str, int], list[tuple[str, str, int | None]]] = {}
    for e in empties:
        groups[("random", e)] = [(b, s, None) for b, s in playout_boards(e, count, seed)]
    if positions_file is not None:
        for name, board, side, value in read_positions(positions_file):
            e = board.count("-")
            if e <= max_file_empties:
                groups.setdefault((name, e), []).append((board, side, value))
    rows = []
    for (name, e), items in groups.items():
        times, nodes, wrong = [], [], 0
        values = []
        for board, side, value in items:
            own, opp = _boards(board, side)
            v, _move, stats, seconds = othello_solver.solve_boards(own, opp, tt_bits=tt_bits)
            times.append(seconds)
            nodes.append(int(stats[0] + stats[1]))
            values.append(v)
            wrong += value is not None and v != value
        row = {
            "set": name,
            "empties": e,
            "positions": len(items),
            "median s": float(np.median(times)),
            "max s": float(np.max(times)),
            "median nodes": float(np.median(nodes)),
            "nodes/s": sum(nodes) / sum(times) if sum(times) > 0 else float("nan"),
            "wrong": wrong,
        }
        if edax:
            answers = edax_solve(edax, [(b, s) for b, s, _ in items])
            row["edax median s"] = float(np.median([a[1] for a in answers]))
            row["edax max s"] = float(np.max([a[1] for a in answers]))
            row["edax median nodes"] = float(np.median([a[2] for a in answers]))
            row["differ from edax"] = sum(a[0] != v for a, v in zip(answers, values, strict=True))
        rows.append(row)
    return pd.DataFrame(rows)


def _empties(text: str) -> range:
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the benchmark table (see the module docstring)."""
    parser = argparse.ArgumentParser(
        prog="chameleon-lab bench solve --game othello", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--empties", type=_empties, default=range(10, 17), help="e.g. 10-16")
    parser.add_argument("--count", type=int, default=20, help="playout positions per empties")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--file", default=None, help="a positions file (othello_endgames.txt)")
    parser.add_argument("--max-file-empties", type=int, default=20)
    parser.add_argument("--edax", default=None, help="Edax's binary (else $EDAX)")
    parser.add_argument("--tt-bits", type=int, default=othello_solver.TT_BITS)
    args = parser.parse_args(argv)
    table = run(
        args.empties,
        args.count,
        seed=args.seed,
        positions_file=args.file,
        max_file_empties=args.max_file_empties,
        edax=args.edax,
        tt_bits=args.tt_bits,
    )
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(table.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
