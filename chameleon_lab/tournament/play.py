"""Playing one game of a session and writing down everything about it as a record.

A record is one JSON-friendly dict (one line of a records file, see :mod:`.records`):

* ``session`` (the session's parameters), ``session_id`` (its fingerprint), ``game``
  (index in the session), ``repetition``, ``seed``, ``source`` and ``versions``;
* ``seating``: four entries, RED GREEN YELLOW BLUE, each an agent name or ``None``;
  ``agents``: the full parameters of each seated agent by name;
* ``start`` and ``final``: compact positions; ``moves``: one dict per move with the
  move, the seat that made it, the pawns on the board and the number of legal moves
  before it (the branching factor), and what the search
  did (``depth``, ``expanded``, ``evaluated``, ``time_ms``, ``random``);
* ``reason`` (``"winner"`` or ``"move_limit"``), ``survivors`` (seat colours),
  ``outcomes`` per agent and ``seat_results`` per seat, as defined in
  :func:`outcomes` and :func:`seat_results`.

``time_ms`` is wall-clock time and the only field that differs between two runs of
the same seed (:func:`without_times` removes it for comparisons).
"""

from __future__ import annotations

import platform
import time
from collections.abc import Sequence
from typing import Any

from ..agents import Agent
from ..games.chameleon import Colour, Game, Position
from .seatings import Seating
from .session import GameTask

RECORD_KIND = "chameleon_lab/game"
RECORD_VERSION = 1


def versions() -> dict[str, str]:
    """Versions of the package and of what its results depend on."""
    import numba
    import numpy

    from .. import __version__

    return {
        "chameleon_lab": __version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
    }


def outcomes(seating: Seating, survivors: Sequence[int]) -> dict[str, str]:
    """The original's result per agent: ``win`` if every surviving seat is the agent's,
    ``loss`` if none is, else ``draw``."""
    alive = {seating[s] for s in survivors}
    out = {}
    for name in dict.fromkeys(s for s in seating if s is not None):
        if alive == {name}:
            out[name] = "win"
        elif name in alive:
            out[name] = "draw"
        else:
            out[name] = "loss"
    return out


def seat_results(seating: Seating, survivors: Sequence[int]) -> list[str | None]:
    """Per seat: ``win`` (the only survivor), ``draw`` (one of several), ``loss``, or
    ``None`` for an empty seat. This is the seat's own result, whoever played it."""
    out: list[str | None] = []
    for seat, name in enumerate(seating):
        if name is None:
            out.append(None)
        elif seat not in survivors:
            out.append("loss")
        else:
            out.append("win" if len(survivors) == 1 else "draw")
    return out


def finish_record(
    base: dict[str, Any], seating: Seating, final: Position, reason: str
) -> dict[str, Any]:
    """Add the final position, the reason and the results to a record under construction."""
    survivors = [int(c) for c in final.players_alive]
    base.update(
        final=final.to_compact(),
        reason=reason,
        survivors=[Colour(s).name for s in survivors],
        outcomes=outcomes(seating, survivors),
        seat_results=seat_results(seating, survivors),
    )
    return base


_WARM: set[str] = set()


def warm_up(params: dict[str, Any]) -> None:
    """Compile the search an agent of ``params`` uses, once per process.

    The compiled code of a search is built at its first call (about a second); without
    this, that second would count as the first move's thinking time. A process pool
    forked after warming up inherits the compiled code.
    """
    trial = {k: v for k, v in params.items() if k not in ("depth", "time_ms", "nodes")}
    trial.update(depth=1, random_move_probability=0.0)
    key = repr(sorted(trial.items()))
    if key not in _WARM:
        Agent.from_params(trial).choose(Position.start())
        _WARM.add(key)


def play_game(task: GameTask) -> dict[str, Any]:
    """Play ``task``'s game to its end and return its record.

    Each seat gets its own :class:`~chameleon_lab.agents.Agent` with the seat's seed,
    so a game is the same whoever plays it, wherever.
    """
    for params in task.agents.values():
        warm_up(params)
    seats = {
        seat: Agent.from_params({**task.agents[name], "seed": task.seat_seed(seat)})
        for seat, name in enumerate(task.seating)
        if name is not None
    }
    occupied = [Colour(s) for s in seats]
    game = Game(players=occupied, move_limit=task.move_limit)
    moves = []
    while not game.is_over:
        position = game.position
        seat = int(position.to_move)
        t0 = time.perf_counter()
        decision = seats[seat].choose(position)
        elapsed = (time.perf_counter() - t0) * 1000.0
        moves.append(
            {
                "move": str(decision.move),
                "seat": Colour(seat).name,
                "pawns": len(position.pawns),
                "legal": len(decision.moves),
                "depth": decision.depth,
                "expanded": decision.expanded,
                "evaluated": decision.evaluated,
                "time_ms": elapsed,
                "random": decision.random,
            }
        )
        game.play(decision.move)
    record = {
        "record": RECORD_KIND,
        "version": RECORD_VERSION,
        "source": "chameleon_lab",
        "session": task.session,
        "session_id": task.session_id,
        "game": task.game,
        "repetition": task.repetition,
        "seed": task.seed,
        "seating": list(task.seating),
        "agents": task.agents,
        "move_limit": task.move_limit,
        "start": game.positions[0].to_compact(),
        "moves": moves,
        "versions": versions(),
    }
    return finish_record(record, task.seating, game.position, game.result.reason)


def record_positions(record: dict[str, Any]) -> list[Position]:
    """Every position of a record's game: its start, then one after each move."""
    positions = [Position.from_compact(record["start"])]
    for m in record["moves"]:
        positions.append(positions[-1].play(m["move"]))
    return positions


def without_times(record: dict[str, Any]) -> dict[str, Any]:
    """The record without its wall-clock fields: equal for equal seeds and parameters."""
    out = dict(record)
    out["moves"] = [{k: v for k, v in m.items() if k != "time_ms"} for m in record["moves"]]
    return out
