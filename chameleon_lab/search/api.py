"""Searching a position: algorithm, heuristic, flavour and budget by plain parameters.

:func:`search` is the one entry point. ``flavour="improved"`` (the default) runs the
searches of :mod:`.improved` by iterative deepening (:mod:`.deepening`) under any mix
of depth, time and node budgets; ``flavour="thesis"`` runs the original program's
searches and root driver in depth mode or time mode (the thesis wing,
:mod:`chameleon_lab.thesis.driver`, registers it; see :mod:`.registry`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .core import (
    Budget,
    GameLike,
    RootResult,
    check_tt_bits,
    leaf_evaluator,
    ops_of,
    resolve_game,
    state_of,
    workspace_for,
)
from .deepening import DeepSearch, DeepWorkspace, iterative_deepening
from .improved import BoundOptions
from .registry import ALGORITHMS as REGISTRY
from .registry import (
    Flavour,
    algorithm_names,
    check_options,
    get_algorithm,
    get_flavour,
    register_flavour,
)

#: Lists read from the registry when first asked for (:func:`__getattr__`), so that
#: importing this module reads no entry (see :mod:`chameleon_lab.registries`).
_LISTS = {
    # every algorithm's name
    "ALGORITHMS": lambda: algorithm_names(),
    # the multi-player searches by depth (any number of players): the thesis's four and
    # those beyond (Monte Carlo tree search, without a depth, is not among them)
    "MULTIPLAYER": lambda: algorithm_names(players=4, budget="depth"),
    # the thesis's four searches (those its flavour runs)
    "THESIS_ALGORITHMS": lambda: algorithm_names(flavour="thesis"),
    # the thesis's settings: MaxN and MaxN-IS always normalise; the algorithm
    # comparison ran Paranoid with and Hypermax without normalisation
    "DEFAULT_NORMALIZE": lambda: {a.name: a.normalize for a in REGISTRY.values()},
}


def __getattr__(name: str) -> Any:
    """``ALGORITHMS``, ``MULTIPLAYER``, ``THESIS_ALGORITHMS``, ``DEFAULT_NORMALIZE``:
    read from the registry on use (reading them reads every entry)."""
    if name in _LISTS:
        return _LISTS[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The node budget of a search that needs none (it ends by itself, as df-pn does).
UNBOUNDED = 2**62


def check_algorithm(name: Any) -> str:
    """The algorithm name, or ``ValueError`` listing the valid ones."""
    return get_algorithm(name).name


def check_flavour(name: Any) -> str:
    """The flavour name, or ``ValueError`` listing the valid ones."""
    return get_flavour(name).name


def check_budget(
    flavour: str, depth: int | None = None, time_ms: float | None = None, nodes: int | None = None
) -> Budget:
    """The budget of a search of ``flavour``, or ``ValueError`` saying what is allowed.

    The improved flavour takes any combination of depth, time and nodes; the thesis
    flavour exactly one of depth and time, as the original program had.
    """
    get_flavour(flavour).check_budget(depth, time_ms, nodes)
    return Budget(depth, time_ms, nodes)


def check_node_rate(
    flavour: str, time_ms: float | None, node_rate: Any, nodes: int | None = None
) -> float | None:
    """``node_rate`` if it may emulate a clock here, or ``ValueError`` saying why not: a
    positive finite number of nodes per millisecond beside the time budget it converts,
    not beside a node budget of its own."""
    if node_rate is None:
        return None
    get_flavour(flavour)
    if (
        isinstance(node_rate, bool)
        or not isinstance(node_rate, (int, float, np.number))
        or not np.isfinite(node_rate)
        or node_rate <= 0
    ):
        raise ValueError(
            f"node_rate must be a positive number of nodes per millisecond, got {node_rate!r}"
        )
    if time_ms is None:
        raise ValueError(
            "node_rate turns a time budget into nodes (time_ms x node_rate): give time_ms too"
        )
    if nodes is not None:
        raise ValueError(
            "node_rate turns time_ms into a node budget; give nodes=N or node_rate, not both"
        )
    return float(node_rate)


def emulated_nodes(position: Any, game: GameLike, time_ms: float, node_rate: float) -> int:
    """The node budget of ``time_ms`` on the original program's clock at ``position``
    (:func:`chameleon_lab.games.chameleon.clock.original_clock_nodes`, rounded up), or
    ``ValueError`` for a game the original did not play."""
    from ..games.chameleon.clock import original_clock_nodes  # the game's own: on use

    check_emulated_game(resolve_game(position, game).name)
    return math.ceil(float(original_clock_nodes(state_of(position), time_ms, node_rate)))


def check_emulated_game(name: str) -> None:
    """``ValueError`` unless game ``name`` is one the original program played (Chameleon
    Chess), the only game whose clock ``node_rate`` can emulate."""
    if name != "chameleon":
        raise ValueError(
            "node_rate emulates the original program's clock, which played Chameleon "
            f"Chess only; {name} runs on this machine's clock (time_ms alone)"
        )


def algorithm_budget(
    algorithm: str,
    flavour: str,
    depth: int | None = None,
    time_ms: float | None = None,
    nodes: int | None = None,
    iterations: int | None = None,
) -> Budget:
    """The budget of a search by ``algorithm`` in ``flavour``, or ``ValueError`` naming a
    budget the algorithm does not take (MCTS: no depth; the others: no iterations) or
    the flavour does not allow."""
    spec = get_algorithm(algorithm)
    given = {"depth": depth, "time_ms": time_ms, "nodes": nodes, "iterations": iterations}
    wrong = [n for n, value in given.items() if value is not None and n not in spec.budgets]
    if wrong:
        raise ValueError(
            f"{algorithm} takes no {' or '.join(wrong)} budget; its budgets: "
            f"{', '.join(spec.budgets)}"
        )
    if all(v is None for v in given.values()) and not spec.needs_budget:
        return Budget(nodes=UNBOUNDED)  # it ends by itself
    if iterations is None:
        return check_budget(check_flavour(flavour), depth, time_ms, nodes)
    check_flavour(flavour)
    return Budget(depth, time_ms, nodes, iterations)


def check_bound(
    algorithm: str, normalize: bool | None, max_sum: float | None
) -> tuple[bool, float]:
    """``algorithm``'s normalisation and bound on the sum of the scores, resolved
    (``max_sum`` 1 where normalised): ``ValueError`` where MaxN-IS or speculative MaxN
    runs without normalisation and without ``max_sum``, or ``max_sum`` is out of range."""
    spec = get_algorithm(check_algorithm(algorithm))
    if normalize is None:
        normalize = spec.normalize
    if max_sum is None:
        if "max_sum" in spec.options and not normalize:
            raise ValueError(
                f"{spec.title} without normalisation needs max_sum: an upper bound of the "
                "sum of the heuristic's (non-negative) scores; or use normalize=True"
            )
        max_sum = 1.0
    BoundOptions(max_sum=max_sum)  # checked where the bound's options are
    return bool(normalize), max_sum


def deep_search(
    algorithm: str,
    *,
    game: GameLike = None,
    heuristic: str | Callable | None = None,
    normalize: bool | None = None,
    max_sum: float | None = None,
) -> DeepSearch:
    """The improved-flavour search object (see :mod:`.deepening`).

    MaxN-IS and speculative MaxN prune soundly only when every score vector is
    non-negative and sums to at most ``max_sum``; without normalisation the heuristic's
    own bound must be given.
    """
    algorithm = check_algorithm(algorithm)
    normalize, max_sum = check_bound(algorithm, normalize, max_sum)
    game = resolve_game(None, game)
    evaluate = leaf_evaluator(game, heuristic)
    return DeepSearch(algorithm, ops_of(game), evaluate, bool(normalize), max_sum)


def improved_search(
    algorithm: str, normalize: bool | None, options: Mapping[str, Any]
) -> tuple[str, bool | None]:
    """The deep search the improved flavour runs for ``algorithm`` with its checked
    ``options``, and its normalisation: the algorithm itself, but ``maxnsp`` for the
    mended Hypermax (:class:`.improved.HypermaxOptions`); ``ValueError`` for the thesis
    flavour's unsound deep pruning. The agents check their settings against it up
    front, so a bad one is refused when the agent is made, not at its first move.
    """
    if options.get("deep"):
        raise ValueError("deep pruning is unsound and exists in the thesis flavour only")
    for option, other in get_algorithm(algorithm).runs_as.items():
        if options.get(option):
            return other, (get_algorithm(other).normalize if normalize is None else normalize)
    return algorithm, normalize


def search(
    position: Any,
    algorithm: str = "paranoid",
    *,
    flavour: str = "improved",
    depth: int | None = None,
    time_ms: float | None = None,
    nodes: int | None = None,
    iterations: int | None = None,
    node_rate: float | None = None,
    heuristic: str | Callable | None = None,
    normalize: bool | None = None,
    game: GameLike = None,
    workspace: Any = None,
    **options: Any,
) -> RootResult:
    """Choose a move in ``position`` and report what the search did.

    Budgets: ``depth`` (plies), ``time_ms`` and ``nodes`` (expanded plus evaluated
    positions, the same count on every machine). The improved flavour accepts any
    combination and stops at the first one spent; the thesis flavour exactly one of
    depth and time, as the original program had. ``iterations`` is Monte Carlo tree
    search's budget (``mcts`` takes iterations, time and nodes, no depth).
    ``node_rate`` (Chameleon Chess, with ``time_ms``) emulates the original program's
    clock: a node counter at the original's speed, ``node_rate`` positions per
    millisecond at the start position and more with fewer pawns
    (:func:`chameleon_lab.games.chameleon.clock.original_clock_nodes`), so a session
    plays the same games on every machine and every run. The thesis flavour reads that
    clock where the original read its own (between root successors, reaching the
    original's depths); the improved flavour searches the position's share of nodes as
    a node budget, checked inside the tree (the original's speed, our search).

    ``normalize=None`` takes the thesis's setting per algorithm (its registry entry's
    ``normalize``); ``workspace`` reuses an improved search's tables.

    ``options`` are the algorithm's own, as its registry entry declares them
    (:attr:`.registry.Algorithm.options`; the docs' algorithm pages list them): MaxN-IS's
    and speculative MaxN's ``max_sum`` (the bound on a score vector's sum), MaxN-IS's
    ``deep`` (thesis flavour: the unsound deep pruning of the thesis's figure 4.5),
    Hypermax's ``mended``, the two-player suite's switches (:mod:`.suite`), MCTS's
    (:mod:`.mcts`), df-pn's (:mod:`.dfpn`); and ``tt_bits``, which every algorithm takes:
    the size of its transposition table (default the entry's ``tt_bits``: Paranoid's
    2**18 entries, none for the two-player suite). An option the algorithm does not
    take is refused with the valid names.
    """
    spec = get_algorithm(algorithm)
    rate = check_node_rate(flavour, time_ms, node_rate, nodes)
    own_clock = get_flavour(flavour).own_clock
    if rate is not None and not own_clock:  # the time budget becomes this position's nodes
        time_ms, nodes = None, emulated_nodes(position, game, float(time_ms), rate)
    budget = algorithm_budget(algorithm, flavour, depth, time_ms, nodes, iterations)
    tt_bits = options.pop("tt_bits", None)
    tt_bits = spec.tt_bits if tt_bits is None else tt_bits
    check_tt_bits(tt_bits)
    check_options(spec, options)
    if rate is not None and own_clock:
        options["node_rate"] = rate
    return get_flavour(flavour).run(
        position,
        algorithm,
        budget=budget,
        heuristic=heuristic,
        normalize=normalize,
        game=game,
        tt_bits=tt_bits,
        workspace=workspace,
        **options,
    )


def _improved(
    position: Any,
    algorithm: str,
    *,
    budget: Budget,
    heuristic: str | Callable | None,
    normalize: bool | None,
    game: GameLike,
    tt_bits: int,
    workspace: Any,
    **options: Any,
) -> RootResult:
    """The improved flavour: the multi-player iterative deepening, or the algorithm's
    own driver (the two-player suite, MCTS, df-pn)."""
    spec = get_algorithm(algorithm)
    resolved = check_options(spec, options)
    if spec.driver is not None:
        if normalize:
            raise ValueError(f"{algorithm} takes no normalize (it scores s_me - s_other)")
        return spec.code("driver")(
            position,
            algorithm,
            game=game,
            budget=budget,
            heuristic=heuristic,
            workspace=workspace,
            tt_bits=tt_bits,
            **resolved,
        )
    game = resolve_game(position, game)
    algorithm, normalize = improved_search(algorithm, normalize, resolved)
    method = deep_search(
        algorithm,
        game=game,
        heuristic=heuristic,
        normalize=normalize,
        max_sum=resolved.get("max_sum"),
    )
    workspace = workspace_for(DeepWorkspace, method.game, tt_bits, workspace)
    return iterative_deepening(method, state_of(position), budget, workspace)


register_flavour(
    Flavour(
        "improved",
        "iterative deepening with budgets checked inside the tree (any of depth, time, nodes)",
        lambda depth, time_ms, nodes: None,
        _improved,
    )
)
