"""Figures keep one look per algorithm, agent and setting, in every run."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from chameleon_lab.analysis.style import COLOURS, palette, style_of
from chameleon_lab.analysis.twoplayer import LADDER


def test_the_algorithms_have_distinct_fixed_looks():
    names = ["maxn", "maxnis", "paranoid", "hypermax"]
    looks = [tuple(style_of(n).values()) for n in names]
    assert len(set(looks)) == len(names)
    assert len({style_of(n)["color"] for n in names}) == len(names)
    assert style_of("MaxNIS") == style_of("maxnis")  # the thesis's names, the same look
    assert style_of("ParaNorm")["color"] == style_of("Paranoid")["color"]
    assert style_of("ParaNorm")["marker"] != style_of("Paranoid")["marker"]


def test_the_ladder_settings_have_distinct_looks():
    looks = {tuple(style_of(n).values()) for n in LADDER}
    assert len(looks) == len(LADDER)


def test_other_names_get_the_same_look_in_every_process():
    here = style_of("my-agent-7")
    code = "from chameleon_lab.analysis.style import style_of; print(style_of('my-agent-7'))"
    there = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert there == repr(here) and here["color"] in COLOURS
    assert palette(["b", "a"]) == palette(["a", "b"])  # independent of order and company


def test_a_count_axis_labels_a_tick_below_its_smallest_count():
    # the ladder's depth-1 points (~190 nodes) sat above an unlabelled axis bottom (~130)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from chameleon_lab.analysis.plots import _count_axis

    fig, (left, right) = plt.subplots(1, 2, sharey=True)
    left.plot([1, 2, 3], [190, 7_500, 300_000])
    right.plot([1, 2, 3], [2_000, 9_000, 40_000])
    for ax in (left, right):
        _count_axis(ax)
    bottom, top = left.get_ylim()
    assert bottom == 100 and top >= 300_000  # the power of ten below 190, shared
    assert right.get_ylim() == (bottom, top)
    labels = [left.yaxis.get_major_formatter()(v, 0) for v in (100, 1_000, 100_000)]
    assert labels == ["100", "1k", "100k"]
    plt.close(fig)


def test_panels_sharing_a_count_axis_show_every_panels_counts():
    # the axis was once made after each panel, which fixed its top at the first
    # panel's counts and cut the later panels' larger ones off
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    from chameleon_lab.analysis.plots import plot_nodes_per_depth

    counts = {"late (5-8)": [30, 80, 900], "middle (9-12)": [40, 250, 40_000]}
    rows = [("maxn", "True", phase, d, n)
            for phase, nodes in counts.items()
            for d, n in zip((1, 2, 3), nodes, strict=True)]  # fmt: skip
    df = pd.DataFrame(rows, columns=["algorithm", "normalize", "phase", "depth", "nodes"])
    fig = plot_nodes_per_depth(df)
    for ax in fig.axes:
        bottom, top = ax.get_ylim()
        assert bottom <= 10 and top >= 40_000  # labelled below the lowest, all shown
    plt.close(fig)


def test_a_rating_interval_is_drawn_as_it_is_even_beside_the_estimate():
    """A percentile bootstrap over few blocks need not hold the estimate: the figure
    draws the interval from its ends (an error bar would refuse a negative length)."""
    import matplotlib

    matplotlib.use("Agg")
    import pandas as pd

    from chameleon_lab.analysis.plots import plot_ratings_vs_budget

    rated = pd.DataFrame(
        {
            "players": [3, 3],
            "budget_ms": [10.0, 10.0],
            "agent": ["brs", "maxnis"],
            "elo": [40.0, -40.0],
            "ci_low": [55.0, -90.0],  # above brs's estimate
            "ci_high": [120.0, -10.0],
        }
    )
    fig = plot_ratings_vs_budget(rated)
    segments = [seg for coll in fig.axes[0].collections for seg in coll.get_segments() if len(seg)]
    spans = sorted((float(s[0][1]), float(s[1][1])) for s in segments)
    assert spans == [(-90.0, -10.0), (55.0, 120.0)]


def test_a_finding_whose_interval_has_an_infinite_end_is_drawn_to_the_edge():
    """Every block won: the estimate and the interval's upper end are infinite. The
    interval is still drawn, from its finite end to the axis's edge (it was once left
    out, so such a finding showed as a bare triangle)."""
    import matplotlib

    matplotlib.use("Agg")
    import pandas as pd

    from chameleon_lab.analysis.plots import plot_findings

    table = pd.DataFrame(
        {
            "game": ["rolit", "rolit", "rolit"],
            "text": ["BRS beats MaxN", "BRS beats Paranoid", "MCTS-maxn beats MCTS-BRS"],
            "players": [3, 3, 4],
            "budget": ["1 s", "1 s", "1 s"],
            "elo": [np.inf, 50.0, np.nan],
            "elo_low": [280.0, -20.0, np.nan],
            "elo_high": [np.inf, 120.0, np.nan],
            "ours": ["same direction", "open", "open"],
        }
    )
    fig = plot_findings(table)
    ax = fig.axes[0]
    edge = ax.get_xlim()[1] / 1.04
    spans = sorted(
        (round(float(s[0][0]), 6), round(float(s[1][0]), 6))
        for coll in ax.collections
        for s in coll.get_segments()
    )
    assert spans == [(-20.0, 120.0), (280.0, round(edge, 6))]  # nothing drawn for NaN


def test_a_phase_nobody_searched_gets_no_empty_column_but_a_word_in_the_title():
    import matplotlib

    matplotlib.use("Agg")
    import pandas as pd

    from chameleon_lab.analysis.plots import plot_effort_by_phase

    moves = pd.DataFrame(
        {
            "random": [True, False, False, False],
            "pawns": [16, 11, 10, 3],  # the only opening move is a random one
            "expanded": [0, 10, 20, 5],
            "evaluated": [0, 30, 40, 6],
            "agent": ["maxn"] * 4,
        }
    )
    fig = plot_effort_by_phase(moves)
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert ticks == ["middle (9-12)", "end (2-4)"]
    assert "no searched move in: opening (13-16), late (5-8)" in fig._suptitle.get_text()
