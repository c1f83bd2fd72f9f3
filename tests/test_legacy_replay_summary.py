"""Legacy import, exact replay, and the thesis's tables out of the legacy files."""

from __future__ import annotations

import csv
import json
import math
import statistics

import pytest

from chameleon_lab.analysis import aggregate, session_summary
from chameleon_lab.analysis.stats import compare, win_rates
from chameleon_lab.cli import main
from chameleon_lab.games.chameleon import Position
from chameleon_lab.games.match import Result
from chameleon_lab.thesis.legacy import load_legacy, load_records
from chameleon_lab.thesis.replay import replay
from chameleon_lab.tournament import tables
from chameleon_lab.tournament.play import finish_record
from chameleon_lab.tournament.seatings import SEATS


@pytest.fixture(scope="module")
def legacy_tables(legacy_dir):
    records = [r for p in sorted(legacy_dir.glob("*.json")) for r in load_legacy(p).records]
    return tables(records)


def test_legacy_moves_lead_through_the_recorded_positions(legacy_dir):
    path = legacy_dir / "4-all-d3.json"
    data = json.loads(path.read_text())
    legacy = load_legacy(path)
    for record, game in zip(legacy.records, data["games"], strict=True):
        position = Position.from_compact(record["start"])
        for move, stats, recorded in zip(
            record["moves"], game["moveStats"], game["gameStates"][1:], strict=True
        ):
            position = position.play(move["move"])
            assert position == Position.from_legacy(recorded)
            assert (move["depth"], move["time_ms"]) == (stats["depth"], stats["time"])
    assert legacy.session.resolved_agents()["Paranoid"]["normalize"] is True


def test_paranoid_is_unnormalised_beside_paranoram(legacy_dir):
    agents = load_legacy(legacy_dir / "2-paranoid-d1.json").session.resolved_agents()
    assert agents["Paranoid"]["normalize"] is False and agents["ParaNorm"]["normalize"] is True


def test_thesis_tables_come_out_of_the_legacy_files(legacy_tables, thesis_tables_csv):
    """Every row of thesis-tables.csv: per session and aggregated over sessions."""
    with thesis_tables_csv.open() as f:
        rows = list(csv.DictReader(f))
    summary = session_summary(legacy_tables).set_index(["session", "agent"])
    cols = ["games", "wins", "draws", "losses"]
    figs = ["time_avg_ms", "time_median_ms", "depth_avg", "depth_median"]
    checked = 0
    for row in rows:
        if row["scope"] == "session":
            ours = summary.loc[(row["session"], row["algorithm"])]
            assert ours["mode"] == row["mode"]
            assert float(ours["mode_value"]) == float(row["mode_value"])
        else:
            table = aggregate(legacy_tables, row["session"].split("+")).set_index("agent")
            ours = table.loc[row["algorithm"]]
        assert [int(ours[c]) for c in cols] == [int(row[c]) for c in cols], row
        assert [float(ours[c]) for c in figs] == [float(row[c]) for c in figs], row
        checked += 1
    assert checked == 108


@pytest.mark.slow
def test_depth_one_and_two_sessions_replay_identically(legacy_dir):
    files = sorted(legacy_dir.glob("*-d[12].json"))
    assert len(files) == 10
    results, _ = replay(files, workers=2, progress=False)
    for result in results:
        assert result.identical, str(result)
        assert len(result.records) == result.games


def test_broken_recordings_are_named_by_game_and_move(legacy_dir, tmp_path):
    data = json.loads((legacy_dir / "4-all-d1.json").read_text())
    states = data["games"][5]["gameStates"]
    states[7], states[8] = states[8], states[7]
    bad = tmp_path / "4-all-d1.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"4-all-d1\.json: game 5 move 6: no legal move"):
        load_legacy(bad)
    data = json.loads((legacy_dir / "4-all-d1.json").read_text())
    del data["games"][2]["gameStates"][-1], data["games"][2]["moveStats"][-1]
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="game 2: ends after 24 moves with neither"):
        load_legacy(bad)


def test_replay_check_names_the_first_divergence(legacy_dir, tmp_path, capsys):
    """A depth-1 recording replayed at depth 2 must leave the recording somewhere."""
    data = json.loads((legacy_dir / "1-all-d1.json").read_text())
    data["modeValue"] = 2
    path = tmp_path / "1-all-d1.json"
    path.write_text(json.dumps(data))
    code = main(["replay", str(path), "--check", "--quiet", "--workers", "2"])
    out = capsys.readouterr().out
    assert code == 1
    assert "1-all-d1.json: DIVERGES: game 0 (Pawns,Pawns10Roles,Pawns100Roles,Pawns100Moves)" in out
    assert ", position " in out and "recorded '" in out and "replayed '" in out
    # at its own depth but with two games swapped: the seating check catches it
    data["modeValue"] = 1
    data["games"][1], data["games"][2] = data["games"][2], data["games"][1]
    path.write_text(json.dumps(data))
    assert main(["replay", str(path), "--check", "--quiet", "--workers", "1"]) == 1
    assert "game 1: the recording seats" in capsys.readouterr().out


