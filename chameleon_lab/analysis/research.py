"""The research results: the log of research runs and the page that shows them.

The ``research`` profile of the notebook batch (``PROFILES`` of :mod:`chameleon_lab.batch`)
writes to ``research/`` (``data/`` with the tables and the xz-packed records,
``figures/``), a place the quick batch never writes. Two things make those results
readable without playing a game:

* :func:`log_run` enters every research run in ``research/runs.json`` (notebook,
  parameters, commit, workers, cores, wall-clock seconds, whether it was interrupted), so
  the cost of each result on the machine that made it is on record;
* :func:`write_page` writes ``research/README.md`` from the committed tables and that
  log: the head-to-head verdicts with their Elo intervals, games and time per move, the
  ratings and their figure, what each run cost. The documentation site includes the
  page, so a reader sees the research results without running anything.

Every number on the page is read from the tables; the tables are recomputed from the
packed records by ``tests/test_research.py``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..files import atomic_write_text
from .output import provenance
from .summary import SIDE_FIGURES, repeated_games

#: The runs of the research profile, oldest first.
RUNS = "runs.json"
#: The generated page of research results.
PAGE = "README.md"


def read_runs(folder: str | Path) -> list[dict[str, Any]]:
    """The runs logged in ``folder/runs.json`` (none if there is no log)."""
    path = Path(folder) / RUNS
    if not path.exists():
        return []
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not a JSON list of runs: {exc}") from None


def log_run(
    folder: str | Path,
    notebook: str,
    parameters: dict[str, Any],
    seconds: float,
    *,
    interrupted: bool = False,
    commit: str | None = None,
    load: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Append one run to ``folder/runs.json`` (atomically) and return its entry.
    ``commit``: the code's commit when the run started (the batch reads it before the
    notebook runs: a commit made while a run of hours plays is not the code it
    played); None: the commit checked out now. ``load``: the machine's one-minute load
    average while it ran (:meth:`~chameleon_lab.machine_load.LoadWatch.summary`), kept
    where given."""
    made = provenance()
    entry = {
        "notebook": notebook,
        "parameters": parameters,
        "commit": made["commit"] if commit is None else commit,
        "versions": made["versions"],
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "seconds": round(float(seconds), 1),
        "interrupted": bool(interrupted),
        "workers": parameters.get("workers") or os.cpu_count(),
        "cores": os.cpu_count(),
        "machine": f"{platform.machine()} {platform.system()}",
        **({"load": dict(load)} if load else {}),
    }
    runs = [*read_runs(folder), entry]
    atomic_write_text(Path(folder) / RUNS, json.dumps(runs, indent=1, default=str) + "\n")
    return entry


def last_run(folder: str | Path, notebook: str) -> dict[str, Any]:
    """The latest complete logged run of ``notebook`` (``ValueError`` if none)."""
    runs = [r for r in read_runs(folder) if r["notebook"] == notebook and not r["interrupted"]]
    if not runs:
        raise ValueError(f"{Path(folder) / RUNS} logs no complete run of {notebook}")
    return runs[-1]


def _plan(q: dict[str, Any], batch: str = "batch") -> Any:
    """The duel plan a logged run with parameters ``q`` followed (its SPRT bounds and
    error rates, its ``batch`` parameter and ``max_blocks``), replayed on one worker
    without a progress bar."""
    from .headtohead import DuelPlan
    from .sequential import SPRT

    sprt = SPRT(elo0=q["elo0"], elo1=q["elo1"], alpha=q["alpha"], beta=q["beta"])
    return DuelPlan(
        sprt=sprt, batch=q[batch], max_blocks=q["max_blocks"], workers=1, progress=False
    )


def recompute_beyond(
    parameters: dict[str, Any], records_dir: str | Path
) -> dict[str, pd.DataFrame]:
    """The ladder's ratings (``beyond_ratings``) and the claims' verdicts
    (``beyond_verdicts``) of notebook 09 recomputed from the records in
    ``records_dir`` for a run with ``parameters`` (its logged ones), playing no game
    (:func:`~chameleon_lab.tournament.runner.records_only`: a missing game is an error)."""
    from ..tournament import records_only
    from .beyond import CLAIMS, LADDER_AGENTS, ladder_ratings, ladder_study
    from .headtohead import claim_verdicts, duel_study

    q = parameters
    ladder = {name: LADDER_AGENTS[name] for name in q["agents"]}
    tested = [c for c in CLAIMS if {c.agent, c.rival} <= set(ladder)]
    common = {"seed": q["seed"], "opening_plies": q["opening_plies"], "workers": 1}
    with records_only():
        t = ladder_study(
            ladder, q["players"], q["budgets_ms"], q["blocks"], records_dir=records_dir,
            progress=False, **common,
        )  # fmt: skip
        _, duels = duel_study(
            tested, ladder, q["claim_players"], q["claim_budgets_ms"], records_dir,
            plan=_plan(q), seed=q["seed"], opening_plies=q["opening_plies"],
        )  # fmt: skip
    return {
        "beyond_ratings": ladder_ratings(t, seed=q["seed"]),
        "beyond_verdicts": claim_verdicts(duels, alpha=q["alpha"], seed=q["seed"]),
    }


