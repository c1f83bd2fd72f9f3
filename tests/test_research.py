"""The research results: packed records, the run log, the page, and the committed
tables recomputed from the committed records without playing a game."""

from __future__ import annotations

import json
import lzma
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from chameleon_lab.analysis.hypermax_answer import mended_verdicts
from chameleon_lab.analysis.research import (
    last_run,
    log_run,
    read_runs,
    recompute_beyond,
    recompute_budgets,
    recompute_learning,
    recompute_tuning,
    runs_table,
    write_page,
)
from chameleon_lab.batch import FOLDERS, run_batch
from chameleon_lab.thesis.research import recompute_hypermax, recompute_thesis
from chameleon_lab.tournament import (
    MissingGames,
    pack_records,
    records_only,
    run_session,
    unpack_records,
)

ROOT = Path(__file__).resolve().parents[1]
RESEARCH = ROOT / "research"
#: The deterministic columns of the tables (timings are not).
EXACT = {
    "beyond_verdicts": ["source", "text", "agent", "rival", "players", "budget_ms", "sprt",
                        "sprt_blocks", "blocks", "games", "verdict"],
    "beyond_ratings": ["players", "budget_ms", "agent", "games", "note"],
    "tuning_verdicts": ["source", "text", "agent", "rival", "players", "budget", "sprt",
                        "sprt_blocks", "blocks", "games", "verdict"],
    "tuning_noise": ["generation", "games"],
    "tuning_spsa_history": ["iteration"],
    "tuning_movement": ["feature", "found"],
    # on the original's clock (emulated: node counts) the times are deterministic too
    "thesis_sessions_thesis": ["session", "mode", "mode_value", "agent", "games", "wins",
                               "draws", "losses", "depth_median", "clock",
                               "clock_median_ms", "clock_max_ms", "over_budget",
                               "max_overshoot_ms"],
    "hypermax_mended_sessions": ["session", "agent", "plain_games", "plain_wins",
                                 "plain_depth_median", "plain_clock_median_ms",
                                 "plain_clock_max_ms", "plain_max_overshoot_ms", "mended_games",
                                 "mended_wins", "mended_depth_median", "mended_clock_median_ms",
                                 "mended_clock_max_ms", "mended_max_overshoot_ms",
                                 "thesis_games", "thesis_wins"],
    "hypermax_mended_blocks": ["session", "repetition", "plain_games", "plain_wins",
                               "mended_games", "mended_wins"],
    "budget_win_rates_improved": ["budget_ms", "agent", "games", "wins", "draws", "losses"],
    "budget_verdicts_improved": ["source", "text", "agent", "rival", "players", "budget_ms",
                                 "sprt", "sprt_blocks", "blocks", "games", "verdict"],
    "learning_curve": ["games", "heuristic"],
    "learning_net_curve": ["setting", "epoch", "positions", "holdout_positions", "kept"],
    "learning_accuracy": ["heuristic", "won", "drawn", "lost"],
    "learning_accuracy_versus": ["figure", "heuristic", "baseline", "verdict"],
    "learning_verdicts": ["source", "text", "agent", "rival", "players", "budget", "sprt",
                          "sprt_blocks", "blocks", "games", "verdict"],
    "learning_strength": ["setting", "games", "checkpoint", "heuristic", "opponent", "blocks",
                          "played"],
    "learning_net_strength": ["setting", "games", "trained_on", "heuristic", "opponent",
                              "blocks", "played"],
    "papers_findings": ["game", "source", "text", "found", "players", "budget", "verdict",
                        "ours", "sprt", "blocks", "games"],
}  # fmt: skip
CLOSE = {
    "beyond_verdicts": ["elo", "elo_low", "elo_high", "p_value", "p_holm", "detectable_elo"],
    "beyond_ratings": ["elo", "ci_low", "ci_high", "rank_prob_best"],
    "tuning_verdicts": ["elo", "elo_low", "elo_high", "p_value", "p_holm", "detectable_elo"],
    "tuning_noise": ["spread", "noise", "signal", "games_needed"],
    "tuning_spsa_history": ["score", "a", "c", "roles", "mobility", "centre", "grad_roles",
                            "grad_mobility", "grad_centre"],
    "tuning_movement": ["start", "tuned", "moved", "noise", "p", "p_holm"],
    "thesis_sessions_thesis": ["depth_avg"],
    "hypermax_mended_sessions": ["plain_ci_low", "mended_ci_high", "p_exact"],
    "hypermax_mended_blocks": [],
    "budget_win_rates_improved": ["win_rate", "ci_low", "ci_high"],
    "budget_verdicts_improved": ["elo", "elo_low", "elo_high", "p_value", "p_holm",
                                 "detectable_elo"],
    "learning_curve": ["mean_result", "stones", "pairs", "triples"],
    "learning_net_curve": ["train_mse", "holdout_mse", "holdout_constant_mse"],
    "learning_accuracy": ["won_over_lost", "won_over_lost_low", "won_over_lost_high",
                          "spearman", "spearman_low", "spearman_high"],
    "learning_accuracy_versus": ["difference", "low", "high", "level"],
    "learning_verdicts": ["elo", "elo_low", "elo_high", "p_value", "p_holm", "detectable_elo"],
    "learning_strength": ["elo", "elo_low", "elo_high"],
    "learning_net_strength": ["holdout_mse", "elo", "elo_low", "elo_high"],
    "papers_findings": ["elo", "elo_low", "elo_high", "p_holm", "p_level_holm", "detectable_elo",
                        "play_seconds"],
}  # fmt: skip


