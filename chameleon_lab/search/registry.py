"""The search algorithms and flavours by name, each declared once.

An :class:`Algorithm` says what the rest of the library needs to know: its name and
title, the thesis's normalisation default, whether its root scores are one number
(Paranoid) or one vector per move, its flavours, the options it takes, and where its
code is: the improved flavour's node-function template with its root call (for the
iterative-deepening driver of :mod:`.deepening`). The CLI, agents, the workbench, the
benchmarks and the notebooks read ``ALGORITHMS``, so a new algorithm is one module
plus its entry here and its tests.

A :class:`Flavour` is a way of running the algorithms: ``improved`` (this package's
iterative deepening, registered by :mod:`.api`) and ``thesis`` (the original program's
driver, registered by the thesis wing, :mod:`chameleon_lab.thesis`, when the package is
imported), so the search layer never imports the thesis's code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import bestreply as B
from . import dfpn as DF
from . import improved as I
from . import mcts as M
from . import speculative as SP
from . import suite as S
from . import twoplayer as TP
from .core import TT_BITS


@dataclass(frozen=True)
class Algorithm:
    """One search algorithm as the library knows it (see the module docstring)."""

    name: str
    title: str
    normalize: bool  # the thesis's setting
    scalar: bool  # root scores are numbers (True) or vectors (False)
    #: the options the algorithm takes beyond the common ones, with their defaults
    options: Mapping[str, Any]
    improved_node: Callable
    #: the arguments with which the multi-player iterative deepening starts the node
    #: function at the root
    improved_root_args: Callable | None
    reference: str
    flavours: tuple[str, ...] = ("improved", "thesis")
    #: a driver of its own (the two-player suite) instead of the multi-player deepening
    driver: Callable | None = None
    #: the transposition table's default size (every algorithm's workspace has one)
    tt_bits: int = TT_BITS
    two_player: bool = False  # searches two-player zero-sum games only
    #: hands the turn to a player out of order (the game's ``pass_to``) where more than
    #: two players take part (Best-Reply Search)
    passes_turns: bool = False
    #: the budgets it takes (``Budget``'s fields)
    budgets: tuple[str, ...] = ("depth", "time_ms", "nodes")
    #: makes the scratch tables an agent keeps, ``workspace(game_ops, tt_bits)``
    #: (None: the multi-player iterative deepening's)
    workspace: Callable | None = None
    #: checks a full set of its options, ``check(**options)``, raising ValueError
    check: Callable | None = None
    #: searches to its end without a budget (df-pn); the others need one
    needs_budget: bool = True
    #: the budget a conformance ``search`` line gives (``None``: an optional
    #: ``"nodes"``; see ``shared/conformance/CONTRACT.md``)
    line_budget: str | None = "depth"
    #: reports a proved result of the root (``RootResult.proved``)
    proves: bool = False
    notes: Mapping[str, str] = field(default_factory=dict)


def _check_mended(mended: Any = False) -> None:
    """Hypermax's one option: ``mended``, a bool."""
    if not isinstance(mended, bool):
        raise ValueError(f"hypermax's option mended must be True or False, got {mended!r}")


ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in (
        Algorithm(
            "maxn",
            "MaxN",
            True,
            False,
            {},
            I.maxn_node,
            I.maxn_root_args,
            "Luckhardt & Irani 1986",
        ),
        Algorithm(
            "maxnis",
            "MaxN with immediate and shallow pruning",
            True,
            False,
            {"max_sum": None},
            I.maxnis_node,
            I.maxnis_root_args,
            "Korf 1991; Sturtevant & Korf 2000",
        ),
        Algorithm(
            "paranoid",
            "Paranoid",
            True,
            True,
            {},
            I.paranoid_node,
            I.paranoid_root_args,
            "Sturtevant & Korf 2000",
        ),
        Algorithm(
            "hypermax",
            "Hypermax",
            False,
            False,
            {"mended": False},
            I.hypermax_node,
            I.hypermax_root_args,
            "Fridenfalk 2014",
            check=lambda **o: _check_mended(**o),
            notes={
                "mended": "improved flavour: Hypermax's cut made sound (the root values "
                "are MaxN's; see chameleon_lab.analysis.hypermax)"
            },
        ),
        Algorithm(
            "maxnsp",
            "MaxN with speculative pruning",
            True,
            False,
            {"max_sum": None},
            SP.maxnsp_node,
            SP.maxnsp_root_args,
            "Sturtevant 2003",
            flavours=("improved",),
        ),
        Algorithm(
            "brs",
            "Best-Reply Search",
            False,
            True,
            {},
            B.brs_node,
            B.brs_root_args,
            "Schadd & Winands 2011",
            flavours=("improved",),
            passes_turns=True,
        ),
        Algorithm(
            "brsplus",
            "BRS+ (Best-Reply Search keeping the turn order)",
            False,
            True,
            {},
            B.brs_node,
            B.brsplus_root_args,
            "Esser, Gras, Winands, Schadd & Lanctot 2013",
            flavours=("improved",),
        ),
        Algorithm(
            "mcts",
            "Monte Carlo tree search for n players (UCT, MCTS-Solver, progressive history)",
            False,
            True,
            M.OPTIONS,
            M.mcts_kernel,
            None,
            "Kocsis & Szepesvari 2006; Sturtevant 2008; Winands et al. 2008; "
            "Nijssen & Winands 2010",
            flavours=("improved",),
            driver=M.run_mcts,
            tt_bits=0,
            budgets=("iterations", "time_ms", "nodes"),
            line_budget="iterations",
            proves=True,
            workspace=M.MCTSWorkspace,
            check=lambda **o: M.MCTSOptions(**o),
        ),
        Algorithm(
            "negamax",
            "NegaMax (full width; to the end of the game an exact solver)",
            False,
            True,
            {"iterative": True},
            TP.ab_node,
            None,
            "seed 001; von Neumann 1928",
            flavours=("improved",),
            driver=S.run_suite,
            tt_bits=0,
            two_player=True,
            workspace=S.SuiteWorkspace,
            check=lambda **o: S.SuiteOptions(**o),
        ),
        Algorithm(
            "alphabeta",
            "alpha-beta with move ordering, PVS, aspiration, killers, history, TT",
            False,
            True,
            {name: getattr(S.SuiteOptions(), name) for name in S.OPTION_NAMES if name != "tt_bits"},
            TP.ab_node,
            None,
            "seed 001; Knuth & Moore 1975",
            flavours=("improved",),
            driver=S.run_suite,
            tt_bits=0,
            two_player=True,
            workspace=S.SuiteWorkspace,
            check=lambda **o: S.SuiteOptions(**o),
        ),
        Algorithm(
            "dfpn",
            "depth-first proof-number search (win, draw or loss, proved)",
            False,
            True,
            {"epsilon": DF.DfpnOptions().epsilon},
            DF.dfpn_mid,
            None,
            "Allis et al. 1994; Nagai 2002; Pawlewicz & Lew 2007",
            flavours=("improved",),
            driver=DF.run_dfpn,
            tt_bits=DF.DFPN_TT_BITS,
            two_player=True,
            budgets=("nodes", "time_ms"),
            workspace=DF.DfpnWorkspace,
            check=lambda **o: DF.DfpnOptions(**o),
            needs_budget=False,
            line_budget=None,
            proves=True,
        ),
    )
}


def check_options(algorithm: Algorithm, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with the algorithm's defaults filled in, or ``ValueError`` naming an
    option the algorithm does not take and the ones it does."""
    unknown = sorted(set(options) - set(algorithm.options))
    if unknown:
        valid = ", ".join(algorithm.options) or "none"
        raise ValueError(
            f"{algorithm.name} takes no option {', '.join(map(repr, unknown))}; "
            f"its options: {valid}"
        )
    return {**algorithm.options, **options}


def algorithm_names(
    *, players: int | None = None, flavour: str | None = None, budget: str | None = None
) -> tuple[str, ...]:
    """The registered algorithms' names, in registry order; with ``players``, only those
    that search games of that many players (the two-player suite needs exactly two);
    with ``flavour``, only those that run in it (``thesis``: the thesis's four); with
    ``budget``, only those that take it (``depth``: all but MCTS)."""
    return tuple(
        a.name
        for a in ALGORITHMS.values()
        if (players is None or players == 2 or not a.two_player)
        and (flavour is None or flavour in a.flavours)
        and (budget is None or budget in a.budgets)
    )


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
