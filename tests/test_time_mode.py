"""The original's time mode: replayed move for move where it stopped, and emulated by a
node counter at the original's speed.

The truths: the moves the original program recorded in its time-mode sessions (each
must come out again when our thesis flavour stops where the recorded fractional depth
says it stopped), and the time mode's stopping rule as ``original-semantics.md`` states
it (the clock, here a node counter, is read only between root successors).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chameleon_lab.agents import Agent
from chameleon_lab.cli import main
from chameleon_lab.games.chameleon import Position, clock
from chameleon_lab.search.api import search
from chameleon_lab.thesis import driver
from chameleon_lab.thesis.legacy import legacy_agent, load_legacy
from chameleon_lab.thesis.replay import replay_time


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(1, 120),
    d=st.integers(1, driver.MAX_TIME_DEPTH - 1),
    data=st.data(),
)
def test_a_reported_depth_names_one_stopping_point(n, d, data):
    """``d + k/n`` as the original computed it (a double) gives back ``(d, k)``."""
    k = data.draw(st.integers(0, n - 1))
    assert driver.stop_point(d + k / n, n) == (d, k)


@pytest.mark.parametrize(
    ("depth", "n", "message"),
    [
        (2.5, 3, r"not d \+ k/3"),
        (0.5, 4, "from 1 to 100"),
        (100.5, 2, "from 1 to 100"),
        ("3", 4, "a number"),
        (3.0, 0, "0 moves"),
    ],
)
def test_a_depth_that_fits_no_stopping_point_is_refused(depth, n, message):
    with pytest.raises(ValueError, match=message):
        driver.stop_point(depth, n)


def test_time_mode_moves_of_the_10ms_sessions_are_the_recorded_ones(legacy_dir):
    """Every move of the three 10 ms sessions (about 4,000, every phase, all four
    algorithms, with and without normalisation) equals the original's."""
    files = sorted(legacy_dir.glob("*-t10.json"))
    assert len(files) == 3
    results = replay_time(files, progress=False)
    for result in results:
        assert result.compared == sum(len(r["moves"]) for r in load_legacy(result.path).records)
        assert result.identical, str(result)
    moves = results[0].moves
    assert set(moves["agent"]) == {"Paranoid", "ParaNorm"}
    assert (moves["nodes"] > 0).all() and moves["depth"].min() >= 1


def test_stopping_elsewhere_changes_moves(legacy_dir, tmp_path):
    """The comparison can fail: one ply less at every move of a 100 ms session leaves
    the recording, and the report names the first differing move with both choices."""
    data = json.loads((legacy_dir / "2-paranoid-t100.json").read_text())
    data["games"] = data["games"][:4]
    for game in data["games"]:
        for stat in game["moveStats"]:
            stat["depth"] = max(1.0, stat["depth"] - 1)
    path = tmp_path / "2-paranoid-t100.json"
    path.write_text(json.dumps(data))
    (result,) = replay_time([path], progress=False)
    assert not result.identical
    first = result.first_difference
    assert first["recorded"] != first["ours"]
    assert f"recorded {first['recorded']}, ours {first['ours']}" in str(result)


def test_a_recorded_depth_that_does_not_fit_its_position_is_named(legacy_dir, tmp_path):
    data = json.loads((legacy_dir / "4-all-t10.json").read_text())
    data["games"] = data["games"][:1]
    data["games"][0]["moveStats"][3]["depth"] = 2.123456
    path = tmp_path / "bad-t10.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"game 0 move 3: depth 2\.123456 is not d \+ k/"):
        replay_time([path], progress=False)


def test_replay_time_refuses_depth_mode_files(legacy_dir):
    with pytest.raises(ValueError, match=r"depth-mode session.*replay plays depth-mode"):
        replay_time([legacy_dir / "4-all-d1.json"], progress=False)


