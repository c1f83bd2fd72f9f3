"""Every notebook runs under papermill with tiny parameters and writes what it promises."""

from __future__ import annotations

import csv
import inspect
import json
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from chameleon_lab.batch import (
    PROFILES,
    BadParameters,
    NotebookFailed,
    notebook_parameters,
    run_batch,
    run_notebook,
)
from chameleon_lab.games.registry import get_game
from chameleon_lab.workbench import (
    NOTEBOOKS,
    check_numbers,
    notebook_dir,
    project_path,
    project_root,
)

ROOT = Path(__file__).resolve().parents[1]
PAPERMILL = str(Path(sys.executable).with_name("papermill"))

TINY = {
    "13_self_learning": {
        "games": 2,
        "batch": 1,
        "depth": 1,
        "positions": 8,
        "connect4": {"position_plies": [14, 24]},
        "resamples": 49,
        "max_blocks": 2,
        "net_games": 6,
        "net_hidden": 4,
        "net_epochs": 2,
        "workers": 1,
    },
    "12_the_papers_games": {
        "chinesecheckers": {"size": 2, "turns": 12},
        "budgets_ms": [2],
        "pruning_plies": [6],
        "pruning_positions": 1,
        "pruning_depths": [1, 2],
        "workers": 1,  # in the kernel: two workers would each load the compiled searches
    },
    "11_hypermax": {
        "positions": 4,
        "depths": [2, 3],
        "cause_limit": 2,
        "tables": ["6.8"],
        "session_budgets_ms": [2],
        "workers": 1,  # in the kernel: two workers would each load the compiled searches
    },
    "10_tuning": {
        "iterations": 1,
        "popsize": 2,
        "generations": 1,
        "depth": 1,
        "repetitions": 1,
        "opening_plies": 2,
        "eval_repetitions": 1,
        "max_blocks": 2,
        "workers": 1,  # in the kernel: two workers would each compile the candidates
    },
    "07_connect_four_reversi": {
        "perft_depth": 3,
        "selfplay_games": 2,
        "levels": [1],
        "aggressiveness": [1, 5],
        "reversi_levels": ["easy", "medium"],
        "experiment_depth": 2,
        "experiment_positions": 2,
        "opening_board": [4, 4],
    },
    "08_search_efficiency": {"per_phase": 1, "depths": [1, 2], "budgets_ms": [5]},
    "00_explore_heuristics": {"positions": 6, "pictures": 1, "search_depth": 2, "blocks": 1},
    "01_game": {"agent_depth": 1},
    "02_trees": {},
    "03_complexity": {
        "players": [2],
        "probabilities": [0.5],
        "games": 2,
        "depth": 1,
        "time_ms": None,
        "perft_depth": 2,
    },
    "04_thesis_tables": {
        "source": "thesis",
        "tables": ["6.3", "6.4"],
        "depths": [1],
        "budgets_ms": [10],
        "improved_beside": False,
    },
    "05_time_budgets": {"algorithms": ["maxn", "paranoid"], "budgets_ms": [2, 4]},
    "09_beyond_the_thesis": {
        "agents": ["paranoid", "brs", "mcts-ph", "mcts"],
        "players": [3],
        "budgets_ms": [2],
        "blocks": 1,
        "claim_players": [3],
        "claim_budgets_ms": [2],
        "max_blocks": 2,
        "two_player_games": ["tictactoe"],
        "two_player_budgets_ms": [2],
        "two_player_blocks": 2,
        "workers": 1,  # in the kernel: two workers would each load the compiled searches
    },
    "06_two_player_search": {
        "game_params": {"width": 5, "height": 5, "k": 4},
        "depths": [1, 2],
        "settings": ["negamax", "alpha-beta", "+ ordering"],
        "positions": 2,
        "budgets_ms": [5],
        "tournament": ["alpha-beta", "+ ordering"],
        "tournament_ms": 5,
    },
}
#: Overrides of TINY for the tests of records logic (resume, growth, refusal): one
#: budget's sessions show it as well as two, at half the games.
RECORDS_ONLY = {"05_time_budgets": {"budgets_ms": [1]}}
PROMISED = {
    "13_self_learning": (
        ["learning_curve", "learning_net_curve", "learning_accuracy"],
        [
            "learning_curve",
            "learning_net_curve",
            "learning_accuracy",
            "learning_accuracy_versus",
            "learning_verdicts",
            "learning_net_strength",
        ],
    ),
    "12_the_papers_games": (
        ["papers_findings", "papers_pruning"],
        ["papers_findings", "papers_effort", "papers_pruning"],
    ),
    "11_hypermax": (
        [
            "hypermax_departures",
            "hypermax_causes",
            "hypermax_cause_inherited_bound",
            "hypermax_mended_sessions",
        ],
        [
            "hypermax_departures",
            "hypermax_causes",
            "hypermax_mended_nodes",
            "hypermax_mended_sessions",
            "hypermax_mended_blocks",
        ],
    ),
    "10_tuning": (
        ["tuning_spsa_path", "tuning_against"],
        ["tuning_spsa_history", "tuning_movement", "tuning_against", "tuning_verdicts"],
    ),
    "07_connect_four_reversi": (
        ["c4_opening_values_4x4"],
        [
            "c4_reversi_perft",
            "c4_reversi_branching",
            "c4_levels_tournament",
            "reversi_levels_tournament",
            "seed003_experiment",
            "seed003_copy_vs_unmake",
            "c4_opening_values_4x4",
        ],
    ),
    "08_search_efficiency": (
        ["efficiency_nodes_per_depth", "efficiency_depth_at_budget"],
        ["efficiency_nodes_per_depth", "efficiency_pruning", "efficiency_depth_at_budget"],
    ),
    "00_explore_heuristics": (
        ["explore_correlations_chameleon"],
        [
            "explore_correlations_chameleon",
            "explore_agreement_chameleon",
            "explore_tournament_chameleon",
        ],
    ),
    "01_game": (["game_start_positions", "game_roles", "game_shrinking_board"], []),
    "02_trees": ([f"tree_figure_4_{i}" for i in range(1, 7)], ["tree_examples"]),
    "03_complexity": (
        ["complexity_distributions"],
        ["complexity_games", "complexity_table_3_1", "complexity_perft"],
    ),
    "04_thesis_tables": (
        ["thesis_emulated_depths"],
        ["thesis_sessions_thesis", "thesis_time_mode_replay", "thesis_emulated_depths"],
    ),
    "05_time_budgets": (
        ["budget_win_rate_improved", "budget_depths_improved", "budget_depths_by_phase_improved"],
        ["budget_win_rates_improved", "budget_depths_improved", "budget_time_per_move_improved"],
    ),
    "09_beyond_the_thesis": (
        ["beyond_ratings", "beyond_effort_by_phase"],
        [
            "beyond_ratings",
            "beyond_verdicts",
            "beyond_time_per_move",
            "beyond_effort_by_phase",
            "beyond_two_player",
        ],
    ),
    "06_two_player_search": (
        ["twoplayer_ladder_gomoku", "twoplayer_depth_in_time_gomoku", "twoplayer_dice_tree"],
        [
            "twoplayer_ladder_gomoku",
            "twoplayer_pvs_gomoku",
            "twoplayer_tournament_gomoku",
            "twoplayer_ratings_gomoku",
            "twoplayer_time_per_move_gomoku",
        ],
    ),
}


