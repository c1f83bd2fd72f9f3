"""A value network learned from self-play games (the second kind of learned evaluation).

:mod:`.tdleaf` learns the weights of hand-picked features; here a small perceptron
learns an evaluation from the board itself. Self-play games (every seat the same
search and heuristic: alpha-beta for two players, a multi-player search such as
Paranoid for more; a share of random moves so the positions vary) give positions
labelled by the game's result: for two players the result for the player to move
there (1 won, 0 drawn, -1 lost), for more each seat's share of it, seats counted from
the player to move (1 for the winner, split among the players still on the board where
the move limit stopped the game). These are Monte Carlo targets, as AlphaGo's value
network was trained on the outcomes of its self-play games (Silver et al., Nature 529,
484-489, 2016); scikit-learn's ``MLPRegressor`` fits one hidden layer to them (one
output, or one per seat) by Adam on the squared error, an epoch at a time; the
trained arrays
become a :class:`~chameleon_lab.games.valuenet.ValueNet`, compiled into every search
as a heuristic (:func:`~chameleon_lab.games.valuenet.net_heuristic`).

:func:`train_net` keeps a checkpoint: the positions once played (``positions.npz``) and
the regressor after every epoch (with its random state), so an interrupted training
resumes at its last finished epoch and ends where an uninterrupted one does; the held-out
error of every epoch is its learning curve, and the epoch where it was lowest is the
network kept (early stopping: a perceptron fitted to a few thousand noisy results
overfits within a few epochs). Seeded throughout: the same parameters give
the same network.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from dataclasses import asdict, dataclass, replace
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..agents import Agent
from ..checks import whole_number
from ..files import atomic_write
from ..games.chameleon import ORIGINAL_MOVE_LIMIT
from ..games.registry import game_entry, get_game
from ..games.valuenet import ACTIVATIONS, ValueNet, encoding, load_net
from ..tournament.designs import seating_game
from ..version import __version__
from .tdleaf import final_returns, seated_game, self_play_search

#: What a checkpoint says it is.
CHECKPOINT_KIND = "chameleon_lab.valuenet.training"
#: The fields of :class:`NetSpec` that decide the self-play games.
SELF_PLAY = ("game", "games", "depth", "heuristic", "random_move", "opening_plies", "seed",
             "players", "algorithm", "move_limit")  # fmt: skip
#: The fields of :class:`NetSpec` added with more than two players, with the defaults
#: the runs made before them had (left out of the fingerprints at those defaults).
LATER_FIELDS: dict[str, Any] = {
    "players": 2,
    "algorithm": "alphabeta",
    "move_limit": ORIGINAL_MOVE_LIMIT,
    "train_games": None,
}


@dataclass(frozen=True)
class NetSpec:
    """A training run: ``games`` self-play games of ``algorithm`` (alpha-beta for two
    players, a multi-player search such as Paranoid for more) at ``depth`` with
    ``heuristic`` (None: the game's default), ``players`` seated, after
    ``opening_plies`` random plies, each later move random with probability
    ``random_move``, stopped after ``move_limit`` moves; a hidden layer of ``hidden``
    units (``activation``), ``epochs`` epochs of Adam (step ``learning_rate``, L2
    penalty ``l2``, minibatches of ``minibatch``), ``holdout`` of the games kept out of
    training to measure the error; ``seed`` for everything; ``train_games`` where only
    the first games train (a point of :func:`~.learning.net_strength_curve`).
    ``ValueError`` naming a value outside its range."""

    game: str = "connect4"
    games: int = 200
    depth: int = 2
    heuristic: str | None = None
    random_move: float = 0.1
    opening_plies: int = 4
    hidden: int = 32
    activation: str = "relu"
    epochs: int = 30
    learning_rate: float = 3e-4  # measured: 1e-3 overfits 2,000 games by the second epoch
    l2: float = 1e-4
    minibatch: int = 256
    holdout: float = 0.2
    seed: int = 0
    players: int = 2
    algorithm: str = "alphabeta"
    move_limit: int = ORIGINAL_MOVE_LIMIT
    #: only the self-play games numbered below this train (the held-out games stay
    #: those of all ``games``): a point of the strength curve; None: every game
    train_games: int | None = None

    def __post_init__(self) -> None:
        built = get_game(self.game)
        encoding(built.name)  # a game with an encoding, or ValueError naming them
        object.__setattr__(self, "game", built.name)
        object.__setattr__(
            self, "algorithm", self_play_search(self.game, self.players, self.algorithm)
        )
        if self.heuristic is None:
            object.__setattr__(self, "heuristic", built.heuristics.default)
        built.heuristics.get(self.heuristic)  # a known heuristic, or ValueError naming them
        for name, low in (("games", 2), ("depth", 1), ("opening_plies", 0), ("hidden", 1),
                          ("epochs", 1), ("minibatch", 1), ("seed", 0),
                          ("move_limit", 1)):  # fmt: skip
            whole_number(name, getattr(self, name), low)
        for name, value, ok in (
            ("random_move", self.random_move, 0.0 <= self.random_move < 1.0),
            ("holdout", self.holdout, 0.0 < self.holdout < 1.0),
            ("learning_rate", self.learning_rate, self.learning_rate > 0.0),
            ("l2", self.l2, self.l2 >= 0.0),
        ):
            if isinstance(value, bool) or not np.isfinite(value) or not ok:
                raise ValueError(f"{name} out of range, got {value!r}")
        if self.train_games is not None:
            whole_number("train_games", self.train_games, 1)
            if self.train_games > self.games:
                raise ValueError(f"train_games must be at most games ({self.games}), "
                                 f"got {self.train_games}")  # fmt: skip
        if self.activation not in ACTIVATIONS:
            raise ValueError(
                f"unknown activation {self.activation!r}; valid: {', '.join(ACTIVATIONS)}"
            )

    def to_dict(self) -> dict[str, Any]:
        """The parameters as plain JSON values; those added with more than two players
        (:data:`LATER_FIELDS`) only where they differ from their defaults, so a run made
        before them keeps its fingerprint, checkpoint and model file."""
        out = asdict(self)
        for name, default in LATER_FIELDS.items():
            if out[name] == default:
                del out[name]
        return out

    @property
    def fingerprint(self) -> str:
        """A short hash of every parameter."""
        text = json.dumps(self.to_dict(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    @property
    def games_fingerprint(self) -> str:
        """A short hash of what decides the self-play games (:data:`SELF_PLAY`), so that
        runs that differ only in their training share the positions."""
        fields = self.to_dict()
        text = json.dumps({k: fields[k] for k in SELF_PLAY if k in fields}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    @property
    def params(self) -> dict[str, Any]:
        """The parameters of the game its self-play seats (the model's)."""
        return dict(seated_game(self.game, self.players).params)


def selfplay_positions(spec: NetSpec, *, progress: bool = True) -> dict[str, np.ndarray]:
    """The positions of ``spec``'s self-play games: ``x`` (one row of inputs each, as
    the game's :class:`~chameleon_lab.games.valuenet.Encoding` writes them), ``y`` (the
    label: the result for the player to move, 1, 0 or -1, or a row of the seats'
    shares) and ``game`` (the game each came from), every unfinished position after the
    opening; game ``g`` is drawn from ``(seed, g)`` alone and seats the ``g``-th of
    :func:`seatings` (in turn)."""
    games = seatings(spec.game, spec.players)
    code = encoding(spec.game)
    xs, ys, ids = [], [], []
    for g in tqdm(range(spec.games), desc="self-play", unit="game", disable=not progress):
        built = games[g % len(games)]
        params = dict(built.params)
        rng = np.random.default_rng([spec.seed, g])
        agent = Agent(spec.algorithm, heuristic=spec.heuristic, depth=spec.depth,
                      random_move_probability=spec.random_move, seed=int(rng.integers(2**31)),
                      game=spec.game)  # fmt: skip
        position, moves = built.start(), 0
        for _ in range(spec.opening_plies):
            if position.is_over:
                break
            position = position.play(
                position.legal_moves[int(rng.integers(len(position.legal_moves)))]
            )
            moves += 1
        seen: list[tuple[np.ndarray, np.ndarray]] = []
        while not position.is_over and moves < spec.move_limit:
            state = np.array(position.state)
            seen.append((code.encode(state, params), state))
            position = position.play(agent.choose(position).move)
            moves += 1
        returns = final_returns(position)
        for x, state in seen:
            xs.append(x)
            ys.append(code.target(returns, state, params))
            ids.append(g)
    width, outputs = code.inputs(spec.params), code.outputs(spec.params)
    y = np.array(ys, dtype=np.float64)
    if outputs > 1:
        y = y.reshape(len(ys), outputs)
    return {"x": np.array(xs, dtype=np.float64).reshape(len(xs), width), "y": y,
            "game": np.array(ids)}  # fmt: skip


def seatings(game: str, players: int) -> list[Any]:
    """The games self-play seats in turn: every seating of ``players`` of the colours
    where the game seats some of them (Chameleon Chess, Rolit: a network then knows
    every seating, as sessions play them all), else the game itself."""
    if game_entry(game).seats is None:
        return [seated_game(game, players)]
    seated_game(game, players)  # a count the game seats, or ValueError naming them
    colours = get_game(game).info.n_players
    return [
        seating_game(game, {}, [0 if c in chosen else None for c in range(colours)])
        for chosen in combinations(range(colours), players)
    ]


def _split(spec: NetSpec, data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Masks of the training and the held-out positions: whole games held out (a game's
    positions are alike), chosen from the seed; with ``train_games`` only the games
    numbered below it train, against the same held-out games."""
    out = np.isin(data["game"], held_games(spec))
    train = ~out
    if spec.train_games is not None:
        train &= data["game"] < spec.train_games
        if not train.any():
            raise ValueError(f"train_games {spec.train_games} leaves no game to train on "
                             "(every game below it is held out)")  # fmt: skip
    return train, out


def held_games(spec: NetSpec) -> np.ndarray:
    """The numbers of the self-play games held out of training (drawn from the seed)."""
    rng = np.random.default_rng([spec.seed, 0x484F4C44])
    return rng.permutation(spec.games)[: max(1, round(spec.holdout * spec.games))]


def training_games(spec: NetSpec) -> int:
    """How many self-play games train ``spec``'s network (those not held out, below
    ``train_games`` where it is given)."""
    last = spec.games if spec.train_games is None else spec.train_games
    return last - int(np.sum(held_games(spec) < last))


def _regressor(spec: NetSpec) -> Any:
    from sklearn.neural_network import MLPRegressor

    return MLPRegressor(
        hidden_layer_sizes=(spec.hidden,), activation=spec.activation, solver="adam",
        alpha=spec.l2, batch_size=spec.minibatch, learning_rate_init=spec.learning_rate,
        shuffle=True, random_state=spec.seed,
    )  # fmt: skip


def _to_net(spec: NetSpec, model: Any, epochs: int) -> ValueNet:
    meta = {"spec": spec.to_dict(), "epochs": epochs, "version": __version__}
    w2, b2 = model.coefs_[1], model.intercepts_[1]
    if encoding(spec.game).outputs(spec.params) == 1:
        w2, b2 = w2[:, 0], float(b2[0])
    return ValueNet(spec.game, spec.params, model.coefs_[0], model.intercepts_[0], w2, b2,
                    spec.activation, meta)  # fmt: skip


def train_net(
    spec: NetSpec, folder: str | Path | None = None, *, progress: bool = True,
    stop_after: int | None = None,
) -> tuple[ValueNet, pd.DataFrame]:  # fmt: skip
    """Train ``spec``'s network; the network and its learning curve (one row per
    epoch: ``epoch``, ``train_mse``, ``holdout_mse``, the squared errors of the
    clipped outputs on the training and held-out positions, ``holdout_constant_mse``
    the held-out error of the best constant, the training positions' mean result,
    which a network that learned anything beats, the positions of each part, and
    ``kept``, the epoch returned: the one with the lowest held-out error (early
    stopping; the solved positions and the duels, which it never saw, test it).

    With ``folder``, everything is kept there atomically: the self-play positions
    (``valuenet-games-FINGERPRINT.npz``, shared by runs of the same games), every
    finished epoch (``valuenet-FINGERPRINT.ckpt``: a later call resumes after the
    last one) and the finished network with its curve in its metadata
    (``valuenet-FINGERPRINT.npz``: a later call reads it alone, so a committed run
    needs neither checkpoint nor positions). ``stop_after`` stops after that many
    epochs in all (to split a run)."""
    base = Path(folder) / f"valuenet-{spec.fingerprint}" if folder is not None else None
    finished = _finished(spec, base)
    if finished is not None and stop_after is None:
        return finished
    data = _positions(spec, base, progress)
    train, held = _split(spec, data)
    guess = np.mean(data["y"][train], axis=0)  # the best constant: what the net must beat
    baseline = float(np.mean((data["y"][held] - guess) ** 2))
    model, rows, best = _resume(spec, base)
    model.set_params(batch_size=min(spec.minibatch, int(train.sum())))  # small runs: all
    last = spec.epochs if stop_after is None else min(spec.epochs, stop_after)
    with tqdm(total=spec.epochs, initial=len(rows), desc="training", unit="epoch",
              disable=not progress) as bar:  # fmt: skip
        for epoch in range(len(rows), last):
            model.partial_fit(data["x"][train], data["y"][train])
            net = _to_net(spec, model, epoch + 1)
            rows.append(
                {
                    "epoch": epoch + 1,
                    "train_mse": _mse(net, data["x"][train], data["y"][train]),
                    "holdout_mse": _mse(net, data["x"][held], data["y"][held]),
                    "holdout_constant_mse": baseline,
                    "positions": int(train.sum()),
                    "holdout_positions": int(held.sum()),
                }
            )
            if best is None or rows[-1]["holdout_mse"] < min(r["holdout_mse"] for r in rows[:-1]):
                best = net  # early stopping: the epoch the held-out games liked best
            if base is not None:
                state = pickle.dumps({"kind": CHECKPOINT_KIND, "spec": spec.to_dict(),
                                      "model": model, "rows": rows, "best": best})  # fmt: skip
                atomic_write(base.with_suffix(".ckpt"), lambda tmp, s=state: tmp.write_bytes(s))
            bar.update(1)
    if best is None:
        raise ValueError("no epoch trained (stop_after 0?)")
    if base is not None and len(rows) == spec.epochs:  # the model file, curve in its meta
        replace(best, meta={**best.meta, "curve": rows}).save(base.with_suffix(".npz"))
    return best, _curve(rows, best.meta["epochs"])


def _curve(rows: list[dict[str, Any]], kept: int) -> pd.DataFrame:
    curve = pd.DataFrame(rows)
    curve["kept"] = curve["epoch"] == kept
    return curve


def _finished(spec: NetSpec, base: Path | None) -> tuple[ValueNet, pd.DataFrame] | None:
    """The network and curve of a finished run of ``spec`` from its model file (which
    needs neither the positions nor the checkpoint), or None."""
    path = base.with_suffix(".npz") if base is not None else None
    if path is None or not path.exists():
        return None
    net = load_net(path, game=spec.game, players=spec.players)
    rows = net.meta.get("curve") or []
    if net.meta.get("spec") != spec.to_dict() or len(rows) != spec.epochs:
        return None
    return replace(net, meta={k: v for k, v in net.meta.items() if k != "curve"}), _curve(
        rows, net.meta["epochs"]
    )


def _mse(net: ValueNet, x: np.ndarray, y: np.ndarray) -> float:
    """The mean squared error of the network's clipped outputs on ``x`` against ``y``."""
    return float(np.mean((net.predict(x) - y) ** 2))


def _positions(spec: NetSpec, base: Path | None, progress: bool) -> dict[str, np.ndarray]:
    """The self-play positions, read from the checkpoint folder where they were kept."""
    path = (
        base.with_name(f"valuenet-games-{spec.games_fingerprint}.npz") if base is not None else None
    )
    if path is not None and path.exists():
        with np.load(path, allow_pickle=False) as kept:
            return {k: kept[k] for k in ("x", "y", "game")}
    data = selfplay_positions(spec, progress=progress)
    if path is not None:

        def write(tmp: Path) -> None:
            with open(tmp, "wb") as f:
                np.savez_compressed(f, **data)

        atomic_write(path, write)
    return data


def _resume(spec: NetSpec, base: Path | None) -> tuple[Any, list[dict[str, Any]], ValueNet | None]:
    """The regressor, curve and best network of the last finished epoch, or a fresh
    regressor."""
    path = base.with_suffix(".ckpt") if base is not None else None
    if path is None or not path.exists():
        return _regressor(spec), [], None
    state = pickle.loads(path.read_bytes())  # our own checkpoint, named by fingerprint
    if state.get("kind") != CHECKPOINT_KIND or state.get("spec") != spec.to_dict():
        raise ValueError(f"{path} is the checkpoint of another training run")
    return state["model"], list(state["rows"]), state["best"]


def net_sentences(net: ValueNet, curve: pd.DataFrame) -> str:
    """What the training did, in words, from its curve."""
    kept = curve[curve["kept"]].iloc[0]
    beat = kept["holdout_mse"] < kept["holdout_constant_mse"]
    return (
        f"The value network {net.name} ({net.w1.shape[0]} inputs, {net.hidden} hidden, "
        f"{net.activation}) trained {len(curve)} epochs on {int(kept['positions'])} "
        f"self-play positions and is kept at epoch {int(kept['epoch'])}, where its squared "
        f"error on {int(kept['holdout_positions'])} positions of held-out games was lowest: "
        f"{kept['holdout_mse']:.3f} (first epoch {curve['holdout_mse'].iloc[0]:.3f}, last "
        f"{curve['holdout_mse'].iloc[-1]:.3f}) against {kept['holdout_constant_mse']:.3f} "
        "for the best constant guess: "
        + ("it predicts results better than a constant." if beat else
           "no better than a constant: it has learned nothing that generalises.")
    )  # fmt: skip


def plot_net_curve(curve: pd.DataFrame) -> Any:
    """The training curve: squared error per epoch on the training and the held-out
    positions, with the held-out error of the best constant guess; one panel per
    ``setting`` where the table has that column (:func:`~.learning.train_nets`)."""
    import matplotlib.pyplot as plt

    parts = list(curve.groupby("setting", sort=False)) if "setting" in curve else [("", curve)]
    fig, axes = plt.subplots(1, len(parts), figsize=(6.0 if len(parts) == 1 else 4.2 * len(parts),
                                                     3.6), squeeze=False)  # fmt: skip
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, (label, part) in zip(axes[0], parts, strict=True):
        ax.plot(part["epoch"], part["train_mse"], marker="o", color=colours[0], label="training")
        ax.plot(part["epoch"], part["holdout_mse"], marker="s", color=colours[1],
                label="held-out games")  # fmt: skip
        ax.axhline(part["holdout_constant_mse"].iloc[0], color="0.5", linestyle="--",
                   linewidth=0.9, label="held-out, best constant")  # fmt: skip
        kept = part[part["kept"]]
        ax.plot(kept["epoch"], kept["holdout_mse"], marker="*", markersize=12, linestyle="none",
                color=colours[2], label="kept (lowest held-out)")  # fmt: skip
        ax.set_xlabel("epoch")
        ax.set_ylim(bottom=0)
        ax.set_title(f"Value network{f' ({label})' if label else ''}: error by epoch",
                     fontsize=10)  # fmt: skip
    axes[0][0].set_ylabel("mean squared error of the label")
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_net_strength(table: pd.DataFrame) -> Any:
    """:func:`~.plots.plot_strength_curve` of :func:`~.learning.net_strength_curve`'s
    rows: each network's Elo difference to the opponent against the self-play games it
    drew on, with its 95 % bootstrap interval."""
    from .plots import plot_strength_curve

    return plot_strength_curve(table, points="value network (trained on the first games)",
                               along="the self-play games")  # fmt: skip
