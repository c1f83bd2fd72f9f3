"""The search algorithms by name, each declared once.

An :class:`Algorithm` says what the rest of the library needs to know: its name and
title, the thesis's normalisation default, whether its root scores are one number
(Paranoid) or one vector per move, its flavours, the options it takes, and where its
code is: the improved flavour's node-function template with its root call (for the
iterative-deepening driver of :mod:`.deepening`) and the thesis flavour's root
algorithm (for the original's driver in :mod:`chameleon_lab.thesis.driver`). The CLI,
agents, the workbench,
the benchmarks and the notebooks read :data:`ALGORITHMS`, so a new algorithm is one
module plus its entry here and its tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..thesis import driver as R
from . import improved as I


@dataclass(frozen=True)
class Algorithm:
    """One search algorithm as the library knows it (see the module docstring)."""

    name: str
    title: str
    normalize: bool  # the thesis's setting
    scalar: bool  # root scores are numbers (True) or vectors (False)
    options: tuple[str, ...]
    improved_node: Callable
    improved_root: Callable
    thesis_root: type[R.RootAlgorithm]
    reference: str
    flavours: tuple[str, ...] = ("improved", "thesis")


ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in (
        Algorithm(
            "maxn",
            "MaxN",
            True,
            False,
            (),
            I.maxn_node,
            I.maxn_root,
            R.MaxN,
            "Luckhardt & Irani 1986",
        ),
        Algorithm(
            "maxnis",
            "MaxN with immediate and shallow pruning",
            True,
            False,
            ("max_sum",),
            I.maxnis_node,
            I.maxnis_root,
            R.MaxNIS,
            "Korf 1991; Sturtevant & Korf 2000",
        ),
        Algorithm(
            "paranoid",
            "Paranoid",
            True,
            True,
            ("tt_bits",),
            I.paranoid_node,
            I.paranoid_root,
            R.Paranoid,
            "Sturtevant & Korf 2000",
        ),
        Algorithm(
            "hypermax",
            "Hypermax",
            False,
            False,
            (),
            I.hypermax_node,
            I.hypermax_root,
            R.Hypermax,
            "Fridenfalk 2014",
        ),
    )
}


def algorithm_names() -> tuple[str, ...]:
    """The registered algorithms' names, in registry order."""
    return tuple(ALGORITHMS)


def get_algorithm(name: object) -> Algorithm:
    """The algorithm called ``name``, or ``ValueError`` listing the valid names."""
    if not isinstance(name, str) or name not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {name!r}; valid algorithms: {', '.join(ALGORITHMS)}")
    return ALGORITHMS[name]
