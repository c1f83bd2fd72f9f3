"""A session run again with more or fewer repetitions: its games are the same games, so
more repetitions play only the new ones and fewer read the first of those played."""

from __future__ import annotations

import dataclasses
import json

from hypothesis import given, settings
from hypothesis import strategies as st
from test_openings import gomoku_session, moves

from chameleon_lab.cli import main
from chameleon_lab.tournament import run_session, session_records
from chameleon_lab.tournament.runner import finished_games

#: Two seatings a repetition (round robin of two agents).
SEATINGS = 2


def by_game(records: list[dict]) -> list[dict]:
    return sorted(records, key=lambda r: r["game"])


def test_the_fingerprint_leaves_the_repetitions_out_and_nothing_else():
    one, three = gomoku_session(repetitions=1), gomoku_session(repetitions=3)
    assert one.fingerprint == three.fingerprint
    assert gomoku_session(seed=1).fingerprint != one.fingerprint
    assert gomoku_session(opening_plies=1).fingerprint != one.fingerprint
    assert one.legacy_fingerprint != three.legacy_fingerprint


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**32 - 1), st.sampled_from([0, 3]))
def test_a_longer_session_begins_with_the_games_of_a_shorter_one(a, b, seed, plies):
    # what makes growing sound: game g is the same task, seeds and opening included,
    # whatever the number of repetitions; only the session's own parameters differ
    short, long = sorted((a, b))
    s1 = gomoku_session(repetitions=short, seed=seed, opening_plies=plies).tasks()
    s2 = gomoku_session(repetitions=long, seed=seed, opening_plies=plies).tasks()
    assert len(s1) == short * SEATINGS and len(s2) == long * SEATINGS
    for t1, t2 in zip(s1, s2, strict=False):
        assert dataclasses.replace(t1, session=None) == dataclasses.replace(t2, session=None)


def test_more_repetitions_play_only_the_new_games_and_they_equal_a_fresh_run(tmp_path):
    grown = gomoku_session(repetitions=1, opening_plies=2)
    out = grown.records_file(tmp_path / "grown")
    first = run_session(grown, out, workers=1, progress=False)
    assert (first.skipped, first.played) == (0, SEATINGS)
    longer = gomoku_session(repetitions=3, opening_plies=2)
    assert longer.records_file(tmp_path / "grown") == out  # the same file
    second = run_session(longer, out, workers=1, progress=False)
    assert (second.skipped, second.played) == (SEATINGS, 2 * SEATINGS)
    records = by_game(session_records(out, longer))
    assert [r["game"] for r in records] == list(range(3 * SEATINGS))  # each game once
    # the truth: the same session of three repetitions played in one run
    fresh_out = tmp_path / "fresh" / "f.jsonl"
    run_session(longer, fresh_out, workers=1, progress=False)
    fresh = by_game(session_records(fresh_out, longer))
    assert [(r["opening"], moves(r)) for r in records] == [(r["opening"], moves(r)) for r in fresh]
    # the games differ (else the check above would be weak): one opening a game
    assert len({tuple(r["opening"]) for r in fresh}) == 3 * SEATINGS


def test_fewer_repetitions_read_the_first_games_and_play_none(tmp_path):
    longer = gomoku_session(repetitions=3)
    out = longer.records_file(tmp_path)
    run_session(longer, out, workers=1, progress=False)
    shorter = gomoku_session(repetitions=1)
    report = run_session(shorter, out, workers=1, progress=False)
    assert (report.skipped, report.played) == (SEATINGS, 0)
    assert sorted(r["game"] for r in session_records(out, shorter)) == [0, 1]
    assert len(out.read_text().splitlines()) == 3 * SEATINGS  # nothing appended


def test_records_written_under_the_old_fingerprint_resume(tmp_path):
    # fingerprints as the code before this change made them (with the repetitions),
    # taken from that code's output for these two sessions
    # (then every seating of a repetition shared its opening: per_repetition now)
    shared = {"opening_plies": 2, "openings": "per_repetition"}
    old = {"f50a8822e52020d6": {}, "3f4fa03b54a10cb4": {"repetitions": 3, **shared}}
    for legacy_id, kw in old.items():
        session = gomoku_session(**kw)
        assert session.legacy_fingerprint == legacy_id
    session = gomoku_session(repetitions=3, **shared)
    folder = tmp_path / "records"
    new_name = session.records_file(folder)
    run_session(session, new_name, workers=1, progress=False)
    # a file as the old code left it: its old name, the old session id in every record
    legacy_file = folder / f"{session.name}-3f4fa03b54a10cb4.jsonl"
    lines = [json.loads(line) for line in new_name.read_text().splitlines()]
    for r in lines:
        r["session_id"] = "3f4fa03b54a10cb4"
    legacy_file.write_text("".join(json.dumps(r) + "\n" for r in lines))
    new_name.unlink()
    assert session.records_file(folder) == legacy_file  # found under its old name
    assert finished_games(legacy_file, session) == set(range(3 * SEATINGS))
    report = run_session(session, legacy_file, workers=1, progress=False)
    assert report.played == 0
    records = session_records(legacy_file, session)
    assert {r["session_id"] for r in records} == {session.fingerprint}  # one session
    assert len(records) == 3 * SEATINGS


def test_the_cli_grows_a_session_in_its_records_file(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    argv = ["tournament", "--game", "tictactoe", "--agent", "a:algorithm=alphabeta,depth=1",
            "--agent", "b:algorithm=alphabeta,depth=2", "--opening-plies", "2",
            "--out", str(out), "--workers", "1", "--quiet"]  # fmt: skip
    assert main([*argv, "--repetitions", "1"]) == 0
    first = capsys.readouterr().out
    assert main([*argv, "--repetitions", "3"]) == 0
    second = capsys.readouterr().out
    fingerprint = first.split("(")[1].split(")")[0]
    assert f"({fingerprint}): 6 games" in second  # the same session, grown
    assert "played 4 game(s)" in second and "2 were already finished" in second
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["game"] for r in records) == list(range(6))  # each game once
