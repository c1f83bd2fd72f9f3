"""Weighted heuristics: a weight per feature of a game, registered under their weights.

A weighted heuristic scores each player by a weighted sum of features the game offers
(Chameleon Chess: pawns, roles, mobility, centre; Othello: discs, mobility, corners;
Connect Four: stones, pairs and triples in lines still open; see each game's
``WEIGHTED_FEATURES``). It exists so that weights can be searched for
(:mod:`chameleon_lab.analysis.tuning` tunes them by self-play) and every weight vector
tried is a heuristic like any researcher's own: compiled with its weights as constants
(no cost at the leaves for a feature weighted 0), registered with its game under a name
holding a short hash of the weights (``weighted-1a2b3c4d``), and fingerprinted with
them (:func:`chameleon_lab.games.heuristics.fingerprint` hashes the numbers a function
closes over), so records say exactly which weights played and a resumed run refuses
games of other weights.

Example::

    h = weighted_heuristic("chameleon", {"pawns": 100, "roles": 1, "mobility": 0.5})
    Agent("paranoid", heuristic=h.name, depth=3)
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping

from .chameleon import heuristics as chameleon_heuristics
from .connect4 import heuristics as connect4_heuristics
from .heuristics import Heuristic
from .othello import heuristics as othello_heuristics
from .registry import get_game

#: The features of each game that has weighted heuristics, in the order of its weights.
FEATURES: dict[str, tuple[str, ...]] = {
    "chameleon": chameleon_heuristics.WEIGHTED_FEATURES,
    "othello": othello_heuristics.WEIGHTED_FEATURES,
    "connect4": connect4_heuristics.WEIGHTED_FEATURES,
}
_FACTORIES: dict[str, Callable[..., Callable]] = {
    "chameleon": chameleon_heuristics.weighted_evaluator,
    "othello": othello_heuristics.weighted_evaluator,
    "connect4": connect4_heuristics.weighted_evaluator,
}
#: The compiled function of each (game, weights), so the same weights are compiled once
#: per process (and the searches specialised for them, once).
_FUNCTIONS: dict[tuple[str, tuple[float, ...]], Callable] = {}
#: Weighted heuristics are registered as ``PREFIX-<hash of the weights>``.
PREFIX = "weighted"


def features_of(game: str) -> tuple[str, ...]:
    """The features a weighted heuristic of ``game`` can weigh (``ValueError`` naming
    the games that have some when ``game`` has none)."""
    name = get_game(game).name  # a known game, or ValueError listing them
    if name not in FEATURES:
        raise ValueError(f"{name} has no weighted heuristic; games with one: {', '.join(FEATURES)}")
    return FEATURES[name]


def check_features(game: str, features: object) -> tuple[str, ...]:
    """``features`` as a tuple of feature names of ``game``, each once (``ValueError``
    naming a feature the game does not have and the valid ones)."""
    valid = features_of(game)
    if isinstance(features, str) or not hasattr(features, "__iter__"):
        raise ValueError(f"features must be a list of names (valid: {', '.join(valid)})")
    out = tuple(features)  # type: ignore[arg-type]
    for f in out:
        if f not in valid:
            raise ValueError(f"{game} has no feature {f!r}; its features: {', '.join(valid)}")
    if len(set(out)) != len(out) or not out:
        raise ValueError(f"features must be distinct names, at least one, got {list(out)}")
    return out


def check_weights(game: str, weights: Mapping[str, float]) -> dict[str, float]:
    """Every feature of ``game`` with its weight (0 for those not given), as floats.

    ``ValueError`` for a feature the game does not have (naming the valid ones), a weight
    that is not a finite number at least 0 (negative weights could make a score
    negative, which the normalising searches cannot divide by), or all weights 0.
    """
    valid = features_of(game)
    if not isinstance(weights, Mapping):
        raise ValueError(f"weights must be a mapping feature -> weight, got {weights!r}")
    if weights:
        check_features(game, list(weights))
    out = {}
    for f in valid:
        w = weights.get(f, 0.0)
        if isinstance(w, bool) or not hasattr(w, "__float__"):
            raise ValueError(f"the weight of {f} must be a number, got {w!r}")
        w = float(w)
        if not math.isfinite(w) or w < 0.0:
            raise ValueError(f"the weight of {f} must be a finite number >= 0, got {w!r}")
        out[f] = w + 0.0  # -0.0 as 0.0: the same weights, the same name
    if not any(out.values()):
        raise ValueError(f"at least one weight must be above 0, got {out}")
    return out


def weighted_name(game: str, weights: Mapping[str, float]) -> str:
    """The registry name of the weighted heuristic of ``weights``: ``weighted-`` and a
    short hash of the game and every feature's weight (exact floats)."""
    full = check_weights(game, weights)
    text = json.dumps([get_game(game).name, [[f, repr(w)] for f, w in full.items()]])
    return f"{PREFIX}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"


