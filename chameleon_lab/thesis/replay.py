"""Exact replay: play a depth-mode legacy session again and compare every position.

:func:`replay` builds the session of each legacy file (same agents through the name
mapping of :mod:`.legacy`, thesis flavour, the original seatings), plays all games of
all files as one batch of tasks (so both cores stay busy), and compares every
position of every game with the recording. A file is *identical* when its seatings
and all its positions agree; otherwise the report names the first game and move where
the replay leaves the recording.

A time-mode file cannot be played again game by game (the original stopped by its
clock), but every move can: :func:`replay_time` searches each recorded position with
the thesis flavour stopped exactly where the original stopped, which the recorded
fractional depth says (``d + k/n``: depth ``d`` complete and ``k`` of the ``n`` root
moves one ply deeper; :func:`.driver.stop_point`), and compares the move with the
recorded one. Its per-move table (nodes searched, recorded milliseconds) is what the
emulated time mode is calibrated on (:mod:`.calibration`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm.auto import tqdm

from ..games.chameleon import Position
from ..tournament.play import record_positions
from ..tournament.runner import run_tasks
from ..tournament.seatings import format_seating
from . import driver
from .legacy import LegacySession, LegacySource, load_mode


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
    paths: Sequence[LegacySource],
    *,
    workers: int | None = None,
    client: Any = None,
    scheduler: str | None = None,
    progress: bool = True,
) -> tuple[list[ReplayResult], float]:
    """Replay depth-mode legacy session files (or sessions loaded from them); returns
    per-file results and seconds."""
    start = time.perf_counter()
    legacies = load_mode(
        paths,
        "depth",
        "its games depend on the original machine's speed and cannot be replayed exactly; "
        "replay takes depth-mode files (-dN); replay_time replays its moves one by one",
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


@dataclass
class TimeReplayResult:
    """The outcome of replaying the moves of one time-mode legacy file.

    ``moves`` has one row per recorded move: ``game``, ``ply``, ``agent`` (the name in
    the file), ``algorithm``, ``normalize``, ``budget_ms``, ``pawns``, ``legal``,
    ``depth`` (recorded), ``time_ms`` (recorded), ``nodes`` (expanded plus evaluated
    positions of our search stopped at the recorded depth), ``recorded`` and ``ours``
    (the moves), ``identical``.
    """

    path: Path
    moves: pd.DataFrame = field(repr=False)

    @property
    def compared(self) -> int:
        """Moves compared."""
        return len(self.moves)

    @property
    def same(self) -> int:
        """Moves identical with the recording."""
        return int(self.moves["identical"].sum())

    @property
    def identical(self) -> bool:
        """True when every move equals the recorded one."""
        return self.same == self.compared

    @property
    def first_difference(self) -> dict[str, Any] | None:
        """The first move where ours differs (game, ply, agent, both moves), or None."""
        diff = self.moves[~self.moves["identical"]]
        if diff.empty:
            return None
        return diff.iloc[0][["game", "ply", "agent", "depth", "recorded", "ours"]].to_dict()

    def __str__(self) -> str:
        head = f"{self.path.name}: {self.same} of {self.compared} moves identical"
        first = self.first_difference
        if first is None:
            return head
        return (
            f"{head}; first difference: game {first['game']} move {first['ply']} "
            f"({first['agent']}, depth {first['depth']:.4f}): recorded {first['recorded']}, "
            f"ours {first['ours']}"
        )


def time_replay_table(results: Sequence[TimeReplayResult]) -> pd.DataFrame:
    """Per session: moves compared, identical, and the first differing move (game, move,
    agent and both choices) or ``"none"``."""
    rows = []
    for r in results:
        first = r.first_difference
        where = (
            "none"
            if first is None
            else f"game {first['game']} move {first['ply']} ({first['agent']}): "
            f"recorded {first['recorded']}, ours {first['ours']}"
        )
        rows.append(
            {
                "session": r.path.stem,
                "compared": r.compared,
                "identical": r.same,
                "first difference": where,
            }
        )
    return pd.DataFrame(rows)


def replay_time(paths: Sequence[LegacySource], *, progress: bool = True) -> list[TimeReplayResult]:
    """Search every recorded move of time-mode legacy files (or sessions loaded from
    them) where the original stopped and compare the moves (see the module doc).
    ``ValueError`` names a depth-mode file or a recorded depth that fits no stopping
    point of its position."""
    legacies = load_mode(
        paths, "time", "replay_time takes time-mode files (-tN); replay plays depth-mode files"
    )
    total = sum(len(r["moves"]) for legacy in legacies for r in legacy.records)
    bar = tqdm(total=total, desc="time-mode moves", unit="move", disable=not progress)
    results = []
    try:
        for legacy in legacies:
            results.append(TimeReplayResult(legacy.path, _replay_moves(legacy, bar)))
    finally:
        bar.close()
    return results


def recorded_moves(legacy: LegacySession) -> Iterator[tuple[int, int, Position, str, dict, dict]]:
    """Every recorded move of a legacy session: ``(game, ply, position before, agent
    name, agent parameters, move record)``."""
    agents = legacy.session.resolved_agents()
    for g, (record, positions) in enumerate(zip(legacy.records, legacy.positions, strict=True)):
        for k, move in enumerate(record["moves"]):
            position = positions[k]
            name = record["seating"][position.to_move.value]
            yield g, k, position, name, agents[name], move


def _replay_moves(legacy: LegacySession, bar: Any) -> pd.DataFrame:
    rows = []
    for g, k, position, name, params, move in recorded_moves(legacy):
        state = position.state
        algo = driver.root_algorithm(
            params["algorithm"], state, heuristic=params["heuristic"], normalize=params["normalize"]
        )
        try:
            result = driver.run_to(algo, state, move["depth"])
        except ValueError as exc:
            raise ValueError(f"{legacy.path}: game {g} move {k}: {exc}") from None
        ours = str(position.legal_moves[result.index])
        rows.append(
            {
                "game": g,
                "ply": k,
                "agent": name,
                "algorithm": params["algorithm"],
                "normalize": params["normalize"],
                "budget_ms": legacy.mode_value,
                "pawns": len(position.pawns),
                "legal": len(result.moves),
                "depth": float(move["depth"]),
                "time_ms": move["time_ms"],
                "nodes": result.expanded + result.evaluated,
                "recorded": move["move"],
                "ours": ours,
                "identical": ours == move["move"],
            }
        )
        bar.update(1)
    return pd.DataFrame(rows)
