"""Heuristics tuned by self-play: CMA-ES over the weights of a weighted heuristic.

The thesis closes (chapter 7) with more evaluation functions and self-learning as open
questions. Here the weights of a weighted heuristic (:mod:`chameleon_lab.games.weighted`:
Chameleon Chess's pawns, roles, mobility and centre; Othello's discs, mobility and
corners; Connect Four's stones, pairs and triples in open lines) are searched for by
CMA-ES (the ``cma`` package), each candidate scored by games against a fixed opponent
(for Chameleon Chess the thesis's best heuristic, ``pawns100roles``) with the same
search at the same fixed depth.

* :class:`TuningSpec` says what is tuned: the game, the features and their bounds, the
  start point, CMA-ES's step size, population and generations, the seed, the opponent,
  the search and the games (seatings, repetitions, random openings).
* :func:`tune` runs it. Each generation's candidates are played through the
  tournament machinery (:func:`~chameleon_lab.tournament.runner.run_session`, one session a
  generation on the process pool or Dask, records resumable game by game) and the
  generation is appended as one line to a JSON Lines log. Run again, it replays the
  logged generations through CMA-ES (the same seed asks for the same candidates, which
  are checked against the log) and plays only the rest, so an interrupted run ends
  exactly where an uninterrupted one does.
* :func:`seat_templates` scores candidates in the setting under study: at three or
  four seats, the candidate at each seat once among copies of the opponent.
* :func:`score_noise` says, generation by generation, how much of the spread between
  the candidates' scores their noise explains, and how many games a candidate would
  need for CMA-ES to act on differences rather than on the luck of the openings.
* :func:`against` plays a heuristic against others (the thesis's four,
  :data:`THESIS_HEURISTICS`) at an equal depth or an equal time per move and returns
  win rates with 95 % Wilson intervals (a description).
* :func:`decide` tests the tuned heuristic against its opponent head to head, on
  balanced blocks until the SPRT decides, at equal depth and at equal time (a verdict,
  with :func:`~chameleon_lab.analysis.headtohead.claim_verdicts`).

CMA-ES searches in coordinates scaled to ``[0, 1]`` per feature (``low`` to ``high``),
so features of different magnitudes (100 per pawn, 1 per role point) get comparable
steps; ``sigma0`` is in those units. A score is the candidate's share of points over its
games (a win 1, a draw 1/2), higher is better; CMA-ES minimises its negative. The
tuned weights (``TuningResult.weights``) are CMA-ES's final mean, its estimate of
the optimum under noisy scores; the best scored candidate is kept beside it.

The objective is replaceable (``tune(..., objective=f)`` with ``f(weights, generation)
-> scores``, ``weights`` an array of one row per candidate): the tests tune a quadratic
whose optimum they know.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..checks import whole_number
from ..games.registry import get_game
from ..games.weighted import check_features, features_of, weighted_heuristic
from ..runlog import append_line, read_run_log
from ..tournament import Session, Tables, run_session, session_records, tables
from ..tournament.designs import draw_seed
from .headtohead import (
    DEFAULT_PLAN,
    Claim,
    DuelPlan,
    concat_tables,
    duel_row,
    duel_session,
    run_duel,
)
from .stats import game_points, win_rates

#: The thesis's four heuristics of Chameleon Chess (table 5.2), the opponents of
#: :func:`against` by default.
THESIS_HEURISTICS = ("pawns", "pawns10roles", "pawns100roles", "pawns100moves")
#: The seat of the candidate and of the opponent in a seating template.
CANDIDATE, OPPONENT = "X", "O"
#: Seating templates by default: the two-player game from both sides.
DEFAULT_TEMPLATES = {"chameleon": ("X,O,_,_", "O,X,_,_")}
#: What each log line is, so a log of something else is refused.
LOG_KIND = "chameleon_lab.tuning"


def opponents_of(game: str) -> tuple[str, ...]:
    """The heuristics a tuned one meets by default: Chameleon Chess's the thesis's four
    (:data:`THESIS_HEURISTICS`), another game's built-in ones but ``uniform``."""
    registry = get_game(game).heuristics
    if registry.game == "chameleon":
        return THESIS_HEURISTICS
    return tuple(n for n in registry.names if registry.get(n).builtin and n != "uniform")