def test_notebooks_are_committed_without_outputs():
    for name in NOTEBOOKS:
        nb = json.loads((notebook_dir() / f"{name}.ipynb").read_text())
        tags = [c.get("metadata", {}).get("tags", []) for c in nb["cells"]]
        assert ["parameters"] in tags, f"{name} has no cell tagged parameters"
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, name
        # nbformat 4.5 cells carry ids; a cell without one makes every run warn, and a
        # later nbformat refuse the notebook
        ids = [cell.get("id") for cell in nb["cells"]]
        assert None not in ids and len(set(ids)) == len(ids), f"{name}: cell ids {ids}"


@pytest.mark.slow
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs_and_writes_its_files(name, tmp_path, capfd):
    figures, data = tmp_path / "figures", tmp_path / "data"
    params = {"figures_dir": str(figures), "data_dir": str(data), "workers": 2, **TINY[name]}
    report = run_notebook(name, params, tmp_path / "reports")
    assert json.loads(report.read_text())["cells"]
    # the kernel's traffic is encrypted: ipykernel >= 7.3 warns of eavesdropping on
    # every start of a kernel over plain TCP
    assert "without encryption" not in capfd.readouterr().err
    pictures, tables = PROMISED[name]
    for stem in pictures:
        png, svg = figures / f"{stem}.png", figures / f"{stem}.svg"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
        assert b"<svg" in svg.read_bytes()[:2000], svg
    for stem in tables:
        with (data / f"{stem}.csv").open() as f:
            rows = list(csv.reader(f))
        assert len(rows) >= 2, stem  # a header and at least one row
    if name == "04_thesis_tables":
        assert (figures / "table_6_3_thesis.png").exists() or not (
            data / "table_6_3_thesis.csv"
        ).exists()


