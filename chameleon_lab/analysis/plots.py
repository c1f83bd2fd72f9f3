"""Plots of the studies, in the workbench's style (:func:`.output.use_style`)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from .stats import win_rates
from .studies import phase
from .style import palette, style_of


def _budget_axis(ax: Any, budgets: Any) -> None:
    """A log-scale budget axis with a plain tick at every budget (10, 30, 100 ms),
    not powers of ten only."""
    from matplotlib.ticker import FixedLocator, NullLocator

    budgets = sorted({float(b) for b in budgets})
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(FixedLocator(budgets))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([f"{b:g}" for b in budgets])


def _count_axis(ax: Any) -> None:
    """A log-scale count axis labelled 1, 10, 100, 1k, 10k, 1M (not 10^k), reaching
    down to the power of ten below its smallest count, so that the lowest points are
    read against a labelled tick. Call it after plotting every panel that shares the
    axis: setting the bottom fixes the top where the data drawn so far reach."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    def short(v: float, _pos: Any) -> str:
        for size, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
            if v >= size:
                return f"{v / size:g}{unit}"
        return f"{v:g}"

    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(base=10))
    ax.yaxis.set_major_formatter(FuncFormatter(short))
    ax.yaxis.set_minor_formatter(NullFormatter())
    smallest = ax.dataLim.y0
    if np.isfinite(smallest) and smallest > 0:
        decade = 10.0 ** math.floor(math.log10(smallest))
        if decade < ax.get_ylim()[0]:  # only ever lowered (panels may share the axis)
            ax.set_ylim(bottom=decade)


def plot_win_rate_vs_budget(t: Any) -> Any:
    """Win rate per algorithm against the time budget, with 95 % Wilson bands."""
    import matplotlib.pyplot as plt

    rates = win_rates(t, by=["budget_ms", "agent"])
    fig, ax = plt.subplots(figsize=(7, 4))
    for agent, group in rates.groupby("agent", sort=True):
        group = group.sort_values("budget_ms")
        look = style_of(agent)
        ax.plot(group["budget_ms"], group["win_rate"], label=agent, **look)
        ax.fill_between(
            group["budget_ms"], group["ci_low"], group["ci_high"], color=look["color"], alpha=0.15
        )
    _budget_axis(ax, rates["budget_ms"])
    ax.set_ylim(0, 1)
    ax.set_xlabel("time budget per move (ms, log scale)")
    ax.set_ylabel("win rate (share of games won)")
    ax.set_title("Win rate against time budget (bands: 95 % Wilson intervals)")
    ax.legend(title="algorithm")
    fig.tight_layout()
    return fig


def _phases_played(phases: pd.Series) -> tuple[list[Any], list[Any]]:
    """The game phases (:func:`.studies.phase` categories) that hold a searched move,
    opening first, and those that hold none: a phase nobody searched (the quick batch
    opens its games with random moves) gets no empty column but a word in the title."""
    every = list(reversed(phases.cat.categories))
    played = set(phases.dropna())
    return [p for p in every if p in played], [p for p in every if p not in played]


def _with_missing(title: str, missing: list[Any]) -> str:
    """``title``, and on a second line the phases left out for want of a searched move."""
    return title + (f"\n(no searched move in: {', '.join(map(str, missing))})" if missing else "")


