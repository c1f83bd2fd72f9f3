"""A one-minute smoke job: pictures of the start positions and an exact perft table.

It shows that a machine can install the package, compile the kernel and write
figures and tables, without the notebook batch (the main job, ``notebooks run``).
"""

from __future__ import annotations

import csv
from pathlib import Path

from .games.chameleon import Position, all_seatings, draw_grid, save_picture


def run_demo(figures: Path, data: Path, depth: int = 5) -> list[Path]:
    """Write the start-position figures and ``perft_start_positions.csv``; return the paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figures.mkdir(parents=True, exist_ok=True)
    data.mkdir(parents=True, exist_ok=True)
    seatings = all_seatings()
    starts = [Position.start(s) for s in seatings]
    names = [" ".join(c.name.title() for c in s) for s in seatings]
    written = []
    fig = draw_grid(starts, names, ncols=4)
    fig.suptitle("Chameleon Chess: start positions of the 11 seatings", y=1.01)
    for suffix in ("png", "svg"):
        path = figures / f"start_positions.{suffix}"
        # no date and fixed ids in SVG, so an unchanged figure is an unchanged file
        meta = {"Date": None} if suffix == "svg" else {}
        with matplotlib.rc_context({"svg.hashsalt": "chameleon_lab"}):
            fig.savefig(path, dpi=120, bbox_inches="tight", metadata=meta)
        written.append(path)
    plt.close(fig)
    written.append(save_picture(starts[-1], figures / "start_position_4p.svg"))
    table = data / "perft_start_positions.csv"
    with table.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["seating", *(f"perft{d}" for d in range(1, depth + 1))])
        for name, pos in zip(names, starts, strict=True):
            writer.writerow([name, *(pos.perft(d) for d in range(1, depth + 1))])
    written.append(table)
    return written
