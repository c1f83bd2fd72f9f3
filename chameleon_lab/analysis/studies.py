"""The experiments behind the notebooks, as functions: run (or load) and tabulate.

* :func:`thesis_study`: the sessions of thesis tables 6.1 to 6.11 from the legacy
  files, or played afresh in the thesis or the improved flavour.
* :func:`budget_study`: the four algorithms against each other at several time
  budgets, for win rate against budget and the depths reached.

Fresh games are written to records files under ``records_dir`` (one per session),
so a rerun of a notebook resumes instead of starting over.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from ..thesis.legacy import load_legacy
from ..thesis.reference import legacy_files
from ..thesis.sessions import table_sessions, thesis_session
from ..tournament import Session, Tables, run_session, session_records, tables


def study_sessions(
    thesis_tables: Sequence[str], depths: Sequence[int], budgets_ms: Sequence[int]
) -> list[str]:
    """Session names of the given thesis tables with these depths and budgets."""
    names: list[str] = []
    for table in thesis_tables:
        names += [
            n for n in table_sessions(table, depths=depths, budgets_ms=budgets_ms) if n not in names
        ]
    return names


def thesis_study(
    source: str,
    sessions: Sequence[str],
    *,
    shared: Path | None = None,
    records_dir: str | Path = "data/records",
    workers: int | None = None,
    progress: bool = True,
) -> Tables:
    """Tables of ``sessions`` from the legacy files (``source="legacy"``) or fresh runs
    in the ``"thesis"`` or ``"improved"`` flavour (records resumable under
    ``records_dir/SOURCE``)."""
    records = []
    if source == "legacy":
        if shared is None:
            raise ValueError("the legacy source needs the shared reference data; it is absent")
        files = {p.stem: p for p in legacy_files(shared)}
        missing = [s for s in sessions if s not in files]
        if missing:
            raise ValueError(f"no legacy files for {', '.join(missing)}")
        for s in sessions:
            records += load_legacy(files[s]).records
        return tables(records)
    if source not in ("thesis", "improved"):
        raise ValueError(f"unknown source {source!r}; valid: legacy, thesis, improved")
    for name in sessions:
        out = Path(records_dir) / source / f"{name}.jsonl"
        session = thesis_session(name, source)
        run_session(session, out, workers=workers, progress=progress)
        records += session_records(out, session)
    return tables(records)


def budget_session(
    algorithms: Sequence[str], budget_ms: float, flavour: str, repetitions: int, seed: int = 0
) -> Session:
    """The original design's session of ``algorithms`` at ``budget_ms`` a move."""
    agents = {a: {"algorithm": a, "flavour": flavour, "time_ms": budget_ms} for a in algorithms}
    return Session(f"budget-{flavour}-{budget_ms:g}ms", agents, repetitions=repetitions, seed=seed)


def budget_study(
    algorithms: Sequence[str],
    budgets_ms: Sequence[float],
    flavour: str = "improved",
    repetitions: int = 1,
    *,
    records_dir: str | Path = "data/records",
    workers: int | None = None,
    progress: bool = True,
) -> Tables:
    """Play the algorithms against each other at every budget; tables with a
    ``budget_ms`` column on games, seats and moves."""
    records = []
    for b in budgets_ms:
        session = budget_session(algorithms, b, flavour, repetitions)
        out = Path(records_dir) / "budgets" / f"{session.name}.jsonl"
        run_session(session, out, workers=workers, progress=progress)
        records += session_records(out, session)
    t = tables(records)
    budget = t.games.set_index("session_id")["mode_value"].to_dict()
    for df in (t.games, t.seats, t.moves):
        df["budget_ms"] = df["session_id"].map(budget).astype(float)
    return t


def phase(pawns: pd.Series) -> pd.Series:
    """Game phase by pawns on the board: opening (13-16), middle (9-12), late (5-8),
    end (2-4)."""
    bins = [1, 4, 8, 12, 16]
    labels = ["end (2-4)", "late (5-8)", "middle (9-12)", "opening (13-16)"]
    return pd.cut(pawns, bins=bins, labels=labels)
