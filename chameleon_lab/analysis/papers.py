"""The multi-player search papers' findings, replayed on the papers' own games.

The functions behind notebook ``12_the_papers_games``. Notebook 09 tests the papers'
claims on Chameleon Chess, a game none of them played; here they are played where
the papers found them (Rolit, Chinese Checkers and Focus),
with the workbench's designs and tests (balanced blocks of openings and seats, a
sequential test per duel, Holm's correction across every duel of the run):

* :data:`FINDINGS`: each published finding as the paper's abstract states it (the
  only text of these papers we could read), with the games it names;
* :func:`paper_agents`: the agents of the findings on a game (MCTS's playouts chosen
  per game, see :data:`MCTS_PLAYOUTS`);
* :func:`findings_study`: every finding on every game, player count and budget, each
  a duel, all games' duels played in the same rounds, and the verdicts across all of
  them;
* :func:`findings_table`: each finding beside ours: the same direction, the
  opposite, level within the margin (an equivalence test, the duel stopped by a
  :class:`~.sequential.LevelSPRT`), or open with what the run could not detect;
* :func:`ply_positions` and :func:`pruning_table`: MaxN's, MaxN-IS's and
  speculative MaxN's nodes at fixed depths on the same positions (Sturtevant 2003
  measured them on Chinese Checkers), and :func:`pruning_beside` ours beside his
  published count (:data:`STURTEVANT_2003`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from ..games.registry import get_game
from ..games.registry import resolve_params as _resolve
from ..tournament import records_only
from ..tournament.designs import opening_suite
from .beyond import LADDER_AGENTS
from .claims import sign_flip_min_blocks
from .efficiency import nodes_per_depth, pruning
from .headtohead import (
    DEFAULT_PLAN,
    Claim,
    Duel,
    DuelPlan,
    claim_verdicts,
    concat_tables,
    duel_sessions,
    duel_tables,
    play_in_rounds,
    recorded_batches,
)
from .sequential import LevelSPRT

#: The games of the findings (the papers' Blokus is not in the library).
GAMES = ("rolit", "chinesecheckers", "focus")

#: The heuristic every search uses at its leaves, per game (the games' defaults: discs,
#: corners and mobility for Rolit; distance to the home triangle for Chinese Checkers;
#: captures, reserve and stacks controlled for Focus).
HEURISTICS = {"rolit": "positional", "chinesecheckers": "distance", "focus": "control"}

#: MCTS's playout options per game. Rolit: random playouts to the full board (at most
#: 60 placements, every game ends). Chinese Checkers: random play almost never brings
#: ten pieces home before the move limit, so a playout stops after 20 plies and the
#: heuristic scores where it stopped (about twice the iterations of playouts to the
#: limit: docs/benchmarks.md, "The papers' games"). Focus: random play rarely
#: captures (random games of the short game mostly reach the move limit), so the same
#: cut after 20 plies. Our choice: the papers' epsilon-greedy playouts are described
#: only in their full texts.
MCTS_PLAYOUTS: dict[str, dict[str, Any]] = {
    "rolit": {},
    "chinesecheckers": {"playout_depth": 20},
    "focus": {"playout_depth": 20},
}


@dataclass(frozen=True)
class Finding:
    """A published finding: on ``games``, ``agent`` is stronger than ``rival``
    (``found="stronger"``) or level with it (``"level"``)."""

    source: str
    text: str
    agent: str
    rival: str
    games: tuple[str, ...]
    found: str = "stronger"

    def claim(self) -> Claim:
        """The finding as a head-to-head claim of ``agent`` over ``rival`` (a level
        one is played and judged as :func:`findings_study` says)."""
        return Claim(self.source, self.text, self.agent, self.rival)


_SW = "Schadd & Winands 2011 (IEEE TCIAIG 3(1))"
_NW10 = "Nijssen & Winands, CG 2010"
_NW13 = "Nijssen & Winands 2013 (ICGA J. 36(1))"

#: The findings as the abstracts state them (checked against the abstracts; the
#: papers' tables, time settings and heuristics were not available to us). Omitted:
#: the multi-player MCTS-Solver (a genuine improvement in Focus, CG 2010; in the four
#: games, 2013): the library's MCTS-Solver proves two-player games only.
FINDINGS: tuple[Finding, ...] = (
    Finding(_SW, "BRS is superior to MaxN", "brs", "maxn", ("chinesecheckers", "focus", "rolit")),
    Finding(_SW, "BRS outperforms Paranoid", "brs", "paranoid", ("chinesecheckers", "focus")),
    Finding(_SW, "BRS is on equal footing with Paranoid", "brs", "paranoid", ("rolit",), "level"),
    Finding(
        _NW10, "progressive history is a considerable improvement", "mcts-ph", "mcts",
        ("chinesecheckers", "focus"),
    ),
    Finding(
        _NW13, "MCTS-maxn overall performs best (against MCTS-paranoid)", "mcts",
        "mcts-paranoid", ("chinesecheckers", "focus", "rolit"),
    ),
    Finding(
        _NW13, "MCTS-maxn overall performs best (against MCTS-BRS)", "mcts", "mcts-brs",
        ("chinesecheckers", "focus", "rolit"),
    ),
)  # fmt: skip

#: What each finding (by its text) found: "stronger" or "level".
_FOUND = {f.text: f.found for f in FINDINGS}


#: The agents of the findings by label, each the notebook 09 ladder agent it is
#: (:data:`~.beyond.LADDER_AGENTS`): MaxN played by MaxN-IS (the same values at every
#: depth with fewer nodes: the strongest MaxN a time budget allows).
AGENTS = {
    "maxn": "maxnis",
    "paranoid": "paranoid",
    "brs": "brs",
    "mcts": "mcts",
    "mcts-ph": "mcts-ph",
    "mcts-paranoid": "mcts-paranoid",
    "mcts-brs": "mcts-brs",
}


def paper_agents(game: str) -> dict[str, dict[str, Any]]:
    """The agents of :data:`FINDINGS` on ``game``, by label, without a budget: the
    ladder agents :data:`AGENTS` names (MCTS with the maxn, paranoid and brs backups
    and with progressive history, W = 3), every search with the game's
    :data:`HEURISTICS` entry, MCTS's playouts by :data:`MCTS_PLAYOUTS` in place of
    the ladder's Chameleon Chess playout depth."""
    _check_game(game)
    out = {}
    for label, ladder in AGENTS.items():
        params = {**LADDER_AGENTS[ladder], "heuristic": HEURISTICS[game]}
        if "options" in params:
            options = {k: v for k, v in params["options"].items() if k != "playout_depth"}
            params["options"] = {**options, **MCTS_PLAYOUTS[game]}
        out[label] = params
    return out