def recompute_budgets(
    parameters: dict[str, Any], records_dir: str | Path
) -> dict[str, pd.DataFrame]:
    """Notebook 05's win rates (``budget_win_rates_FLAVOUR``) and its pairs' verdicts
    (``budget_verdicts_FLAVOUR``) recomputed from the records in ``records_dir`` (the
    folder holding ``budgets/``) for a run with ``parameters``, playing no game."""
    from ..tournament import records_only
    from .stats import win_rates
    from .studies import budget_study, budget_verdicts

    q = parameters
    with records_only():
        t = budget_study(
            q["algorithms"], q["budgets_ms"], q["flavour"], q["repetitions"],
            opening_plies=q["opening_plies"], records_dir=records_dir, workers=1,
            progress=False,
        )  # fmt: skip
    return {
        f"budget_win_rates_{q['flavour']}": win_rates(t, by=["budget_ms", "agent"]),
        f"budget_verdicts_{q['flavour']}": budget_verdicts(t, q["algorithms"]),
    }


def recompute_tuning(
    parameters: dict[str, Any], records_dir: str | Path
) -> dict[str, pd.DataFrame]:
    """Notebook 10's tables recomputed from the tuning logs and the records in
    ``records_dir`` for a run with ``parameters`` (its logged ones), playing no game:
    the tuner replays its log (SPSA its iterations, CMA-ES its generations; one run
    per player count of ``players``), the duels their blocks. SPSA gives
    ``tuning_spsa_history`` and ``tuning_movement``, CMA-ES (runs before SPSA was the
    default, logged without ``method``) ``tuning_noise``; both the verdicts against
    the opponent, ``tuning_verdicts``."""
    from ..tournament import records_only
    from .headtohead import claim_verdicts
    from .spsa import SPSASpec, movement_tests, spsa
    from .tuning import TuningSpec, at_players, by_players, decide_tuned, score_noise, tune

    q = parameters
    spec = TuningSpec(
        game=q["game"], features=tuple(q["features"]), x0=tuple(q["x0"]),
        low=tuple(q["low"]), high=tuple(q["high"]), fixed=q["fixed"], sigma0=q["sigma0"],
        popsize=q["popsize"], generations=q["generations"], seed=q["seed"],
        algorithm=q["algorithm"], depth=q["depth"], repetitions=q["repetitions"],
        opening_plies=q["opening_plies"], name=f"tuning-{q['game']}",
    )  # fmt: skip
    records_dir = Path(records_dir)
    budgets = [{"depth": q["depth"]}] + (
        [{"time_ms": q["eval_time_ms"]}] if q["eval_time_ms"] else []
    )
    out: dict[str, pd.DataFrame] = {}
    specs = at_players(spec, q["players"])
    with records_only():
        if q.get("method", "cma") == "spsa":
            results: dict[int, Any] = {}
            for n, s in specs.items():
                tuner = SPSASpec(s, iterations=q["iterations"], blocks=q["spsa_blocks"],
                                 a=q["spsa_a"], c=q["spsa_c"])  # fmt: skip
                results[n] = spsa(tuner, tuner.log_file(records_dir), records=records_dir,
                                  workers=1)  # fmt: skip
            out["tuning_spsa_history"] = by_players({n: r.history for n, r in results.items()})
            out["tuning_movement"] = movement_tests(results, alpha=q["alpha"], seed=q["seed"])
        else:
            results = {n: tune(s, s.log_file(records_dir), records=records_dir, workers=1)
                       for n, s in specs.items()}  # fmt: skip
            out["tuning_noise"] = by_players(
                {n: score_noise(r, records_dir) for n, r in results.items()}
            )
        _, duels = decide_tuned(
            results, spec.opponent, budgets, records_dir, game=q["game"],
            algorithm=q["algorithm"], plan=_plan(q), opening_plies=q["opening_plies"],
            seed=q["seed"],
        )  # fmt: skip
    out["tuning_verdicts"] = claim_verdicts(duels, alpha=q["alpha"], seed=q["seed"])
    return out