@pytest.mark.slow
def test_the_tuning_notebook_runs_cma_es_too(tmp_path):
    """SPSA is notebook 10's default; ``method="cma"`` still scores candidates by
    CMA-ES and writes its curve and noise table."""
    figures, data = tmp_path / "figures", tmp_path / "data"
    params = {"figures_dir": str(figures), "data_dir": str(data), **TINY["10_tuning"]}
    run_notebook("10_tuning", {**params, "method": "cma"}, tmp_path / "reports")
    assert (figures / "tuning_curve.png").exists()
    noise = list(csv.DictReader((data / "tuning_noise.csv").open()))
    assert len(noise) == 1 and noise[0]["generation"] == "0"
    assert not (data / "tuning_movement.csv").exists()


@pytest.mark.slow
def test_the_tuning_notebook_tunes_once_per_player_count(tmp_path):
    """``players=[3, 4]``: a run of its own per count (two SPSA logs), every table
    keyed by the count, and the verdicts corrected across both counts."""
    figures, data = tmp_path / "figures", tmp_path / "data"
    params = {"figures_dir": str(figures), "data_dir": str(data), **TINY["10_tuning"]}
    run_notebook("10_tuning", {**params, "players": [3, 4]}, tmp_path / "reports")
    assert (
        len(list((data / "records" / "tuning").glob("tuning-chameleon-spsa-????????????.jsonl")))
        == 2
    )
    for table in ("tuning_spsa_history", "tuning_movement", "tuning_verdicts"):
        rows = list(csv.DictReader((data / f"{table}.csv").open()))
        assert sorted({r["players"] for r in rows}) == ["3", "4"], table
    movement = list(csv.DictReader((data / "tuning_movement.csv").open()))
    assert len(movement) == 6  # three weights a count, one Holm family
    against = list(csv.DictReader((data / "tuning_against.csv").open()))
    assert sorted({r["tuned_at"] for r in against}) == ["3", "4"]
    assert (figures / "tuning_spsa_path.png").exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("06_two_player_search", {"tournament_ms": 6}),
        ("05_time_budgets", {"algorithms": ["maxn", "hypermax"]}),
    ],
)
def test_a_notebook_runs_again_with_other_parameters_into_the_same_folder(name, change, tmp_path):
    # as the full batch after the quick one does, into the default data folder: the
    # records of the first run's sessions held their names, and the second run's
    # sessions (other parameters, same names) were refused as "other parameters"
    folders = {"figures_dir": str(tmp_path / "f"), "data_dir": str(tmp_path / "d")}
    params = {**folders, **TINY[name], **RECORDS_ONLY.get(name, {})}
    run_notebook(name, params, tmp_path / "reports")
    first = sorted((tmp_path / "d" / "records").rglob("*.jsonl"))
    run_notebook(name, {**params, **change}, tmp_path / "reports")
    both = sorted((tmp_path / "d" / "records").rglob("*.jsonl"))
    assert first and set(first) < set(both) and len(both) == 2 * len(first)