def plot_depths(moves: pd.DataFrame, by_phase: bool = False) -> Any:
    """Distribution of the completed search depth per algorithm and budget (boxes),
    or, with ``by_phase``, per game phase (pawns left) and algorithm."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    df = moves[~moves["random"].astype(bool)].copy()
    agents = sorted(df["agent"].unique())
    look = {"hue": "agent", "hue_order": agents, "palette": palette(agents), "fliersize": 1}
    fig, ax = plt.subplots(figsize=(8, 4))
    if by_phase:
        df["phase"] = phase(df["pawns"])
        order, missing = _phases_played(df["phase"])
        sns.boxplot(data=df, x="phase", y="depth", order=order, ax=ax, **look)
        ax.set_xlabel("game phase (pawns on the board)")
        ax.set_title(_with_missing("Completed search depth by game phase (all budgets)", missing))
    else:
        df["budget"] = df["budget_ms"].map(lambda b: f"{b:g} ms")
        order = [f"{b:g} ms" for b in sorted(df["budget_ms"].unique())]  # numeric order
        sns.boxplot(data=df, x="budget", y="depth", order=order, ax=ax, **look)
        ax.set_xlabel("time budget per move")
        ax.set_title("Completed search depth per move")
    ax.set_ylabel("completed depth (plies)")
    ax.legend(title="algorithm", fontsize=8)
    fig.tight_layout()
    return fig


def plot_complexity(per_game_rows: pd.DataFrame) -> Any:
    """Distributions of the games' mean branching factor and length per player count."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    df = per_game_rows.assign(players=per_game_rows["players"].astype(str))
    counts = [str(n) for n in sorted(per_game_rows["players"].unique())]  # numeric order
    sns.histplot(
        data=df, x="b_mean", hue="players", hue_order=counts, element="step", ax=axes[0], bins=20
    )
    axes[0].set_xlabel("mean branching factor of a game (legal moves)")
    axes[0].set_ylabel("games")
    sns.histplot(
        data=df, x="length", hue="players", hue_order=counts, element="step", ax=axes[1], bins=20
    )
    axes[1].set_xlabel("game length (moves)")
    axes[1].set_ylabel("games")
    fig.suptitle("Self-play with random moves: branching factor and game length")
    fig.tight_layout()
    return fig