def findings_params(given: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each game's parameters for :func:`findings_study` from the notebook's settings
    (``{"chinesecheckers": {...}, "focus": {...}}``): checked, naming a bad value, and
    completed with the defaults, without ``players`` (each duel sets its own)."""
    out = {}
    for game, params in given.items():
        resolved = _resolve(game, {**params, "players": 3})
        out[game] = {k: v for k, v in resolved.items() if k != "players"}
    return out


def _check_game(game: str) -> None:
    if game not in GAMES:
        valid = ", ".join(GAMES)
        raise ValueError(f"unknown game {game!r} for the papers' findings; valid: {valid}")


def findings_on(game: str) -> list[Finding]:
    """The findings :data:`FINDINGS` gives for ``game``."""
    _check_game(game)
    return [f for f in FINDINGS if game in f.games]


def findings_study(
    games: Sequence[str],
    players: Sequence[int],
    budgets_ms: Sequence[float],
    folder: str | Path,
    *,
    game_params: Mapping[str, Mapping[str, Any]] | None = None,
    plan: DuelPlan = DEFAULT_PLAN,
    opening_plies: int = 4,
    alpha: float = 0.05,
    seed: int = 0,
    margin_elo: float = 50.0,
    interim: bool = False,
) -> tuple[Any, pd.DataFrame]:
    """Every finding of every game in ``games`` at every player count and budget,
    head to head as ``plan`` says (:func:`~.headtohead.duel_sessions`, records in
    ``folder / game``), all games' duels in the same rounds
    (:func:`~.headtohead.play_in_rounds`: a run stopped early has brought the last
    game's findings as far as the first's), and the verdicts
    (:func:`~.headtohead.claim_verdicts`) with Holm's correction across all the duels
    of all the games; the games' tables and the verdicts, each row with its ``game``
    and the finding's ``found``.

    No duel stops before the fewest blocks (whole batches) whose sign-flip test can
    reach Holm's strictest level, ``alpha`` over the number of hypotheses
    (:func:`~.claims.sign_flip_min_blocks`; ``plan.min_blocks`` is replaced): a
    sequential test that decided earlier would leave a verdict that could only be
    "open".

    A "level" finding's duel stops by a :class:`~.sequential.LevelSPRT` (no gap of
    ``margin_elo`` either way, the plan's error rates) instead of ``plan.sprt``, and
    its verdict tests equivalence within ``margin_elo``
    (:func:`~.headtohead.level_p`).

    ``interim``: play nothing (:func:`~chameleon_lab.tournament.runner.records_only`)
    and read each duel as far as its records go in whole batches
    (:func:`~.headtohead.recorded_batches`), leaving out a duel without one: where an
    interrupted run stands, judged as a finished one would be on those blocks."""
    game_params = dict(game_params or {})
    planned = {
        game: duel_sessions(
            [f.claim() for f in findings_on(game)], paper_agents(game), players, budgets_ms,
            opening_plies=opening_plies, seed=seed, game=game,
            game_params=game_params.get(game, {}),
        )
        for game in games
    }  # fmt: skip
    duels = [d for ds in planned.values() for d in ds]
    tests = len(duels) + sum(_FOUND[d[0].text] == "level" for d in duels)
    plan = replace(plan, min_blocks=_reachable(alpha / max(tests, 1), plan.batch))
    errors = plan.sprt.alpha, plan.sprt.beta, plan.sprt.prior_blocks
    level_plan = replace(plan, sprt=LevelSPRT(margin_elo, *errors))

    def plan_of(duel: Duel) -> DuelPlan:
        return level_plan if _FOUND[duel[0].text] == "level" else plan

    if interim:
        return _interim(planned, Path(folder), plan_of, alpha=alpha, seed=seed,
                        margin_elo=margin_elo)  # fmt: skip
    play_in_rounds(
        [(d[3], Path(folder) / g, plan_of(d).sprt) for g, ds in planned.items() for d in ds],
        plan,
    )
    return _judged(planned, Path(folder), plan_of, alpha=alpha, seed=seed, margin_elo=margin_elo)


def _reachable(level: float, batch: int) -> int:
    """The fewest blocks, in whole batches, whose sign-flip test can reach ``level``."""
    return -(-sign_flip_min_blocks(level) // batch) * batch


def _interim(
    planned: Mapping[str, Sequence[Duel]], folder: Path, plan_of: Callable[[Duel], DuelPlan],
    **judging: Any,
) -> tuple[Any, pd.DataFrame]:  # fmt: skip
    """:func:`findings_study`'s ``interim`` reading: each duel capped at its recorded
    batches, none played."""
    capped: dict[str, list[Duel]] = {}
    plans: dict[tuple[str, str], DuelPlan] = {}
    for game, duels in planned.items():
        for d in duels:
            blocks = recorded_batches(d[3], folder / game, plan_of(d))
            if blocks:
                capped.setdefault(game, []).append(d)
                plans[game, d[3].name] = replace(plan_of(d), max_blocks=blocks)
    if not capped:
        raise ValueError(f"no duel of the study has a batch of blocks recorded in {folder}")
    with records_only():
        return _judged(capped, folder, lambda d: plans[d[3].game, d[3].name], **judging)


def _judged(
    planned: Mapping[str, Sequence[Duel]],
    folder: Path,
    plan_of: Callable[[Duel], DuelPlan],
    *,
    alpha: float,
    seed: int,
    margin_elo: float,
) -> tuple[Any, pd.DataFrame]:
    """The tables and Holm-corrected verdicts of ``planned`` duels as their plans take
    them (:func:`~.headtohead.duel_tables`, playing what the records lack)."""
    parts, rows = [], []
    for game, planned_duels in planned.items():
        each = [duel_tables([d], folder / game, plan_of(d)) for d in planned_duels]
        t = concat_tables([e[0] for e in each])
        duels = pd.concat([e[1] for e in each], ignore_index=True)
        for df in (t.games, t.seats, t.moves):
            df["game_name"] = game
        parts.append(t)
        rows.append(duels.assign(game=game, found=duels["text"].map(_FOUND)))
    duels = pd.concat(rows, ignore_index=True)
    verdicts = claim_verdicts(
        duels, alpha=alpha, seed=seed, level=duels["found"].eq("level"), margin_elo=margin_elo
    )
    return concat_tables(parts), verdicts


def agreement(row: Any) -> str:
    """How a verdict row of :func:`findings_study` stands to its finding: for a
    "stronger" finding "same direction" (supported), "opposite" (contradicted) or
    "open"; for a "level" one "level" (equivalence within the margin shown),
    "differs" (a difference shown) or "open"."""
    if row.found == "stronger":
        return {"supported": "same direction", "contradicted": "opposite"}.get(row.verdict, "open")
    return {"supported": "level", "contradicted": "differs"}.get(row.verdict, "open")


def findings_table(verdicts: pd.DataFrame, t: Any = None) -> pd.DataFrame:
    """One row per finding, game, player count and budget: what the paper found, our
    Elo difference with its interval, verdict and :func:`agreement`, what the run
    could not detect, and with the duels' tables ``t`` its cost (:func:`play_seconds`)."""
    out = verdicts.copy()
    out["ours"] = [agreement(r) for r in out.itertuples()]
    cols = [
        "game", "source", "text", "found", "players", "budget_ms", "budget", "elo", "elo_low",
        "elo_high", "p_holm", "p_level_holm", "verdict", "ours", "detectable_elo", "sprt",
        "blocks", "games",
    ]  # fmt: skip
    out = out[[c for c in cols if c in out]]
    if t is not None:
        cost = play_seconds(t).rename(columns={"claim": "text"})
        out = out.merge(cost, on=["game", "players", "budget_ms", "text"], how="left")
    return out


def play_seconds(t: Any) -> pd.DataFrame:
    """Seconds of play per game, player count, budget and claim (the sum of the
    moves' milliseconds: the run's time on one core, without the workers' start and
    the compilation), the cost column of :func:`findings_table`."""
    keys = ["game_name", "players", "budget_ms", "claim"]
    secs = t.moves.groupby(keys, observed=True)["time_ms"].sum() / 1000.0
    return secs.rename("play_seconds").reset_index().rename(columns={"game_name": "game"})


def ply_positions(
    game: str, params: Mapping[str, Any], plies: Sequence[int], per_phase: int, seed: int = 7
) -> dict[str, list[Any]]:
    """Fixed positions of ``game`` with ``params`` after each number of random plies in
    ``plies`` (>= 1; a phase each, named "ply N"), ``per_phase`` distinct ones of each
    that are not over: the openings of :func:`~chameleon_lab.tournament.designs.opening_suite`
    played out, the same positions on every machine."""
    start = get_game(game, **dict(params)).start()
    out: dict[str, list[Any]] = {}
    for n in plies:
        group = []
        for moves in opening_suite(start, n, per_phase, seed):
            pos = start
            for move in moves:
                pos = pos.play(move)
            group.append(pos)
        out[f"ply {n}"] = group
    return out


#: The algorithms of the pruning table: MaxN, MaxN with immediate and shallow pruning
#: (MaxN-IS) and speculative MaxN (Sturtevant 2003's last-branch and speculative
#: pruning).
PRUNING_ALGORITHMS = ("maxn", "maxnis", "maxnsp")


@dataclass(frozen=True)
class PublishedPruning:
    """A published count of pruning MaxN: at ``depth`` plies, ``pruned`` nodes where
    plain MaxN expands ``maxn``, as ``source`` states it in ``text``."""

    source: str
    text: str
    depth: int
    maxn: float
    pruned: float

    @property
    def share(self) -> float:
        """The pruned search's nodes as a share of MaxN's."""
        return self.pruned / self.maxn

    @property
    def per_ply(self) -> float:
        """The share a ply, ``share ** (1 / depth)``: what each ply saves if every ply
        saves alike (as in the best case, which cuts the branching factor b to
        b ** ((n - 1) / n) at n players)."""
        return self.share ** (1.0 / self.depth)


#: Sturtevant's count, as the abstract of "Last-Branch and Speculative Pruning
#: Algorithms for Maxn" (IJCAI 2003, pp. 669-678) gives it. The board, the player
#: count and which prunings the 1.2 million already include are in the full text,
#: which we could not read.
STURTEVANT_2003 = PublishedPruning(
    source="Sturtevant, IJCAI 2003 (abstract)",
    text="In Chinese Checkers these methods reduce average expansions at depth 6 from "
    "1.2 million to 100k nodes",
    depth=6,
    maxn=1.2e6,
    pruned=1e5,
)


def pruning_beside(
    shares: pd.DataFrame, published: PublishedPruning = STURTEVANT_2003
) -> pd.DataFrame:
    """Each pruning algorithm's share of MaxN's nodes at the deepest depth of
    ``shares`` (:func:`pruning_table`'s second table), per phase, with its share a ply
    beside ``published``'s (:attr:`PublishedPruning.per_ply`: counts at different
    depths compared ply by ply)."""
    deepest = shares[(shares["depth"] == shares["depth"].max()) & (shares["algorithm"] != "maxn")]
    out = deepest[["algorithm", "phase", "depth", "share_of_maxn"]].reset_index(drop=True)
    out["per_ply"] = out["share_of_maxn"] ** (1.0 / out["depth"])
    out["published_depth"] = published.depth
    out["published_share"] = published.share
    out["published_per_ply"] = published.per_ply
    return out


def pruning_table(
    game: str,
    params: Mapping[str, Any],
    plies: Sequence[int],
    per_phase: int,
    depths: Sequence[int],
    seed: int = 7,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Nodes of :data:`PRUNING_ALGORITHMS` at each depth on :func:`ply_positions`
    (per position, :func:`~.efficiency.nodes_per_depth`), and each one's mean share
    of MaxN's nodes (:func:`~.efficiency.pruning`), with the game's heuristic."""
    _check_game(game)
    params = _resolve(game, dict(params))
    positions = ply_positions(game, params, plies, per_phase, seed)
    per = nodes_per_depth(positions, depths, PRUNING_ALGORITHMS, heuristic=HEURISTICS[game])
    share = pruning(per)
    mean = per.groupby(["algorithm", "phase", "depth"], observed=True)["nodes"].mean()
    return per, share.join(mean.rename("mean_nodes"), on=["algorithm", "phase", "depth"])


__all__ = [
    "AGENTS",
    "FINDINGS",
    "GAMES",
    "HEURISTICS",
    "MCTS_PLAYOUTS",
    "PRUNING_ALGORITHMS",
    "STURTEVANT_2003",
    "Finding",
    "PublishedPruning",
    "agreement",
    "findings_on",
    "findings_params",
    "findings_study",
    "findings_table",
    "paper_agents",
    "play_seconds",
    "ply_positions",
    "pruning_beside",
    "pruning_table",
]
