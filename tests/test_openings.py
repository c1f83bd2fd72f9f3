"""Random openings of a session: why they are needed, what they are, bad values."""

from __future__ import annotations

import json

import pytest

from chameleon_lab.analysis.twoplayer import round_robin
from chameleon_lab.cli import main
from chameleon_lab.games import get_game
from chameleon_lab.tournament import Session, run_session, session_records
from chameleon_lab.tournament.play import opening

#: Two deterministic agents: fixed depth, no random moves.
AGENTS = {
    "ab1": {"algorithm": "alphabeta", "depth": 1},
    "ab2": {"algorithm": "alphabeta", "depth": 2, "ordering": True},
}


def gomoku_session(**kw) -> Session:
    return Session(
        "openings",
        AGENTS,
        game="gomoku",
        game_params={"width": 5, "height": 5, "k": 4},
        design="fixed",
        seatings=round_robin(list(AGENTS)),
        move_limit=None,
        **kw,
    )


def played(session: Session, tmp_path) -> list[dict]:
    out = session.records_file(tmp_path)
    run_session(session, out, workers=1, progress=False)
    return sorted(session_records(out, session), key=lambda r: r["game"])


def moves(record: dict) -> list[str]:
    return [m["move"] for m in record["moves"]]


def test_without_openings_deterministic_agents_repeat_their_games(tmp_path):
    # the reason for openings: repetitions add copies, not observations
    records = played(gomoku_session(repetitions=2), tmp_path)
    first, second = records[:2], records[2:]
    assert [moves(r) for r in first] == [moves(r) for r in second]
    assert all("opening" not in r for r in records)


def test_by_default_every_game_of_the_fixed_design_has_its_own_opening(tmp_path):
    records = played(gomoku_session(repetitions=3, opening_plies=3), tmp_path)
    assert len(records) == 6 and len({tuple(r["opening"]) for r in records}) == 6
    data = gomoku_session(repetitions=3, opening_plies=3).to_dict()
    assert data["openings"] == "per_game"  # in the fingerprint: not the older sessions'
    with pytest.raises(ValueError, match="unknown openings 'paired'; valid: per_game, per_rep"):
        gomoku_session(opening_plies=3, openings="paired")


def test_each_repetition_starts_from_its_own_opening_played_from_both_sides(tmp_path):
    plies = 3
    session = gomoku_session(repetitions=3, opening_plies=plies, openings="per_repetition")
    # asked for: the fingerprint sessions of shared openings always had
    assert "openings" not in session.to_dict()
    records = played(session, tmp_path)
    game = get_game("gomoku", width=5, height=5, k=4)
    openings = []
    for rep in range(3):
        pair = [r for r in records if r["repetition"] == rep]
        assert [r["seating"] for r in pair] == [["ab1", "ab2"], ["ab2", "ab1"]]
        assert pair[0]["opening"] == pair[1]["opening"]  # the same opening, both sides
        line = pair[0]["opening"]
        assert len(line) == plies
        # the recorded start is the game's start with the opening played, by the rules
        position = game.start()
        for move in line:
            assert move in [str(m) for m in position.legal_moves]
            position = position.play(move)
        assert all(r["start"] == position.to_json() for r in pair)
        assert not position.is_over
        openings.append(tuple(line))
    assert len(set(openings)) == 3  # 25 * 24 * 23 openings: three draws differ
    # and the games of different repetitions differ
    assert len({tuple(moves(r)) for r in records if r["seating"] == ["ab1", "ab2"]}) == 3
    # the same seed gives the same openings
    again = played(
        gomoku_session(repetitions=3, opening_plies=plies, seed=0, openings="per_repetition"),
        tmp_path / "b",
    )
    assert [r["opening"] for r in again] == [r["opening"] for r in records]


def test_openings_that_end_the_game_are_drawn_again():
    start = get_game("tictactoe").start()
    # 5 plies end some TicTacToe games (three in a row by X); none of those is returned
    for seed in range(200):
        position = start
        moves, reached = opening(start, 5, seed)
        for move in moves:
            position = position.play(move)
        assert not position.is_over
        assert reached.to_json() == position.to_json()  # the position it hands back
    with pytest.raises(ValueError, match="every random opening of 1 plies tried ended the game"):
        opening(get_game("nim", heaps=[1]).start(), 1, 0)


def test_sessions_without_openings_keep_their_fingerprints():
    # records of sessions made before opening_plies existed must still resume: the
    # field is left out of the parameters (and so of the fingerprint) when it is 0
    session = gomoku_session()
    data = session.to_dict()
    assert "opening_plies" not in data
    assert Session.from_dict(data).fingerprint == session.fingerprint
    with_opening = gomoku_session(opening_plies=2)
    assert with_opening.to_dict()["opening_plies"] == 2
    assert with_opening.fingerprint != session.fingerprint


@pytest.mark.parametrize("bad", [-1, 65, 1.5, True, "2"])
def test_bad_opening_plies_are_refused(bad):
    with pytest.raises(ValueError, match=r"opening_plies must be a whole number 0\.\.64"):
        gomoku_session(opening_plies=bad)


def test_the_cli_plays_openings_and_refuses_options_beside_a_session_file(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    argv = ["tournament", "--game", "tictactoe", "--agent", "a:algorithm=alphabeta,depth=1",
            "--agent", "b:algorithm=alphabeta,depth=2", "--repetitions", "2",
            "--opening-plies", "2", "--out", str(out), "--workers", "1", "--quiet"]  # fmt: skip
    assert main(argv) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 4 and all(len(r["opening"]) == 2 for r in records)
    spec = tmp_path / "s.json"
    spec.write_text(json.dumps(gomoku_session().to_dict()))
    capsys.readouterr()
    assert main(["tournament", str(spec), "--repetitions", "3", "--seed", "0"]) == 2
    err = capsys.readouterr().err
    assert "--repetitions, --seed: a session file holds the whole session" in err
    assert "Traceback" not in err