def default_templates(game: str) -> tuple[str, ...]:
    """Seatings of one candidate and the opponent: ``X`` the candidate, ``O`` the
    opponent, ``_`` an empty seat (Chameleon Chess: red and green, both ways round;
    a two-player game: both sides)."""
    name = get_game(game).name
    return DEFAULT_TEMPLATES.get(name, ("X,O", "O,X"))


def check_templates(templates: Any) -> tuple[str, ...]:
    """Seating templates as a tuple: each one entry per seat, ``X`` (the candidate)
    once, ``O`` (the opponent) and ``_`` (empty), such as ``"X,O,_,_"``; ``ValueError``
    naming a template that is not."""
    if isinstance(templates, str) or not hasattr(templates, "__iter__"):
        raise ValueError(f"templates must be a list of seatings, got {templates!r}")
    out = tuple(templates)
    for t in out:
        seats = t.split(",") if isinstance(t, str) else []
        if seats.count(CANDIDATE) != 1 or not set(seats) <= {CANDIDATE, OPPONENT, "_"}:
            raise ValueError(
                f"a seating template is one entry per seat, X (the candidate) once, O "
                f"(the opponent) and _ (empty), such as 'X,O,_,_'; got {t!r}"
            )
    if not out:
        raise ValueError("templates must hold at least one seating")
    return out


def seat_templates(game: str, players: int = 2) -> tuple[str, ...]:
    """Seatings of one candidate (``X``) among copies of the opponent (``O``) at the
    first ``players`` seats, the candidate at each of them once, so a candidate is
    scored in the setting under study (Chameleon Chess with three or four players) and
    no seat favours it. Two players: :func:`default_templates`. ``ValueError`` for a
    count the game does not seat."""
    base = default_templates(game)
    seats = len(base[0].split(","))
    whole_number("players", players, 2, seats, what=f" for {game}")
    if players == 2:
        return base
    return tuple(
        ",".join(
            [CANDIDATE if j == i else OPPONENT for j in range(players)] + ["_"] * (seats - players)
        )
        for i in range(players)
    )


def player_counts(game: str, players: int | Sequence[int]) -> list[int]:
    """``players`` as a list of distinct player counts, in the order given (a whole
    number is one count), each one :func:`seat_templates` seats for ``game``;
    ``ValueError`` naming the value otherwise."""
    counts = [players] if isinstance(players, int) and not isinstance(players, bool) else players
    if isinstance(counts, (str, bytes, Mapping)) or not hasattr(counts, "__iter__"):
        raise ValueError(f"players must be a player count or a list of them, got {players!r}")
    counts = list(counts)
    if not counts or len(set(map(repr, counts))) != len(counts):
        raise ValueError(f"players must be distinct player counts, at least one, got {players!r}")
    for n in counts:
        seat_templates(game, n)  # a count the game does not seat: ValueError naming it
    return counts


def by_players(tables: Mapping[int, pd.DataFrame]) -> pd.DataFrame:
    """One table of several, each of one player count (``tables``: count -> table),
    stacked in the order given with a ``players`` column first."""
    out = pd.concat([t.assign(players=n) for n, t in tables.items()], ignore_index=True)
    out.insert(0, "players", out.pop("players"))
    return out


def at_players(spec: TuningSpec, players: int | Sequence[int]) -> dict[int, TuningSpec]:
    """``spec`` once per player count of ``players`` (:func:`player_counts`), each
    seated by :func:`seat_templates`: one tuning run per setting under study. A count's
    spec is the one a run at that count alone makes (the same fingerprint)."""
    return {n: replace(spec, templates=seat_templates(spec.game, n))
            for n in player_counts(spec.game, players)}  # fmt: skip


def decide_tuned(
    results: Mapping[int, Any],
    opponent: str,
    budgets: Sequence[Mapping[str, Any]],
    records: str | Path,
    **duel: Any,
) -> tuple[list[Tables], pd.DataFrame]:
    """:func:`decide` for the heuristic each run of ``results`` (player count -> a
    finished SPSA or CMA-ES run) tuned, at the seats it was tuned at; ``duel`` as
    :func:`decide` takes it but ``players``. The games' tables of every count, and one
    row per count and budget, for Holm over all of them
    (:func:`~chameleon_lab.analysis.headtohead.claim_verdicts`)."""
    parts, rows = [], []
    for n, result in results.items():
        t, r = decide(result.heuristic().name, opponent, budgets, records, players=n, **duel)
        parts.append(t)
        rows.append(r)
    return parts, pd.concat(rows, ignore_index=True)


