"""Files are written whole or not at all (:mod:`chameleon_lab.files`)."""

from __future__ import annotations

import threading

import pytest

from chameleon_lab.files import atomic_write, atomic_write_text


def test_a_file_is_written_whole_into_a_new_folder(tmp_path):
    target = tmp_path / "new" / "table.csv"
    assert atomic_write_text(target, "a,b\n1,2\n") == target
    assert target.read_text() == "a,b\n1,2\n"
    assert [p.name for p in target.parent.iterdir()] == ["table.csv"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary_one(tmp_path):
    target = tmp_path / "book.npz"
    target.write_text("old")

    def half(tmp):
        tmp.write_text("half of the new")
        raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError, match="interrupted"):
        atomic_write(target, half)
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["book.npz"]


def test_writers_of_one_file_at_once_leave_one_whole_file(tmp_path):
    target = tmp_path / "PROVENANCE.json"
    texts = [f"{i}\n" * 20_000 for i in range(8)]  # long enough to overlap
    threads = [threading.Thread(target=atomic_write_text, args=(target, t)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert target.read_text() in texts
    assert [p.name for p in tmp_path.iterdir()] == ["PROVENANCE.json"]


COUNTER = """
import sys, time
from pathlib import Path
from chameleon_lab.files import atomic_write_text, exclusive
folder = Path(sys.argv[1])
for _ in range(40):
    with exclusive(folder):
        book = folder / "book.txt"
        n = int(book.read_text()) if book.exists() else 0
        time.sleep(0.001)  # a read-modify-write as long as a provenance entry's
        atomic_write_text(book, str(n + 1))
"""


def test_updates_of_one_book_by_processes_at_once_are_never_lost(tmp_path):
    """Four processes add 1 forty times each to a number in a file, each addition a
    read, a pause and an atomic write under :func:`exclusive`: 160, none lost (without
    the lock the writes overlap and most are)."""
    import subprocess
    import sys

    procs = [subprocess.Popen([sys.executable, "-c", COUNTER, str(tmp_path)]) for _ in range(4)]
    assert [p.wait(timeout=120) for p in procs] == [0] * 4
    assert (tmp_path / "book.txt").read_text() == "160"
