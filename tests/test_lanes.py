"""Notebooks run in lanes (:mod:`chameleon_lab.lanes`, :func:`chameleon_lab.batch.run_batch`):
at most ``lanes`` commands at once, never two of one group at once, a failure reported
with its log and nothing started after it, a stop that reaches the children."""

from __future__ import annotations

import json
import sys
import time

import pytest

from chameleon_lab import batch
from chameleon_lab.lanes import Job, JobFailed, _start, _stop, run_lanes

#: A job that writes its start and end times (and its name) to a file of its own.
SLEEPER = """
import json, sys, time
start = time.time()
time.sleep(float(sys.argv[2]))
json.dump({"start": start, "end": time.time()}, open(sys.argv[1], "w"))
"""


def _jobs(tmp_path, spec):
    """``spec``: (name, seconds, group) each."""
    return [
        Job(name, (sys.executable, "-c", SLEEPER, str(tmp_path / f"{name}.json"), str(s)),
            tmp_path / f"{name}.log", group)
        for name, s, group in spec
    ]  # fmt: skip


def _intervals(tmp_path, names):
    return {n: json.loads((tmp_path / f"{n}.json").read_text()) for n in names}


def _overlap(a, b):
    return a["start"] < b["end"] and b["start"] < a["end"]


def test_at_most_lanes_at_once_and_never_two_of_one_group(tmp_path):
    spec = [("a", 0.6, "g"), ("b", 0.6, "g"), ("c", 0.3, None), ("d", 0.3, None)]
    done = run_lanes(_jobs(tmp_path, spec), 2, progress=False, poll=0.02)
    assert sorted(n for n, _ in done) == ["a", "b", "c", "d"]
    got = _intervals(tmp_path, "abcd")
    assert not _overlap(got["a"], got["b"])  # one group: one after the other
    for t in (got[n]["start"] + 1e-3 for n in "abcd"):
        assert sum(v["start"] <= t < v["end"] for v in got.values()) <= 2
    # c started beside a while b waited for its group (the first startable job goes)
    assert _overlap(got["a"], got["c"])


def test_one_lane_runs_them_in_order(tmp_path):
    spec = [("a", 0.1, None), ("b", 0.1, None), ("c", 0.1, None)]
    done = run_lanes(_jobs(tmp_path, spec), 1, progress=False, poll=0.02)
    got = _intervals(tmp_path, "abc")
    assert [n for n, _ in done] == ["a", "b", "c"]
    assert got["a"]["end"] <= got["b"]["start"] and got["b"]["end"] <= got["c"]["start"]


def test_a_failed_job_is_reported_with_its_log_and_nothing_starts_after_it(tmp_path):
    boom = Job("boom", (sys.executable, "-c", "print('the cell that failed'); raise SystemExit(3)"),
               tmp_path / "boom.log")  # fmt: skip
    later = _jobs(tmp_path, [("later", 0.0, None)])
    with pytest.raises(JobFailed, match="boom exited with code 3") as caught:
        run_lanes([boom, *later], 1, progress=False, poll=0.02)
    assert "the cell that failed" in str(caught.value)
    assert not (tmp_path / "later.json").exists()


@pytest.mark.parametrize("lanes", [0, -1, 1.5, True])
def test_lanes_must_be_a_whole_number_of_at_least_one(lanes):
    with pytest.raises(ValueError, match="lanes must be a whole number >= 1"):
        run_lanes([], lanes)


def test_a_stop_sends_one_sigint_to_the_childs_group_and_waits(tmp_path):
    script = (
        "import signal, sys, time\n"
        "def stop(*_):\n"
        "    open(sys.argv[1], 'w').write('stopped cleanly')\n"
        "    raise SystemExit(130)\n"
        "signal.signal(signal.SIGINT, stop)\n"
        "open(sys.argv[1] + '.ready', 'w').close()\n"
        "time.sleep(30)\n"
    )
    out = tmp_path / "out"
    job = Job("c", (sys.executable, "-c", script, str(out)), tmp_path / "c.log")
    proc = _start(job)
    deadline = time.time() + 20
    while not (tmp_path / "out.ready").exists() and time.time() < deadline:
        time.sleep(0.02)
    _stop({"c": (job, proc, 0.0)})
    assert proc.returncode == 130 and out.read_text() == "stopped cleanly"


def test_the_batch_runs_the_longest_first_and_each_notebook_by_the_cli(monkeypatch, tmp_path):
    seen = {}

    def fake(jobs, lanes, **kw):
        seen["jobs"], seen["lanes"] = jobs, lanes
        return [(j.name, 1.0) for j in jobs]

    monkeypatch.setattr("chameleon_lab.lanes.run_lanes", fake)
    names = ["01_game", "11_hypermax", "04_thesis_tables", "12_the_papers_games"]
    done = batch.run_batch("quick", names, lanes=2, data=str(tmp_path / "d"), workers=1,
                           reports=str(tmp_path / "r"), progress=False)  # fmt: skip
    order = [j.name for j in seen["jobs"]]
    assert order == ["12_the_papers_games", "04_thesis_tables", "01_game", "11_hypermax"]
    assert seen["lanes"] == 2 and len(done) == 4
    groups = {j.name: j.group for j in seen["jobs"]}
    assert groups["04_thesis_tables"] == groups["11_hypermax"] is not None
    cmd = seen["jobs"][0].command
    assert cmd[1:5] == ("-m", "chameleon_lab.cli", "notebooks", "run")
    assert cmd[-2:] == ("--only", "12_the_papers_games") and "--quiet" in cmd
    assert cmd[cmd.index("--lanes") + 1] == "1" and cmd[cmd.index("--workers") + 1] == "1"
    assert cmd[cmd.index("--data") + 1] == str(tmp_path / "d")


def test_the_research_profile_runs_one_notebook_at_a_time():
    with pytest.raises(ValueError, match="research profile runs one notebook at a time"):
        batch.run_batch("research", ["05_time_budgets"], lanes=2, progress=False)
