"""Records files: one JSON line per finished game, appended atomically, read back safely.

Writing (:class:`RecordWriter`): each record is encoded first and written with a single
``write`` on a file opened for appending, then flushed to disk (``fsync``), so a line
is either complete or, after a crash in the middle of the write, a torn last line
without its newline. Opening a writer on such a file reports the torn line and cuts it
off, so the next record starts on a line of its own; the game it belonged to counts as
unfinished and is played again.

Reading (:func:`read_records`): every line must be a JSON object of kind
``chameleon_lab/game``; anything else is an error naming the file and line, except an
incomplete last line, which is reported as a warning and ignored.

Tables (:func:`tables`): tidy pandas frames ``games`` (one row per game), ``seats`` (one
row per occupied seat) and ``moves`` (one row per move), for analysis and Parquet.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .play import RECORD_KIND, record_seats


class TornLineWarning(UserWarning):
    """A records file ends in an incomplete line (a crash while writing); it is ignored."""


def _split_torn(data: bytes) -> tuple[bytes, bytes]:
    """(complete lines, torn tail) of a file's bytes."""
    cut = data.rfind(b"\n") + 1
    return data[:cut], data[cut:]


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """All complete records of a records file, in file order.

    Raises ``ValueError`` naming the file and line for a line that is not a game
    record; warns (:class:`TornLineWarning`) about an incomplete last line.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read records file {path}: {exc.strerror}") from None
    complete, torn = _split_torn(data)
    lines = complete.split(b"\n")[:-1]
    if torn.strip():
        warnings.warn(
            f"{path} line {len(lines) + 1} is incomplete (written when a run was killed?); "
            "ignored: its game counts as not played",
            TornLineWarning,
            stacklevel=2,
        )
    out = []
    for no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        out.append(parse_record(line, f"{path} line {no}"))
    return out


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
    missing = [k for k in ("session_id", "game", "seating", "moves", "outcomes") if k not in obj]
    if missing:
        raise ValueError(f"{where} is a game record without {', '.join(missing)}")
    return obj


class RecordWriter:
    """Appends records to a JSON Lines file, one atomic write and fsync per record.

    Use as a context manager. On opening, a torn last line is reported and removed.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._repair()
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

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
        """Close the file."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

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
        folder.mkdir(parents=True, exist_ok=True)
        paths = []
        for name in ("games", "seats", "moves"):
            path = folder / f"{name}.parquet"
            tmp = path.with_suffix(".parquet.tmp")
            getattr(self, name).to_parquet(tmp, index=False)
            os.replace(tmp, path)
            paths.append(path)
        return paths


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


def _rows(records: Iterable[dict[str, Any]]) -> Iterator[tuple[dict, list[dict], list[dict]]]:
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
            }
            for i, c in enumerate(seat_names)
            if seating[i] is not None
        ]
        order = list(r["session"]["agents"])  # the session's own agent order
        for row in seats:
            row["agent_index"] = order.index(row["agent"]) if row["agent"] in order else -1
        seat_agent = dict(zip(seat_names, seating, strict=True))
        moves = [
            {
                **key,
                "ply": ply,
                "seat": m["seat"],
                "agent": seat_agent[m["seat"]],
                "move": m["move"],
                "pawns": m.get("pawns"),
                "legal": m.get("legal"),
                "depth": m.get("depth"),
                "expanded": m.get("expanded"),
                "evaluated": m.get("evaluated"),
                "time_ms": m.get("time_ms"),
                "random": m.get("random", False),
            }
            for ply, m in enumerate(r["moves"])
        ]
        yield game, seats, moves


_GAME_COLUMNS = ["session", "session_id", "game"]


def tables(records: Iterable[dict[str, Any]]) -> Tables:
    """Tidy tables of records, sorted by session and game (records may come in any order)."""
    games, seats, moves = [], [], []
    records = list(records)
    names = list(dict.fromkeys(name for r in records for name in record_seats(r)))
    for g, s, m in _rows(records):
        games.append(g)
        seats.extend(s)
        moves.extend(m)
    order = _GAME_COLUMNS
    games_df = pd.DataFrame(games, columns=None if games else [*order, "moves"])
    seats_df = pd.DataFrame(seats, columns=None if seats else [*order, "seat", "agent"])
    moves_df = pd.DataFrame(moves, columns=None if moves else [*order, "ply", "agent"])
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
