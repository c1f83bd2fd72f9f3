"""Sessions, records and the runner: resume, seeds, executors, bad input."""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chameleon_lab.cli import main
from chameleon_lab.games.chameleon import Position
from chameleon_lab.source_code import NOT_PLAYING, code_fingerprint
from chameleon_lab.tournament import (
    RecordsInUse,
    RecordsLock,
    RecordWriter,
    Session,
    TornLineWarning,
    load_session,
    pack_records,
    read_records,
    reading_once,
    run_session,
    tables,
    unpack_records,
    without_times,
)
from chameleon_lab.tournament import records as records_module
from chameleon_lab.tournament.records import record_seats

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
        assert set(r["versions"]) >= {"chameleon_lab", "python", "numpy", "numba", "code"}
        assert r["versions"]["code"] == code_fingerprint(NOT_PLAYING)  # the code that played
        assert r["session"]["name"] == "tiny" and r["session_id"] == session.fingerprint
        assert set(r["agents"]) == {s for s in r["seating"] if s}
    t = tables(records)
    assert len(t.games) == 2 and len(t.moves) == sum(len(r["moves"]) for r in records)
    assert set(t.seats["outcome"]) <= {"win", "draw", "loss"}
    paths = t.to_parquet(tmp_path / "pq")
    import pandas as pd

    assert len(pd.read_parquet(paths[2])) == len(t.moves)


def test_the_moves_table_carries_the_counters_an_algorithm_reports():
    """MCTS's records carry its iterations (its registry entry's ``reported``): the
    moves table holds them, its iteration budget on every MCTS move and nothing on
    alpha-beta's; a session without MCTS has no such column."""
    agents = {"mc": {"algorithm": "mcts", "iterations": 40}, "ab": {"algorithm": "alphabeta",
              "depth": 1}}  # fmt: skip
    session = Session("it", agents, budget={}, game="tictactoe", design="every")
    moves = tables(run_session(session, workers=1, progress=False).records).moves
    by_agent = moves.groupby("agent")["iterations"]
    assert (by_agent.min()["mc"], by_agent.max()["mc"], by_agent.count()["ab"]) == (40, 40, 0)
    assert by_agent.count()["mc"] == by_agent.size()["mc"] > 0
    plain = tiny_session(design="fixed", seatings=["mx,pa,_,_"])
    assert "iterations" not in tables(run_session(plain, workers=1, progress=False).records).moves


def test_the_moves_table_is_a_row_per_move_whatever_columns_come_late():
    """The moves table (built column by column) against one written row by row from its
    definition: an alpha-beta game first, whose moves lack MCTS's ``iterations``, then
    games with them; every move a row in record order, missing values missing."""
    agents = {"mc": {"algorithm": "mcts", "iterations": 30}, "ab": {"algorithm": "alphabeta",
              "depth": 1}}  # fmt: skip
    session = Session("late", agents, budget={}, game="tictactoe", design="every")
    records = run_session(session, workers=1, progress=False).records
    plain_only = tiny_session(design="fixed", seatings=["mx,pa,_,_"])
    records = run_session(plain_only, workers=1, progress=False).records + records
    rows = []
    for r in sorted(records, key=lambda r: (r["session"]["name"], r["game"])):
        agent_of = dict(zip(record_seats(r), r["seating"], strict=True))
        for ply, m in enumerate(r["moves"]):
            rows.append({"game": r["game"], "ply": ply, "agent": agent_of[m["seat"]],
                         "move": m["move"], "random": m.get("random", False),
                         "iterations": m.get("iterations")})  # fmt: skip
    moves = tables(records).moves
    plain = pd.DataFrame(rows)
    assert len(moves) == len(plain) and moves["iterations"].notna().sum() > 0
    for column in ("game", "ply", "agent", "move", "random"):
        assert list(moves[column]) == list(plain[column]), column
    assert moves["iterations"].fillna(-1).tolist() == plain["iterations"].fillna(-1).tolist()


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


def test_dask_local_cluster_gives_the_records_of_the_process_pool(monkeypatch):
    distributed = pytest.importorskip("distributed")
    from chameleon_lab.tournament import runner

    # a window of 2 futures in flight: the third game is submitted as one finishes
    monkeypatch.setattr(runner, "DASK_WINDOW", 2)
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


