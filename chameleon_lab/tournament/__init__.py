"""Tournaments: sessions of games between agents, run in parallel, recorded, resumed.

The pieces, lowest first: :mod:`.seatings` (who sits where), :mod:`.session` (a
session's parameters and its games as tasks), :mod:`.play` (one game and its record),
:mod:`.records` (the JSON Lines file and tidy tables) and :mod:`.runner` (local pool or
Dask, resume). The original program's session files and their exact replay are the
thesis's (:mod:`chameleon_lab.thesis`).
"""

from .play import play_game, without_times
from .records import (
    RecordsInUse,
    RecordsLock,
    RecordWriter,
    Tables,
    TornLineWarning,
    pack_records,
    read_records,
    reading_once,
    tables,
    unpack_records,
)
from .runner import (
    GameFailed,
    MissingGames,
    RunReport,
    records_only,
    records_only_on,
    run_session,
    run_tasks,
    session_records,
)
from .seatings import every_seating, format_seating, original_seatings, parse_seating
from .session import GameTask, Session, SessionTasks, load_session

__all__ = [
    "GameFailed",
    "GameTask",
    "MissingGames",
    "RecordWriter",
    "RecordsInUse",
    "RecordsLock",
    "RunReport",
    "Session",
    "SessionTasks",
    "Tables",
    "TornLineWarning",
    "every_seating",
    "format_seating",
    "load_session",
    "original_seatings",
    "pack_records",
    "parse_seating",
    "play_game",
    "read_records",
    "reading_once",
    "records_only",
    "records_only_on",
    "run_session",
    "run_tasks",
    "session_records",
    "tables",
    "unpack_records",
    "without_times",
]
