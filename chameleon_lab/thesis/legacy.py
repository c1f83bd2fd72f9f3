"""The original program's session files, read into the same records as new sessions.

A legacy session file (``reference/legacy-sessions/*.json``) holds the algorithm
names, the mode (``depth`` or ``time``) and its value, and per game the seating, every
position from the start to the end, and per move the reported depth and time. The
moves are not stored; :func:`load_legacy` recovers each one as the legal move that
leads from a position to the next.

The names map to agents as ``reference/original-semantics.md`` ("Algorithm names in
the session files") says. One name is ambiguous: ``Paranoid`` ran without
normalisation in the sessions that compare it with ``ParaNorm``, and with it in the
algorithm comparison, so the mapping looks at the session's other names.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from ..games.chameleon import Colour, Position
from ..games.chameleon.game import ORIGINAL_MOVE_LIMIT
from ..games.match import Result
from ..tournament.play import RECORD_KIND, RECORD_VERSION, finish_record
from ..tournament.records import read_records
from ..tournament.seatings import SEATS
from ..tournament.session import Session

#: name in a session file -> (algorithm, heuristic, normalize); see the module docstring
_NAMES: dict[str, tuple[str, str, bool]] = {
    "Pawns": ("maxn", "pawns", True),
    "Pawns10Roles": ("maxn", "pawns10roles", True),
    "Pawns100Roles": ("maxn", "pawns100roles", True),
    "Pawns100Moves": ("maxn", "pawns100moves", True),
    "ParaNorm": ("paranoid", "pawns100roles", True),
    "Hypermax": ("hypermax", "pawns100roles", False),
    "Hypernorm": ("hypermax", "pawns100roles", True),
    "MaxN": ("maxn", "pawns100roles", True),
    "MaxNIS": ("maxnis", "pawns100roles", True),
}
LEGACY_NAMES = (*_NAMES, "Paranoid")
MODES = {"depth": "depth", "time": "time_ms"}


def legacy_agent(name: str, names: Sequence[str], mode: str, value: int) -> dict[str, Any]:
    """The thesis-flavour agent parameters of algorithm ``name`` in a session of ``names``."""
    if name == "Paranoid":
        algorithm, heuristic, normalize = "paranoid", "pawns100roles", "ParaNorm" not in names
    elif name in _NAMES:
        algorithm, heuristic, normalize = _NAMES[name]
    else:
        raise ValueError(
            f"unknown algorithm name {name!r} in a legacy session; "
            f"known names: {', '.join(LEGACY_NAMES)}"
        )
    return {
        "algorithm": algorithm,
        "heuristic": heuristic,
        "flavour": "thesis",
        "normalize": normalize,
        MODES[mode]: value,
    }


@dataclass(frozen=True)
class LegacySession:
    """A parsed legacy session: its session, recorded positions and records."""

    path: Path
    session: Session
    mode: str
    mode_value: int
    positions: list[list[Position]]  # per game, every recorded position
    records: list[dict[str, Any]]


def _fail(path: Path, where: str, problem: str) -> ValueError:
    return ValueError(f"{path}: {where}: {problem}")


def _field(obj: Any, key: str, path: Path, where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise _fail(path, where, f"lacks the key {key!r}; is this a legacy session file?")
    return obj[key]


def load_legacy(path: str | Path) -> LegacySession:
    """Read a legacy session file into records (moves recovered from the positions).

    Raises ``ValueError`` naming the file, game and position for anything that does not
    fit: not JSON, a foreign schema, an unknown name, an illegal step between positions.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read legacy session file {path}: {exc.strerror}") from None
    return load_legacy_bytes(raw, path)


def load_legacy_bytes(raw: bytes, path: Path) -> LegacySession:
    """:func:`load_legacy` of a session file's content (``path`` names it in errors and
    gives the session its name)."""
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where = f"line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else "content"
        raise _fail(path, where, "not JSON; a legacy session file is one JSON object") from None
    names = _field(data, "algorithms", path, "session")
    mode = _field(data, "mode", path, "session")
    value = _field(data, "modeValue", path, "session")
    games = _field(data, "games", path, "session")
    if mode not in MODES:
        raise _fail(path, "mode", f"{mode!r} is neither 'depth' nor 'time'")
    if not isinstance(names, list) or not isinstance(games, list):
        raise _fail(path, "session", "algorithms and games must be lists")
    try:
        agents = {n: legacy_agent(n, names, mode, value) for n in names}
        session = Session(path.stem, agents, move_limit=ORIGINAL_MOVE_LIMIT)
    except ValueError as exc:
        raise _fail(path, "algorithms", str(exc)) from None
    session_id = "legacy-" + hashlib.sha256(raw).hexdigest()[:16]
    base = {
        "record": RECORD_KIND,
        "version": RECORD_VERSION,
        "source": f"legacy:{path.name}",
        "session": session.to_dict(),
        "session_id": session_id,
        "agents": session.resolved_agents(),
        "move_limit": ORIGINAL_MOVE_LIMIT,
        "repetition": 0,
        "seed": None,
        "versions": {"original": "legacy session file"},
    }
    all_positions, records = [], []
    for g, game in enumerate(games):
        positions, record = _game(path, g, game, names, dict(base))
        all_positions.append(positions)
        records.append(record)
    return LegacySession(path, session, mode, int(value), all_positions, records)


