"""The reference data of ``../shared`` (thesis tables, legacy sessions, complexity runs).

The data is found through ``CHAMELEON_SHARED``, a path the caller gives, or the
``shared`` folder beside the project's checkout; where there is none, the copy bundled
with the package (:mod:`.bundle`, unpacked once into the cache and checked file by file
against the originals' checksums) stands in, so every copy of the project has the
thesis. Only ``"none"`` hides it: :func:`find_shared` then returns ``None`` and
:func:`absent` says so in a sentence a notebook can print before it goes on with fresh
runs only.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

ENV = "CHAMELEON_SHARED"
NONE = "none"


def find_shared(path: str | Path | None = None) -> Path | None:
    """The shared folder (it holds ``reference/``): the project's, else the bundled copy.

    A ``path`` given explicitly must exist; a wrong one is an error, not a silent miss.
    ``"none"`` ignores any reference data (``None``), to see fresh runs only.
    """
    if path == NONE:
        return None
    if path not in (None, ""):
        p = Path(path).expanduser()
        if not (p / "reference").is_dir():
            raise ValueError(f"{p} is not a shared folder: it has no reference/ inside")
        return p
    candidates = [Path(os.environ[ENV])] if os.environ.get(ENV) else []
    # the project's own shared folder, beside the checkout; never one found by walking
    # up from the working directory, which may belong to something else entirely
    candidates.append(Path(__file__).resolve().parents[3] / "shared")
    for c in candidates:
        if (c / "reference").is_dir():
            return c
    from .bundle import bundled_shared

    return bundled_shared()


def describe(shared: Path | None) -> str:
    """One sentence saying where the reference data of a run comes from."""
    from .bundle import cache_dir

    if shared is None:
        return absent("hidden with shared='none'")
    if Path(shared).resolve().is_relative_to(cache_dir().resolve()):
        return (
            "Reference data: the copy bundled with chameleon_lab (no shared/ folder beside "
            f"the project), unpacked to {shared} and checked against the originals' checksums."
        )
    return f"Reference data: {shared}."


def absent(what: str) -> str:
    """The sentence to show when the reference data is missing."""
    return f"The reference data is not used ({what}). Showing fresh runs only."


def legacy_files(shared: Path, pattern: str = "*.json") -> list[Path]:
    """The legacy session files matching ``pattern``, sorted by name."""
    return sorted((shared / "reference" / "legacy-sessions").glob(pattern))


def time_mode_files(
    shared: Path, budgets_ms: Sequence[int], sessions: Sequence[str] | None = None
) -> list[Path]:
    """The time-mode session files (``*-tN.json``) of the given budgets, sorted; only
    those of ``sessions`` (names such as ``"4-all-t10"``) when given."""
    files = sorted(p for b in budgets_ms for p in legacy_files(shared, f"*-t{int(b)}.json"))
    return files if sessions is None else [p for p in files if p.stem in set(sessions)]


def thesis_tables(shared: Path) -> pd.DataFrame:
    """``thesis-tables.csv``: the thesis's tables 6.1 to 6.11 as numbers."""
    return pd.read_csv(shared / "reference" / "thesis-tables.csv", dtype={"table": str})


def complexity_runs(shared: Path) -> pd.DataFrame:
    """``branching-factor-and-depth.csv`` with our column names (players, p_random,
    b_mean, b_median, length)."""
    df = pd.read_csv(shared / "reference" / "branching-factor-and-depth.csv")
    return df.rename(
        columns={
            "numOfPlayers": "players",
            "chanceOfRandom": "p_random",
            "branchingFactorAvg": "b_mean",
            "branchingFactorMedian": "b_median",
            "depth": "length",
        }
    )


def original_perft(shared: Path) -> pd.DataFrame:
    """``conformance/perft.json``: the original program's perft 1..5 of every start
    seating (seating as colour initials, e.g. ``"RY"``), one row per depth."""
    import json

    rows = []
    for entry in json.loads((shared / "conformance" / "perft.json").read_text()):
        seating = "".join("RGYB"[i] for i, flag in enumerate(entry["players"]) if flag)
        for depth, leaves in enumerate(entry["perft"], start=1):
            rows.append({"seating": seating, "depth": depth, "original": leaves})
    return pd.DataFrame(rows)


def thesis_table_3_1() -> pd.DataFrame:
    """The thesis's table 3.1 (players, b, d, log10_bd), bundled with the package."""
    from .bundle import DATA

    return pd.read_csv(DATA / "thesis-table-3-1.csv")