def weights_table(results: Mapping[int, Any]) -> pd.DataFrame:
    """The weights each run of ``results`` (player count -> a finished run) tuned: per
    count a row of the tuned weights (SPSA: the mean of the second half of the
    iterates; CMA-ES: its final mean) and a row of the ones kept beside them (SPSA:
    the last iterate; CMA-ES: the best scored candidate), each with the name it is
    registered under."""
    rows = []
    for n, r in results.items():
        if hasattr(r, "final_weights"):  # SPSA
            beside = ("tuned (mean of the second half)", "last iterate", r.final_weights,
                      r.heuristic(final=True).name)  # fmt: skip
        else:
            beside = ("tuned (CMA-ES mean)", "best candidate", r.best_weights,
                      r.heuristic(best=True).name)  # fmt: skip
        rows.append({"players": n, "weights": beside[0], **r.weights, "name": r.heuristic().name})
        rows.append({"players": n, "weights": beside[1], **beside[2], "name": beside[3]})
    return pd.DataFrame(rows)


def _number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float, np.integer, np.floating))


@dataclass(frozen=True)
class TuningSpec:
    """What a tuning run tunes and how it scores a candidate (see the module docstring).

    * ``features``, ``x0``, ``low``, ``high``: the tuned weights, where CMA-ES starts and
      the bounds of each (``low <= x0 <= high``, ``low < high``, ``low >= 0``);
      ``fixed``: weights of other features held constant (Chameleon Chess by default:
      100 per pawn, as the thesis's heuristics, since only the ratios between the
      weights matter to a search).
    * ``sigma0``: CMA-ES's initial step in the scaled coordinates (0 to 1 per feature);
      ``popsize`` candidates a generation, ``generations`` generations; ``seed`` drives
      CMA-ES and the games' openings.
    * ``opponent`` (default: the game's default heuristic, Chameleon Chess's
      ``pawns100roles``), ``algorithm`` and ``depth``: the search both sides use.
    * ``templates``: seatings with ``X`` for the candidate and ``O`` for the opponent
      (default :func:`default_templates`); each is played ``repetitions`` times a
      generation, every repetition from its own random opening of ``opening_plies``
      plies (the same openings for every candidate of a generation, new ones each
      generation).
    """

    game: str = "chameleon"
    features: tuple[str, ...] = ("roles", "mobility", "centre")
    x0: tuple[float, ...] = (1.0, 0.0, 0.0)
    low: tuple[float, ...] = (0.0, 0.0, 0.0)
    high: tuple[float, ...] = (20.0, 10.0, 10.0)
    fixed: Mapping[str, float] = field(default_factory=lambda: {"pawns": 100.0})
    sigma0: float = 0.25
    popsize: int = 6
    generations: int = 5
    seed: int = 1
    opponent: str | None = None
    algorithm: str = "paranoid"
    depth: int = 2
    templates: tuple[str, ...] | None = None
    repetitions: int = 4
    opening_plies: int = 4
    name: str = "tuning"

    def __post_init__(self) -> None:
        features = check_features(self.game, self.features)
        object.__setattr__(self, "features", features)
        n = len(features)
        for key in ("x0", "low", "high"):
            value = getattr(self, key)
            if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
                raise ValueError(f"{key} must be a list of {n} numbers, got {value!r}")
            if len(value) != n or not all(_number(v) and math.isfinite(v) for v in value):
                raise ValueError(
                    f"{key} must be {n} finite numbers, one per feature "
                    f"({', '.join(features)}), got {list(value)}"
                )
            object.__setattr__(self, key, tuple(float(v) for v in value))
        for f, lo, hi, x in zip(features, self.low, self.high, self.x0, strict=True):
            if lo >= hi:
                raise ValueError(
                    f"the bounds of {f} must have low below high, got low={lo:g} > high={hi:g}"
                    if lo > hi
                    else f"the bounds of {f} must have low below high, got low = high = {lo:g}"
                )
            if lo < 0:
                raise ValueError(f"the low bound of {f} must be >= 0 (weights are), got {lo:g}")
            if not lo <= x <= hi:
                raise ValueError(f"x0 of {f} must lie within [{lo:g}, {hi:g}], got {x:g}")
        if not isinstance(self.fixed, Mapping):
            raise ValueError(f"fixed must be a mapping feature -> weight, got {self.fixed!r}")
        clash = sorted(set(self.fixed) & set(features))
        if clash:
            raise ValueError(f"{', '.join(clash)}: tuned and fixed at once")
        if self.fixed:
            check_features(self.game, list(self.fixed))
        object.__setattr__(self, "fixed", {k: float(v) for k, v in self.fixed.items()})
        if not _number(self.sigma0) or not 0 < self.sigma0 <= 1:
            raise ValueError(
                f"sigma0 must be a number in (0, 1] (scaled units), got {self.sigma0!r}"
            )
        for key, least in (("popsize", 2), ("generations", 1), ("depth", 1), ("repetitions", 1)):
            object.__setattr__(self, key, whole_number(key, getattr(self, key), least))
        object.__setattr__(self, "seed", whole_number("seed", self.seed, 0))
        if self.opponent is None:
            object.__setattr__(self, "opponent", get_game(self.game).heuristics.default)
        get_game(self.game).heuristics.get(self.opponent)  # a known one, or ValueError
        templates = default_templates(self.game) if self.templates is None else self.templates
        templates = check_templates(templates)
        object.__setattr__(self, "templates", templates)
        self.weights(np.asarray(self.x0))  # the start point is a valid heuristic

    def to_dict(self) -> dict[str, Any]:
        """The parameters, JSON-friendly (lists for tuples); :meth:`from_dict` inverts."""
        out = asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in out.items()}

    def identity(self) -> dict[str, Any]:
        """The parameters that decide the run's generations: all but ``generations``
        (generation ``g`` is the same in a run of any length, so a log continues into
        more generations and serves a shorter run too)."""
        out = self.to_dict()
        del out["generations"]
        return out

    @property
    def fingerprint(self) -> str:
        """A short hash of :meth:`identity`."""
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def log_file(self, folder: str | Path) -> Path:
        """``folder/NAME-FINGERPRINT.jsonl``: the log of this spec's runs, so a rerun
        (or one with more generations) continues it, and a run with other parameters
        starts a log of its own."""
        return Path(folder) / f"{self.name}-{self.fingerprint}.jsonl"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TuningSpec:
        """A spec from :meth:`to_dict` output (unknown keys raise ``ValueError``)."""
        valid = list(cls.__dataclass_fields__)
        unknown = sorted(set(data) - set(valid))
        if unknown:
            raise ValueError(
                f"unknown tuning key(s) {', '.join(unknown)}; valid: {', '.join(valid)}"
            )
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})

    def weights(self, x: Sequence[float]) -> dict[str, float]:
        """Every feature's weight for the tuned values ``x`` (in feature order) with the
        fixed ones, in the game's feature order."""
        given = {**self.fixed, **dict(zip(self.features, (float(v) for v in x), strict=True))}
        return {f: given.get(f, 0.0) for f in features_of(self.game)}

    def scale(self, x: Sequence[float]) -> np.ndarray:
        """Weights to CMA-ES's coordinates (0 at ``low``, 1 at ``high``)."""
        low, high = np.asarray(self.low), np.asarray(self.high)
        return (np.asarray(x, dtype=float) - low) / (high - low)

    def unscale(self, z: Sequence[float]) -> np.ndarray:
        """CMA-ES's coordinates to weights, clipped to the bounds."""
        low, high = np.asarray(self.low), np.asarray(self.high)
        return low + np.clip(np.asarray(z, dtype=float), 0.0, 1.0) * (high - low)