def recompute_learning(
    parameters: dict[str, Any], records_dir: str | Path
) -> dict[str, pd.DataFrame]:
    """Notebook 13's tables recomputed for a run with ``parameters`` from its training
    checkpoints and duel records in ``records_dir`` (the folder holding ``learning/``),
    playing no game: the learning curves from the TD-Leaf checkpoints (``ValueError`` if
    one lacks games), the value network from its kept positions and epochs, the solved
    positions solved again (the solvers are exact), the duels from their records."""
    from ..games.valuenet import net_heuristic
    from ..tournament import records_only
    from .headtohead import claim_verdicts
    from .learning import (
        accuracy_tables,
        contenders,
        duel_rows,
        net_specs,
        net_strength_curve,
        settings,
        strength_curve,
        train_all,
        train_nets,
    )

    q = parameters
    chosen = settings(
        q["learn"], {g: q.get(g, {}) for g in ("connect4", "othello", "chameleon")},
        depth=q["depth"], games=q["games"], batch=q["batch"], lam=q["lam"],
        opening_plies=q["opening_plies"], seed=q["seed"],
    )  # fmt: skip
    records = Path(records_dir) / "learning"
    for s in chosen:
        checkpoint = records / f"tdleaf-{s.spec.fingerprint}.json"
        done = json.loads(checkpoint.read_text())["batches"] if checkpoint.exists() else []
        if not done or done[-1]["games"] != s.spec.games:
            raise ValueError(f"{checkpoint} does not hold {s.label}'s {s.spec.games} games")
    curve, learned = train_all(chosen, records, progress=False)
    tables = {"learning_curve": curve}
    # runs made before net_learn trained Connect Four's network alone
    specs = net_specs(chosen, games=q.get("net_games", 0), hidden=q["net_hidden"],
                      epochs=q["net_epochs"], random_move=q["net_random_move"],
                      depth=q["depth"], opening_plies=q["opening_plies"], seed=q["seed"],
                      learn=q.get("net_learn", ["connect4"]))  # fmt: skip
    nets, net_curve = train_nets(specs, records, progress=False)
    if not net_curve.empty:
        tables["learning_net_curve"] = net_curve
    names = {label: net_heuristic(net).name for label, net in nets.items()}
    playing = contenders(chosen, curve, learned, names)
    table, versus = accuracy_tables(
        chosen, playing, positions=q["positions"], resamples=q["resamples"], alpha=q["alpha"],
        seed=q["seed"],
    )  # fmt: skip
    if not table.empty:
        tables["learning_accuracy"], tables["learning_accuracy_versus"] = table, versus
    budgets = [{"depth": q["depth"]}] + (
        [{"time_ms": q["eval_time_ms"]}] if q.get("eval_time_ms") else []
    )
    with records_only():
        rows = duel_rows(chosen, playing, budgets, records, opening_plies=q["opening_plies"],
                         versus_start=q.get("versus_start", False), seed=q["seed"],
                         plan=_plan(q, batch="duel_batch"))  # fmt: skip
    tables["learning_verdicts"] = claim_verdicts(rows, alpha=q["alpha"], seed=q["seed"])
    plan = dataclasses.replace(_plan(q, batch="duel_batch"), max_blocks=q.get("curve_blocks", 1))
    if q.get("curve_checkpoints"):  # runs before the strength curve have none
        with records_only():
            tables["learning_strength"] = strength_curve(
                chosen, curve, records, checkpoints=q["curve_checkpoints"],
                budget={"depth": q["depth"]}, plan=plan, opening_plies=q["opening_plies"],
                seed=q["seed"],
            )  # fmt: skip
    if specs and q.get("net_checkpoints"):  # runs before the networks' curve have none
        with records_only():
            tables["learning_net_strength"] = net_strength_curve(
                specs, records, checkpoints=q["net_checkpoints"], budget={"depth": q["depth"]},
                plan=plan, opening_plies=q["opening_plies"], seed=q["seed"], progress=False,
            )  # fmt: skip
    return tables


def recompute_papers(
    parameters: dict[str, Any], records_dir: str | Path, *, interim: bool = False
) -> dict[str, pd.DataFrame]:
    """Notebook 12's findings table (``papers_findings``) recomputed from the duel
    records in ``records_dir`` (the folder holding ``papers/``) for a run with
    ``parameters`` (its logged ones), playing no game. ``interim``: the standing of an
    interrupted run, each duel as far as its records go
    (:func:`~.papers.findings_study`'s ``interim``), as ``papers_findings_interim``."""
    from ..tournament import records_only
    from .papers import findings_params, findings_study, findings_table

    q = parameters
    game_params = findings_params({g: q[g] for g in ("chinesecheckers", "focus") if g in q})
    with records_only():
        t, verdicts = findings_study(
            q["games"], q["players"], q["budgets_ms"], Path(records_dir) / "papers",
            game_params=game_params, plan=_plan(q), opening_plies=q["opening_plies"],
            alpha=q["alpha"], seed=q["seed"], margin_elo=q["margin_elo"], interim=interim,
        )  # fmt: skip
    name = "papers_findings_interim" if interim else "papers_findings"
    return {name: findings_table(verdicts, t)}


#: The research notebooks whose interrupted runs leave a standing on the page: the
#: names of its tables and the function that reads them from the records
#: (parameters, records folder -> tables by name).
INTERIM: dict[
    str, tuple[tuple[str, ...], Callable[[dict[str, Any], Path], dict[str, pd.DataFrame]]]
] = {
    "12_the_papers_games": (
        ("papers_findings_interim",),
        lambda q, records: recompute_papers(q, records, interim=True),
    ),
}


def _elo(row: pd.Series) -> str:
    if np.isnan(row["elo_low"]):
        return f"{row['elo']:+.0f} (no interval)"
    return f"{row['elo']:+.0f} [{row['elo_low']:+.0f}, {row['elo_high']:+.0f}]"


def _detectable(value: float) -> str:
    return "none" if np.isinf(value) else f"{value:.0f}"


