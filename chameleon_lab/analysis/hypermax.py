"""Hypermax against MaxN: how often it departs, why, and the mended Hypermax's savings.

The thesis's chapter 7 leaves open why Hypermax (Fridenfalk 2014) reaches other results
than MaxN. Hypermax shifts every leaf vector by its mean over the players alive at the
root (so the entries add up to 0), hands an *alpha vector* down the tree (each entry the
best its player has found at a node above where it moved; the root player's from the
root's earlier moves) and stops a node once the entries add up to 0 or more: a later
child would have to beat every entry at once, which a zero-sum vector cannot.

* :func:`sample_positions`: positions of Chameleon Chess with three and four players
  alive, from seeded random self-play (the differential checks' sampler,
  :func:`chameleon_lab.search.differential.game_positions`), labelled by phase;
* :func:`compare` and :func:`departures`: Hypermax against MaxN of the same flavour and
  normalisation at the same depth, through the public :func:`~chameleon_lab.search.api.search`: a
  *move departure* is another root move, a *value departure* another root vector
  (MaxN's shifted by its mean exactly as Hypermax shifts its leaves, so the two are
  comparable bit for bit); :func:`departure_table` the rates;
* :func:`explain`: the cause of one departure. Hypermax is traced in Python over the
  game's compiled functions, and MaxN computed beside it; from the root down, the
  explanation descends into a child whose Hypermax value differs from its MaxN value
  (MaxN's choice first, then Hypermax's), and classifies the node where the children
  searched agree with MaxN but the node does not, by the rule of :data:`CAUSES`;
* :func:`mended_nodes`: the mended Hypermax (``search(..., "hypermax", mended=True)``,
  see :class:`chameleon_lab.search.improved.HypermaxOptions`) against MaxN and MaxN-IS:
  the same move and vector as MaxN, and the nodes each searched.

What the causes come to on Chameleon Chess (``pawns100roles``, 1,000 positions of three
and four players, depths 2-4; the rates by setting are :func:`departure_table`'s):
unnormalised, most departures are the mean shift (MaxN maximises a player's own
material, Hypermax its material less the mean, so it also values taking the others'),
and against the normalised MaxN the thesis ran, unnormalised Hypermax departs far less.
Normalised, the mean shift is left only as rounding where the player to move has 0 in
tied leaves; the departures come from the cut (from depth 3 with three players, 4 with
four: every player needs an alpha entry) and, from depth 4, from the inherited bound. The
mended Hypermax removes all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..games.heuristics import normalize as normalise_in_place
from ..games.registry import Game, get_game
from ..games.trees import TREE_OPS, ExplicitTree, tree_values
from ..search.api import search
from ..search.core import leaf_evaluator, state_of
from ..search.deepening import _order
from ..search.differential import game_positions
from .treeplot import Example, draw_example

#: Phases by the share of the seated players' pawns still on the board (four players:
#: 13-16 pawns opening, 9-12 middle, 8 or fewer late, as notebook 05's phases).
PHASE_SHARES = (("opening", 0.75), ("middle", 0.5), ("late", 0.0))
#: The seatings sampled, by number of players.
SEATINGS = {3: "RGY", 4: "RGYB"}
HEURISTIC = "pawns100roles"
_TREE_DEPTH = 10  # deeper than any explicit tree here: every search runs to the leaves

#: The causes :func:`explain` tells apart, each by the rule that assigns it at the node
#: where the children searched agree with MaxN and the node does not (``p`` the player
#: to move there, ``m`` MaxN's choice, ``h`` Hypermax's).
CAUSES = {
    "mean shift": "MaxN's rule applied to the shifted vectors (s[p] minus the leaf's mean) "
    "chooses another child than on the scores themselves: the leaves' sums differ "
    "(unnormalised), or normalised sums differ by rounding where s[p] ties",
    "inherited bound": "all children searched, but m's entry for p does not beat the "
    "alpha entry for p handed down from an ancestor (or the root's earlier moves), so "
    "Hypermax keeps its first child (a best replaced only by beating alpha[p])",
    "cut, parent takes the partial value": "m was cut (the alpha sum reached 0) and the "
    "parent took the vector the cut node returned (a bound, not its value)",
    "cut, bound from higher up": "m was cut and the parent rejected the vector the node "
    "returned, but would have taken the node's MaxN value: the entry that made the cut "
    "comes from a node further up, whose choice the parent's changes",
    "root order": "improved flavour only: the root's children are searched in the order "
    "of the previous iteration's values, which differ between the two, and ties among "
    "equal root moves fall to another first move",
    "other": "none of the above (none was found)",
}


def _cause_tree(title: str, nested: Any, players: tuple[int, ...], normalize: bool) -> Example:
    searches = [
        {"algorithm": a, "flavour": "thesis", "normalize": normalize} for a in ("maxn", "hypermax")
    ]
    return Example(title, nested, players, searches)


#: The smallest explicit tree of each cause (the root-order one needs values at inner
#: nodes, which nested lists cannot give; ``tests/test_hypermax.py`` builds it), as
#: :mod:`.treeplot` examples that search MaxN and Hypermax (thesis flavour, to the
#: leaves) and draw as figures 4.1-4.6 do (:func:`draw_cause`; players as drawn, P1 the
#: root's); the tests explain each and find its cause.
CAUSE_TREES: dict[str, Example] = {
    "mean shift": _cause_tree(
        "Mean shift: 3 of 3 (shifted 2) beats 4 of 12 (shifted 0), unnormalised",
        [(3, 0, 0), (4, 4, 4)],
        (0, 1, 2),
        False,
    ),
    "mean shift (rounding)": _cause_tree(
        "Mean shift by rounding: P1 has 0 in both leaves, normalised; the right "
        "one's quotients add up to 1 - 2**-53",
        [(0, 1, 1, 1), (0, 1, 4, 1)],
        (0, 1, 2, 3),
        True,
    ),
    "inherited bound": _cause_tree(
        "Inherited bound: P1 moves again below its root move and keeps its first "
        "child, neither beating the root's 5",
        [(5, 2, 2), [[(1, 7, 1), (4, 1, 4)], (6, 3, 0)]],
        (0, 1, 0, 2),
        False,
    ),
    "cut, bound from higher up": _cause_tree(
        "Cut bounded from higher up (figure 4.6): P2 would take the cut leaf",
        [(2, -1, -1), [(3, -2, -1), [(1, -3, 2), (-2, -1, 3)]]],
        (0, 1, 2),
        False,
    ),
    "cut, parent takes the partial value": _cause_tree(
        "Cut whose partial value the parent takes: P2's best becomes 1, not 2, and "
        "its last leaf replaces it",
        [(2, -1, -1), [(-3, 0, 3), [(-2, 1, 1), (-4, 2, 2)], (3, 2, -5)]],
        (0, 1, 2),
        False,
    ),
}


def phase_of(position: Any, seated: int) -> str:
    """The phase of ``position`` in a game of ``seated`` players by its pawns left."""
    share = len(position.pawns) / (4 * seated)
    for name, low in PHASE_SHARES:
        if share > low:
            return name
    return PHASE_SHARES[-1][0]


@dataclass(frozen=True)
class Sample:
    """A position with its number of players alive and its phase."""

    players: int
    phase: str
    position: Any


def sample_positions(
    count: int, players: Sequence[int] = (3, 4), seed: int = 0, decisive_share: float = 0.2
) -> list[Sample]:
    """``count`` positions (split evenly over ``players``) from seeded random games of
    Chameleon Chess seating that many players, every phase (a share ``decisive_share``
    one to five plies before the end), where all of them are still alive and it is not
    over; the same on every machine."""
    out: list[Sample] = []
    for j, n in enumerate(players):
        want = count // len(players) + (1 if j < count % len(players) else 0)
        game = get_game("chameleon", players=SEATINGS[n])
        got: list[Sample] = []
        stream = seed * 1_000_003 + n
        while len(got) < want:
            for pos in game_positions(game, 2 * want, stream, decisive_share=decisive_share):
                if len(pos.players_alive) == n and len(got) < want:
                    got.append(Sample(n, phase_of(pos, n), pos))
            stream += 7919
        out.extend(got)
    return out


def shifted(vector: np.ndarray, players: np.ndarray) -> np.ndarray:
    """A score vector as Hypermax's leaf makes it: each entry of a player in
    ``players`` (0/1 per player) minus their mean, 0 for the others (the same
    floating-point operations, so equal vectors give equal results)."""
    v = np.asarray(vector, dtype=float)
    avg = (v[0] + v[1] + v[2] + v[3]) / float(np.sum(players))
    return np.array([v[q] - avg if players[q] else 0.0 for q in range(4)])


def _game_of(position: Any) -> Game:
    return position.game


def compare(
    position: Any,
    depth: int,
    flavour: str,
    heuristic: str = HEURISTIC,
) -> list[dict[str, Any]]:
    """Hypermax against MaxN of the same flavour at ``depth``, without and with
    normalisation (both searches the same): one dict per setting with the moves,
    whether the move and the root vector depart, both node counts, and whether the move
    departs from the normalised MaxN's (the thesis's MaxN, which always normalised)."""
    players = _game_of(position).ops.players_alive(state_of(position))
    found = {}
    for norm in (False, True):
        options = {"flavour": flavour, "depth": depth, "normalize": norm, "heuristic": heuristic}
        found[norm] = (search(position, "hypermax", **options), search(position, "maxn", **options))
    rows = []
    for norm, (hyper, maxn) in found.items():
        expected = shifted(maxn.scores[maxn.index], players)
        rows.append(
            {
                "normalize": norm,
                "hypermax_move": hyper.index,
                "maxn_move": maxn.index,
                "move_departs": hyper.index != maxn.index,
                "value_departs": not np.array_equal(hyper.scores[hyper.index], expected),
                "departs_from_normalised_maxn": hyper.index != found[True][1].index,
                "hypermax_nodes": hyper.nodes,
                "maxn_nodes": maxn.nodes,
            }
        )
    return rows


def departures(
    samples: Sequence[Sample],
    depths: Iterable[int] = (2, 3, 4, 5),
    flavours: Iterable[str] = ("thesis", "improved"),
    *,
    per_depth: Mapping[int, int] | None = None,
    heuristic: str = HEURISTIC,
    progress: bool = True,
) -> pd.DataFrame:
    """One row per sample, depth, flavour and normalisation: :func:`compare`'s answer
    with the sample's players and phase. ``per_depth`` caps the samples searched at a
    depth (the first ones; depth 5 takes seconds a position)."""
    depths = list(depths)
    flavours = list(flavours)
    jobs = [
        (i, s, d)
        for d in depths
        for i, s in enumerate(samples[: (per_depth or {}).get(d, len(samples))])
    ]
    bar = tqdm(
        total=len(jobs) * len(flavours),
        unit="position",
        desc="hypermax vs maxn",
        disable=not progress,
    )
    rows = []
    try:
        for i, sample, depth in jobs:
            for flavour in flavours:
                for row in compare(sample.position, depth, flavour, heuristic):
                    rows.append(
                        {
                            "sample": i,
                            "players": sample.players,
                            "phase": sample.phase,
                            "depth": depth,
                            "flavour": flavour,
                            **row,
                        }
                    )
                bar.update()
    finally:
        bar.close()
    return pd.DataFrame(rows)


def departure_table(per_position: pd.DataFrame, by: Sequence[str] | None = None) -> pd.DataFrame:
    """The tidy table: per game players, phase, depth, flavour and normalisation the
    positions compared, the move and value departures and their rates."""
    keys = list(by or ["players", "phase", "depth", "flavour", "normalize"])
    out = (
        per_position.groupby(keys, observed=True)
        .agg(
            positions=("sample", "size"),
            move_departures=("move_departs", "sum"),
            value_departures=("value_departs", "sum"),
            departures_from_normalised_maxn=("departs_from_normalised_maxn", "sum"),
        )
        .reset_index()
    )
    out["move_rate"] = out["move_departures"] / out["positions"]
    out["value_rate"] = out["value_departures"] / out["positions"]
    return out


# ----------------------------------------------------------------------- the causes
class _Walk:
    """A game's tree walked from Python with its compiled functions: children, leaves
    scored as the searches score them."""

    def __init__(
        self, ops: Any, evaluate: Callable, norm: bool, search_options: dict | None = None
    ) -> None:
        self.ops = ops
        self.evaluate = evaluate
        self.norm = norm
        #: the game, heuristic and normalisation for the compiled MaxN (None: in Python)
        self.search_options = search_options
        self.moves = np.zeros((1, ops.max_moves), dtype=np.int64)
        self.undo = np.zeros((1, ops.undo_size), dtype=np.int64)

    def children(self, state: np.ndarray, depth: int) -> tuple[int, list[np.ndarray]]:
        """The player to move and the children (none at a leaf)."""
        p = int(self.ops.player_of(state))
        if p < 0 or depth <= 0:
            return p, []
        n = self.ops.generate(state, self.moves, 0)
        out = []
        for move in self.moves[0, :n].copy():
            child = state.copy()
            self.ops.make(child, int(move), self.undo, 0)
            out.append(child)
        return p, out

    def score(self, state: np.ndarray) -> np.ndarray:
        leaf = np.zeros(4)
        self.evaluate(state, leaf)
        if self.norm:
            normalise_in_place(leaf)
        return leaf


@dataclass
class _Record:
    """What the traced Hypermax did at a node."""

    player: int
    alpha_in: np.ndarray
    values: dict[int, np.ndarray]  # the children searched: their returned vectors
    accepted: dict[int, bool]  # whether the child's vector became the node's best
    best: int  # the child whose vector the node returned
    cut: bool  # whether the alpha sum stopped it before its last child


def hypermax_trace(
    walk: _Walk,
    state: np.ndarray,
    depth: int,
    players: np.ndarray,
    alpha: np.ndarray,
    records: dict[tuple[int, ...], _Record],
    path: tuple[int, ...] = (),
    order: Sequence[int] | None = None,
) -> np.ndarray:
    """Hypermax as the thesis's node function and the improved one compute it (they
    differ only in the root's order, ``order``), written out in Python; every inner
    node's record lands in ``records`` by its path of child indices."""
    p, kids = walk.children(state, depth)
    if not kids:
        return shifted(walk.score(state), players)
    own = alpha.copy()
    rec = _Record(p, alpha.copy(), {}, {}, -1, False)
    records[path] = rec
    best = None
    for k, i in enumerate(order if order is not None else range(len(kids))):
        if k > 0 and own[0] + own[1] + own[2] + own[3] >= 0.0:
            rec.cut = True
            break
        value = hypermax_trace(walk, kids[i], depth - 1, players, own, records, (*path, i))
        rec.values[i] = value
        take = k == 0 or own[p] < value[p]
        rec.accepted[i] = take
        if take:
            best, rec.best = value, i
        if own[p] < value[p]:
            own[p] = value[p]
    return best


