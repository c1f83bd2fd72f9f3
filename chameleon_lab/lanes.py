"""Several commands at once, each in a process of its own: the lanes of a notebook batch.

A notebook's games use every core, but much of a notebook is one core's work: numba
compiling the searches on a fresh clone, papermill starting a kernel, the analysis and
the figures. :func:`run_lanes` runs up to ``lanes`` commands at once (each a notebook of
the batch, :func:`chameleon_lab.batch.run_batch`), starting them in the order given,
never two of the same ``group`` at once (notebooks that play the same sessions into the
same records files: the second then reads the first one's games back instead of
meeting its lock).

A job's output goes to its log file; a failed job stops the batch from starting more
(those running finish) and is reported with the end of its log. The children run in
sessions of their own, so a Ctrl-C reaches the batch alone, which sends each running
child's process group (the command, its kernel and its game workers) one SIGINT, as
the terminal would: it stops as an interrupted notebook run stops, keeping what it
played, and the batch waits for them before it re-raises.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .checks import whole_number


@dataclass(frozen=True)
class Job:
    """One command of a batch: its ``name``, the ``command`` (argv), the ``log`` file
    its output goes to, and its ``group`` (None: none; two jobs of one group never run
    at once)."""

    name: str
    command: tuple[str, ...]
    log: Path
    group: str | None = None


class JobFailed(RuntimeError):
    """A job exited with a non-zero code; ``returncode`` and the end of its log."""

    def __init__(self, job: Job, returncode: int) -> None:
        self.job, self.returncode = job, returncode
        try:
            tail = "\n".join(job.log.read_text(errors="replace").splitlines()[-15:])
        except OSError:
            tail = "(no log)"
        super().__init__(f"{job.name} exited with code {returncode}; the end of {job.log}:\n{tail}")


def check_lanes(lanes: object) -> None:
    """``ValueError`` unless ``lanes`` is a whole number of at least one."""
    whole_number("lanes", lanes)


def run_lanes(
    jobs: Sequence[Job], lanes: int, *, progress: bool = True, desc: str = "jobs", poll: float = 0.2
) -> list[tuple[str, float]]:
    """Run ``jobs``, at most ``lanes`` at once (see the module docstring); each job's
    name and seconds, in the order they finished. Raises :class:`JobFailed` for the
    first job that failed, once the running ones have ended."""
    from tqdm.auto import tqdm

    check_lanes(lanes)
    waiting = list(jobs)
    running: dict[str, tuple[Job, subprocess.Popen, float]] = {}
    done: list[tuple[str, float]] = []
    failed: JobFailed | None = None
    bar = tqdm(total=len(waiting), desc=desc, unit="notebook", disable=not progress)
    try:
        while waiting or running:
            busy = {job.group for job, _, _ in running.values() if job.group is not None}
            while failed is None and len(running) < lanes:
                ready = next((j for j in waiting if j.group is None or j.group not in busy), None)
                if ready is None:
                    break
                waiting.remove(ready)
                running[ready.name] = (ready, _start(ready), time.perf_counter())
                busy.add(ready.group)
                bar.set_postfix_str(", ".join(running))
            if failed is not None and not running:
                break
            time.sleep(poll)
            for name, (job, proc, began) in list(running.items()):
                code = proc.poll()
                if code is None:
                    continue
                del running[name]
                if code != 0:
                    failed = failed or JobFailed(job, code)
                    continue
                done.append((name, time.perf_counter() - began))
                bar.update(1)
                bar.write(f"{name}: {done[-1][1]:.0f} s")
    except KeyboardInterrupt:
        _stop(running)
        raise
    finally:
        bar.close()
    if failed is not None:
        raise failed
    return done


def _start(job: Job) -> subprocess.Popen:
    job.log.parent.mkdir(parents=True, exist_ok=True)
    with open(job.log, "wb") as log:  # the child holds its own handle
        return subprocess.Popen(
            job.command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )


def _stop(running: dict[str, tuple[Job, subprocess.Popen, float]]) -> None:
    """Let the running jobs stop as an interrupted run does: one SIGINT to each one's
    process group, then wait for them to end."""
    for _, proc, _ in running.values():
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGINT)
    for _, proc, _ in running.values():
        try:
            proc.wait()
        except KeyboardInterrupt:  # a second Ctrl-C: stop at once
            proc.kill()
