"""Every layer takes a game: agents, sessions, records, the CLI and the widgets play the
games of the library as they play Chameleon Chess."""

from __future__ import annotations

import json

import numpy as np
import pytest
from numba import njit

from chameleon_lab.agents import Agent
from chameleon_lab.cli import main
from chameleon_lab.games import get_game
from chameleon_lab.games.match import Match
from chameleon_lab.games.mnk import kernel as mnk
from chameleon_lab.tournament import Session, read_records, run_session, tables, without_times
from chameleon_lab.tournament.play import record_positions


def _session(**kw) -> Session:
    agents = kw.pop("agents", {"mx": {"algorithm": "maxn"}, "pa": {"algorithm": "paranoid"}})
    kw.setdefault("design", "every")
    return Session("games", agents, budget={"depth": 2}, **kw)


@pytest.mark.parametrize(
    ("game", "params"),
    [("tictactoe", {}), ("nim", {"heaps": [2, 3]}), ("dice", {"target": 12, "start": 2})],
)
def test_sessions_of_other_games_record_games_that_replay(game, params, tmp_path):
    session = _session(game=game, game_params=params, repetitions=2)
    out = tmp_path / "r.jsonl"
    report = run_session(session, out, workers=1, progress=False)
    assert report.played == 4  # (mx, pa) and (pa, mx), twice
    spec = get_game(game, **params)
    for r in read_records(out):
        assert (r["game_name"], r["seats"]) == (game, list(spec.info.player_names))
        positions = record_positions(r)
        final = positions[-1]
        assert final.is_over and final == spec.from_json(r["final"])
        returns = final.returns
        for seat, name in enumerate(r["seating"]):
            expected = {1.0: "win", 0.0: "draw", -1.0: "loss"}[returns[seat]]
            assert r["seat_results"][seat] == expected
            assert r["outcomes"][name] == expected
        for m, pos in zip(r["moves"], positions, strict=False):
            assert m["seat"] == spec.info.player_name(pos.to_move)
            assert m["legal"] == len(pos.legal_moves)
    t = tables(read_records(out))
    assert list(t.seats["seat"].cat.categories) == list(spec.info.player_names)
    assert set(t.games["game_name"]) == {game}
    # the same seed gives the same records
    again = run_session(session, workers=1, progress=False).records
    assert sorted(map(json.dumps, map(without_times, again))) == sorted(
        map(json.dumps, map(without_times, read_records(out)))
    )


def test_sessions_check_the_game_and_its_seatings():
    with pytest.raises(ValueError, match="valid games"):
        _session(game="chess")
    with pytest.raises(ValueError, match="k larger than the board"):
        _session(game="gomoku", game_params={"k": 8})
    with pytest.raises(ValueError, match="original Chameleon program's"):
        Session("s", {"a": {}, "b": {}}, game="tictactoe", budget={"depth": 1})
    with pytest.raises(ValueError, match="needs all of its 2 players"):
        _session(game="tictactoe", design="fixed", seatings=["mx,_"])
    with pytest.raises(ValueError, match="takes no players in a session's game_params"):
        _session(game="chameleon", game_params={"players": "RG"}, players=2)
    with pytest.raises(ValueError, match="plays 'nim' but the session plays 'tictactoe'"):
        _session(game="tictactoe", agents={"a": {"game": "nim"}, "b": {}})


