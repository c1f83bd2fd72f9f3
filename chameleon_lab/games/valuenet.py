"""Small value networks as heuristics: a trained perceptron evaluated inside the searches.

A :class:`ValueNet` is a multilayer perceptron with one hidden layer over a board
encoding, as :mod:`chameleon_lab.analysis.valuenet` trains it from self-play games.
:func:`net_heuristic` compiles its forward pass, with the trained arrays as constants,
into a heuristic like any other: registered with its game under ``net-<hash of the
arrays>``, fingerprinted by them, usable by every search, agent and session.

A game's :class:`Encoding` (:data:`ENCODINGS`) says how the network reads its
positions, what it predicts, and which game parameters a model is bound to; a model is
for one board size (Connect Four) or a number of players (Chameleon Chess).

- **Connect Four**, two players, one output: the expected result for the player to
  move (1 a win, 0 a draw, -1 a loss). Two inputs per cell, the stones of the player
  to move and the other's, ``2 * width * height`` in all, in the order of
  :func:`connect4_inputs`. The compiled forward pass does not build that vector: it
  walks each bitboard once and adds every stone's row of first-layer weights (its
  input's weights to every hidden unit, stored together) into that bitboard's sums,
  then the biases, the activation and the output layer (the same sums in the same
  order as a pass per hidden unit: the same outputs to the last bit, at about half the
  time; docs/benchmarks.md, "Learned evaluations"). It writes ``out[p] = 1
  + SCALE * (1 + v) / 2`` for the player ``p`` to move and ``out[q] = 1 + SCALE * (1 -
  v) / 2`` for the other, ``v`` the output clipped to ``[-1, 1]``, so ``out[p] -
  out[q]`` is ``SCALE * v`` and both stay positive and below the game's score bound.
- **Chameleon Chess**, two to four players, one output per turn-order slot counted
  from the mover: its share of the final result
  (:mod:`chameleon_lab.games.chameleon.valuenet`). A model is for games of at most as
  many players as it was trained on, in any seating (self-play plays every seating of
  that count in turn).

Neither allocates, as the searches require: the hidden sums are arrays on the stack
(``stack_floats`` of :mod:`chameleon_lab.stack_arrays`). On a board or player count it was not
trained for a model knows nothing, so every search, agent and session refuses such a game
before it plays (:meth:`ValueNet.check_params`, registered as the heuristic's
:attr:`~chameleon_lab.games.heuristics.Heuristic.fits`).

A model is saved as an ``.npz`` file (:meth:`ValueNet.save`, :func:`load_net`): the
arrays, the game and its parameters, the activation and what trained it. A file that
does not fit (another game, input size or player count, arrays of the wrong shapes,
non-finite numbers) is refused with what is wrong and what would be right.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from ..files import atomic_write
from ..stack_arrays import stack_floats
from .chameleon import valuenet as CV
from .connect4 import kernel as C4
from .heuristics import Heuristic
from .registry import get_game

#: What a model file says it is.
MODEL_KIND = "chameleon_lab.valuenet"
#: ``out[p] - out[q]`` for a certain win of the player to move.
SCALE = 1000.0
#: The activations of the hidden layer.
ACTIVATIONS = ("relu", "tanh")
#: Registered as ``PREFIX-<hash>``.
PREFIX = "net"
#: Bits of a bitboard: the rows of a compiled model's weight table.
BITS = 64


def connect4_size(params: Mapping[str, Any]) -> tuple[int, int]:
    """``(width, height)`` of a Connect Four board from a game's parameters."""
    return int(params.get("width", 7)), int(params.get("height", 6))


def connect4_inputs(state: np.ndarray) -> np.ndarray:
    """A Connect Four position as the network sees it: ``2 * width * height`` zeros
    and ones, first the cells of the player to move (column by column from the left,
    each from the bottom), then the same cells for the other player."""
    width, height = int(state[C4.W]), int(state[C4.H])
    mover = int(state[C4.POSITION])
    other = mover ^ int(state[C4.MASK])
    x = np.zeros(2 * width * height)
    for c in range(width):
        for r in range(height):
            bit = c * (height + 1) + r
            x[c * height + r] = (mover >> bit) & 1
            x[width * height + c * height + r] = (other >> bit) & 1
    return x


def _connect4_check(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> str | None:
    a, b = connect4_size(ours), connect4_size(theirs)
    return None if a == b else f"is for a {a[0]} x {a[1]} board, the game is {b[0]} x {b[1]}"


def _chameleon_seats(params: Mapping[str, Any]) -> tuple[int, ...]:
    return tuple(get_game("chameleon", **dict(params)).info.players)


def _chameleon_check(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> str | None:
    a, b = len(_chameleon_seats(ours)), len(_chameleon_seats(theirs))
    # any seating: the inputs count colours from the mover; fewer players are positions
    # of its own games once a player has lost
    return None if b <= a else f"is for games of {a} players, the game seats {b}"


@dataclass(frozen=True)
class Encoding:
    """How a game's positions reach a network: ``inputs(params)`` the input count;
    ``outputs(params)`` 1 for a two-player value (the mover's result in ``[-1, 1]``) or
    one per seat (its share of the result in ``[0, 1]``); ``encode(state, params)`` a
    position's inputs; ``target(returns, state, params)`` the label of a position of a
    finished game with ``params`` and ``returns``; ``compile(net)`` the compiled
    ``evaluate(state, out)``; ``check(model_params, game_params)`` None where a model
    trained on games with ``model_params`` fits a game with ``game_params``, else what
    differs."""

    inputs: Callable[[Mapping[str, Any]], int]
    outputs: Callable[[Mapping[str, Any]], int]
    encode: Callable[[np.ndarray, Mapping[str, Any]], np.ndarray]
    target: Callable[[Any, np.ndarray, Mapping[str, Any]], Any]
    compile: Callable[[ValueNet], Callable]
    check: Callable[[Mapping[str, Any], Mapping[str, Any]], str | None]


def _connect4_target(returns: Any, state: np.ndarray, params: Mapping[str, Any]) -> float:
    return float(np.sign(returns[int(state[C4.NMOVES]) & 1]))


def _chameleon_function(net: ValueNet) -> Callable:
    return CV.forward(net.w1, net.b1, net.w2, np.asarray(net.b2), net.activation == "relu", SCALE)


#: How each game with a value-network encoding reads its positions.
ENCODINGS: dict[str, Encoding] = {
    "connect4": Encoding(
        inputs=lambda p: 2 * connect4_size(p)[0] * connect4_size(p)[1],
        outputs=lambda p: 1,
        encode=lambda state, p: connect4_inputs(state),
        target=_connect4_target,
        compile=lambda net: _connect4_function(net),
        check=_connect4_check,
    ),
    "chameleon": Encoding(
        inputs=lambda p: CV.INPUTS,
        outputs=lambda p: CV.SLOTS,
        encode=lambda state, p: CV.inputs(state),
        target=lambda returns, state, p: CV.shares(returns, state, _chameleon_seats(p)),
        compile=lambda net: _chameleon_function(net),
        check=_chameleon_check,
    ),
}


def encoding(game: str) -> Encoding:
    """The encoding of ``game``; ``ValueError`` naming the games that have one."""
    name = get_game(game).name
    if name not in ENCODINGS:
        raise ValueError(
            f"{name} has no value-network encoding; games with one: {', '.join(ENCODINGS)}"
        )
    return ENCODINGS[name]


@dataclass(frozen=True)
class ValueNet:
    """A trained value network (see the module docstring): ``w1`` of shape (inputs,
    hidden), ``b1`` (hidden,), ``w2`` (hidden,) and ``b2`` a number for one output, or
    ``w2`` (hidden, outputs) and ``b2`` (outputs,) for one output per seat (as the
    game's :class:`Encoding` says); ``params`` the game's parameters it was trained
    for; ``meta`` what trained it (kept in the file). ``ValueError`` for arrays that do
    not fit each other or the game, or are not finite."""

    game: str
    params: Mapping[str, Any]
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float | np.ndarray
    activation: str = "relu"
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        code = encoding(self.game)
        object.__setattr__(self, "game", get_game(self.game).name)
        if self.activation not in ACTIVATIONS:
            raise ValueError(
                f"unknown activation {self.activation!r}; valid: {', '.join(ACTIVATIONS)}"
            )
        arrays = {}
        for name in ("w1", "b1", "w2", "b2"):
            a = np.array(getattr(self, name), dtype=np.float64)  # a copy: frozen below
            if not np.all(np.isfinite(a)):
                raise ValueError(f"{name} holds non-finite numbers (NaN or infinity)")
            arrays[name] = a
        w1 = arrays["w1"]
        expected, outputs = code.inputs(self.params), code.outputs(self.params)
        if w1.ndim != 2 or w1.shape[0] != expected:
            raise ValueError(
                f"w1 must have shape ({expected}, hidden) for {self.game} with "
                f"{dict(self.params)} ({expected} inputs), got {w1.shape}"
            )
        hidden = w1.shape[1]
        shapes = {"b1": (hidden,), "w2": (hidden,) if outputs == 1 else (hidden, outputs),
                  "b2": () if outputs == 1 else (outputs,)}  # fmt: skip
        for name, shape in shapes.items():
            if arrays[name].shape != shape:
                raise ValueError(
                    f"{name} must have shape {shape} ({outputs} output"
                    f"{'s' if outputs > 1 else ''} for {self.game} with {dict(self.params)}), "
                    f"got {arrays[name].shape}"
                )
        for name, a in arrays.items():
            a.setflags(write=False)
            object.__setattr__(self, name, a)
        if outputs == 1:
            object.__setattr__(self, "b2", float(arrays["b2"]))
        object.__setattr__(self, "params", dict(self.params))

    @property
    def outputs(self) -> int:
        """Outputs: 1 (the mover's result) or one per seat (its share)."""
        return 1 if self.w2.ndim == 1 else int(self.w2.shape[1])

    @property
    def hidden(self) -> int:
        """Units of the hidden layer."""
        return int(self.w1.shape[1])

    @property
    def digest(self) -> str:
        """A short hash of the game, its parameters, the activation and every array."""
        h = hashlib.sha256(json.dumps([self.game, self.params, self.activation]).encode())
        for a in (self.w1, self.b1, self.w2, np.atleast_1d(self.b2)):
            h.update(np.ascontiguousarray(a).tobytes())
        return h.hexdigest()[:12]

    @property
    def name(self) -> str:
        """The registry name, ``net-<digest>``."""
        return f"{PREFIX}-{self.digest[:8]}"

    def check_params(self, params: Mapping[str, Any]) -> None:
        """``ValueError`` unless the game's parameters ``params`` give the board size or
        player count the model was trained for."""
        differs = encoding(self.game).check(self.params, params)
        if differs is not None:
            raise ValueError(f"the model {self.name} {differs}")

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The network's outputs for the rows of ``x`` (inputs as the game's
        :class:`Encoding` writes them), clipped to ``[-1, 1]`` (one output) or ``[0,
        1]`` (a share per seat, one column each): the plain forward pass the compiled
        one is held against."""
        z = np.atleast_2d(x) @ self.w1 + self.b1
        h = np.maximum(z, 0.0) if self.activation == "relu" else np.tanh(z)
        return np.clip(h @ self.w2 + self.b2, -1.0 if self.outputs == 1 else 0.0, 1.0)

    @property
    def players(self) -> int:
        """The players of the game it was trained for."""
        return get_game(self.game, **dict(self.params)).info.n_players

    def save(self, path: str | Path) -> Path:
        """Write the model to ``path`` (``.npz``, atomically) and return it."""
        path = Path(path)
        head = {"kind": MODEL_KIND, "game": self.game, "params": self.params,
                "activation": self.activation, "players": self.players,
                "meta": dict(self.meta)}  # fmt: skip
        buffer = io.BytesIO()
        np.savez(buffer, head=np.array(json.dumps(head)), w1=self.w1, b1=self.b1,
                 w2=self.w2, b2=np.array(self.b2))  # fmt: skip
        return atomic_write(path, lambda tmp: tmp.write_bytes(buffer.getvalue()))


def load_net(path: str | Path, game: str | None = None, players: int | None = None) -> ValueNet:
    """The model saved at ``path``; ``ValueError`` naming what is wrong for a file that
    is not one, or is for another ``game`` or player count than given."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            head = json.loads(str(data["head"]))
            arrays = {k: data[k] for k in ("w1", "b1", "w2", "b2")}
    except (OSError, KeyError, ValueError) as exc:
        raise ValueError(f"{path} is not a value-network file ({exc})") from None
    if head.get("kind") != MODEL_KIND:
        raise ValueError(f"{path} is not a value-network file (kind {head.get('kind')!r})")
    if game is not None and get_game(game).name != head["game"]:
        raise ValueError(f"{path} is a model of {head['game']}, not of {get_game(game).name}")
    if players is not None and players != head.get("players"):
        raise ValueError(f"{path} is a model for {head.get('players')} players, not for {players}")
    b2 = arrays["b2"]
    return ValueNet(head["game"], head["params"], arrays["w1"], arrays["b1"], arrays["w2"],
                    float(b2) if b2.ndim == 0 else b2, head["activation"],
                    head.get("meta", {}))  # fmt: skip


@njit(cache=True, forceinline=True)
def _add_rows(z: np.ndarray, rows: np.ndarray, board: int) -> None:
    """Add to ``z`` the row of ``rows`` of every set bit of ``board``, lowest first."""
    while board:
        low = board & -board
        row = rows[C4.popcount(low - 1)]
        for j in range(z.shape[0]):
            z[j] += row[j]
        board ^= low


def _rows_by_bit(net: ValueNet) -> tuple[np.ndarray, np.ndarray]:
    """The first layer's weights by bitboard bit (shape ``(64, hidden)``: a stone's
    weights to every hidden unit together): one table for the stones of the player to
    move, one for the other's (the sentinel bits' rows zero)."""
    width, height = connect4_size(net.params)
    mover, other = np.zeros((BITS, net.hidden)), np.zeros((BITS, net.hidden))
    for c in range(width):
        for r in range(height):
            bit = c * (height + 1) + r
            mover[bit] = net.w1[c * height + r]
            other[bit] = net.w1[width * height + c * height + r]
    return mover, other


def net_function(net: ValueNet) -> Callable:
    """The compiled ``evaluate(state, out)`` of ``net`` (see the module docstring)."""
    function = encoding(net.game).compile(net)
    function.py_func.__doc__ = (
        f"Value network {net.name} of {net.game} {dict(net.params)}: {net.w1.shape[0]} "
        f"inputs, {net.hidden} hidden ({net.activation}), {net.outputs} output"
        + ("s" if net.outputs > 1 else "")
    )
    return function


def _connect4_function(net: ValueNet) -> Callable:
    """The compiled forward pass of a Connect Four network."""
    rows_mover, rows_other = _rows_by_bit(net)
    b1, w2, b2 = np.array(net.b1), np.array(net.w2), net.b2
    width, height = connect4_size(net.params)
    relu = net.activation == "relu"
    hidden = b1.shape[0]

    @njit
    def value_net(state, out):
        """A value network (one hidden layer; its arrays compiled in)."""
        p = state[C4.NMOVES] & 1
        out[2] = 0.0
        out[3] = 0.0
        if state[C4.W] != width or state[C4.H] != height:
            out[0] = 1.0
            out[1] = 1.0
            return
        mover = state[C4.POSITION]
        ours, theirs = stack_floats(hidden), stack_floats(hidden)  # may not allocate
        for j in range(hidden):
            ours[j] = 0.0
            theirs[j] = 0.0
        _add_rows(ours, rows_mover, mover)
        _add_rows(theirs, rows_other, mover ^ state[C4.MASK])
        v = b2
        for j in range(hidden):
            z = b1[j] + ours[j] + theirs[j]
            a = max(z, 0.0) if relu else np.tanh(z)
            v += a * w2[j]
        v = min(max(v, -1.0), 1.0)
        out[p] = 1.0 + SCALE * (1.0 + v) / 2.0
        out[1 - p] = 1.0 + SCALE * (1.0 - v) / 2.0

    return value_net


#: The compiled function of each model (by digest), so a model compiles once a process.
_FUNCTIONS: dict[str, Callable] = {}


def net_heuristic(net: ValueNet, *, name: str | None = None) -> Heuristic:
    """``net`` compiled and registered with its game's heuristics under ``name``
    (default :attr:`ValueNet.name`); the same model again returns the same entry."""
    if net.digest not in _FUNCTIONS:
        _FUNCTIONS[net.digest] = net_function(net)
    function = _FUNCTIONS[net.digest]
    name = net.name if name is None else name
    registry = get_game(net.game).heuristics
    if name in registry and registry.get(name).function is function:
        return registry.get(name)
    return registry.register(name, function, replace=True, fits=_fits(net))


def _fits(net: ValueNet) -> Callable[[Any], None]:
    """The check a game meets before ``net`` scores it: the board size or player count
    it was trained for."""

    def fits(game: Any) -> None:
        net.check_params(game.params)

    return fits


#: ``net:PATH`` names the model saved at PATH (any process builds it from the name).
FILE_PREFIX = "net:"


def file_heuristic(game: str, text: str) -> Heuristic:
    """The heuristic a ``net:PATH`` name gives: the model at PATH, registered under that
    name (``ValueError`` for a file that is not a model of ``game``)."""
    path = str(text).strip()[len(FILE_PREFIX) :]
    if not path:
        raise ValueError(f"a value-network name has the form {FILE_PREFIX}PATH, got {text!r}")
    return net_heuristic(load_net(path, game=game), name=str(text).strip())
