"""The original program's speed, measured from its time-mode records, to emulate its clock.

Our searches run deeper than the original's in the same milliseconds (notebook 04's
depth table sets the depths reached here beside the recorded ones), so a time-mode
session played on this machine's clock answers another question than the thesis's
did. The thesis flavour can instead run on the original's
clock: a node counter at the original's speed, read where the original read its clock
(between root successors; :func:`.driver.run_nodes`).

The speed comes from the records themselves. A time-mode move replayed where the
original stopped (:func:`.replay.replay_time`) visits exactly the positions the
original visited, so its node count (expanded plus evaluated positions) over the
recorded milliseconds is the original's speed on that move.

That speed is not one number: the original spent time on a position in proportion to
the pawns on the board plus one (its move generation and evaluation walk the pawns), so
with 2 pawns it searched about six times as many nodes a millisecond as at the start
(:mod:`chameleon_lab.games.chameleon.clock`). Scaled to the start position by that
factor, the rates of an algorithm's moves agree from the opening to the end. The rate of an
algorithm (with its normalisation) is the median over every time-mode move it made of
its scaled rate (:func:`measure_node_rates`): the median, because the stopping rule
reproduces the original's stop on a move whose own rate it is given, and the median
move's rate then gives the median move's depth. The rates measured from the twelve
time-mode session files ship with the package (``data/node-rates.csv``,
:func:`original_node_rates`); a test measures them again from the records.

:func:`emulate_moves` searches each recorded position on the emulated clock, and
:func:`depth_medians` sets the depths reached beside the recorded ones per algorithm,
budget and game phase: the calibration's check. Checked on the files it was fitted on,
that check flatters; :func:`cross_validate` fits the rates on some files and checks them
on the others, and :func:`stop_shares` counts the moves on which the emulated clock
stops at the very depth the original recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm.auto import tqdm

from ..analysis.studies import phase
from ..games.chameleon import clock
from . import driver
from .legacy import load_mode
from .replay import recorded_moves, replay_time

#: the node rates measured from the legacy records (see the module doc)
RATES_FILE = Path(__file__).with_name("data") / "node-rates.csv"
#: how far (plies) an emulated median depth may lie from the recorded one
DEPTH_TOLERANCE = 0.25


def measure_node_rates(moves: pd.DataFrame) -> pd.DataFrame:
    """Nodes per millisecond at the start position per ``algorithm`` and ``normalize``
    from the per-move table of :func:`.replay.replay_time` (columns ``moves``,
    ``nodes``, ``ms``, ``node_rate``: the median of the moves' own rates, each scaled
    to the start position as the module doc says)."""
    timed = moves[moves["time_ms"] > 0]
    offset = clock.PAWN_COST_OFFSET
    scale = (timed["pawns"] + offset) / (clock.START_PAWN_COUNT + offset)
    rate = timed["nodes"] / timed["time_ms"] * scale
    out = (
        timed.assign(rate=rate)
        .groupby(["algorithm", "normalize"])
        .agg(
            moves=("rate", "size"),
            nodes=("nodes", "sum"),
            ms=("time_ms", "sum"),
            node_rate=("rate", "median"),
        )
        .reset_index()
    )
    out["node_rate"] = out["node_rate"].round(3)
    return out


def write_node_rates(shared: Path, path: Path = RATES_FILE, *, progress: bool = True) -> Path:
    """Measure the rates from every time-mode file under ``shared`` and write them to
    ``path`` (maintainers: after the records or the search's node counting change)."""
    from .reference import legacy_files

    rates = rates_of(legacy_files(shared, "*-t*.json"), progress=progress)
    rates.to_csv(path, index=False)
    return path


def rates_of(paths: Sequence[str | Path], *, progress: bool = True) -> pd.DataFrame:
    """:func:`measure_node_rates` of the time-mode files ``paths``, replayed where the
    original stopped; ``ValueError`` if a replay is not exact (a rate is only the
    original's where it is)."""
    results = replay_time(paths, progress=progress)
    wrong = [str(r) for r in results if not r.identical]
    if wrong:
        raise ValueError("the time-mode replay is not exact: " + "; ".join(wrong))
    return measure_node_rates(pd.concat(r.moves for r in results))


def split_files(paths: Sequence[str | Path], folds: int = 2, seed: int = 0) -> list[list[Path]]:
    """The time-mode files dealt into ``folds`` folds, each budget's files spread over
    them in a seeded order, so every fold holds every budget where there are enough
    files (``ValueError`` for fewer files than folds)."""
    import numpy as np

    paths = sorted(Path(p) for p in paths)
    if isinstance(folds, bool) or not isinstance(folds, int) or not 2 <= folds <= len(paths):
        raise ValueError(
            f"folds must be a whole number from 2 to the {len(paths)} files, got {folds!r}"
        )
    rng = np.random.default_rng(seed)
    out: list[list[Path]] = [[] for _ in range(folds)]
    turn = 0
    for budget in sorted({p.stem.rsplit("-t", 1)[-1] for p in paths}, key=int):
        group = [p for p in paths if p.stem.rsplit("-t", 1)[-1] == budget]
        for i in rng.permutation(len(group)):
            out[turn % folds].append(group[i])
            turn += 1
    return [sorted(f) for f in out]


def cross_validate(
    paths: Sequence[str | Path], *, folds: int = 2, seed: int = 0, progress: bool = True
) -> pd.DataFrame:
    """The calibration checked on files it was not fitted on: the files dealt into
    folds (:func:`split_files`), and every fold's moves searched on the emulated clock
    (:func:`emulate_moves`) at the rates measured from the other folds' files. Rows as
    :func:`emulate_moves` gives them, with ``fold``; a move whose search the other
    folds never played has no rate to be checked with and is left out, counted in
    ``attrs["unrated"]``."""
    parts, unrated = [], 0
    split = split_files(paths, folds, seed)
    for k, checked in enumerate(split):
        fitted = [p for j, fold in enumerate(split) if j != k for p in fold]
        moves = emulate_moves(checked, rates_of(fitted, progress=progress), progress=progress,
                              missing="skip")  # fmt: skip
        unrated += moves.attrs.get("unrated", 0)
        parts.append(moves.assign(fold=k))
    out = pd.concat(parts, ignore_index=True)
    out.attrs["unrated"] = unrated
    return out


def stop_shares(moves: pd.DataFrame) -> pd.DataFrame:
    """Per agent and budget, of :func:`emulate_moves` rows: the moves, the share of them
    on which the emulated clock stopped at the depth the original recorded, and the
    mean and largest distance (plies) where it did not."""
    off = (moves["emulated_depth"] - moves["depth"]).abs()
    return (
        moves.assign(same=off == 0, off=off)
        .groupby(["agent", "budget_ms"], observed=True)
        .agg(
            moves=("same", "size"),
            same_depth=("same", "mean"),
            mean_off=("off", "mean"),
            max_off=("off", "max"),
        )
        .reset_index()
    )


def original_node_rates() -> pd.DataFrame:
    """The node rates shipped with the package (measured as the module doc says)."""
    return pd.read_csv(RATES_FILE)


def original_node_rate(algorithm: str, normalize: bool) -> float:
    """The original program's nodes per millisecond for ``algorithm`` (with or without
    normalisation), or ``ValueError`` naming the calibrated ones."""
    rates = original_node_rates()
    row = rates[(rates["algorithm"] == algorithm) & (rates["normalize"] == bool(normalize))]
    if row.empty:
        pairs = zip(rates["algorithm"], rates["normalize"], strict=True)
        known = ", ".join(f"{a} (normalize={n})" for a, n in pairs)
        raise ValueError(
            f"no node rate of the original for {algorithm} with normalize={normalize}; "
            f"calibrated: {known}"
        )
    return float(row["node_rate"].iloc[0])


def emulate_moves(
    paths: Sequence[str | Path],
    rates: pd.DataFrame | None = None,
    *,
    progress: bool = True,
    missing: str = "raise",
) -> pd.DataFrame:
    """Search every recorded position of time-mode legacy files on the emulated clock.

    One row per move: ``session``, ``game``, ``ply``, ``agent``, ``algorithm``,
    ``normalize``, ``budget_ms``, ``pawns``, ``phase``, ``node_rate``, the recorded
    ``depth`` and ``time_ms``, and the ``emulated_depth`` and ``emulated_nodes``.
    ``rates`` defaults to :func:`original_node_rates`; a move of a search it has no
    rate for raises ``ValueError`` (``missing="raise"``) or is left out and counted in
    ``attrs["unrated"]`` (``missing="skip"``).
    """
    if missing not in ("raise", "skip"):
        raise ValueError(f"missing must be 'raise' or 'skip', got {missing!r}")
    rates = original_node_rates() if rates is None else rates
    lookup = {
        (a, bool(n)): float(r)
        for a, n, r in zip(rates["algorithm"], rates["normalize"], rates["node_rate"], strict=True)
    }
    legacies = load_mode(paths, "time", "the emulated clock is checked on time-mode files")
    total = sum(len(r["moves"]) for legacy in legacies for r in legacy.records)
    rows: list[dict[str, Any]] = []
    unrated = 0
    with tqdm(total=total, desc="emulated moves", unit="move", disable=not progress) as bar:
        for legacy in legacies:
            for g, k, position, name, params, move in recorded_moves(legacy):
                key = (params["algorithm"], bool(params["normalize"]))
                if key not in lookup and missing == "skip":
                    unrated += 1
                    bar.update(1)
                    continue
                if key not in lookup:
                    raise ValueError(f"no node rate for {key[0]} with normalize={key[1]}")
                state = position.state
                algo = driver.root_algorithm(
                    key[0], state, heuristic=params["heuristic"], normalize=key[1]
                )
                budget = clock.original_clock_nodes(state, legacy.mode_value, lookup[key])
                result = driver.run_nodes(algo, state, budget)
                rows.append(
                    {
                        "session": legacy.path.stem,
                        "game": g,
                        "ply": k,
                        "agent": name,
                        "algorithm": key[0],
                        "normalize": key[1],
                        "budget_ms": legacy.mode_value,
                        "pawns": len(position.pawns),
                        "node_rate": lookup[key],
                        "depth": float(move["depth"]),
                        "time_ms": move["time_ms"],
                        "emulated_depth": result.depth,
                        "emulated_nodes": result.expanded + result.evaluated,
                    }
                )
                bar.update(1)
    out = pd.DataFrame(rows)
    out["phase"] = phase(out["pawns"])
    out.attrs["unrated"] = unrated
    return out


def depth_medians(moves: pd.DataFrame, tolerance: float = DEPTH_TOLERANCE) -> pd.DataFrame:
    """Recorded against emulated median depth per algorithm (agent name as in the
    session files), budget and phase, from :func:`emulate_moves`: columns ``moves``,
    ``recorded``, ``emulated``, ``difference`` and ``within`` (``|difference| <=
    tolerance``)."""
    out = (
        moves.groupby(["agent", "budget_ms", "phase"], observed=True)
        .agg(
            moves=("depth", "size"),
            recorded=("depth", "median"),
            emulated=("emulated_depth", "median"),
        )
        .reset_index()
    )
    out["difference"] = out["emulated"] - out["recorded"]
    out["within"] = out["difference"].abs() <= tolerance
    return out


def depth_verdict(medians: pd.DataFrame, tolerance: float = DEPTH_TOLERANCE) -> str:
    """One sentence on :func:`depth_medians`: how many medians lie within ``tolerance``
    plies of the recorded ones, naming the others."""
    off = medians[~medians["within"]]
    text = (
        f"{int(medians['within'].sum())} of {len(medians)} median depths (per agent, "
        f"budget and phase) lie within {tolerance:g} plies of the original's"
    )
    if off.empty:
        return text + "."
    names = "; ".join(
        f"{r.agent} at {r.budget_ms:g} ms, {r.phase} ({r.difference:+.2f})"
        for r in off.itertuples()
    )
    return text + f"; not: {names}."


def plot_emulated_depths(moves: pd.DataFrame) -> Any:
    """The depths the original reached (recorded) beside those the emulated clock
    reaches on the same positions: a row of panels per budget, a panel per game phase,
    per agent a box of each clock (the box: middle half of the moves, the line: the
    median)."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    budgets = sorted(moves["budget_ms"].unique())
    phases = [p for p in reversed(moves["phase"].cat.categories) if (moves["phase"] == p).any()]
    agents = sorted(moves["agent"].unique())
    long = pd.concat(
        [
            moves.assign(clock="original (recorded)", reached=moves["depth"]),
            moves.assign(clock="emulated", reached=moves["emulated_depth"]),
        ]
    )
    fig, axes = plt.subplots(
        len(budgets),
        len(phases),
        figsize=(3.4 * len(phases), 3.3 * len(budgets)),
        squeeze=False,
    )
    for row, budget in zip(axes, budgets, strict=True):
        for ax, where in zip(row, phases, strict=True):
            part = long[(long["budget_ms"] == budget) & (long["phase"] == where)]
            sns.boxplot(
                data=part,
                x="agent",
                y="reached",
                hue="clock",
                order=agents,
                showfliers=False,
                ax=ax,
                legend=ax is axes[0, 0],
            )
            ax.set_title(f"{budget:g} ms, {where}", fontsize=10)
            ax.set_xlabel("")
            ax.set_ylabel("completed depth (plies)" if ax is row[0] else "")
            ax.tick_params(axis="x", labelrotation=45, labelsize=8)
    axes[0, 0].legend(fontsize=8, loc="upper left")
    fig.suptitle("Completed depth per move: the original's clock (recorded) and the emulated one")
    fig.tight_layout()
    return fig
