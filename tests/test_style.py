"""Figures keep one look per algorithm, agent and setting, in every run."""

from __future__ import annotations

import subprocess
import sys

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