def assert_same_tables(committed: pd.DataFrame, computed: pd.DataFrame, name: str) -> None:
    assert len(committed) == len(computed), name
    for col in EXACT[name]:
        a = ["" if pd.isna(v) else str(v) for v in committed[col]]
        b = ["" if pd.isna(v) else str(v) for v in computed[col]]
        assert a == b, (name, col)
    for col in CLOSE[name]:
        np.testing.assert_allclose(
            committed[col].to_numpy(float), computed[col].to_numpy(float), rtol=1e-9,
            atol=1e-9, err_msg=f"{name}.{col}",
        )  # fmt: skip


def test_the_quick_batch_never_writes_the_research_folder():
    for profile in ("quick", "full"):
        assert not any(Path(f).parts[0] == "research" for f in FOLDERS[profile])
    assert all(Path(f).parts[0] == "research" for f in FOLDERS["research"])


def test_the_page_shows_the_verdicts_and_what_each_run_cost(tmp_path):
    verdicts = pd.DataFrame(
        {
            "source": ["Paper A", "Paper B"],
            "text": ["X is stronger than Y", "Z is stronger than Y"],
            "agent": ["x", "z"],
            "rival": ["y", "y"],
            "players": [3, 4],
            "budget_ms": [10.0, 30.0],
            "sprt": ["H1", "continue"],
            "sprt_blocks": [40, 200],
            "blocks": [40, 200],
            "games": [240, 2800],
            "agent_median_ms": [10.4, 30.2],
            "rival_median_ms": [10.1, 30.9],
            "agent_max_ms": [22.0, 31.5],
            "rival_max_ms": [15.25, 44.0],
            "agent_max_overshoot_ms": [12.0, 1.5],
            "rival_max_overshoot_ms": [5.25, 14.0],
            "elo": [61.2, -3.4],
            "elo_low": [30.6, -20.0],
            "elo_high": [95.0, 13.1],
            "p_value": [0.0001, 0.7],
            "detectable_elo": [22.0, 31.4],
            "p_holm": [0.0002, 0.7],
            "verdict": ["supported", "open"],
        }
    )
    (tmp_path / "data").mkdir()
    verdicts.to_csv(tmp_path / "data" / "beyond_verdicts.csv", index=False)
    log_run(tmp_path, "09_beyond_the_thesis", {"max_blocks": 200, "workers": 2}, 5400.0)
    page = write_page(tmp_path).read_text()
    assert "2 duels (claim, player count, budget): 1 supported, 0 contradicted, 1 open" in page
    assert "| Paper A  | X is stronger than Y | 3         | 10 ms    | supported |" in page
    assert "+61 [+31, +95]" in page and "H1 at 40" in page
    assert "10.4 / 22.0; 10.1 / 15.2" in page and "| 12.0; 5.2 " in page and "| 1.5; 14.0 " in page
    assert (
        "| 09_beyond_the_thesis |" in page
        and "| 2 / " in page
        and "| 1.50 " in page
        and "| yes " in page
    )
    assert "max_blocks=200" in page and "workers=" not in page.split("cost")[-1]
    (run,) = read_runs(tmp_path)
    assert run["seconds"] == 5400.0 and not run["interrupted"]
    with pytest.raises(ValueError, match="logs no complete run of 11_hypermax"):
        last_run(tmp_path, "11_hypermax")


