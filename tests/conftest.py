"""Shared fixtures: where the reference data of ``../shared`` lives, or a clear skip."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CHAMELEON_SHARED", ROOT.parent / "shared"))


def _need(path: Path, what: str) -> Path:
    if not path.exists():
        pytest.skip(
            f"{what} not found at {path}: put the project's shared/ folder beside the "
            "repository or set CHAMELEON_SHARED to its path"
        )
    return path


@pytest.fixture(scope="session")
def conformance_dir() -> Path:
    """``shared/conformance`` (data recorded from the original program)."""
    return _need(SHARED / "conformance", "the conformance data")


@pytest.fixture(scope="session")
def legacy_dir() -> Path:
    """``shared/reference/legacy-sessions`` (the original program's session files)."""
    return _need(SHARED / "reference" / "legacy-sessions", "the legacy session files")


@pytest.fixture(scope="session")
def successor_records(conformance_dir: Path) -> list[dict]:
    with (conformance_dir / "successors.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="session")
def legacy_sessions(legacy_dir: Path) -> dict[str, dict]:
    files = sorted(legacy_dir.glob("*.json"))
    if not files:
        pytest.skip(f"no session files (*.json) in {legacy_dir}")
    return {f.name: json.loads(f.read_text(encoding="utf-8")) for f in files}


@pytest.fixture(scope="session")
def thesis_tables_csv() -> Path:
    """``shared/reference/thesis-tables.csv`` (the thesis's tables as numbers)."""
    return _need(SHARED / "reference" / "thesis-tables.csv", "the thesis tables")