def plot_ladder(per_depth: pd.DataFrame, game: str) -> Any:
    """Nodes and effective branching factor per depth for each setting of the ladder
    (:func:`.twoplayer.branching` output), nodes on a log scale."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for setting, group in per_depth.groupby("setting", observed=True, sort=True):
        group = group.sort_values("depth")
        style = {**style_of(setting), "label": setting}
        axes[0].plot(group["depth"], group["nodes"], **style)
        axes[1].plot(group["depth"], group["ebf"], **style)
    _count_axis(axes[0])
    axes[0].set_ylabel("nodes (expanded + evaluated, log scale)")
    axes[1].set_ylabel("effective branching factor\nN(d) / N(d - 1)")
    depths = sorted(per_depth["depth"].unique())
    axes[0].set_xticks(depths)
    axes[1].set_xticks(depths[1:])  # the factor needs the depth before
    for ax in axes:
        ax.set_xlabel("search depth (plies)")
    # beside the panels: inside, it hid the steepest line (negamax's) at small depths
    axes[1].legend(title="setting\n(each adds\none switch)", fontsize=8, title_fontsize=8,
                   loc="upper left", bbox_to_anchor=(1.02, 1))  # fmt: skip
    fig.suptitle(f"Seed 001's enhancement ladder on {game}: nodes per depth")
    fig.tight_layout()
    return fig


def plot_depth_in_time(depths: pd.DataFrame, game: str) -> Any:
    """Median completed depth per setting within each time budget; the whiskers span
    the quartiles over the positions (a cap alone: they all reached the same depth)."""
    import matplotlib.pyplot as plt

    summary = (
        depths.groupby(["setting", "budget_ms"], observed=True)["depth"]
        .quantile([0.25, 0.5, 0.75])
        .unstack()
        .reset_index()
    )
    fig, ax = plt.subplots(figsize=(8, 4))
    budgets = sorted(summary["budget_ms"].unique())
    width = 0.8 / max(1, summary["setting"].nunique())
    for i, (setting, group) in enumerate(summary.groupby("setting", observed=True, sort=True)):
        x = [budgets.index(b) + (i - (summary["setting"].nunique() - 1) / 2) * width
             for b in group["budget_ms"]]  # fmt: skip
        ax.bar(x, group[0.5], width, color=style_of(setting)["color"], label=setting)
        ax.errorbar(x, group[0.5], yerr=[group[0.5] - group[0.25], group[0.75] - group[0.5]],
                    fmt="none", color="black", lw=1, capsize=3)  # fmt: skip
    ax.set_xticks(range(len(budgets)), [f"{b:g} ms" for b in budgets])
    ax.set_xlabel("time budget per move")
    ax.set_ylabel("completed depth (plies, median)")
    ax.set_title(f"Depth reached in a fixed time on {game}\n(whiskers: quartiles over the "
                 "positions; a cap alone: all reached the same depth)", fontsize=10)  # fmt: skip
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1))
    fig.tight_layout()
    return fig


def plot_nodes_per_depth(per_depth: pd.DataFrame) -> Any:
    """Mean nodes per depth for each algorithm (and normalisation), one panel per game
    phase, nodes on a log scale (:func:`.efficiency.branching` output)."""
    import matplotlib.pyplot as plt

    phases = list(dict.fromkeys(per_depth["phase"]))
    fig, axes = plt.subplots(1, len(phases), figsize=(4.2 * len(phases), 4), sharey=True)
    axes = [axes] if len(phases) == 1 else list(axes)
    for ax, ph in zip(axes, phases, strict=True):
        part = per_depth[per_depth["phase"] == ph]
        for (algorithm, norm), group in part.groupby(["algorithm", "normalize"], sort=True):
            look = style_of(algorithm)
            dashed = norm == "False"
            ax.plot(
                group["depth"],
                group["nodes"],
                linestyle="--" if dashed else "-",
                label=f"{algorithm}{' (not normalised)' if dashed else ''}",
                **look,
            )
        ax.set_xticks(sorted(part["depth"].unique()))
        ax.set_xlabel("search depth (plies)")
        ax.set_title(ph, fontsize=10)
    for ax in axes:  # after every panel: they share the axis
        _count_axis(ax)
    axes[0].set_ylabel("nodes (expanded + evaluated, log scale)")
    axes[-1].legend(fontsize=7)
    fig.suptitle("Nodes per depth on the same four-player positions, by game phase")
    fig.tight_layout()
    return fig


def plot_depth_at_budget(reached: pd.DataFrame, thesis: pd.DataFrame | None = None) -> Any:
    """Median completed depth per algorithm against the time budget (bands: quartiles)
    over every position (:func:`.efficiency.depth_at_budget` rows); the thesis's
    self-play medians (table 6.8) as crosses where given (columns ``algorithm``,
    ``budget_ms``, ``depth_median``)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    groups = list(reached.groupby("algorithm", sort=True))
    for i, (algorithm, group) in enumerate(groups):
        q = group.groupby("budget_ms")["depth"].quantile([0.25, 0.5, 0.75]).unstack()
        g = q.rename(columns={0.25: "q1", 0.5: "median", 0.75: "q3"}).reset_index()
        look = style_of(algorithm)
        # each marker smaller than the one before and drawn on top of it: algorithms
        # reaching the same depths (MaxN and MaxN-IS often do) show nested markers
        size = 12 - 7 * i / max(1, len(groups) - 1)
        ax.plot(g["budget_ms"], g["median"], label=f"{algorithm} (this workbench)",
                markersize=size, zorder=2 + i / 10, **look)  # fmt: skip
        ax.fill_between(g["budget_ms"], g["q1"], g["q3"], color=look["color"], alpha=0.15)
    if thesis is not None and not thesis.empty:
        for algorithm, group in thesis.groupby("algorithm", sort=True):
            ax.scatter(
                group["budget_ms"],
                group["depth_median"],
                marker="x",
                s=60,
                color=style_of(algorithm)["color"],
                label=f"{algorithm} (thesis, self-play)",
                zorder=3,
            )
    _budget_axis(ax, reached["budget_ms"])
    ax.set_xlabel("time budget per move (ms, log scale)")
    ax.set_ylabel("completed depth (plies)")
    ax.set_title("Depth reached in a fixed time: same positions for every algorithm")
    ax.legend(fontsize=7, ncols=2)
    fig.tight_layout()
    return fig


