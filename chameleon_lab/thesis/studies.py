"""The study behind the thesis-tables notebook: tables 6.1 to 6.11 from the legacy
files, or their sessions played afresh in the thesis or the improved flavour.

Fresh games are written to records files under ``records_dir`` (one per session and
parameters, :meth:`~chameleon_lab.tournament.session.Session.records_file`), so a rerun of the
notebook resumes instead of starting over.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..tournament import Tables, run_session, session_records, tables
from .legacy import load_legacy
from .reference import legacy_files
from .sessions import table_sessions, thesis_session


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
    clock: str = "machine",
    mended: bool = False,
    repetitions: int = 1,
    opening_plies: int = 0,
) -> Tables:
    """Tables of ``sessions`` from the legacy files (``source="legacy"``) or fresh runs
    in the ``"thesis"`` or ``"improved"`` flavour (records resumable under
    ``records_dir/SOURCE``); time-mode sessions on ``clock`` (``"original"``: a node
    counter at the original program's speed, see :mod:`.sessions`); ``mended``
    seats the mended Hypermax for Hypermax (improved source only); ``repetitions``
    plays each fresh session that often, each repetition from its own opening of
    ``opening_plies`` random plies (see :func:`.sessions.thesis_session`)."""
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
        session = thesis_session(name, source, clock=clock, mended=mended,
                                 repetitions=repetitions, opening_plies=opening_plies)  # fmt: skip
        out = session.records_file(Path(records_dir) / source)
        run_session(session, out, workers=workers, progress=progress).complete(session.name)
        records += session_records(out, session)
    return tables(records)
