"""The reference data bundled with the package is the shared folder, byte for byte."""

from __future__ import annotations

import json
import lzma
import shutil

import pytest
from conftest import SHARED

from chameleon_lab.cli import main
from chameleon_lab.thesis import bundle
from chameleon_lab.thesis.reference import describe, find_shared


def test_unpacked_bundle_has_the_originals_checksums(tmp_path):
    out = bundle.unpack(tmp_path / "shared")
    files = bundle.manifest()["files"]
    assert len([f for f in files if f.startswith(bundle.SESSION_DIR)]) == 32
    for rel, entry in files.items():
        raw = (out / rel).read_bytes()
        assert len(raw) == entry["bytes"] and bundle.sha256(raw) == entry["sha256"], rel
    if (SHARED / "reference").is_dir():  # and the project's folder holds those very files
        assert bundle.check(SHARED) == []


def _tampered(tmp_path, change) -> tuple:
    data = tmp_path / "data"
    shutil.copytree(bundle.DATA, data)
    sessions = json.loads(lzma.decompress((data / bundle.SESSIONS).read_bytes()))
    change(sessions[3])
    (data / bundle.SESSIONS).write_bytes(lzma.compress(json.dumps(sessions).encode()))
    with pytest.raises(ValueError) as err:
        bundle.unpack(tmp_path / "out", data)
    assert [p.name for p in tmp_path.iterdir()] == ["data"]  # no half-written folder
    return sessions[3]["file"], str(err.value)


def test_a_tampered_bundle_is_refused_and_leaves_nothing(tmp_path):
    def swap_last_moves(session):
        moves = session["games"][0]["moves"]
        moves[-1], moves[-2] = moves[-2], moves[-1]

    name, message = _tampered(tmp_path, swap_last_moves)
    n = len(
        json.loads(lzma.decompress((tmp_path / "data" / bundle.SESSIONS).read_bytes()))[3]["games"][
            0
        ]["moves"]
    )
    assert message.startswith(f"{name}: game 0 move {n - 2}: ")


def test_a_changed_statistic_fails_the_checksum(tmp_path):
    def bump(session):
        session["games"][1]["moveStats"][0]["time"] += 1

    name, message = _tampered(tmp_path, bump)
    assert (
        message == f"{bundle.SESSION_DIR}/{name} rebuilt from the bundle differs from the original"
    )


def test_bundled_shared_is_unpacked_once_into_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CHAMELEON_CACHE", str(tmp_path))
    first = bundle.bundled_shared()
    assert first.parent == tmp_path and (first / "reference" / "thesis-tables.csv").is_file()
    stamp = (first / "reference" / "thesis-tables.csv").stat().st_mtime_ns
    assert bundle.bundled_shared() == first
    assert (first / "reference" / "thesis-tables.csv").stat().st_mtime_ns == stamp
    assert "bundled" in describe(first)
    assert find_shared("none") is None and "not used" in describe(None)


def test_reference_cli_unpacks_and_checks(tmp_path, capsys):
    assert main(["reference", "unpack", str(tmp_path / "s")]) == 0
    assert main(["reference", "check", str(tmp_path / "s")]) == 0
    assert "up to date" in capsys.readouterr().out
    (tmp_path / "s" / "reference" / "thesis-tables.csv").write_text("table,value\n")
    assert main(["reference", "check", str(tmp_path / "s")]) == 1
    assert "reference/thesis-tables.csv" in capsys.readouterr().out
    assert main(["reference", "unpack", str(tmp_path / "s")]) == 2
    assert "exists already" in capsys.readouterr().err


def test_a_shared_folder_above_the_working_directory_is_not_taken(tmp_path, monkeypatch):
    stray = tmp_path / "shared" / "reference"
    stray.mkdir(parents=True)
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    monkeypatch.delenv("CHAMELEON_SHARED", raising=False)
    monkeypatch.setenv("CHAMELEON_CACHE", str(tmp_path / "cache"))
    found = find_shared()
    assert found is not None and tmp_path / "shared" != found  # the project's or the bundle
