"""Shared fixtures: where the reference data lives: ``../shared`` (or
``CHAMELEON_SHARED``) when it is there, else the copy bundled with the package (unpacked
and checked against the originals' checksums), so every copy runs every test."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import threading
import time
from pathlib import Path

import pytest

# --compile-report: what numba compiled, by test file and function (see the module)
pytest_plugins = ["compile_report"]

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CHAMELEON_SHARED", ROOT.parent / "shared"))


def shared_folder() -> Path:
    """The project's shared folder, else the bundled copy."""
    if (SHARED / "reference").is_dir():
        return SHARED
    from chameleon_lab.thesis.bundle import bundled_shared

    return bundled_shared()


def _need(path: Path, what: str) -> Path:
    assert path.exists(), f"{what} missing at {path}"
    return path


@pytest.fixture(scope="session")
def conformance_dir() -> Path:
    """``shared/conformance`` (data recorded from the original program)."""
    return _need(shared_folder() / "conformance", "the conformance data")


@pytest.fixture(scope="session")
def legacy_dir() -> Path:
    """``shared/reference/legacy-sessions`` (the original program's session files)."""
    return _need(shared_folder() / "reference" / "legacy-sessions", "the legacy session files")


@pytest.fixture(scope="session")
def successor_records(conformance_dir: Path) -> list[dict]:
    with (conformance_dir / "successors.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="session")
def legacy_sessions(legacy_dir: Path) -> dict[str, dict]:
    files = sorted(legacy_dir.glob("*.json"))
    assert files, f"no session files (*.json) in {legacy_dir}"
    return {f.name: json.loads(f.read_text(encoding="utf-8")) for f in files}


@pytest.fixture(scope="session")
def thesis_tables_csv() -> Path:
    """``shared/reference/thesis-tables.csv`` (the thesis's tables as numbers)."""
    return _need(shared_folder() / "reference" / "thesis-tables.csv", "the thesis tables")


# ------------------------------------------------------------ one compile per kernel
#: How long a worker waits for another's compile of the same kernel before compiling
#: it itself (a bound, so that no wait can hang the suite).
COMPILE_WAIT_S = 180.0


def _compile_once_across_workers() -> None:
    """pytest-xdist's workers share numba's disk cache, but two that need the same
    compiled search at the same time both compile it (a search kernel takes 1 to 10 s;
    a cold run compiled some 90 kernels twice, about 110 s of CPU). Here a worker's
    compile of a cached function takes a lock file per function, signature and closure
    (numba's own cache key): a second worker waits for the first and then loads its
    result from the cache. Only the test processes do this, on their main thread; when
    numba's internals are not as expected, compiles go on unlocked."""
    from numba.core import sigutils
    from numba.core.dispatcher import Dispatcher

    original = Dispatcher.compile
    held: set[str] = set()  # a recursive function compiles itself inside its own compile

    def lock_name(dispatcher: Dispatcher, sig: object) -> str | None:
        try:
            args, _ = sigutils.normalize_signature(sig)
            if dispatcher.overloads.get(tuple(args)) is not None:
                return None  # compiled in this process already
            cache = dispatcher._cache
            index = cache._cache_file._index_path
            key = cache._index_key(sig, dispatcher.targetctx.codegen())
        except Exception:  # a NullCache (cache=False), or other numba internals
            return None
        return f"{index}.{hashlib.sha256(repr(key).encode()).hexdigest()[:16]}.lock"

    def compile_once(self: Dispatcher, sig: object) -> object:
        if threading.current_thread() is not threading.main_thread():
            return original(self, sig)
        name = lock_name(self, sig)
        if name is None or name in held:
            return original(self, sig)
        try:
            os.makedirs(os.path.dirname(name), exist_ok=True)
            handle = open(name, "a")  # noqa: SIM115 - held across the compile
        except OSError:
            return original(self, sig)
        with handle:
            deadline = time.monotonic() + COMPILE_WAIT_S
            locked = False
            while not locked and time.monotonic() < deadline:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    locked = True
                except BlockingIOError:
                    time.sleep(0.05)
            held.add(name)
            try:
                return original(self, sig)  # loads what the other worker saved
            finally:
                held.discard(name)
                if locked:
                    fcntl.flock(handle, fcntl.LOCK_UN)

    Dispatcher.compile = compile_once


_compile_once_across_workers()