def test_the_run_table_says_whose_records_were_withdrawn(tmp_path):
    # runs.json is the log; a run whose records were deleted by hand says why
    log_run(tmp_path, "12_the_papers_games", {"workers": 2}, 60.0, interrupted=True)
    log_run(tmp_path, "12_the_papers_games", {"workers": 2}, 90.0)
    runs = read_runs(tmp_path)
    runs[0]["withdrawn"] = "played beside another process"
    (tmp_path / "runs.json").write_text(json.dumps(runs))
    table = runs_table(read_runs(tmp_path))
    assert list(table["records"]) == ["withdrawn: played beside another process", "kept"]
    # a run that logged the machine's load shows it; older runs have none to show
    log_run(tmp_path, "12_the_papers_games", {"workers": 2}, 30.0,
            load={"mean": 2.345, "max": 3.9, "samples": 7, "every_s": 30.0})  # fmt: skip
    table = runs_table(read_runs(tmp_path))
    assert list(table["load mean / max"]) == ["", "", "2.3 / 3.9"]


def test_the_page_shows_the_mended_hypermaxs_sessions_tested(tmp_path):
    """Notebook 11's section: the paired block test per session (the same two sessions
    as test_hypermax_answer's: the mended one ahead in every block of "a", the two
    alternating by one game in "b")."""
    rows = []
    for r in range(8):
        rows.append(("4-all-t10", r, 24, 2, 24, 12))
        rows.append(("4-all-t100", r, 24, 6 + r % 2, 24, 7 - r % 2))
    columns = ["session", "repetition", "plain_games", "plain_wins", "mended_games",
               "mended_wins"]  # fmt: skip
    (tmp_path / "data").mkdir()
    pd.DataFrame(rows, columns=columns).to_csv(
        tmp_path / "data" / "hypermax_mended_blocks.csv", index=False
    )
    page = write_page(tmp_path).read_text()
    assert "## Notebook 11" in page
    first = next(line for line in page.splitlines() if line.startswith("| 4-all-t10 "))
    assert "| 8 " in first and "| 16 / 192 " in first and "| 96 / 192 " in first
    assert "| +41.7 (+41.7 to +41.7) " in first
    assert "more wins with the mended one" in first and "| 0.0156 " in first
    second = next(line for line in page.splitlines() if line.startswith("| 4-all-t100 "))
    assert "no difference detected" in second and "| equivalent " in second
    assert "| 5 " in second  # 80 % power from 5 points (see test_hypermax_answer)
    assert "median depth" not in page  # no session table beside the blocks: no depths
    beside = pd.DataFrame(
        {"session": ["4-all-t10", "4-all-t100"], "agent": ["Hypermax"] * 2,
         "plain_depth_median": [2.0, 4.0], "mended_depth_median": [2.5, 4.0],
         "plain_clock_median_ms": [11.0, 104.0], "mended_clock_median_ms": [12.0, 103.0],
         "plain_clock_max_ms": [41.0, 160.0], "mended_clock_max_ms": [38.0, 170.0],
         "plain_max_overshoot_ms": [31.0, 60.0], "mended_max_overshoot_ms": [28.0, 70.0]}
    )  # fmt: skip
    beside.to_csv(tmp_path / "data" / "hypermax_mended_sessions.csv", index=False)
    lines = write_page(tmp_path).read_text().splitlines()
    header = next(line for line in lines if line.startswith("| session "))
    assert "largest ms a move (plain / mended)" in header
    first = next(line for line in lines if line.startswith("| 4-all-t10 "))
    assert "| 2 / 2.5 " in first and "| 11 / 12 " in first and "| 41 / 38 " in first
    assert "| 31 / 28 " in first


