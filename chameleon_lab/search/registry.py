"""The search algorithms and flavours by name, each declared once.

An :class:`Algorithm` says what the rest of the library needs to know: its name and
title, the thesis's normalisation default, whether its root scores are one number
(Paranoid) or one vector per move, its flavours, the options it takes, and where its
code is: the improved flavour's node-function template with its root call (for the
iterative-deepening driver of :mod:`.deepening`). The CLI, agents, the workbench, the
benchmarks and the notebooks read :data:`ALGORITHMS`, so a new algorithm is one module
plus its entry here and its tests.

A :class:`Flavour` is a way of running the algorithms: ``improved`` (this package's
iterative deepening, registered by :mod:`.api`) and ``thesis`` (the original program's
driver, registered by the thesis wing, :mod:`chameleon_lab.thesis`, when the package is
imported), so the search layer never imports the thesis's code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Flavour:
    """A way of running the algorithms: its budget rule and its search function.

    ``check_budget(depth, time_ms, nodes)`` raises ``ValueError`` for budgets the
    flavour does not take; ``run(position, algorithm, *, budget, heuristic, normalize,
    game, max_sum, deep, tt_bits, workspace)`` searches and returns a
    :class:`~.core.RootResult`.
    """

    name: str
    doc: str
    check_budget: Callable
    run: Callable


FLAVOURS: dict[str, Flavour] = {}


def register_flavour(flavour: Flavour) -> None:
    """Make a flavour available by its name (the thesis wing registers ``thesis``)."""
    FLAVOURS[flavour.name] = flavour


def get_flavour(name: object) -> Flavour:
    """The flavour called ``name``, or ``ValueError`` listing the valid names."""
    if not isinstance(name, str) or name not in FLAVOURS:
        raise ValueError(f"unknown flavour {name!r}; valid flavours: {', '.join(FLAVOURS)}")
    return FLAVOURS[name]
