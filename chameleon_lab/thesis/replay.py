"""Exact replay: play a depth-mode legacy session again and compare every position.

:func:`replay` builds the session of each legacy file (same agents through the name
mapping of :mod:`.legacy`, thesis flavour, the original seatings), plays all games of
all files as one batch of tasks (so both cores stay busy), and compares every
position of every game with the recording. A file is *identical* when its seatings
and all its positions agree; otherwise the report names the first game and move where
the replay leaves the recording.

Time-mode files depend on the original machine's speed; they are refused with a
message saying so.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..tournament.play import record_positions
from ..tournament.runner import run_tasks
from ..tournament.seatings import format_seating
from .legacy import LegacySession, load_legacy


@dataclass
class ReplayResult:
    """The outcome of replaying one legacy file."""

    path: Path
    games: int
    positions: int  # positions compared
    divergence: str | None = None  # the first difference, or None
    records: list[dict[str, Any]] = field(default_factory=list, repr=False)

    @property
    def identical(self) -> bool:
        """True when every seating and every position equals the recording."""
        return self.divergence is None

    def __str__(self) -> str:
        if self.identical:
            return (
                f"{self.path.name}: identical ({self.games} games, "
                f"{self.positions} positions compared)"
            )
        return f"{self.path.name}: DIVERGES: {self.divergence}"


def _first_divergence(legacy: LegacySession, records: dict[int, dict[str, Any]]) -> str | None:
    tasks = legacy.session.tasks()
    for g, (recorded, positions) in enumerate(zip(legacy.records, legacy.positions, strict=True)):
        seating = tuple(recorded["seating"])
        if g >= len(tasks) or tasks[g].seating != seating:
            design = format_seating(tasks[g].seating) if g < len(tasks) else "none"
            return (
                f"game {g}: the recording seats {format_seating(seating)}, "
                f"the original design seats {design}"
            )
        where = f"game {g} ({format_seating(seating)})"
        ours = record_positions(records[g])
        for k, (recorded_pos, replayed) in enumerate(zip(positions, ours, strict=False)):
            if replayed != recorded_pos:
                return (
                    f"{where}, position {k}: recorded {recorded_pos.to_compact()!r}, "
                    f"replayed {replayed.to_compact()!r}"
                )
        if len(ours) > len(positions):
            return f"{where}: the replay goes on after move {len(positions) - 1}"
        if len(ours) < len(positions):
            return f"{where}: the replay ends after {len(ours) - 1} moves"
    if len(tasks) != len(legacy.records):
        return f"the file has {len(legacy.records)} games, the original design {len(tasks)}"
    return None


def replay(
    paths: Sequence[str | Path],
    *,
    workers: int | None = None,
    client: Any = None,
    scheduler: str | None = None,
    progress: bool = True,
) -> tuple[list[ReplayResult], float]:
    """Replay depth-mode legacy session files; returns per-file results and seconds."""
    start = time.perf_counter()
    legacies = [load_legacy(p) for p in paths]
    for legacy in legacies:
        if legacy.mode != "depth":
            raise ValueError(
                f"{legacy.path} is a time-mode session ({legacy.mode_value} ms a move): its "
                "games depend on the original machine's speed and cannot be replayed exactly; "
                "replay takes depth-mode files (-dN)"
            )
    tasks, cost = [], {}
    for legacy in legacies:
        for task, recorded in zip(legacy.session.tasks(), legacy.records, strict=False):
            tasks.append(task)
            # the original's thinking time predicts the cost: longest games first
            cost[(task.session_id, task.game)] = sum(m["time_ms"] or 0 for m in recorded["moves"])
    tasks.sort(key=lambda t: -cost[(t.session_id, t.game)])
    played: dict[str, dict[int, dict[str, Any]]] = {}

    def keep(record: dict[str, Any]) -> None:
        played.setdefault(record["session_id"], {})[record["game"]] = record

    _, interrupted = run_tasks(
        tasks,
        keep,
        workers=workers,
        client=client,
        scheduler=scheduler,
        progress=progress,
        desc="replay",
    )
    if interrupted:
        raise KeyboardInterrupt("replay interrupted")
    results = []
    for legacy in legacies:
        records = played.get(legacy.session.fingerprint, {})
        result = ReplayResult(
            legacy.path,
            len(legacy.records),
            sum(len(p) for p in legacy.positions),
            _first_divergence(legacy, records),
            [records[g] for g in sorted(records)],
        )
        results.append(result)
    return results, time.perf_counter() - start
