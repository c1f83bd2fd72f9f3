"""Records files: one JSON line per finished game, appended atomically, read back safely.

Writing (:class:`RecordWriter`): each record is encoded first and written with a single
``write`` on a file opened for appending, then flushed to disk (``fsync``), so a line
is either complete or, after a crash in the middle of the write, a torn last line
without its newline. Opening a writer on such a file reports the torn line and cuts it
off, so the next record starts on a line of its own; the game it belonged to counts as
unfinished and is played again.

Reading (:func:`read_records`): every line must be a JSON object of kind
``chameleon_lab/game`` with the fields the tables and a resumed run rely on, of the
right types (:func:`parse_record`); anything else is an error naming the file, the line
and the field, except an incomplete last line, which is reported as a warning and
ignored. Inside :func:`reading_once` an unchanged file is parsed once however often it
is read (a duel's resume reads its file three times a round).

Locking (:class:`RecordsLock`): a run holds an exclusive ``flock`` on a lock file beside
its records file (``records.jsonl.lock``, holding the run's PID and command) for as
long as it writes, so a second run on the same file stops at once naming the first
instead of playing (and appending) every game again. The lock ends with the process
that holds it, even when it is killed; a lock file left behind by a killed run is
taken over by the next one.

Packing (:func:`pack_records`, :func:`unpack_records`): the records of long runs are
kept under version control xz-compressed beside the working ``.jsonl`` (which git
ignores); a run unpacks what it lacks before it resumes and packs what it wrote after,
and :func:`read_records` reads either.

Tables (:func:`tables`): tidy pandas frames ``games`` (one row per game), ``seats`` (one
row per occupied seat) and ``moves`` (one row per move), for analysis and Parquet.
"""

from __future__ import annotations

import contextlib
import contextvars
import fcntl
import json
import lzma
import os
import shlex
import sys
import tempfile
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..files import atomic_write
from ..games.match import DRAW, MOVE_LIMIT, WINNER
from .play import RECORD_KIND, record_seats
from .seatings import SEATS


class TornLineWarning(UserWarning):
    """A records file ends in an incomplete line (a crash while writing); it is ignored."""


def _split_torn(data: bytes) -> tuple[bytes, bytes]:
    """(complete lines, torn tail) of a file's bytes."""
    cut = data.rfind(b"\n") + 1
    return data[:cut], data[cut:]


#: The files :func:`read_records` has parsed inside :func:`reading_once`: path to
#: (the file's identity, size and modification time; its records; its torn line's
#: number or 0).
_PARSED: contextvars.ContextVar[dict[Path, tuple[tuple, list, int]] | None]
_PARSED = contextvars.ContextVar("chameleon_lab_parsed_records", default=None)


@contextlib.contextmanager
def reading_once() -> Iterator[None]:
    """Within the block, :func:`read_records` parses a file again only when it changed
    (another inode, size or modification time) and otherwise hands out the records it
    parsed before: the same dictionaries, so code inside the block must not change
    them. For code that reads one file many times: a duel's resume reads the games
    already played, the blocks recorded and the tables of each round from one file
    (``docs/benchmarks.md``, "Measurements behind the design")."""
    token = _PARSED.set({})
    try:
        yield
    finally:
        _PARSED.reset(token)


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """All complete records of a records file (``.jsonl``, or packed ``.jsonl.xz``), in
    file order.

    Raises ``ValueError`` naming the file and line for a line that is not a game
    record; warns (:class:`TornLineWarning`) about an incomplete last line.
    """
    path = Path(path)
    parsed = _PARSED.get()
    try:
        if parsed is not None:
            st = path.stat()
            stamp = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
            if path in parsed and parsed[path][0] == stamp:
                _, out, torn_line = parsed[path]
                _warn_torn(path, torn_line)
                return list(out)
        data = _packed_bytes(path) if path.suffix == PACKED else path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read records file {path}: {exc.strerror}") from None
    complete, torn = _split_torn(data)
    lines = complete.split(b"\n")[:-1]
    torn_line = len(lines) + 1 if torn.strip() else 0
    _warn_torn(path, torn_line)
    out = []
    for no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        out.append(parse_record(line, f"{path} line {no}"))
    if parsed is not None:
        parsed[path] = (stamp, out, torn_line)
        return list(out)
    return out


def _warn_torn(path: Path, line: int) -> None:
    """Warn that ``path``'s ``line`` is incomplete (none if ``line`` is 0)."""
    if line:
        warnings.warn(
            f"{path} line {line} is incomplete (written when a run was killed?); "
            "ignored: its game counts as not played",
            TornLineWarning,
            stacklevel=3,
        )


#: The suffix added to a packed (xz-compressed) records file.
PACKED = ".xz"


def pack_records(folder: str | Path) -> list[Path]:
    """Write ``NAME.jsonl.xz`` beside every ``NAME.jsonl`` under ``folder`` whose packed
    copy is missing or holds other bytes (atomically; the same records give the same
    bytes, so an unchanged file is not rewritten); returns the packed files written.

    A torn last line (a killed run) is left out of the packed copy. Records files only
    grow, so a packed copy that is not a prefix of its working copy holds games the
    working copy lacks (pulled from another run, or the working copy is stale):
    ``ValueError`` naming both instead of packing the fewer games over the more."""
    written = []
    for path in sorted(Path(folder).rglob("*.jsonl")):
        complete, _ = _split_torn(path.read_bytes())
        packed = path.with_name(path.name + PACKED)
        old = _packed_bytes(packed) if packed.exists() else b""
        if old == complete:
            continue
        if not complete.startswith(old):
            lines = old.count(b"\n"), complete.count(b"\n")
            raise ValueError(
                f"{packed} holds records that its working copy {path.name} lacks "
                f"({lines[0]} lines packed, {lines[1]} in the working copy, and the packed "
                "ones are not its first lines): packing would lose them. "
                "Delete the working copy to take the packed records, or restore the packed "
                "file from git if the working copy is the one to keep"
            )
        data = lzma.compress(complete, preset=9)
        atomic_write(packed, lambda tmp, data=data: tmp.write_bytes(data))
        written.append(packed)
    return written


def unpack_records(folder: str | Path) -> list[Path]:
    """Write ``NAME.jsonl`` from every ``NAME.jsonl.xz`` under ``folder`` whose working
    copy is missing or a strict prefix of it (a pull brought more games than this
    checkout's run played), so a run resumes from the committed records; returns those
    written. A working copy that holds the packed records and more (a run not packed
    yet) is kept; one that diverges from them is ``ValueError``, nothing guessed."""
    written = []
    for packed in sorted(Path(folder).rglob(f"*.jsonl{PACKED}")):
        path = packed.with_name(packed.name[: -len(PACKED)])
        data = _packed_bytes(packed)
        if path.exists():
            working, _ = _split_torn(path.read_bytes())
            if working.startswith(data):
                continue
            if not data.startswith(working):
                raise ValueError(
                    f"records {path} and {packed.name} diverge (neither holds the other's "
                    "lines first): delete the working copy to take the packed records, or "
                    "restore the packed file from git if the working copy is the one to keep"
                )
        atomic_write(path, lambda tmp, data=data: tmp.write_bytes(data))
        written.append(path)
    return written


def _packed_bytes(packed: Path) -> bytes:
    """The records a packed file holds, or ``ValueError`` if it is not xz data."""
    try:
        return lzma.decompress(packed.read_bytes())
    except lzma.LZMAError as exc:
        raise ValueError(f"records file {packed} is not xz-compressed data: {exc}") from None


def parse_record(line: bytes | str, where: str) -> dict[str, Any]:
    """One record from one line; ``ValueError`` with ``where`` if it is not one."""
    try:
        obj = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        msg = getattr(exc, "msg", str(exc))
        raise ValueError(
            f"{where} is not JSON ({msg}); a records file has one game a line"
        ) from None
    if not isinstance(obj, dict) or obj.get("record") != RECORD_KIND:
        raise ValueError(
            f'{where} is not a chameleon_lab game record (no "record": "{RECORD_KIND}"); '
            "is this a records file? Legacy session files are read by load_legacy"
        )
    check_record(obj, where)
    return obj


_MISSING = object()
_REASONS = (WINNER, DRAW, MOVE_LIMIT)


def _describe(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, bytes) else repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    kind = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__
    )
    return f"{text} ({kind})" if value is not None else "null"