# ``objective(weights, generation) -> scores``: one row of tuned weights per candidate
# (in ``TuningSpec.features`` order), one score per row, higher better.
Objective = Callable[[np.ndarray, int], Sequence[float]]


@dataclass
class TuningResult:
    """A finished (or partly run) tuning: every candidate scored, and what came of it."""

    spec: TuningSpec
    history: pd.DataFrame  # generation, candidate, score, one column per tuned feature
    weights: dict[str, float]  # CMA-ES's final mean: the tuned heuristic's weights
    best_weights: dict[str, float]  # the best scored candidate's
    best_score: float
    log: Path | None = None

    @property
    def curve(self) -> pd.DataFrame:
        """Best and mean score per generation (the tuning curve)."""
        g = self.history.groupby("generation")["score"]
        return pd.DataFrame({"best": g.max(), "mean": g.mean()}).reset_index()

    @property
    def generations(self) -> int:
        """Generations finished."""
        return int(self.history["generation"].nunique()) if len(self.history) else 0

    def heuristic(self, *, best: bool = False) -> Any:
        """The tuned weights (``best=True``: the best scored candidate's) registered as a
        weighted heuristic of the game (:func:`.games.weighted.weighted_heuristic`)."""
        return weighted_heuristic(self.spec.game, self.best_weights if best else self.weights)


