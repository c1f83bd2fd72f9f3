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