def test_the_page_names_notebook_04s_sessions_whose_games_repeat(tmp_path):
    cells = pd.DataFrame(
        {"table": ["6.8", "6.8", "6.8"], "session": ["4-all-t10", "4-all-t10", "4-all-t100"],
         "agent": ["MaxN", "Paranoid", "MaxN"], "games": [24, 24, 24],
         "equivalence": ["equivalent", "undecided", "differs"],
         "distinct_games": [20, 20, 24]}
    )  # fmt: skip
    (tmp_path / "data").mkdir()
    cells.to_csv(tmp_path / "data" / "table_6_8_thesis.csv", index=False)
    page = write_page(tmp_path).read_text()
    assert "## Notebook 04" in page
    assert "in 1 of 2 sessions (distinct games: 4-all-t10 20 of 24)" in page
    assert "count each copy as an independent game" in page  # no effective_games here
    cells.assign(effective_games=[20, 20, 24]).to_csv(
        tmp_path / "data" / "table_6_8_thesis.csv", index=False
    )
    assert "count only that share of the games" in write_page(tmp_path).read_text()


def test_the_page_shows_what_notebook_04s_agents_spent_on_the_emulated_clock(tmp_path):
    """Per budget and agent over the time-mode sessions: the median of the sessions'
    medians, the largest move and overshoot; depth-mode sessions left out."""
    rows = pd.DataFrame(
        {"session": ["4-all-t10", "1-all-t10", "4-all-t10", "1-all-d2"],
         "mode": ["time", "time", "time", "depth"], "mode_value": [10, 10, 10, 2],
         "agent": ["MaxN", "MaxN", "Paranoid", "MaxN"], "clock": ["original"] * 4,
         "clock_median_ms": [11.0, 13.0, 12.0, 1.0], "clock_max_ms": [45.0, 30.0, 76.0, 99.0],
         "over_budget": [0.7, 0.5, 0.6, None], "max_overshoot_ms": [35.0, 20.0, 66.0, None]}
    )  # fmt: skip
    (tmp_path / "data").mkdir()
    rows.to_csv(tmp_path / "data" / "thesis_sessions_thesis.csv", index=False)
    cells = pd.DataFrame({"table": ["6.8"], "session": ["4-all-t10"], "agent": ["MaxN"],
                          "games": [24], "equivalence": ["equivalent"]})  # fmt: skip
    cells.to_csv(tmp_path / "data" / "table_6_8_thesis.csv", index=False)
    lines = write_page(tmp_path).read_text().splitlines()
    assert "### Time a move on the clock of the budget" in lines
    shown = [line for line in lines if line.startswith("| original ")]
    assert len(shown) == 2  # MaxN and Paranoid at 10 ms; the depth session is not there
    assert [c.strip() for c in shown[0].split("|")[2:9]] == [
        "10",
        "MaxN",
        "2",
        "12",
        "45",
        "0.60",
        "35",
    ]


#: A research run small enough for the tests: three agents, two claims, two blocks.
TINY = {
    "agents": ["maxnis", "paranoid", "brs"],
    "players": [3],
    "budgets_ms": [10],
    "blocks": 2,
    "claim_players": [3],
    "claim_budgets_ms": [10],
    "max_blocks": 2,
    "batch": 2,
    "two_player_games": ["tictactoe"],
    "two_player_budgets_ms": [10],
    "two_player_blocks": 1,
}


