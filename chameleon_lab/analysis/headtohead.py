"""Head-to-head claims: one agent against one rival on balanced blocks, played until a
sequential test decides, and verdicts corrected for the number of claims.

A published claim such as "Best-Reply Search is stronger than Paranoid" (Schadd &
Winands 2011) compares two agents. The papers test it as the engine testers do: both
agents at one table in every configuration (with three seats the 2**3 - 2 = 6 ways to
seat two kinds of player, with four seats 14), from many openings. Here each opening
of a suite of distinct openings is one *block* of those configurations
(:func:`~chameleon_lab.tournament.designs.block_seatings`), and:

* :func:`block_scores`: per block, the share of its games in which the agent finished
  above the rival (level: half), by finishing places
  (:func:`~chameleon_lab.analysis.ranking.finishing_places`: an agent at several seats
  counts with its best one);
* :func:`pair_scores`: the same per game pair, a game and its seating with the two
  exchanged (the engine testers' unit), for designs with few blocks of many games;
* :func:`run_duel`: plays blocks in batches, resuming its records file, until the
  sequential probability ratio test (:class:`~chameleon_lab.analysis.sequential.SPRT`)
  on the block scores accepts H0 or H1, or ``max_blocks`` are played;
* :func:`duel_study`: every claim at every player count and budget, played in rounds
  of a batch of blocks each so that a run stopped early leaves every claim as far
  (:func:`play_in_rounds`, which also takes the duels of several games at once);
* :func:`claim_verdicts`: each claim's Elo difference with a bootstrap interval over
  blocks, a two-sided sign-flip test of "no difference" on the block scores, Holm's
  correction across all claims of the study, a verdict (supported, contradicted,
  open) and, for an open one, the smallest gap the run could have detected with 80 %
  power; a claim that two agents are level adds the equivalence test :func:`level_p`
  to the family, and is stopped by a :class:`~.sequential.LevelSPRT`.

The SPRT is the stopping rule; the verdict is the corrected fixed-sample test on the
blocks played (after an SPRT stop its p-value is slightly optimistic, as after any
data-dependent stop: the SPRT's own decision and error rates are reported beside it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from statsmodels.stats.weightstats import DescrStatsW

from ..checks import whole_number
from ..games.registry import game_entry
from ..tournament import (
    Session,
    Tables,
    reading_once,
    records_only_on,
    run_session,
    session_records,
    tables,
)
from .claims import elo_of_gap, holm, sign_flip_detectable_gap, sign_flip_p, verdict
from .ranking import finishing_places
from .sequential import SPRT, LevelSPRT, elo_to_score, fixed_games, score_to_elo, sequential_test
from .stats import time_per_move

#: The SPRT a duel runs unless told otherwise: H0 "no stronger" (0 Elo) against H1
#: "50 Elo stronger", 5 % error each way.
DEFAULT_SPRT = SPRT(elo0=0.0, elo1=50.0, alpha=0.05, beta=0.05)


@dataclass(frozen=True, kw_only=True)
class DuelPlan:
    """How a duel is played and when it stops: blocks ``batch`` at a time, the
    sequential test ``sprt`` (an :class:`~.sequential.SPRT`, or a
    :class:`~.sequential.LevelSPRT` for a claim that two agents are level) looking
    after each batch, at most ``max_blocks`` blocks
    (then the duel is undecided) and at least ``min_blocks`` (a decision earlier plays
    on to them: fewer blocks than :func:`~.claims.sign_flip_min_blocks` of the
    corrected level can never give a verdict); ``workers`` processes (None: all cores)
    and a progress bar. Checked when made, naming what is wrong."""

    sprt: SPRT | LevelSPRT = DEFAULT_SPRT
    batch: int = 2
    max_blocks: int = 2
    min_blocks: int = 0
    workers: int | None = None
    progress: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.sprt, SPRT | LevelSPRT):
            raise ValueError(f"sprt must be an SPRT or a LevelSPRT, got {self.sprt!r}")
        whole_number("batch", self.batch)
        whole_number("max_blocks", self.max_blocks)
        whole_number("min_blocks", self.min_blocks, 0)
        workers = whole_number("workers", self.workers, none=True, what=" (all cores)")
        object.__setattr__(self, "workers", workers)
        if not isinstance(self.progress, bool):
            raise ValueError(f"progress must be true or false, got {self.progress!r}")


#: The plan a duel follows unless told otherwise.
DEFAULT_PLAN = DuelPlan()


@dataclass(frozen=True)
class Claim:
    """A published head-to-head claim: ``agent`` is stronger than ``rival``."""

    source: str
    text: str
    agent: str
    rival: str


def _game_scores(t: Tables, agent: str, rival: str) -> pd.Series:
    """The score of ``agent`` against ``rival`` in every game both sat in, indexed by
    ``session_id`` and ``game``: 1 the agent finished above the rival, 0.5 level, 0
    below (an agent at several seats counts with its best place)."""
    places = finishing_places(t)
    best = places.groupby(["session_id", "game", "agent"], observed=True)["place"].min()
    wide = best.unstack("agent")
    for name in (agent, rival):
        if name not in wide:
            known = ", ".join(map(str, wide.columns))
            raise ValueError(f"no agent {name!r} in the records; agents: {known}")
    both = wide[[agent, rival]].dropna()
    return (np.sign(both[rival] - both[agent]) / 2.0 + 0.5).rename("score")


def block_scores(t: Tables, agent: str, rival: str) -> pd.Series:
    """The score of ``agent`` against ``rival`` per block (``session_id``,
    ``repetition``) over the games both sat in: 1 a game the agent finished above the
    rival, 0.5 level, 0 below, averaged over the block's games; in block order."""
    score = _game_scores(t, agent, rival)
    blocks = t.games.set_index(["session_id", "game"])["repetition"]
    frame = score.to_frame().join(blocks)
    out = frame.groupby(["session_id", "repetition"], sort=True)["score"].mean()
    return out.rename(f"{agent} vs {rival}")