def verdict_table(verdicts: pd.DataFrame) -> pd.DataFrame:
    """The head-to-head verdicts as the page shows them: one row a claim, cell."""
    out = pd.DataFrame(
        {
            "source": verdicts["source"],
            "claim": verdicts["text"],
            "players": verdicts["players"],
            "budget": (
                verdicts["budget"]
                if "budget" in verdicts
                else verdicts["budget_ms"].map(lambda b: f"{b:g} ms")
            ),
            "verdict": verdicts["verdict"],
            "Elo [95 %]": verdicts.apply(_elo, axis=1),
            "Holm p": verdicts["p_holm"].map(lambda p: f"{p:.3g}"),
            "SPRT": [
                f"{d} at {b}"
                for d, b in zip(verdicts["sprt"], verdicts["sprt_blocks"], strict=True)
            ],
            "blocks": verdicts["blocks"],
            "games": verdicts["games"],
            "80 % power from (Elo)": verdicts["detectable_elo"].map(_detectable),
        }
    )
    if "setting" in verdicts:  # notebook 13: the claim names no game
        out.insert(0, "setting", verdicts["setting"])
    if "agent_max_ms" in verdicts:
        out["ms a move, median / largest (agent; rival)"] = [
            f"{am:.1f} / {ax:.1f}; {rm:.1f} / {rx:.1f}"
            for am, ax, rm, rx in zip(
                verdicts["agent_median_ms"], verdicts["agent_max_ms"],
                verdicts["rival_median_ms"], verdicts["rival_max_ms"], strict=True,
            )
        ]  # fmt: skip
    elif "agent_median_ms" in verdicts:  # tables written before the largest was kept
        out["median ms (agent / rival)"] = [
            f"{a:.1f} / {r:.1f}"
            for a, r in zip(verdicts["agent_median_ms"], verdicts["rival_median_ms"], strict=True)
        ]
    if "agent_max_overshoot_ms" in verdicts and verdicts["agent_max_overshoot_ms"].notna().any():
        out["largest overshoot, ms (agent; rival)"] = [
            "" if np.isnan(a) else f"{a:.1f}; {r:.1f}"
            for a, r in zip(verdicts["agent_max_overshoot_ms"],
                            verdicts["rival_max_overshoot_ms"], strict=True)
        ]  # fmt: skip
    return out


def runs_table(runs: list[dict[str, Any]]) -> pd.DataFrame:
    """The research runs: what ran, from which commit, on how many workers, how long,
    how busy the machine was (the one-minute load average's mean and largest sample,
    where the run logged it: a load well above the workers is another process beside
    the run), and whether its records stand (a run's ``withdrawn`` entry, written by
    hand, says why its records were deleted, such as time budgets played beside
    another process)."""
    rows = [
        {
            "notebook": r["notebook"],
            "commit": r["commit"],
            "finished": r["finished"],
            "workers / cores": f"{r['workers']} / {r['cores']}",
            "hours": f"{r['seconds'] / 3600:.2f}",
            "load mean / max": (
                f"{r['load']['mean']:.1f} / {r['load']['max']:.1f}" if r.get("load") else ""
            ),
            "complete": "no (stopped early: failed or interrupted)" if r["interrupted"] else "yes",
            "records": f"withdrawn: {r['withdrawn']}" if r.get("withdrawn") else "kept",
            "parameters": ", ".join(
                f"{k}={v}"
                for k, v in r["parameters"].items()
                if k not in ("figures_dir", "data_dir", "shared", "workers")
            ),
        }
        for r in runs
    ]
    return pd.DataFrame(rows)


def _verdict_lines(verdicts: pd.DataFrame) -> list[str]:
    """The page's lines for a verdict table: the table and its sentences."""
    from .headtohead import verdict_sentences

    return [
        verdict_table(verdicts).to_markdown(index=False, disable_numparse=True),
        "",
        "```text",
        verdict_sentences(verdicts),
        "```",
        "",
    ]


def _test_text(folder: Path, notebook: str, batch: str = "batch") -> str:
    """The sequential test of ``notebook``'s last complete run, in words ("" when none
    is logged); ``batch`` names its parameter of blocks between two looks."""
    try:
        q = last_run(folder, notebook)["parameters"]
        return (
            f'The SPRT weighs H0 "{q["elo0"]:g} Elo" against H1 "{q["elo1"]:g} Elo stronger" '
            f"at error rates {q['alpha']:g} and {q['beta']:g}, looking every {q[batch]} "
            f"blocks, at most {q['max_blocks']}: H0 accepted means no gap of {q['elo1']:g} "
            "Elo, not no gap. "
        )
    except (ValueError, KeyError):  # no complete run logged (or not its test)
        return ""


def _section_tuning(data: Path) -> list[str]:
    """Notebook 10: whether the tuning run acted on a signal (SPSA: the movement test;
    CMA-ES: the noise of its candidates' scores), and the tuned heuristic against the
    thesis's best, decided head to head."""
    path = data / "tuning_verdicts.csv"
    if not path.exists():
        return []

    verdicts = pd.read_csv(path)
    movement_path, noise_path = data / "tuning_movement.csv", data / "tuning_noise.csv"
    tuner = (
        "SPSA tunes the weights of Chameleon Chess's features from head-to-head blocks of "
        "its two perturbed weight vectors"
        if movement_path.exists()
        else "CMA-ES tunes the weights of Chameleon Chess's features from games against "
        "`pawns100roles`"
    )
    lines = [
        "## Notebook 10: tuned weights against `pawns100roles`",
        "",
        f"{tuner}; the tuned heuristic then plays `pawns100roles` head to head in balanced "
        "blocks until the SPRT decides. " + _test_text(data.parent, "10_tuning"),
        "",
    ]
    if movement_path.exists():
        movement = pd.read_csv(movement_path)
        history = pd.read_csv(data / "tuning_spsa_history.csv")
        if "players" not in movement.columns:  # a run at one count, before counts were listed
            movement, history = movement.assign(players=""), history.assign(players="")
        runs = history.groupby("players", sort=False)["iteration"].size()
        ran = " and ".join(
            f"{k} iterations at {n} players" if n != "" else f"{k} iterations"
            for n, k in runs.items()
        )
        moved = [
            f"{r.feature} ({r.players} players)" if r.players != "" else r.feature
            for r in movement[movement["found"] != "none"].itertuples()
        ]
        said = (
            f"{', '.join(moved)} moved beyond what noise gives"
            if moved
            else "no weight moved beyond what noise gives"
        )
        lines += [
            f"SPSA ran {ran} (each run replayed with random signs as its null, "
            f"Holm over the {len(movement)} weights of every run): {said}.",
            "",
            movement[["players", "feature", "start", "tuned", "moved", "noise", "p_holm", "found"]]
            .round(3)
            .to_markdown(index=False),
            "",
        ]
        if (data.parent / "figures" / "tuning_spsa_path.png").exists():
            lines += ["![SPSA's weights by iteration](figures/tuning_spsa_path.png)", ""]
    elif noise_path.exists():
        noise = pd.read_csv(noise_path)
        noisy = int(((noise["spread"] > 0) & (noise["noise"] >= noise["signal"])).sum())
        lines += [
            f"In {noisy} of {len(noise)} generations the noise of a candidate's score "
            f"({noise['noise'].min():.3f} to {noise['noise'].max():.3f}, "
            f"{noise['games'].min()} to {noise['games'].max()} games a candidate) was at "
            "least the signal between the candidates: there CMA-ES ranked them by luck.",
            "",
        ]
    return lines + _verdict_lines(verdicts)