def test_the_cli_replays_time_mode_files(legacy_dir, capsys):
    assert main(["replay", str(legacy_dir / "4-all-t10.json"), "--check", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "4-all-t10.json: 1303 of 1303 moves identical" in out


def test_the_cli_writes_no_records_of_time_mode_files(legacy_dir, tmp_path, capsys):
    out = tmp_path / "replayed.jsonl"
    files = [str(legacy_dir / "4-all-d1.json"), str(legacy_dir / "4-all-t10.json")]
    assert main(["replay", *files, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "4-all-t10.json" in err and "leave them out or drop --out" in err
    assert "4-all-d1.json" not in err and not out.exists()


@pytest.mark.parametrize("algorithm", ["maxn", "maxnis", "paranoid", "hypermax"])
@pytest.mark.parametrize("time_ms", [0.5, 20, 150, 1250])
def test_the_node_clock_stops_at_the_first_root_successor_past_its_budget(
    legacy_dir, algorithm, time_ms
):
    """As the original's clock: the search stops between root successors, at the first
    point where the emulated budget is spent, never before, not later."""
    legacy = load_legacy(legacy_dir / "4-all-t100.json")
    every = [p for game in legacy.positions for p in game]
    phases = [next(p for p in every if len(p.pawns) <= n) for n in (16, 11, 6, 3)]
    for position in phases:
        state = position.state
        budget = clock.original_clock_nodes(state, time_ms, 2.0)
        got = search(position, algorithm, flavour="thesis", time_ms=time_ms, node_rate=2.0)
        assert got.expanded + got.evaluated >= budget or got.depth == driver.MAX_TIME_DEPTH
        d, k = driver.stop_point(got.depth, len(got.moves))
        if (d, k) == (1, 0):
            continue
        before = (d - 1, len(got.moves) - 1) if k == 0 else (d, k - 1)
        algo = driver.root_algorithm(algorithm, state)
        short = driver.run_to(algo, state, before[0] + before[1] / len(got.moves))
        assert short.expanded + short.evaluated < budget


def test_the_original_clock_runs_faster_with_fewer_pawns(legacy_dir):
    """The original's cost of a position grew with the pawns on the board (pawns + 1):
    at the start its rate is the node rate itself, with 2 pawns 17/3 times as much."""
    start = Position.start()
    assert clock.pawns_on_board(start.state) == 16
    assert clock.original_clock_nodes(start.state, 10, 95) == pytest.approx(950)
    legacy = load_legacy(legacy_dir / "4-all-t10.json")
    few = next(p for game in legacy.positions for p in game if len(p.pawns) == 2)
    assert clock.pawns_on_board(few.state) == 2
    assert clock.original_clock_nodes(few.state, 10, 95) == pytest.approx(950 * 17 / 3)
    # read back: the nodes searched in 10 ms there are 10 ms on the original's clock
    assert clock.original_clock_ms(950 * 17 / 3, 2, 95) == pytest.approx(10)
    assert clock.original_clock_ms(950, 16, 95) == pytest.approx(10)
    ms = clock.original_clock_ms([950, 1900, 950 * 17 / 3], [16, 16, 2], [95, 95, 95])
    np.testing.assert_allclose(ms, [10, 20, 10])


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"flavour": "thesis", "time_ms": 10, "node_rate": 0}, "positive number"),
        ({"flavour": "thesis", "time_ms": 10, "node_rate": -3.5}, "positive number"),
        ({"flavour": "thesis", "time_ms": 10, "node_rate": float("nan")}, "positive number"),
        ({"flavour": "thesis", "time_ms": 10, "node_rate": True}, "positive number"),
        ({"flavour": "thesis", "depth": 2, "node_rate": 90}, "give time_ms too"),
        ({"flavour": "improved", "time_ms": 10, "nodes": 5, "node_rate": 90}, "not both"),
    ],
)
def test_a_bad_node_rate_is_refused_naming_it(params, message):
    with pytest.raises(ValueError, match=message):
        Agent("maxn", **params)
    with pytest.raises(ValueError, match=message):
        search(Position.start(), "maxn", **params)