@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_and_duplicates_no_game(tmp_path):
    """A real LocalCluster of worker processes; one worker is killed (SIGKILL) once the
    first game is on disk: the scheduler gives its games to the others (the nanny
    starts a new worker), and the file ends with every game exactly once, each as a
    serial run plays it."""
    distributed = pytest.importorskip("distributed")
    import threading

    session = dataclasses.replace(tiny_session(), budget={"depth": 2})
    out = tmp_path / "r.jsonl"
    killed: list[tuple[int, int]] = []  # (pid, games on disk when it was killed)

    def kill_one_worker(client):
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if out.exists() and out.read_bytes().count(b"\n") >= 1:
                pids = client.run(os.getpid)
                pid = sorted(pids.values())[0]
                os.kill(pid, signal.SIGKILL)
                killed.append((pid, out.read_bytes().count(b"\n")))
                return
            time.sleep(0.005)

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        killer = threading.Thread(target=kill_one_worker, args=(client,), daemon=True)
        killer.start()
        report = run_session(session, out, client=client, progress=False)
        killer.join(timeout=5)
    assert killed and killed[0][1] < report.total, "the worker was not killed mid-run"
    assert not report.interrupted and report.played == report.total
    games = [r["game"] for r in read_records(out)]
    assert sorted(games) == list(range(report.total))  # none lost, none twice
    serial = run_session(session, workers=1, progress=False).records
    assert by_game(read_records(out)) == by_game(serial)


def test_packed_records_are_read_and_resumed_without_loss(tmp_path):
    folder = tmp_path / "records"
    out = folder / "beyond" / "r.jsonl"
    session = tiny_session(design="fixed", seatings=["mx,pa,_,_", "pa,mx,_,_", "mx,_,pa,_"])
    run_session(session, out, workers=1, progress=False)
    played = by_game(read_records(out))
    with out.open("ab") as f:
        f.write(b'{"record": "chameleon_lab/ga')  # a torn line: not packed
    (packed,) = pack_records(folder)
    assert packed.name == "r.jsonl.xz" and pack_records(folder) == []  # unchanged: kept
    complete = out.read_bytes().rsplit(b"\n", 1)[0] + b"\n"
    assert by_game(read_records(packed)) == played
    out.unlink()
    assert unpack_records(folder) == [out] and out.read_bytes() == complete
    assert unpack_records(folder) == []  # a working copy is never overwritten
    again = run_session(session, out, workers=1, progress=False)
    assert (again.played, again.skipped) == (0, 3)
    packed.write_bytes(b"not xz")
    with pytest.raises(ValueError, match=r"r\.jsonl\.xz is not xz-compressed data"):
        read_records(packed)


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


def test_reading_once_parses_an_unchanged_file_once_and_a_changed_one_again(
    tmp_path, three_records, monkeypatch
):
    """Inside ``reading_once`` a file is parsed again exactly when it changed (a game
    appended, a line torn, the file replaced); outside it every read parses."""
    parsed = []
    real = records_module.parse_record
    monkeypatch.setattr(
        records_module,
        "parse_record",
        lambda line, where: parsed.append(where) or real(line, where),
    )
    out = tmp_path / "r.jsonl"
    with RecordWriter(out) as w:
        for r in three_records[:2]:
            w.write(r)
    with reading_once():
        first, second = read_records(out), read_records(out)
        assert len(parsed) == 2 and first == second and first is not second
        with RecordWriter(out) as w:
            w.write(three_records[2])
        assert by_game(read_records(out)) == by_game(three_records) and len(parsed) == 5
        with out.open("ab") as f:
            f.write(b'{"record": "chameleon_lab/ga')
        for _ in range(2):  # the torn line is reported on every read, parsed or not
            with pytest.warns(TornLineWarning, match="line 4 is incomplete"):
                assert len(read_records(out)) == 3
        assert len(parsed) == 8
        out.write_bytes(out.read_bytes()[:0])  # replaced: nothing in it now
        assert read_records(out) == []
    read_records(tmp_path / "r.jsonl")
    read_records(tmp_path / "r.jsonl")
    assert len(parsed) == 8  # outside: nothing to parse, and nothing kept
    with RecordWriter(out) as w:
        w.write(three_records[0])
    read_records(out), read_records(out)
    assert len(parsed) == 10


def test_bad_lines_and_foreign_files_are_named(tmp_path, three_records):
    bad = tmp_path / "bad.jsonl"
    with RecordWriter(bad) as w:
        w.write(three_records[0])
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