def test_time_mode_files_are_not_replayed(legacy_dir):
    with pytest.raises(ValueError, match=r"time-mode session.*cannot be replayed exactly"):
        replay([legacy_dir / "4-all-t10.json"], progress=False)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json at all", "not JSON"),
        ('{"algorithms": ["MaxN"], "mode": "depth"}', "lacks the key 'modeValue'"),
        (
            '{"algorithms": ["Alpha"], "mode": "depth", "modeValue": 1, "games": []}',
            "unknown algorithm name 'Alpha'",
        ),
        (
            '{"algorithms": ["MaxN"], "mode": "speed", "modeValue": 1, "games": []}',
            "neither 'depth' nor 'time'",
        ),
    ],
)
def test_foreign_legacy_files_are_named(tmp_path, content, message):
    path = tmp_path / "odd.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message) as info:
        load_legacy(path)
    assert "odd.json" in str(info.value)


def test_summary_cli_reads_legacy_files(legacy_dir, capsys):
    assert main(["summary", str(legacy_dir / "1-10-vs-100-d1.json"), "--stats"]) == 0
    out = capsys.readouterr().out
    assert "Pawns10Roles" in out and "Plackett-Luce ratings" in out and "Holm p = " in out


def test_summary_cli_names_an_unreadable_file(tmp_path, capsys):
    path = tmp_path / "x.jsonl"
    path.write_text("hello\n")
    assert main(["summary", str(path)]) == 2
    assert "x.jsonl line 1 is not JSON" in capsys.readouterr().err
    assert load_records  # the same reader the CLI uses


# ---------------------------------------------------------------- statistics


def _records(outcomes):
    """Two-player records from a list of winners ('a' or 'b' or None for a draw)."""
    out = []
    for g, winner in enumerate(outcomes):
        seating = ("a", "b", None, None)
        survivors = {"a": [0], "b": [1], None: [0, 1]}[winner]
        base = {
            "session": {"name": "s", "agents": {"a": {}, "b": {}}},
            "session_id": "s1",
            "game": g,
            "seating": list(seating),
            "agents": {"a": {"depth": 1}, "b": {"depth": 1}},
            "moves": [],
        }
        final = Position.start("RG") if winner is None else _won_by(survivors[0])
        result = Result(final.players_alive, "winner" if winner else "move_limit")
        out.append(finish_record(base, seating, final, result, SEATS))
    return out


def _won_by(seat):
    return Position.from_pawns([(seat, 7, 0, 0)], to_move=seat)


def test_exact_test_by_hand():
    t = tables(_records(["a"] * 9 + ["b"] + [None] * 3))
    c = compare(t, "a", "b")
    assert (c.a_better, c.b_better, c.ties, c.games) == (9, 1, 3, 13)
    # two-sided sign test: 2 * P(X >= 9), X ~ Bin(10, 1/2) = 2 * 11 / 1024
    assert c.p_value == pytest.approx(22 / 1024)


def test_win_rate_interval_is_wilson():
    t = tables(_records(["a"] * 6 + ["b"] * 4))
    row = win_rates(t).set_index("agent").loc["a"]
    n, p, z = 10, 0.6, 1.959963984540054
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((centre - half, centre + half))


def test_a_table_run_at_other_budgets_says_so():
    from chameleon_lab.thesis.sessions import THESIS_TABLES, budget_note

    assert all(budget_note(t) is None for t in THESIS_TABLES)
    assert budget_note("6.9", budgets_ms=[1000]) is None
    assert budget_note("6.10", budgets_ms=[10]) == (
        "Table 6.10 runs at budgets 10 ms, the thesis at 1000 ms: nothing of this run sits "
        "beside the thesis's rows; give the thesis's budgets to compare."
    )
    assert budget_note("6.7", depths=[1, 2]) == (
        "Table 6.7 runs at depths 1, 2, the thesis at 1, 2, 3, 4: the thesis's 3, 4 are not played."
    )