@pytest.mark.slow
def test_a_notebook_run_with_more_repetitions_plays_only_the_new_games(tmp_path):
    # the same sessions grown: the same records files, each game in them once
    name = "05_time_budgets"
    folders = {"figures_dir": str(tmp_path / "f"), "data_dir": str(tmp_path / "d")}
    params = {**folders, **TINY[name], **RECORDS_ONLY[name]}
    run_notebook(name, params, tmp_path / "reports")
    files = sorted((tmp_path / "d" / "records").rglob("*.jsonl"))
    games = {f: len(f.read_text().splitlines()) for f in files}
    run_notebook(name, {**params, "repetitions": 3}, tmp_path / "reports")
    assert sorted((tmp_path / "d" / "records").rglob("*.jsonl")) == files
    for f in files:
        numbers = [json.loads(line)["game"] for line in f.read_text().splitlines()]
        assert sorted(numbers) == list(range(3 * games[f])), f


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("05_time_budgets", {"algorithms": ["minimax"]}, "unknown algorithm 'minimax'; valid"),
        ("08_search_efficiency", {"algorithms": ["alphabeta"]}, "two-player games only"),
        ("04_thesis_tables", {"source": "dreams"}, "unknown source 'dreams'; valid values: legacy"),
        ("05_time_budgets", {"flavour": "fast"}, "unknown flavour 'fast'"),
        ("05_time_budgets", {"repetitions": [4, 2]}, "a list of one for each of the 3 budgets"),
        ("06_two_player_search", {"settings": ["warp"]}, "unknown setting 'warp'"),
        ("06_two_player_search", {"game": "chameleon"}, "not a two-player zero-sum game"),
        ("10_tuning", {"low": [0, 5, 0], "high": [20, 2, 10]}, "low=5 > high=2"),
        ("10_tuning", {"features": ["roles", "discs"]}, "chameleon has no feature 'discs'"),
        ("10_tuning", {"method": "annealing"}, "unknown method 'annealing'; valid values: spsa"),
        ("10_tuning", {"players": [3, 5]}, r"players must be a whole number 2\.\.4 for chameleon"),
        ("10_tuning", {"players": [3, 3]}, "players must be distinct player counts"),
        ("13_self_learning", {"learn": ["go"]}, "unknown game 'go' to learn; valid values"),
        (
            "13_self_learning",
            {"learn": ["chameleon"], "chameleon": {"players": [3, 5]}},
            r"players must be a whole number 2\.\.4 for chameleon, got 5",
        ),
        ("13_self_learning", {"connect4": {"kings": 1}}, "connect4's setting has no kings"),
        ("13_self_learning", {"net_hidden": 0}, "hidden must be a whole number >= 1"),
        ("10_tuning", {"spsa_c": 0.9}, r"c must be a number in \(0, 0.5\]"),
        ("11_hypermax", {"tables": ["6.10"]}, "unknown table '6.10'; valid values: 6.8, 6.9, 6.11"),
        ("12_the_papers_games", {"games": ["go"]}, "unknown game 'go'; valid values: rolit"),
        ("12_the_papers_games", {"chinesecheckers": {"size": 5}}, "size"),
        ("12_the_papers_games", {"max_blocks": 1}, "max_blocks"),
    ],
)
def test_bad_parameters_stop_at_the_check_cell(name, params, message, tmp_path):
    with pytest.raises(BadParameters, match=message) as info:
        run_notebook(
            name,
            {"figures_dir": str(tmp_path), "data_dir": str(tmp_path), **params},
            tmp_path / "reports",
        )
    # the check cell right after the parameters raised: bad input, not a failed run
    assert str(info.value).startswith(f"notebook {name} refused its parameters: ")
    assert isinstance(info.value, NotebookFailed) and isinstance(info.value, ValueError)


def test_the_thesis_four_of_the_profiles_are_the_thesis_flavours_searches():
    from chameleon_lab.search.registry import algorithm_names
    from chameleon_lab.workbench import THESIS_FOUR, check_algorithms

    assert list(algorithm_names(flavour="thesis")) == THESIS_FOUR
    assert check_algorithms(["maxn", "brs"]) == ["maxn", "brs"]
    for bad, message in (([], "non-empty list"), ("maxn", "non-empty list"), (["dfpn"], "two")):
        with pytest.raises(ValueError, match=message):
            check_algorithms(bad)