def test_rolit_sessions_seat_the_colours_their_seatings_occupy(tmp_path):
    """Rolit seats two to four of its four colours, as Chameleon Chess does: each
    seating's occupied seats are the game's ``players`` (recorded with the game), the
    others' start balls stay on the board, and every record replays to its end."""
    # both seats paranoid: one search to compile (MaxN and Paranoid made this the
    # slowest test of a CI run, 293 s)
    agents = {"mx": {"algorithm": "paranoid"}, "pa": {"algorithm": "paranoid"}}
    session = _session(game="rolit", players=2, repetitions=1, agents=agents)
    out = tmp_path / "rolit.jsonl"
    assert run_session(session, out, workers=1, progress=False).played == 12  # 4 * 3 seats
    letters = "RYGB"
    for r in read_records(out):
        occupied = [i for i, agent in enumerate(r["seating"]) if agent is not None]
        assert r["game_params"] == {"players": "".join(letters[i] for i in occupied)}
        positions = record_positions(r)
        assert len(positions) == 61 and positions[-1].is_over
        assert {m["seat"] for m in r["moves"]} == {r["seats"][i] for i in occupied}
        for seat in occupied:
            result = {1.0: "win", 0.0: "draw", -1.0: "loss"}[positions[-1].returns[seat]]
            assert r["seat_results"][seat] == result
        assert r["scores"] == list(positions[-1].final_scores())  # the balls, kept
    seats = tables(read_records(out)).seats
    assert seats["score"].notna().all() and seats["score"].between(0, 64).all()


def test_chinese_checkers_sessions_seat_every_player_and_rank_by_steps_left(tmp_path):
    """Three players on the small star: every seating of the three agents plays, each
    record replays to its end (a winner or the move limit), the results are the final
    position's, and the scores kept are the steps each player had left (negated)."""
    agents = {name: {"algorithm": "paranoid"} for name in ("a", "b", "c")}
    params = {"size": 2, "turns": 15}
    session = _session(game="chinesecheckers", game_params=params, players=3,
                       repetitions=1, agents=agents)  # fmt: skip
    out = tmp_path / "cc.jsonl"
    assert run_session(session, out, workers=1, progress=False).played == 6  # 3! seatings
    for r in read_records(out):
        positions = record_positions(r)
        final = positions[-1]
        assert final.is_over and len(positions) <= 46
        for seat in range(3):
            result = {1.0: "win", 0.0: "draw", -1.0: "loss"}[final.returns[seat]]
            assert r["seat_results"][seat] == result
        assert r["scores"] == [-float(k) for k in final.remaining()]


def test_fingerprints_of_chameleon_sessions_do_not_mention_the_game():
    # records made before other games existed keep resuming
    session = Session("s", {"a": {}, "b": {}}, budget={"depth": 1})
    assert "game" not in session.to_dict() and "game" not in session.resolved_agents()["a"]
    assert session.fingerprint == Session("s", {"a": {}, "b": {}}, budget={"depth": 1}).fingerprint


def test_agents_play_the_game_they_are_made_for():
    pos = get_game("tictactoe").start()
    agent = Agent("paranoid", game="tictactoe", depth=9)
    decision = agent.choose(pos)
    assert decision.move in pos.legal_moves and decision.exact
    assert agent.params()["heuristic"] == "lines"
    with pytest.raises(ValueError, match="this agent plays chameleon; the position is tictactoe"):
        Agent("maxn", depth=1).choose(pos)
    with pytest.raises(ValueError, match="unknown heuristic 'pawns' for tictactoe"):
        Agent("maxn", game="tictactoe", heuristic="pawns", depth=1)
    with pytest.raises(ValueError, match="valid games"):
        Agent("maxn", game="go", depth=1)


def test_an_own_heuristic_is_recorded_with_its_fingerprint_and_checked():
    @njit
    def centre_first(state, out):
        out[0] = 1.0 + (state[mnk.CELLS + 4] == 1)  # the centre cell, b2
        out[1] = 1.0 + (state[mnk.CELLS + 4] == 2)
        out[2] = 0.0
        out[3] = 0.0

    agent = Agent("maxn", game="tictactoe", heuristic=centre_first, depth=1)
    params = agent.params()
    assert params["heuristic"] == "centre_first" and len(params["heuristic_code"]) == 12
    assert Agent.from_params(params).params() == params  # registered by name now
    with pytest.raises(ValueError, match="has changed"):
        Agent.from_params({**params, "heuristic_code": "0" * 12})
    out = np.zeros(4)
    get_game("tictactoe").heuristics.get("centre_first").function(
        get_game("tictactoe").start().play("b2").state, out
    )
    assert out[0] == 2.0


