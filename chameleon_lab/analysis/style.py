"""One colour and one marker per algorithm, agent and setting, in every figure and run.

A reader who has learnt that Paranoid is vermilion with triangles should find it so in
every figure, whichever algorithms a run happened to include and in whatever order.
:func:`style_of` gives a name its fixed look: the algorithms of the library and the
thesis's agent names (``ParaNorm`` is Paranoid's colour with another marker, ``Pawns10Roles``
a heuristic's) from fixed tables, every other name (a researcher's agent) a colour and
marker chosen by a hash of the name, the same in every process and on every machine.
:func:`palette` and :func:`markers` give the same for a list of names, for seaborn.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

#: seaborn's colour-blind palette (fixed here, so a change of seaborn changes nothing)
COLOURS = (
    "#0173b2",  # blue
    "#de8f05",  # orange
    "#029e73",  # green
    "#d55e00",  # vermilion
    "#cc78bc",  # pink
    "#ca9161",  # brown
    "#fbafe4",  # light pink
    "#949494",  # grey
    "#ece133",  # yellow
    "#56b4e9",  # sky blue
)
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "h")

#: name (lower case) -> (colour index, marker)
FIXED: dict[str, tuple[int, str]] = {
    # the multi-player searches and their thesis agent names
    "maxn": (0, "o"),
    "maxnis": (2, "s"),
    "maxn-is": (2, "s"),
    "maxnsp": (1, "<"),
    "paranoid": (3, "^"),
    "paranorm": (3, "v"),
    "hypermax": (4, "D"),
    "hypernorm": (4, "P"),
    "brs": (6, "X"),
    "brsplus": (8, "h"),
    "mcts": (5, "P"),
    "mcts-ph": (9, ">"),
    "mcts-paranoid": (7, "<"),
    "mcts-brs": (0, "h"),
    "mcts-solver": (2, "v"),
    # the thesis's evaluation functions
    "pawns": (7, "o"),
    "pawns10roles": (1, "s"),
    "pawns100roles": (9, "^"),
    "pawns100moves": (5, "D"),
    # the two-player suite and seed 001's ladder
    "negamax": (7, "o"),
    "alphabeta": (0, "s"),
    "alpha-beta": (0, "s"),
    "+ ordering": (1, "^"),
    "+ pvs": (2, "D"),
    "+ killers": (3, "v"),
    "+ history": (4, "P"),
    "+ tt": (5, "X"),
    # the thesis beside this workbench
    "thesis": (3, "x"),
    "ours": (0, "o"),
}


def style_of(name: str) -> dict[str, str]:
    """``{"color": ..., "marker": ...}`` of ``name``: fixed for known names, else by a
    hash of the name (stable across runs and machines)."""
    key = str(name).strip().lower()
    if key in FIXED:
        colour, marker = FIXED[key]
        return {"color": COLOURS[colour], "marker": marker}
    digest = int(hashlib.sha256(key.encode()).hexdigest(), 16)
    return {"color": COLOURS[digest % len(COLOURS)], "marker": MARKERS[(digest // 10) % 10]}


def palette(names: Iterable[str]) -> dict[str, str]:
    """Name -> colour, for seaborn's ``palette``."""
    return {n: style_of(n)["color"] for n in names}


def markers(names: Iterable[str]) -> dict[str, str]:
    """Name -> marker, for seaborn's ``markers``."""
    return {n: style_of(n)["marker"] for n in names}