def test_an_emulated_agent_is_the_same_on_every_run_and_round_trips():
    agent = Agent("paranoid", flavour="thesis", time_ms=10, node_rate=95)
    params = agent.params()
    assert params["node_rate"] == 95.0 and isinstance(params["node_rate"], float)
    assert "node_rate" not in Agent("paranoid", flavour="thesis", time_ms=10).params()
    assert "@95n/ms" in agent.label
    first = agent.choose(Position.start())
    again = Agent.from_params(params).choose(Position.start())
    assert (first.move, first.depth, first.nodes) == (again.move, again.depth, again.nodes)
    assert first.nodes >= 950


def test_the_improved_flavour_on_the_emulated_clock_searches_the_positions_share(legacy_dir):
    """On the original's clock the improved flavour's time budget becomes the nodes the
    original searched there in that time: the same search as that node budget, with
    more nodes once pawns have left the board, and no wall clock in it."""
    legacy = load_legacy(legacy_dir / "4-all-t10.json")
    every = [p for game in legacy.positions for p in game]
    for position in (every[0], next(p for p in every if len(p.pawns) <= 4)):
        pawns = len(position.pawns)
        budget = math.ceil(10 * 45.0 * 17 / (pawns + 1))  # the original's cost: pawns + 1
        got = search(position, "hypermax", time_ms=10, node_rate=45.0)
        plain = search(position, "hypermax", nodes=budget)
        assert (got.index, got.depth, got.scores.tolist()) == (
            plain.index,
            plain.depth,
            plain.scores.tolist(),
        )
        assert got.expanded + got.evaluated == plain.expanded + plain.evaluated >= budget


def test_the_emulated_clock_is_the_original_games_only():
    from chameleon_lab.games import get_game

    with pytest.raises(ValueError, match="Chameleon Chess only"):
        search(get_game("connect4").start(), "maxn", time_ms=10, node_rate=45.0)


def test_improved_sessions_on_the_original_clock_give_the_mended_hypermax_the_plain_rate():
    from chameleon_lab.thesis.calibration import original_node_rate
    from chameleon_lab.thesis.sessions import thesis_session

    plain = thesis_session("4-all-t1000", "improved", clock="original")
    mended = thesis_session("4-all-t1000", "improved", clock="original", mended=True)
    for name, params in plain.agents.items():
        rate = original_node_rate(params["algorithm"], params["normalize"])
        assert params["node_rate"] == rate and params["flavour"] == "improved"
        assert mended.agents[name]["node_rate"] == rate
    assert mended.agents["Hypermax"]["options"] == {"mended": True}
    machine = thesis_session("4-all-t1000", "improved")
    assert len({plain.fingerprint, mended.fingerprint, machine.fingerprint}) == 3


def test_repeated_sessions_on_a_deterministic_clock_need_their_own_openings():
    """On the original's clock a game is fixed by its seating: repetitions from the
    start position would be copies (seen: 8 repetitions of 4-all-t1000 held 17
    distinct games in 192). They are refused; with openings each repetition starts
    from its own, the plain and the mended Hypermax from the same ones."""
    from chameleon_lab.thesis.sessions import thesis_session

    for name, on in (("4-all-t1000", "original"), ("4-all-d2", "machine")):
        with pytest.raises(ValueError, match="opening_plies >= 1"):
            thesis_session(name, "improved", clock=on, repetitions=2)
    thesis_session("4-all-t1000", "improved", repetitions=2)  # this machine's clock varies
    plain, mended = (
        thesis_session("4-all-t1000", "improved", clock="original", mended=flag,
                       repetitions=3, opening_plies=8)
        for flag in (False, True)
    )  # fmt: skip
    tasks, twins = plain.tasks(), mended.tasks()
    assert len(tasks) == 3 * 24 and all(t.opening_plies == 8 for t in tasks)
    seeds = {(t.repetition, t.opening_seed) for t in tasks}
    assert len({r for r, _ in seeds}) == len({s for _, s in seeds}) == 3  # one a repetition
    assert [t.opening_seed for t in tasks] == [t.opening_seed for t in twins]


