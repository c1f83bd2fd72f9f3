"""TD-Leaf(lambda): the weights of a linear evaluation learned from self-play.

Baxter, Tridgell & Weaver ("Learning to Play Chess Using Temporal Differences", Machine
Learning 40, 243-263, 2000; KnightCap, 1998) adapt Sutton's TD(lambda) to a program that
searches: the value a search gives a position is the evaluation of the *leaf* of its
principal variation, so it is that leaf's evaluation, not the root's, that moves toward
the values found later in the game. With the leaves ``l_1 .. l_N`` of the positions of
one game (every ply, both sides, all from the first player's view), their squashed
values ``v_t = tanh(beta * phi(l_t) . w)`` and the game's result ``r`` in place of a
value after the last one, the temporal differences are ``d_t = v_{t+1} - v_t``
(``d_N = r - v_N``) and one game moves the weights by

    w += alpha * sum_t grad v_t * sum_{j >= t} lambda^(j - t) d_j,
    grad v_t = beta * (1 - v_t^2) * phi(l_t).

With ``lambda = 1`` the inner sum is ``r - v_t`` and the step is gradient descent on
``sum_t (r - v_t)^2 / 2`` (each leaf toward the result); with ``lambda = 0`` each leaf
moves toward the next one's value. The features ``phi`` are those of the game's weighted
heuristics (:mod:`chameleon_lab.games.weighted`), for a two-player game each feature of
the first player less the second's, so that the learned weights are a weighted
heuristic like any other: registered, fingerprinted, compiled into every search.

More than two players (Chameleon Chess with three or four, the thesis's setting) is the
same update once per seat, averaged: seat ``p`` sees its player's features less the
mean of the other seats' (so the seats' values sum to 0, as a zero-sum game's do), its
values ``tanh(beta * phi_p . w)`` over every searched position of the game (whoever
searched it), and its result ``r_p``, the mean over the other seats of +1 for finishing
ahead of one, 0 level, -1 behind (:func:`seat_results`: the winner of a
winner-takes-all game of ``n`` gets 1, every other seat ``-1 / (n - 1)``; the results
sum to 0). With two players both seats' steps are the one above, so their mean is it
exactly. Self-play then searches with a multi-player search (Paranoid, MaxN, BRS, ...),
each giving a principal variation whose leaf is what it valued.

Here both sides of every training game are the learner (self-play). The paper credits
KnightCap's rise largely to playing on-line against varied human opponents rather than
itself, so whether self-play alone teaches anything here is a question for the duels
(:mod:`chameleon_lab.analysis.headtohead`), not an assumption.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.signal import lfilter
from tqdm.auto import tqdm

from ..checks import whole_number
from ..files import atomic_write_text
from ..games.chameleon import ORIGINAL_MOVE_LIMIT
from ..games.match import players_in_game
from ..games.protocol import MAX_PLAYERS
from ..games.registry import game_entry, get_game
from ..games.weighted import (
    check_features,
    features_of,
    weighted_function,
    weighted_heuristic,
    weighted_name,
)
from ..search.api import search
from ..search.registry import get_algorithm
from ..tournament.designs import seating_game
from ..tournament.play import versions


def discounted_sums(d: np.ndarray, lam: float) -> np.ndarray:
    """``e_t = sum_{j >= t} lam^(j - t) d_j`` for every ``t`` (a first-order filter run
    backwards over the differences)."""
    d = np.asarray(d, dtype=float)
    return lfilter([1.0], [1.0, -lam], d[::-1])[::-1]


def td_leaf_step(
    phi: np.ndarray,
    result: float,
    weights: np.ndarray,
    *,
    alpha: float,
    lam: float,
    beta: float,
    known: np.ndarray | None = None,
) -> np.ndarray:
    """The weights after one game: ``phi`` the features of its principal variations'
    leaves, one row per searched position in the order played, ``result`` the game's
    outcome for the first player in ``[-1, 1]`` (see the module doc); ``known``, where
    not NaN, the value of a leaf that ends the game (its result: no gradient there)."""
    phi = np.asarray(phi, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if phi.ndim != 2 or phi.shape[1] != weights.shape[0]:
        raise ValueError(
            f"phi must be one row of {weights.shape[0]} features per position, "
            f"got shape {phi.shape}"
        )
    if not -1.0 <= result <= 1.0:
        raise ValueError(f"result must be in [-1, 1] (the first player's), got {result!r}")
    if phi.shape[0] == 0:
        return weights.copy()
    v = np.tanh(beta * (phi @ weights))
    grad = beta * (1.0 - v**2)[:, None] * phi
    if known is not None:
        decided = ~np.isnan(np.asarray(known, dtype=float))
        v = np.where(decided, known, v)
        grad[decided] = 0.0
    d = np.diff(np.append(v, result))
    return weights + alpha * (grad.T @ discounted_sums(d, lam))


# ------------------------------------------------------------------- self-play
def leaf_of(position: Any, pv: Sequence[int]) -> Any:
    """The position at the end of the principal variation ``pv`` (kernel move codes)
    played from ``position`` (``ValueError`` for a line that leaves the legal moves)."""
    for move in position.decode_line(pv):
        position = position.play(move)
    return position


def feature_functions(game: str, features: Sequence[str]) -> list[Callable]:
    """One compiled heuristic per feature, its weight 1 and every other 0 (the game's
    weighted heuristics, :mod:`chameleon_lab.games.weighted`)."""
    features = check_features(game, features)
    return [weighted_function(game, {f: 1.0}) for f in features]


def features_of_position(
    position: Any, functions: Sequence[Callable], seats: Sequence[int] = (0, 1)
) -> np.ndarray:
    """A row per seat of ``seats``: each feature of that seat's player in ``position``
    less the mean of the other seats' (two players: the first's less the second's, and
    its negation)."""
    out = np.zeros(MAX_PLAYERS)
    raw = np.empty((len(seats), len(functions)))
    for i, evaluate in enumerate(functions):
        evaluate(position.state, out)
        raw[:, i] = out[list(seats)]
    return raw - (raw.sum(axis=0) - raw) / (len(seats) - 1)


def seat_results(returns: Sequence[float], seats: Sequence[int] = (0, 1)) -> np.ndarray:
    """Each seat's result in ``[-1, 1]`` from a finished game's ``returns``: the mean
    over the other seats of the sign of its return less theirs (+1 ahead, 0 level, -1
    behind). Two players: 1 won, 0 drawn, -1 lost; the results always sum to 0."""
    r = np.asarray([float(returns[s]) for s in seats])
    return np.sign(r[:, None] - r[None, :]).sum(axis=1) / (len(seats) - 1)


def td_leaf_update(
    phi: np.ndarray,
    results: np.ndarray,
    weights: np.ndarray,
    *,
    alpha: float,
    lam: float,
    beta: float,
    known: np.ndarray | None = None,
) -> np.ndarray:
    """The weights after one game of any number of seats: ``phi`` of shape
    ``(positions, seats, features)`` (:func:`features_of_position` per leaf),
    ``results`` a result per seat (:func:`seat_results`), ``known`` of shape
    ``(positions, seats)`` or None; the mean over the seats of :func:`td_leaf_step` on
    each seat's own sequence (see the module doc)."""
    phi = np.asarray(phi, dtype=float)
    results = np.asarray(results, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if phi.ndim != 3 or results.ndim != 1 or phi.shape[1] != results.shape[0]:
        raise ValueError(
            f"phi must have shape (positions, seats, features) with a seat per result "
            f"({results.shape} results), got {phi.shape}"
        )
    steps = [
        td_leaf_step(phi[:, s], float(results[s]), weights, alpha=alpha, lam=lam, beta=beta,
                     known=None if known is None else np.asarray(known)[:, s]) - weights
        for s in range(results.shape[0])
    ]  # fmt: skip
    return weights + np.mean(steps, axis=0)


@dataclass
class SelfPlayGame:
    """One game of self-play: per searched position and seat the features of the
    search's leaf (:func:`features_of_position`; zeros where the leaf is the end of the
    game), the leaves' known values (the seats' results where the leaf ends the game,
    NaN elsewhere), each seat's result (:func:`seat_results`), the moves played."""

    phi: np.ndarray
    known: np.ndarray
    results: np.ndarray
    moves: list[str]

    @property
    def result(self) -> float:
        """The first seat's result."""
        return float(self.results[0])


def self_play(
    game: Any, heuristic: str, functions: Sequence[Callable], depth: int, rng: np.random.Generator,
    opening_plies: int = 4, algorithm: str = "alphabeta", move_limit: int = ORIGINAL_MOVE_LIMIT,
) -> SelfPlayGame:  # fmt: skip
    """A game of ``algorithm`` at ``depth`` with ``heuristic`` at every seat after
    ``opening_plies`` random moves (drawn from ``rng``), each search's leaf kept;
    stopped after ``move_limit`` moves (the openings' included) as a session stops it,
    the players still in the game then sharing the best result
    (:class:`~chameleon_lab.games.match.Match`)."""
    seats = tuple(game.info.players)
    position = game.start()
    moves = []
    for _ in range(opening_plies):
        if position.is_over:
            break
        move = position.legal_moves[int(rng.integers(len(position.legal_moves)))]
        moves.append(str(move))
        position = position.play(move)
    rows, known = [], []
    while not position.is_over and len(moves) < move_limit:
        result = search(position, algorithm, depth=depth, heuristic=heuristic)
        leaf = leaf_of(position, result.pv)
        if leaf.is_over:
            rows.append(np.zeros((len(seats), len(functions))))
            known.append(seat_results(leaf.returns, seats))
        else:
            rows.append(features_of_position(leaf, functions, seats))
            known.append(np.full(len(seats), np.nan))
        move = position.legal_moves[result.index]
        moves.append(str(move))
        position = position.play(move)
    phi = np.array(rows).reshape(len(rows), len(seats), len(functions))
    known_ = np.array(known, dtype=float).reshape(len(rows), len(seats))
    return SelfPlayGame(phi, known_, seat_results(final_returns(position), seats), moves)


def final_returns(position: Any) -> tuple[float, ...]:
    """A finished game's returns; where the move limit stopped it, 1 for the players
    still in it and -1 for the others, as :class:`~chameleon_lab.games.match.Match`
    scores it."""
    if position.is_over:
        return tuple(position.returns)
    alive = {int(p) for p in players_in_game(position)}
    return tuple(1.0 if p in alive else -1.0 for p in range(MAX_PLAYERS))


def self_play_search(game: str, players: int, algorithm: str) -> str:
    """The registry name of ``algorithm`` for self-play of ``game`` seating ``players``:
    ``ValueError`` naming what is wrong for an unknown game, player count or search,
    and for a two-player search where more players (or a game not zero-sum) play."""
    info = seated_game(game, players).info  # a known game and count
    entry = get_algorithm(algorithm)  # a known search, or ValueError naming them
    if entry.two_player and not (info.n_players == 2 and info.zero_sum):
        raise ValueError(
            f"{entry.name} searches two-player zero-sum games; {game} with {players} "
            "players is not one (take paranoid, maxn or brs)"
        )
    return entry.name


def seated_game(name: str, players: int) -> Any:
    """The game ``name`` with its first ``players`` seats taken (Chameleon Chess and
    Rolit seat two to four of four colours); ``ValueError`` naming the counts it seats."""
    if game_entry(name).seats is not None:
        whole_number("players", players, 2, MAX_PLAYERS, what=f" for {name}")
        return seating_game(name, {}, [0] * players)
    built = get_game(name)
    if isinstance(players, bool) or players != built.info.n_players:
        raise ValueError(f"{name} seats {built.info.n_players} players, got players={players!r}")
    return built


# ------------------------------------------------------------------- training
@dataclass(frozen=True)
class TDLeafSpec:
    """A training run: the game (with weighted features) and its ``players``, the
    features learned and their start weights (default: every feature of the game,
    weight 1), the ``algorithm`` of self-play (alpha-beta for two players; a
    multi-player search such as Paranoid for more) and its depth, the number of games
    and how many are played with
    the same weights before they move (``batch``: each new weight vector is a new
    compiled heuristic, so the searches compile once a batch), the step ``alpha``,
    ``lam`` and the squashing ``beta`` (see the module doc), random opening plies and
    the seed (game ``g`` draws its opening from ``(seed, g)``), and the moves after
    which a self-play game stops (a session's limit, the original program's 100)."""

    game: str = "connect4"
    features: tuple[str, ...] = ()
    start: tuple[float, ...] = ()
    depth: int = 2
    games: int = 40
    batch: int = 10
    alpha: float = 0.05
    lam: float = 0.7
    beta: float = 0.1
    opening_plies: int = 4
    seed: int = 0
    players: int = 2
    algorithm: str = "alphabeta"
    move_limit: int = ORIGINAL_MOVE_LIMIT

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "algorithm", self_play_search(self.game, self.players, self.algorithm)
        )
        features = check_features(self.game, self.features or features_of(self.game))
        start = tuple(float(w) for w in (self.start or [1.0] * len(features)))
        if len(start) != len(features) or min(start) < 0 or not any(start):
            raise ValueError(
                f"start must be {len(features)} weights >= 0, not all 0 "
                f"({', '.join(features)}), got {self.start!r}"
            )
        object.__setattr__(self, "features", features)
        object.__setattr__(self, "start", start)
        for name in ("depth", "games", "batch", "move_limit"):
            object.__setattr__(self, name, whole_number(name, getattr(self, name)))
        for name in ("alpha", "lam", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{name} must be a number, got {value!r}")
        if not (0 < self.alpha < np.inf and 0 < self.beta < np.inf and 0 <= self.lam <= 1):
            raise ValueError(
                f"alpha and beta must be finite and above 0, lam in [0, 1]; got alpha "
                f"{self.alpha!r}, beta {self.beta!r}, lam {self.lam!r}"
            )

    @property
    def fingerprint(self) -> str:
        """A short hash of the parameters, naming the run's checkpoint file."""
        return hashlib.sha256(json.dumps(self.to_dict()).encode()).hexdigest()[:10]

    def to_dict(self) -> dict[str, Any]:
        """The parameters as plain JSON values; those added with more than two players
        (:data:`LATER_FIELDS`) only where they differ from their defaults, so a run made
        before them keeps its fingerprint and checkpoint."""
        out = asdict(self)
        for name, default in LATER_FIELDS.items():
            if out[name] == default:
                del out[name]
        return {k: list(v) if isinstance(v, tuple) else v for k, v in out.items()}


#: The fields of :class:`TDLeafSpec` added after the first runs were committed, with the
#: defaults those runs had.
LATER_FIELDS: dict[str, Any] = {
    "players": 2,
    "algorithm": "alphabeta",
    "move_limit": ORIGINAL_MOVE_LIMIT,
}


def _read_checkpoint(path: Path, spec: TDLeafSpec) -> list[dict[str, Any]]:
    """The batches a checkpoint holds; ``ValueError`` if it is another run's."""
    data = json.loads(path.read_text())
    if data.get("spec") != spec.to_dict():
        raise ValueError(
            f"{path} holds another training run ({data.get('spec')}); give another "
            f"file or the same parameters ({spec.to_dict()})"
        )
    return list(data["batches"])


def _feasible(weights: np.ndarray, spec: TDLeafSpec) -> np.ndarray:
    """The weights kept at or above 0 (a weighted heuristic's scores must stay
    positive); ``ValueError`` if every one fell to 0."""
    weights = np.maximum(weights, 0.0)
    if not weights.any():
        raise ValueError(f"every weight fell to 0; try a smaller alpha than {spec.alpha}")
    return weights


def _name(spec: TDLeafSpec, weights: Sequence[float]) -> str:
    """The registry name of the weighted heuristic of ``weights``."""
    return weighted_name(spec.game, dict(zip(spec.features, weights, strict=True)))


def train(
    spec: TDLeafSpec, checkpoint: str | Path | None = None, *, progress: bool = True
) -> pd.DataFrame:
    """Learn ``spec``'s weights by TD-Leaf(lambda) from self-play; one row for the start
    (0 games) and one per batch (its last game, the weights after it with the name of
    their weighted heuristic, the first player's mean result in it). With a
    ``checkpoint`` file every finished batch is written to it atomically (with the
    parameters and the versions) and a later call with the same parameters resumes
    after the last one: an interrupted run loses at most the batch it was playing."""
    path = Path(checkpoint) if checkpoint is not None else None
    rows = _read_checkpoint(path, spec) if path is not None and path.exists() else []
    weights = np.array(rows[-1]["weights"] if rows else spec.start, dtype=float)
    game = seated_game(spec.game, spec.players)
    functions = feature_functions(spec.game, spec.features)
    done = rows[-1]["games"] if rows else 0
    with tqdm(total=spec.games, initial=done, desc="TD-Leaf", unit="game",
              disable=not progress) as bar:  # fmt: skip
        while done < spec.games:
            current = dict(zip(spec.features, weights, strict=True))
            heuristic = weighted_heuristic(spec.game, current).name
            step, results = np.zeros_like(weights), []
            for g in range(done, min(done + spec.batch, spec.games)):
                rng = np.random.default_rng([spec.seed, g])
                played = self_play(game, heuristic, functions, spec.depth, rng,
                                   spec.opening_plies, spec.algorithm, spec.move_limit)  # fmt: skip
                step += td_leaf_update(
                    played.phi, played.results, weights, alpha=spec.alpha, lam=spec.lam,
                    beta=spec.beta, known=played.known,
                ) - weights  # fmt: skip
                results.append(played.result)
                bar.update(1)
            done += len(results)
            weights = _feasible(weights + step, spec)
            rows.append({"games": done, "weights": weights.tolist(),
                         "heuristic": _name(spec, weights),
                         "mean_result": float(np.mean(results))})  # fmt: skip
            if path is not None:
                payload = {"spec": spec.to_dict(), "versions": versions(), "batches": rows}
                atomic_write_text(path, json.dumps(payload, indent=1))
    first = {"games": 0, "weights": list(spec.start), "heuristic": _name(spec, spec.start),
             "mean_result": np.nan}  # fmt: skip
    table = pd.DataFrame([first, *rows])
    for i, f in enumerate(spec.features):
        table[f] = [w[i] for w in table["weights"]]
    return table.drop(columns="weights")
