"""Run logs (:mod:`chameleon_lab.runlog`): a new log gets its run's first line, a line
torn by a killed run is cut off, and the log of another run is refused unchanged."""

from __future__ import annotations

import pytest

from chameleon_lab.runlog import append_line, read_run_log

HEAD = {"kind": "test-log", "identity": {"seed": 1}}


def test_a_new_log_gets_its_head_and_reads_back_its_rows(tmp_path):
    path = tmp_path / "sub" / "run.jsonl"
    assert read_run_log(path, HEAD, what="test run") == []
    append_line(path, {"step": 0})
    append_line(path, {"step": 1})
    assert path.read_text().splitlines()[0] == '{"kind":"test-log","identity":{"seed":1}}'
    assert read_run_log(path, HEAD, what="test run") == [{"step": 0}, {"step": 1}]


def test_a_torn_last_line_is_cut_off_and_the_log_goes_on(tmp_path):
    path = tmp_path / "run.jsonl"
    read_run_log(path, HEAD, what="test run")
    append_line(path, {"step": 0})
    with open(path, "a") as f:
        f.write('{"step": 1, "sc')  # killed while writing
    assert read_run_log(path, HEAD, what="test run") == [{"step": 0}]
    append_line(path, {"step": 1})
    assert read_run_log(path, HEAD, what="test run") == [{"step": 0}, {"step": 1}]


def test_the_log_of_another_run_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "run.jsonl"
    read_run_log(path, HEAD, what="test run")
    before = path.read_bytes()
    other = {"kind": "test-log", "identity": {"seed": 2}}
    with pytest.raises(ValueError, match=r"log of another test run .*'seed': 1"):
        read_run_log(path, other, what="test run")
    # a rule of its own: any head of the same kind is the same run
    assert read_run_log(path, other, what="test run", same=lambda h: h["kind"] == "test-log") == []
    assert path.read_bytes() == before
