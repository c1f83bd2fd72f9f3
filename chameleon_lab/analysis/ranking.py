"""Ratings from finishing orders: Plackett-Luce fits with intervals by a bootstrap over blocks.

A game with more than two players ranks its agents, not just a winner: the survivors
share first place and, in Chameleon Chess, the others are ordered by when they were
eliminated. The Plackett-Luce model (Luce 1959; Plackett 1975) gives every agent a
strength ``theta`` and reads a finishing order as a sequence of choices: first place is
chosen from all agents of the game with probability ``exp(theta_i) / sum exp(theta_j)``,
second place from the rest, and so on. With two players it is the Bradley-Terry model
(Bradley and Terry 1952), so the same code rates two-player games.

* :func:`finishing_places`: the place of each seat in each game (1 = best).
* :func:`plackett_luce`: the maximum-likelihood strengths on the Elo scale.
* :func:`ratings`: the strengths with percentile intervals and the chance of being
  rated best, by resampling blocks (the games of one repetition of one session).
* :func:`rank_probabilities`: the chance of each rank per agent, from the same resamples.

The maximum-likelihood estimate exists exactly when the comparison graph (an edge from
each agent to each agent it finished ahead of, or level with) is strongly connected
(Ford 1957; Hunter 2004, who also gives the MM algorithm); when it does not,
:func:`plackett_luce` names the agents to blame instead of returning huge numbers.

Ties need weighted choices (see :func:`plackett_luce`), which the top-1 fits of
``choix`` do not take: repeating choices to whole-number weights multiplies the data by
up to 12 (by 4 with four-way draws), which makes a bootstrap of many fits slow. So the
fit is Newton-Raphson on the concave log-likelihood of the distinct weighted choices,
vectorised, about a hundred times faster (``docs/benchmarks.md``, "Measurements behind
the design"). Where no weights are needed it gives
the estimate of ``choix.ilsr_top1`` with ``alpha=0`` (the tests check this, and check
both kinds of data against likelihoods written out by hand).

References: R. D. Luce, *Individual Choice Behavior*, Wiley 1959. R. L. Plackett, "The
analysis of permutations", *Applied Statistics* 24 (1975) 193-202. D. R. Hunter, "MM
algorithms for generalized Bradley-Terry models", *Annals of Statistics* 32 (2004)
384-406. L. R. Ford, "Solution of a ranking problem from binary comparisons", *American
Mathematical Monthly* 64 (1957) 28-33. N. Breslow, "Covariance analysis of censored
survival data", *Biometrics* 30 (1974) 89-99.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.sparse.csgraph import connected_components
from tqdm.auto import tqdm

from ..checks import whole_number
from ..tournament.records import Tables
from .stats import ELO_PER_NAT

_KEYS = ["session_id", "game"]
_BLOCK = ["session_id", "repetition"]
_CHAMELEON = "chameleon"  # the records' game_name of Chameleon Chess (their default)
_MAX_ITER = 100  # Newton steps; it takes about ten where the estimate exists
_TOL = 1e-10  # largest gradient component per unit of choice weight at convergence
#: The fewest blocks a bootstrap interval is drawn from: resampling one block gives that
#: block every time, an interval of width 0 that would claim a certainty never measured.
MIN_BLOCKS = 2
#: Above this share of failed resamples, :func:`ratings` warns.
FAILED_SHARE_WARNING = 0.05


def finishing_places(t: Tables) -> pd.DataFrame:
    """The place of every occupied seat of every game: 1 is best, tied seats share a
    place and the next place skips ("competition" ranking 1, 1, 3).

    The rule: the survivors (``games.survivors``) share place 1. In Chameleon Chess
    (``game_name`` ``"chameleon"``, also assumed when the games table has no
    ``game_name``), players are eliminated one by one, and every other seat is ranked by
    when it was eliminated, later being better: a seat's elimination time is the last
    ply at which it moved (from ``moves``; -1 for a seat that never moved), and equal
    times tie. In a game whose records give each seat a final score (``seats.score``:
    Rolit's balls) the other seats are ranked by it, more being better. In every other
    game the seats that are not survivors are simply losers and share the place after
    the survivors, so a two-player game gives its winner 1 and its loser 2, and a draw
    1 and 1.

    Returns one row per game and occupied seat with ``session_id``, ``game``,
    ``repetition``, ``seat``, ``agent`` and ``place``, in the order of ``t.seats``.
    """
    seats = t.seats[[*_KEYS, "seat", "agent"]].reset_index(drop=True)
    here = pd.MultiIndex.from_arrays([seats.session_id, seats.game, seats.seat.astype(str)])
    games = t.games.set_index(_KEYS)
    games = games.assign(game_name=games.get("game_name", _CHAMELEON)).fillna(
        {"game_name": _CHAMELEON}
    )
    known = here.droplevel(2).isin(games.index)
    if not known.all():
        missing = sorted(set(here.droplevel(2)[~known]))
        raise ValueError(f"seats of games missing from the games table: {missing[:5]}")
    meta = games[["repetition", "game_name"]].reindex(here.droplevel(2))
    survivors = games["survivors"].fillna("").astype(str).str.split(",").explode()
    survivors = survivors[survivors != ""]
    survived = here.isin(
        pd.MultiIndex.from_arrays(
            [*(survivors.index.get_level_values(k) for k in _KEYS), survivors.to_numpy()]
        )
    )
    moves = t.moves
    if len(moves):
        last = moves.groupby(
            [moves.session_id, moves.game, moves.seat.astype(str)], observed=True, sort=False
        )["ply"].max()
        last_ply = last.reindex(here).fillna(-1).to_numpy(dtype=float)
    else:
        last_ply = np.full(len(seats), -1.0)
    chameleon = (meta["game_name"].to_numpy() == _CHAMELEON) & ~survived
    final = t.seats["score"].to_numpy(float) if "score" in t.seats else np.full(len(seats), np.nan)
    losers = np.where(np.isnan(final), -2.0, final)  # ranked by a final score where given
    score = np.where(survived, np.inf, np.where(chameleon, last_ply, losers))
    place = (
        pd.Series(score)
        .groupby([seats.session_id, seats.game], sort=False)
        .rank(method="min", ascending=False)
    )
    return pd.DataFrame(
        {
            "session_id": seats.session_id,
            "game": seats.game,
            "repetition": meta["repetition"].to_numpy(),
            "seat": seats.seat,
            "agent": seats.agent,
            "place": place.astype(int).to_numpy(),
        }
    )


def _game_choices(agents: np.ndarray, places: np.ndarray) -> list[tuple[int, tuple, float]]:
    """The top-1 choices ``(chosen, choice set, weight)`` of one game's finishing order
    (agents sorted by place, each once); the rule is in :func:`plackett_luce`."""
    out = []
    bounds = np.flatnonzero(np.diff(places)) + 1
    for start, end in zip(np.r_[0, bounds], np.r_[bounds, len(places)], strict=True):
        m, last = int(end - start), end == len(places)
        pool = tuple(sorted(int(j) for j in (agents[start:end] if last else agents[start:])))
        weight = (m - 1) / m if last else 1.0
        if weight:
            out.extend((int(i), pool, weight) for i in agents[start:end])
    return out


@dataclass(frozen=True)
class _Top1:
    """The distinct top-1 choices of a set of games, built once; a resample of blocks
    only changes the weights (``block_weights`` summed with the blocks' counts)."""

    agents: list[str]
    games: np.ndarray  # games per agent
    chosen: np.ndarray  # (choices,) the agent chosen
    pool: np.ndarray  # (choices, agents) 1 where the agent is in the choice set
    block_weights: np.ndarray  # (blocks, choices) weight of each choice in each block

    def beats(self, weight: np.ndarray) -> np.ndarray:
        """``(k, k)``: weight of "i chosen while j was in the choice set" (i ahead of
        or level with j)."""
        won = np.zeros((len(weight), len(self.agents)))
        won[np.arange(len(weight)), self.chosen] = weight
        return won.T @ (self.pool - (won > 0))


def _best_places(t: Tables) -> pd.DataFrame:
    """Per game and agent its best place (an agent at several seats keeps its best),
    sorted by game and place."""
    places = finishing_places(t)
    best = places.groupby([*_KEYS, "agent"], sort=False, observed=True).agg(
        place=("place", "min"), repetition=("repetition", "first")
    )
    return best.reset_index().sort_values([*_KEYS, "place"], kind="stable")


def _top1(t: Tables) -> _Top1:
    best = _best_places(t)
    agents = sorted(best["agent"].unique())
    if len(agents) < 2:
        raise ValueError(f"ratings need at least two agents in the records, got {agents}")
    best["index"] = best["agent"].map({a: i for i, a in enumerate(agents)})
    block = pd.MultiIndex.from_frame(best[_BLOCK]).factorize()[0]
    cuts = np.flatnonzero(np.diff(pd.MultiIndex.from_frame(best[_KEYS]).factorize()[0])) + 1
    rows = [
        (int(b[0]), *choice)
        for a, p, b in zip(
            np.split(best["index"].to_numpy(), cuts),
            np.split(best["place"].to_numpy(), cuts),
            np.split(block, cuts),
            strict=True,
        )
        for choice in _game_choices(a, p)
    ]
    if not rows:
        raise ValueError("no game of the records ranks two agents against each other")
    blocks, chosen, pools, weights = map(list, zip(*rows, strict=True))
    k, n_blocks = len(agents), int(block.max()) + 1
    key = np.zeros((len(rows), k + 1), dtype=int)  # chosen agent, then the choice set
    key[:, 0] = chosen
    for r, pool in enumerate(pools):
        key[r, 1 + np.asarray(pool)] = 1
    distinct, which = np.unique(key, axis=0, return_inverse=True)
    block_weights = np.zeros((n_blocks, len(distinct)))
    np.add.at(block_weights, (np.asarray(blocks, dtype=int), which.ravel()), weights)
    rated = best.groupby(_KEYS, sort=False)["index"].transform("size").to_numpy() > 1
    counts = np.bincount(best["index"].to_numpy()[rated], minlength=k)
    return _Top1(agents, counts, distinct[:, 0], distinct[:, 1:].astype(float), block_weights)


def _missing_links(agents: list[str], beats: np.ndarray) -> str | None:
    """``None`` when the comparison graph is strongly connected, else what is wrong."""
    n, label = connected_components(beats > 0, directed=True, connection="strong")
    if n == 1:
        return None
    parts = []
    for c in range(n):
        inside = label == c
        names = ", ".join(a for a, i in zip(agents, inside, strict=True) if i)
        ahead = beats[np.ix_(inside, ~inside)].any()  # some member ahead of an outsider
        behind = beats[np.ix_(~inside, inside)].any()  # some outsider ahead of a member
        met = "it met" if inside.sum() == 1 else "outside their group they met"
        if not ahead and not behind:
            parts.append(f"{names} never met the other agents")
        elif not behind:
            parts.append(f"{names} always finished ahead of every agent {met}")
        elif not ahead:
            parts.append(f"{names} never finished ahead of (or level with) any agent {met}")
    return "; ".join(parts)


def _check(agents: list[str], beats: np.ndarray) -> None:
    problem = _missing_links(agents, beats)
    if problem is not None:
        raise ValueError(
            "the Plackett-Luce maximum-likelihood ratings do not exist (they would be "
            f"infinite): {problem}. Each agent must finish both ahead of (or level with) "
            "and behind (or level with) agents that link it to all the others; play more "
            "games (or more varied pairings)."
        )


def _loglik(theta: np.ndarray, top: _Top1, weight: np.ndarray) -> tuple[float, np.ndarray]:
    """Weighted log-likelihood and the choice probabilities ``(choices, agents)``."""
    e = top.pool * np.exp(theta - theta.max())
    z = e.sum(axis=1)
    return float(weight @ (np.log(e[np.arange(len(z)), top.chosen]) - np.log(z))), e / z[:, None]


def _fit(top: _Top1, weight: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """Centered maximum-likelihood strengths (natural-log scale) for choice weights
    ``weight``, by Newton-Raphson with step halving; raises ``RuntimeError`` when it
    does not converge."""
    used = weight > 0
    top = _Top1(top.agents, top.games, top.chosen[used], top.pool[used], top.block_weights)
    weight = weight[used]
    k = len(top.agents)
    theta = np.zeros(k) if start is None else start - start.mean()
    ll, p = _loglik(theta, top, weight)
    for _ in range(_MAX_ITER):
        grad = np.bincount(top.chosen, weight, minlength=k) - weight @ p
        if np.abs(grad).max() <= _TOL * weight.sum():
            return theta - theta.mean()
        info = np.diag(weight @ p) - (p.T * weight) @ p  # minus the Hessian
        step = np.linalg.solve(info + 1.0 / k, grad)  # + 1/k: fixes the mean
        for _ in range(60):
            new_ll, new_p = _loglik(theta + step, top, weight)
            if new_ll >= ll - 1e-12 * abs(ll):
                break
            step /= 2
        theta, ll, p = theta + step, new_ll, new_p
    raise RuntimeError(f"Plackett-Luce fit did not converge in {_MAX_ITER} Newton steps")


def _estimate(t: Tables) -> tuple[_Top1, np.ndarray]:
    """The choices of the records and their maximum-likelihood strengths."""
    top = _top1(t)
    weight = top.block_weights.sum(axis=0)
    _check(top.agents, top.beats(weight))
    return top, _fit(top, weight)


def plackett_luce(t: Tables) -> pd.Series:
    """Maximum-likelihood Plackett-Luce strengths of the agents on the Elo scale
    (``400 / ln 10`` times the natural-log strength, mean 0), indexed by agent.

    Each game's finishing order (:func:`finishing_places`; an agent at several seats of
    one game keeps its best place and its other seats are left out) becomes top-1
    choices. Places are taken best first; at each stage every member of the best
    remaining tied group counts as chosen from all agents still remaining, its own
    group included (Breslow's rule for ties, as in Cox's partial likelihood). The last
    group differs: a single agent there contributes nothing (it is the only choice
    left), and a tie of ``m > 1`` agents there counts as a draw among them: each is
    chosen from the group with weight ``(m - 1) / m``, so that every game carries the
    ``players - 1`` choices of an untied order. With two players a win is one choice
    and a draw half a choice for each side, which is Bradley-Terry with a draw counting
    half a win for each (Breslow's rule on its own would count a draw as a whole win
    for each, and leaving the last group out would ignore draws).

    Raises ``ValueError`` naming the agents when the estimate does not exist (an agent
    that always finished ahead, or never ahead, of those it met; or groups of agents
    that never met).
    """
    top, theta = _estimate(t)
    return pd.Series(theta * ELO_PER_NAT, index=pd.Index(top.agents, name="agent"), name="elo")


def _bootstrap(
    top: _Top1, theta: np.ndarray, n_boot: int, seed: int | None, progress: bool
) -> tuple[np.ndarray, int]:
    """Strengths refitted on ``n_boot`` resamples of the blocks (one row per resample
    whose estimate exists) and the number of resamples where it does not."""
    rng = np.random.default_rng(seed)
    n_blocks, k = len(top.block_weights), len(top.agents)
    fits, failed = [], 0
    for _ in tqdm(range(n_boot), disable=not progress, desc="bootstrap", unit="fit"):
        counts = np.bincount(rng.integers(0, n_blocks, n_blocks), minlength=n_blocks)
        weight = counts @ top.block_weights
        if _missing_links(top.agents, top.beats(weight)) is not None:
            failed += 1
            continue
        try:
            fits.append(_fit(top, weight, start=theta))
        except RuntimeError:  # counted as a failure
            failed += 1
    return np.asarray(fits).reshape(-1, k), failed


def _resampled(
    t: Tables, confidence: float, n_boot: int, seed: int | None, progress: bool
) -> tuple[_Top1, np.ndarray, np.ndarray, int]:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    whole_number("n_boot", n_boot, 0)
    top, theta = _estimate(t)
    if len(top.block_weights) < MIN_BLOCKS:  # one block resampled is that block: no spread
        return top, theta, np.empty((0, len(top.agents))), 0
    fits, failed = _bootstrap(top, theta, int(n_boot), seed, progress)
    if n_boot and failed > FAILED_SHARE_WARNING * n_boot:
        warnings.warn(
            f"{failed} of {n_boot} bootstrap resamples ({failed / n_boot:.0%}) had no "
            "maximum-likelihood ratings (an agent missing, or always ahead or behind); the "
            f"intervals come from the other {n_boot - failed} and are too narrow. "
            "Play more games or more blocks.",
            RuntimeWarning,
            stacklevel=3,
        )
    return top, theta, fits, failed


def _ranks(fits: np.ndarray) -> np.ndarray:
    """Rank (1 = best) of each agent in each resample; equal strengths by agent order."""
    order = np.argsort(-fits, axis=1, kind="stable")
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, fits.shape[1] + 1)[None, :], axis=1)
    return ranks


def ratings(
    t: Tables,
    *,
    confidence: float = 0.95,
    n_boot: int = 200,
    seed: int | None = 0,
    progress: bool = False,
) -> pd.DataFrame:
    """Plackett-Luce ratings (:func:`plackett_luce`) with bootstrap intervals.

    The blocks (games of one repetition of one session: ``session_id``,
    ``repetition``) are resampled with replacement ``n_boot`` times and the ratings
    refitted; ``ci_low`` and ``ci_high`` are the percentile interval at ``confidence``
    and ``rank_prob_best`` the share of resamples that rate the agent best. A resample
    whose estimate does not exist (an agent left out, or always ahead or behind) is
    counted in ``attrs["failed_resamples"]`` and left out; above 5 % of them the
    function warns. ``n_boot = 0``, or fewer than :data:`MIN_BLOCKS` blocks, gives the
    estimates alone (intervals and ``rank_prob_best`` NaN).

    Columns ``agent``, ``elo`` (mean 0), ``ci_low``, ``ci_high``, ``rank_prob_best``,
    ``games`` (games the agent played against another agent), sorted by ``elo``, best
    first; ``attrs`` holds ``failed_resamples``, ``n_boot``, ``confidence`` and
    ``blocks``. The same ``seed`` gives the same resamples (``None``: fresh ones);
    ``progress`` shows a progress bar (``tqdm.auto``). The resamples are drawn over all
    blocks at once, not within each session.
    """
    top, theta, fits, failed = _resampled(t, confidence, n_boot, seed, progress)
    elo = fits * ELO_PER_NAT
    if len(fits):
        low, high = np.quantile(elo, [(1 - confidence) / 2, (1 + confidence) / 2], axis=0)
        best = (_ranks(fits) == 1).mean(axis=0)
    else:
        low = high = best = np.full(len(top.agents), np.nan)
    out = pd.DataFrame(
        {
            "agent": top.agents,
            "elo": theta * ELO_PER_NAT,
            "ci_low": low,
            "ci_high": high,
            "rank_prob_best": best,
            "games": top.games,
        }
    )
    out = out.sort_values("elo", ascending=False, kind="stable").reset_index(drop=True)
    out.attrs.update(
        failed_resamples=failed, n_boot=n_boot, confidence=confidence, blocks=len(top.block_weights)
    )
    return out


def rank_probabilities(
    t: Tables, *, n_boot: int = 200, seed: int | None = 0, progress: bool = False
) -> pd.DataFrame:
    """The share of bootstrap resamples (as in :func:`ratings`, the same ones for the
    same ``n_boot`` and ``seed``) in which each agent is rated at each rank.

    One row per agent (``agent``, then ``rank_1`` for the best ... ``rank_k``), in the
    order of the point estimates, best first; each row and each rank column sums to 1.
    Column ``rank_1`` is :func:`ratings`'s ``rank_prob_best``. ``attrs`` holds
    ``failed_resamples`` and ``n_boot``.
    """
    top, theta, fits, failed = _resampled(t, 0.95, n_boot, seed, progress)
    if not len(fits):
        raise ValueError("no bootstrap resample gave ratings (n_boot = 0, or all failed)")
    k = len(top.agents)
    ranks = _ranks(fits)
    share = (ranks[:, :, None] == np.arange(1, k + 1)[None, None, :]).mean(axis=0)
    out = pd.DataFrame(share, columns=[f"rank_{r}" for r in range(1, k + 1)])
    out.insert(0, "agent", top.agents)
    out = out.iloc[np.argsort(-theta, kind="stable")].reset_index(drop=True)
    out.attrs.update(failed_resamples=failed, n_boot=n_boot)
    return out


def ratings_or_reason(t: Tables, **options: Any) -> pd.DataFrame:
    """:func:`ratings`, or where the estimate does not exist one row per agent with NaN
    ratings, its ``games`` as :func:`ratings` counts them, and the reason in ``note``
    (empty where there are ratings): the same columns either way, so that a study of
    few games reports why it cannot rate instead of stopping."""
    try:
        return ratings(t, **options).assign(note="")
    except ValueError as exc:
        agents = sorted(t.seats["agent"].unique())
        try:
            top = _top1(t)
            games = dict(zip(top.agents, top.games.tolist(), strict=True))
        except ValueError:  # fewer than two agents, or no game ranks two of them
            games = {}
        empty = dict.fromkeys(["elo", "ci_low", "ci_high", "rank_prob_best"], np.nan)
        return pd.DataFrame({"agent": agents, **empty, "games": [games.get(a, 0) for a in agents],
                             "note": str(exc)})  # fmt: skip