def test_the_exact_test_is_fishers():
    """Fisher's tea-tasting table (3 of 4 against 1 of 4): two-sided p = 34/70."""
    from chameleon_lab.thesis.compare import exact_p

    assert exact_p(3, 4, 1, 4) == pytest.approx(34 / 70)
    assert exact_p(10, 20, 10, 20) == pytest.approx(1.0)
    assert exact_p(20, 20, 0, 20) < 1e-9


def test_the_verdicts_name_every_inconsistent_cell():
    import pandas as pd

    from chameleon_lab.thesis.compare import beside_thesis, beside_today, consistency, verdict

    thesis = pd.DataFrame(
        {
            "table": "6.8",
            "scope": "session",
            "session": ["4-all-t10", "4-all-t10"],
            "algorithm": ["MaxN", "Paranoid"],
            "games": [24, 24],
            "wins": [6, 9],
            "draws": [0, 0],
            "losses": [18, 15],
            "depth_avg": [2.0, 2.0],
        }
    )
    ours = pd.DataFrame(
        {
            "session": ["4-all-t10", "4-all-t10"],
            "agent": ["MaxN", "Paranoid"],
            "games": [24, 24],
            "wins": [5, 22],
            "draws": [0, 0],
            "losses": [19, 2],
            "depth_avg": [2.0, 2.0],
        }
    )
    side = beside_thesis(ours, thesis, "6.8")
    assert side["consistent"].tolist() == [True, False]
    text = verdict(side)
    assert "consistent with ours in 1 of 2" in text and "Paranoid in 4-all-t10 (9/24" in text
    assert "MaxN in" not in text.split("not for")[1]
    assert consistency([side]).startswith("1 of 2 cells (50%) are consistent")
    # 5/24 against 6/24 and 22/24 against 9/24: too few games for equivalence within
    # 15 points, and a difference of 54 points
    assert side["equivalence"].tolist() == ["undecided", "differs"]
    assert text.endswith("0 equivalent, 1 differs, 1 undecided.")
    many = beside_thesis(ours.assign(games=[2400, 24], wins=[600, 22], losses=[1800, 2]),
                         thesis.assign(games=[2400, 24], wins=[610, 9], losses=[1790, 15]),
                         "6.8")  # fmt: skip
    assert many["equivalence"].tolist() == ["equivalent", "differs"]
    # the same counts where only 24 of the session's 2400 games differ from each other
    # (copies of deterministic games): the tests count 24 games a side, and 6/24 against
    # 6/24 cannot show equivalence within 15 points
    copies = pd.DataFrame({"session": ["4-all-t10"], "games": [2400], "distinct_games": [24]})
    few = beside_thesis(ours.assign(games=[2400, 24], wins=[600, 22], losses=[1800, 2]),
                        thesis.assign(games=[2400, 24], wins=[610, 9], losses=[1790, 15]),
                        "6.8", distinct=copies)  # fmt: skip
    assert few["effective_games"].tolist() == [24, 1]
    assert few["equivalence"].tolist() == ["undecided", "undecided"]
    assert few.loc[0, "ci_high"] - few.loc[0, "ci_low"] > 0.3  # Wilson on 6 of 24
    today = ours.assign(wins=[1, 2])
    both = beside_today(side, today, "improved")
    assert both["improved_wins"].tolist() == [1, 2]
    assert both["improved_win_rate"].tolist() == pytest.approx([1 / 24, 2 / 24])


