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
  games are submitted to a Dask cluster (every worker needs chameleon_lab installed),
  a bounded window of them at a time. An address is connected to (within
  :data:`CONNECT_TIMEOUT` seconds) before anything is written.

Tasks are taken from the session lazily, so memory does not grow with its size.

Ctrl-C (or the notebook's interrupt) and SIGTERM stop a run cleanly: the pool is
terminated, the Dask futures are cancelled, and every game finished so far is already
on disk; the report says which signal stopped it.

A run that writes a records file holds its lock (:class:`.RecordsLock`) from start
to end: a second run on the same file stops at once, naming the first one's PID.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from ..checks import whole_number
from ..source_code import code_version
from .play import play_game, task_game, warm_up
from .records import (
    RecordsLock,
    RecordWriter,
    TornLineWarning,
    check_writable,
    forget_inherited_locks,
    read_records,
)
from .session import GameTask, Session, SessionTasks

#: seconds to wait for a Dask scheduler given by address before giving up
CONNECT_TIMEOUT = 3.0
#: Dask futures in flight at once: enough to keep a large cluster busy, bounded memory
DASK_WINDOW = 1000


class MissingGames(ValueError):
    """Under :func:`records_only`, a session whose records file lacks games."""


_records_only = threading.local()


@contextlib.contextmanager
def records_only() -> Iterator[None]:
    """Within this block :func:`run_session` plays no game: a session whose records
    file holds every game runs as usual (reading them), one that lacks games raises
    :class:`MissingGames` naming the file and the count. For recomputing the tables of
    a finished run from its records, where a game played would be a silent change."""
    before = getattr(_records_only, "on", False)
    _records_only.on = True
    try:
        yield
    finally:
        _records_only.on = before


def records_only_on() -> bool:
    """Whether this thread is inside :func:`records_only` (no game will be played)."""
    return bool(getattr(_records_only, "on", False))


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
    #: the signal that stopped an interrupted run: "SIGINT" (Ctrl-C) or "SIGTERM"
    signal: str | None = None

    def __str__(self) -> str:
        where = f" into {self.path}" if self.path else ""
        state = "done"
        if self.interrupted:
            state = f"interrupted by {self.signal}" if self.signal else "interrupted"
        return (
            f"{state}: played {self.played} game(s){where} in {self.seconds:.1f} s; "
            f"{self.skipped} were already finished; "
            f"{self.skipped + self.played} of {self.total} finished"
        )

    def complete(self, name: str = "the run") -> RunReport:
        """This report, where every game was played; ``KeyboardInterrupt`` naming
        ``name`` where a signal stopped the run. A study that goes on from an
        interrupted session would compute its tables from part of the games and then
        play its next session as if nothing had happened: callers that use the games
        call this, so an interrupt stops the study (its records stay: run it again to
        resume)."""
        if self.interrupted:
            raise KeyboardInterrupt(f"{name} {self}; run again to resume")
        return self


class Terminated(KeyboardInterrupt):
    """SIGTERM during a run: handled as Ctrl-C is, the run stops cleanly."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated()


def _interrupted(error: BaseException | None) -> bool:
    """Whether ``error`` was caused by Ctrl-C (or SIGTERM): an interrupt that arrives in
    compiled code comes back as another error (numba's ``SystemError``) chained to it."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def _play_safely(task: GameTask) -> tuple[bool, Any]:
    try:
        return True, play_game(task)
    except Exception as error:  # reported in the parent with the game named
        if _interrupted(error):  # a stop, not a failed game: the run ends cleanly
            raise KeyboardInterrupt from error
        return False, (task.session.get("name", "?"), task.game, traceback.format_exc())


def _die_with_parent(parent: int) -> bool:
    """Linux: have the kernel kill this process when its parent dies (even by SIGKILL).

    Returns whether that is arranged."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, signal.SIGKILL, 0, 0, 0) != 0:  # PR_SET_PDEATHSIG
            return False
    except (OSError, AttributeError):
        return False
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    return True


#: Signals blocked while the pool forks its workers (see :func:`_pool`).
_FORK_BLOCKED = {signal.SIGINT, signal.SIGTERM}


def _worker_init(parent: int) -> None:
    # The parent handles Ctrl-C and SIGTERM and terminates the pool (terminate() sends
    # SIGTERM, hence its default here: fork inherited the parent's handler). A signal
    # to the whole process group (a terminal's Ctrl-C, kill -TERM -PGID, a batch
    # system) must not reach the workers: one killed while it holds a lock of the
    # pool's queues (writing a result, waiting for a task) leaves the parent hanging
    # in terminate(). So a worker leaves the group where it can still be sure to die
    # with its parent (Linux), and ignores SIGINT in any case.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # forked with both blocked: see _pool
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _FORK_BLOCKED)
    if _die_with_parent(parent):
        os.setpgid(0, 0)
    forget_inherited_locks()  # a worker must not keep the parent's records lock alive


def _check(outcome: tuple[bool, Any]) -> dict[str, Any]:
    ok, value = outcome
    if not ok:
        session, game, tb = value
        raise GameFailed(f"game {game} of session {session!r} failed in a worker:\n{tb}")
    return value


def _serial(tasks: Iterable[GameTask]) -> Iterator[tuple[bool, Any]]:
    for task in tasks:
        yield _play_safely(task)


def _pool(
    tasks: Iterable[GameTask], workers: int, warm: Iterable[GameTask]
) -> Iterator[tuple[bool, Any]]:
    # fork: workers inherit the compiled searches and need no ``__main__`` guard in
    # the caller's script (spawn re-imports it); spawn where fork does not exist
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    if method == "fork":
        code_version()  # hashed here once (0.7 s), inherited: not once in every worker
        for task in warm:  # warm_up compiles each kind of search once
            start = task_game(task).start()
            for params in task.agents.values():
                warm_up(params, start)
    # The workers are forked with SIGINT and SIGTERM blocked, and unblock them in
    # _worker_init once the parent's handlers are replaced. Otherwise a SIGTERM from
    # terminate() reaching a worker just after its fork (a busy machine may not have run
    # it yet) ran the parent's handler there, whose exception left os.fork() before
    # multiprocessing's guard: the worker went on in the caller's code (seen once in
    # CI: a worker of a short tournament ran the rest of the test suite). The pool's
    # threads, started here, inherit the mask, so workers they fork later are covered.
    masked = hasattr(signal, "pthread_sigmask")
    if masked:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, _FORK_BLOCKED)
    try:
        pool = ctx.Pool(workers, initializer=_worker_init, initargs=(os.getpid(),))
    finally:
        if masked:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
    try:
        # imap feeds the tasks to the workers through a pipe as they are taken, so
        # a lazy sequence of tasks is never built all at once
        yield from pool.imap_unordered(_play_safely, tasks, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def connect(scheduler: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A ``distributed.Client`` of the scheduler at ``scheduler``, or ``ValueError``
    saying it cannot be reached within ``timeout`` seconds."""
    try:
        from distributed import Client
    except ImportError as exc:  # pragma: no cover - distributed is a dependency
        raise RuntimeError("running on Dask needs the 'distributed' package") from exc
    try:
        return Client(scheduler, timeout=timeout)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise ValueError(
            f"cannot reach the Dask scheduler at {scheduler!r} within {timeout:g} s ({exc}); "
            "start it first (dask scheduler) and give its address, e.g. tcp://host:8786, "
            "or leave --scheduler out to play on this machine"
        ) from None


def _dask(tasks: Iterable[GameTask], client: Any, scheduler: str | None) -> Iterator:
    from distributed import as_completed

    own = client is None
    if own:
        client = connect(scheduler)
    todo = iter(tasks)
    running: set[Any] = set()
    try:
        first = [client.submit(_play_safely, t, pure=False) for t in islice(todo, DASK_WINDOW)]
        running.update(first)
        done = as_completed(first)
        for future in done:
            running.discard(future)
            following = next(todo, None)
            if following is not None:  # keep the window full: one in for each one out
                new = client.submit(_play_safely, following, pure=False)
                running.add(new)
                done.add(new)
            yield future.result()
    finally:
        client.cancel(list(running))
        if own:
            client.close()


def run_tasks(
    tasks: Collection[GameTask],
    on_record: Callable[[dict[str, Any]], None],
    *,
    workers: int | None = None,
    client: Any = None,
    scheduler: str | None = None,
    progress: bool = True,
    desc: str = "games",
    initial: int = 0,
    warm: Iterable[GameTask] | None = None,
) -> tuple[int, str | None]:
    """Play ``tasks`` and hand each record to ``on_record`` as its game finishes.

    ``tasks`` is any sized iterable (a list, :class:`.SessionTasks`); it is iterated
    once, lazily. ``warm`` are the tasks whose searches a process pool compiles before
    it forks (default: all of ``tasks``; one of each seating is enough).

    Returns (games played, stop): ``stop`` is ``None`` when every task was played, or
    the signal that interrupted the run, ``"SIGINT"`` (Ctrl-C) or ``"SIGTERM"``.
    Records arrive in completion order.
    """
    if workers is None:
        workers = os.cpu_count() or 1
    workers = whole_number("workers", workers)
    if client is not None and scheduler is not None:
        raise ValueError("give a Dask client or a scheduler address, not both")
    total = len(tasks)
    if not total:
        return 0, None
    if client is not None or scheduler is not None:
        stream = _dask(tasks, client, scheduler)
        slots = None
    elif workers == 1:
        stream, slots = _serial(tasks), 1
    else:
        warm = tasks if warm is None else warm
        stream, slots = _pool(tasks, min(workers, total), warm), workers
    done = 0
    bar = tqdm(total=initial + total, initial=initial, desc=desc, unit="game", disable=not progress)
    # SIGTERM (kill, a batch system ending a job) stops the run as Ctrl-C does
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if main else None
    try:
        for outcome in stream:
            on_record(_check(outcome))
            done += 1
            bar.update(1)
            if slots:
                bar.set_postfix(running=min(slots, total - done), refresh=False)
    except KeyboardInterrupt as exc:
        return done, "SIGTERM" if isinstance(exc, Terminated) else "SIGINT"
    finally:
        try:
            stream.close()  # terminates the pool / cancels the futures
            bar.close()
        finally:
            if main:  # None: a handler not set from Python; the default is the nearest
                signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)
    return done, None


class _Pending(Collection[GameTask]):
    """The tasks of a session not yet finished, taken lazily from its tasks."""

    def __init__(self, tasks: SessionTasks, done: set[int]) -> None:
        self.tasks = tasks
        self.done = {g for g in done if 0 <= g < len(tasks)}

    def __len__(self) -> int:
        return len(self.tasks) - len(self.done)

    def __iter__(self) -> Iterator[GameTask]:
        if not self.done:
            yield from self.tasks
            return
        for game in range(len(self.tasks)):
            if game not in self.done:
                yield self.tasks[game]

    def __contains__(self, task: object) -> bool:
        return isinstance(task, GameTask) and task.game not in self.done


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
    ids = session.record_ids
    clash = sorted(
        {r["session_id"] for r in records if r["session"]["name"] == session.name} - set(ids)
    )
    if clash:
        raise ValueError(
            f"{path} already holds games of a session named {session.name!r} with other "
            f"parameters (fingerprint {clash[0]}, this session {ids[0]}); write to another "
            "file or give the session another name"
        )
    return {int(r["game"]) for r in records if r["session_id"] in ids}


def session_records(path: str | Path, session: Session) -> list[dict[str, Any]]:
    """The records of ``session``'s games in a records file: other sessions' games left
    out, and so are games beyond its repetitions (those of a longer run of the same
    session). Records written under its :attr:`~.Session.legacy_fingerprint` come with
    the current one as ``session_id`` (in a copy: the records read are not changed), so
    one session is one group in the tables."""
    ids = session.record_ids  # properties that build the agents: once, not per line
    games = len(session)
    return [
        r if r["session_id"] == ids[0] else {**r, "session_id": ids[0]}
        for r in read_records(path)
        if r["session_id"] in ids and int(r["game"]) < games
    ]


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
    Interrupting (Ctrl-C, or SIGTERM) returns a report with ``interrupted=True`` and
    the signal; every finished game is kept, and the same call resumes.

    Before anything is written, ``out`` must be writable and a ``scheduler`` address
    must answer (``ValueError`` otherwise, and no file is left behind); while the run
    lasts it holds ``out``'s lock, so a second run on the same file stops at once
    (``ValueError`` naming the file and the PID of the run that holds it).
    """
    start = time.perf_counter()
    if client is not None and scheduler is not None:
        raise ValueError("give a Dask client or a scheduler address, not both")
    tasks = session.tasks()
    lock = RecordsLock(out) if out is not None else None
    own_client = writer = None
    try:
        if lock is not None:
            check_writable(lock.path)  # creates nothing
            if lock.path.parent.is_dir():  # else no other run can hold it yet
                lock.acquire()
        if scheduler is not None:  # before the records file exists: none left if it fails
            client = own_client = connect(scheduler)
        if lock is not None:
            writer = RecordWriter(lock.path, lock=lock)
        done = finished_games(lock.path, session) if lock is not None else set()
        todo = _Pending(tasks, done)
        if len(todo) and records_only_on():
            raise MissingGames(
                f"{out}: {len(todo)} of the {len(tasks)} games of session {session.name!r} "
                "are not in the records (recomputing from records plays no game)"
            )
        report = RunReport(lock.path if lock else None, len(tasks), len(tasks) - len(todo), 0, 0.0)

        def keep(record: dict[str, Any]) -> None:
            if writer is not None:
                writer.write(record)
            else:
                report.records.append(record)

        report.played, stop = run_tasks(
            todo,
            keep,
            workers=workers,
            client=client,
            progress=progress,
            desc=session.name,
            initial=report.skipped,
            warm=tasks.first_repetition(),
        )
        report.interrupted, report.signal = stop is not None, stop
        report.seconds = time.perf_counter() - start
    finally:
        if writer is not None:
            writer.close()
        if lock is not None:
            lock.release()
        if own_client is not None:
            own_client.close()
    return report