@contextmanager
def _own_random_state(state: dict[str, Any]) -> Iterator[None]:
    """Run CMA-ES on a numpy global random state of its own (``cma`` draws from
    ``numpy.random``), so nothing else the process draws changes its candidates and
    CMA-ES changes nothing of the caller's."""
    outer = np.random.get_state()  # noqa: NPY002 - cma's own stream is the global one
    if "state" in state:
        np.random.set_state(state["state"])  # noqa: NPY002
    try:
        yield
    finally:
        state["state"] = np.random.get_state()  # noqa: NPY002
        np.random.set_state(outer)  # noqa: NPY002


def _same_spec(head: dict[str, Any], spec: TuningSpec) -> bool:
    """Whether a log's first line is of ``spec`` (its number of generations aside: a
    longer run continues a shorter one's log)."""
    theirs = dict(head.get("spec") or {})
    theirs.pop("generations", None)
    return theirs == spec.identity()


def tune(
    spec: TuningSpec,
    log: str | Path | None = None,
    *,
    objective: Objective | None = None,
    records: str | Path | None = None,
    workers: int | None = None,
    client: Any = None,
    progress: bool = True,
    stop_after: int | None = None,
) -> TuningResult:
    """Tune ``spec``'s weights by CMA-ES; see the module docstring.

    ``log``: the JSON Lines file of the run (``None``: nothing is kept;
    :meth:`TuningSpec.log_file` names one per spec); a run on an existing log continues
    after its last finished generation and ends as an uninterrupted run would (with
    more generations than the log holds it plays only the new ones). ``objective``
    scores the candidates (default: games against the opponent, :func:`game_objective`,
    whose records go to the folder ``records`` if given, so an interrupted generation
    resumes game by game, on ``workers`` local processes or a Dask ``client``).
    ``stop_after``: stop once that many generations are finished (to split a run; the
    log continues it).
    """
    import cma

    if not isinstance(spec, TuningSpec):
        raise ValueError(f"spec must be a TuningSpec, got {spec!r}")
    if objective is None:
        objective = game_objective(spec, records, workers=workers, client=client, progress=progress)
    path = Path(log) if log is not None else None
    logged = [] if path is None else read_run_log(
        path, {"kind": LOG_KIND, "spec": spec.to_dict()}, what="tuning run",
        same=lambda head: head.get("kind") == LOG_KIND and _same_spec(head, spec),
    )  # fmt: skip
    rng: dict[str, Any] = {}
    with _own_random_state(rng):
        es = cma.CMAEvolutionStrategy(
            list(spec.scale(spec.x0)),
            spec.sigma0,
            {
                "seed": spec.seed + 1,  # cma takes 0 for "from the clock"
                "bounds": [0.0, 1.0],
                "popsize": spec.popsize,
                "verbose": -9,
                "tolfun": 0.0,  # a fixed number of generations: no early stops
                "tolflatfitness": 10**9,
                "tolstagnation": 10**9,
            },
        )
    rows = []
    last = spec.generations if stop_after is None else min(spec.generations, stop_after)
    bar = tqdm(total=spec.generations, desc=spec.name, unit="generation", disable=not progress)
    try:
        for g in range(last):
            with _own_random_state(rng):
                z = es.ask()
            x = np.array([spec.unscale(c) for c in z])
            if g < len(logged):
                entry = logged[g]
                if entry.get("generation") != g or entry.get("candidates") != x.tolist():
                    raise ValueError(
                        f"generation {g} in {path} holds other candidates than CMA-ES asks "
                        "for now: the log was not made by this spec and seed"
                    )
                scores = [float(s) for s in entry["scores"]]
            else:
                scores = [float(s) for s in objective(x, g)]
                if len(scores) != len(x) or not all(math.isfinite(s) for s in scores):
                    raise ValueError(
                        f"the objective must return {len(x)} finite scores, got {scores}"
                    )
                if path is not None:
                    append_line(path, {"generation": g, "candidates": x.tolist(), "scores": scores})
            with _own_random_state(rng):
                es.tell(z, [-s for s in scores])
            for i, (c, s) in enumerate(zip(x, scores, strict=True)):
                rows.append(
                    {"generation": g, "candidate": i, "score": s}
                    | dict(zip(spec.features, map(float, c), strict=True))
                )
            bar.update(1)
            bar.set_postfix(best=max(scores), refresh=False)
    finally:
        bar.close()
    history = pd.DataFrame(rows, columns=["generation", "candidate", "score", *spec.features])
    mean = spec.unscale(es.result.xfavorite) if rows else np.asarray(spec.x0)
    if rows:
        top = history.loc[history["score"].idxmax()]
        best = spec.weights([top[f] for f in spec.features])
        best_score = float(top["score"])
    else:
        best, best_score = spec.weights(spec.x0), math.nan
    return TuningResult(spec, history, spec.weights(mean), best, best_score, path)


def _seatings(templates: Sequence[str], candidate: str, opponent: str) -> list[list[str]]:
    out = []
    for t in templates:
        seats = t.split(",")
        out.append(
            [candidate if s == CANDIDATE else opponent if s == OPPONENT else "_" for s in seats]
        )
    return out


def _scores(records: list[dict[str, Any]]) -> pd.DataFrame:
    """Per agent: games, wins, draws and the share of points (a draw counts 1/2)."""
    rates = win_rates(tables(records), by="agent")
    rates["score"] = (rates["wins"] + 0.5 * rates["draws"]) / rates["games"]
    return rates.set_index("agent")


def _play(session: Session, folder: str | Path | None, **run: Any) -> list[dict[str, Any]]:
    """The records of ``session``'s games, played where missing (in ``folder``'s
    records file if given); ``KeyboardInterrupt`` if the run was interrupted."""
    out = session.records_file(folder) if folder is not None else None
    if out is not None:
        Path(folder).mkdir(parents=True, exist_ok=True)  # type: ignore[arg-type]
    report = run_session(session, out, **run).complete(session.name)
    return session_records(out, session) if out is not None else report.records


def game_objective(
    spec: TuningSpec,
    records: str | Path | None = None,
    *,
    workers: int | None = None,
    client: Any = None,
    progress: bool = True,
) -> Objective:
    """The objective of :func:`tune` by default: each candidate's share of points in
    its games against ``spec.opponent``.

    A generation is one session, :func:`generation_session`."""

    def objective(x: np.ndarray, generation: int) -> list[float]:
        session, names = generation_session(spec, x, generation)
        scores = _scores(_play(session, records, workers=workers, client=client, progress=progress))
        return [float(scores.at[n, "score"]) for n in names]

    return objective


def generation_session(
    spec: TuningSpec, x: np.ndarray, generation: int
) -> tuple[Session, list[str]]:
    """The session of one generation (named ``NAME-gGGG``) and its candidates' agent
    names: every candidate (a row of ``x``) as an agent of its own with its weighted
    heuristic, the opponent, every template for every candidate, ``spec.repetitions``
    times, each repetition from its own random opening (the same for all candidates,
    drawn from the seed and the generation: the candidates are compared on paired
    openings)."""
    agents: dict[str, dict[str, Any]] = {}
    seatings: list[list[str]] = []
    names = []
    for i, row in enumerate(x):
        h = weighted_heuristic(spec.game, spec.weights(row))
        name = f"c{i}"
        names.append(name)
        agents[name] = {"algorithm": spec.algorithm, "heuristic": h.name, "depth": spec.depth}
        seatings += _seatings(spec.templates, name, "opponent")  # type: ignore[arg-type]
    agents["opponent"] = {
        "algorithm": spec.algorithm,
        "heuristic": spec.opponent,
        "depth": spec.depth,
    }
    session = Session(
        f"{spec.name}-g{generation:03d}",
        agents,
        design="fixed",
        seatings=seatings,
        repetitions=spec.repetitions,
        seed=draw_seed([spec.seed, generation]),
        game=spec.game,
        opening_plies=spec.opening_plies,
        openings="per_repetition",  # paired: every candidate and template on one opening
    )
    return session, names