def maxn_value(walk: _Walk, state: np.ndarray, depth: int) -> np.ndarray:
    """MaxN's vector (the scores, not shifted), the first of equals winning ties: by the
    thesis flavour's compiled MaxN where ``walk`` has the game and heuristic for it
    (the same vectors, bit for bit), else written out in Python."""
    p, kids = walk.children(state, depth)
    if not kids:
        return walk.score(state)
    if walk.search_options is not None and depth >= 2:
        result = search(state, "maxn", flavour="thesis", depth=depth, **walk.search_options)
        return result.scores[result.index].copy()
    best = None
    for child in kids:
        value = maxn_value(walk, child, depth - 1)
        if best is None or value[p] > best[p]:
            best = value
    return best


def _first_best(vectors: Mapping[int, np.ndarray], order: Sequence[int], p: int) -> int:
    best = order[0]
    for i in order[1:]:
        if vectors[i][p] > vectors[best][p]:
            best = i
    return best


def root_order(
    position: Any,
    algorithm: str,
    depth: int,
    normalize: bool,
    heuristic: Any,
    game: Any = None,
) -> list[int]:
    """The order in which the improved flavour's iterative deepening searches the root's
    children in its iteration ``depth`` (from the values of the iterations before)."""
    options = {"normalize": normalize, "heuristic": heuristic, "game": game}
    state = state_of(position)
    ops = game if game is not None else _game_of(position).ops
    column = int(ops.player_of(state))
    order = np.arange(len(search(position, algorithm, depth=1, **options).moves))
    for d in range(1, depth):
        result = search(position, algorithm, depth=d, **options)
        order = _order(result.scores[:, column], order)
    return [int(i) for i in order]