def _section_learning(data: Path) -> list[str]:
    """Notebook 13: weights learned by TD-Leaf and a value network against the
    hand-made heuristic, on solved positions and head to head."""
    path = data / "learning_verdicts.csv"
    if not path.exists():
        return []
    curve = pd.read_csv(data / "learning_curve.csv")
    reserved = {"setting", "games", "heuristic", "mean_result"}
    moved = []
    for label, part in curve.groupby("setting", sort=False):
        first, last = part.iloc[0], part.iloc[-1]
        features = [c for c in part.columns if c not in reserved and part[c].notna().all()]
        weights = ", ".join(f"{f} {first[f]:g} -> {last[f]:.3g}" for f in features)
        moved.append(f"{label} ({int(last['games'])} games) {weights}")
    lines = [
        "## Notebook 13: evaluations learned by self-play against the hand-made one",
        "",
        "TD-Leaf(lambda) from the hand-made weights, self-play: " + "; ".join(moved) + ".",
    ]
    net_path = data / "learning_net_curve.csv"
    if net_path.exists():
        curve_net = pd.read_csv(net_path)
        if "setting" not in curve_net:  # a run before a network per setting: Connect Four's
            curve_net = curve_net.assign(setting="connect4")
        for label, part in curve_net.groupby("setting", sort=False):
            net = part[part["kept"]].iloc[0]
            beat = "below" if net["holdout_mse"] < net["holdout_constant_mse"] else "not below"
            lines[-1] += (
                f" {label}: a value network (one hidden layer) trained {len(part)} epochs on "
                f"{int(net['positions'])} self-play positions, kept at epoch "
                f"{int(net['epoch'])} (lowest held-out error): held-out squared error "
                f"{net['holdout_mse']:.3f}, {beat} the best constant's "
                f"{net['holdout_constant_mse']:.3f}."
            )
    accuracy_path = data / "learning_accuracy_versus.csv"
    if accuracy_path.exists():
        versus = pd.read_csv(accuracy_path)
        table = pd.read_csv(data / "learning_accuracy.csv")
        lines += [
            "",
            f"On {int(table[['won', 'drawn', 'lost']].iloc[0].sum())} positions per game solved "
            "exactly (won-over-lost: how often a won position is valued above a lost one; "
            "spearman: rank correlation with the exact values; paired bootstrap, Bonferroni "
            "over the figures and the learned evaluations):",
            "",
            versus.round(3).to_markdown(index=False, disable_numparse=True),
        ]
    lines += [
        "",
        "Head to head, the same search at every seat. "
        + _test_text(data.parent, "13_self_learning", batch="duel_batch"),
        "",
    ]
    verdicts = pd.read_csv(path)
    lines += _verdict_lines(verdicts)
    if "agent_depth" in verdicts:
        from .learning import effort_sentences

        lines += ["What each side's search reached in the duels' games:", "", "```text",
                  effort_sentences(verdicts), "```", ""]  # fmt: skip
    for name, what in (("learning_strength", "checkpoints of the weights"),
                       ("learning_net_strength", "value networks trained on the first of "
                        "their self-play games")):  # fmt: skip
        strength = data / f"{name}.csv"
        if strength.exists():
            from .learning import strength_sentences

            lines += [
                f"Strength along the training ({what} against the opponent at equal depth, "
                "a fixed number of blocks each: estimates, not tests):",
                "",
                "```text",
                strength_sentences(pd.read_csv(strength)),
                "```",
                "",
            ]
    return lines


def _section_beyond(data: Path) -> list[str]:

    path = data / "beyond_verdicts.csv"
    if not path.exists():
        return []
    verdicts = pd.read_csv(path)
    counts = verdicts["verdict"].value_counts()
    test = _test_text(data.parent, "09_beyond_the_thesis")
    lines = [
        "## Notebook 09: the multi-player papers' claims, head to head",
        "",
        f"{len(verdicts)} duels (claim, player count, budget): "
        + ", ".join(f"{counts.get(v, 0)} {v}" for v in ("supported", "contradicted", "open"))
        + ". Each duel plays blocks (one opening of a suite of distinct openings, both "
        "agents in every seating) until the SPRT decides or its block limit; the verdict "
        "is the sign-flip test on the blocks played, Holm-corrected over all duels. "
        + test
        + "The Elo intervals are percentile bootstraps over the blocks: with few blocks "
        "they are narrower than the uncertainty, and the verdict rests on the test.",
        "",
        *_verdict_lines(verdicts),
    ]
    ratings = data / "beyond_ratings.csv"
    if ratings.exists():
        rated = pd.read_csv(ratings)
        table = rated.pivot_table(
            index="agent", columns=["players", "budget_ms"], values="elo"
        ).round(0)
        table.columns = [f"{p} players, {b:g} ms" for p, b in table.columns]
        lines += [
            "### The ladder: Plackett-Luce ratings from finishing orders (Elo)",
            "",
            table.to_markdown(disable_numparse=True),
            "",
            "![Ratings against the budget](figures/beyond_ratings.png)",
            "",
        ]
    return lines


