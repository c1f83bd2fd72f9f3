"""The conformance entry point run on JSON lines, as the checking program runs it: the
helper the games' conformance tests share."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable, Sequence
from typing import Any


def run(command: Sequence[str], lines: Iterable[dict[str, Any]]) -> subprocess.CompletedProcess:
    """``python -m chameleon_lab.conformance COMMAND`` with ``lines`` as its input."""
    return subprocess.run(
        [sys.executable, "-m", "chameleon_lab.conformance", *command],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def answers(command: str, lines: Iterable[dict[str, Any]]) -> list[str]:
    """The output lines of a run that must succeed (its error shown when it does not)."""
    done = run(command.split(), lines)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()