def _field(obj: dict[str, Any], where: str, name: str, expected: str, ok: Any) -> Any:
    """``obj[name]`` if ``ok(value)``; else ``ValueError`` naming the place and field."""
    value = obj.get(name, _MISSING)
    if value is _MISSING:
        raise ValueError(f'{where}: the game record has no field "{name}" ({expected})')
    if not ok(value):
        raise ValueError(f'{where}: field "{name}" must be {expected}, got {_describe(value)}')
    return value


def _is_list_of(kind: Any, *, none: bool = False) -> Any:
    def ok(value: Any) -> bool:
        return isinstance(value, list) and all(
            (v is None and none) or (isinstance(v, kind) and not isinstance(v, bool)) for v in value
        )

    return ok


def check_record(obj: dict[str, Any], where: str) -> None:
    """Check the fields of a game record that the tables, summaries and resume use.

    Raises ``ValueError`` naming ``where`` (file and line), the field, what it must be
    and what it is: a record damaged by hand or by another program is reported, not
    met later as a ``KeyError`` deep inside a table.
    """
    _field(
        obj,
        where,
        "session",
        'an object with the session\'s "name" and "agents"',
        lambda v: (
            isinstance(v, dict)
            and isinstance(v.get("name"), str)
            and isinstance(v.get("agents"), dict)
        ),
    )
    _field(obj, where, "session_id", "the session's fingerprint, a string", _is_str)
    _field(
        obj,
        where,
        "game",
        "the game's number in its session, a whole number >= 0",
        lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    )
    seats = SEATS
    if "seats" in obj:
        seats = tuple(
            _field(obj, where, "seats", "a list of the game's seat names", _is_list_of(str))
        )
    seating = _field(
        obj,
        where,
        "seating",
        f"a list of {len(seats)} agent names, one per seat ({', '.join(seats)}), "
        "null for an empty seat",
        lambda v: _is_list_of(str, none=True)(v) and len(v) == len(seats),
    )
    seated = sorted({name for name in seating if name is not None})
    for key, what in (("agents", "the parameters (an object)"), ("outcomes", "the result")):
        value = _field(
            obj,
            where,
            key,
            f"an object with {what} of every seated agent ({', '.join(seated)})",
            lambda v: isinstance(v, dict),
        )
        absent = [name for name in seated if name not in value]
        if absent:
            raise ValueError(
                f'{where}: field "{key}" has no entry for {", ".join(absent)}, seated in '
                f'"seating"; it must hold {what} of every seated agent ({", ".join(seated)})'
            )
        bad = [
            name
            for name, params in value.items()
            if key == "agents" and not isinstance(params, dict)
        ]
        if bad:
            raise ValueError(
                f'{where}: field "agents" entry {bad[0]!r} must be an object of agent '
                f"parameters, got {_describe(value[bad[0]])}"
            )
    moves = _field(obj, where, "moves", "a list of the game's moves", lambda v: isinstance(v, list))
    for ply, m in enumerate(moves):
        if not (isinstance(m, dict) and isinstance(m.get("move"), str) and m.get("seat") in seats):
            raise ValueError(
                f'{where}: field "moves" entry {ply} must be an object with "move" (a string) '
                f'and "seat" (one of {", ".join(seats)}), got {_describe(m)}'
            )
    reason = _field(
        obj,
        where,
        "reason",
        f"why the game ended: {', '.join(_REASONS)}",
        lambda v: v in _REASONS,
    )
    _field(
        obj,
        where,
        "survivors",
        "a list of the seats sharing the best result"
        + (", one seat for a winner" if reason == WINNER else "")
        + f" (seats: {', '.join(seats)})",
        lambda v: (
            _is_list_of(str)(v) and all(s in seats for s in v) and (reason != WINNER or len(v) == 1)
        ),
    )
    _field(
        obj,
        where,
        "seat_results",
        f"a list of {len(seats)} results, one per seat (null for an empty seat)",
        lambda v: isinstance(v, list) and len(v) == len(seats),
    )


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


class RecordsInUse(ValueError):
    """Another run holds the lock of a records file."""


class RecordsLock:
    """An exclusive lock on a records file for the duration of a run.

    The lock is an ``flock`` on ``PATH.lock`` beside the records file; the lock file
    holds the PID and command of the run that holds it, for the message another run
    gets. Use as a context manager, or :meth:`acquire` and :meth:`release`. Taking a
    lock held by another process raises :class:`RecordsInUse` (a ``ValueError``)
    at once, naming the records file and the holder.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self._fd = -1

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd >= 0

    def acquire(self) -> RecordsLock:
        """Take the lock (the records file's folder must exist); raise if it is held."""
        if self.held:
            return self
        while True:
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise ValueError(
                    f"cannot create the lock file {self.lock_path} of records file "
                    f"{self.path}: {exc.strerror}; the records need a writable folder"
                ) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read_holder(fd)
                os.close(fd)
                raise RecordsInUse(
                    f"records file {self.path} is in use by another run ({holder}); "
                    "wait until it ends, or write to another file"
                ) from None
            # the holder before us may have removed the lock file between our open and
            # our flock: then we lock a file nobody else sees; take the one on disk
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.lock_path))
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        command = shlex.join(sys.argv)
        command = command if len(command) <= 1000 else command[:997] + "..."
        info = json.dumps({"pid": os.getpid(), "command": command}) + "\n"
        os.ftruncate(fd, 0)
        os.pwrite(fd, info.encode(), 0)
        self._fd = fd
        _HELD.add(fd)
        return self

    def release(self) -> None:
        """Remove the lock file and give up the lock (nothing if not held)."""
        if not self.held:
            return
        fd, self._fd = self._fd, -1
        _HELD.discard(fd)
        with contextlib.suppress(OSError):
            # unlink while holding the lock: a waiting run then sees a new file
            os.unlink(self.lock_path)
        os.close(fd)

    def __enter__(self) -> RecordsLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


#: lock file descriptors held by this process, closed in forked worker processes
_HELD: set[int] = set()


def forget_inherited_locks() -> None:
    """Close the lock files a forked child inherited (the parent keeps its locks).

    A worker process must not hold its parent's lock after the parent is gone.
    """
    for fd in list(_HELD):
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD.clear()


def _read_holder(fd: int) -> str:
    try:
        info = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return f"PID {int(info['pid'])}: {info.get('command') or '?'}"
    except (OSError, ValueError, KeyError, TypeError):
        return "PID unknown: its lock file is being written"


def check_writable(path: str | Path) -> None:
    """``ValueError`` unless a records file can be written at ``path``.

    Creates nothing that stays: the folder is probed where it exists (a temporary
    file, removed at once), so a run can refuse a read-only or impossible place before
    it starts (and before it creates an empty records file).
    """
    path = Path(path)
    if path.is_dir():
        raise ValueError(
            f"records file {path} is a folder; give a file name such as {path / 'records.jsonl'}"
        )
    if path.exists():
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND))
        except OSError as exc:
            raise ValueError(
                f"cannot write records file {path}: {exc.strerror}; give a writable file"
            ) from None
        return
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise ValueError(
            f"cannot create the folder of records file {path}: {folder} is a file, "
            "not a folder; give a path under a folder"
        )
    try:
        fd, probe = tempfile.mkstemp(prefix=".chameleon-lab-probe-", dir=folder)
    except OSError as exc:
        what = "write" if folder == path.parent else "create the folder of"
        raise ValueError(
            f"cannot {what} records file {path}: {folder} is not writable ({exc.strerror}); "
            "give a path in a writable folder"
        ) from None
    os.close(fd)
    os.unlink(probe)


