"""A Ctrl-C in the notebook batch interrupts the kernel's cell, as Jupyter does, instead
of killing the kernel (:mod:`chameleon_lab.interrupt`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import nbformat
import pytest

CELL = """
import os, pathlib, time
marker = pathlib.Path({marker!r})
marker.write_text(f"started {{os.getpid()}}")
try:
    time.sleep(120)
except KeyboardInterrupt:
    marker.write_text(f"interrupted {{os.getpid()}}")
    raise
"""

RUN = """
import sys
from pathlib import Path
from chameleon_lab.batch import run_notebook
try:
    run_notebook("sleeper", {{}}, Path({reports!r}), source_dir=Path({source!r}))
except KeyboardInterrupt:
    sys.exit(130)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a shell starts a background job


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("background", [False, True])
def test_a_ctrl_c_interrupts_the_running_cell_and_the_run_ends_as_interrupted(tmp_path, background):
    marker = tmp_path / "marker"
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("", metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell(CELL.format(marker=str(marker))),
    ]
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "P"}
    nbformat.write(nb, tmp_path / "sleeper.ipynb")
    code = RUN.format(reports=str(tmp_path / "reports"), source=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True,
                            preexec_fn=_ignore_sigint if background else None)  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not (marker.exists() and marker.read_text().startswith("started")):
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline, "the kernel never ran the cell"
            time.sleep(0.1)
        kernel = int(marker.read_text().split()[1])
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
    # the cell saw the interrupt (a killed kernel would have left "started")
    assert marker.read_text() == f"interrupted {kernel}"
    deadline = time.monotonic() + 30
    while _alive(kernel) and time.monotonic() < deadline:  # shut down after the cell
        time.sleep(0.1)
    assert not _alive(kernel)