def score_noise(result: TuningResult, records: str | Path) -> pd.DataFrame:
    """How much of what CMA-ES acted on was noise, generation by generation, from the
    records of the games that scored the candidates.

    Per generation: the games a candidate played; ``spread``, the standard deviation of
    the candidates' scores; ``noise``, the root mean square of their standard errors
    (each candidate's points a game, win 1, draw 1/2, loss 0, over its games);
    ``signal``, the part of the spread noise does not explain (``sqrt(spread**2 -
    noise**2)``, 0 where noise explains it all); ``games_needed``, the games a
    candidate would need for its noise to fall to half the signal (infinite where
    there is no signal to resolve). CMA-ES ranks the candidates: where ``noise`` is not
    well below ``signal`` its steps follow the luck of the openings."""
    spec = result.spec
    rows = []
    for g, group in result.history.groupby("generation", sort=True):
        x = group.sort_values("candidate")[list(spec.features)].to_numpy(float)
        session, names = generation_session(spec, x, int(g))
        t = tables(session_records(session.records_file(records), session))
        points = game_points(t)
        per = points[points["agent"].isin(names)].groupby("agent")["points"]
        games = int(per.size().min())
        se = per.std(ddof=1) / np.sqrt(per.size())
        spread = float(group["score"].std(ddof=1))
        noise = float(np.sqrt(np.mean(se.to_numpy() ** 2)))
        signal = float(np.sqrt(max(spread**2 - noise**2, 0.0)))
        needed = math.ceil(games * (2 * noise / signal) ** 2) if signal > 0 else math.inf
        rows.append(
            {
                "generation": int(g),
                "games": games,
                "spread": spread,
                "noise": noise,
                "signal": signal,
                "games_needed": needed,
            }
        )
    return pd.DataFrame(rows)


def noise_sentences(noise: pd.DataFrame) -> str:
    """What :func:`score_noise`'s table says, in words, from its numbers."""
    alike = int((noise["spread"] == 0).sum())
    noisy = int(((noise["spread"] > 0) & (noise["noise"] >= noise["signal"])).sum())
    needed = noise.loc[noise["signal"] > 0, "games_needed"]
    lines = [
        f"{len(noise)} generations, {noise['games'].min()} to {noise['games'].max()} games "
        f"a candidate. In {noisy} of them the noise of a score ({noise['noise'].min():.3f} "
        f"to {noise['noise'].max():.3f}) was at least the signal between the candidates: "
        f"there CMA-ES ranked them by the luck of the openings. In {alike} all candidates "
        "scored alike, leaving it nothing to rank."
    ]
    if len(needed):
        lines.append(
            f"For its noise to fall to half the signal, a candidate would need about "
            f"{int(needed.median())} games (median over the {len(needed)} generation(s) "
            f"with a signal; {int(needed.min())} to {int(needed.max())})."
        )
    else:
        lines.append("No generation showed a signal above the noise: no game count can be derived.")
    return "\n".join(lines)


def decide(
    heuristic: str | Any,
    opponent: str,
    budgets: Sequence[Mapping[str, Any]],
    records: str | Path,
    *,
    game: str = "chameleon",
    algorithm: str = "paranoid",
    players: int = 2,
    plan: DuelPlan = DEFAULT_PLAN,
    opening_plies: int = 4,
    seed: int = 0,
    label: str = "tuned",
    rival_label: str | None = None,
) -> tuple[Tables, pd.DataFrame]:
    """``heuristic`` (the tuned one, ``label`` in the records and the claim: "the
    ``label`` heuristic is stronger than ``opponent``") against ``opponent`` head to
    head (``rival_label``, when given, names the opponent in the records and the claim
    instead of its heuristic's name: "the learned heuristic is stronger than the start
    one"), the same search
    both sides, once per budget of ``budgets`` (``{"depth": 2}``: equal depth,
    ``{"time_ms": 10}``: equal time, where a heuristic that costs more searches less
    deep): balanced blocks of distinct openings at ``players`` seats, played as ``plan``
    says until its SPRT decides or ``plan.max_blocks``
    (:func:`~chameleon_lab.analysis.headtohead.run_duel`, records in ``records``). The
    games' tables and
    one row per budget as :func:`~chameleon_lab.analysis.headtohead.duel_study` gives
    them, for :func:`~chameleon_lab.analysis.headtohead.claim_verdicts`."""
    registry = get_game(game).heuristics
    own = registry.get(heuristic)
    registry.get(opponent)  # a known heuristic, or ValueError naming the valid ones
    if isinstance(budgets, Mapping) or not budgets:
        raise ValueError(f"budgets must be a list like [{{'depth': 2}}], got {budgets!r}")
    rival = opponent if rival_label is None else rival_label
    if not isinstance(rival, str) or not rival:
        raise ValueError(f"rival_label must be a non-empty name, got {rival_label!r}")
    if not isinstance(label, str) or not label or label == rival:
        raise ValueError(f"label must be a name other than the opponent's, got {label!r}")
    text = (f"the {label} heuristic is stronger than {opponent}" if rival_label is None
            else f"the {label} heuristic is stronger than the {rival_label} one")  # fmt: skip
    claim = Claim("tuning" if label == "tuned" else label, text, label, rival)
    parts, rows = [], []
    for budget in budgets:
        agents = {
            label: {"algorithm": algorithm, "heuristic": own.name, **budget},
            rival: {"algorithm": algorithm, "heuristic": opponent, **budget},
        }
        session = duel_session(
            label, rival, agents, players=players, budget_ms=None,
            opening_plies=opening_plies, seed=seed, game=game,
        )  # fmt: skip
        t, result = run_duel(session, records, plan)
        parts.append(t)
        said = _budget_words(budget)
        rows.append(duel_row(claim, players, budget.get("time_ms"), said, t, result))
    return concat_tables(parts), pd.DataFrame(rows)