def plot_opening_values(openings: pd.DataFrame, width: int, height: int) -> Any:
    """The solved value of each first move of Connect Four (:func:`.levels.opening_values`):
    a bar per column, green a win for the first player, grey a draw, vermilion a loss,
    each labelled with its value and what it means."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 3.4))
    values = openings["value"].astype(float).to_numpy()
    colours = [style_of("+ pvs")["color"] if v > 0 else "#949494" for v in values]
    colours = [
        c if v >= 0 else style_of("paranoid")["color"] for c, v in zip(colours, values, strict=True)
    ]
    ax.bar(openings["move"], values, color=colours)
    reach = max(1.0, float(np.abs(values).max()))
    for x, v in zip(openings["move"], values, strict=True):
        text = "draw" if v == 0 else (f"+{v:g} win" if v > 0 else f"{v:g} loss")
        ax.annotate(text, (x, v), xytext=(0, 4 if v >= 0 else -12), textcoords="offset points",
                    ha="center", fontsize=8)  # fmt: skip
    ax.set_ylim(-reach * 1.3, reach * 1.3)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("first move (column)")
    ax.set_ylabel("exact value for the first player")
    ax.set_title(f"Connect Four {width} x {height}: solved value of each first move")
    fig.tight_layout()
    return fig


def plot_ratings_vs_budget(rated: pd.DataFrame) -> Any:
    """Plackett-Luce rating per agent against the time budget, one panel per player
    count, with 95 % intervals as bars where the run has them (:func:`.beyond.ladder_ratings`
    rows; one block a cell gives point estimates only, and the title says so)."""
    import matplotlib.pyplot as plt

    counts = sorted(rated["players"].unique())
    fig, axes = plt.subplots(1, len(counts), figsize=(5.2 * len(counts), 4.2), sharey=True)
    axes = [axes] if len(counts) == 1 else list(axes)
    intervals = rated[["ci_low", "ci_high"]].notna().all(axis=1)
    for ax, players in zip(axes, counts, strict=True):
        part = rated[rated["players"] == players]
        # the strongest at the largest budget first in the legend
        last = part[part["budget_ms"] == part["budget_ms"].max()]
        order = list(last.sort_values("elo", ascending=False)["agent"])
        for j, agent in enumerate(order):
            group = part[part["agent"] == agent].sort_values("budget_ms")
            look = style_of(agent)
            dodge = 10 ** (0.012 * (j - (len(order) - 1) / 2))  # apart on the log axis
            ax.plot(group["budget_ms"] * dodge, group["elo"], label=agent, **look)
            bars = group[intervals.loc[group.index]]
            if not bars.empty:  # the interval as drawn: a percentile bootstrap over few
                # blocks need not hold the estimate, which an error bar could not show
                ax.vlines(bars["budget_ms"] * dodge, bars["ci_low"], bars["ci_high"],
                          color=look["color"], alpha=0.5)  # fmt: skip
        ax.axhline(0, color="0.5", linewidth=0.8)
        _budget_axis(ax, part["budget_ms"])
        ax.set_xlabel("time budget per move (ms, log scale)")
        ax.set_title(f"Chameleon Chess, {players} players", fontsize=10)
    axes[0].set_ylabel("Plackett-Luce rating (Elo scale, mean 0)")
    axes[-1].legend(fontsize=7, title="agent", title_fontsize=8, loc="upper left",
                    bbox_to_anchor=(1.01, 1.0))  # fmt: skip
    what = (
        "bars: 95 % intervals over blocks"
        if intervals.any()
        else "point estimates: one block a cell gives no interval"
    )
    fig.suptitle(f"Ratings from finishing orders against time budget\n({what})", fontsize=10)
    fig.tight_layout()
    return fig


def plot_effort_by_phase(moves: pd.DataFrame) -> Any:
    """Nodes (expanded + evaluated) per move by game phase and agent (boxes, log scale),
    and MCTS's iterations per move where the records hold them."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    df = moves[~moves["random"].astype(bool)].copy()
    df["phase"] = phase(df["pawns"])
    df["nodes"] = df["expanded"] + df["evaluated"]
    order, missing = _phases_played(df["phase"])
    mcts = df[df["iterations"].notna()] if "iterations" in df else df.iloc[:0]
    panels = [("nodes", df, "nodes per move (log scale)")]
    if not mcts.empty:
        panels.append(("iterations", mcts, "MCTS iterations per move (log scale)"))
    fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 4.2))
    axes = [axes] if len(panels) == 1 else list(axes)
    for ax, (column, data, label) in zip(axes, panels, strict=True):
        agents = sorted(data["agent"].unique())
        sns.boxplot(data=data, x="phase", y=column, order=order, hue="agent", hue_order=agents,
                    palette=palette(agents), fliersize=1, log_scale=True, ax=ax)  # fmt: skip
        ax.set_xlabel("game phase (pawns on the board)")
        ax.set_ylabel(label)
        ax.legend(fontsize=6, title="agent", title_fontsize=7, ncols=2)
    fig.suptitle(_with_missing("Search effort per move by game phase (all budgets)", missing))
    fig.tight_layout()
    return fig