_PAPERS_HEADING = "## Notebook 12: the papers' findings on their own games"


def _section_papers(data: Path) -> list[str]:
    """Notebook 12: each published finding on its own game beside ours (an interrupted
    run's standing, :data:`INTERIM`, until a run finishes)."""
    path = data / "papers_findings.csv"
    interim = not path.exists()
    if interim:
        path = data / "papers_findings_interim.csv"
        if not path.exists():
            pruning = _pruning_lines(data)
            return [_PAPERS_HEADING, "", *pruning] if pruning else []
    table = pd.read_csv(path)
    counts = table["ours"].value_counts()
    test = _test_text(data.parent, "12_the_papers_games")
    shown = pd.DataFrame(
        {
            "game": table["game"],
            "source": table["source"],
            "finding": table["text"] + " (" + table["found"] + ")",
            "players": table["players"],
            "budget": table["budget"],
            "ours": table["ours"],
            "Elo [95 %]": table.apply(_elo, axis=1),
            "Holm p": table["p_holm"].map(lambda p: f"{p:.3g}"),
            "Holm p of a gap": table["p_level_holm"].map(
                lambda p: "" if pd.isna(p) else f"{p:.3g}"
            ),
            "SPRT": table["sprt"],
            "blocks": table["blocks"],
            "games": table["games"],
            "80 % power from (Elo)": table["detectable_elo"].map(_detectable),
            "play (min)": (table["play_seconds"] / 60).map(lambda m: f"{m:.1f}"),
        }
    )
    standing = (
        "**Interim: no run has finished.** Where the last, interrupted run left each duel "
        "(as far as its records go in whole batches; duels not yet played are missing), "
        "judged as a finished run would judge those blocks; an SPRT still at `continue` "
        "will play on. "
        if interim
        else ""
    )
    return [
        _PAPERS_HEADING,
        "",
        standing
        + f"{len(table)} duels (finding, game, player count, budget): "
        + ", ".join(
            f"{counts.get(v, 0)} {v}"
            for v in ("same direction", "level", "opposite", "differs", "open")
        )
        + f"; {table['play_seconds'].sum() / 3600:.1f} hours of play on one core. A "
        "stronger finding agrees when our Holm-corrected verdict goes its way; a level one "
        "when the equivalence test (Holm p of a gap of the run's margin) rejects a gap, and "
        "differs when the sign-flip test rejects none. " + _stopped_open(table) + test,
        "",
        shown.to_markdown(index=False, disable_numparse=True),
        "",
        *([] if interim else ["![The findings beside ours](figures/papers_findings.png)", ""]),
        *_pruning_lines(data),
    ]


def _stopped_open(table: pd.DataFrame) -> str:
    """How many open duels will play no more: their SPRT stopped them (it decides at
    its own, uncorrected error rates) before the Holm-corrected test reached its level,
    so more blocks, not more waiting, would decide them."""
    stopped = int(((table["ours"] == "open") & (table["sprt"] != "continue")).sum())
    if not stopped:
        return ""
    return (
        f"{stopped} of the open duels play no more: their SPRT stopped them (H0 or H1, "
        "at its own error rates) before the Holm-corrected test reached its level. "
    )


def _pruning_lines(data: Path) -> list[str]:
    """Notebook 12's pruning counts (``papers_pruning_published``, written before its
    duels, so shown beside an interim table too): each pruning MaxN's share of MaxN's
    nodes at the deepest depth searched, and a ply, beside Sturtevant's count."""
    from .papers import STURTEVANT_2003

    path = data / "papers_pruning_published.csv"
    if not path.exists():
        return []
    t = pd.read_csv(path)
    shown = pd.DataFrame(
        {
            "algorithm": t["algorithm"],
            "position": t["phase"],
            "depth": t["depth"],
            "share of MaxN's nodes": t["share_of_maxn"].map(lambda v: f"{v:.3f}"),
            "a ply": t["per_ply"].map(lambda v: f"{v:.3f}"),
        }
    )
    published = STURTEVANT_2003
    return [
        "### Nodes at fixed depths: the prunings on Chinese Checkers",
        "",
        "Each pruning MaxN's nodes as a share of plain MaxN's on the same positions (their "
        "values are MaxN's: the differential checks hold them to it), at the deepest depth "
        "searched, and that share a ply (the share to the power 1 / depth), beside the one "
        f'count of {published.source}: "{published.text}" (a share of '
        f"{published.share:.3f}, {published.per_ply:.3f} a ply). His board, player count "
        "and baseline are in the full text, so only direction and rough size can agree.",
        "",
        shown.to_markdown(index=False, disable_numparse=True),
        "",
        "![Nodes at fixed depths](figures/papers_pruning.png)",
        "",
    ]


