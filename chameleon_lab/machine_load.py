"""What else the machine was doing while a run played: its load average, sampled.

A time budget buys a search fewer nodes on a busy machine, so a research run's duels at
10 ms a move are only what they claim on an idle one. Twice a stray process held a core
for hours beside a research run and was noticed only by chance (``research/runs.json``
says which runs were withdrawn for it). :class:`LoadWatch` samples the one-minute load
average (``os.getloadavg``) while a run plays, at its start, every ``every`` seconds and
at its end, so each logged run says how busy the machine was: with ``w`` worker
processes on ``w`` cores a load near ``w`` (plus the notebook's kernel, mostly waiting)
is a machine doing only this run; one well above it, another process beside it.

Where the platform has no load average (Windows), the watch records nothing.

Layer 0: imports nothing of the package.
"""

from __future__ import annotations

import contextlib
import os
import threading
from types import TracebackType
from typing import Any


class LoadWatch:
    """A context manager sampling the one-minute load average on a background thread;
    :meth:`~chameleon_lab.machine_load.LoadWatch.summary` gives the samples' mean and
    largest value."""

    def __init__(self, every: float = 30.0) -> None:
        if not every > 0:
            raise ValueError(f"every must be a positive number of seconds, got {every!r}")
        self.every = float(every)
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _sample(self) -> None:
        with contextlib.suppress(AttributeError, OSError):  # none on this platform
            self.samples.append(float(os.getloadavg()[0]))

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self._sample()

    def __enter__(self) -> LoadWatch:
        self._sample()
        self._thread = threading.Thread(target=self._run, name="load-watch", daemon=True)
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._sample()

    def summary(self) -> dict[str, Any] | None:
        """``{"mean", "max", "samples", "every_s"}`` of the one-minute load average over
        the samples taken (None where the platform gave none)."""
        if not self.samples:
            return None
        return {
            "mean": round(sum(self.samples) / len(self.samples), 2),
            "max": round(max(self.samples), 2),
            "samples": len(self.samples),
            "every_s": self.every,
        }