class RecordWriter:
    """Appends records to a JSON Lines file, one atomic write and fsync per record.

    Use as a context manager. On opening, a torn last line is reported and removed.
    The writer holds the file's :class:`RecordsLock` while it is open: its own
    (``lock=True``, the default; given up on :meth:`close`), or the caller's
    (``lock=`` a :class:`RecordsLock`, taken here if it is not held yet and left to
    the caller to release), so a second writer of the same file stops at once;
    ``lock=False`` writes without one. A file that cannot be written raises
    ``ValueError`` naming it.
    """

    def __init__(self, path: str | Path, *, lock: bool | RecordsLock = True) -> None:
        self.path = Path(path)
        self._fd = -1
        self._lock: RecordsLock | None = None  # our own lock, released on close
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ValueError(
                f"cannot create the folder {self.path.parent} of records file {self.path}: "
                f"{exc.strerror}; give a path in a writable folder"
            ) from None
        if isinstance(lock, RecordsLock):
            lock.acquire()  # the caller's: a no-op if held, released by the caller
        elif lock:
            self._lock = RecordsLock(self.path).acquire()
        try:
            self._repair()
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            self.close()
            raise ValueError(
                f"cannot write records file {self.path}: {exc.strerror}; give a writable file"
            ) from None

    def _repair(self) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        complete, torn = _split_torn(data)
        if torn:
            line = complete.count(b"\n") + 1
            warnings.warn(
                f"{self.path} line {line} is incomplete (written when a run was killed?); "
                "removed, its game will be played again",
                TornLineWarning,
                stacklevel=3,
            )
            os.truncate(self.path, len(complete))

    def write(self, record: dict[str, Any]) -> None:
        """Append one record as one line."""
        line = (json.dumps(record, separators=(",", ":"), allow_nan=False) + "\n").encode()
        view = memoryview(line)
        while view:  # one write in practice; loop only for a short write
            view = view[os.write(self._fd, view) :]
        os.fsync(self._fd)

    def close(self) -> None:
        """Close the file (and give up its lock)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        if self._lock is not None:
            self._lock.release()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class Tables:
    """Tidy tables of records: ``games``, ``seats`` and ``moves`` (pandas DataFrames)."""

    games: pd.DataFrame
    seats: pd.DataFrame
    moves: pd.DataFrame

    def to_parquet(self, folder: str | Path) -> list[Path]:
        """Write ``games.parquet``, ``seats.parquet``, ``moves.parquet`` into ``folder``."""
        folder = Path(folder)
        return [
            atomic_write(folder / f"{name}.parquet", lambda tmp, n=name: getattr(self, n)
                         .to_parquet(tmp, index=False))
            for name in ("games", "seats", "moves")
        ]  # fmt: skip


def _session_name(record: dict[str, Any]) -> str:
    return str(record["session"]["name"])


def _mode(record: dict[str, Any]) -> tuple[str, float | None]:
    """The session's budget kind and value when all its agents share one, as the
    original's sessions did; else ``("mixed", None)``."""
    budgets = set()
    for params in record["agents"].values():
        given = tuple((k, params.get(k)) for k in ("depth", "time_ms", "nodes") if params.get(k))
        budgets.add(given)
    if len(budgets) == 1:
        (given,) = budgets
        if len(given) == 1:
            key, value = given[0]
            return {"depth": "depth", "time_ms": "time", "nodes": "nodes"}[key], value
    return "mixed", None


#: The keys of every move of a record (:mod:`.play`); a move's other keys are the
#: counters its algorithm reports (``Algorithm.reported``: MCTS's ``iterations``), one
#: column each in the moves table, empty for the moves of other algorithms.
_MOVE_KEYS = frozenset(
    ("move", "seat", "pawns", "legal", "depth", "expanded", "evaluated", "time_ms", "random")
)


def _rows(
    records: Iterable[dict[str, Any]], moves: _MoveColumns
) -> Iterator[tuple[dict, list[dict]]]:
    """Each record's row of the games table and rows of the seats table; its moves go
    to ``moves``, column by column."""
    for r in records:
        session = _session_name(r)
        mode, mode_value = _mode(r)
        key = {"session": session, "session_id": r["session_id"], "game": int(r["game"])}
        seating = r["seating"]
        seat_names = record_seats(r)
        game = {
            **key,
            "game_name": r.get("game_name", "chameleon"),
            "repetition": r.get("repetition", 0),
            "seed": r.get("seed"),
            "source": r.get("source", "chameleon_lab"),
            "mode": mode,
            "mode_value": mode_value,
            "players": sum(s is not None for s in seating),
            **{f"seat_{c}": seating[i] for i, c in enumerate(seat_names)},
            "opening": " ".join(r.get("opening", [])),
            "moves": len(r["moves"]),
            "reason": r["reason"],
            "survivors": ",".join(r["survivors"]),
            "winner": r["survivors"][0] if r["reason"] == "winner" else None,
        }
        seats = [
            {
                **key,
                "seat": c,
                "agent": seating[i],
                "seat_result": r["seat_results"][i],
                "outcome": r["outcomes"][seating[i]],
                **({"score": r["scores"][i]} if "scores" in r else {}),  # Rolit: balls
            }
            for i, c in enumerate(seat_names)
            if seating[i] is not None
        ]
        order = list(r["session"]["agents"])  # the session's own agent order
        for row in seats:
            row["agent_index"] = order.index(row["agent"]) if row["agent"] in order else -1
        moves.add(key, dict(zip(seat_names, seating, strict=True)), _node_rates(r), r["moves"])
        yield game, seats


