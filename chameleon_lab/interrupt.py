"""A notebook executed by papermill that a Ctrl-C interrupts as Jupyter does.

nbclient, which papermill drives, answers a SIGINT of the process running it by shutting
the kernel down: jupyter_client interrupts the kernel, asks it to shut down, and
terminates its process group (the kernel and its game workers) after 2.5 s and kills it
after 5 s (``shutdown_wait_time``). A cell's own interrupt handling (a tournament waiting
for its workers and writing its records) had 2.5 s at most, and a batch started in the
background, which ignores SIGINT, could only be stopped by signalling its kernel by
hand. :func:`execute_interruptibly` runs papermill in a thread of its own (nbclient
installs its signal handlers only in the main thread) and keeps the main thread
waiting for it: a Ctrl-C there sends SIGINT to the kernel alone, the running cell
raises ``KeyboardInterrupt`` in the kernel and ends as it would in Jupyter, papermill
reports the error, the kernel is shut down as after any notebook, and
``KeyboardInterrupt`` is raised here. A second Ctrl-C kills the kernel and its workers
at once. A batch started in the background listens for SIGINT while a notebook runs,
so ``kill -INT`` to the ``chameleon-lab`` process stops it the same way.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

from jupyter_client.manager import AsyncKernelManager

#: How often (seconds) the main thread wakes to look at the papermill thread.
POLL_SECONDS = 0.2
#: The signal of a second Ctrl-C (Windows has no SIGKILL; its SIGTERM ends a process).
_KILL = getattr(signal, "SIGKILL", signal.SIGTERM)


#: The kernel managers papermill's threads made, in order (see :func:`execute_interruptibly`).
_STARTED: list[TrackedKernelManager] = []


class TrackedKernelManager(AsyncKernelManager):
    """nbclient's kernel manager, remembered so the main thread can signal its kernel."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _STARTED.append(self)

    def signal_kernel(self, signum: int, *, group: bool = False) -> bool:
        """Send ``signum`` to the kernel process alone, or with ``group`` to its process
        group (the kernel and its game workers: jupyter_client starts each kernel in a
        session of its own); whether it was sent (not before the kernel runs, nor
        after it ended)."""
        process = getattr(self.provisioner, "process", None)
        if process is None or process.poll() is not None:
            return False
        try:
            if group and hasattr(os, "killpg"):
                os.killpg(process.pid, signum)
            else:
                process.send_signal(signum)
        except ProcessLookupError:
            return False
        return True


def execute_interruptibly(run: Callable[..., Any], **kwargs: Any) -> Any:
    """``run(kernel_manager_class=TrackedKernelManager, **kwargs)`` (papermill's
    ``execute_notebook``) in a thread, waiting for it in this one: its result or its
    exception, or ``KeyboardInterrupt`` after a Ctrl-C, which interrupts the kernel's
    running cell first (see the module doc)."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["result"] = run(kernel_manager_class=TrackedKernelManager, **kwargs)
        except BaseException as exc:  # handed to the main thread
            outcome["error"] = exc

    first = len(_STARTED)
    thread = threading.Thread(target=target, name="papermill", daemon=True)
    with _listening():
        thread.start()
        interrupted = _wait(thread, first)
    if interrupted:
        raise KeyboardInterrupt
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("result")


@contextlib.contextmanager
def _listening() -> Iterator[None]:
    """Python's Ctrl-C handler while the notebook runs, also where the process was
    started ignoring SIGINT (a shell starts background jobs so): ``kill -INT`` to a
    batch run in the background then stops it as a Ctrl-C in its terminal does."""
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def _wait(thread: threading.Thread, first: int) -> bool:
    """Wait for the papermill ``thread``; after a Ctrl-C interrupt each kernel it
    started (``_STARTED[first:]``) once, as soon as its process runs (a Ctrl-C during
    the kernel's start reaches it when it is up), after a second kill them. Whether
    it was interrupted."""
    presses = 0
    reached: set[int] = set()
    while thread.is_alive():
        try:
            thread.join(POLL_SECONDS)
        except KeyboardInterrupt:
            presses += 1
        for manager in _STARTED[first:] if presses else ():
            if presses > 1:  # a second Ctrl-C: stop at once
                manager.signal_kernel(_KILL, group=True)
            elif id(manager) not in reached and manager.signal_kernel(signal.SIGINT):
                reached.add(id(manager))
    return presses > 0
