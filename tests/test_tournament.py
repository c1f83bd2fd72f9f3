"""Sessions, records and the runner: resume, seeds, executors, bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chameleon_lab.games.chameleon import Position
from chameleon_lab.tournament import (
    RecordWriter,
    Session,
    TornLineWarning,
    load_session,
    read_records,
    run_session,
    tables,
    without_times,
)

THESIS = {"flavour": "thesis"}


def tiny_session(name: str = "tiny", **kw) -> Session:
    """Two thesis-flavour agents at depth 1: 38 fast games."""
    agents = kw.pop(
        "agents",
        {
            "mx": {"algorithm": "maxn", **THESIS},
            "pa": {"algorithm": "paranoid", **THESIS, "random_move_probability": 0.2},
        },
    )
    return Session(name, agents, budget={"depth": 1}, **kw)


def by_game(records):
    return {r["game"]: without_times(r) for r in records}


def test_records_are_complete_and_consistent(tmp_path):
    session = tiny_session(design="fixed", seatings=["mx,pa,_,_", "pa,mx,mx,pa"])
    out = tmp_path / "r.jsonl"
    report = run_session(session, out, workers=1, progress=False)
    assert (report.played, report.skipped, report.total) == (2, 0, 2)
    records = read_records(out)
    assert [r["game"] for r in records] == [0, 1]
    for r in records:
        # the moves replay from the start to the final position, by the rules
        position = Position.from_compact(r["start"])
        for m in r["moves"]:
            assert m["seat"] == position.to_move.name
            assert m["pawns"] == len(position.pawns)
            assert m["legal"] == len(position.legal_moves)
            position = position.play(m["move"])
        assert position.to_compact() == r["final"]
        assert r["reason"] == ("winner" if position.is_over else "move_limit")
        assert r["survivors"] == [c.name for c in position.players_alive]
        assert set(r["versions"]) >= {"chameleon_lab", "python", "numpy", "numba"}
        assert r["session"]["name"] == "tiny" and r["session_id"] == session.fingerprint
        assert set(r["agents"]) == {s for s in r["seating"] if s}
    t = tables(records)
    assert len(t.games) == 2 and len(t.moves) == sum(len(r["moves"]) for r in records)
    assert set(t.seats["outcome"]) <= {"win", "draw", "loss"}
    paths = t.to_parquet(tmp_path / "pq")
    import pandas as pd

    assert len(pd.read_parquet(paths[2])) == len(t.moves)


def _moves(records):
    return [[m["move"] for m in r["moves"]] for r in sorted(records, key=lambda r: r["game"])]


def test_same_seed_same_records_and_other_seed_other_games():
    a = run_session(tiny_session(seed=7), workers=1, progress=False).records
    b = run_session(tiny_session(seed=7), workers=1, progress=False).records
    c = run_session(tiny_session(seed=8), workers=1, progress=False).records
    assert by_game(a) == by_game(b)
    assert _moves(a) != _moves(c)  # random moves with another seed


def test_process_pool_gives_the_records_of_a_serial_run():
    serial = run_session(tiny_session(seed=3), workers=1, progress=False).records
    pooled = run_session(tiny_session(seed=3), workers=2, progress=False).records
    assert by_game(serial) == by_game(pooled)


def test_dask_local_cluster_gives_the_records_of_the_process_pool():
    distributed = pytest.importorskip("distributed")
    session = tiny_session(
        seed=5, design="fixed", seatings=["mx,pa,_,_", "pa,mx,_,_", "mx,pa,pa,mx"]
    )
    pooled = run_session(session, workers=2, progress=False).records
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        dasked = run_session(session, client=client, progress=False).records
        by_address = run_session(
            session, scheduler=cluster.scheduler_address, progress=False
        ).records
    assert by_game(dasked) == by_game(pooled) == by_game(by_address)


def test_resume_skips_finished_games_and_refuses_another_session(tmp_path):
    out = tmp_path / "r.jsonl"
    session = tiny_session()
    first = run_session(session, out, workers=1, progress=False)
    again = run_session(session, out, workers=1, progress=False)
    assert (again.played, again.skipped) == (0, first.total)
    changed = tiny_session(seed=99)  # same name, other parameters
    with pytest.raises(ValueError, match="other parameters"):
        run_session(changed, out, workers=1, progress=False)


def test_a_torn_last_line_is_reported_ignored_and_repaired(tmp_path):
    out = tmp_path / "r.jsonl"
    session = tiny_session(design="fixed", seatings=["mx,pa,_,_", "pa,mx,_,_", "mx,_,pa,_"])
    full = run_session(session, out, workers=1, progress=False)
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:2]) + lines[2][: len(lines[2]) // 2])  # killed mid-write
    with pytest.warns(TornLineWarning, match="line 3 is incomplete"):
        assert len(read_records(out)) == 2
    with pytest.warns(TornLineWarning, match="removed"):
        report = run_session(session, out, workers=1, progress=False)
    assert report.played == 1
    records = read_records(out)
    assert sorted(r["game"] for r in records) == [0, 1, 2] and full.total == 3


def test_bad_lines_and_foreign_files_are_named(tmp_path):
    bad = tmp_path / "bad.jsonl"
    with RecordWriter(bad) as w:
        w.write(
            {
                "record": "chameleon_lab/game",
                "session_id": "x",
                "game": 0,
                "seating": [],
                "moves": [],
                "outcomes": {},
            }
        )
    with bad.open("a") as f:
        f.write("{not json}\n")
    with pytest.raises(ValueError, match=r"bad\.jsonl line 2 is not JSON"):
        read_records(bad)
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text('{"hello": 1}\n')
    with pytest.raises(ValueError, match=r"foreign\.jsonl line 1 is not a chameleon_lab game"):
        read_records(foreign)
    with pytest.raises(ValueError, match="cannot read records file"):
        read_records(tmp_path / "missing.jsonl")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"agents": {"a": {"algorithm": "maxn", "depht": 2}, "b": {}}}, r"agent 'a'.*depht"),
        ({"design": "swiss"}, "unknown design 'swiss'"),
        ({"design": "every"}, "needs players"),
        ({"design": "every", "players": 2, "agents": {"a": {}, "b": {}, "c": {}}}, "cannot seat"),
        ({"design": "fixed", "seatings": ["a,q,_,_"]}, "unknown agent"),
        ({"budget": {"plies": 3}}, "unknown budget key"),
        ({"repetitions": 0}, "repetitions"),
    ],
)
def test_bad_sessions_say_what_is_wrong(change, message):
    params = {"name": "s", "agents": {"a": {}, "b": {}}, "budget": {"depth": 1}, **change}
    with pytest.raises(ValueError, match=message):
        Session.from_dict(params)


def test_session_files_round_trip_and_name_the_file(tmp_path):
    session = tiny_session(repetitions=2)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(session.to_dict()))
    again = load_session(path)
    assert again.fingerprint == session.fingerprint and len(again) == 76
    toml = tmp_path / "s.toml"
    toml.write_text(
        'name = "t"\ndesign = "every"\nplayers = 2\n[agents.a]\nalgorithm = "maxn"\n'
        '[agents.b]\nalgorithm = "paranoid"\n[budget]\ndepth = 1\n'
    )
    assert len(load_session(toml)) == 12
    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "x", "agents": {"a": {}}, "colour": 1}')
    with pytest.raises(ValueError, match=r"broken\.json.*unknown session key.*colour"):
        load_session(broken)


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _start_and_signal(tmp_path: Path, name: str, lines: int, sig: int, **session_kw):
    """Start ``chameleon-lab tournament`` (2 workers) in its own process group, wait for
    ``lines`` records, send ``sig`` to the group; returns (command, out, process)."""
    out, spec = tmp_path / "r.jsonl", tmp_path / "s.json"
    data = tiny_session(name, **session_kw).to_dict()
    data["budget"] = {"depth": 3}
    spec.write_text(json.dumps(data))
    cmd = [sys.executable, "-m", "chameleon_lab.cli", "tournament", str(spec)]
    cmd += ["--out", str(out), "--workers", "2", "--quiet"]
    proc = subprocess.Popen(
        cmd, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 120
    while _lines(out) < lines and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, sig)
    return cmd, out, spec, proc


def test_a_killed_run_resumes_without_loss_or_duplicates(tmp_path):
    """A real subprocess, really killed (SIGKILL to it and its workers), then resumed."""
    agents = {"mx": {"algorithm": "maxn", **THESIS}, "pa": {"algorithm": "paranoid", **THESIS}}
    cmd, out, spec, proc = _start_and_signal(tmp_path, "killed", 3, signal.SIGKILL, agents=agents)
    proc.communicate(timeout=60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TornLineWarning)
        kept = read_records(out)
    assert 3 <= len(kept) < 38, "the run must be killed part-way"
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"{len(kept)} were already finished" in done.stdout
    records = read_records(out)
    games = [r["game"] for r in records]
    assert sorted(games) == list(range(38))  # none lost, none duplicated
    reference = run_session(load_session(spec), workers=1, progress=False).records
    assert by_game(records) == by_game(reference)  # and nothing garbled


def test_ctrl_c_stops_cleanly_and_keeps_finished_games(tmp_path):
    """SIGINT to the whole process group, as a terminal's Ctrl-C sends it."""
    _, out, _, proc = _start_and_signal(tmp_path, "interrupted", 2, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stdout and "run the same command again" in stdout
    kept = read_records(out)  # complete lines only, no torn tail
    assert 2 <= len(kept) < 38
    assert len({r["game"] for r in kept}) == len(kept)


@pytest.fixture(scope="module")
def three_records():
    session = tiny_session(design="fixed", seatings=["mx,pa,_,_", "pa,mx,_,_", "mx,_,pa,_"])
    return run_session(session, workers=1, progress=False).records


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cut=st.integers(min_value=0, max_value=10**9))
def test_a_file_cut_anywhere_keeps_exactly_its_complete_lines(tmp_path_factory, three_records, cut):
    """Whatever byte a crash stops at, the complete lines are read back unchanged, the
    torn tail is reported, and a writer repairs the file so that appending works."""
    path = tmp_path_factory.mktemp("cut") / "r.jsonl"
    with RecordWriter(path) as w:
        for r in three_records:
            w.write(r)
    data = path.read_bytes()
    cut %= len(data) + 1
    path.write_bytes(data[:cut])
    complete = data[:cut].count(b"\n")
    torn = cut > 0 and data[cut - 1 : cut] != b"\n"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kept = read_records(path)
    assert kept == three_records[:complete]
    assert any(issubclass(w.category, TornLineWarning) for w in caught) == torn
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TornLineWarning)
        with RecordWriter(path) as w:
            w.write(three_records[-1])
    assert read_records(path) == [*three_records[:complete], three_records[-1]]