@pytest.mark.slow
def test_a_research_run_packs_logs_and_is_recomputed_from_its_records(tmp_path, monkeypatch):
    from chameleon_lab import batch

    # the commit a run logs is the one checked out when it started (read once, before
    # the notebook runs), not the one checked out when it ends hours later
    monkeypatch.setattr(batch, "commit", lambda: "c0ffee000000")
    research = tmp_path / "research"
    data = research / "data"
    run_batch(
        "research",
        ["09_beyond_the_thesis"],
        reports=research / "reports",
        figures=research / "figures",
        data=data,
        workers=1,
        progress=False,
        settings=TINY,
    )
    records = data / "records"
    packed = sorted(p.name for p in records.rglob("*.jsonl.xz"))
    assert len(packed) == 4  # the ladder, two duels, tictactoe
    run = last_run(research, "09_beyond_the_thesis")
    assert run["commit"] == "c0ffee000000"
    assert run["load"]["samples"] >= 2 and run["load"]["max"] >= run["load"]["mean"] >= 0
    assert run["parameters"]["agents"] == TINY["agents"] and run["parameters"]["elo1"] == 50.0
    assert "## Notebook 09" in (research / "README.md").read_text()
    for path in records.rglob("*.jsonl"):  # what a fresh clone has: the packed copies
        path.unlink()
    assert len(unpack_records(records)) == 4
    tables = recompute_beyond(run["parameters"], records / "beyond")
    for name, computed in tables.items():
        assert_same_tables(pd.read_csv(data / f"{name}.csv"), computed, name)
    with pytest.raises(MissingGames, match=r"12 of the 24 games of session 'duel-brs-maxnis"):
        recompute_beyond({**run["parameters"], "max_blocks": 4}, records / "beyond")


def test_records_only_refuses_to_play_and_leaves_runs_alone_outside(tmp_path):
    from test_tournament import tiny_session

    session = tiny_session(design="fixed", seatings=["mx,pa,_,_", "pa,mx,_,_"])
    out = tmp_path / "r.jsonl"
    with records_only(), pytest.raises(MissingGames, match="2 of the 2 games"):
        run_session(session, out, workers=1, progress=False)
    assert run_session(session, out, workers=1, progress=False).played == 2
    with records_only():
        assert run_session(session, out, workers=1, progress=False).skipped == 2


def committed_records(folder: str, into: Path) -> Path:
    """A copy of the committed (packed) research records of ``folder``, unpacked."""
    records = into / folder
    shutil.copytree(RESEARCH / "data" / "records" / folder, records)
    for path in records.glob("*.jsonl"):
        path.unlink()  # the packed copies are what is committed
    assert unpack_records(records)
    return records


def assert_committed_tables(tables: dict[str, pd.DataFrame]) -> None:
    for name, computed in tables.items():
        assert_same_tables(pd.read_csv(RESEARCH / "data" / f"{name}.csv"), computed, name)


def test_the_committed_research_results_are_what_their_records_give(tmp_path):
    """Item 7 of the experiments issue: the committed tables of the research run equal
    what the analysis computes from the committed records (no game is played)."""
    run = last_run(RESEARCH, "09_beyond_the_thesis")
    records = committed_records("beyond", tmp_path)
    assert_committed_tables(recompute_beyond(run["parameters"], records))
    book = json.loads((RESEARCH / "data" / "PROVENANCE.json").read_text())
    assert book["beyond_verdicts.csv"]["profile"] == "research"


def test_the_committed_tuning_verdicts_are_what_their_log_and_records_give(tmp_path):
    """Notebook 10's research run: the noise table and the verdicts recomputed from the
    committed tuning log and duel records, no game played."""
    run = last_run(RESEARCH, "10_tuning")
    records = committed_records("tuning", tmp_path)
    assert_committed_tables(recompute_tuning(run["parameters"], records))


def test_the_committed_thesis_sessions_are_what_their_records_give(tmp_path):
    """Notebook 04's research run: every session's results (games, wins, draws, losses,
    depths on the emulated clock) recomputed from the committed records."""
    run = last_run(RESEARCH, "04_thesis_tables")
    records = committed_records("thesis", tmp_path).parent  # the folder holding thesis/
    parameters = {**run["parameters"], "shared": ""}  # this checkout's, or the bundle
    assert_committed_tables(recompute_thesis(parameters, records))


