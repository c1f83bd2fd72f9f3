"""The game object (move limit) and the ``chameleon-lab`` command."""

from __future__ import annotations

import csv
import subprocess
import sys

import pytest

from chameleon_lab.cli import main
from chameleon_lab.games import get_game
from chameleon_lab.games.chameleon import ChameleonMatch, Position


def test_move_limit_is_a_rule_of_the_game():
    game = ChameleonMatch(players="RG", move_limit=3)
    for _ in range(3):
        game.play(game.position.legal_moves[0])
    assert game.is_over and game.result.reason == "move_limit"
    assert game.result.winner is None
    with pytest.raises(ValueError, match="move limit of 3"):
        game.play(game.position.legal_moves[0])


def test_no_move_limit_plays_on():
    game = ChameleonMatch(players="RG", move_limit=None)
    for _ in range(150):
        if game.is_over:
            break
        game.play(game.position.legal_moves[-1])
    assert game.is_over == game.position.is_over


@pytest.mark.parametrize("limit", [0, -5, 2.5, True, "100"])
def test_bad_move_limits_are_rejected(limit):
    with pytest.raises(ValueError, match="move_limit"):
        ChameleonMatch(move_limit=limit)


def test_game_records_the_capture_flag():
    game = ChameleonMatch(
        start=Position.from_pawns(
            [(0, 5, 5, 3), (1, 3, 5, 0), (1, 3, 6, 1)], to_move=0, limits=(3, 5, 4, 6)
        )
    )
    game.play("f3f5")
    assert str(game.moves[0]) == "f3xf5"


