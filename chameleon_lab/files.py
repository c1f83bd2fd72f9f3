"""Files written whole or not at all.

:func:`atomic_write` writes into a temporary file beside the target and renames it over
the target (``os.replace``, atomic on POSIX and Windows), so a reader, or a run
interrupted halfway, never sees half a file: tables, figures, provenance, records,
books. The temporary name is unique per process and call, so two processes writing the
same target at once (pool workers, tests run in parallel) never write into one
temporary file; the last rename wins, whole.

:func:`exclusive` serialises a read-modify-write of a file that several processes
update (the provenance book of a folder two notebooks write at once): without it the
last rename would win and the other's entries would be lost.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path


def atomic_write(path: str | os.PathLike, write: Callable[[Path], object]) -> Path:
    """Make ``path`` by ``write(tmp)`` into a temporary file beside it, then rename that
    over ``path`` (its folder is made if missing); returns ``path``. If ``write``
    raises, the temporary file is removed and ``path`` is left as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def atomic_write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` to ``path`` whole or not at all (see :func:`atomic_write`)."""
    return atomic_write(path, lambda tmp: tmp.write_text(text))


@contextlib.contextmanager
def exclusive(folder: str | os.PathLike) -> Iterator[None]:
    """Hold an exclusive lock on ``folder`` (an ``flock`` on the folder itself, which is
    made if missing; released when the block ends or the process dies), waiting for
    another process that holds it."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock
