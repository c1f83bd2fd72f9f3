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