def _start_and_signal(
    tmp_path: Path, name: str, lines: int, sig: int, depth: int = 4, **session_kw
):
    """Start ``chameleon-lab tournament`` (2 workers) in its own process group, wait for
    ``lines`` records, send ``sig`` to the group; returns (command, out, process).
    ``depth`` 4 spreads the 38 games over seconds (at 3 the last 32 came within 0.3 s
    of the first). The run starts with SIGINT at its default, as from a terminal:
    where the tests themselves run with SIGINT ignored (a shell's background job, a
    batch system) the child would inherit that, Python would install no Ctrl-C
    handler, and the signal would be lost (seen: the run finished with status 0)."""
    out, spec = tmp_path / "r.jsonl", tmp_path / "s.json"
    data = tiny_session(name, **session_kw).to_dict()
    data["budget"] = {"depth": depth}
    spec.write_text(json.dumps(data))
    cmd = [sys.executable, "-m", "chameleon_lab.cli", "tournament", str(spec)]
    cmd += ["--out", str(out), "--workers", "2", "--quiet"]
    proc = subprocess.Popen(
        cmd,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while _lines(out) < lines and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, sig)
    return cmd, out, spec, proc


def test_a_killed_run_resumes_without_loss_or_duplicates(tmp_path):
    """A real subprocess, really killed (SIGKILL to it and its workers), then resumed."""
    agents = {"mx": {"algorithm": "maxn", **THESIS}, "pa": {"algorithm": "paranoid", **THESIS}}
    cmd, out, spec, proc = _start_and_signal(
        tmp_path, "killed", 3, signal.SIGKILL, depth=3, agents=agents
    )
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


# ------------------------------------------------------------------ issue 14, items 6 to 8

TINY_AGENTS = [
    "--agent",
    "mx:algorithm=maxn,flavour=thesis",
    "--agent",
    "pa:algorithm=paranoid,flavour=thesis",
]