def plot_tuning_curve(curve: pd.DataFrame, opponent: str = "the opponent", players: int = 2) -> Any:
    """The tuning curve: best and mean candidate score per generation
    (:attr:`.tuning.TuningResult.curve`), with the score of an equal marked: 1/2 at two
    players, 1/``players`` where a candidate sits among ``players - 1`` copies of the
    opponent."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    ax.plot(curve["generation"], curve["best"], marker="o", color=colours[0],
            label="best candidate")  # fmt: skip
    ax.plot(curve["generation"], curve["mean"], marker="s", linestyle="--", color=colours[1],
            label="mean of the generation")  # fmt: skip
    ax.axhline(1 / players, color="0.5", linewidth=0.8, label=f"an equal's (1/{players})")
    ax.set_xlabel("generation")
    ax.set_xticks(list(curve["generation"]))
    ax.set_ylabel(f"share of points against {opponent}")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title("CMA-ES tuning: score per generation (a win 1, a draw 1/2)", fontsize=10)
    fig.tight_layout()
    return fig


def plot_against(table: pd.DataFrame) -> Any:
    """Win rates of a heuristic against each opponent with 95 % intervals, one marker
    per budget (:func:`.tuning.against` rows, concatenated over budgets)."""
    import matplotlib.pyplot as plt

    budgets = list(dict.fromkeys(table["budget"]))
    opponents = list(dict.fromkeys(table["opponent"]))
    fig, ax = plt.subplots(figsize=(8.4, 1.4 + 0.5 * len(opponents) * len(budgets)))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    step = 0.8 / max(len(budgets), 1)
    for k, budget in enumerate(budgets):
        part = table[table["budget"] == budget].set_index("opponent").reindex(opponents)
        y = np.arange(len(opponents)) + (k - (len(budgets) - 1) / 2) * step
        err = [part["win_rate"] - part["ci_low"], part["ci_high"] - part["win_rate"]]
        ax.errorbar(part["win_rate"], y, xerr=err, fmt="o", capsize=3, color=colours[k],
                    label=f"{budget} ({int(part['games'].iloc[0])} games each)")  # fmt: skip
    ax.axvline(0.5, color="0.5", linewidth=0.8)
    ax.set_yticks(np.arange(len(opponents)), opponents)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate of the tuned heuristic (bars: 95 % Wilson intervals)")
    ax.set_ylabel("opponent")
    ax.legend(fontsize=8, title="budget", title_fontsize=8, loc="upper left",
              bbox_to_anchor=(1.01, 1.0))  # fmt: skip
    name = table["heuristic"].iloc[0] if len(table) else ""
    ax.set_title(f"{name} against the thesis's heuristics", fontsize=10)
    fig.tight_layout()
    return fig


def plot_departures(table: pd.DataFrame) -> Any:
    """How often Hypermax chooses another move than MaxN, by depth: one panel per number
    of players, one line per flavour and normalisation
    (:func:`.hypermax.departure_table` by players, depth, flavour and normalize)."""
    import matplotlib.pyplot as plt

    players = sorted(table["players"].unique())
    fig, axes = plt.subplots(1, len(players), figsize=(4.2 * len(players), 3.8), sharey=True,
                             squeeze=False)  # fmt: skip
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    settings = [("thesis", False), ("thesis", True), ("improved", False), ("improved", True)]
    for ax, n in zip(axes[0], players, strict=True):
        for flavour, norm in settings:
            part = table[
                (table["players"] == n) & (table["flavour"] == flavour)
                & (table["normalize"] == norm)
            ].sort_values("depth")  # fmt: skip
            if part.empty:
                continue
            ax.plot(part["depth"], 100 * part["move_rate"], color=colours[int(norm)],
                    marker="o" if flavour == "thesis" else "s",
                    linestyle="-" if flavour == "thesis" else ":",
                    label=f"{flavour}, {'normalised' if norm else 'unnormalised'}")  # fmt: skip
        ax.set_xticks(sorted(table["depth"].unique()))
        ax.set_xlabel("search depth (plies)")
        ax.set_title(f"{n} players", fontsize=10)
        ax.set_ylim(-2, 102)
    axes[0][0].set_ylabel("move other than MaxN's (% of positions)")
    axes[0][-1].legend(fontsize=8, loc="center right")
    fig.suptitle("Hypermax against MaxN of the same flavour and normalisation", fontsize=10)
    fig.tight_layout()
    return fig


def plot_causes(causes: pd.DataFrame) -> Any:
    """The causes of Hypermax's departures (:func:`.hypermax.causes`) by depth, one panel
    for each normalisation: stacked counts of the departures explained."""
    import matplotlib.pyplot as plt

    names = list(causes["cause"].value_counts().index)
    norms = sorted(causes["normalize"].unique())
    fig, axes = plt.subplots(1, len(norms), figsize=(4.6 * len(norms), 3.8), squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, norm in zip(axes[0], norms, strict=True):
        part = causes[causes["normalize"] == norm]
        counts = part.groupby(["depth", "cause"]).size().unstack(fill_value=0)
        counts = counts.reindex(columns=names, fill_value=0)
        bottom = np.zeros(len(counts))
        for k, name in enumerate(names):
            ax.bar(counts.index, counts[name], bottom=bottom, color=colours[k % len(colours)],
                   label=name)  # fmt: skip
            bottom += counts[name].to_numpy()
        ax.set_xticks(list(counts.index))
        ax.set_xlabel("search depth (plies)")
        ax.set_ylabel("departures explained")
        ax.set_title("normalised" if norm else "unnormalised", fontsize=10)
    axes[0][-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.suptitle("Why Hypermax departs from MaxN: the cause at the first node that differs",
                 fontsize=10)  # fmt: skip
    fig.tight_layout()
    return fig


def plot_learning_curve(table: pd.DataFrame) -> Any:
    """TD-Leaf's weights after each batch of self-play games, a panel per setting
    (:func:`.learning.stacked` rows of :func:`.tdleaf.train` tables): each weight's
    change since its start (given in the legend), so a pawn's 100 and a role's 1 share
    an axis."""
    import matplotlib.pyplot as plt

    labels = list(dict.fromkeys(table["setting"]))
    fig, axes = plt.subplots(1, len(labels), figsize=(4.2 * len(labels) + 1.0, 3.6), squeeze=False)
    reserved = {"setting", "games", "heuristic", "mean_result"}
    for ax, label in zip(axes[0], labels, strict=True):
        part = table[table["setting"] == label]
        for f in [c for c in part.columns if c not in reserved and part[c].notna().all()]:
            start = part[f].iloc[0]
            ax.plot(part["games"], part[f] - start, marker="o", label=f"{f} (from {start:g})")
        ax.axhline(0.0, color="0.5", linewidth=0.8)
        ax.set_xlabel("self-play games")
        ax.set_xlim(left=0)
        ax.legend(fontsize=8)
        ax.set_title(label, fontsize=10)
    axes[0][0].set_ylabel("change of the weight")
    fig.suptitle("TD-Leaf(λ): the weights as the games go on", fontsize=10)
    fig.tight_layout()
    return fig


#: Where :func:`plot_strength_curve` draws an infinite Elo (every block won or lost).
_ELO_DRAWN = 800.0


def plot_strength_curve(
    table: pd.DataFrame, *, points: str = "learned weights", along: str = "the training"
) -> Any:
    """Strength against training games, a panel per setting
    (:func:`.learning.strength_curve` rows): each checkpoint's Elo difference to the
    setting's opponent with its 95 % bootstrap interval (an infinite end drawn at
    +-800); a checkpoint that plays as the opponent (no games) sits at 0 without one.
    ``points`` names what the points are in the legend, ``along`` what the title
    says they grow along (:func:`.valuenet.plot_net_strength`: networks against the
    self-play games that trained them)."""
    import matplotlib.pyplot as plt

    labels = list(dict.fromkeys(table["setting"]))
    fig, axes = plt.subplots(1, len(labels), figsize=(4.2 * len(labels) + 1.0, 3.6),
                             squeeze=False)  # fmt: skip
    for ax, label in zip(axes[0], labels, strict=True):
        part = table[table["setting"] == label]
        played = part[part["blocks"] > 0]
        elo, low, high = (played[c].clip(-_ELO_DRAWN, _ELO_DRAWN) for c in ("elo", "elo_low",
                                                                          "elo_high"))  # fmt: skip
        ax.errorbar(played["games"], elo, yerr=[elo - low, high - elo], fmt="o-", capsize=3,
                    label=points)  # fmt: skip
        same = part[part["blocks"] == 0]
        if len(same):
            ax.plot(same["games"], same["elo"], "s", color="0.4",
                    label="the opponent's own evaluation")  # fmt: skip
        ax.axhline(0.0, color="0.5", linewidth=0.8)
        low_end, high_end = ax.get_ylim()  # at least +-50 Elo: no zoom into one point
        ax.set_ylim(min(low_end, -50.0), max(high_end, 50.0))
        ax.set_xlabel("self-play games")
        ax.set_title(f"{label} against {part['opponent'].iloc[0]}", fontsize=10)
        ax.legend(fontsize=8)
    blocks = int(table["blocks"].max())
    axes[0][0].set_ylabel("Elo against the opponent")
    fig.suptitle(f"Strength along {along} ({blocks} blocks a point, 95 % bootstrap "
                 "intervals)", fontsize=10)  # fmt: skip
    fig.tight_layout()
    return fig


def plot_accuracy(table: pd.DataFrame) -> Any:
    """How well each heuristic orders solved positions (:func:`.accuracy.accuracy`
    rows): the won-over-lost share and the rank correlation with the exact values, each
    with its 95 % bootstrap interval."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(8.4, 1.6 + 0.45 * len(table)), sharey=True)
    y = np.arange(len(table))
    for ax, column, label, chance in (
        (axes[0], "won_over_lost", "a won position above a lost one", 0.5),
        (axes[1], "spearman", "rank correlation with the exact value", 0.0),
    ):
        err = [table[column] - table[f"{column}_low"], table[f"{column}_high"] - table[column]]
        ax.errorbar(table[column], y, xerr=err, fmt="o", capsize=3)
        ax.axvline(chance, color="0.5", linewidth=0.8)
        ax.set_xlabel(label, fontsize=9)
    axes[0].set_yticks(y, table["heuristic"])
    axes[0].invert_yaxis()
    n = int(table[["won", "drawn", "lost"]].iloc[0].sum())
    fig.suptitle(f"Static values on {n} solved positions (95 % bootstrap intervals)", fontsize=10)
    fig.tight_layout()
    return fig