def _section_hypermax(data: Path) -> list[str]:
    """Notebook 11: how often Hypermax departs from MaxN, and whether the mended
    Hypermax wins more of the thesis's sessions than the plain one."""
    from .hypermax_answer import MARGIN, how_often, mended_verdicts

    lines = []
    rates = data / "hypermax_departures.csv"
    if rates.exists():
        lines += ["How often. " + how_often(pd.read_csv(rates)), ""]
    sessions = data / "hypermax_mended_sessions.csv"
    blocks = data / "hypermax_mended_blocks.csv"
    if blocks.exists():
        beside = pd.read_csv(sessions) if sessions.exists() else None
        table = mended_verdicts(pd.read_csv(blocks), beside)
        if not table.empty:
            lines += [*_mended_lines(table, MARGIN), ""]
    if not lines:
        return []
    return ["## Notebook 11: Hypermax's departures and the mended Hypermax's games", "", *lines]


def _mended_lines(table: pd.DataFrame, margin: float) -> list[str]:
    """The table of :func:`.hypermax_answer.mended_verdicts` on the research page."""

    def points(x: float) -> str:
        return f"{100 * x:+.1f}"

    shown = pd.DataFrame(
        {
            "session": table["session"],
            "blocks": table["blocks"].astype(str),
            "plain wins": table["plain_wins"].astype(str) + " / "
            + table["plain_games"].astype(str),
            "mended wins": table["mended_wins"].astype(str) + " / "
            + table["mended_games"].astype(str),
            "mended - plain (points, 95 %)": table["difference"].map(points) + " ("
            + table["ci_low"].map(points) + " to " + table["ci_high"].map(points) + ")",
            "Holm p": table["p_holm"].map(lambda p: f"{p:.3g}"),
            "verdict": table["verdict"],
            f"within {100 * margin:.0f} points": table["equivalence"],
            "80 % power from (points)": table["detectable_gap"].map(
                lambda g: "" if pd.isna(g) else "-" if g == float("inf") else f"{100 * g:.0f}"
            ),
        }
    )  # fmt: skip
    for column, label in SIDE_FIGURES.items():
        if f"plain_{column}" in table:
            shown[f"{label} (plain / mended)"] = (
                table[f"plain_{column}"].map("{:g}".format) + " / "
                + table[f"mended_{column}"].map("{:g}".format)
            )  # fmt: skip
    return [
        "The thesis's sessions that seat Hypermax, played with the plain and with the "
        "mended Hypermax in its seat (same seatings, seeds and clock), each repetition "
        "(block) from its own opening, the same for both. Per session the mean over "
        "blocks of the mended one's win share less the plain one's with its bootstrap "
        "interval, the sign-flip test of no difference Holm-corrected over the "
        "sessions, and two one-sided t-tests of a difference within "
        f"{100 * margin:.0f} points.",
        "",
        shown.to_markdown(index=False, disable_numparse=True),
        "",
        "![Win rates, plain and mended](figures/hypermax_mended_sessions.png)",
    ]


def _section_thesis(data: Path) -> list[str]:
    """Notebook 04: the thesis's time-mode tables on the emulated clock beside the
    thesis (the equivalence verdicts counted), and the clock checked on held-out files."""
    tables = sorted(data.glob("table_6_*_thesis.csv"))
    held = data / "thesis_emulated_stops_held_out.csv"
    if not tables and not held.exists():
        return []
    lines = ["## Notebook 04: the thesis's tables on the original's clock", ""]
    if tables:
        cells = pd.concat([pd.read_csv(t, dtype={"table": str}) for t in tables])
        counts = cells.groupby("table")["equivalence"].value_counts().unstack(fill_value=0)
        lines += [
            f"{len(cells)} cells (table, session, agent) beside the thesis's; win rates "
            "compared by two one-sided tests (margin 15 points): equivalent, differs or "
            "undecided.",
            "",
            counts.to_markdown(disable_numparse=True),
            "",
            *([copies, ""] if (copies := repeated_games(cells).strip()) else []),
        ]
    if held.exists():
        shares = pd.read_csv(held)
        lines += [
            "### The emulated clock on files it was not fitted on",
            "",
            "Moves of each time-mode file searched at the node rates measured from the other "
            "half of the files: the share on which the emulated clock stops at the depth the "
            "original recorded.",
            "",
            shares.round(3).to_markdown(index=False, disable_numparse=True),
            "",
        ]
    lines += _thesis_timing(data / "thesis_sessions_thesis.csv")
    depths = data / "thesis_emulated_depths_held_out.csv"
    if depths.exists():
        medians = pd.read_csv(depths)
        lines += [
            "Median depths (per agent, budget, phase) within the calibration's tolerance of "
            f"the recorded ones: {int(medians['within'].sum())} of {len(medians)}.",
            "",
        ]
    return lines