def test_cli_tournament_takes_a_game_and_its_parameters(tmp_path, capsys):
    out = tmp_path / "nim.jsonl"
    argv = ["tournament", "--game", "nim", "--param", "heaps=[1,2,2]", "--depth", "2"]
    argv += ["--agent", "a:algorithm=paranoid", "--agent", "b:algorithm=maxn", "--quiet"]
    assert main([*argv, "--out", str(out), "--workers", "1"]) == 0
    records = read_records(out)
    assert len(records) == 2 and records[0]["game_params"] == {"heaps": [1, 2, 2], "misere": False}
    capsys.readouterr()
    assert main(["games"]) == 0
    listing = capsys.readouterr().out
    assert "gomoku: Five-in-a-row" in listing and "--param k=5" in listing


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--game", "gomoku", "--param", "k=9"], "k larger than the board"),
        (["--game", "nim", "--param", "heaps=[-1]"], "heaps"),
        (["--game", "tictactoe", "--design", "original"], "original Chameleon program's"),
        (["--game", "dice", "--param", "start=7"], "start"),
        (["--game", "tictactoe", "--agent", "a:algorithm=maxn"], "given twice"),
    ],
)
def test_cli_refuses_bad_games_with_a_message(argv, message, capsys, tmp_path):
    agents = ["--agent", "a:algorithm=maxn", "--agent", "b:algorithm=paranoid"]
    code = main(["tournament", *agents, *argv, "--depth", "1", "--out", str(tmp_path / "x")])
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_widgets_play_and_show_other_games():
    from chameleon_lab.widgets import GameViewer, PlayAgainst

    game = get_game("tictactoe")
    widget = PlayAgainst(Agent("paranoid", game="tictactoe", depth=9), seat="O")
    assert len(widget.game.moves) == 1  # the agent (X) opened
    before = widget.board.value
    widget.play(widget.moves.options[0])
    assert widget.board.value != before and len(widget.game.moves) == 3
    with pytest.raises(ValueError, match="unknown seat 'RED'; the seats: X, O"):
        PlayAgainst(Agent("paranoid", game="tictactoe", depth=1), seat="RED")
    match = Match(game.start())
    for move in ("a1", "b2", "c3"):
        match.play(move)
    viewer = GameViewer(positions=match.positions)
    assert viewer.moves == ["a1", "b2", "c3"]
    viewer.step(2)
    assert "position 2" in viewer.caption.value and "X to move" in viewer.caption.value


def test_own_heuristics_travel_to_worker_processes_and_dask(tmp_path):
    distributed = pytest.importorskip("distributed")

    @njit
    def corners(state, out):  # a point per own stone in a corner of the 3 x 3 board
        out[0] = out[1] = 1.0
        out[2] = out[3] = 0.0
        for cell in (6, 8, 12, 14):
            if state[cell]:
                out[state[cell] - 1] += 1.0

    agents = {"own": {"algorithm": "paranoid", "heuristic": corners}, "mx": {"algorithm": "maxn"}}
    session = _session(game="tictactoe", agents=agents, repetitions=2)
    assert session.agents["own"]["heuristic"] == "corners"
    assert session.resolved_agents()["own"]["heuristic_code"]
    assert all(t.heuristics == {"corners": corners} for t in session.tasks())
    serial = run_session(session, workers=1, progress=False).records
    pooled = run_session(session, workers=2, progress=False).records
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        dasked = run_session(session, client=client, progress=False).records

    def games(records):
        return sorted(json.dumps(without_times(r), sort_keys=True) for r in records)

    assert games(serial) == games(pooled) == games(dasked)
    # the code's fingerprint is part of the session's: resuming with an edited heuristic
    # of the same name is refused, not mixed with the old games
    out = tmp_path / "r.jsonl"
    run_session(session, out, workers=1, progress=False)
    edited = {**agents, "own": {**agents["own"], "heuristic": _edited_corners()}}
    with pytest.raises(ValueError, match="already holds games of a session named 'games'"):
        run_session(_session(game="tictactoe", agents=edited, repetitions=2), out, workers=1)
    # and a session from a record refuses to run with code other than the record's
    with pytest.raises(ValueError, match="heuristic 'corners' has changed"):
        run_session(session, out, workers=1, progress=False)


