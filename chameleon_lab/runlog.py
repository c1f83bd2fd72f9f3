"""Run logs: JSON Lines files that grow a line at a time (the tuners' iterations and
generations), the unit of progress of a long run.

:func:`append_line` flushes each line to disk before the run goes on, so a killed run
loses at most the line it was writing; :func:`read_run_log` reads a log back, cuts off
a line torn by a killed run, writes the run's first line into a new log and refuses a
log whose first line says it belongs to another run. Files written whole are
:mod:`chameleon_lab.files`'s.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any


def json_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of a log (none where it does not exist); a torn last line, from a
    run killed while writing it, is cut off the file."""
    if not path.exists():
        return []
    data = path.read_bytes()
    lines = data.split(b"\n")
    if lines and lines[-1]:  # no newline at the end: a torn line
        with open(path, "r+b") as f:
            f.truncate(len(data) - len(lines[-1]))
    return [json.loads(line) for line in lines[:-1] if line.strip()]


def append_line(path: Path, row: dict[str, Any]) -> None:
    """Append one JSON line to ``path`` and flush it to disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(row, separators=(",", ":")) + "\n")
        f.flush()
        os.fsync(f.fileno())


def read_run_log(
    path: Path, head: dict[str, Any], *, what: str, same: Callable[[dict], bool] | None = None
) -> list[dict[str, Any]]:
    """The rows of the run log ``path`` after its first line, which must equal ``head``
    (or satisfy ``same``); a new or empty log gets ``head`` as its first line.
    ``ValueError`` naming the log's own first line for the log of another run (``what``
    names the kind of run in the message)."""
    rows = json_lines(path)
    if not rows:
        append_line(path, head)
        return []
    if not (same(rows[0]) if same is not None else rows[0] == head):
        raise ValueError(
            f"{path} is the log of another {what} (its first line: {rows[0]}); give "
            "another log file, or the settings it was made with"
        )
    return rows[1:]
