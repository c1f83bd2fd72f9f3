"""Playing one game of a session and writing down everything about it as a record.

A record is one JSON-friendly dict (one line of a records file, see :mod:`.records`):

* ``session`` (the session's parameters), ``session_id`` (its fingerprint), ``game``
  (index in the session), ``repetition``, ``seed``, ``source`` and ``versions``;
* ``game_name`` and ``game_params`` (the game played; records without them are
  Chameleon Chess) and ``seats``, the game's seat names (RED GREEN YELLOW BLUE for
  Chameleon Chess);
* ``seating``: one entry per seat, each an agent name or ``None``;
  ``agents``: the full parameters of each seated agent by name;
* ``start`` and ``final``: the positions (Chameleon Chess: compact strings; other
  games: their JSON form); ``start`` is where the agents began, after the random
  ``opening`` (its moves in notation; only in records of sessions with
  ``opening_plies``); ``moves``: one dict per move with the move in notation,
  the seat that made it, the number of legal moves before it (the branching factor),
  Chameleon's pawns on the board, and what the search did (``depth``, ``expanded``,
  ``evaluated``, ``time_ms``, ``random``, and the counters its algorithm reports: MCTS
  its ``iterations``);
* ``reason`` (``"winner"``, ``"draw"`` or ``"move_limit"``), ``survivors`` (the seats
  sharing the best result), ``outcomes`` per agent and ``seat_results`` per seat, as
  defined in :func:`outcomes` and :func:`seat_results`.

``time_ms`` is wall-clock time and the only field that differs between two runs of
the same seed (:func:`without_times` removes it for comparisons).
"""

from __future__ import annotations

import dataclasses
import platform
import time
from collections.abc import Sequence
from typing import Any

from ..agents import DEFAULT_GAME, Agent, agent_from_params
from ..games.chameleon import Position
from ..games.match import Match
from ..games.registry import Game, get_game
from ..search.core import Budget
from ..search.registry import get_algorithm
from .designs import opening, seating_game
from .seatings import SEATS, Seating
from .session import GameTask

RECORD_KIND = "chameleon_lab/game"
RECORD_VERSION = 1


def versions() -> dict[str, str]:
    """Versions of the package and of what its results depend on: the package's
    version, the code that played (``commit`` and ``code``,
    :func:`~chameleon_lab.source_code.code_version`), Python, numpy and numba."""
    import numba
    import numpy

    from ..source_code import code_version
    from ..version import __version__

    return {
        "chameleon_lab": __version__,
        **code_version(),
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
    base: dict[str, Any], seating: Seating, final: Any, result: Any, seats: Sequence[str]
) -> dict[str, Any]:
    """Add the final position, the reason and the results to a record under
    construction, and where the final position ranks every seat by a score
    (``final_scores``: Rolit's balls) the scores, seat by seat."""
    survivors = [int(c) for c in result.survivors]
    scores = getattr(final, "final_scores", lambda: None)()
    if scores is not None:  # a score a seat that ranks the losers too (Rolit: balls)
        base["scores"] = [float(s) for s in scores]
    base.update(
        final=position_text(final),
        reason=result.reason,
        survivors=[seats[s] for s in survivors],
        outcomes=outcomes(seating, survivors),
        seat_results=seat_results(seating, survivors),
    )
    return base


def position_text(position: Any) -> Any:
    """How a record holds a position: Chameleon's compact string, else its JSON form."""
    return position.to_compact() if isinstance(position, Position) else position.to_json()


def task_game(task: GameTask) -> Game:
    """The game of a task's seating (Chameleon Chess: the seated colours)."""
    return seating_game(task.game_name, task.game_params, task.seating)


_WARM: set[str] = set()


#: The names of a search's budgets (an agent's budget fields).
BUDGETS = tuple(f.name for f in dataclasses.fields(Budget))