def test_distinct_games_count_the_original_programs_copies(legacy_dir, legacy_tables):
    """The games of each recorded session that differ, counted from the raw files' state
    sequences (not through our records), equal :func:`distinct_games` of the imported
    records; the original's depth-mode sessions hold copies (one seating's game played
    again in another), its time-mode ones (a wall clock) hardly any."""
    from chameleon_lab.analysis import distinct_games

    counted = distinct_games(legacy_tables).set_index("session")
    copies = 0
    for path in sorted(legacy_dir.glob("*.json")):
        games = json.loads(path.read_text())["games"]
        raw = {json.dumps(g["gameStates"]) for g in games}
        row = counted.loc[path.stem]
        assert (row["games"], row["distinct_games"]) == (len(games), len(raw)), path.stem
        copies += len(games) - len(raw)
    assert copies > 0  # the test would pass on a count that never saw a copy otherwise


def test_the_verdict_names_sessions_whose_games_repeat():
    import pandas as pd

    from chameleon_lab.thesis.compare import verdict

    side = pd.DataFrame(
        {"session": ["4-all-d1", "4-all-d1", "4-all-t10"], "agent": ["MaxN", "Paranoid", "MaxN"],
         "games": [24, 24, 24], "thesis_inside": [True] * 3, "consistent": [True] * 3,
         "equivalence": ["undecided"] * 3, "distinct_games": [1, 1, 24]}
    )  # fmt: skip
    text = verdict(side)
    assert "in 1 of 2 sessions (distinct games: 4-all-d1 1 of 24)" in text
    assert "every game differs" not in text
    assert "In the session every game differs from the others." in verdict(side.iloc[2:])
    assert "distinct" not in verdict(side.drop(columns="distinct_games"))


def test_each_agents_largest_move_and_overshoot_as_the_records_give_them(legacy_tables):
    """Beside the thesis's layout: per session and agent the largest ms a move, and in
    time mode the share of moves over the budget and the largest overshoot, checked
    move by move with a plain loop over the original's own records (its clock overran
    10 ms budgets on most moves); depth mode has no budget to overrun."""
    summary = session_summary(legacy_tables)
    modes = legacy_tables.games.drop_duplicates("session_id").set_index("session_id")
    spent: dict[tuple, list[float]] = {}
    for sid, agent, ms in legacy_tables.moves[["session_id", "agent", "time_ms"]].itertuples(
        index=False
    ):
        spent.setdefault((modes.at[sid, "session"], agent), []).append(float(ms))
    timed = 0
    for row in summary.itertuples(index=False):
        times = spent[(row.session, row.agent)]
        assert row.clock == "machine" and row.clock_max_ms == round(max(times))
        assert row.clock_median_ms == pytest.approx(round(statistics.median(times), 1))
        if row.mode == "time":
            budget = float(row.mode_value)
            over = sum(ms > budget for ms in times) / len(times)
            assert row.over_budget == pytest.approx(round(over, 3))
            assert row.max_overshoot_ms == round(max(times) - budget)
            timed += 1
        else:
            assert math.isnan(row.over_budget) and math.isnan(row.max_overshoot_ms)
    assert timed == 30  # the time-mode rows of the thesis's sessions
    t10 = summary[(summary["session"] == "4-all-t10")].set_index("agent")
    assert (t10["over_budget"] > 0.5).all()  # the original overran most 10 ms moves


def test_on_the_emulated_clock_a_move_takes_its_nodes_at_the_originals_speed():
    """A session on the original's clock (node_rate): its moves' milliseconds are read
    off that clock, nodes over the node rate scaled by the pawns on the board (the
    original searched (16 + 1) / (pawns + 1) times faster with fewer pawns), checked on
    a committed research record with a plain loop over its raw moves."""
    from pathlib import Path

    from chameleon_lab.tournament.records import read_records

    folder = Path(__file__).resolve().parents[1] / "research" / "data" / "records" / "thesis"
    path = next(folder.glob("2-paranoid-t10-*.jsonl.xz"))
    records = read_records(path)
    summary = session_summary(tables(records)).set_index("agent")
    ticks: dict[str, list[float]] = {}
    for r in records:
        seat_agent = dict(zip(SEATS, r["seating"], strict=True))
        for m in r["moves"]:
            agent = seat_agent[m["seat"]]
            rate = r["agents"][agent]["node_rate"] * 17 / (m["pawns"] + 1)
            ticks.setdefault(agent, []).append((m["expanded"] + m["evaluated"]) / rate)
    for agent, ms in ticks.items():
        row = summary.loc[agent]
        assert row["clock"] == "original"
        assert row["clock_max_ms"] == round(max(ms))
        assert row["over_budget"] == pytest.approx(round(sum(t > 10 for t in ms) / len(ms), 3))
        assert row["max_overshoot_ms"] == round(max(ms) - 10)
        assert row["clock_median_ms"] == pytest.approx(round(statistics.median(ms), 1))
        assert 9 < statistics.median(ms) < 20  # about the budget: the clock it was set on