def test_the_python_api_refuses_parameters_a_notebook_does_not_declare(tmp_path):
    # papermill injects an unknown name as a new variable with a warning, and the
    # notebook runs with the default of the parameter that was meant
    with pytest.raises(ValueError, match=r"01_game has no parameter 'agent_dpeth' \(did you "
                       r"mean 'agent_depth'\?\); its parameters: .*agent_depth"):  # fmt: skip
        folders = {"figures_dir": str(tmp_path / "f"), "data_dir": str(tmp_path / "d")}
        run_notebook("01_game", {**folders, "agent_dpeth": 1}, tmp_path / "reports")
    with pytest.raises(ValueError, match=r"no parameter 'budget_ms' \(did you mean 'budgets_ms'"):
        run_batch(only=["05_time_budgets"], settings={"budget_ms": [10]}, progress=False,
                  reports=tmp_path / "r", figures=tmp_path / "f", data=tmp_path / "d")  # fmt: skip
    assert not (tmp_path / "reports").exists() and not (tmp_path / "r").exists()


def test_the_batch_refuses_unknown_profiles_and_notebooks(capsys):
    from chameleon_lab.cli import main

    assert main(["notebooks", "run", "--profile", "huge", "--quiet"]) == 2
    assert "unknown profile 'huge'; valid values: quick, full, research" in capsys.readouterr().err
    assert main(["notebooks", "run", "--profile", "research", "--only", "01_game"]) == 2
    assert (
        "the research profile has no notebook 01_game; its notebooks: 04_thesis_tables, "
        "05_time_budgets, 09_beyond_the_thesis, 10_tuning, 11_hypermax, 12_the_papers_games, "
        "13_self_learning"
    ) in capsys.readouterr().err
    assert main(["notebooks", "run", "--only", "99_nothing", "--quiet"]) == 2
    assert (
        "unknown notebook '99_nothing'; valid values: 00_explore_heuristics, 01_game"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--set", "repetitions=2"], "--set sets parameters of one notebook: name it with --only"),
        (["--only", "05_time_budgets", "--set", "nope=1"],
         "05_time_budgets has no parameter 'nope'; its parameters: flavour, algorithms, "
         "budgets_ms, repetitions"),
        (["--only", "05_time_budgets", "--set", "repetition=1"],
         "05_time_budgets has no parameter 'repetition' (did you mean 'repetitions'?)"),
        (["--only", "05_time_budgets", "--set", "budgets_ms=10,100"],
         "budgets_ms takes a JSON value like its default [5, 20, 80]"),
        (["--only", "05_time_budgets", "--set", "flavour"], "expected NAME=VALUE"),
        (["--only", "05_time_budgets", "--set", "data_dir=x"], "sets data_dir; use --data"),
        (["--only", "01_game", "--set", "agent_depth=1", "--set", "agent_depth=2"], "given twice"),
    ],
)  # fmt: skip
def test_the_batch_refuses_parameters_it_cannot_set(argv, message, capsys):
    from chameleon_lab.cli import main

    assert main(["notebooks", "run", "--quiet", *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("elo0=60", "elo0 (the gap of H0) must be below elo1"),
        ("alpha=0.7", "alpha=0.7 is not a number strictly inside (0, 0.5)"),
        ("players=[3, 5]", "players must be a whole number 2..4 for chameleon"),
    ],
)
def test_a_value_the_notebook_refuses_exits_2_and_logs_no_research_run(
    setting, message, tmp_path, capsys
):
    """A value the notebook's check cell refuses (here the SPRT's bounds and a player
    count) is bad input: exit 2 with the notebook's own message, and a research run is
    neither logged nor its page written (nothing was played)."""
    from chameleon_lab.cli import main

    argv = ["notebooks", "run", "--profile", "research", "--only", "10_tuning", "--quiet",
            "--set", setting]  # fmt: skip
    for what in ("reports", "figures", "data"):
        argv += [f"--{what}", str(tmp_path / "research" / what)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "notebook 10_tuning refused its parameters" in err and message in err
    assert "Traceback" not in err
    assert not (tmp_path / "research" / "runs.json").exists()
    assert not (tmp_path / "research" / "README.md").exists()


@pytest.mark.slow
def test_the_batch_sets_one_notebooks_parameters_and_records_them(tmp_path):
    from chameleon_lab.cli import main

    folders = {w: tmp_path / w for w in ("reports", "figures", "data")}
    argv = ["notebooks", "run", "--only", "01_game", "--set", "agent_depth=1", "--quiet"]
    for what, folder in folders.items():
        argv += [f"--{what}", str(folder)]
    assert main(argv) == 0
    assert _injected(folders["reports"] / "01_game.ipynb")["agent_depth"] == 1  # not quick's 2
    book = json.loads((folders["figures"] / "PROVENANCE.json").read_text())
    assert book and all(e["parameters"]["agent_depth"] == 1 for e in book.values())


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("01_game", {"agent_depth": 1}),
        ("04_thesis_tables", {"source": "legacy", "tables": ["6.3"], "depths": [1]}),
    ],
)
def test_without_the_reference_data_notebooks_say_so_and_run_fresh(name, params, tmp_path):
    """As for a new user without ../shared (shared="none" hides it)."""
    params = {
        "figures_dir": str(tmp_path / "f"),
        "data_dir": str(tmp_path / "d"),
        "shared": "none",
        **params,
    }
    report = json.loads(run_notebook(name, params, tmp_path / "reports").read_text())
    text = json.dumps([c.get("outputs", []) for c in report["cells"]])
    assert "The reference data is not used" in text
    if name == "01_game":
        assert "a fresh MaxN self-play game" in text
    else:
        assert "playing afresh (thesis flavour)" in text
        assert (tmp_path / "d" / "thesis_sessions_thesis.csv").exists()


