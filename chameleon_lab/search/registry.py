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

import dataclasses
import functools
import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..registries import Registry
from .core import DFPN_TT_BITS, TT_BITS


@functools.cache
def load(reference: str) -> Any:
    """The object a ``"package.module:name"`` reference names, its module imported on
    first use (so a registry entry does not load an algorithm nobody runs)."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True, kw_only=True)
class Algorithm:
    """One search algorithm as the library knows it (see the module docstring).

    Its code is named by ``"module:name"`` references (:func:`load`), modules in full:
    ``node`` the node-function template, ``siblings`` the templates it calls by name
    (bound with it, :func:`chameleon_lab.games.specialise.specialise`; compiled into
    it where marked :func:`~chameleon_lab.games.specialise.inlined`), ``root_args``
    the arguments with which the multi-player iterative deepening starts it at the
    root, ``driver`` a driver of its own instead of that deepening, ``workspace`` the
    maker of the scratch tables an agent keeps (``workspace(game_ops, tt_bits)``),
    ``options_class`` the frozen dataclass of its own options (made from a full set
    of them to check it)."""

    name: str
    title: str
    reference: str
    normalize: bool  # the thesis's setting
    #: the original program had no switch for it and always normalised (MaxN, MaxN-IS:
    #: ``shared/reference/original-semantics.md``), so a thesis-compatible answer
    #: (a conformance ``choose`` line) normalises whatever it is given
    normalize_always: bool = False
    scalar: bool  # root scores are numbers (True) or vectors (False)
    node: str
    #: the templates ``node`` calls by name, bound with it (a mapping; see
    #: :func:`chameleon_lab.games.specialise.specialise`)
    siblings: str | None = None
    root_args: str | None = None
    driver: str | None = None
    workspace: str | None = None
    options_class: str | None = None
    #: the fields of ``options_class`` it takes (None: all but ``tt_bits``, a common
    #: argument)
    option_names: tuple[str, ...] | None = None
    #: an option that, set, runs another algorithm: ``{option: algorithm}`` (the
    #: mended Hypermax runs MaxN with speculative pruning)
    runs_as: Mapping[str, str] = field(default_factory=dict)
    flavours: tuple[str, ...] = ("improved", "thesis")
    #: the transposition table's default size (every algorithm's workspace has one)
    tt_bits: int = TT_BITS
    two_player: bool = False  # searches two-player zero-sum games only
    #: hands the turn to a player out of order (the game's ``pass_to``) where more than
    #: two players take part (Best-Reply Search)
    passes_turns: bool = False
    #: the budgets it takes (``Budget``'s fields)
    budgets: tuple[str, ...] = ("depth", "time_ms", "nodes")
    #: searches to its end without a budget (df-pn); the others need one
    needs_budget: bool = True
    #: the budget a conformance ``search`` line gives (``None``: an optional
    #: ``"nodes"``; see ``shared/conformance/CONTRACT.md``)
    line_budget: str | None = "depth"
    #: reports a proved result of the root (``RootResult.proved``)
    proves: bool = False
    #: its differential check: a :class:`chameleon_lab.search.differential.Check`, or a
    #: function of no arguments making one (so that the algorithm's module loads the
    #: harness only when the check runs); ``chameleon-lab check`` and the test suite
    #: run every one declared; algorithms checked together name the same one
    check: str | None = None
    #: its rows in ``chameleon-lab bench games`` beyond the ladder every two-player
    #: algorithm shares: a function of ``count`` (positions a game) returning
    #: :class:`chameleon_lab.bench.games.Row` objects, named so that the search layer
    #: never loads the benchmarks (df-pn: beside the exact solver)
    bench: str | None = None
    #: the counters of its report (``RootResult.counters``) that game records and
    #: conformance answers carry beside the effort every search reports
    reported: tuple[str, ...] = ()
    notes: Mapping[str, str] = field(default_factory=dict)

    def code(self, part: str) -> Any:
        """The object the entry's ``part`` (``"node"``, ``"driver"``, ...) names, or
        None where it names none."""
        reference = getattr(self, part)
        return None if reference is None else load(reference)

    @property
    def options(self) -> dict[str, Any]:
        """The options it takes beyond the common ones, with their defaults."""
        if self.options_class is None:
            return {}
        made = load(self.options_class)()
        names = self.option_names or [
            f.name for f in dataclasses.fields(made) if f.name != "tt_bits"
        ]
        return {name: getattr(made, name) for name in names}


_IMPROVED = "chameleon_lab.search.improved"
_BRS = "chameleon_lab.search.bestreply"
_SUITE = "chameleon_lab.search.suite"
_DFPN = "chameleon_lab.search.dfpn"
_MCTS = "chameleon_lab.search.mcts"
_MAX_SUM = (
    "the bound on a score vector's sum its cuts need (1 when normalised; without "
    "normalisation the heuristic's own, given)"
)


def code_modules(algorithm: Algorithm) -> set[str]:
    """The modules the entry's code lives in."""
    parts = ("node", "siblings", "root_args", "driver", "workspace", "options_class")
    # (``check`` and ``bench`` are not the search's code: they change no result)
    return {ref.partition(":")[0] for ref in map(algorithm.__getattribute__, parts) if ref}


