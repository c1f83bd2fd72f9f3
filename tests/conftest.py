"""Shared fixtures: where the reference data lives: ``../shared`` (or
``CHAMELEON_SHARED``) when it is there, else the copy bundled with the package (unpacked
and checked against the originals' checksums), so every copy runs every test."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CHAMELEON_SHARED", ROOT.parent / "shared"))


def shared_folder() -> Path:
    """The project's shared folder, else the bundled copy."""
    if (SHARED / "reference").is_dir():
        return SHARED
    from chameleon_lab.thesis.bundle import bundled_shared

    return bundled_shared()


def _need(path: Path, what: str) -> Path:
    assert path.exists(), f"{what} missing at {path}"
    return path


@pytest.fixture(scope="session")
def conformance_dir() -> Path:
    """``shared/conformance`` (data recorded from the original program)."""
    return _need(shared_folder() / "conformance", "the conformance data")


@pytest.fixture(scope="session")
def legacy_dir() -> Path:
    """``shared/reference/legacy-sessions`` (the original program's session files)."""
    return _need(shared_folder() / "reference" / "legacy-sessions", "the legacy session files")


@pytest.fixture(scope="session")
def successor_records(conformance_dir: Path) -> list[dict]:
    with (conformance_dir / "successors.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="session")
def legacy_sessions(legacy_dir: Path) -> dict[str, dict]:
    files = sorted(legacy_dir.glob("*.json"))
    assert files, f"no session files (*.json) in {legacy_dir}"
    return {f.name: json.loads(f.read_text(encoding="utf-8")) for f in files}


@pytest.fixture(scope="session")
def thesis_tables_csv() -> Path:
    """``shared/reference/thesis-tables.csv`` (the thesis's tables as numbers)."""
    return _need(shared_folder() / "reference" / "thesis-tables.csv", "the thesis tables")