def _game(
    path: Path, g: int, game: Any, names: list[str], record: dict[str, Any]
) -> tuple[list[Position], dict[str, Any]]:
    where = f"game {g}"
    players = _field(game, "players", path, where)
    states = _field(game, "gameStates", path, where)
    stats = _field(game, "moveStats", path, where)
    seating = tuple(players.get(str(s)) if isinstance(players, dict) else None for s in range(4))
    unknown = [s for s in seating if s is not None and s not in names]
    if unknown:
        raise _fail(path, where, f"seats {unknown[0]!r}, not one of the algorithms {names}")
    if not isinstance(states, list) or not states or len(stats) != len(states) - 1:
        raise _fail(path, where, "needs positions and one moveStats entry per move between them")
    positions = []
    for k, state in enumerate(states):
        try:
            positions.append(Position.from_legacy(state))
        except ValueError as exc:
            raise _fail(path, f"{where} position {k}", str(exc)) from None
    occupied = [Colour(s) for s in range(4) if seating[s] is not None]
    if positions[0] != Position.start(occupied):
        raise _fail(path, f"{where} position 0", "is not the start position of its seating")
    moves = []
    for k, (before, after) in enumerate(pairwise(positions)):
        try:
            move = before.move_to(after)
        except ValueError as exc:
            raise _fail(path, f"{where} move {k}", str(exc)) from None
        stat = stats[k] if isinstance(stats[k], dict) else {}
        moves.append(
            {
                "move": str(move),
                "seat": before.to_move.name,
                "pawns": len(before.pawns),
                "legal": len(before.legal_moves),
                "depth": stat.get("depth"),
                "expanded": None,
                "evaluated": None,
                "time_ms": stat.get("time"),
                "random": False,
            }
        )
    final = positions[-1]
    if final.is_over:
        reason = "winner"
    elif len(moves) == ORIGINAL_MOVE_LIMIT:
        reason = "move_limit"
    else:
        raise _fail(
            path, where, f"ends after {len(moves)} moves with neither a winner nor the limit"
        )
    seated = dict.fromkeys(s for s in seating if s is not None)
    record.update(
        agents={n: record["agents"][n] for n in seated},
        game=g,
        seating=list(seating),
        start=positions[0].to_compact(),
        moves=moves,
    )
    result = Result(tuple(final.players_alive), reason)
    return positions, finish_record(record, seating, final, result, SEATS)


#: A legacy session file, or a session loaded from one already (not parsed again).
LegacySource = str | Path | LegacySession


def load_mode(paths: Sequence[LegacySource], mode: str, hint: str) -> list[LegacySession]:
    """The legacy sessions of ``paths`` (files, or sessions loaded already), all of
    ``mode`` (``"depth"`` or ``"time"``), or ``ValueError`` naming the first file of the
    other mode, followed by ``hint`` (what takes such files)."""
    legacies = [p if isinstance(p, LegacySession) else load_legacy(p) for p in paths]
    for legacy in legacies:
        if legacy.mode != mode:
            what = (
                f"{legacy.mode_value} ms a move"
                if legacy.mode == "time"
                else f"depth {legacy.mode_value}"
            )
            raise ValueError(f"{legacy.path} is a {legacy.mode}-mode session ({what}): {hint}")
    return legacies


def load_records(path: str | Path) -> list[dict[str, Any]]:
    """The game records of a records file (JSON Lines) or a legacy session file.

    The two are told apart by content: a legacy file is one JSON object with
    ``games``; anything else is read as a records file, with its errors.
    """
    path = Path(path)
    try:
        with path.open("rb") as f:
            head = f.read(4096).lstrip()
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    if head.startswith(b"{") and b'"record"' not in head.split(b"\n", 1)[0]:
        return load_legacy(path).records
    return read_records(path)