def test_the_node_rates_are_measured_from_every_time_mode_move(legacy_dir):
    """The shipped rates cover every time-mode move of the records (counted here from
    the files), and the 10 and 100 ms sessions alone measure rates within 15 % of them:
    one speed per algorithm across budgets, as the model says."""
    import pandas as pd

    from chameleon_lab.thesis.calibration import measure_node_rates, original_node_rates

    shipped = original_node_rates().set_index(["algorithm", "normalize"])
    counts: dict[tuple[str, bool], int] = {}
    for path in sorted(legacy_dir.glob("*-t*.json")):  # the files as they are
        data = json.loads(path.read_text())
        for game in data["games"]:
            for state, stat in zip(game["gameStates"], game["moveStats"], strict=False):
                if stat["time"] > 0:
                    name = game["players"][str(state["player"])]
                    params = legacy_agent(name, data["algorithms"], "time", data["modeValue"])
                    key = (params["algorithm"], params["normalize"])
                    counts[key] = counts.get(key, 0) + 1
    assert shipped["moves"].to_dict() == counts
    short = sorted(legacy_dir.glob("*-t10.json")) + sorted(legacy_dir.glob("*-t100.json"))
    moves = pd.concat(r.moves for r in replay_time(short, progress=False))
    measured = measure_node_rates(moves).set_index(["algorithm", "normalize"])
    ratio = measured["node_rate"] / shipped.loc[measured.index, "node_rate"]
    assert ratio.between(0.85, 1.15).all(), ratio


def test_the_time_mode_files_are_dealt_into_folds_of_every_budget():
    from pathlib import Path

    from chameleon_lab.thesis.calibration import split_files

    names = [f"{s}-t{b}.json" for s in ("2-p", "3-h", "4-a") for b in (10, 100, 1000)]
    names += ["4-x-t1000.json", "4-y-t1000.json", "4-z-t1000.json"]
    folds = split_files([Path(n) for n in names], folds=2, seed=3)
    assert sorted(p.name for f in folds for p in f) == sorted(names)  # each file once
    for fold in folds:
        budgets = {p.stem.rsplit("-t", 1)[1] for p in fold}
        assert budgets == {"10", "100", "1000"} and len(fold) == 6
    assert folds == split_files([Path(n) for n in reversed(names)], folds=2, seed=3)
    with pytest.raises(ValueError, match="folds must be a whole number from 2 to the 12 files"):
        split_files([Path(n) for n in names], folds=13)


def test_held_out_files_are_checked_at_the_other_folds_rates(legacy_dir):
    """Two 10 ms files: each is searched at the rates measured from the other alone, and
    a search the other never played is left out and counted."""
    from chameleon_lab.thesis.calibration import (
        cross_validate,
        measure_node_rates,
        stop_shares,
    )

    files = [legacy_dir / "2-paranoid-t10.json", legacy_dir / "4-all-t10.json"]
    checked = cross_validate(files, folds=2, progress=False)
    own = {f.stem: measure_node_rates(replay_time([f], progress=False)[0].moves) for f in files}
    for session, other in (("2-paranoid-t10", "4-all-t10"), ("4-all-t10", "2-paranoid-t10")):
        rows = checked[checked["session"] == session]
        rates = own[other].set_index(["algorithm", "normalize"])["node_rate"]
        used = rows.groupby(["algorithm", "normalize"])["node_rate"].first()
        assert len(used) and (used == rates.loc[used.index]).all()  # the other file's rates
    all_moves = sum(len(replay_time([f], progress=False)[0].moves) for f in files)
    assert checked.attrs["unrated"] == all_moves - len(checked) > 0  # 4-all's other searches
    shares = stop_shares(checked)
    row = shares.iloc[0]
    part = checked[(checked["agent"] == row["agent"]) & (checked["budget_ms"] == row["budget_ms"])]
    assert row["same_depth"] == pytest.approx((part["emulated_depth"] == part["depth"]).mean())