def test_the_committed_hypermax_sessions_are_what_their_records_give(tmp_path):
    """Notebook 11's research run: the plain and the mended Hypermax's sessions, per
    session and per block, recomputed from the committed records (no game played),
    and the page's verdicts from them."""
    run = last_run(RESEARCH, "11_hypermax")
    records = committed_records("improved", tmp_path).parent  # the folder of improved/
    parameters = {**run["parameters"], "shared": ""}
    tables = recompute_hypermax(parameters, records)
    assert_committed_tables(tables)
    shown = mended_verdicts(pd.read_csv(RESEARCH / "data" / "hypermax_mended_blocks.csv"))
    verdicts = mended_verdicts(tables["hypermax_mended_blocks"])
    assert list(shown["verdict"]) == list(verdicts["verdict"])
    assert len(verdicts) == 9 and (verdicts["blocks"] == 32).all()


def test_the_committed_budget_tables_are_what_their_records_give(tmp_path):
    """Notebook 05's research run: the win rates and every pair's verdict at every
    budget recomputed from the committed records (no game played), and the page's
    section written from them."""
    run = last_run(RESEARCH, "05_time_budgets")
    records = committed_records("budgets", tmp_path).parent  # the folder of budgets/
    tables = recompute_budgets(run["parameters"], records)
    assert_committed_tables(tables)
    verdicts = tables["budget_verdicts_improved"]
    assert len(verdicts) == 6 * len(run["parameters"]["budgets_ms"])
    assert "## Notebook 05" in (RESEARCH / "README.md").read_text()


def test_the_committed_learning_tables_are_what_their_checkpoint_and_records_give(tmp_path):
    """Notebook 13's research run: the learning curve from the committed checkpoint,
    the accuracy tables from the positions solved again, the duel's verdict from its
    committed records (no game played), and the page's section from them."""
    run = last_run(RESEARCH, "13_self_learning")
    records = committed_records("learning", tmp_path).parent  # the folder of learning/
    tables = recompute_learning(run["parameters"], records)
    assert_committed_tables(tables)
    assert list(tables["learning_curve"]["games"])[-1] == run["parameters"]["games"]
    assert "## Notebook 13" in (RESEARCH / "README.md").read_text()


def test_the_page_counts_the_tuning_runs_noisy_generations_and_shows_its_duels(tmp_path):
    (tmp_path / "data").mkdir()
    noise = pd.DataFrame(
        {
            "generation": [0, 1, 2, 3],
            "games": [12, 12, 12, 12],
            "spread": [0.07, 0.0, 0.11, 0.2],
            "noise": [0.13, 0.12, 0.10, 0.11],
            "signal": [0.0, 0.0, 0.05, 0.16],
            "games_needed": [np.inf, np.inf, 40.0, 60.0],
        }
    )
    noise.to_csv(tmp_path / "data" / "tuning_noise.csv", index=False)
    verdicts = pd.DataFrame(
        {
            "source": ["tuning"],
            "text": ["the tuned heuristic is stronger than pawns100roles"],
            "agent": ["tuned"], "rival": ["pawns100roles"], "players": [3],
            "budget_ms": [np.nan], "budget": ["depth 2"], "sprt": ["H0"],
            "sprt_blocks": [21], "blocks": [24], "games": [144], "elo": [-58.4],
            "elo_low": [-117.7], "elo_high": [0.0], "p_value": [0.08],
            "detectable_elo": [94.7], "p_holm": [0.16], "verdict": ["open"],
        }
    )  # fmt: skip
    verdicts.to_csv(tmp_path / "data" / "tuning_verdicts.csv", index=False)
    page = write_page(tmp_path).read_text()
    # generations 0 and 2 had a spread the noise covers; 1 had none; 3's signal won
    assert "In 2 of 4 generations" in page
    assert "| depth 2  | open      | -58 [-118, +0] |" in page and "H0 at 21" in page


