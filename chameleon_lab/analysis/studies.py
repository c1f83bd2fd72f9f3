"""The experiments behind the notebooks, as functions: run (or load) and tabulate.

* :func:`budget_study`: the four algorithms against each other at several time
  budgets, in balanced blocks on distinct openings, for win rate against budget and
  the depths reached;
* :func:`budget_verdicts`: every pair of them at every budget, a sign-flip test on
  game pairs, Holm-corrected over all pairs and budgets.

Fresh games are written to records files under ``records_dir`` (one per session and
parameters, :meth:`.Session.records_file`), so a rerun of a notebook resumes instead
of starting over.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from ..tournament import Session, Tables, run_session, session_records, tables
from .headtohead import Claim, claim_verdicts, pair_scores, side_times


def budget_session(
    algorithms: Sequence[str],
    budget_ms: float,
    flavour: str,
    repetitions: int,
    seed: int = 0,
    opening_plies: int = 8,
) -> Session:
    """``algorithms`` at ``budget_ms`` a move in four-player games, ``repetitions``
    blocks: each block one distinct opening of ``opening_plies`` random plies played
    in every seating of the block design (four algorithms: the original's 24 seat
    orders; fewer: every way to seat them all;
    :func:`~chameleon_lab.tournament.designs.block_seatings`)."""
    agents = {a: {"algorithm": a, "flavour": flavour, "time_ms": budget_ms} for a in algorithms}
    return Session(
        f"budget-{flavour}-{budget_ms:g}ms",
        agents,
        design="blocks",
        players=4,
        repetitions=repetitions,
        seed=seed,
        opening_plies=opening_plies,
    )


def budget_study(
    algorithms: Sequence[str],
    budgets_ms: Sequence[float],
    flavour: str = "improved",
    repetitions: int | Sequence[int] = 1,
    *,
    opening_plies: int = 8,
    records_dir: str | Path = "data/records",
    workers: int | None = None,
    progress: bool = True,
) -> Tables:
    """Play the algorithms against each other at every budget; tables with a
    ``budget_ms`` column on games, seats and moves.

    ``repetitions`` is the blocks of every budget, or a list with the blocks of each
    (as many as ``budgets_ms``): a block costs about the budget times a game's moves,
    so the cheap budgets can afford the blocks that decide their pairs. Block ``r`` of
    a budget is the same games whatever the count, so a run with more resumes one
    with fewer."""
    records = []
    for b, r in zip(budgets_ms, budget_repetitions(budgets_ms, repetitions), strict=True):
        session = budget_session(algorithms, b, flavour, r, opening_plies=opening_plies)
        out = session.records_file(Path(records_dir) / "budgets")
        run_session(session, out, workers=workers, progress=progress).complete(session.name)
        records += session_records(out, session)
    t = tables(records)
    budget = t.games.set_index("session_id")["mode_value"].to_dict()
    for df in (t.games, t.seats, t.moves):
        df["budget_ms"] = df["session_id"].map(budget).astype(float)
    return t


def budget_repetitions(budgets_ms: Sequence[float], repetitions: int | Sequence[int]) -> list[int]:
    """The blocks of each budget: ``repetitions`` for every one, or the list of them
    (one a budget, each at least 1); ``ValueError`` naming what would be valid."""
    if isinstance(repetitions, int) and not isinstance(repetitions, bool):
        repetitions = [repetitions] * len(budgets_ms)
    reps = list(repetitions) if isinstance(repetitions, Sequence) else None
    if reps is None or len(reps) != len(budgets_ms):
        raise ValueError(
            f"repetitions must be a whole number >= 1 or a list of one for each of the "
            f"{len(budgets_ms)} budgets {list(budgets_ms)}, got {repetitions!r}"
        )
    for r in reps:
        if isinstance(r, bool) or not isinstance(r, int) or r < 1:
            raise ValueError(f"repetitions must hold whole numbers >= 1, got {r!r} in {reps}")
    return reps


def budget_verdicts(
    t: Tables,
    algorithms: Sequence[str],
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    seed: int = 0,
) -> pd.DataFrame:
    """Each pair of ``algorithms`` at each budget of a :func:`budget_study`'s tables:
    does the first finish above the second more often than not?

    The unit is the game pair (:func:`~.headtohead.pair_scores`: a seating and the same
    seating with the two exchanged, one opening), since a budget's few blocks of 24
    games are too few units for a test over blocks (four blocks: the sign-flip test's
    smallest p-value is 1/8). The test is conditional on the openings played: it
    decides for them, and says nothing of how much strength differs from opening to
    opening. One row per pair and budget as
    :func:`~.headtohead.claim_verdicts` writes them (claim "first finishes above
    second", two-sided; Holm over every row; ``sprt`` "none": fixed blocks;
    ``blocks`` the openings, ``games`` the games both sat in; ``detectable_elo`` over
    the pairs), with each side's milliseconds a move and overshoot of the budget
    (:func:`~.headtohead.side_times`)."""
    rows = []
    for budget, part in _by_budget(t):
        for a, b in combinations(algorithms, 2):
            claim = Claim("notebook 05", f"{a} finishes above {b}", a, b)
            scores = pair_scores(part, a, b)
            rows.append(
                {
                    "source": claim.source,
                    "text": claim.text,
                    "agent": a,
                    "rival": b,
                    "players": int(part.games["players"].max()),
                    "budget_ms": budget,
                    "sprt": "none",
                    "sprt_blocks": scores.index.droplevel("seating").nunique(),
                    "blocks": scores.index.droplevel("seating").nunique(),
                    "games": 2 * len(scores),
                    **side_times(part, claim, budget),
                    "scores": scores.to_numpy(),
                }
            )
    return claim_verdicts(pd.DataFrame(rows), alpha=alpha, power=power, seed=seed)


def _by_budget(t: Tables):
    """The tables of each budget of ``t`` (its ``budget_ms`` column), in budget order."""
    for budget in np.sort(t.games["budget_ms"].unique()):
        yield (
            float(budget),
            Tables(*(df[df["budget_ms"] == budget] for df in (t.games, t.seats, t.moves))),
        )


def phase(pawns: pd.Series) -> pd.Series:
    """Game phase by pawns on the board: opening (13-16), middle (9-12), late (5-8),
    end (2-4)."""
    bins = [1, 4, 8, 12, 16]
    labels = ["end (2-4)", "late (5-8)", "middle (9-12)", "opening (13-16)"]
    return pd.cut(pawns, bins=bins, labels=labels)