ALGORITHMS: Registry[Algorithm] = Registry(
    __name__,
    {
        a.name: a
        for a in (
            Algorithm(
                name="maxn",
                title="MaxN",
                reference="Luckhardt & Irani 1986",
                normalize=True,
                normalize_always=True,
                scalar=False,
                node=f"{_IMPROVED}:maxn_node",
                root_args=f"{_IMPROVED}:maxn_root_args",
            ),
            Algorithm(
                name="maxnis",
                check="chameleon_lab.search.differential:MAXNIS",
                title="MaxN with immediate and shallow pruning",
                reference="Korf 1991; Sturtevant & Korf 2000",
                normalize=True,
                normalize_always=True,
                scalar=False,
                node=f"{_IMPROVED}:maxnis_node",
                root_args=f"{_IMPROVED}:maxnis_root_args",
                options_class=f"{_IMPROVED}:BoundOptions",
                notes={
                    "max_sum": _MAX_SUM,
                    "deep": "thesis flavour: the unsound deep pruning of the thesis's "
                    "figure 4.5 (the improved flavour refuses it)",
                },
            ),
            Algorithm(
                name="paranoid",
                check="chameleon_lab.search.differential:PARANOID",
                title="Paranoid",
                reference="Sturtevant & Korf 2000",
                normalize=True,
                scalar=True,
                node=f"{_IMPROVED}:paranoid_node",
                siblings=f"{_IMPROVED}:PARANOID_SIBLINGS",
                root_args=f"{_IMPROVED}:paranoid_root_args",
            ),
            Algorithm(
                name="hypermax",
                title="Hypermax",
                reference="Fridenfalk 2014",
                normalize=False,
                scalar=False,
                node=f"{_IMPROVED}:hypermax_node",
                root_args=f"{_IMPROVED}:hypermax_root_args",
                options_class=f"{_IMPROVED}:HypermaxOptions",
                runs_as={"mended": "maxnsp"},
                notes={
                    "mended": "improved flavour: Hypermax's cut made sound (the root values "
                    "are MaxN's; see chameleon_lab.analysis.hypermax); it then takes "
                    "speculative MaxN's max_sum too"
                },
            ),
            Algorithm(
                name="maxnsp",
                check="chameleon_lab.search.differential:MAXNSP",
                title="MaxN with speculative pruning",
                reference="Sturtevant 2003",
                normalize=True,
                scalar=False,
                node="chameleon_lab.search.speculative:maxnsp_node",
                root_args="chameleon_lab.search.speculative:maxnsp_root_args",
                options_class=f"{_IMPROVED}:BoundOptions",
                option_names=("max_sum",),
                notes={"max_sum": _MAX_SUM},
                flavours=("improved",),
            ),
            Algorithm(
                name="brs",
                check="chameleon_lab.search.differential:BRS",
                title="Best-Reply Search",
                reference="Schadd & Winands 2011",
                normalize=False,
                scalar=True,
                node=f"{_BRS}:brs_node",
                siblings=f"{_BRS}:SIBLINGS",
                root_args=f"{_BRS}:brs_root_args",
                flavours=("improved",),
                passes_turns=True,
            ),
            Algorithm(
                name="brsplus",
                check="chameleon_lab.search.differential:BRS",
                title="BRS+ (Best-Reply Search keeping the turn order)",
                reference="Esser, Gras, Winands, Schadd & Lanctot 2013",
                normalize=False,
                scalar=True,
                node=f"{_BRS}:brs_node",
                siblings=f"{_BRS}:SIBLINGS",
                root_args=f"{_BRS}:brsplus_root_args",
                flavours=("improved",),
            ),
            Algorithm(
                name="mcts",
                check=f"{_MCTS}:differential_check",
                reported=("iterations",),
                title="Monte Carlo tree search for n players "
                "(UCT, MCTS-Solver, progressive history)",
                reference="Kocsis & Szepesvari 2006; Sturtevant 2008; Winands et al. 2008; "
                "Nijssen & Winands 2010",
                normalize=False,
                scalar=True,
                node=f"{_MCTS}:mcts_kernel",
                driver=f"{_MCTS}:run_mcts",
                workspace=f"{_MCTS}:MCTSWorkspace",
                options_class=f"{_MCTS}:MCTSOptions",
                flavours=("improved",),
                tt_bits=0,
                budgets=("iterations", "time_ms", "nodes"),
                line_budget="iterations",
                proves=True,
            ),
            Algorithm(
                name="negamax",
                check="chameleon_lab.search.differential:SUITE",
                title="NegaMax (full width; to the end of the game an exact solver)",
                reference="seed 001; von Neumann 1928",
                normalize=False,
                scalar=True,
                node="chameleon_lab.search.twoplayer:ab_node",
                driver=f"{_SUITE}:run_suite",
                workspace=f"{_SUITE}:SuiteWorkspace",
                options_class=f"{_SUITE}:SuiteOptions",
                option_names=("iterative",),
                flavours=("improved",),
                tt_bits=0,
                two_player=True,
            ),
            Algorithm(
                name="alphabeta",
                check="chameleon_lab.search.differential:SUITE",
                title="alpha-beta with move ordering, PVS, aspiration, killers, history, TT",
                reference="seed 001; Knuth & Moore 1975",
                normalize=False,
                scalar=True,
                node="chameleon_lab.search.twoplayer:ab_node",
                driver=f"{_SUITE}:run_suite",
                workspace=f"{_SUITE}:SuiteWorkspace",
                options_class=f"{_SUITE}:SuiteOptions",
                option_names=(
                    "iterative",
                    "ordering",
                    "pvs",
                    "aspiration",
                    "killers",
                    "history",
                    "quiescence",
                ),
                flavours=("improved",),
                tt_bits=0,
                two_player=True,
            ),
            Algorithm(
                name="dfpn",
                check=f"{_DFPN}:differential_check",
                bench="chameleon_lab.bench.games:proof_rows",
                title="depth-first proof-number search (win, draw or loss, proved)",
                reference="Allis et al. 1994; Nagai 2002; Pawlewicz & Lew 2007",
                normalize=False,
                scalar=True,
                node=f"{_DFPN}:dfpn_mid",
                driver=f"{_DFPN}:run_dfpn",
                workspace=f"{_DFPN}:DfpnWorkspace",
                options_class=f"{_DFPN}:DfpnOptions",
                flavours=("improved",),
                tt_bits=DFPN_TT_BITS,
                two_player=True,
                budgets=("nodes", "time_ms"),
                needs_budget=False,
                line_budget=None,
                proves=True,
            ),
        )
    },
    code=code_modules,
)