@dataclass(frozen=True)
class Explanation:
    """Why Hypermax departs from MaxN on one position: the cause, the path of child
    indices to the node where it arises, and that node's player and depth left."""

    cause: str
    path: tuple[int, ...]
    player: int
    depth_left: int


def explain(
    position: Any,
    depth: int,
    flavour: str,
    normalize: bool,
    heuristic: str = HEURISTIC,
    *,
    game: Any = None,
) -> Explanation | None:
    """The cause of Hypermax's departure from MaxN on ``position`` (a position, or a
    state with ``game`` its ops and ``heuristic`` a compiled function: an explicit
    tree), or None where their root moves and vectors agree. See :data:`CAUSES` and
    the module doc for the rule."""
    state = state_of(position).copy()
    given = game  # the explicit tree's ops, or None for a position of a game
    if game is None:
        game = _game_of(position)
        ops = game.ops
    else:
        ops = game
    compiled = {"game": game, "heuristic": heuristic, "normalize": normalize}
    walk = _Walk(ops, leaf_evaluator(game, heuristic), normalize, compiled)
    players = np.asarray(ops.players_alive(state), dtype=np.int64)
    p, kids = walk.children(state, depth)
    if flavour == "improved":
        h_order = root_order(position, "hypermax", depth, normalize, heuristic, given)
        m_order = root_order(position, "maxn", depth, normalize, heuristic, given)
    else:
        h_order = m_order = list(range(len(kids)))
    alpha = np.where(players == 1, -np.inf, 0.0)
    records: dict[tuple[int, ...], _Record] = {}
    root_value = hypermax_trace(walk, state, depth, players, alpha, records, (), h_order)
    root_maxn = [maxn_value(walk, k, depth - 1) for k in kids]
    m = _first_best(dict(enumerate(root_maxn)), m_order, p)
    if records[()].best == m and np.array_equal(root_value, shifted(root_maxn[m], players)):
        return None
    path: tuple[int, ...] = ()
    node, left, maxn_kids, order = state, depth, root_maxn, m_order
    parent: _Record | None = None
    while True:
        rec = records[path]
        p = rec.player
        truth = {i: shifted(v, players) for i, v in enumerate(maxn_kids)}
        m = _first_best(dict(enumerate(maxn_kids)), order, p)
        h = rec.best
        differs = [
            i for i in (m, h) if i in rec.values and not np.array_equal(rec.values[i], truth[i])
        ]
        if differs:
            i = differs[0]
            parent = rec
            path = (*path, i)
            _, kids = walk.children(node, left)
            node, left = kids[i], left - 1
            _, grand = walk.children(node, left)
            maxn_kids = [maxn_value(walk, k, left - 1) for k in grand]
            order = list(range(len(grand)))
            continue
        if m not in rec.values:
            taken = parent is not None and parent.accepted[path[-1]]
            cause = "cut, parent takes the partial value" if taken else "cut, bound from higher up"
        elif _first_best(truth, order, p) != m:
            cause = "mean shift"
        elif not rec.alpha_in[p] < truth[m][p]:
            cause = "inherited bound"
        elif path == () and flavour == "improved":
            cause = "root order"
        else:
            cause = "other"
        return Explanation(cause, path, p, left)