#: the colour of each agreement of :func:`.papers.agreement` in :func:`plot_findings`
_AGREEMENT_COLOURS = {
    "same direction": "tab:green",
    "level": "tab:green",
    "opposite": "tab:red",
    "differs": "tab:red",
    "open": "0.45",
}


def plot_findings(table: pd.DataFrame) -> Any:
    """The papers' findings beside ours (:func:`.papers.findings_table` rows): each
    duel's Elo difference of the finding's agent over its rival with its 95 %
    interval, one panel per game, coloured by how it stands to the paper's finding.
    An infinite estimate (every block won or lost) is drawn as a triangle at the
    axis's edge, and an interval with an infinite end reaches that edge."""
    import matplotlib.pyplot as plt

    games = list(dict.fromkeys(table["game"]))
    rows = [table[table["game"] == g] for g in games]
    finite = table[["elo", "elo_low", "elo_high"]].to_numpy(dtype=float)
    finite = np.abs(finite[np.isfinite(finite)])
    edge = 1.15 * max(float(finite.max()) if finite.size else 0.0, 100.0)
    heights = [max(len(r), 1) for r in rows]
    fig, axes = plt.subplots(len(games), 1, sharex=True, squeeze=False,
                             figsize=(8.0, 0.45 * sum(heights) + 1.0 + 0.5 * len(games)),
                             gridspec_kw={"height_ratios": heights})  # fmt: skip
    for ax, game, part in zip(axes[:, 0], games, rows, strict=True):
        y = np.arange(len(part))[::-1]
        for yi, r in zip(y, part.itertuples(), strict=True):
            colour = _AGREEMENT_COLOURS.get(r.ours, "0.45")
            low, high = (np.clip(v, -edge, edge) for v in (r.elo_low, r.elo_high))
            if not (np.isnan(r.elo_low) or np.isnan(r.elo_high)):  # an infinite end: to the edge
                ax.hlines(yi, low, high, color=colour, linewidth=2, alpha=0.6)
            if np.isfinite(r.elo):
                ax.plot(r.elo, yi, "o", color=colour)
            else:
                ax.plot(np.sign(r.elo) * edge, yi, ">" if r.elo > 0 else "<", color=colour)
        labels = [f"{r.text} ({r.players}p, {r.budget})" for r in part.itertuples()]
        ax.set_yticks(y, [lab.replace(" (against ", "\n(against ") for lab in labels],
                      fontsize=7)  # fmt: skip
        ax.axvline(0, color="0.5", linewidth=0.8)
        ax.set_xlim(-edge * 1.04, edge * 1.04)
        ax.set_ylim(-0.6, len(part) - 0.4)
        ax.set_title(game, fontsize=9)
    axes[-1, 0].set_xlabel(
        "Elo of the finding's agent over its rival, 95 % interval (triangle: every block "
        "won or lost)",
        fontsize=8,
    )
    handles = [
        plt.Line2D([], [], marker="o", linestyle="-", color=c, label=name)
        for name, c in (("agrees with the paper", "tab:green"),
                        ("goes against it", "tab:red"), ("open", "0.45"))
    ]  # fmt: skip
    fig.legend(handles=handles, fontsize=7, loc="lower center", ncols=3, frameon=False)
    fig.suptitle("The papers' findings on their own games, head to head", fontsize=10)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def plot_pruning_shares(shares: pd.DataFrame, game: str) -> Any:
    """Nodes of each pruning MaxN as a share of MaxN's at the same depth, one line per
    algorithm and position phase (:func:`.papers.pruning_table`)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.0, 4.0))
    phases = list(dict.fromkeys(shares["phase"]))
    dashes = ["-", "--", ":", "-."]
    for algorithm, group in shares[shares["algorithm"] != "maxn"].groupby("algorithm"):
        look = style_of(algorithm)
        for k, ph in enumerate(phases):
            line = group[group["phase"] == ph].sort_values("depth")
            ax.plot(line["depth"], line["share_of_maxn"], color=look["color"],
                    marker=look.get("marker", "o"), linestyle=dashes[k % len(dashes)],
                    label=f"{algorithm}, {ph}")  # fmt: skip
    ax.axhline(1.0, color="0.5", linewidth=0.8)
    ax.set_ylim(0, 1.08)
    ax.set_xticks(sorted(shares["depth"].unique()))
    ax.set_xlabel("search depth (plies)")
    ax.set_ylabel("nodes as a share of MaxN's\n(1: nothing pruned)")
    ax.set_title(f"{game}:\nwhat MaxN-IS and speculative MaxN save at fixed depths", fontsize=10)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig
