"""Weights tuned by SPSA from head-to-head blocks: the engine testers' tuner.

CMA-ES (:func:`chameleon_lab.analysis.tuning.tune`) ranks a generation's candidates by
their scores, and :func:`~chameleon_lab.analysis.tuning.score_noise` shows that with a
dozen games a candidate those ranks are mostly luck. Simultaneous perturbation
stochastic approximation (SPSA; Spall, "Multivariate stochastic approximation using a
simultaneous perturbation gradient approximation", IEEE Transactions on Automatic
Control 37(3), 332-341, 1992) needs no ranking: each iteration perturbs every weight at
once by ``+-c_k`` (a random sign per weight), plays the two perturbed heuristics
against each other, and steps along the estimated gradient with a gain ``a_k`` that
shrinks so that the noise of the single estimates averages out over the iterations.
That is how Fishtest and OpenBench tune chess engines: the match result of ``theta +
c_k Delta`` against ``theta - c_k Delta`` is the gradient's estimate along ``Delta``.

Here an iteration is one or more *blocks* (:func:`.headtohead.duel_session`: one
distinct opening each, the two heuristics in every seating at
``players`` seats, the same search both sides), the score ``y`` the plus side's
share against the minus side (1 a game it finished above, 1/2 level, 0 below;
:func:`~chameleon_lab.analysis.headtohead.block_scores`), and in the scaled coordinates
of :class:`~chameleon_lab.analysis.tuning.TuningSpec` (0 at ``low``, 1 at ``high``)::

    a_k = a / (k + 1 + A) ** alpha        c_k = c / (k + 1) ** gamma
    plus, minus = clip(theta +- c_k Delta, 0, 1)
    g_k = (2 y - 1) / (plus - minus)      theta <- clip(theta + a_k g_k, 0, 1)

with Spall's exponents (``alpha`` 0.602, ``gamma`` 0.101; "Implementation of the
simultaneous perturbation algorithm for stochastic optimization", IEEE Transactions
on Aerospace and Electronic Systems 34(3), 817-823, 1998) and ``A`` a tenth of the
iterations by default. The tuned weights are the mean of the second half of the
iterates (iterate averaging, Polyak & Juditsky 1992), which has the smaller noise;
the last iterate is kept beside them. Where a weight sits at a bound, the clipped side
moves less than ``c_k`` and the difference ``plus - minus`` (``2 c_k Delta`` inside
the bounds) is the one played, so the estimate stays a finite difference.

Did SPSA act on a signal? Were no weight to matter, each iteration's result would be as
likely the other way round; :func:`movement_test` replays the run with random signs
and tests, per weight, whether it moved further than those replays (Holm-corrected
over the weights), and says how far noise alone moves a weight. A run whose moves are
within that moved its weights by a random walk, and says so.

The run is logged iteration by iteration (JSON Lines, as the CMA-ES log) and each
iteration's games go to a records file of their own, so an interrupted run resumes
game by game and ends where an uninterrupted one does. Every iteration compiles its
two weight vectors (a weighted heuristic's weights are compiled as constants; what
that costs is in ``docs/benchmarks.md``).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..games.weighted import weighted_heuristic
from ..runlog import append_line, read_run_log
from ..tournament import Session, tables
from ..tournament.designs import draw_seed
from .claims import holm
from .headtohead import block_scores, duel_session
from .tuning import CANDIDATE, OPPONENT, TuningSpec, _play, by_players

#: What each log line is, so a log of something else is refused.
LOG_KIND = "chameleon_lab.spsa"
#: The TuningSpec fields that only CMA-ES reads (left out of an SPSA run's identity).
CMA_ONLY = ("sigma0", "popsize", "generations", "repetitions")

# ``objective(plus, minus, iteration) -> y``: the plus weights' score against the minus
# weights (each a vector of tuned weights in ``TuningSpec.features`` order), in [0, 1].
Objective = Callable[[np.ndarray, np.ndarray, int], float]


def _positive(name: str, value: Any, *, whole: bool = False, low: float = 0.0) -> None:
    ok = not isinstance(value, bool) and isinstance(value, (int, float, np.integer, np.floating))
    if ok and whole:
        ok = float(value).is_integer()
    if not ok or not math.isfinite(value) or value <= low:
        kind = "a whole number" if whole else "a finite number"
        raise ValueError(f"{name} must be {kind} > {low:g}, got {value!r}")


@dataclass(frozen=True)
class SPSASpec:
    """An SPSA run: what is tuned (``tuning``: features, start, bounds, fixed weights,
    search, depth, openings' plies, seed and the seats, from its templates; its
    CMA-ES fields, :data:`CMA_ONLY`, are not used) and how.

    ``iterations`` steps of ``blocks`` blocks each; gains ``a`` and ``c`` (scaled
    units: ``c`` 0.2 perturbs each weight by a fifth of its range), ``A`` (None: a
    tenth of ``iterations``), ``alpha`` and ``gamma`` as in the module docstring.
    ``ValueError`` naming a value outside its range."""

    tuning: TuningSpec
    iterations: int = 40
    blocks: int = 2
    a: float = 0.1
    c: float = 0.2
    A: float | None = None
    alpha: float = 0.602
    gamma: float = 0.101

    def __post_init__(self) -> None:
        if not isinstance(self.tuning, TuningSpec):
            raise ValueError(f"tuning must be a TuningSpec, got {self.tuning!r}")
        _positive("iterations", self.iterations, whole=True)
        _positive("blocks", self.blocks, whole=True)
        _positive("a", self.a)
        if not (isinstance(self.c, (int, float)) and 0 < self.c <= 0.5):
            raise ValueError(f"c must be a number in (0, 0.5] (scaled units), got {self.c!r}")
        if self.A is None:
            object.__setattr__(self, "A", 0.1 * self.iterations)
        elif isinstance(self.A, bool) or not isinstance(self.A, (int, float)) or self.A < 0:
            raise ValueError(f"A must be a number >= 0 (or None), got {self.A!r}")
        for name in ("alpha", "gamma"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
                raise ValueError(f"{name} must be a number in (0, 1], got {value!r}")
        object.__setattr__(self, "iterations", int(self.iterations))
        object.__setattr__(self, "blocks", int(self.blocks))

    @property
    def players(self) -> int:
        """The seats a game: those of the tuning spec's templates."""
        seats = self.tuning.templates[0].split(",")  # type: ignore[index]
        return sum(s in (CANDIDATE, OPPONENT) for s in seats)

    def gains(self, k: int) -> tuple[float, float]:
        """``(a_k, c_k)`` of iteration ``k`` (from 0)."""
        return (
            self.a / (k + 1 + float(self.A)) ** self.alpha,  # type: ignore[arg-type]
            self.c / (k + 1) ** self.gamma,
        )

    def delta(self, k: int) -> np.ndarray:
        """Iteration ``k``'s perturbation: a sign per weight, drawn from the seed and
        ``k`` alone (so a resumed run draws the same ones)."""
        rng = np.random.default_rng([self.tuning.seed, 0x5350, k])
        return rng.choice([-1.0, 1.0], size=len(self.tuning.features))

    def identity(self) -> dict[str, Any]:
        """What decides the run: every field but the tuning spec's CMA-ES ones (a
        longer run is another run: ``A`` and so every gain depend on ``iterations``)."""
        base = {k: v for k, v in self.tuning.identity().items() if k not in CMA_ONLY}
        own = {k: v for k, v in asdict(self).items() if k != "tuning"}
        return {"tuning": base, **own}

    @property
    def fingerprint(self) -> str:
        """A short hash of :meth:`identity`."""
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def log_file(self, folder: str | Path) -> Path:
        """``folder/NAME-spsa-FINGERPRINT.jsonl``, the log of this spec's run."""
        return Path(folder) / f"{self.tuning.name}-spsa-{self.fingerprint}.jsonl"


@dataclass
class SPSAResult:
    """A finished (or partly run) SPSA tuning."""

    spec: SPSASpec
    #: one row per iteration: ``iteration``, ``score`` (the plus side's), ``a``, ``c``,
    #: the weights before the step (one column per tuned feature) and the gradient
    #: estimates (``grad_<feature>``, scaled units)
    history: pd.DataFrame
    weights: dict[str, float]  # mean of the second half of the iterates: the tuned ones
    final_weights: dict[str, float]  # the last iterate's
    log: Path | None = None

    @property
    def iterations(self) -> int:
        """Iterations finished."""
        return len(self.history)

    @property
    def path(self) -> pd.DataFrame:
        """The weights by iteration (``iteration`` and one column per tuned feature,
        in the features' units): the start at 0, the iterate after step ``k`` at
        ``k + 1``."""
        features = list(self.spec.tuning.features)
        last = {"iteration": self.iterations, **{f: self.final_weights[f] for f in features}}
        before = self.history[["iteration", *features]]
        return pd.concat([before, pd.DataFrame([last])], ignore_index=True)

    def heuristic(self, *, final: bool = False) -> Any:
        """The tuned weights (``final=True``: the last iterate's) registered as a
        weighted heuristic of the game."""
        return weighted_heuristic(
            self.spec.tuning.game, self.final_weights if final else self.weights
        )


def iteration_session(spec: SPSASpec, plus: np.ndarray, minus: np.ndarray, k: int) -> Session:
    """Iteration ``k``'s games: the weights ``plus`` and ``minus`` (tuned weights, in
    feature order) head to head in ``spec.blocks`` balanced blocks of distinct
    openings drawn from the seed and ``k``, named ``NAME-spsa-KKKK``."""
    t = spec.tuning
    agents = {
        side: {
            "algorithm": t.algorithm,
            "heuristic": weighted_heuristic(t.game, t.weights(w)).name,
            "depth": t.depth,
        }
        for side, w in (("plus", plus), ("minus", minus))
    }
    session = duel_session(
        "plus", "minus", agents, players=spec.players, budget_ms=None, blocks=spec.blocks,
        opening_plies=t.opening_plies, seed=draw_seed([t.seed, 0x5350, k]), game=t.game,
    )  # fmt: skip
    return replace(session, name=f"{t.name}-spsa-{k:04d}")


def game_objective(
    spec: SPSASpec,
    records: str | Path | None = None,
    *,
    workers: int | None = None,
    client: Any = None,
    progress: bool = True,
) -> Objective:
    """The objective by default: the plus weights' mean block score against the minus
    weights in :func:`iteration_session`'s games (records in ``records``)."""

    def objective(plus: np.ndarray, minus: np.ndarray, k: int) -> float:
        session = iteration_session(spec, plus, minus, k)
        played = _play(session, records, workers=workers, client=client, progress=progress)
        return float(block_scores(tables(played), "plus", "minus").mean())

    return objective


def _row(spec: SPSASpec, k: int, theta: np.ndarray, y: float, grad: np.ndarray) -> dict:
    a_k, c_k = spec.gains(k)
    t = spec.tuning
    return (
        {"iteration": k, "score": y, "a": a_k, "c": c_k}
        | dict(zip(t.features, map(float, t.unscale(theta)), strict=True))
        | {f"grad_{f}": float(g) for f, g in zip(t.features, grad, strict=True)}
    )


def spsa(
    spec: SPSASpec,
    log: str | Path | None = None,
    *,
    objective: Objective | None = None,
    records: str | Path | None = None,
    workers: int | None = None,
    client: Any = None,
    progress: bool = True,
    stop_after: int | None = None,
) -> SPSAResult:
    """Tune ``spec``'s weights by SPSA; see the module docstring.

    ``log``: the run's JSON Lines file (:meth:`SPSASpec.log_file` names one; None keeps
    nothing); a run on an existing log replays its iterations (checked: the same
    perturbations and weights) and plays only the rest. ``objective``: the score of
    the plus weights against the minus weights (default :func:`game_objective`, its
    records in the folder ``records``, on ``workers`` processes or a Dask
    ``client``). ``stop_after``: stop once that many iterations are finished."""
    if not isinstance(spec, SPSASpec):
        raise ValueError(f"spec must be an SPSASpec, got {spec!r}")
    if objective is None:
        objective = game_objective(spec, records, workers=workers, client=client, progress=progress)
    path = Path(log) if log is not None else None
    head = {"kind": LOG_KIND, "identity": spec.identity()}
    logged = [] if path is None else read_run_log(path, head, what="SPSA run")
    t = spec.tuning
    theta = t.scale(t.x0)
    rows, iterates = [], [theta]
    last = spec.iterations if stop_after is None else min(spec.iterations, stop_after)
    bar = tqdm(total=spec.iterations, desc=f"{t.name} SPSA", unit="iteration",
               disable=not progress)  # fmt: skip
    try:
        for k in range(last):
            a_k, c_k = spec.gains(k)
            delta = spec.delta(k)
            z_plus = np.clip(theta + c_k * delta, 0.0, 1.0)
            z_minus = np.clip(theta - c_k * delta, 0.0, 1.0)
            plus, minus = t.unscale(z_plus), t.unscale(z_minus)
            if k < len(logged):
                entry = logged[k]
                if entry.get("iteration") != k or not np.allclose(entry.get("plus"), plus):
                    raise ValueError(
                        f"iteration {k} in {path} played other weights than SPSA asks for "
                        "now: the log was not made by this spec"
                    )
                y = float(entry["score"])
            else:
                y = float(objective(plus, minus, k))
                if not 0.0 <= y <= 1.0:
                    raise ValueError(f"the objective must return a score in [0, 1], got {y}")
                if path is not None:
                    append_line(path, {"iteration": k, "plus": plus.tolist(),
                                   "minus": minus.tolist(), "score": y})  # fmt: skip
            grad = (2.0 * y - 1.0) / (z_plus - z_minus)  # 2 c_k Delta but at a bound
            rows.append(_row(spec, k, theta, y, grad))
            theta = np.clip(theta + a_k * grad, 0.0, 1.0)
            iterates.append(theta)
            bar.update(1)
    finally:
        bar.close()
    grads = [f"grad_{f}" for f in t.features]
    history = pd.DataFrame(rows, columns=["iteration", "score", "a", "c", *t.features, *grads])
    tail = np.array(iterates[1:][len(rows) // 2 :] or iterates[-1:])
    return SPSAResult(
        spec, history, t.weights(t.unscale(tail.mean(axis=0))), t.weights(t.unscale(theta)), path
    )


def _averaged(spec: SPSASpec, d: np.ndarray) -> np.ndarray:
    """The tuned point (the mean of the second half of the iterates, scaled units) of
    SPSA runs whose iterations scored ``(2 y - 1) = d`` (one row of ``d`` a run, one
    column an iteration), replayed with the spec's perturbations and gains."""
    t = spec.tuning
    theta = np.tile(t.scale(t.x0), (d.shape[0], 1))
    iterates = []
    for k in range(d.shape[1]):
        a_k, c_k = spec.gains(k)
        delta = spec.delta(k)
        step = np.clip(theta + c_k * delta, 0, 1) - np.clip(theta - c_k * delta, 0, 1)
        theta = np.clip(theta + a_k * d[:, k : k + 1] / step, 0.0, 1.0)
        iterates.append(theta)
    tail = iterates[d.shape[1] // 2 :] or iterates[-1:]
    return np.mean(tail, axis=0)


def movement_test(
    result: SPSAResult, *, alpha: float = 0.05, resamples: int = 2**13, seed: int = 0
) -> pd.DataFrame:
    """Per tuned weight: did SPSA move it further than the noise of its games could?

    If no weight made a difference, every iteration's result ``2 y - 1`` would be as
    likely negated, and the run with any of its signs flipped as likely as the one
    played. So the run is replayed ``resamples`` times with random signs (the same
    perturbations and gains, the bounds included) and each weight's move, tuned less
    start, is set against the moves of those replays: ``p`` the share at least as
    large (two-sided, counting the run itself), Holm-corrected over the weights.

    Columns: ``feature``, ``start`` and ``tuned`` (the weights), ``low``, ``high`` and
    ``range`` (its bounds and their distance), ``moved`` (scaled
    units: a fraction of the weight's range), ``noise`` (the move that noise alone
    exceeds with probability ``alpha`` / weights, a Bonferroni bound: smaller moves
    say nothing), ``p``, ``p_holm`` and ``found`` (``"raise"``/``"lower"`` where
    ``p_holm < alpha``, else ``"none"``)."""
    spec, h = result.spec, result.history
    t = spec.tuning
    d = 2.0 * h["score"].to_numpy(float) - 1.0
    if len(d) == 0:
        raise ValueError("the run has no finished iteration to test")
    rng = np.random.default_rng(seed)
    signs = rng.choice([-1.0, 1.0], size=(resamples, len(d)))
    start = t.scale(t.x0)
    moved = _averaged(spec, d[None, :])[0] - start
    null = np.abs(_averaged(spec, signs * d) - start)
    p = (1 + (null >= np.abs(moved) - 1e-12).sum(axis=0)) / (resamples + 1)
    out = pd.DataFrame(
        {
            "feature": list(t.features),
            "start": list(t.x0),
            "tuned": [result.weights[f] for f in t.features],
            "low": list(t.low),
            "high": list(t.high),
            "range": list(np.asarray(t.high) - np.asarray(t.low)),
            "moved": moved,
            "noise": np.quantile(null, 1 - alpha / len(t.features), axis=0),
            "p": p,
        }
    )
    out["p_holm"] = holm(out["p"].to_numpy())
    out["found"] = [
        ("raise" if m > 0 else "lower") if q < alpha else "none"
        for m, q in zip(out["moved"], out["p_holm"], strict=True)
    ]
    return out


def movement_tests(
    results: Mapping[int, SPSAResult],
    *,
    alpha: float = 0.05,
    resamples: int = 2**13,
    seed: int = 0,
) -> pd.DataFrame:
    """:func:`movement_test` of one SPSA run per player count (``results``: count ->
    run), as one table with a ``players`` column first. Holm runs over every weight of
    every run (each weight of each run is one claim), so ``p_holm`` and ``found`` are
    the family's; ``noise`` stays each run's own band. With one run this is
    :func:`movement_test` with the column added."""
    if not results:
        raise ValueError("results must hold at least one SPSA run, by player count")
    out = by_players(
        {
            n: movement_test(r, alpha=alpha, resamples=resamples, seed=seed)
            for n, r in results.items()
        }
    )
    out["p_holm"] = holm(out["p"].to_numpy())
    out["found"] = [
        ("raise" if m > 0 else "lower") if q < alpha else "none"
        for m, q in zip(out["moved"], out["p_holm"], strict=True)
    ]
    return out


def plot_spsa_path(path: pd.DataFrame, movement: pd.DataFrame) -> Any:
    """SPSA's weights by iteration, one panel per tuned weight
    (:attr:`SPSAResult.path`), with the start, the tuned weights (the mean of
    the second half) and the band noise alone reaches from the start
    (:func:`movement_test`'s ``noise``, in the weight's units): a tuned weight
    inside its band moved no further than luck carries it. Tables with a ``players``
    column (:func:`.tuning.by_players` of the runs' paths, :func:`movement_tests`) draw
    one row of panels per count."""
    import matplotlib.pyplot as plt

    if "players" not in movement.columns:
        path, movement = path.assign(players=0), movement.assign(players=0)
    counts = list(dict.fromkeys(movement["players"]))
    features = list(dict.fromkeys(movement["feature"]))
    fig, axes = plt.subplots(len(counts), len(features), squeeze=False,
                             figsize=(3.0 * len(features), 0.4 + 2.9 * len(counts)))  # fmt: skip
    for axes_row, n in zip(axes, counts, strict=True):
        rows = movement[movement["players"] == n].set_index("feature")
        _path_panels(axes_row, path[path["players"] == n], rows, n)
    axes[0][-1].legend(fontsize=7, loc="best")
    fig.suptitle("SPSA: the weights by iteration (beyond noise: Holm over every weight shown)",
                 fontsize=10)  # fmt: skip
    fig.tight_layout()
    return fig


def _path_panels(axes: Any, path: pd.DataFrame, rows: pd.DataFrame, players: int) -> None:
    """One row of :func:`plot_spsa_path`: a panel per weight of the run at ``players``
    seats (0: the count is not said)."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    said = {"raise": "raised beyond noise", "lower": "lowered beyond noise"}
    for ax, f in zip(axes, rows.index, strict=True):
        row = rows.loc[f]
        span = row["noise"] * row["range"]
        ax.axhspan(row["start"] - span, row["start"] + span, color="0.88", label="noise reaches")
        ax.plot(path["iteration"], path[f], color=colours[0], linewidth=1.0, label="iterate")
        ax.axhline(row["tuned"], color=colours[1], linestyle="--", label="tuned (mean)")
        seats = f"{players} players, " if players else ""
        ax.set_title(f"{seats}{f}: {said.get(row['found'], 'within noise')}", fontsize=9)
        ax.set_xlabel("iteration")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        margin = 0.03 * row["range"]
        ax.set_ylim(row["low"] - margin, row["high"] + margin)
    axes[0].set_ylabel("weight")


def games_per_iteration(spec: SPSASpec) -> int:
    """The games an iteration plays: every seating of its blocks."""
    x0 = np.asarray(spec.tuning.x0)
    return len(iteration_session(spec, x0, x0, 0).tasks())


def movement_sentences(result: SPSAResult, movement: pd.DataFrame) -> str:
    """What the run and :func:`movement_test` found, in words, from their numbers
    (:func:`movement_tests`' table: the rows of the run's player count)."""
    spec = result.spec
    if "players" in movement.columns:
        movement = movement[movement["players"] == spec.players]
    games = result.iterations * games_per_iteration(spec)
    lines = [
        f"SPSA ran {result.iterations} iterations of {spec.blocks} block(s) each, {games} "
        "games, "
        f"at {spec.players} seats, the plus and minus weights head to head."
    ]
    found = movement[movement["found"] != "none"]
    for row in movement.itertuples():
        said = "moved beyond noise" if row.found != "none" else "within what noise gives"
        lines.append(
            f"{row.feature}: {row.start:g} -> {row.tuned:.3g} ({row.moved:+.3f} of its range; "
            f"noise alone reaches {row.noise:.3f}; Holm p = {row.p_holm:.3g}): {said}."
        )
    if len(found) == 0:
        lines.append(
            "No weight moved further than the luck of the games would carry it: the tuned "
            "weights are the start's plus a random walk, whatever the duel below finds."
        )
    return "\n".join(lines)