def traced_values(example: Example) -> dict[tuple[int, ...], tuple]:
    """What the thesis's Hypermax returns at every inner node it searched of an explicit
    tree (:data:`CAUSE_TREES`), by path: the leaf whose (shifted) vector it returned,
    written as the leaf's own scores, so that a drawing beside MaxN's reads alike."""
    tree = ExplicitTree.from_nested(example.nested, example.players)
    normalize = bool(example.searches[-1]["normalize"])
    walk = _Walk(TREE_OPS, leaf_evaluator(TREE_OPS, tree_values), normalize)
    state = tree.state.copy()
    players = np.asarray(TREE_OPS.players_alive(state), dtype=np.int64)
    records: dict[tuple[int, ...], _Record] = {}
    alpha = np.where(players == 1, -np.inf, 0.0)
    hypermax_trace(walk, state, _TREE_DEPTH, players, alpha, records)

    def leaf(path: tuple[int, ...]) -> tuple:
        while path in records:
            path = (*path, records[path].best)
        node = example.nested
        for i in path:
            node = node[i]
        return node

    return {path: leaf(path) for path in records}


def draw_cause(name: str) -> Any:
    """The smallest tree of cause ``name`` (:data:`CAUSE_TREES`) drawn as figures 4.1-4.6
    are: MaxN and the thesis's Hypermax side by side, each inner node labelled with the
    leaf whose vector that search returned there (Hypermax's from its trace, see
    :func:`traced_values`), cut branches dashed, the root's choice in bold."""
    if name not in CAUSE_TREES:
        raise ValueError(f"unknown cause {name!r}; causes with a tree: {', '.join(CAUSE_TREES)}")
    example = CAUSE_TREES[name]
    return draw_example(example, {len(example.searches) - 1: traced_values(example)})


