"""Checking a researcher's heuristic before a search meets it.

A heuristic written in a notebook cell fails in the least helpful places: numba's
``TypingError`` pages when it does not fit the game's state, a ``ZeroDivisionError``
deep in a search, or, worse, nothing at all when it writes ``nan`` or a negative score
that a normalising search then divides by. :func:`check_heuristic` finds each of these
at once, on the game's own positions, and says in one message what is wrong, on
which position and what would be right:

* it must be ``@njit``-compiled and compile for the game's state (an ``int64`` array)
  and ``out`` (a ``float64`` array of 4);
* it must not raise on any sample position (seeded random play from the start);
* it must write a finite score for every player taking part (``out`` is filled with
  an unlikely sentinel before each call, so a score it never writes shows);
* it must leave the state as it found it;
* where the searches normalise (``normalize=True``: the thesis's MaxN family divides
  every score by their sum), every score must be >= 0 and their sum > 0.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .heuristics import Heuristic
from .registry import Game, get_game

#: What ``out`` holds before each call: left there, the heuristic did not write it.
UNSET = -7.1234567e307


class HeuristicError(ValueError):
    """A heuristic that does not fit its game, with what is wrong and where."""


@dataclass(frozen=True)
class HeuristicCheck:
    """A heuristic that passed, the positions it was tried on and its values there."""

    heuristic: Heuristic
    game: Game
    positions: list[Any]
    values: np.ndarray  # one row per position, one column per player of the game

    def __str__(self) -> str:
        low, high = float(self.values.min()), float(self.values.max())
        return (
            f"{self.heuristic.name} (fingerprint {self.heuristic.fingerprint}) is fine on "
            f"{len(self.positions)} positions of {self.game.info.long_name}: scores from "
            f"{low:g} to {high:g}"
        )


def sample_positions(game: Game, count: int, seed: int = 0, max_plies: int = 60) -> list[Any]:
    """``count`` unfinished positions of ``game`` from seeded random play (each game
    stops at a random ply up to ``max_plies``): the same on every machine."""
    rng = random.Random(seed)
    out: list[Any] = []
    tries = 0
    while len(out) < count:
        tries += 1
        if tries > 50 * count + 100:
            raise ValueError(f"random play in {game.name} keeps ending before a position")
        pos = game.start()
        for _ in range(rng.randint(0, max_plies)):
            if pos.is_over:
                break
            pos = pos.play(rng.choice(pos.legal_moves))
        if not pos.is_over:
            out.append(pos)
    return out


def _numba_message(exc: Exception) -> str:
    """The useful lines of a numba typing error (no colour codes, no pipeline talk)."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip()]
    keep = [ln for ln in lines if not ln.startswith(("Failed in", "During:", "   raised from"))]
    return "\n    ".join(list(dict.fromkeys(keep))[:8])  # numba repeats its File lines


def check_heuristic(
    function: Callable | str,
    game: Game | str = "chameleon",
    *,
    game_params: dict[str, Any] | None = None,
    positions: Sequence[Any] | None = None,
    count: int = 100,
    seed: int = 0,
    normalize: bool | None = None,
) -> HeuristicCheck:
    """Try ``function`` (or a heuristic's name) on positions of ``game``; raise
    :class:`HeuristicError` naming the first problem (see the module doc).

    ``positions`` default to :func:`sample_positions` (``count``, ``seed``).
    ``normalize=None`` requires non-negative scores where the game has more than two
    players (its searches normalise by default) and not otherwise.
    """
    if isinstance(game, str):
        game = get_game(game, **(game_params or {}))
    info = game.info
    try:
        heuristic = game.heuristics.get(function)
    except ValueError as exc:
        raise HeuristicError(str(exc)) from None
    name = heuristic.name
    if normalize is None:
        normalize = info.n_players > 2
    if positions is None:
        positions = sample_positions(game, count, seed)
    if not positions:
        raise HeuristicError("no positions to check the heuristic on")
    players = list(info.players)
    out = np.empty(4)
    values = np.empty((len(positions), len(players)))
    for i, pos in enumerate(positions):
        state = np.array(pos.state, dtype=np.int64)
        before = state.copy()
        out[:] = UNSET
        where = f"on position {i} ({_describe(pos)})"
        try:
            heuristic.function(state, out)
        except Exception as exc:
            if type(exc).__module__.startswith("numba"):
                raise HeuristicError(
                    f"heuristic {name!r} does not compile for {info.long_name}: it is "
                    f"called as {name}(state, out) with state an int64 array of "
                    f"{state.size} entries (the game's kernel state) and out a float64 "
                    f"array of 4 (one score per player). numba says:\n    "
                    f"{_numba_message(exc)}"
                ) from None
            raise HeuristicError(
                f"heuristic {name!r} raised {type(exc).__name__}: {exc} {where}; it must "
                "give a score on every position a search can reach"
            ) from None
        if not np.array_equal(state, before):
            raise HeuristicError(
                f"heuristic {name!r} changed the state {where}: it may only read it"
            )
        scores = out[players]
        bad = [p for p, v in zip(players, scores, strict=True) if not np.isfinite(v) or v == UNSET]
        if bad:
            p = bad[0]
            what = "did not write" if out[p] == UNSET else f"wrote {out[p]} to"
            raise HeuristicError(
                f"heuristic {name!r} {what} out[{p}] ({info.player_name(p)}) {where}: "
                f"it must write a finite score for every player taking part ({players})"
            )
        if normalize and (scores.min() < 0 or scores.sum() <= 0):
            raise HeuristicError(
                f"heuristic {name!r} gave scores {scores.tolist()} {where}: searches that "
                "normalise divide every score by their sum, so scores must be >= 0 with "
                "a positive sum (or search with normalize=False)"
            )
        values[i] = scores
    return HeuristicCheck(heuristic, game, list(positions), values)


def _describe(pos: Any) -> str:
    """A position in a form a reader can paste back: compact (Chameleon) or JSON."""
    import json

    if hasattr(pos, "to_compact"):
        return pos.to_compact()
    return json.dumps(pos.to_json(), separators=(",", ":"))