def test_notebook_12s_findings_are_recomputed_from_their_records_and_paged(tmp_path):
    """A small findings study on Focus, then its table recomputed from the records
    alone (no game played: a missing duel would raise), and the page's section."""
    from chameleon_lab.analysis.headtohead import DuelPlan
    from chameleon_lab.analysis.papers import findings_study, findings_table
    from chameleon_lab.analysis.research import recompute_papers
    from chameleon_lab.analysis.sequential import SPRT

    q = {"games": ["focus"], "players": [3], "budgets_ms": [2], "elo0": 0.0, "elo1": 50.0,
         "alpha": 0.05, "beta": 0.05, "batch": 2, "max_blocks": 2, "opening_plies": 2,
         "seed": 3, "margin_elo": 50.0, "focus": {"goal": "short", "turns": 12}}  # fmt: skip
    records = tmp_path / "data" / "records"
    t, verdicts = findings_study(
        q["games"], q["players"], q["budgets_ms"], records / "papers",
        game_params={"focus": q["focus"]}, opening_plies=2, seed=3,
        plan=DuelPlan(sprt=SPRT(elo0=0.0, elo1=50.0), batch=2, max_blocks=2, workers=1,
                      progress=False),
    )  # fmt: skip
    played = findings_table(verdicts, t)
    tables = recompute_papers(q, records)
    assert_same_tables(played, tables["papers_findings"], "papers_findings")
    assert len(played) == 5 and (played["games"] == 12).all()
    played.to_csv(tmp_path / "data" / "papers_findings.csv", index=False)
    page = write_page(tmp_path).read_text()
    assert "## Notebook 12: the papers' findings on their own games" in page
    assert f"{len(played)} duels (finding, game, player count, budget)" in page
    with pytest.raises(MissingGames):
        recompute_papers({**q, "max_blocks": 4}, records)
    _an_interrupted_runs_standing(q, records, played, tmp_path)


def _an_interrupted_runs_standing(q, records, played, tmp_path):
    """The same run read as an interrupted one planned to 4 blocks: each duel as far as
    its records go (2 blocks: the table it had), nothing played; a duel without records
    is left out; the batch writes the standing after an interrupted run and removes it
    after a finished one; the page shows it until a finished run's table exists."""
    from chameleon_lab.analysis.research import recompute_papers
    from chameleon_lab.batch import _write_interim

    longer = {**q, "max_blocks": 4}
    standing = recompute_papers(longer, records, interim=True)["papers_findings_interim"]
    assert_same_tables(played, standing, "papers_findings")
    first = next((records / "papers" / "focus").glob("duel-*"))
    first.rename(tmp_path / first.name)
    data = tmp_path / "data"
    _write_interim("12_the_papers_games", longer, data, finished=False)
    interim = pd.read_csv(data / "papers_findings_interim.csv")
    assert len(interim) == 4 and set(interim["text"]) < set(played["text"])
    (data / "papers_findings.csv").unlink()
    page = write_page(tmp_path).read_text()
    assert "**Interim: no run has finished.**" in page and "4 duels (finding" in page
    _write_interim("12_the_papers_games", longer, data, finished=True)
    assert not (data / "papers_findings_interim.csv").exists()
    for path in (records / "papers" / "focus").glob("duel-*"):
        path.unlink()
    _write_interim("12_the_papers_games", longer, data, finished=False)  # says so, no file
    assert not (data / "papers_findings_interim.csv").exists()


def test_the_page_shows_notebook_12s_pruning_counts_beside_sturtevants(tmp_path):
    """The deepest depth's share of MaxN's nodes and its share a ply (0.0016 at depth 4
    is 0.2 a ply), beside the abstract's count (100k of 1.2 million: 0.083); shown
    before any duel has finished."""
    from chameleon_lab.analysis.papers import pruning_beside

    shares = pd.DataFrame(
        {
            "algorithm": ["maxn", "maxnsp", "maxn", "maxnsp"],
            "phase": ["ply 10"] * 4,
            "depth": [3, 3, 4, 4],
            "share_of_maxn": [1.0, 0.5, 1.0, 0.0016],
        }
    )
    (tmp_path / "data").mkdir()
    pruning_beside(shares).to_csv(tmp_path / "data" / "papers_pruning_published.csv")
    page = write_page(tmp_path).read_text()
    assert "## Notebook 12" in page and "### Nodes at fixed depths" in page
    assert re.search(r"\|\s*maxnsp\s*\|\s*ply 10\s*\|\s*4\s*\|\s*0\.002\s*\|\s*0\.200\s*\|", page)
    assert '1.2 million to 100k nodes" (a share of 0.083' in page
    assert "figures/papers_pruning.png" in page


