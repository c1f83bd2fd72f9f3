"""``--compile-report`` (tests/compile_report.py) lists what numba compiled: checked on a
run whose only compile is known, in one process and across pytest-xdist's workers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from compile_report import summary

TESTS = Path(__file__).resolve().parent

INNER = """
from numba import njit


def test_doubles():
    @njit(cache=False)
    def twice(x):
        return x + x

    assert twice(21) == 42
"""


def _run(tmp_path: Path, *args: str) -> str:
    (tmp_path / "test_inner.py").write_text(INNER)
    env = {**os.environ, "PYTHONPATH": str(TESTS)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "compile_report", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), "test_inner.py", *args],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


@pytest.mark.parametrize("workers", ["0", "2"])
def test_the_report_names_the_one_compile_and_its_test_file(tmp_path, workers):
    out = _run(tmp_path, "--compile-report", "-n", workers)
    assert "numba: 1 compile, " in out, out
    files = out.split("by test file: seconds, compiles")[1].split("by function")[0]
    assert files.split()[1:] == ["1", "test_inner.py"], files
    assert "1  test_inner.test_doubles.<locals>.twice" in out, out


def test_without_the_option_there_is_no_report(tmp_path):
    assert "numba:" not in _run(tmp_path)


def test_the_summary_ranks_files_and_functions_by_their_seconds():
    records = [
        ("tests/a.py::one", "pkg.f", 2.0),
        ("tests/a.py::two", "pkg.g", 1.0),
        ("tests/b.py::one[x]", "pkg.f", 5.0),
    ]
    lines = summary(records, top=2)
    assert lines[0] == "numba: 3 compiles, 8.0 s (in the test processes)"
    assert [line.split() for line in lines[2:4]] == [
        ["5.0", "1", "tests/b.py"],
        ["3.0", "2", "tests/a.py"],
    ]
    assert [line.split() for line in lines[5:7]] == [["7.0", "2", "pkg.f"], ["1.0", "1", "pkg.g"]]
    assert summary([]) == ["numba: 0 compiles, 0.0 s (in the test processes)"]
