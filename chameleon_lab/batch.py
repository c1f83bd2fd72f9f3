"""The papermill batch: the notebooks' profiles and the runner that executes them.

:func:`run_batch` executes the notebooks with papermill into ``reports/`` with the
parameters of a profile (``quick``: about three minutes on two cores once compiled,
about nine from a fresh clone; ``full``: the thesis's scale), figures to ``figures/``
and tables to ``data/``; ``research`` (the comparisons sized to be decided) writes to
``research/`` instead, records packed, so the quick batch never touches its results.
A failing notebook stops the batch with the notebook and the cell named.

The notebooks themselves never import this module (their checks are in
:mod:`chameleon_lab.workbench`), so a change to a profile or to the runner is on no
artefact's path: an artefact is stale where the parameters its run recorded differ
from its profile's now (:func:`profile_problems`), not because a line here changed.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .analysis.output import RUN_ENV
from .lanes import check_lanes
from .machine_load import LoadWatch
from .source_code import commit
from .workbench import NOTEBOOKS, THESIS_FOUR, check_choice, notebook_dir, project_path

PROFILES: dict[str, dict[str, dict[str, Any]]] = {
    "quick": {
        "00_explore_heuristics": {"positions": 30, "search_depth": 2, "blocks": 2},
        "01_game": {"agent_depth": 2},
        "02_trees": {},
        "03_complexity": {
            "players": [2, 3, 4],
            "probabilities": [0.01, 0.1, 0.5],
            "games": 10,
            "depth": 2,
            "time_ms": None,
            "perft_depth": 4,
        },
        "04_thesis_tables": {"source": "thesis", "depths": [1, 2, 3, 4], "budgets_ms": [10]},
        "05_time_budgets": {
            "flavour": "improved",
            "algorithms": list(THESIS_FOUR),
            "budgets_ms": [10, 30, 100],
            "repetitions": 1,
        },
        "06_two_player_search": {
            "game": "gomoku",
            "depths": [1, 2, 3],
            "positions": 4,
            "budgets_ms": [10, 100],
            "tournament_ms": 20,
            "repetitions": 2,
        },
        "07_connect_four_reversi": {
            "perft_depth": 6,
            "selfplay_games": 10,
            "levels": [1, 2],
            "aggressiveness": [1, 3, 5],
            "repetitions": 1,
            "experiment_depth": 6,
            "experiment_positions": 4,
            "opening_board": [6, 5],
        },
        "08_search_efficiency": {
            "per_phase": 2,
            "depths": [1, 2, 3, 4],
            "budgets_ms": [10, 100, 1000],
        },
        "09_beyond_the_thesis": {
            "players": [3],
            "budgets_ms": [10],
            "blocks": 1,
            "claim_players": [3],
            "claim_budgets_ms": [10],
            "max_blocks": 2,
            "two_player_budgets_ms": [10],
            "two_player_blocks": 2,
        },
        "10_tuning": {
            "method": "spsa",
            "iterations": 3,
            "spsa_blocks": 1,
            "popsize": 4,
            "generations": 3,
            "depth": 1,
            "players": 3,
            "repetitions": 1,
            "eval_repetitions": 3,
            "eval_time_ms": 0,
            "max_blocks": 4,
            "batch": 2,
        },
        "11_hypermax": {"positions": 200, "depths": [2, 3, 4], "session_budgets_ms": [10]},
        "12_the_papers_games": {},
        "13_self_learning": {"games": 20, "batch": 10, "positions": 60, "max_blocks": 4},
    },
    "full": {
        "00_explore_heuristics": {
            "positions": 200,
            "search_depth": 3,
            "tournament_depth": 2,
            "blocks": 10,
        },
        "01_game": {"agent_depth": 3},
        "02_trees": {},
        "03_complexity": {
            "players": [2, 3, 4],
            "probabilities": [0.01, 0.1, 0.2, 0.5, 1.0],  # the thesis's runs
            "games": 100,
            "depth": None,
            "time_ms": 1000,
            "perft_depth": 5,
        },
        "04_thesis_tables": {
            "source": "thesis",
            "depths": [1, 2, 3, 4],
            "budgets_ms": [10, 100, 1000],
            "calibration_folds": 2,
        },
        "05_time_budgets": {
            "flavour": "improved",
            "algorithms": list(THESIS_FOUR),
            "budgets_ms": [10, 30, 100, 300, 1000],
            "repetitions": 4,
        },
        "06_two_player_search": {
            "game": "gomoku",
            "depths": [1, 2, 3, 4],
            "positions": 12,
            "budgets_ms": [10, 100, 1000],
            "tournament_ms": 100,
            "repetitions": 10,
        },
        "07_connect_four_reversi": {
            "perft_depth": 8,
            "selfplay_games": 100,
            "levels": [1, 2, 3],
            "aggressiveness": [1, 2, 3, 4, 5],
            "repetitions": 4,
            "experiment_depth": 7,
            "experiment_positions": 8,
            "opening_board": [7, 6],
        },
        "08_search_efficiency": {
            "per_phase": 8,
            "depths": [1, 2, 3, 4, 5],
            "budgets_ms": [10, 100, 1000],
        },
        "09_beyond_the_thesis": {
            "players": [3, 4],
            "budgets_ms": [10, 30, 100],
            "blocks": 4,
            "claim_players": [3, 4],
            "claim_budgets_ms": [10, 30, 100],
            "max_blocks": 200,
            "batch": 8,
            "two_player_budgets_ms": [10, 100],
            "two_player_blocks": 12,  # Othello has 12 distinct openings of 2 plies
        },
        "10_tuning": {
            "method": "spsa",
            "iterations": 100,
            "spsa_blocks": 4,  # 24 games an iteration at three seats, 56 at four
            "popsize": 8,  # (CMA-ES, with method="cma")
            "generations": 12,
            "depth": 2,
            "players": [3, 4],  # a tuning run of its own per count, the thesis's settings
            "repetitions": 4,
            "eval_repetitions": 25,
            "eval_time_ms": 10,
            "max_blocks": 200,
            "batch": 8,
        },
        "11_hypermax": {
            "positions": 1000,
            "depths": [2, 3, 4, 5],
            "cause_limit": 100,
            "session_budgets_ms": [10, 100, 1000],
        },
        "12_the_papers_games": {
            "players": [3, 4],
            "budgets_ms": [10, 100],
            "max_blocks": 200,
            "batch": 8,
            "pruning_positions": 8,
            "pruning_plies": [10, 40, 80],
            "pruning_depths": [1, 2, 3, 4],
        },
        "13_self_learning": {
            "learn": ["connect4", "othello", "chameleon"],
            "games": 400,
            "batch": 20,
            "net_games": 2000,
            "net_hidden": 32,
            "net_epochs": 30,
            "eval_time_ms": 10,
            "positions": 400,
            "max_blocks": 200,
            "duel_batch": 8,
            "curve_checkpoints": 5,
            "net_checkpoints": 4,
            "curve_blocks": 16,
        },
    },
}


#: What the research profile plays: the comparisons of the experiments issue sized to
#: be decided (every claim head to head until the SPRT stops, at most ``max_blocks``
#: blocks; the thesis's budgets on the emulated clock). Hours to days on two cores: run
#: it a notebook at a time (``--only``); it resumes from the packed records.
RESEARCH_NOTEBOOKS = (
    "04_thesis_tables",
    "05_time_budgets",
    "09_beyond_the_thesis",
    "10_tuning",
    "11_hypermax",
    "12_the_papers_games",
    "13_self_learning",
)
PROFILES["research"] = {name: dict(PROFILES["full"][name]) for name in RESEARCH_NOTEBOOKS}
PROFILES["research"]["09_beyond_the_thesis"].update(blocks=8, max_blocks=200, batch=8)
#: blocks a budget where they are cheap: a block of 24 games costs about 20 s at 10 ms,
#: 45 s at 30, 130 s at 100 and 25 minutes at 1000 ms (on one core), so the pairs at
#: the short budgets are played until the sign-flip test can see gaps of about 30 Elo
PROFILES["research"]["05_time_budgets"].update(repetitions=[64, 32, 16, 4, 4])
#: the thesis's sessions on the original's clock only: the improved flavour on this
#: machine's clock beside them would play the 1000 ms sessions in real time (hours)
#: and decides none of the research claims
PROFILES["research"]["04_thesis_tables"].update(improved_beside=False)
#: the thesis's sessions that seat Hypermax, 32 times each on the original's clock, each
#: time from another opening of 8 random plies (the clock is deterministic: from one
#: start the repetitions would be copies): 32 paired blocks a session (768 games a side
#: in 4-all, 1216 in the others), tested block by block; about 100 minutes of play on
#: one core
PROFILES["research"]["11_hypermax"].update(
    clock="original", session_repetitions=32, session_opening_plies=8
)

#: Where a profile writes (reports, figures, tables and records): the research results
#: have a place of their own, which the quick and full batches never write.
FOLDERS: dict[str, tuple[str, str, str]] = {
    "quick": ("reports", "figures", "data"),
    "full": ("reports", "figures", "data"),
    "research": ("research/reports", "research/figures", "research/data"),
}


class NotebookFailed(RuntimeError):
    """A notebook of the batch raised; the message names it and the cell."""


class BadParameters(NotebookFailed, ValueError):
    """A notebook refused its parameters: its check cell (the code cell right after
    the parameters) raised ``ValueError`` naming the value and what would be valid.
    Nothing was played or written; the CLI exits 2."""


def _check_cell(notebook: Path) -> str | None:
    """The source of ``notebook``'s check cell: the first code cell after the cell
    tagged ``parameters``; None where there is none."""
    cells = json.loads(notebook.read_text()).get("cells", [])
    after = False
    for cell in cells:
        if "parameters" in cell.get("metadata", {}).get("tags", []):
            after = True
        elif after and cell.get("cell_type") == "code":
            return "".join(cell.get("source", ""))
    return None


#: notebook parameters that name output folders, resolved with
#: :func:`~chameleon_lab.workbench.project_path`
FOLDER_PARAMETERS = ("figures_dir", "data_dir")


def kernel_config() -> Any:
    """The traitlets configuration of the kernels the batch starts: their traffic
    encrypted (CurveZMQ) where the kernel manager and libzmq can, else the default.

    The kernel and the batch talk over local TCP; since ipykernel 7.3 an unencrypted
    kernel logs a warning of eavesdropping at every start (one per notebook of the
    batch). ``transport_encryption="auto"`` encrypts where the kernel declares support
    (ipykernel does) and falls back to plain TCP where it does not."""
    import zmq
    from jupyter_client.manager import KernelManager
    from traitlets.config import Config

    config = Config()
    if zmq.has("curve") and KernelManager.class_traits().get("transport_encryption"):
        config.KernelManager.transport_encryption = "auto"
    return config


def run_notebook(
    name: str,
    parameters: dict[str, Any],
    reports: Path,
    *,
    source_dir: Path | None = None,
    progress: bool = False,
    profile: str | None = None,
) -> Path:
    """Execute one notebook with papermill into ``reports/NAME.ipynb``.

    Relative folders (``reports``, the ``figures_dir`` and ``data_dir`` parameters)
    are taken in the project folder (:func:`~chameleon_lab.workbench.project_path`);
    ``reports`` is created.
    The notebook, ``profile`` and parameters go to the kernel (``CHAMELEON_RUN``), so
    every figure and table it writes records them (:mod:`.analysis.output`). A
    parameter the notebook does not declare is refused (``ValueError``, see
    :func:`check_parameter_names`).
    """
    import papermill as pm
    from papermill.exceptions import PapermillExecutionError

    from .interrupt import execute_interruptibly

    source = (source_dir or notebook_dir()) / f"{name}.ipynb"
    if not source.exists():
        raise ValueError(f"no notebook {source}; notebooks: {', '.join(NOTEBOOKS)}")
    check_parameter_names(name, parameters, declared_parameters(source))
    given = dict(parameters)  # as the caller wrote them, for the provenance
    parameters = {
        key: str(project_path(value)) if key in FOLDER_PARAMETERS else value
        for key, value in parameters.items()
    }
    reports = project_path(reports)
    try:
        reports.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(
            f"cannot create the reports folder {reports}: {exc.strerror}; give a writable one"
        ) from None
    output = reports / f"{name}.ipynb"
    run = {"notebook": name, "profile": profile, "parameters": given}
    previous = os.environ.get(RUN_ENV)
    os.environ[RUN_ENV] = json.dumps(run, sort_keys=True, default=str)  # the kernel inherits it
    try:
        execute_interruptibly(
            pm.execute_notebook,
            input_path=str(source),
            output_path=str(output),
            parameters=parameters,
            progress_bar=progress,
            kernel_name="python3",
            cwd=str(source.parent),
            config=kernel_config(),
        )
    except PapermillExecutionError as exc:
        check = _check_cell(source)
        if exc.ename == "ValueError" and check and (exc.source or "").strip() == check.strip():
            raise BadParameters(f"notebook {name} refused its parameters: {exc.evalue}") from None
        first = (exc.source or "").strip().splitlines()[:1] or [""]
        raise NotebookFailed(
            f"notebook {name} failed in cell {exc.cell_index} (`{first[0]}`): "
            f"{exc.ename}: {exc.evalue}\n"
            f"the executed notebook with the error: {output}"
        ) from None
    finally:
        if previous is None:
            os.environ.pop(RUN_ENV, None)
        else:
            os.environ[RUN_ENV] = previous
    return output


def notebook_parameters(name: str) -> dict[str, Any]:
    """The parameters notebook ``name`` declares (its cell tagged ``parameters``), with
    their default values (``None`` where a default is not a plain literal)."""
    name = check_choice("notebook", name, NOTEBOOKS)
    return declared_parameters(notebook_dir() / f"{name}.ipynb")


def declared_parameters(source: Path) -> dict[str, Any]:
    """The parameters the notebook file ``source`` declares, with their defaults (see
    :func:`notebook_parameters`)."""
    import ast

    import papermill as pm

    defaults = {}
    for key, info in pm.inspect_notebook(str(source)).items():
        try:
            defaults[key] = ast.literal_eval(info["default"])
        except (ValueError, SyntaxError):
            defaults[key] = None
    return defaults


def check_parameter_names(name: str, given: Iterable[str], declared: Iterable[str]) -> None:
    """Refuse a parameter notebook ``name`` does not declare: papermill would inject it
    as a new variable with only a warning, and the notebook would run with the default
    of the parameter that was meant (``agent_dpeth=1`` leaves ``agent_depth`` as it
    was). The message names the closest declared parameter and all of them."""
    import difflib

    declared = list(declared)
    for key in given:
        if key in declared:
            continue
        close = difflib.get_close_matches(str(key), declared, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(
            f"{name} has no parameter {key!r}{hint}; its parameters: {', '.join(declared)}"
        )


#: Parameters the batch sets from its own options (``--figures``, ``--data``, ...).
BATCH_PARAMETERS = {"figures_dir": "--figures", "data_dir": "--data", "shared": "--shared",
                    "workers": "--workers"}  # fmt: skip


def parse_settings(name: str, items: Sequence[str]) -> dict[str, Any]:
    """``NAME=VALUE`` items as parameters of notebook ``name``.

    The name must be one the notebook declares. The value is taken as text where the
    parameter's default is text (``flavour=thesis``), else as JSON (``repetitions=2``,
    ``budgets_ms=[10, 100]``, ``time_ms=null``), so nothing is guessed: a value that
    is not JSON is refused with the default as an example. The notebook's check cell
    then checks the values themselves.
    """
    declared = notebook_parameters(name)
    settable = [k for k in declared if k not in BATCH_PARAMETERS]
    settings: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"--set {item!r}: expected NAME=VALUE, e.g. repetitions=2")
        if key in BATCH_PARAMETERS:
            raise ValueError(f"--set {key}: the batch sets {key}; use {BATCH_PARAMETERS[key]}")
        try:
            check_parameter_names(name, [key], settable)
        except ValueError as exc:
            raise ValueError(f"--set {key}: {exc}") from None
        if key in settings:
            raise ValueError(f"--set {key}: given twice")
        if isinstance(declared[key], str):
            settings[key] = text
            continue
        try:
            settings[key] = json.loads(text)
        except json.JSONDecodeError:
            raise ValueError(
                f"--set {key}={text}: {key} takes a JSON value like its default "
                f"{json.dumps(declared[key])}"
            ) from None
    return settings


def run_batch(
    profile: str = "quick",
    only: Sequence[str] | None = None,
    *,
    reports: str | Path | None = None,
    figures: str | Path | None = None,
    data: str | Path | None = None,
    workers: int | None = None,
    shared: str | None = None,
    progress: bool = True,
    settings: dict[str, Any] | None = None,
    lanes: int | None = None,
) -> list[tuple[str, float]]:
    """Run the notebooks of ``profile`` (all it has, or ``only`` these); returns (name,
    seconds).

    ``lanes`` notebooks run at once, each in a process of its own
    (:func:`chameleon_lab.lanes.run_lanes`; default :func:`default_lanes`); the research
    profile runs one at a time.

    ``reports``, ``figures`` and ``data`` default to the profile's folders
    (:data:`FOLDERS`); relative ones are taken in the project folder
    (:func:`~chameleon_lab.workbench.project_path`). ``settings`` (see
    :func:`parse_settings`) replace the profile's parameters of the one notebook run.
    The records under ``data/records`` are unpacked before each notebook (so a run
    resumes from packed records) and packed after it
    (:func:`~chameleon_lab.tournament.records.pack_records`) where the profile keeps
    packed records (research); the quick and full batches' records are emptied when
    other package sources played them (:func:`records_of_these_sources`)."""
    from tqdm.auto import tqdm

    from .tournament import unpack_records

    check_choice("profile", profile, PROFILES)
    plan = PROFILES[profile]
    names = list(plan) if not only else [check_choice("notebook", n, NOTEBOOKS) for n in only]
    for name in names:
        if name not in plan:
            raise ValueError(
                f"the {profile} profile has no notebook {name}; its notebooks: {', '.join(plan)}"
            )
    if settings and len(names) != 1:
        raise ValueError("parameters are set for one notebook: name it with --only")
    default = FOLDERS[profile]
    reports, figures, data = (
        default[i] if given is None else given for i, given in enumerate((reports, figures, data))
    )
    packed = profile == "research"
    lanes = default_lanes(profile) if lanes is None else lanes
    check_lanes(lanes)
    if packed and lanes > 1:
        raise ValueError(
            "the research profile runs one notebook at a time (its records are packed "
            "after each and logged with the run): give lanes 1"
        )
    records = project_path(data) / "records"
    if not packed:
        records_of_these_sources(records)
    if lanes > 1 and len(names) > 1:
        folders = {"reports": reports, "figures": figures, "data": data}
        return _in_lanes(profile, names, lanes, folders, workers, shared, progress)
    common = {
        "figures_dir": str(figures),  # run_notebook takes relative ones in the project
        "data_dir": str(data),
        "shared": shared or "",
        "workers": workers or 0,
    }
    done = []
    bar = tqdm(names, desc=f"notebooks ({profile})", unit="notebook", disable=not progress)
    for name in bar:
        bar.set_postfix_str(name)
        t0 = time.perf_counter()
        params = {**common, **plan[name], **(settings or {})}
        if packed:
            unpack_records(records)
        started = commit() if packed else None  # the code the run plays, not a later one
        finished, refused = False, False
        load = LoadWatch()  # how busy the machine was: logged with a research run
        try:
            with load:
                run_notebook(name, params, project_path(reports), profile=profile)
            finished = True
        except BadParameters:
            refused = True  # nothing played: no run to log
            raise
        finally:
            if packed and not refused:  # an interrupted run keeps what it played, and its cost
                every = {**notebook_parameters(name), **params}  # defaults too: on record
                _close_research_run(name, every, time.perf_counter() - t0, finished, data,
                                    started=started, load=load.summary())  # fmt: skip
        done.append((name, time.perf_counter() - t0))
        bar.write(f"{name}: {done[-1][1]:.0f} s")
    return done


#: Started first where notebooks run in lanes: the quick batch's longest (the README's
#: figures), so that the batch does not end waiting for one of them alone.
LONGEST_FIRST = ("12_the_papers_games", "04_thesis_tables", "05_time_budgets",
                 "09_beyond_the_thesis", "07_connect_four_reversi")  # fmt: skip
#: Notebooks that play some of the same sessions into the same records files (04's
#: improved time-mode sessions are 11's plain Hypermax ones): never run at once, so the
#: later one reads the earlier one's games back.
RECORDS_GROUPS = {"04_thesis_tables": "thesis sessions", "11_hypermax": "thesis sessions"}


def default_lanes(profile: str) -> int:
    """Notebooks run at once unless told: two where the machine has two cores or more
    (a fresh clone's quick batch spends much of its time on one core, compiling), one
    for the research profile."""
    return 1 if profile == "research" else min(2, os.cpu_count() or 1)


def _in_lanes(
    profile: str,
    names: Sequence[str],
    lanes: int,
    folders: dict[str, Any],
    workers: int | None,
    shared: str | None,
    progress: bool,
) -> list[tuple[str, float]]:
    """The notebooks ``names`` of ``profile``, ``lanes`` at once, each one
    ``chameleon-lab notebooks run --only NAME`` in a process of its own
    (:func:`chameleon_lab.lanes.run_lanes`), its output in ``REPORTS/NAME.log``."""
    from .lanes import Job, JobFailed, run_lanes

    reports = project_path(folders["reports"])
    order = [n for n in LONGEST_FIRST if n in names] + [n for n in names if n not in LONGEST_FIRST]
    base = [sys.executable, "-m", "chameleon_lab.cli", "notebooks", "run", "--profile",
            profile, "--lanes", "1", "--quiet"]  # fmt: skip
    for option, value in (*folders.items(), ("workers", workers), ("shared", shared)):
        if value:
            base += [f"--{option}", str(value)]
    jobs = [
        Job(name, (*base, "--only", name), reports / f"{name}.log", RECORDS_GROUPS.get(name))
        for name in order
    ]
    try:
        return run_lanes(jobs, lanes, progress=progress, desc=f"notebooks ({profile})")
    except JobFailed as exc:
        raise NotebookFailed(str(exc)) from None


#: The file in a quick or full batch's records folder that names the package sources
#: its records were played by (:func:`records_of_these_sources`).
SOURCES_STAMP = "SOURCES"


def records_of_these_sources(records: Path) -> None:
    """Empty ``records``, the working records of a quick or full batch, when other
    package sources played them, and stamp it with these sources' fingerprint
    (:func:`~chameleon_lab.source_code.code_fingerprint`: the code without docstrings,
    comments and the entry points, so a docstring edit keeps them).

    Why: a batch resumes from its records, and the notebooks cache trained models,
    TD-Leaf runs and duels there keyed by their parameters alone, so after a code
    change a batch would read an older code's results back into fresh tables (notebook
    13's cached value net did: 4069e2e changed which epoch it keeps, and a later batch
    in the same checkout committed the earlier net's duel). Records of these sources
    stay, so an interrupted run resumes. Research records are packed and kept on
    purpose (each run is logged with its commit): a folder holding packed records is
    refused rather than emptied."""
    from .source_code import code_fingerprint

    stamp = records / SOURCES_STAMP
    now = code_fingerprint()
    if records.exists() and not (stamp.exists() and stamp.read_text().strip() == now):
        if any(records.rglob("*.jsonl.xz")):
            raise ValueError(
                f"{records} holds packed research records, which a quick or full batch "
                "would empty (its sources changed): run the research profile there, or "
                "give the batch another data folder"
            )
        shutil.rmtree(records)
    records.mkdir(parents=True, exist_ok=True)
    stamp.write_text(now + "\n")


def _close_research_run(
    name: str, params: dict[str, Any], seconds: float, finished: bool, data: str | Path, *,
    started: str | None, load: dict[str, Any] | None,
) -> None:  # fmt: skip
    """Pack the records a research notebook wrote, log its run (cost included, the commit
    ``started`` it began at and the machine's ``load`` while it ran) in the research
    folder (the parent of its data folder), leave the standing of an interrupted run of
    a notebook that has one (:func:`_write_interim`) and write the results page."""
    from .analysis.research import log_run, write_page
    from .tournament import pack_records

    data = project_path(data)
    if (data / "records").exists():
        pack_records(data / "records")
    log_run(data.parent, name, params, seconds, interrupted=not finished,
            commit=started, load=load)  # fmt: skip
    _write_interim(name, params, data, finished)
    write_page(data.parent)


def _write_interim(name: str, params: dict[str, Any], data: Path, finished: bool) -> None:
    """After an interrupted run of a notebook of :data:`~.analysis.research.INTERIM`,
    write where its duels stand (read from the records, nothing played) as CSV tables in
    ``data``; after a finished one, remove them (its own tables replace them)."""
    from .analysis.research import INTERIM
    from .files import atomic_write

    if name not in INTERIM:
        return
    names, read = INTERIM[name]
    if finished:
        for table_name in names:
            (data / f"{table_name}.csv").unlink(missing_ok=True)
        return
    try:
        tables = read(params, data / "records")
    except ValueError as exc:  # nothing recorded yet: no standing to show
        print(f"{name}: no interim standing ({exc})", file=sys.stderr)
        return
    for table_name, table in tables.items():
        atomic_write(data / f"{table_name}.csv", lambda p, t=table: t.to_csv(p, index=False))


def profile_problems(folder: str | Path, files: Sequence[Path] | None = None) -> list[str]:
    """The artefacts of ``files`` (default: every figure and table in ``folder``) whose
    run's parameters are not those their profile and notebook give now: a changed line
    of a profile makes stale exactly the artefacts that line's notebook wrote in that
    profile, and nothing else (the profiles are on no artefact's path). A parameter the
    profile no longer sets counts at the notebook's default; the batch's own (folders,
    workers, the shared folder) do not count. Artefacts of runs outside a profile (a
    notebook run by hand) are the staleness of their sources' alone."""
    from .analysis.output import PROVENANCE

    folder = Path(folder)
    book_path = folder / PROVENANCE
    book = json.loads(book_path.read_text()) if book_path.exists() else {}
    if files is None:
        files = [p for p in folder.iterdir() if p.suffix in (".png", ".svg", ".csv")]
    defaults: dict[str, dict[str, Any]] = {}
    problems = []
    for path in sorted(files):
        entry = book.get(path.name) or {}
        profile, notebook = entry.get("profile"), entry.get("notebook")
        if profile not in PROFILES or notebook not in PROFILES[profile]:
            continue
        if notebook not in defaults:
            defaults[notebook] = declared_parameters(notebook_dir() / f"{notebook}.ipynb")
        want = {**defaults[notebook], **PROFILES[profile][notebook]}
        ran = {**defaults[notebook], **entry.get("parameters", {})}
        differ = sorted(
            k
            for k in set(want) | set(ran)
            if k not in BATCH_PARAMETERS and _json(want.get(k)) != _json(ran.get(k))
        )
        if differ:
            problems.append(
                f"{path.name}: made with {', '.join(differ)} other than the {profile} profile "
                f"gives now; regenerate it: chameleon-lab notebooks run --profile {profile} "
                f"--only {notebook}"
            )
    return problems


def _json(value: Any) -> str:
    """``value`` as JSON writes it (tuples as lists), to compare a profile's value with
    the one a provenance entry recorded."""
    return json.dumps(value, sort_keys=True)