def _budget_words(budget: Mapping[str, Any]) -> str:
    """A budget as the tables write it: ``"depth 4"``, ``"10 ms"``, ``"depth 4, 10 ms"``."""
    return ", ".join(f"{v:g} ms" if k == "time_ms" else f"{k} {v}" for k, v in budget.items())


def against(
    heuristic: str | Any,
    opponents: Sequence[str] = THESIS_HEURISTICS,
    *,
    game: str = "chameleon",
    algorithm: str = "paranoid",
    budget: Mapping[str, float] | None = None,
    templates: Sequence[str] | None = None,
    repetitions: int = 10,
    opening_plies: int = 4,
    seed: int = 0,
    records: str | Path | None = None,
    name: str = "tuned",
    **run: Any,
) -> pd.DataFrame:
    """``heuristic`` against each of ``opponents`` with the same search and budget.

    ``budget`` is one of ``{"depth": D}`` (equal depth) and ``{"time_ms": T}`` (equal
    time per move). One
    session per opponent (``NAME-vs-OPPONENT``): every template (default
    :func:`default_templates`) ``repetitions`` times from random openings of
    ``opening_plies`` plies, kept in ``records`` (a folder) if given. ``run`` is how to
    play them, as :func:`~chameleon_lab.tournament.runner.run_session` takes it
    (``workers``, ``client``, ``progress``). One row per opponent: games, wins, draws,
    losses of ``heuristic``, its win rate with a 95 % Wilson interval and its share of
    points.
    """
    if not isinstance(budget, Mapping) or len(budget) != 1 or set(budget) - {"depth", "time_ms"}:
        raise ValueError(
            f"budget must be one of {{'depth': D}} and {{'time_ms': T}}, got {budget!r}"
        )
    if isinstance(opponents, str) or not opponents:
        raise ValueError(f"opponents must be a list of heuristic names, got {opponents!r}")
    registry = get_game(game).heuristics
    own = registry.get(heuristic)
    budget = dict(budget)
    templates = tuple(default_templates(game) if templates is None else templates)
    templates = check_templates(templates)
    rows = []
    for opp in opponents:
        registry.get(opp)  # a known heuristic, or ValueError naming the valid ones
        session = Session(
            f"{name}-vs-{opp}",
            {
                "tuned": {"algorithm": algorithm, "heuristic": own.name, **budget},
                "opponent": {"algorithm": algorithm, "heuristic": opp, **budget},
            },
            design="fixed",
            seatings=_seatings(templates, "tuned", "opponent"),
            repetitions=repetitions,
            seed=seed,
            game=game,
            opening_plies=opening_plies,
            openings="per_repetition",  # game pairs: both sides of every opening
        )
        got = _scores(_play(session, records, **run))
        row = got.loc["tuned"]
        rows.append(
            {
                "heuristic": own.name,
                "opponent": opp,
                "budget": _budget_words(budget),
                "games": int(row["games"]),
                "wins": int(row["wins"]),
                "draws": int(row["draws"]),
                "losses": int(row["losses"]),
                "win_rate": float(row["win_rate"]),
                "ci_low": float(row["ci_low"]),
                "ci_high": float(row["ci_high"]),
                "score": float(row["score"]),
            }
        )
    return pd.DataFrame(rows)
