"""Every notebook runs under papermill with tiny parameters and writes what it promises."""

from __future__ import annotations

import csv
import json

import pytest

from chameleon_lab.workbench import NOTEBOOKS, NotebookFailed, notebook_dir, run_notebook

TINY = {
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
    },
    "05_time_budgets": {"algorithms": ["maxn", "paranoid"], "budgets_ms": [2, 4]},
}
PROMISED = {
    "01_game": (["game_start_positions", "game_roles", "game_shrinking_board"], []),
    "02_trees": ([f"tree_figure_4_{i}" for i in range(1, 7)], ["tree_examples"]),
    "03_complexity": (
        ["complexity_distributions"],
        ["complexity_games", "complexity_table_3_1", "complexity_perft"],
    ),
    "04_thesis_tables": ([], ["thesis_sessions_thesis"]),
    "05_time_budgets": (
        ["budget_win_rate_improved", "budget_depths_improved", "budget_depths_by_phase_improved"],
        ["budget_win_rates_improved", "budget_depths_improved"],
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


@pytest.mark.slow
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs_and_writes_its_files(name, tmp_path):
    figures, data = tmp_path / "figures", tmp_path / "data"
    params = {"figures_dir": str(figures), "data_dir": str(data), "workers": 2, **TINY[name]}
    report = run_notebook(name, params, tmp_path / "reports")
    assert json.loads(report.read_text())["cells"]
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


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("05_time_budgets", {"algorithms": ["minimax"]}, "unknown algorithm 'minimax'; valid"),
        ("04_thesis_tables", {"source": "dreams"}, "unknown source 'dreams'; valid values: legacy"),
        ("05_time_budgets", {"flavour": "fast"}, "unknown flavour 'fast'"),
    ],
)
def test_bad_parameters_stop_at_the_check_cell(name, params, message, tmp_path):
    with pytest.raises(NotebookFailed, match=message) as info:
        run_notebook(
            name,
            {"figures_dir": str(tmp_path), "data_dir": str(tmp_path), **params},
            tmp_path / "reports",
        )
    # cell 2 is papermill's injected parameters; cell 3 the check right after them
    assert f"notebook {name} failed in cell 3 (`# Check the parameters" in str(info.value)


def test_the_batch_refuses_unknown_profiles_and_notebooks(capsys):
    from chameleon_lab.cli import main

    assert main(["notebooks", "run", "--profile", "huge", "--quiet"]) == 2
    assert "unknown profile 'huge'; valid values: quick, full" in capsys.readouterr().err
    assert main(["notebooks", "run", "--only", "99_nothing", "--quiet"]) == 2
    assert "unknown notebook '99_nothing'; valid values: 01_game" in capsys.readouterr().err


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
    assert "The reference data" in text and "is not here" in text
    if name == "01_game":
        assert "a fresh MaxN self-play game" in text
    else:
        assert "playing afresh (thesis flavour)" in text
        assert (tmp_path / "d" / "thesis_sessions_thesis.csv").exists()


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