def causes(
    rows: pd.DataFrame,
    samples: Sequence[Sample],
    *,
    limit: int | None = None,
    heuristic: str = HEURISTIC,
    progress: bool = True,
) -> pd.DataFrame:
    """The cause of each departure in ``rows`` (:func:`departures`' rows that depart,
    at most ``limit`` per depth and setting): one row each with the cause, the depth
    of its node below the root and its depth left."""
    todo = rows[rows["move_departs"] | rows["value_departs"]]
    if limit is not None:
        todo = todo.groupby(["depth", "flavour", "normalize"], group_keys=False).head(limit)
    bar = tqdm(total=len(todo), unit="departure", desc="causes", disable=not progress)
    out = []
    try:
        for row in todo.itertuples():
            sample = samples[row.sample]
            why = explain(sample.position, row.depth, row.flavour, row.normalize, heuristic)
            out.append(
                {
                    "sample": row.sample,
                    "players": row.players,
                    "phase": row.phase,
                    "depth": row.depth,
                    "flavour": row.flavour,
                    "normalize": row.normalize,
                    "move_departs": row.move_departs,
                    "cause": why.cause if why else "none found",
                    "ply": len(why.path) if why else -1,
                }
            )
            bar.update()
    finally:
        bar.close()
    return pd.DataFrame(out)