@pytest.mark.slow
def test_the_bundled_reference_data_gives_the_thesis_tables_and_says_so(tmp_path, monkeypatch):
    """A copy without ../shared: the bundled data stands in, beside the thesis's numbers;
    a table played at another budget than the thesis's says so."""
    from chameleon_lab.thesis.bundle import bundled_shared

    monkeypatch.setenv("CHAMELEON_CACHE", str(tmp_path / "cache"))
    params = {
        "figures_dir": str(tmp_path / "f"),
        "data_dir": str(tmp_path / "d"),
        "shared": str(bundled_shared()),
        "source": "legacy",
        "tables": ["6.4", "6.3"],
        "depths": [1, 2, 3, 4],  # the thesis's depths: no note
        "budgets_ms": [10],  # not all of the thesis's budgets: a note
        "improved_beside": False,  # else it plays the improved sessions afresh
    }
    report = json.loads(run_notebook("04_thesis_tables", params, tmp_path / "r").read_text())
    text = json.dumps([c.get("outputs", []) for c in report["cells"]])
    assert "Reference data: the copy bundled with chameleon_lab" in text
    assert "Table 6.4 runs at budgets 10 ms, the thesis at 10 ms, 100 ms, 1000 ms" in text
    assert "Table 6.3 runs" not in text
    assert "recorded time-mode moves identical" in text  # the bundled 2-paranoid-t10
    with (tmp_path / "d" / "table_6_3_legacy.csv").open() as f:
        rows = list(csv.DictReader(f))
    # the legacy sessions are the thesis's own games: our counts are the thesis's
    assert rows and all(int(r["games"]) == int(r["thesis_games"]) for r in rows)
    assert all(int(r["wins"]) == int(r["thesis_wins"]) for r in rows)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "params", "expected"),
    [
        ("01_game", {"agent_depth": 2, "game": "tictactoe"}, "TicTacToe: players X, O"),
        (
            "01_game",
            {"agent_depth": 1, "game": "gomoku", "game_params": {"width": 5, "height": 4}},
            "perft 1..3: [20, 380, 6840]",
        ),
        (
            "03_complexity",
            {"game": "nim", "game_params": {"heaps": [2, 3]}, **TINY["03_complexity"]},
            "complexity_nim",
        ),
        ("03_complexity", {"game": "dice", **TINY["03_complexity"]}, "complexity_perft_dice"),
    ],
)
def test_notebooks_01_and_03_take_any_game(name, params, expected, tmp_path):
    params = {"figures_dir": str(tmp_path / "f"), "data_dir": str(tmp_path / "d"), **params}
    if name == "03_complexity":
        params["players"] = None  # the game's own player count
    report = json.loads(run_notebook(name, params, tmp_path / "reports").read_text())
    text = json.dumps([c.get("outputs", []) for c in report["cells"]])
    if name == "01_game":
        assert expected in text and "<svg" in text
    else:
        rows = list(csv.reader((tmp_path / "d" / f"{expected}.csv").open()))
        assert len(rows) >= 2