def pair_scores(t: Tables, agent: str, rival: str) -> pd.Series:
    """The score of ``agent`` against ``rival`` per game pair: a game both sat in and
    the game of the same block whose seating is its own with the two exchanged, the
    mean of the two games' scores (as in :func:`block_scores`).

    The pairs are the units of the pentanomial model of the engine testers: within a
    pair each of the two sat at the other's seats, so a seat's advantage cancels, and
    if the two are equally strong a pair's score is as likely ``s`` as ``1 - s`` (the
    sign-flip test's assumption), whatever the opening. Games of one seating pair in
    game order. Indexed by ``session_id``, ``repetition`` and ``seating`` (the seats'
    agents, the pair's first game's, in seat order). ``ValueError`` when a game has no
    partner: the design does not exchange the two (every design of
    :func:`~chameleon_lab.tournament.designs.block_seatings` does)."""
    score = _game_scores(t, agent, rival)
    seats = t.seats.sort_values(["session_id", "game", "seat"], kind="stable")
    seating = seats.groupby(["session_id", "game"], sort=False)["agent"].agg(tuple)
    swap = {agent: rival, rival: agent}
    rows = []
    blocks = t.games.set_index(["session_id", "game"])["repetition"]
    frame = score.to_frame().join(blocks).join(seating.rename("seating"))
    for (session, block), group in frame.groupby(["session_id", "repetition"], sort=True):
        waiting: dict[tuple, list[float]] = {}
        for row in group.itertuples():
            mirror = tuple(swap.get(a, a) for a in row.seating)
            if waiting.get(mirror):
                first = waiting[mirror].pop(0)
                rows.append((session, block, " ".join(mirror), (first + row.score) / 2))
            else:
                waiting.setdefault(row.seating, []).append(row.score)
        alone = [s for s, left in waiting.items() if left]
        if alone:
            raise ValueError(
                f"block {block} of session {session}: no game exchanges {agent!r} and "
                f"{rival!r} in the seating {' '.join(alone[0])}; pair scores need a "
                "design that plays every seating with the two exchanged"
            )
    index = pd.MultiIndex.from_tuples(
        [r[:3] for r in rows], names=["session_id", "repetition", "seating"]
    )
    return pd.Series([r[3] for r in rows], index=index, name=f"{agent} vs {rival}")


def duel_session(
    agent: str,
    rival: str,
    agents: Mapping[str, Mapping[str, Any]],
    *,
    players: int,
    budget_ms: float | None,
    blocks: int = 1,
    opening_plies: int = 8,
    seed: int = 0,
    game: str = "chameleon",
    game_params: Mapping[str, Any] | None = None,
) -> Session:
    """``blocks`` blocks of ``agent`` against ``rival`` at ``players`` seats and
    ``budget_ms`` a move (None: the budgets ``agents`` give), each block one opening
    in every configuration. ``game_params``: the game's parameters; a game whose
    seating does not choose its seats (Chinese Checkers) and that takes a ``players``
    parameter gets ``players`` there."""
    time = {} if budget_ms is None else {"time_ms": float(budget_ms)}
    pair = {name: {**agents[name], **time} for name in (agent, rival)}
    label = "own" if budget_ms is None else f"{budget_ms:g}ms"
    entry = game_entry(game)
    params = dict(game_params or {})
    if entry.seats is None and any(p.name == "players" for p in entry.params):
        params["players"] = players
    return Session(
        f"duel-{agent}-{rival}-{players}p-{label}",
        pair,
        design="blocks",
        players=players if entry.seats else None,
        repetitions=blocks,
        seed=seed,
        opening_plies=opening_plies,
        game=game,
        **({"game_params": params} if params else {}),
        **({} if game == "chameleon" else {"move_limit": None}),
    )


def run_duel(
    session: Session, folder: str | Path, plan: DuelPlan = DEFAULT_PLAN
) -> tuple[Tables, Any]:
    """Play ``session``'s duel as ``plan`` says, ``plan.batch`` blocks at a time
    (resuming its records file in ``folder`` at the last check point it reaches) until
    the SPRT decides or ``plan.max_blocks`` blocks are played; the tables of the blocks
    played and the SPRT's result at its first decision (or over all blocks). Blocks
    played beyond the first decision (a batch plays on) stay in the tables and the
    fixed-sample estimate; the SPRT reports where it decided."""
    agent, rival = list(session.agents)
    path = session.records_file(Path(folder))
    batch, max_blocks = plan.batch, plan.max_blocks
    with reading_once():  # the file is read thrice a round: parsed once while unchanged
        # resume at the last check point the records reach (a run with this batch stopped
        # there or later): checking the points before it again would find them undecided
        blocks = max(min(batch, max_blocks), recorded_batches(session, folder, plan))
        while True:
            current = dataclasses.replace(session, repetitions=blocks)
            run_session(current, path, workers=plan.workers, progress=plan.progress).complete(
                f"duel {session.name}"
            )
            t = tables(session_records(path, current))
            result = sequential_test(block_scores(t, agent, rival).to_numpy(), plan.sprt)
            if _settled(result, blocks, plan) or blocks >= max_blocks:
                return t, result
            blocks = min(max_blocks, blocks + batch)


def recorded_batches(session: Session, folder: str | Path, plan: DuelPlan) -> int:
    """The blocks of ``session``'s duel its records in ``folder`` hold, in whole
    batches of ``plan.batch`` (its last check point), at most ``plan.max_blocks``."""
    path = session.records_file(Path(folder))
    recorded = _blocks_recorded(dataclasses.replace(session, repetitions=plan.max_blocks), path)
    return min(plan.max_blocks, recorded - recorded % plan.batch)


def _settled(result: Any, blocks: int, plan: DuelPlan) -> bool:
    """Whether a duel that played ``blocks`` blocks and whose test says ``result`` is
    done: decided, and at least ``plan.min_blocks`` played."""
    return result.decision != "continue" and blocks >= plan.min_blocks


def _blocks_recorded(session: Session, path: Path) -> int:
    """How many leading blocks of ``session`` have every game in the records file
    ``path`` (0 without one)."""
    if not path.exists():
        return 0
    per_block = len(dataclasses.replace(session, repetitions=1))
    games = {int(r["game"]) for r in session_records(path, session)}
    blocks = 0
    while all(g in games for g in range(blocks * per_block, (blocks + 1) * per_block)):
        blocks += 1
        if blocks * per_block >= len(session):
            break
    return blocks


#: One duel of a study: the claim, the player count, the budget (ms a move) and the
#: session that plays it.
Duel = tuple[Claim, int, float, Session]


def duel_sessions(
    claims: Sequence[Claim],
    agents: Mapping[str, Mapping[str, Any]],
    players: Sequence[int],
    budgets_ms: Sequence[float],
    *,
    opening_plies: int = 8,
    seed: int = 0,
    game: str = "chameleon",
    game_params: Mapping[str, Any] | None = None,
) -> list[Duel]:
    """Every claim at every player count and budget of ``game`` with ``game_params``,
    each a :func:`duel_session` (claim-major, then player count, then budget)."""
    return [
        (claim, p, b, duel_session(claim.agent, claim.rival, agents, players=p, budget_ms=b,
                                   opening_plies=opening_plies, seed=seed, game=game,
                                   game_params=game_params))
        for claim in claims
        for p in players
        for b in budgets_ms
    ]  # fmt: skip


def duel_study(
    claims: Sequence[Claim],
    agents: Mapping[str, Mapping[str, Any]],
    players: Sequence[int],
    budgets_ms: Sequence[float],
    folder: str | Path,
    *,
    plan: DuelPlan = DEFAULT_PLAN,
    opening_plies: int = 8,
    seed: int = 0,
    game: str = "chameleon",
    game_params: Mapping[str, Any] | None = None,
) -> tuple[Tables, pd.DataFrame]:
    """Every claim at every player count and budget (:func:`run_duel`, as ``plan``
    says) of ``game`` with ``game_params`` (:func:`duel_sessions`); all games' tables
    (with ``players``, ``budget_ms``, ``claim`` columns) and one row per duel
    (:func:`duel_tables`).

    The duels are played in rounds (:func:`play_in_rounds`), so a run stopped at any
    time has brought every claim to about the same number of blocks, and a duel's SPRT
    looks at the same blocks and stops at the same one as if it had been played alone."""
    duels = duel_sessions(claims, agents, players, budgets_ms, opening_plies=opening_plies,
                          seed=seed, game=game, game_params=game_params)  # fmt: skip
    play_in_rounds([(d[3], Path(folder)) for d in duels], plan)
    return duel_tables(duels, folder, plan)


def duel_tables(
    duels: Sequence[Duel], folder: str | Path, plan: DuelPlan = DEFAULT_PLAN
) -> tuple[Tables, pd.DataFrame]:
    """The tables of ``duels`` as far as ``plan`` takes them (:func:`run_duel`, which
    plays what their records in ``folder`` lack), with ``players``, ``budget_ms`` and
    ``claim`` columns, and one row per duel: the SPRT's decision, blocks to it and
    blocks played, each side's median and largest milliseconds a move, the block
    scores (:func:`duel_row`)."""
    parts, rows = [], []
    for claim, p, b, session in duels:
        t, result = run_duel(session, folder, plan)
        label = {"players": int(p), "budget_ms": float(b), "claim": claim.text}
        for df in (t.games, t.seats, t.moves):
            df[list(label)] = pd.DataFrame([label] * len(df), index=df.index)
        parts.append(t)
        rows.append(duel_row(claim, p, b, f"{b:g} ms", t, result))
    return concat_tables(parts), pd.DataFrame(rows)


def play_in_rounds(
    duels: Sequence[tuple[Session, Path] | tuple[Session, Path, SPRT | LevelSPRT]],
    plan: DuelPlan,
) -> None:
    """Bring every duel (a session, its records folder and, if it has its own, its
    sequential test instead of ``plan.sprt``) to its decision ``plan.batch`` blocks a
    round: round r plays each still undecided duel up to ``r * batch`` blocks
    (:func:`run_duel` resumes its records and checks its test after every ``batch``
    blocks, so the stopping block is the one a duel played alone reaches). The duels
    may be of several games (each with its folder): a run stopped at any time has
    brought all of them about as far, the last game's as the first's.

    Inside :func:`~chameleon_lab.tournament.runner.records_only` nothing would be
    played, so there are no rounds to take: the :func:`run_duel` that reads a duel's
    tables afterwards stops it at the same block (and raises for missing games as a
    round would), reading each records file once instead of once a round
    (``docs/benchmarks.md``, "Measurements behind the design")."""
    if records_only_on():
        return
    undecided = [(d[0], d[1], d[2] if len(d) > 2 else plan.sprt) for d in duels]
    cap = 0
    while undecided and cap < plan.max_blocks:
        cap = min(plan.max_blocks, cap + plan.batch)
        still = []
        for session, folder, sprt in undecided:
            own = dataclasses.replace(plan, max_blocks=cap, sprt=sprt)
            if not _settled(run_duel(session, folder, own)[1], cap, plan):
                still.append((session, folder, sprt))
        undecided = still