# ------------------------------------------------------------------ the mended one
def mended_nodes(
    samples: Sequence[Sample],
    depths: Iterable[int] = (2, 3, 4),
    *,
    heuristic: str = HEURISTIC,
    progress: bool = True,
) -> pd.DataFrame:
    """The mended Hypermax against MaxN and MaxN-IS, normalised, improved flavour: per
    sample and depth whether its move and vector are MaxN's, and the nodes of each."""
    depths = list(depths)
    bar = tqdm(
        total=len(samples) * len(depths), unit="position", desc="mended", disable=not progress
    )
    rows = []
    try:
        for depth in depths:
            for i, sample in enumerate(samples):
                options = {"depth": depth, "normalize": True, "heuristic": heuristic}
                maxn = search(sample.position, "maxn", **options)
                maxnis = search(sample.position, "maxnis", **options)
                plain = search(sample.position, "hypermax", **options)
                mended = search(sample.position, "hypermax", mended=True, **options)
                rows.append(
                    {
                        "sample": i,
                        "players": sample.players,
                        "phase": sample.phase,
                        "depth": depth,
                        "same_move": mended.index == maxn.index,
                        "same_vector": np.array_equal(
                            mended.scores[mended.index], maxn.scores[maxn.index]
                        ),
                        "maxn_nodes": maxn.nodes,
                        "maxnis_nodes": maxnis.nodes,
                        "hypermax_nodes": plain.nodes,
                        "mended_nodes": mended.nodes,
                    }
                )
                bar.update()
    finally:
        bar.close()
    return pd.DataFrame(rows)


def savings(per_position: pd.DataFrame) -> pd.DataFrame:
    """Per players and depth: positions, how many the mended Hypermax matched MaxN on,
    and the total nodes of each search with the mended one's share of MaxN's and
    MaxN-IS's."""
    g = per_position.groupby(["players", "depth"])
    out = g.agg(
        positions=("sample", "size"),
        same=("same_vector", "sum"),
        maxn_nodes=("maxn_nodes", "sum"),
        maxnis_nodes=("maxnis_nodes", "sum"),
        hypermax_nodes=("hypermax_nodes", "sum"),
        mended_nodes=("mended_nodes", "sum"),
    ).reset_index()
    out["mended_of_maxn"] = out["mended_nodes"] / out["maxn_nodes"]
    out["mended_of_maxnis"] = out["mended_nodes"] / out["maxnis_nodes"]
    return out
