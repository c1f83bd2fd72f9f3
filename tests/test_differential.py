"""Every pruned or enhanced search against its unpruned twin (the differential harness,
:mod:`chameleon_lab.search.differential`), and the harness itself against searches
known to be wrong.

The fast profile runs here; ``chameleon-lab check --profile large`` runs thousands of
positions. Hypothesis draws further single cases: any two-player game at its usual
size, any position of any phase, any depth the profile affords and any setting of the
suite's switches, including small tables (collisions and replacement) and aspiration
windows from far narrower than a value's rounding to far wider than its range.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chameleon_lab.cli import main
from chameleon_lab.games import get_game
from chameleon_lab.search import differential as D
from chameleon_lab.search.api import search

SUITE_TARGETS = D.CHECKS["suite"].targets["fast"]


def test_the_fast_profile_finds_every_search_equal_to_its_twin():
    report = D.run_checks("fast")
    assert not report.mismatches, "\n".join(map(str, report.mismatches[:10]))
    planned = {(c.name, t.label): t.positions for c, t in D.plan("fast")}
    assert {k: t.positions for k, t in report.tallies.items()} == planned
    suite = [t for (check, _), t in report.tallies.items() if check == "suite"]
    assert all(t.searches == t.positions * len(D.suite_settings()) for t in suite)


def test_the_settings_are_every_combination_of_the_switches():
    combos = D.suite_settings()
    assert len(combos) == 96  # 2**7 less the 32 with aspiration but no iterative deepening
    assert len({json.dumps(c, sort_keys=True) for c in combos}) == 96
    assert sum(c["pvs"] for c in combos) == 48
    assert all(c["iterative"] for c in combos if c["aspiration"])


def test_positions_come_from_every_phase_and_near_the_end():
    game = get_game("connect4")
    positions = D.game_positions(game, 60, seed=3)
    assert not any(p.is_over for p in positions)
    stones = [sum(c != "." for row in p.to_json()["board"] for c in row) for p in positions]
    assert min(stones) <= 8 and max(stones) >= 25, stones
    # near the end: a side to move that wins or loses within a few plies, at values of
    # finished games (1e6 and more) seen by a depth-5 search
    values = [abs(float(r.scores[r.index])) for r in
              (search(p, "negamax", depth=5, iterative=False) for p in positions)]  # fmt: skip
    assert sum(v >= 1e6 for v in values) >= 10
    again = D.game_positions(game, 60, seed=3)
    assert [p.to_json() for p in again] == [p.to_json() for p in positions]


# Positions on which PVS's fixed null window of 1e-9 vanished beside values of 1e8: a
# window of width 0 stopped a node after its first child and made the parent take a
# lower bound for an upper one. Connect Four: X (to move) has a1, d1 and e1 and wins by
# f1 (c1 and g1 then both complete four); Five-in-a-row 7 x 7: black wins in 3 plies.
FORCED_WINS = [
    ({"game": "connect4", "params": {"width": 7, "height": 6},
      "board": [".......", ".......", ".......", ".......", "...OO..", "XO.XX.."]}, 5),
    ({"game": "gomoku", "params": {"width": 7, "height": 7, "k": 5},
      "board": ["....B.B", ".W.WB..", "..WWW.B", "BB..W..", "B......", ".BB.WB.", ".WW.BW."]}, 3),
]  # fmt: skip


@pytest.mark.parametrize(("position", "depth"), FORCED_WINS, ids=["connect4", "gomoku"])
def test_pvs_sees_a_forced_win_inside_the_horizon(position, depth):
    game = get_game(position["game"], **position["params"])
    pos = game.position_class.from_json(position)
    full = search(pos, "negamax", depth=depth, iterative=False)
    assert full.scores[full.index] > game.ops.terminal_scale  # a win, as the comment says
    for setting in ({"pvs": True, "iterative": False}, {"pvs": True, "ordering": True},
                    {"pvs": True, "tt_bits": 16, "killers": True, "history": True}):  # fmt: skip
        result = search(pos, "alphabeta", depth=depth, **setting)
        assert result.scores[result.index] == full.scores[full.index], setting


def _drawn_setting():
    return st.fixed_dictionaries(
        {
            "iterative": st.booleans(),
            "ordering": st.integers(0, 3),
            "pvs": st.booleans(),
            "killers": st.booleans(),
            "history": st.booleans(),
            "tt_bits": st.sampled_from([0, 1, 4, 12]),
            "aspiration": st.sampled_from([0.0, 1e-12, 0.5, 25.0, 1e6, 1e12]),
        }
    ).map(lambda s: {**s, "aspiration": s["aspiration"] if s["iterative"] else 0.0})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    target=st.sampled_from(SUITE_TARGETS),
    seed=st.integers(0, 2**31),
    setting=_drawn_setting(),
    data=st.data(),
)
def test_alphabeta_with_any_setting_returns_the_negamax_value(target, seed, setting, data):
    depth = data.draw(st.integers(1, target.max_depth), label="depth")
    game = get_game(target.name, **target.params)
    (pos,) = D.game_positions(game, 1, seed)
    tally = D.suite_case(pos, depth, [setting])
    assert not tally.mismatches, tally.mismatches[0]


@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from(["RY", "RGY", "RGYB"]), seed=st.integers(0, 2**31),
       normalize=st.booleans(), depth=st.integers(1, 2))  # fmt: skip
def test_improved_paranoid_returns_the_minimax_value(players, seed, normalize, depth):
    (pos,) = D.game_positions(get_game("chameleon", players=players), 1, seed)
    assert not D.paranoid_case(pos, depth, normalize).mismatches


@settings(max_examples=15, deadline=None)
@given(players=st.sampled_from(["RGY", "RGYB"]), seed=st.integers(0, 2**31),
       depth=st.integers(1, 3))  # fmt: skip
def test_maxnis_keeps_the_maxn_value(players, seed, depth):
    (pos,) = D.game_positions(get_game("chameleon", players=players), 1, seed)
    assert not D.maxnis_case(pos, depth).mismatches


# --------------------------------------------------- the harness sees a wrong search
@pytest.fixture
def pvs_off_by_one(monkeypatch):
    """``search`` as the harness calls it, with PVS returning one more than it found."""
    real = D.search

    def wrong(position, algorithm, **options):
        result = real(position, algorithm, **options)
        if options.get("pvs"):
            result.scores = result.scores.copy()
            result.scores[result.index] += 1.0
        return result

    monkeypatch.setattr(D, "search", wrong)


def test_a_wrong_value_is_reported_with_its_setting_and_position(pvs_off_by_one):
    pos = get_game("tictactoe").from_moves(["b2"])
    tally = D.suite_case(pos, 2, D.suite_settings())
    assert len(tally.mismatches) == 48  # every setting with PVS, none without
    m = tally.mismatches[0]
    assert m.what == "value" and m.got == m.expected + 1.0 and m.setting["pvs"]
    assert m.position == pos.to_json() and m.depth == 2


def test_a_move_of_less_than_the_value_is_reported(monkeypatch):
    real = D.search

    def other_move(position, algorithm, **options):
        result = real(position, algorithm, **options)
        if algorithm == "alphabeta":  # claim the value, choose the worst move
            worst = int(np.argmin(real(position, "negamax", depth=options["depth"],
                                       iterative=False).scores))  # fmt: skip
            value = result.scores[result.index]
            result.scores = result.scores.copy()
            result.index = worst
            result.scores[worst] = value
        return result

    monkeypatch.setattr(D, "search", other_move)
    # X to move can win at once (c3) or lose the game by ignoring O's threat
    pos = get_game("tictactoe").from_moves(["a1", "a3", "b2", "a2"])
    tally = D.suite_case(pos, 3, [{"pvs": True}])
    assert [m.what for m in tally.mismatches] == ["move"]


def test_the_cli_reports_mismatches_and_exits_1(pvs_off_by_one, capsys, tmp_path):
    out = tmp_path / "bad.jsonl"
    code = main(["check", "--checks", "suite", "--games", "nim", "--quiet", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 1
    assert "suite on nim at depth" in text and "mismatch(es)" in text
    lines = out.read_text().splitlines()
    assert lines and all(json.loads(line)["setting"]["pvs"] for line in lines)


def test_the_cli_prints_the_tally_and_exits_0(capsys):
    assert main(["check", "--checks", "solver", "--games", "tictactoe", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "solver    tictactoe" in text and "0 mismatch(es)" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--games", "chess"], "no check of this run plays 'chess'"),
        (["check", "--checks", "suite", "--games", "nim", "othello", "chess"], "chess"),
    ],
)
def test_the_cli_refuses_what_does_not_exist(argv, message, capsys):
    assert main([*argv, "--quiet"]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["check", "--profile", "huge"], "invalid choice: 'huge'"),
    (["check", "--checks", "pvs"], "invalid choice: 'pvs'"),
])  # fmt: skip
def test_the_cli_refuses_unknown_profiles_and_checks(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_the_library_refuses_unknown_names():
    with pytest.raises(ValueError, match="valid profiles: fast, large"):
        D.plan("huge")
    with pytest.raises(
        ValueError, match="valid checks: maxnis, paranoid, maxnsp, brs, mcts, suite, dfpn, solver"
    ):
        D.plan("fast", checks=["pvs"])


def test_every_pruned_or_enhanced_algorithm_declares_its_check():
    # MaxN is the twin the others are held against; Hypermax departs from MaxN by
    # design (its departures are measured in chameleon_lab.analysis.hypermax)
    from chameleon_lab.search.registry import ALGORITHMS

    unchecked = {name for name, a in ALGORITHMS.items() if a.check is None}
    assert unchecked == {"maxn", "hypermax"}
    names = {"maxnis", "paranoid", "maxnsp", "brs", "mcts", "suite", "dfpn", "solver"}
    assert set(D.all_checks()) == names


def probe_check():
    """A check made by a function, as an algorithm's own module declares one."""
    return D.Check(
        "probe",
        "a check no module of the harness names",
        {"fast": (D.Target("tictactoe", {}, 2),), "large": ()},
        lambda pos, depth, label: D.Tally(positions=1),
    )


def test_a_check_an_entry_declares_joins_the_run_without_the_harness_naming_it(monkeypatch):
    import dataclasses

    from chameleon_lab.search.registry import ALGORITHMS

    entry = dataclasses.replace(ALGORITHMS["dfpn"], name="probe", check=f"{__name__}:probe_check")
    monkeypatch.setitem(ALGORITHMS._entries, "probe", entry)
    # reading the entry marks it used; the mark goes with the entry (a provenance read
    # later in this process would otherwise look for the probe's code)
    monkeypatch.setattr(ALGORITHMS, "used", set(ALGORITHMS.used))
    report = D.run_checks("fast", checks=["probe"])
    assert [(row["check"], row["positions"]) for row in report.rows()] == [("probe", 2)]