class _MoveColumns:
    """The moves table built column by column: one row per move with the record's key
    (session, session id, game), ``ply``, the move's keys (:data:`_MOVE_KEYS`; ``random``
    False where absent), ``node_rate`` where a record has rates, and each further key a
    move carries (MCTS: ``iterations``), missing values None. A dict per move, 3.8
    million of them in the research records, took a third of reading them."""

    def __init__(self) -> None:
        self.columns: dict[str, list] = {}
        self.rows = 0

    def _put(self, name: str, values: Iterable[Any]) -> None:
        column = self.columns.get(name)
        if column is None:
            column = self.columns[name] = [None] * self.rows
        column.extend(values)

    def add(self, key: dict, seat_agent: dict, rates: dict, moves: list[dict]) -> None:
        """Append the rows of one record's ``moves``."""
        n = len(moves)
        if not n:
            return
        for name, value in key.items():
            self._put(name, [value] * n)
        self._put("ply", range(n))
        agents = [seat_agent[m["seat"]] for m in moves]
        self._put("seat", [m["seat"] for m in moves])
        self._put("agent", agents)
        self._put("move", [m["move"] for m in moves])
        for name in ("pawns", "legal", "depth", "expanded", "evaluated", "time_ms"):
            self._put(name, [m.get(name) for m in moves])
        self._put("random", [m.get("random", False) for m in moves])
        if rates:
            self._put("node_rate", [rates.get(a, float("nan")) for a in agents])
        extra = dict.fromkeys(k for m in moves for k in m if k not in _MOVE_KEYS)
        for name in extra:  # MCTS: iterations
            self._put(name, [m.get(name) for m in moves])
        self.rows += n
        for column in self.columns.values():  # the columns this record lacks
            column.extend([None] * (self.rows - len(column)))

    def frame(self, empty: list[str]) -> pd.DataFrame:
        """The table (with the columns ``empty`` when there is no move)."""
        return pd.DataFrame(
            self.columns if self.rows else None, columns=None if self.rows else empty
        )


def _node_rates(record: dict[str, Any]) -> dict[str, float]:
    """Each agent's ``node_rate`` where one searched on the original's emulated clock
    (:func:`~chameleon_lab.games.chameleon.clock.original_clock_ms` turns its nodes into
    that clock's time; NaN for the others), or empty when none did: the moves table has
    a ``node_rate`` column only then."""
    agents = record.get("agents") or {}
    rates = {name: (p or {}).get("node_rate") for name, p in agents.items()}
    if all(v is None for v in rates.values()):
        return {}
    return {name: float("nan") if v is None else float(v) for name, v in rates.items()}


_GAME_COLUMNS = ["session", "session_id", "game"]


def tables(records: Iterable[dict[str, Any]]) -> Tables:
    """Tidy tables of records, sorted by session and game (records may come in any order)."""
    games, seats, moves = [], [], _MoveColumns()
    records = list(records)
    names = list(dict.fromkeys(name for r in records for name in record_seats(r)))
    for g, s in _rows(records, moves):
        games.append(g)
        seats.extend(s)
    order = _GAME_COLUMNS
    games_df = pd.DataFrame(games, columns=None if games else [*order, "moves"])
    seats_df = pd.DataFrame(seats, columns=None if seats else [*order, "seat", "agent"])
    moves_df = moves.frame([*order, "ply", "agent"])
    for df in (moves_df, seats_df):
        for col in ("depth", "time_ms"):
            if col in df:
                df[col] = df[col].astype(float)
        if "seat" in df:  # the games' seat order, not alphabetical
            df["seat"] = pd.Categorical(df["seat"], categories=names, ordered=True)
    return Tables(
        games_df.sort_values(order, kind="stable").reset_index(drop=True),
        seats_df.sort_values(order, kind="stable").reset_index(drop=True),
        moves_df.sort_values([*order, "ply"], kind="stable").reset_index(drop=True),
    )