def test_notebooks_refuse_unknown_games(tmp_path):
    with pytest.raises(NotebookFailed, match="unknown game 'go'; valid games: chameleon"):
        run_notebook(
            "03_complexity",
            {"figures_dir": str(tmp_path), "data_dir": str(tmp_path), "game": "go"},
            tmp_path / "reports",
        )


def _documented_papermill_script(reports: Path) -> list[str]:
    """The docs' papermill example (docs/notebooks.md, the bash block that runs it), one
    command a line, with its ``reports`` folder moved to ``reports`` (a folder that does
    not exist)."""
    page = (ROOT / "docs" / "notebooks.md").read_text()
    blocks = re.findall(r"```bash\n(.*?)```", page, flags=re.S)
    block = next(b for b in blocks if "papermill " in b)
    lines = [line for line in block.replace("\\\n", " ").splitlines() if line.strip()]
    assert any(line.startswith(".venv/bin/papermill ") for line in lines), lines
    return [re.sub(r"(?<![\w/.])reports(?=/|\s|$)", str(reports), line) for line in lines]


def _injected(report: Path) -> dict:
    nb = json.loads(report.read_text())
    (cell,) = [c for c in nb["cells"] if "injected-parameters" in c["metadata"].get("tags", [])]
    values: dict = {}
    exec("".join(cell["source"]), {}, values)
    return values