def test_a_second_run_on_the_same_records_file_stops_at_once(tmp_path):
    """Two real runs of the command on one file: the second stops at once with an error
    naming the file and the first run's PID; the first goes on undisturbed."""
    out, lock = tmp_path / "r.jsonl", tmp_path / "r.jsonl.lock"
    cmd = [sys.executable, "-m", "chameleon_lab.cli", "tournament", "--name", "locked"]
    cmd += [*TINY_AGENTS, "--time-ms", "20", "--workers", "1", "--quiet", "--out", str(out)]
    first = subprocess.Popen(
        cmd, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 120
        while _lines(out) < 1 and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert first.poll() is None and _lines(out) >= 1, "the first run must be playing"
        holder = json.loads(lock.read_text())
        assert holder["pid"] == first.pid and "tournament --name locked" in holder["command"]
        second = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert first.poll() is None, "the second run must not wait for the first one"
        assert second.returncode == 2, second.stderr
        assert f"records file {out} is in use by another run (PID {first.pid}: " in second.stderr
        assert "Traceback" not in second.stderr and "played" not in second.stdout
        kept = read_records(out)
        assert len({r["game"] for r in kept}) == len(kept)  # nothing written twice
    finally:
        os.killpg(first.pid, signal.SIGTERM)
        first.communicate(timeout=60)
    assert first.returncode == 143
    assert not lock.exists()  # removed when the run ends


def test_a_held_lock_is_named_and_a_stale_lock_file_is_taken_over(tmp_path):
    out, lock = tmp_path / "r.jsonl", tmp_path / "r.jsonl.lock"
    session = tiny_session(design="fixed", seatings=["mx,pa,_,_"])
    with RecordsLock(out):
        message = (
            rf"records file {re.escape(str(out))} is in use by another run \(PID {os.getpid()}"
        )
        with pytest.raises(RecordsInUse, match=message):
            run_session(session, out, workers=1, progress=False)
        with pytest.raises(ValueError, match=message):
            RecordWriter(out)
    assert not out.exists()  # refused before the records file was created
    lock.write_text('{"pid": 999999, "command": "a run killed with SIGKILL"}')
    report = run_session(session, out, workers=1, progress=False)
    assert report.played == 1 and not lock.exists()


DAMAGES = {
    "no reason": (lambda r: r.pop("reason"), 'the game record has no field "reason"'),
    "seating not a list": (
        lambda r: r.update(seating="pa,mx,_,_"),
        'field "seating" must be a list of 4 agent names',
    ),
    "seated agent not described": (
        lambda r: r["agents"].pop("pa"),
        'field "agents" has no entry for pa, seated in "seating"',
    ),
    "outcome missing": (lambda r: r["outcomes"].pop("mx"), 'field "outcomes" has no entry for mx'),
    "move of no seat": (
        lambda r: r["moves"][0].update(seat="PURPLE"),
        'field "moves" entry 0 must be an object with "move" (a string) and "seat"',
    ),
    "game a string": (lambda r: r.update(game="1"), 'field "game" must be'),
    "winner without one survivor": (
        lambda r: r.update(reason="winner", survivors=[]),
        'field "survivors" must be a list of the seats sharing the best result, one seat',
    ),
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_record_field_is_named_by_file_line_and_field(
    damage, tmp_path, three_records, capsys
):
    change, message = DAMAGES[damage]
    records = copy.deepcopy(three_records)
    change(records[1])
    path = tmp_path / "damaged.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["summary", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"chameleon-lab summary: error: {path} line 2: "), err
    assert message in err and err.count("\n") == 1, err


def test_resuming_over_a_damaged_record_names_it(tmp_path, three_records, capsys):
    session = tiny_session(design="fixed", seatings=["mx,pa,_,_", "pa,mx,_,_", "mx,_,pa,_"])
    spec, path = tmp_path / "s.json", tmp_path / "r.jsonl"
    spec.write_text(json.dumps(session.to_dict()))
    records = copy.deepcopy(three_records)
    del records[2]["reason"]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["tournament", str(spec), "--out", str(path), "--workers", "1", "--quiet"]) == 2
    assert f'{path} line 3: the game record has no field "reason"' in capsys.readouterr().err
    assert len(path.read_text().splitlines()) == 3  # nothing played, nothing appended


def test_an_out_that_cannot_be_written_is_refused_before_anything_is_written(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    cases = [
        (blocker / "sub" / "r.jsonl", f"{blocker} is a file, not a folder"),
        (Path("/proc/self/sub/r.jsonl"), "cannot create the folder of records file"),
    ]
    if Path("/sys/kernel").is_dir():  # sysfs: no new files, not even for root
        cases.append((Path("/sys/kernel/r.jsonl"), "/sys/kernel is not writable"))
    if os.geteuid() != 0:  # root writes into folders without write permission
        read_only = tmp_path / "read-only"
        read_only.mkdir(mode=0o555)
        cases.append((read_only / "r.jsonl", f"{read_only} is not writable"))
    for out, message in cases:
        args = ["tournament", "--name", "ro", *TINY_AGENTS, "--depth", "1", "--quiet"]
        assert main([*args, "--out", str(out)]) == 2, out
        err = capsys.readouterr().err
        assert err.startswith("chameleon-lab tournament: error: cannot ") and message in err, err
        assert str(out) in err and err.count("\n") == 1
        assert not out.exists() and not out.with_name("r.jsonl.lock").exists()
    assert blocker.read_text() == ""


def test_an_unreachable_scheduler_is_refused_quickly_and_leaves_no_file(tmp_path, capsys):
    with socket.socket() as sock:  # a free port on 127.0.0.1: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    out = tmp_path / "records" / "r.jsonl"
    args = ["tournament", "--name", "far", *TINY_AGENTS, "--depth", "1", "--quiet"]
    t0 = time.monotonic()
    code = main([*args, "--scheduler", f"tcp://127.0.0.1:{port}", "--out", str(out)])
    seconds = time.monotonic() - t0
    assert code == 2
    err = capsys.readouterr().err
    assert f"cannot reach the Dask scheduler at 'tcp://127.0.0.1:{port}' within 3 s" in err
    assert "leave --scheduler out" in err and err.count("\n") == 1
    assert seconds < 15, f"took {seconds:.1f} s"
    assert not (tmp_path / "records").exists()  # no records file, lock or folder left


def test_a_node_budget_must_fit_a_64_bit_integer(capsys):
    from chameleon_lab.cli import build_parser

    args = ["tournament", *TINY_AGENTS, "--quiet"]
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "--nodes", "1e23"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert (
        "argument --nodes: expected a whole number from 1 to 9223372036854775807 "
        "(the node budget must fit a 64-bit integer), got '1e23'"
    ) in err
    assert "Traceback" not in err
    assert build_parser().parse_args([*args, "--nodes", "1e3"]).nodes == 1000
    assert build_parser().parse_args([*args, "--nodes", str(2**63 - 1)]).nodes == 2**63 - 1
    with pytest.raises(SystemExit):
        build_parser().parse_args([*args, "--nodes", str(2**63)])
    # a session file or Python: the same range
    with pytest.raises(ValueError, match=r"nodes must be a whole number from 1 to 922.*got 10{23}"):
        Session("n", {"a": {}, "b": {}}, budget={"nodes": 10**23})
    with pytest.raises(ValueError, match=r"agent 'a': nodes must be a whole number from 1 to"):
        Session("n", {"a": {"nodes": 2**63}, "b": {}}, budget={"depth": 1})


def test_booleans_are_real_booleans_not_strings(tmp_path, capsys):
    base = {"name": "b", "agents": {"a": {}, "b": {}}, "budget": {"depth": 1}}
    every = {**base, "design": "every", "players": 2}
    spec = tmp_path / "s.json"
    spec.write_text(json.dumps({**every, "red_occupied": "false"}))
    assert main(["tournament", str(spec)]) == 2
    assert (
        f"session file {spec}: red_occupied must be true or false (a boolean), got 'false' "
        "(a string); write true or false without quotes"
    ) in capsys.readouterr().err
    toml = tmp_path / "s.toml"
    toml.write_text(
        'name = "t"\ndesign = "every"\nplayers = 2\nred_occupied = "true"\n'
        "[agents.a]\n[agents.b]\n[budget]\ndepth = 1\n"
    )
    with pytest.raises(ValueError, match=r"s\.toml: red_occupied must be true or false"):
        load_session(toml)
    spec.write_text(json.dumps({**every, "red_occupied": True}))
    fewer = load_session(spec)  # a real boolean works, and it is not the default
    assert fewer.red_occupied is True
    assert len(fewer) < len(Session(**{**every, "red_occupied": False}))
    # agent parameters: a known boolean (normalize) must be a boolean or None
    agents = {"a": {"algorithm": "maxn", "normalize": "false"}, "b": {}}
    with pytest.raises(ValueError, match=r"agent 'a': normalize must be true, false or null"):
        Session(**{**base, "agents": agents})
    args = ["tournament", "--agent", "pa:algorithm=paranoid", "--depth", "1", "--quiet"]
    assert main([*args, "--agent", "mx:algorithm=maxn,normalize=False"]) == 2
    assert "agent 'mx': normalize must be true, false or null/None (a boolean), got 'False' " in (
        capsys.readouterr().err
    )
    ok = Session(**{**base, "agents": {"a": {"algorithm": "maxn", "normalize": False}, "b": {}}})
    assert ok.resolved_agents()["a"]["normalize"] is False


def test_sigterm_stops_cleanly_and_the_run_resumes_without_loss_or_duplicates(tmp_path):
    """SIGTERM to the whole process group, as ``kill`` or a batch system sends it."""
    cmd, out, _, proc = _start_and_signal(tmp_path, "terminated", 2, signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 143, stderr
    assert "interrupted by SIGTERM" in stdout and "run the same command again" in stdout
    assert "Traceback" not in stderr
    with warnings.catch_warnings():
        warnings.simplefilter("error", TornLineWarning)  # records flushed: no torn line
        kept = read_records(out)
    assert 2 <= len(kept) < 38
    assert len({r["game"] for r in kept}) == len(kept)
    assert not out.with_name("r.jsonl.lock").exists()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"{len(kept)} were already finished" in done.stdout
    games = [r["game"] for r in read_records(out)]
    assert sorted(games) == list(range(38))  # none lost, none duplicated


def test_a_million_repetitions_are_not_built_up_front():
    session = tiny_session(repetitions=10**6)
    tracemalloc.start()
    try:
        t0 = time.perf_counter()
        tasks = session.tasks()
        total, first, last = len(session), tasks[0], tasks[-1]
        seconds = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert total == len(tasks) == 38 * 10**6
    assert (first.game, first.repetition, last.game, last.repetition) == (
        0,
        0,
        38 * 10**6 - 1,
        10**6 - 1,
    )
    assert last.seating == tasks[37].seating and first.seating == tasks[38].seating
    expected = np.random.SeedSequence([0, 10**6 - 1, 37]).generate_state(1, dtype=np.uint32)[0]
    assert last.seed == int(expected)
    assert peak < 1_000_000, f"peak {peak} bytes"  # a list of the tasks: gigabytes
    assert seconds < 5
    # lazily built, the tasks are those of a small session: numbered and seeded alike
    small = tiny_session(repetitions=2).tasks()
    assert [(t.game, t.repetition, t.seating, t.seed) for t in small] == [
        (t.game, t.repetition, t.seating, t.seed) for t in tasks[:76]
    ]
    assert list(small)[-1] == small[-1] and small[75] == small[-1]
    with pytest.raises(IndexError, match="game 76 of a session of 76 games"):
        small[76]


def _signal_state(task):
    """A stand-in for a game: how the worker that runs it treats SIGINT and SIGTERM."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    return True, {
        "sigint": signal.getsignal(signal.SIGINT),
        "sigterm": signal.getsignal(signal.SIGTERM),
        "blocked": {signal.SIGINT, signal.SIGTERM} & set(blocked),
        "pid": os.getpid(),
    }


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_pool_workers_start_with_the_signals_blocked_and_play_with_their_own(monkeypatch):
    # The pool forks with SIGINT and SIGTERM blocked, so no worker can run the parent's
    # handlers before it has its own; it plays with SIGINT ignored and SIGTERM at its
    # default, both unblocked, and the parent's mask is as it was.
    from chameleon_lab.tournament import runner

    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    monkeypatch.setattr(runner, "_play_safely", _signal_state)
    states = [value for _, value in runner._pool(range(6), 2, [])]
    assert len(states) == 6 and os.getpid() not in {s["pid"] for s in states}
    for state in states:
        assert state["sigint"] == signal.SIG_IGN
        assert state["sigterm"] == signal.SIG_DFL
        assert state["blocked"] == set()
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before


def test_an_interrupt_inside_compiled_code_stops_the_run_and_a_failure_does_not(
    tmp_path, monkeypatch
):
    """Ctrl-C that lands in compiled code comes back as numba's ``SystemError`` chained
    to the interrupt (seen on a research run): the run stops as interrupted, keeping
    the games it finished, not as a failed game; an error of its own fails the game."""
    import chameleon_lab.tournament.runner as runner

    real = runner.play_game
    calls = []

    def play(task, error):
        calls.append(task.game)
        if len(calls) == 3:
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt as interrupt:
                raise error from interrupt
        return real(task)

    monkeypatch.setattr(runner, "play_game", lambda task: play(task, SystemError("now_ns")))
    out = tmp_path / "r.jsonl"
    report = run_session(tiny_session(), out, workers=1, progress=False)
    assert report.interrupted and report.played == 2
    assert len(read_records(out)) == 2

    def broken(task):
        raise ValueError("a bug of the game")

    monkeypatch.setattr(runner, "play_game", broken)
    with pytest.raises(runner.GameFailed, match="a bug of the game"):
        run_session(tiny_session(), tmp_path / "s.jsonl", workers=1, progress=False)


def _interrupted_run(session, *args, **kwargs):
    from chameleon_lab.tournament.runner import RunReport

    return RunReport(None, 576, 0, 143, 1.0, interrupted=True, signal="SIGTERM")


def _studies(folder):
    """A small study of each kind that plays sessions one after another."""
    from chameleon_lab.analysis.beyond import ladder_study
    from chameleon_lab.analysis.studies import budget_study
    from chameleon_lab.thesis.studies import thesis_study

    return {
        "ladder": lambda: ladder_study(
            players=[3], budgets_ms=[10], blocks=1, records_dir=folder, progress=False
        ),
        "budgets": lambda: budget_study(
            ["maxn", "paranoid"], [10], records_dir=folder, progress=False
        ),
        "thesis sessions": lambda: thesis_study(
            "improved", ["1-all-d1"], records_dir=folder, progress=False
        ),
    }


@pytest.mark.parametrize("study", ["ladder", "budgets", "thesis sessions"])
def test_a_study_stops_at_an_interrupted_session_instead_of_going_on(study, tmp_path, monkeypatch):
    """An interrupt (Ctrl-C, SIGTERM) ends run_session cleanly with a report; a study
    that went on would compute its tables from part of a session's games and play its
    next session (a SIGTERM once left a ladder at 143 of 576 games and the notebook went
    on to the next budget). Every study raises instead, naming the session."""
    from chameleon_lab.analysis import beyond, studies
    from chameleon_lab.thesis import studies as thesis_studies

    for module in (beyond, studies, thesis_studies):
        monkeypatch.setattr(module, "run_session", _interrupted_run)
    with pytest.raises(KeyboardInterrupt, match="interrupted by SIGTERM: played 143 game"):
        _studies(tmp_path)[study]()