def _edited_corners():
    @njit
    def corners(state, out):
        out[0] = out[1] = 2.0
        out[2] = out[3] = 0.0

    return corners


def test_complexity_counts_distinct_games():
    from chameleon_lab.analysis.complexity import distinct_games, run_complexity

    agent = {"algorithm": "paranoid", "depth": 2}
    rows = run_complexity(
        [2], [0.0, 1.0], 4, agent, workers=1, progress=False, game="tictactoe", seed=3
    )
    counts = distinct_games(rows).set_index("p_random")["distinct"]
    assert counts[0.0] == 1  # a deterministic search plays the same game every time
    assert counts[1.0] > 1  # random moves make different games


def test_complexity_plays_every_player_count_a_players_parameter_allows():
    """Chinese Checkers and Focus take their player count as a parameter: notebook 03
    offers every count it accepts and plays each with that many players, whatever the
    given parameters say (Focus's first position has 68 moves with two players, 44 with
    three: perft 1 of tests/focus_truth.py)."""
    from chameleon_lab.analysis.complexity import player_counts, run_complexity

    assert player_counts("focus", players=4) == [2, 3, 4]
    assert player_counts("chinesecheckers") == [2, 3, 4]
    assert player_counts("nim") == [2]
    agent = {"algorithm": "maxnis", "depth": 1}
    rows = run_complexity([2, 3], [1.0], 1, agent, workers=1, progress=False, game="focus",
                          game_params={"players": 4, "turns": 3})  # fmt: skip
    assert list(rows["players"]) == [2, 3] and list(rows["length"]) == [6, 9]
    two, three = rows["b_mean"]  # a few random moves from starts of 68 and 44 moves
    assert two > three + 10


def test_the_agent_ponders_on_your_time_and_answers_as_it_would_have():
    from chameleon_lab.pondering import Ponderer
    from chameleon_lab.widgets import PlayAgainst

    agent = Agent("alphabeta", game="connect4", depth=5, options={"ordering": True})
    widget = PlayAgainst(agent, seat="red", ponder=True)  # you open; it ponders at once
    widget.ponderer.wait()
    assert widget.ponderer.searched == 7  # a reply to each of your seven moves (seed 004)
    you = get_game("connect4").start().play("4")
    fresh = Agent("alphabeta", game="connect4", depth=5, options={"ordering": True}).choose(you)
    widget.play("4")
    assert widget.ponderer.hits == 1
    assert str(widget.decisions[-1].move) == str(fresh.move)
    assert widget.decisions[-1].nodes == fresh.nodes  # the very same search, done earlier
    widget.ponderer.stop()
    with pytest.raises(ValueError, match="pondering needs an agent without random moves"):
        Ponderer(Agent("alphabeta", game="connect4", depth=2, random_move_probability=0.1))


def test_the_searches_beyond_the_thesis_play_sessions_in_workers_alike():
    # Best-Reply Search, BRS+ and MCTS (its own options) seated like any agent, under a
    # node budget, which makes every search reproducible: one process or a pool of two
    agents = {
        "brs": {"algorithm": "brs"},
        "brs+": {"algorithm": "brsplus"},
        "mcts": {"algorithm": "mcts", "options": {"backup": "paranoid", "playout_depth": 6}},
    }
    session = Session(
        "beyond", agents, budget={"nodes": 1000}, design="every", players=3, move_limit=30
    )
    serial = run_session(session, workers=1, progress=False).records
    pooled = run_session(session, workers=2, progress=False).records
    assert len(serial) == len(session.tasks()) == 24  # 3 agents x 3 of 4 colours, every order

    def games(records):
        return sorted(json.dumps(without_times(r), sort_keys=True) for r in records)

    assert games(serial) == games(pooled)
    assert {r["agents"]["mcts"]["options"]["backup"] for r in serial} == {"paranoid"}
