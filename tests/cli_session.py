"""A heuristic named on the command line played in a real CLI tournament: the check the
learned heuristics' CLI tests share (a trained name must work wherever a built-in one
does, records included)."""

from __future__ import annotations

import json
from pathlib import Path

from chameleon_lab.cli import main


def play_against_weighted_lines(folder: Path, heuristic: str) -> list[dict]:
    """Connect Four at depth 1, ``heuristic`` against ``weighted_lines`` in both seats,
    run by ``chameleon-lab tournament`` in ``folder``; the records it wrote."""
    session = {
        "name": "learned",
        "game": "connect4",
        "design": "every",
        "budget": {"depth": 1},
        "agents": {"learned": {"algorithm": "alphabeta", "heuristic": heuristic},
                   "hand": {"algorithm": "alphabeta", "heuristic": "weighted_lines"}},
    }  # fmt: skip
    path = folder / "session.json"
    path.write_text(json.dumps(session))
    out = folder / "records.jsonl"
    assert main(["tournament", str(path), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    return [json.loads(line) for line in out.read_text().splitlines()]