def concat_tables(parts: Sequence[Tables]) -> Tables:
    """The tables of several runs as one."""
    return Tables(
        *(
            pd.concat([getattr(t, f) for t in parts], ignore_index=True)
            for f in ("games", "seats", "moves")
        )
    )


def duel_row(
    claim: Claim, players: int, budget_ms: float | None, budget: str, t: Tables, result: Any
) -> dict[str, Any]:
    """One duel's row for :func:`claim_verdicts`: the claim, the player count, the
    budget (``budget_ms``, NaN for one in plies or nodes, and ``budget`` in words), the
    SPRT's decision (``result``) and blocks to it, the blocks and games played, each
    side's milliseconds a move (:func:`side_times`), the block scores."""
    scores = block_scores(t, claim.agent, claim.rival).to_numpy()
    return {
        **dataclasses.asdict(claim),
        "players": int(players),
        "budget_ms": np.nan if budget_ms is None else float(budget_ms),
        "budget": budget,
        "sprt": result.decision,
        "sprt_blocks": result.blocks,
        "blocks": len(scores),
        "games": len(t.games),
        **side_times(t, claim, budget_ms),
        "scores": scores,
    }


def side_times(t: Tables, claim: Claim, budget_ms: float | None = None) -> dict[str, float]:
    """The agent's and the rival's median and largest milliseconds a move in a duel
    (:func:`~chameleon_lab.analysis.stats.time_per_move`) and, at a time budget of
    ``budget_ms`` a move, the share of their moves over it and their largest
    overshoot (NaN at a budget in plies or nodes), so a verdict is read beside what
    each side spent and a comparison of searches is not one of overshoots."""
    moves = t.moves.drop(columns=["budget_ms"], errors="ignore")
    if budget_ms is not None and not np.isnan(budget_ms):
        moves = moves.assign(budget_ms=float(budget_ms))
    timing = time_per_move(moves, budget="budget_ms").set_index("agent")
    out = {}
    for side, name in (("agent", claim.agent), ("rival", claim.rival)):
        known = name in timing.index
        for key, column in (("median_ms", "median_ms"), ("max_ms", "max_ms"),
                            ("over_budget", "share_over_budget"),
                            ("max_overshoot_ms", "max_overshoot_ms")):  # fmt: skip
            value = timing.at[name, column] if known and column in timing else np.nan
            out[f"{side}_{key}"] = float(value)
    return out


def _detectable(scores: np.ndarray, level: float, power: float) -> float:
    """The smallest Elo gap the blocks could have detected at ``level`` with ``power``
    (:func:`~.claims.sign_flip_detectable_gap` of their scores' standard deviation, in
    Elo)."""
    sd = float(np.std(scores, ddof=1)) if len(scores) > 1 else 0.0
    return elo_of_gap(sign_flip_detectable_gap(sd, len(scores), level, power))


def block_estimate(scores: np.ndarray, seed: int = 0) -> tuple[float, float, float]:
    """The Elo difference of a duel's block scores and its 95 % bootstrap interval over
    blocks (:func:`~.sequential.fixed_games`; NaN bounds with one block)."""
    if len(scores) < 2:
        return float(score_to_elo(np.mean(scores))), np.nan, np.nan
    est = fixed_games(scores, seed=seed)
    return est.elo, est.elo_low, est.elo_high