def weighted_function(game: str, weights: Mapping[str, float]) -> Callable:
    """The compiled ``evaluate(state, out)`` of ``weights`` (the same object for the same
    weights within a process), unregistered."""
    full = check_weights(game, weights)
    key = (get_game(game).name, tuple(full.values()))
    if key not in _FUNCTIONS:
        function = _FACTORIES[key[0]](*full.values())
        # what the registry shows as its documentation: the weights, not the factory's
        function.py_func.__doc__ = f"Weighted heuristic of {key[0]}: " + ", ".join(
            f"{f} {w:g}" for f, w in full.items()
        )
        _FUNCTIONS[key] = function
    return _FUNCTIONS[key]


def weighted_heuristic(
    game: str, weights: Mapping[str, float], *, name: str | None = None
) -> Heuristic:
    """The weighted heuristic of ``weights`` registered with ``game``'s heuristics.

    ``name`` defaults to :func:`weighted_name`; agents and sessions then take it by name
    like any registered heuristic, and records carry its fingerprint, which changes
    with the weights. Registering the same weights again returns the same entry.
    """
    function = weighted_function(game, weights)
    name = weighted_name(game, weights) if name is None else name
    registry = get_game(game).heuristics
    if name in registry and registry.get(name).function is function:
        return registry.get(name)
    return registry.register(name, function, replace=True)


def weights_of(game: str, vector: object, features: tuple[str, ...]) -> dict[str, float]:
    """The weights of ``features`` from a vector of numbers in that order (other features
    0), checked as :func:`check_weights` does."""
    features = check_features(game, features)
    values = [float(v) for v in vector]  # type: ignore[attr-defined]
    if len(values) != len(features):
        raise ValueError(
            f"{len(features)} weights expected ({', '.join(features)}), got {len(values)}"
        )
    return check_weights(game, dict(zip(features, values, strict=True)))


#: A heuristic name of the form ``weights:stones=1,pairs=2,triples=7`` names a weighted
#: heuristic by its weights, so that any process (a worker, the CLI, a resumed session)
#: can build it from the name alone (:func:`spec_heuristic`).
SPEC_PREFIX = "weights:"


def weights_spec(game: str, weights: Mapping[str, float]) -> str:
    """The canonical ``weights:`` name of ``weights``: every feature of ``game`` in its
    order with its weight written exactly (``repr``), 0 included."""
    full = check_weights(game, weights)
    return SPEC_PREFIX + ",".join(f"{f}={w!r}" for f, w in full.items())


def parse_weights_spec(game: str, text: str) -> dict[str, float]:
    """The weights a ``weights:`` name gives (features left out weigh 0); ``ValueError``
    saying what is wrong, with the form that would be right."""
    form = SPEC_PREFIX + ",".join(f"{f}=<number>" for f in features_of(game))
    text = str(text).strip()
    body = text[len(SPEC_PREFIX) :] if text.lower().startswith(SPEC_PREFIX) else ""
    if not body:
        raise ValueError(f"a weights name has the form {form}, got {text!r}")
    weights: dict[str, float] = {}
    for part in body.split(","):
        feature, sep, value = part.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = None
        if not sep or number is None or feature.strip() in weights:
            raise ValueError(f"{part!r} in {text!r}: each part is feature=number, once ({form})")
        weights[feature.strip()] = number
    return check_weights(game, weights)


def spec_heuristic(game: str, text: str) -> Heuristic:
    """The weighted heuristic a ``weights:`` name gives, registered with ``game`` under
    the canonical form of that name (:func:`weights_spec`)."""
    weights = parse_weights_spec(game, text)
    return weighted_heuristic(game, weights, name=weights_spec(game, weights))