def warm_up(params: dict[str, Any], start: Any) -> None:
    """Compile the search an agent of ``params`` uses in the game of ``start``, once per
    process and game.

    The compiled code of a search is built at its first call (about a second); without
    this, that second would count as the first move's thinking time. A process pool
    forked after warming up inherits the compiled code. Other libraries' agents (a
    ``kind``) have nothing of ours to compile.
    """
    if params.get("kind") is not None:
        return
    budgets = get_algorithm(params.get("algorithm", Agent.algorithm)).budgets
    # node_rate is the emulated clock of a time budget: it goes with the budget
    trial = {k: v for k, v in params.items() if k not in BUDGETS and k != "node_rate"}
    trial.update({budgets[0]: 1}, random_move_probability=0.0)  # depth 1, or 1 iteration
    key = repr((sorted(trial.items()), repr(start.game)))
    if key not in _WARM:
        Agent.from_params(trial).choose(start)
        _WARM.add(key)


def play_game(task: GameTask) -> dict[str, Any]:
    """Play ``task``'s game to its end and return its record.

    Each seat gets its own :class:`~chameleon_lab.agents.Agent` with the seat's seed,
    so a game is the same whoever plays it, wherever.
    """
    task.register_heuristics()
    game = task_game(task)
    seat_names = game.info.player_names
    start = game.start()
    for params in task.agents.values():
        warm_up(params, start)
    if task.opening_moves is not None:
        first = list(task.opening_moves)
        for move in first:
            start = start.play(move)
    else:
        first, start = opening(start, task.opening_plies, task.opening_seed)
    seats = {
        seat: agent_from_params({**task.agents[name], "seed": task.seat_seed(seat)})
        for seat, name in enumerate(task.seating)
        if name is not None
    }
    match = Match(start, move_limit=task.move_limit)
    moves = []
    while not match.is_over:
        position = match.position
        seat = int(position.to_move)
        t0 = time.perf_counter()
        decision = seats[seat].choose(position)
        elapsed = (time.perf_counter() - t0) * 1000.0
        move: dict[str, Any] = {"move": str(decision.move), "seat": seat_names[seat]}
        if isinstance(position, Position):
            move["pawns"] = len(position.pawns)
        move.update(
            legal=len(decision.moves),
            depth=decision.depth,
            expanded=decision.expanded,
            evaluated=decision.evaluated,
            time_ms=elapsed,
            random=decision.random,
        )
        for name in decision.reported:  # MCTS: its iterations beside its positions
            move[name] = decision.counters[name]
        moves.append(move)
        match.play(decision.move)
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
        "start": position_text(start),
        **({"opening": [str(m) for m in first]} if task.opening_plies else {}),
        "moves": moves,
        "versions": versions(),
    }
    if task.game_name != DEFAULT_GAME:
        record.update(
            game_name=task.game_name,
            game_params=start.to_json()["params"],
            seats=list(seat_names),
        )
    return finish_record(record, task.seating, match.position, match.result, seat_names)


def record_game(record: dict[str, Any]) -> Game:
    """The game a record was played in (Chameleon Chess for records without one)."""
    return get_game(record.get("game_name", DEFAULT_GAME), **record.get("game_params", {}))


def record_seats(record: dict[str, Any]) -> tuple[str, ...]:
    """The seat names of a record's game, in seat order."""
    return tuple(record.get("seats", SEATS))


def record_positions(record: dict[str, Any]) -> list[Any]:
    """Every position of a record's game: its start, then one after each move."""
    if record.get("game_name", DEFAULT_GAME) == DEFAULT_GAME:
        start = Position.from_compact(record["start"])
    else:
        start = record_game(record).from_json(record["start"])
    positions = [start]
    for m in record["moves"]:
        positions.append(positions[-1].play(m["move"]))
    return positions


def without_times(record: dict[str, Any]) -> dict[str, Any]:
    """The record without its wall-clock fields: equal for equal seeds and parameters."""
    out = dict(record)
    out["moves"] = [{k: v for k, v in m.items() if k != "time_ms"} for m in record["moves"]]
    return out