def test_the_documented_papermill_command_passes_lists_as_lists(tmp_path):
    """The printed command itself (papermill's --prepare-only: parameters injected, the
    notebook not run); its reports folder does not exist before."""
    reports = tmp_path / "reports"
    lines = _documented_papermill_script(reports)
    script = "\n".join(line + " --prepare-only" if "papermill " in line else line for line in lines)
    done = subprocess.run(
        ["bash", "-e", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    values = _injected(reports / "budgets.ipynb")
    assert values == {"flavour": "thesis", "repetitions": 2, "budgets_ms": [10, 100]}
    assert check_numbers("budgets_ms", values["budgets_ms"]) == [10, 100]  # the check cell's


@pytest.mark.slow
def test_the_documented_papermill_command_runs_as_printed(tmp_path):
    """The printed command executed, with tiny parameters added after it (two algorithms,
    2 ms a move, one repetition; folders in tmp_path) to keep it fast."""
    reports, figures, data = tmp_path / "reports", tmp_path / "figures", tmp_path / "data"
    tiny = (
        f" -p figures_dir {figures} -p data_dir {data} -p workers 2 -p repetitions 1"
        " -y 'algorithms: [maxn, paranoid]' -y 'budgets_ms: [2]'"
    )
    lines = _documented_papermill_script(reports)
    script = "\n".join(line + tiny if "papermill " in line else line for line in lines)
    done = subprocess.run(
        ["bash", "-e", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert _injected(reports / "budgets.ipynb")["flavour"] == "thesis"
    assert (figures / "budget_win_rate_thesis.png").read_bytes()[:4] == b"\x89PNG"
    rows = list(csv.reader((data / "budget_win_rates_thesis.csv").open()))
    assert len(rows) >= 2
    names = sorted(p.name for p in (data / "records" / "budgets").glob("*.jsonl"))
    assert [re.sub(r"-[0-9a-f]{16}\.jsonl$", "", n) for n in names] == [
        "budget-thesis-2ms",
    ], names  # each session's records file is named by its name and fingerprint


def test_relative_folders_are_taken_in_the_project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # not the project: its own folders do not count
    assert project_root() == ROOT
    assert project_path("figures") == ROOT / "figures"
    assert project_path(Path("data") / "records") == ROOT / "data" / "records"
    assert project_path(tmp_path / "elsewhere") == tmp_path / "elsewhere"
    with pytest.raises(ValueError, match="must not be empty"):
        project_path("")
    for name in NOTEBOOKS:  # every notebook resolves its folders so, by default the project's
        nb = json.loads((notebook_dir() / f"{name}.ipynb").read_text())
        code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
        params = next(
            "".join(c["source"])
            for c in nb["cells"]
            if "parameters" in c.get("metadata", {}).get("tags", [])
        )
        assert params.startswith('figures_dir = "figures"') and '\ndata_dir = "data"' in params
        check = next(c for c in code if c.startswith("# Check the parameters"))
        assert "FIGURES, DATA = project_path(figures_dir), project_path(data_dir)" in check


@pytest.mark.slow
def test_relative_folders_mean_the_projects_whatever_the_kernels_folder(tmp_path):
    """papermill's command line with the kernel in another folder, and run_notebook from
    another working directory: relative folders land in the project."""
    scratch = Path("reports") / f"test-folders-{uuid.uuid4().hex[:8]}"  # reports/: ignored
    had_reports = (ROOT / "reports").exists()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    try:
        cmd = [PAPERMILL, str(notebook_dir() / "02_trees.ipynb"), str(tmp_path / "out.ipynb")]
        cmd += ["--cwd", str(elsewhere), "-p", "figures_dir", str(scratch / "cli" / "f")]
        cmd += ["-p", "data_dir", str(scratch / "cli" / "d")]
        done = subprocess.run(cmd, cwd=elsewhere, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        assert (ROOT / scratch / "cli" / "f" / "tree_figure_4_6.png").exists()
        assert (ROOT / scratch / "cli" / "d" / "tree_examples.csv").exists()
        assert list(elsewhere.iterdir()) == []
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                "from chameleon_lab.batch import run_notebook; "
                f"run_notebook('02_trees', {{'figures_dir': '{scratch}/api/f', "
                f"'data_dir': '{scratch}/api/d'}}, '{scratch}/api/reports')",
            ],
            cwd=elsewhere,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        assert (ROOT / scratch / "api" / "f" / "tree_figure_4_6.png").exists()
        assert (ROOT / scratch / "api" / "reports" / "02_trees.ipynb").exists()
        assert list(elsewhere.iterdir()) == []
    finally:
        shutil.rmtree(ROOT / scratch, ignore_errors=True)
        if (
            not had_reports
            and (ROOT / "reports").exists()
            and not any((ROOT / "reports").iterdir())
        ):
            (ROOT / "reports").rmdir()


@pytest.mark.parametrize("profile", ["quick", "full", "research"])
def test_the_two_player_blocks_of_every_profile_exist(profile):
    """Each block is a distinct opening: a profile asking for more blocks than a game
    has openings stops its notebook (as the first research run of 09 did, asking
    Othello for 16 of its 12 two-ply openings)."""
    from chameleon_lab.analysis.beyond import two_player_study
    from chameleon_lab.tournament.designs import count_openings

    params = {**notebook_parameters("09_beyond_the_thesis"), **PROFILES[profile].get(
        "09_beyond_the_thesis", {})}  # fmt: skip
    plies = inspect.signature(two_player_study).parameters["opening_plies"].default
    for game in params["two_player_games"]:
        available = count_openings(get_game(game).start(), plies)
        assert params["two_player_blocks"] <= available, (game, available)


def test_a_batch_reads_back_only_records_its_own_sources_played(tmp_path, monkeypatch):
    """Records (cached models, duels) of other package sources are emptied before a quick
    or full batch reads them; records of these sources stay (an interrupted run
    resumes); packed research records are refused, never removed."""
    from chameleon_lab import batch, source_code

    records = tmp_path / "records"
    (records / "learning").mkdir(parents=True)
    (records / "learning" / "valuenet-old.npz").write_bytes(b"older code's net")
    batch.records_of_these_sources(records)  # no stamp: whose they are is unknown
    assert [p.name for p in records.rglob("*")] == [batch.SOURCES_STAMP]
    played = records / "duel.jsonl"
    played.write_text("{}\n")
    batch.records_of_these_sources(records)
    assert played.exists()  # the same sources: resumed
    monkeypatch.setattr(source_code, "code_fingerprint", lambda: "0" * 16)  # an edit
    batch.records_of_these_sources(records)
    assert not played.exists() and (records / batch.SOURCES_STAMP).read_text() == "0" * 16 + "\n"
    packed = records / "beyond" / "ladder.jsonl.xz"
    packed.parent.mkdir()
    packed.write_bytes(b"research")
    monkeypatch.setattr(source_code, "code_fingerprint", lambda: "1" * 16)
    with pytest.raises(ValueError, match="packed research records"):
        batch.records_of_these_sources(records)
    assert packed.exists()