def claim_verdicts(
    duels: pd.DataFrame,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    seed: int = 0,
    level: Sequence[bool] | None = None,
    margin_elo: float = 50.0,
) -> pd.DataFrame:
    """One row per duel of :func:`duel_study`: the Elo difference with a 95 % bootstrap
    interval over blocks, the sign-flip p-value, Holm's adjusted p-value across every
    duel of the table, the verdict, and the smallest Elo gap the blocks played could
    have detected with ``power`` at Holm's strictest level ``alpha / m`` (``m`` duels):
    for an open verdict, what the run could not have seen.

    ``level`` marks the rows whose claim is that the two agents are level (within
    ``margin_elo`` either way): each adds a second hypothesis to Holm's family, the
    equivalence test :func:`level_p` (columns ``p_level`` and ``p_level_holm``), and
    its verdict is "supported" when that one is rejected (level shown), "contradicted"
    when "no difference" is (they differ), else "open"."""
    level_rows = np.zeros(len(duels), bool) if level is None else np.asarray(level, bool)
    if level_rows.shape != (len(duels),):
        raise ValueError(f"level must give one truth value per duel ({len(duels)})")
    family = len(duels) + int(level_rows.sum())
    rows = []
    for row, is_level in zip(duels.itertuples(), level_rows, strict=True):
        scores = np.asarray(row.scores, dtype=float)
        elo, low, high = block_estimate(scores, seed)
        rows.append(
            {
                "elo": elo,
                "elo_low": low,
                "elo_high": high,
                "p_value": sign_flip_p(scores - 0.5),
                "p_level": level_p(scores, margin_elo) if is_level else np.nan,
                "detectable_elo": _detectable(scores, alpha / max(family, 1), power),
            }
        )
    out = pd.concat(
        [duels.drop(columns="scores").reset_index(drop=True), pd.DataFrame(rows)], axis=1
    )
    tested = np.concatenate([out["p_value"].to_numpy(), out["p_level"].to_numpy()[level_rows]])
    adjusted = holm(tested) if family else np.zeros(0)
    out["p_holm"] = adjusted[: len(out)]
    out["p_level_holm"] = np.nan
    out.loc[level_rows, "p_level_holm"] = adjusted[len(out) :]
    out["verdict"] = [
        _level_verdict(r.p_level_holm, r.p_holm, alpha)
        if is_level
        else verdict(r.p_holm, r.elo, alpha=alpha)
        for r, is_level in zip(out.itertuples(), level_rows, strict=True)
    ]
    if level is None:
        out = out.drop(columns=["p_level", "p_level_holm"])
    return out


def level_p(scores: np.ndarray, margin_elo: float) -> float:
    """The p-value of "the two agents differ by ``margin_elo`` or more, either way"
    from their block ``scores``: the larger of the two one-sided t-tests of the mean
    score against ``elo_to_score(-margin_elo)`` and ``elo_to_score(margin_elo)``
    (``statsmodels``' ``DescrStatsW.ttost_mean``). Blocks all alike: 0 inside the
    margin, 1 outside; fewer than two blocks: 1."""
    low, high = (float(elo_to_score(e)) for e in (-margin_elo, margin_elo))
    if len(scores) < 2:
        return 1.0
    if np.ptp(scores) == 0:
        return 0.0 if low < scores[0] < high else 1.0
    return float(DescrStatsW(scores).ttost_mean(low, high)[0])


def _level_verdict(p_level: float, p_differ: float, alpha: float) -> str:
    """A level claim's verdict from its two Holm-adjusted p-values."""
    if p_level < alpha:
        return "supported"
    return "contradicted" if p_differ < alpha else "open"


def _undetected(gap: float) -> str:
    if np.isinf(gap):
        return "; too few blocks to reach the corrected level: no gap was detectable"
    return f"; 80 % power only for gaps of {gap:.0f} Elo or more"


def _budget(row: Any) -> str:
    """A duel's budget in words (tables written before the ``budget`` column: its ms)."""
    words = getattr(row, "budget", None)
    return words if isinstance(words, str) and words else f"{row.budget_ms:g} ms"


def verdict_sentences(table: pd.DataFrame) -> str:
    """The verdicts of :func:`claim_verdicts` in words, one line per duel, so the
    notebook's conclusion says what its own run found and what it could not detect."""
    lines = []
    for (source, text), group in table.groupby(["source", "text"], sort=False):
        lines.append(f"{source}: {text}.")
        for r in group.itertuples():
            gap = _undetected(r.detectable_elo) if r.verdict == "open" else ""
            lines.append(
                f"  {r.players} players, {_budget(r)}: {r.verdict} ({r.elo:+.0f} Elo, "
                f"95 % {r.elo_low:+.0f} to {r.elo_high:+.0f}; {r.blocks} blocks, {r.games} "
                f"games; Holm p = {r.p_holm:.3g}; SPRT {r.sprt}{gap})"
            )
    return "\n".join(lines)
