"""Notebook 04's research results recomputed from their committed records.

The research profile's tables are committed with the records they came from
(``research/data/records``); :func:`recompute_thesis` computes notebook 04's session
table again from those records alone, playing no game
(:func:`~chameleon_lab.tournament.runner.records_only`), so a test can hold the committed
table to its records; :func:`recompute_hypermax` does the same for notebook 11's
sessions with the plain and the mended Hypermax. It sits in the thesis wing because
the sessions are the thesis's; :mod:`chameleon_lab.analysis.research` does the same for
notebooks 09 and 10.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from ..analysis.summary import session_summary
from ..tournament import records_only
from .compare import mended_beside, mended_blocks
from .reference import find_shared, thesis_tables
from .studies import study_sessions, thesis_study


def recompute_thesis(
    parameters: dict[str, Any], records_dir: str | Path
) -> dict[str, pd.DataFrame]:
    """Notebook 04's session table (``thesis_sessions_SOURCE``) recomputed from the
    records under ``records_dir`` (the folder holding ``thesis/``) for a run with
    ``parameters`` (its logged ones), playing no game (a missing one raises
    :class:`~chameleon_lab.tournament.runner.MissingGames`)."""
    q = parameters
    clock = q["clock"] if q["source"] == "thesis" else "machine"
    sessions = study_sessions(q["tables"], q["depths"], q["budgets_ms"])
    with records_only():
        results = thesis_study(
            q["source"], sessions, shared=find_shared(q["shared"] or None),
            records_dir=records_dir, workers=1, progress=False, clock=clock,
        )  # fmt: skip
    return {f"thesis_sessions_{q['source']}": session_summary(results)}


def recompute_hypermax(
    parameters: dict[str, Any], records_dir: str | Path
) -> dict[str, pd.DataFrame]:
    """Notebook 11's sessions, plain beside mended Hypermax (``hypermax_mended_sessions``
    per session, ``hypermax_mended_blocks`` per repetition), recomputed from the records
    under ``records_dir`` (the folder holding ``improved/``) for a run with
    ``parameters``, playing no game; the thesis's counts beside them where the shared
    reference data is found."""
    q = parameters
    sessions = study_sessions(q["tables"], [], q["session_budgets_ms"])
    shared = find_shared(q["shared"] or None)
    with records_only():
        played = {
            flag: thesis_study("improved", sessions, records_dir=records_dir, workers=1,
                               progress=False, mended=flag, clock=q["clock"],
                               repetitions=q["session_repetitions"],
                               opening_plies=q["session_opening_plies"])
            for flag in (False, True)
        }  # fmt: skip
    runs = {flag: session_summary(t) for flag, t in played.items()}
    beside = mended_beside(runs[False], runs[True], thesis_tables(shared) if shared else None)
    return {
        "hypermax_mended_sessions": beside,
        "hypermax_mended_blocks": mended_blocks(played[False], played[True]),
    }