def test_demo_writes_figures_and_an_exact_perft_table(tmp_path, conformance_dir):
    import json

    main(
        [
            "demo",
            "--figures",
            str(tmp_path / "fig"),
            "--data",
            str(tmp_path / "data"),
            "--depth",
            "3",
        ]
    )
    png = (tmp_path / "fig" / "start_positions.png").read_bytes()
    assert png[:4] == b"\x89PNG"
    assert (tmp_path / "fig" / "start_positions.svg").stat().st_size > 10_000
    with (tmp_path / "data" / "perft_start_positions.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    recorded = json.loads((conformance_dir / "perft.json").read_text())
    assert [[int(r[f"perft{d}"]) for d in (1, 2, 3)] for r in rows] == [
        rec["perft"][:3] for rec in recorded
    ]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """``chameleon-lab ARGS`` in a fresh interpreter; fails the test on a non-zero exit."""
    proc = subprocess.run(
        [sys.executable, "-m", "chameleon_lab.cli", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return proc


def test_bench_perft_prints_a_rate(conformance_dir):
    import json

    recorded = json.loads((conformance_dir / "perft.json").read_text())
    leaves = sum(rec["perft"][2] for rec in recorded)
    proc = run_cli("bench", "perft", "--depth", "3", "--repeat", "1")
    assert "positions generated per second" in proc.stdout
    total = next(line for line in proc.stdout.splitlines() if line.startswith("total"))
    assert f"{leaves:,}" in total


def test_cli_rejects_bad_arguments(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["bench", "perft", "--depth", "0"])
    assert exc.value.code == 2
    assert "whole number >= 1" in capsys.readouterr().err


def test_bench_search_prints_every_algorithm():
    proc = run_cli(
        "bench", "search", "--depth", "2", "--positions", "2", "--budgets", "5", "--move-limit", "3"
    )
    lines = proc.stdout.splitlines()
    rows = [line.split()[0] for line in lines[2:6]]
    assert rows == ["maxn", "maxnis", "paranoid", "hypermax"]
    games = [line.split() for line in lines if line.endswith("ms") and "5ms" in line.split()]
    assert [g[0] for g in games] == ["maxn", "maxnis", "paranoid", "hypermax"]
    assert all(g[2] == "3" for g in games)  # three moves each
    assert "time budget: 12 moves" in proc.stdout


def test_bench_tournament_prints_the_speed_up(capsys):
    assert main(["bench", "tournament", "--games", "2", "--depth", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 games, thesis flavour, depth 1" in out and "speed-up" in out


def test_bench_depths_prints_every_algorithm_and_phase(capsys):
    from chameleon_lab.analysis.efficiency import PHASES, phase_positions

    positions = phase_positions(1)
    for name, (low, high) in PHASES.items():  # the phases hold what they say
        for p in positions[name]:
            assert low <= len(p.pawns) <= high and len(p.players_alive) == 4
    assert main(["bench", "depths", "--budgets", "2", "--positions", "1"]) == 0
    out = capsys.readouterr().out
    for algorithm in ("maxn", "maxnis", "paranoid", "hypermax"):
        for name in PHASES:
            assert f"{algorithm:10} {name:16}" in out


def test_bench_depths_at_a_fixed_depth_reports_each_positions_search(capsys):
    from chameleon_lab.analysis.efficiency import phase_positions
    from chameleon_lab.search.api import search

    args = ["bench", "depths", "--at-depth", "3", "--algorithms", "paranoid", "maxn"]
    assert main([*args, "--phases", "late", "--positions", "2", "--repeat", "1"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
    assert [(r[0], r[1], r[3]) for r in rows] == [
        (a, "late", str(i)) for a in ("paranoid", "maxn") for i in range(2)
    ]
    late = phase_positions(2)["late (5-8)"]
    for r in rows:  # the nodes of iterative deepening to depth 3 on that very position
        nodes = search(late[int(r[3])], r[0], depth=3).nodes
        assert int(r[4].replace(",", "")) == nodes


@pytest.mark.parametrize(
    "bad, named",
    [
        (["--at-depth", "0"], "expected a depth from 1 to 64"),
        (["--at-depth", "65"], "expected a depth from 1 to 64"),
        (["--at-depth", "3", "--algorithms", "negamax"], "choose from maxn, maxnis"),
        (["--at-depth", "3", "--phases", "endgame"], "choose from opening, middle, late"),
        # options of the other mode, which went unnoticed
        (["--algorithms", "maxn"], "--algorithms: --budgets goes with the time budgets"),
        (["--phases", "late", "--repeat", "2"], "--repeat, --phases: --budgets goes with"),
        (["--at-depth", "3", "--budgets", "10"], "--budgets: --budgets goes with the time"),
    ],
)
def test_bench_depths_refuses_bad_options_with_status_2(bad, named, capsys):
    try:
        status = main(["bench", "depths", *bad])
    except SystemExit as exc:  # argparse's own refusals
        status = exc.code
    assert status == 2
    assert named in capsys.readouterr().err


def test_bench_search_refuses_a_move_limit_without_games(capsys):
    assert main(["bench", "search", "--budgets", "--move-limit", "50"]) == 2
    assert "with --budgets empty there are none" in capsys.readouterr().err


def test_bench_papers_measures_every_multiplayer_search_and_refuses_other_games(capsys):
    """One game, depth 1, one position (the start): a perft row with the leaves perft
    counts, and a row per search with the nodes it counted (at depth 1 at least the
    start's 14 children, each evaluated)."""
    args = ["bench", "papers", "--games", "chinesecheckers", "--depth", "1", "--positions", "1"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    for players in (3, 4):
        rows = [line.split() for line in lines if line.startswith(f"chinesecheckers-{players}p")]
        # every multi-player search of the registry, none named in the benchmark
        assert [r[1] for r in rows] == ["perft", "maxn", "maxnis", "paranoid", "hypermax",
                                        "maxnsp", "brs", "brsplus", "mcts"]  # fmt: skip
        leaves = get_game("chinesecheckers", players=players).start().perft(4)
        assert rows[0][3] == f"{leaves:,}"
        assert all(int(r[3].replace(",", "")) >= 14 for r in rows[1:8])
        assert rows[8][2] == "2000" and int(rows[8][4].replace(",", "")) >= 2000
    assert main(["bench", "papers", "--games", "chess"]) == 2
    assert "'chess' is not benchmarked here; choose from chameleon" in capsys.readouterr().err


def test_bench_solve_passes_the_games_options_and_checks_the_values(capsys):
    assert main(["bench", "solve", "--game", "connect4", "--limit", "12"]) == 0
    out = capsys.readouterr().out
    assert "stones" in out and "agree" in out and "False" not in out
    assert main(["bench", "solve", "--game", "othello", "--empties", "8-9", "--count", "2"]) == 0
    out = capsys.readouterr().out
    assert "empties" in out and "nodes/s" in out
    with pytest.raises(SystemExit) as exc:  # other commands still refuse unknown options
        main(["bench", "perft", "--limit", "3"])
    assert exc.value.code == 2
    assert "unrecognized arguments: --limit 3" in capsys.readouterr().err


def test_bench_heuristics_prints_each_heuristics_speed_and_depth(capsys):
    argv = ["bench", "heuristics", "lines", "weighted_lines", "--depth", "2", "--time-ms", "2",
            "--positions", "2"]  # fmt: skip
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "nodes_per_s" in lines[0] and "depth_median" in lines[0]
    assert [line.split()[0] for line in lines[1:]] == ["lines", "weighted_lines"]
    assert main(["bench", "heuristics", "nothing"]) == 2
    assert "unknown heuristic 'nothing'" in capsys.readouterr().err
    three = ["bench", "heuristics", "pawns100roles", "--game", "chameleon", "--players", "3"]
    assert main(three) == 2  # alpha-beta is for two players
    err = capsys.readouterr().err
    assert "alphabeta searches two-player zero-sum games" in err and "paranoid" in err
    assert main([*three, "--players", "5"]) == 2
    assert "players" in capsys.readouterr().err