def _thesis_timing(path: Path) -> list[str]:
    """Notebook 04's time-mode sessions: what each agent spent a move on the clock its
    budget was set on, budget by budget (over the sessions at that budget: the median
    of the sessions' medians, the largest move, the largest overshoot)."""
    rows = pd.read_csv(path) if path.exists() else pd.DataFrame()
    if "clock_max_ms" not in rows:
        return []
    timed = rows[rows["mode"] == "time"]
    if timed.empty:
        return []
    by = timed.groupby(["clock", "mode_value", "agent"], sort=True).agg(
        sessions=("session", "nunique"),
        median_ms=("clock_median_ms", "median"),
        largest_ms=("clock_max_ms", "max"),
        over_budget=("over_budget", "mean"),
        largest_overshoot_ms=("max_overshoot_ms", "max"),
    )
    shown = by.reset_index().rename(columns={"mode_value": "budget (ms)"})
    shown["over_budget"] = shown["over_budget"].map("{:.2f}".format)
    for column in ("median_ms", "largest_ms", "largest_overshoot_ms"):
        shown[column] = shown[column].map("{:g}".format)
    return [
        "### Time a move on the clock of the budget",
        "",
        "Each agent's milliseconds a move in the time-mode sessions, by budget, on the "
        "clock its budget was set on (``original``: the original's clock emulated by "
        "counting nodes, read back as milliseconds): the median of its sessions' "
        "medians, its largest move, the mean over sessions of the share of its searched "
        "moves over the budget, and its largest overshoot. The original read its clock "
        "only between root moves, so a move overruns by up to one root move's subtree.",
        "",
        shown.to_markdown(index=False, disable_numparse=True),
        "",
    ]


def _section_budgets(data: Path) -> list[str]:
    """Notebook 05: the searches' win rates, depths and milliseconds a move against the
    budget, and every pair decided on game pairs, per flavour played."""
    lines = []
    for path in sorted(data.glob("budget_verdicts_*.csv")):
        flavour = path.stem.removeprefix("budget_verdicts_")
        verdicts = pd.read_csv(path)
        counts = verdicts["verdict"].value_counts()
        lines += [
            f"## Notebook 05: the searches at time budgets ({flavour} flavour)",
            "",
            f"{len(verdicts)} comparisons (pair of searches, budget): "
            + ", ".join(f"{counts.get(v, 0)} {v}" for v in ("supported", "contradicted", "open"))
            + '. A claim reads "the first finishes above the second"; each budget plays '
            + _openings_by_budget(verdicts)
            + " openings in the 24 seatings of the four searches, "
            "and the test is the sign-flip test on game pairs (a seating and its twin with "
            "the two exchanged), Holm-corrected over every comparison. It decides for the "
            "openings played.",
            "",
        ]
        lines += _budget_tables(data, flavour)
        lines += _verdict_lines(verdicts)
    return lines


def _openings_by_budget(verdicts: pd.DataFrame) -> str:
    """ "8" when every budget played 8 openings, else "64 (10 ms), 32 (30 ms), ..."."""
    blocks = verdicts.groupby("budget_ms", sort=True)["blocks"].max()
    if blocks.nunique() == 1:
        return str(int(blocks.iloc[0]))
    return ", ".join(f"{int(n)} ({b:g} ms)" for b, n in blocks.items())


def _budget_tables(data: Path, flavour: str) -> list[str]:
    """Notebook 05's win rates, median depths and milliseconds a move, budget by budget."""
    lines = []
    rates = data / f"budget_win_rates_{flavour}.csv"
    if rates.exists():
        r = pd.read_csv(rates)
        r["cell"] = [f"{w:.2f} [{lo:.2f}, {hi:.2f}]" for w, lo, hi in
                     zip(r["win_rate"], r["ci_low"], r["ci_high"], strict=True)]  # fmt: skip
        lines += _budget_pivot(r, "cell", "Win rate [Wilson 95 %]")
        lines += [f"![Win rate against the budget](figures/budget_win_rate_{flavour}.png)", ""]
    depths = data / f"budget_depths_{flavour}.csv"
    if depths.exists():
        d = pd.read_csv(depths)
        d["cell"] = d["50%"].map(lambda x: f"{x:g}")
        lines += _budget_pivot(d, "cell", "Median depth completed")
    timing = data / f"budget_time_per_move_{flavour}.csv"
    if timing.exists():
        m = pd.read_csv(timing)
        m["cell"] = [f"{a:.1f} / {b:.1f}" for a, b in zip(m["median_ms"], m["max_ms"], strict=True)]
        lines += _budget_pivot(m, "cell", "Milliseconds a move (median / largest)")
    return lines


def _budget_pivot(table: pd.DataFrame, column: str, title: str) -> list[str]:
    """One of notebook 05's tables, an agent a row and a budget a column, as markdown."""
    wide = table.pivot(index="agent", columns="budget_ms", values=column)
    wide.columns = [f"{b:g} ms" for b in wide.columns]
    return [f"### {title}", "", wide.to_markdown(disable_numparse=True), ""]


def write_page(folder: str | Path) -> Path:
    """Write ``folder/README.md`` from the research tables in ``folder/data`` and the
    run log; returns its path."""
    folder = Path(folder)
    data = folder / "data"
    lines = [
        "# Research results",
        "",
        "Written by `chameleon_lab.analysis.research.write_page` from the tables in "
        "`data/` and the run log `runs.json`; do not edit. The records every table is "
        "computed from are committed, xz-packed, under `data/records/`; "
        "`chameleon-lab notebooks run --profile research --only NOTEBOOK` resumes them "
        "(a finished run recomputes its tables without playing a game).",
        "",
    ]
    lines += _section_thesis(data)
    lines += _section_budgets(data)
    lines += _section_beyond(data)
    lines += _section_papers(data)
    lines += _section_tuning(data)
    lines += _section_learning(data)
    lines += _section_hypermax(data)
    runs = read_runs(folder)
    if runs:
        lines += [
            "## The runs and what they cost",
            "",
            runs_table(runs).to_markdown(index=False, disable_numparse=True),
        ]
    return atomic_write_text(folder / PAGE, "\n".join(lines).rstrip() + "\n")