def taken_options(algorithm: Algorithm, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options ``algorithm`` takes with their defaults, given the switches set in
    ``options``: a switch of its ``runs_as`` that is set adds the options of the
    algorithm it then runs (the mended Hypermax takes speculative MaxN's ``max_sum``)."""
    taken = algorithm.options
    for option, other in algorithm.runs_as.items():
        if options.get(option):
            taken = {**get_algorithm(other).options, **taken}
    return taken


def check_options(algorithm: Algorithm, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with the algorithm's defaults filled in, checked by its options
    class; ``ValueError`` naming an option the algorithm does not take and the ones it
    does, or a value its options class refuses. (``tt_bits``, which every algorithm
    takes, is :func:`chameleon_lab.search.api.search`'s to check.)"""
    taken = taken_options(algorithm, options)
    unknown = sorted(set(options) - set(taken))
    if unknown:
        valid = ", ".join(taken) or "none"
        also = "".join(
            f"; with {option}=True also {other}'s" for option, other in algorithm.runs_as.items()
        )
        raise ValueError(
            f"{algorithm.name} takes no option {', '.join(map(repr, unknown))}; "
            f"its options: {valid}{also}"
        )
    resolved = {**taken, **options}
    runs = [
        get_algorithm(other) for option, other in algorithm.runs_as.items() if options.get(option)
    ]
    for spec in (algorithm, *runs):  # each options class checks the values it holds
        if spec.options_class is not None:
            made = load(spec.options_class)
            names = {f.name for f in dataclasses.fields(made)}
            made(**{name: value for name, value in resolved.items() if name in names})
    return resolved


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
    game, tt_bits, workspace, **options)`` (the algorithm's options, checked) searches
    and returns a :class:`~.core.RootResult`.
    """

    name: str
    doc: str
    check_budget: Callable
    run: Callable
    #: whether ``run`` takes ``node_rate`` and reads the emulated clock itself (the
    #: thesis flavour, between root successors); otherwise :func:`.api.search` turns a
    #: time budget with a node rate into the position's node budget
    own_clock: bool = False
    #: the algorithms' options it takes (None: every option an algorithm takes); the
    #: thesis flavour takes MaxN-IS's two and refuses the improved flavour's
    options: tuple[str, ...] | None = None

    def refused(self, options: Iterable[str]) -> list[str]:
        """The names among ``options`` the flavour does not take, sorted."""
        return [] if self.options is None else sorted(set(options) - set(self.options))


FLAVOURS: dict[str, Flavour] = {}


def register_flavour(flavour: Flavour) -> None:
    """Make a flavour available by its name (the thesis wing registers ``thesis``)."""
    FLAVOURS[flavour.name] = flavour


def get_flavour(name: object) -> Flavour:
    """The flavour called ``name``, or ``ValueError`` listing the valid names."""
    if not isinstance(name, str) or name not in FLAVOURS:
        raise ValueError(f"unknown flavour {name!r}; valid flavours: {', '.join(FLAVOURS)}")
    return FLAVOURS[name]
