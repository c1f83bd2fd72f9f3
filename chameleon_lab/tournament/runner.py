"""Running the games of a session as independent tasks: here, on local cores, or on Dask.

:func:`run_session` plays every game of a :class:`.Session` that its records file does
not hold yet and appends each record the moment its game finishes, so an interrupted
or killed run loses only the games that were being played; running it again plays
exactly the missing ones. :func:`run_tasks` is the engine underneath, also used by
the exact replay of legacy sessions.

Executors:

* ``workers=1``: in this process, one game after another;
* ``workers=N`` (default: all cores): a pool of N forked processes;
* ``client=`` a ``dask.distributed.Client`` or ``scheduler="tcp://host:8786"``: the
  games are submitted to a Dask cluster (every worker needs chameleon_lab installed).

Ctrl-C (or the notebook's interrupt) stops a run cleanly: the pool is terminated, the
Dask futures are cancelled, and every game finished so far is already on disk.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
import traceback
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from .play import play_game, task_game, warm_up
from .records import RecordWriter, TornLineWarning, read_records
from .session import GameTask, Session


class GameFailed(RuntimeError):
    """A game raised an error in a worker; carries the game and the worker's traceback."""


@dataclass
class RunReport:
    """What a run did: games in the session, already done before, played now."""

    path: Path | None
    total: int
    skipped: int
    played: int
    seconds: float
    interrupted: bool = False
    records: list[dict[str, Any]] = field(default_factory=list, repr=False)

    def __str__(self) -> str:
        where = f" into {self.path}" if self.path else ""
        state = "interrupted" if self.interrupted else "done"
        return (
            f"{state}: played {self.played} game(s){where} in {self.seconds:.1f} s; "
            f"{self.skipped} were already finished; "
            f"{self.skipped + self.played} of {self.total} finished"
        )


def _play_safely(task: GameTask) -> tuple[bool, Any]:
    try:
        return True, play_game(task)
    except Exception:  # reported in the parent with the game named
        return False, (task.game, traceback.format_exc())


def _ignore_sigint() -> None:
    # the parent handles Ctrl-C and terminates the pool; workers must not die half-way
    # through writing a result into the pipe
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _check(outcome: tuple[bool, Any], session: str) -> dict[str, Any]:
    ok, value = outcome
    if not ok:
        game, tb = value
        raise GameFailed(f"game {game} of session {session!r} failed in a worker:\n{tb}")
    return value


def _serial(tasks: Sequence[GameTask]) -> Iterator[tuple[bool, Any]]:
    for task in tasks:
        yield _play_safely(task)


def _pool(tasks: Sequence[GameTask], workers: int) -> Iterator[tuple[bool, Any]]:
    # fork: workers inherit the compiled searches and need no ``__main__`` guard in
    # the caller's script (spawn re-imports it); spawn where fork does not exist
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    if method == "fork":
        for task in tasks:  # warm_up compiles each kind of search once
            start = task_game(task).start()
            for params in task.agents.values():
                warm_up(params, start)
    pool = ctx.Pool(workers, initializer=_ignore_sigint)
    try:
        yield from pool.imap_unordered(_play_safely, tasks, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _dask(tasks: Sequence[GameTask], client: Any, scheduler: str | None) -> Iterator:
    try:
        from distributed import Client, as_completed
    except ImportError as exc:  # pragma: no cover - distributed is a dependency
        raise RuntimeError("running on Dask needs the 'distributed' package") from exc
    own = client is None
    if own:
        client = Client(scheduler)
    futures = client.map(_play_safely, list(tasks), pure=False)
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.cancel(futures)
        if own:
            client.close()


def run_tasks(
    tasks: Sequence[GameTask],
    on_record: Callable[[dict[str, Any]], None],
    *,
    workers: int | None = None,
    client: Any = None,
    scheduler: str | None = None,
    progress: bool = True,
    desc: str = "games",
    initial: int = 0,
) -> tuple[int, bool]:
    """Play ``tasks`` and hand each record to ``on_record`` as its game finishes.

    Returns (games played, interrupted). Records arrive in completion order.
    """
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, got {workers!r}")
    if client is not None and scheduler is not None:
        raise ValueError("give a Dask client or a scheduler address, not both")
    if not tasks:
        return 0, False
    session = str(tasks[0].session.get("name", "?"))
    if client is not None or scheduler is not None:
        stream = _dask(tasks, client, scheduler)
        slots = None
    elif workers == 1:
        stream, slots = _serial(tasks), 1
    else:
        stream, slots = _pool(tasks, min(workers, len(tasks))), workers
    done = 0
    bar = tqdm(
        total=initial + len(tasks), initial=initial, desc=desc, unit="game", disable=not progress
    )
    try:
        for outcome in stream:
            on_record(_check(outcome, session))
            done += 1
            bar.update(1)
            if slots:
                bar.set_postfix(running=min(slots, len(tasks) - done), refresh=False)
    except KeyboardInterrupt:
        return done, True
    finally:
        stream.close()  # terminates the pool / cancels the futures
        bar.close()
    return done, False


def finished_games(path: str | Path, session: Session) -> set[int]:
    """The games of ``session`` already in a records file (none if it does not exist).

    Raises ``ValueError`` if the file holds a session of the same name with other
    parameters: resuming it would mix two experiments.
    """
    path = Path(path)
    if not path.exists():
        return set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TornLineWarning)  # the writer reports and repairs it
        records = read_records(path)
    sid = session.fingerprint
    clash = sorted(
        {r["session_id"] for r in records if r["session"]["name"] == session.name} - {sid}
    )
    if clash:
        raise ValueError(
            f"{path} already holds games of a session named {session.name!r} with other "
            f"parameters (fingerprint {clash[0]}, this session {sid}); write to another file "
            "or give the session another name"
        )
    return {int(r["game"]) for r in records if r["session_id"] == sid}


def session_records(path: str | Path, session: Session) -> list[dict[str, Any]]:
    """The records of ``session`` in a records file (other sessions' games left out)."""
    sid = session.fingerprint  # a property that builds the agents: once, not per line
    return [r for r in read_records(path) if r["session_id"] == sid]


def run_session(
    session: Session,
    out: str | Path | None = None,
    *,
    workers: int | None = None,
    client: Any = None,
    scheduler: str | None = None,
    progress: bool = True,
) -> RunReport:
    """Play the games of ``session`` not yet in ``out`` and append their records.

    With ``out=None`` nothing is written and the records are returned in the report.
    Interrupting (Ctrl-C) returns a report with ``interrupted=True``; every finished
    game is kept, and the same call resumes.
    """
    start = time.perf_counter()
    tasks = session.tasks()
    done = finished_games(out, session) if out is not None else set()
    todo = [t for t in tasks if t.game not in done]
    report = RunReport(Path(out) if out else None, len(tasks), len(tasks) - len(todo), 0, 0.0)
    writer = RecordWriter(out) if out is not None else None

    def keep(record: dict[str, Any]) -> None:
        if writer is not None:
            writer.write(record)
        else:
            report.records.append(record)

    try:
        report.played, report.interrupted = run_tasks(
            todo,
            keep,
            workers=workers,
            client=client,
            scheduler=scheduler,
            progress=progress,
            desc=session.name,
            initial=report.skipped,
        )
    finally:
        if writer is not None:
            writer.close()
        report.seconds = time.perf_counter() - start
    return report