def test_the_page_counts_the_open_duels_whose_sprt_stopped_them():
    from chameleon_lab.analysis.research import _stopped_open

    table = pd.DataFrame(
        {"ours": ["open", "open", "open", "same direction"], "sprt": ["H1", "continue", "H0", "H1"]}
    )
    assert _stopped_open(table).startswith("2 of the open duels play no more")
    assert _stopped_open(table.iloc[[1, 3]]) == ""  # one plays on, one decided


def test_every_committed_research_session_gives_each_block_its_own_opening():
    """Issue 44, item 1, on the committed results themselves: in every research
    session that plays from random openings no two repetitions (blocks) start from the
    same opening, whatever the design; a block of the ``blocks`` design plays one
    opening in all its seatings (the thesis's sessions, played from openings, give each
    game pair of a repetition its own). Counted on the records."""
    checked = 0
    for packed in sorted((RESEARCH / "data" / "records").glob("*/*.jsonl.xz")):
        used: dict[str, set[int]] = {}
        per_block: dict[int, set[str]] = {}
        session = None
        for line in lzma.decompress(packed.read_bytes()).decode().splitlines():
            record = json.loads(line)
            if "session" not in record:
                continue  # a tuning log's line, not a game
            session = record["session"]
            start = json.dumps(record["start"], sort_keys=True)
            used.setdefault(start, set()).add(record["repetition"])
            per_block.setdefault(record["repetition"], set()).add(start)
        if session is None or not session.get("opening_plies"):
            continue  # from the start position: the thesis's own sessions
        name = packed.relative_to(RESEARCH).as_posix()
        assert all(len(r) == 1 for r in used.values()), f"{name}: two blocks share an opening"
        if session["design"] == "blocks":
            assert all(len(s) == 1 for s in per_block.values()), f"{name}: a block, two openings"
        checked += 1
    assert checked >= 250  # the ladders, duels, tuning and mended-Hypermax sessions


def _records_file(folder, lines):
    path = folder / "s-0123.jsonl"
    path.write_bytes(b"".join(b'{"game": %d}\n' % g for g in lines))
    return path


def test_unpacking_takes_pulled_records_over_a_shorter_working_copy(tmp_path):
    """Records only grow: a packed file that extends the working copy (another
    machine's run, pulled) replaces it; a working copy that extends the packed one (a
    run not packed yet) stays; the two diverging is an error, nothing guessed."""
    path = _records_file(tmp_path, range(6))
    pack_records(tmp_path)
    _records_file(tmp_path, range(2))  # stale: an older run's working copy
    assert unpack_records(tmp_path) == [path]
    assert path.read_bytes().count(b"\n") == 6
    _records_file(tmp_path, range(8))  # a run went on and has not packed yet
    assert unpack_records(tmp_path) == []
    assert path.read_bytes().count(b"\n") == 8
    _records_file(tmp_path, [0, 1, 9])  # neither holds the other's lines first
    with pytest.raises(ValueError, match=r"diverge .*delete the working copy"):
        unpack_records(tmp_path)


def test_packing_never_writes_fewer_records_over_more(tmp_path):
    """The end of a research run packs every records file of its folder: a stale
    working copy (fewer games than the packed file beside it) once packed its games
    over 64 blocks of another notebook's run. Refused, naming both counts; the packed
    file is left as it was."""
    path = _records_file(tmp_path, range(6))
    (packed,) = pack_records(tmp_path)
    before = packed.read_bytes()
    _records_file(tmp_path, range(2))
    with pytest.raises(ValueError, match="6 lines packed, 2 in the working copy"):
        pack_records(tmp_path)
    assert packed.read_bytes() == before
    _records_file(tmp_path, range(9))  # more: packed again
    assert pack_records(tmp_path) == [packed]
    assert lzma.decompress(packed.read_bytes()) == path.read_bytes()
